package a2a

import (
	"context"
	"errors"
	"time"
)

// Receivers on several replicas of one program (issue 24): a program that
// runs replicas behind a load balancer gives agents one webhook URL, and a
// notification lands on any replica. Through a PushRelay, the replica that
// takes a notification for a wait it does not hold passes it to the one
// that does, and every replica keeps its pending waits outside the
// process, so that once restarted it resumes them (PushReceiver.Resume).

// PushRelay connects the [PushReceiver]s of the replicas of one program,
// each under a name of its own that the relay knows (the a2anats module's
// relay is one, on NATS JetStream). It is trusted infrastructure: it holds
// the SHA-256 of each wait's token, never the token, but the bodies it
// passes may hold task data (messages, artifacts), so it must be as
// trusted as the replicas themselves. Its methods are called concurrently.
//
// A receiver calls Hold when a wait starts (before the request that
// registers its webhook, so that a notification that races the agent's
// answer is passed too) and again once its task id is known, Release when
// it ends (but not when [PushReceiver.Close] ends it: a replica that
// closes keeps its waits for its next start), Holder and Pass for a
// notification whose token matches none of its waits, Listen while it
// has waits (from the first, until Close), and Held in Resume.
type PushRelay interface {
	// Hold records that this replica holds w, or updates the record of
	// w.Key (its task id once known).
	Hold(ctx context.Context, w HeldWait) error
	// Release drops the record of the wait whose token hashes to key; a
	// key not held is no error.
	Release(ctx context.Context, key [32]byte) error
	// Held returns the records of this replica's waits, those it held
	// before a restart included.
	Held(ctx context.Context) ([]HeldWait, error)
	// Holder returns the name of the replica that holds the wait whose
	// token hashes to key, this one's included, or an error wrapping
	// [ErrWaitNotHeld] when none does.
	Holder(ctx context.Context, key [32]byte) (replica string, err error)
	// Pass hands n to the named replica durably: once it returns nil, n
	// is kept until that replica's Listen delivers it and deliver returns
	// nil, across that replica's restarts and the relay's.
	Pass(ctx context.Context, replica string, n RelayedNotification) error
	// Listen calls deliver with each notification passed to this
	// replica, one at a time or concurrently, until ctx ends; it returns
	// nil then, and an error when it cannot go on (the receiver calls it
	// again, a second later). A notification whose deliver returned an
	// error is delivered again later.
	Listen(ctx context.Context, deliver func(ctx context.Context, n RelayedNotification) error) error
}

// HeldWait is the record of a pending [PushWait] a [PushRelay] keeps: what
// [PushReceiver.Resume] needs to wait again, and never the token.
type HeldWait struct {
	// Key is the SHA-256 of the wait's token.
	Key [32]byte
	// TaskID is the id of the task waited for, "" until the agent named
	// it (Resume cannot wait for such a wait, and releases it).
	TaskID string
	// Deadline is when the wait's context ends, the zero time for never.
	Deadline time.Time
}

// RelayedNotification is a notification one replica took and passes to
// the replica holding its wait.
type RelayedNotification struct {
	// Key is the SHA-256 of the token the notification came with.
	Key [32]byte
	// Body is the notification's body as read (after gzip decoding), at
	// most the taking receiver's cap ([PushMaxBytes]). The holder decodes
	// it with its wait's client, as if it had been posted to it.
	Body []byte
}

// ErrWaitNotHeld is what a [PushRelay]'s Holder returns, wrapped or not,
// when no replica holds a wait of the key asked about.
var ErrWaitNotHeld = errors.New("a2a: no replica holds a wait of this notification's token")

// PushReplicas makes the receiver one of several replicas sharing their
// waits through r: it records each wait it holds in r, passes to their
// holders the notifications whose token matches none of its waits, takes
// those passed to it, and can resume its waits after a restart
// ([PushReceiver.Resume]). It returns an error from NewPushReceiver when r
// is nil.
func PushReplicas(r PushRelay) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if r == nil {
			return errors.New("a2a: PushReplicas: nil PushRelay")
		}
		c.relay = r
		return nil
	})
}
