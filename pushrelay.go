package a2a

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
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
//
// With it, a notification whose token matches none of the receiver's
// waits (nor one that ended lately) is answered, after asking r which
// replica holds it (Holder):
//
//   - 401 when none does, without reading the body;
//   - 204 once the body, read under the receiver's cap, read timeout and
//     in-flight budget and checked by [PushVerify] (which runs where the
//     notification landed, with its request), was passed to the holder
//     (Pass): the holder takes it as one posted to it (decoded with its
//     wait's client, checked against its wait's task, given to
//     [PushOnNotification], folded), save the token check, done by its
//     hash, and PushVerify;
//   - 503 with "Retry-After: 1" when r fails, so that the agent sends it
//     again, when Holder takes longer than the receiver's read timeout
//     ([PushReadTimeout]) or Pass longer than 10 s, and when 64 Holder
//     calls are in flight already (a flood of unknown tokens costs
//     bounded relay work);
//   - 413 when the body is larger than r can carry: when r has a method
//     MaxBody() int64 (the a2anats relay has) that returns a positive
//     number of bytes, a larger body is not passed;
//   - and the answers of reading a body (413, 408, 400, 503).
//
// A send fails, before its request, when r cannot hold its wait. Ends
// are released in r, but those [PushReceiver.Close] makes: the replica
// keeps them for its next start, and notifications for them that still
// land on it are passed to its own queue in r (204), for Resume to take.
//
// A replica's life: at every start, call [PushReceiver.Resume] (before
// serving the receiver, or soon after: what is passed to it meanwhile is
// kept and delivered once its wait is resumed; a replica that does not
// call it leaves its waits to r's bounds, and a notification passed for a
// wait it held and has not resumed is logged once at warn level). To
// stop, stop the HTTP server first ([http.Server.Shutdown]: the load
// balancer sends the notifications to the other replicas), then Close
// the receiver, then r (its connection): a receiver whose server still
// takes notifications after r is gone answers them 503, which an agent
// that does not retry loses. To retire a replica's name for good,
// Resume its waits and [PushWait.Stop] each (their records are released),
// or leave them to r's bounds (the a2anats relay drops the records at
// their deadlines, or after a day). A failed Hold, Release or Listen is
// logged at warn level ([PushLogger]), at most 10 records a minute: while
// r fails, a restart does not resume the waits held meanwhile.
func PushReplicas(r PushRelay) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if r == nil {
			return errors.New("a2a: PushReplicas: nil PushRelay")
		}
		c.relay = r
		return nil
	})
}

// relayTimeout bounds each call a receiver makes to its relay outside a
// request (a queued Hold or Release), the whole queue once Close has
// begun, and each Pass of a notification.
const relayTimeout = 10 * time.Second

// maxRelayLookups bounds the Holder calls in flight for tokens that match
// none of this replica's waits: past it, such a notification is answered
// 503 without asking the relay, so that a flood of unknown tokens costs
// bounded relay work.
const maxRelayLookups = 64

// relayState is a receiver's side of its relay, guarded by the receiver's
// mu: the Holds and Releases queued, in the order the waits moved, for one
// goroutine to make (so that a wait's Release never comes before its
// Hold); whether that goroutine runs; whether Listen was started.
type relayState struct {
	queue     []relayOp
	running   bool
	listening bool
	// base is the context of the queued calls, made with the first one;
	// cut ends it, once Close has given the queue relayTimeout: the calls
	// not made by then are dropped.
	base context.Context
	cut  context.CancelFunc
	// limit, unless 0, replaces relayTimeout for Close's queue and Pass
	// (tests shorten it: SetRelayTimeout); set before the receiver is used.
	limit time.Duration
	// lookups counts the Holder calls in flight for notifications
	// (passOn), at most maxRelayLookups; read without r.mu.
	lookups atomic.Int32
}

// relayOp is a queued call: Hold of held, or Release of key when held is
// nil; done, unless nil, is closed once it was made.
type relayOp struct {
	key  tokenKey
	held *HeldWait
	done chan struct{}
}

// call names op's relay call: "Hold" or "Release".
func (op relayOp) call() string {
	if op.held != nil {
		return "Hold"
	}
	return "Release"
}

// relayLocked queues op for the relay, starting the goroutine that makes
// the calls unless it runs (work Close waits for). r.mu is held.
func (r *PushReceiver) relayLocked(op relayOp) {
	if r.drained {
		return // Close has returned: nothing starts
	}
	r.relayed.queue = append(r.relayed.queue, op)
	if r.relayed.running {
		return
	}
	r.relayed.running = true
	r.busy++
	base := r.relayed.base
	go func() {
		defer r.leave()
		for {
			r.mu.Lock()
			if len(r.relayed.queue) == 0 {
				r.relayed.running, r.relayed.queue = false, nil
				r.mu.Unlock()
				return
			}
			op := r.relayed.queue[0]
			r.relayed.queue = r.relayed.queue[1:]
			r.mu.Unlock()
			if base.Err() != nil {
				r.relayDropped(op)
			} else {
				r.relayCall(base, op)
			}
			if op.done != nil {
				close(op.done)
			}
		}
	}()
}

// relayLimit is relayTimeout, unless a test shortened it.
func (r *PushReceiver) relayLimit() time.Duration {
	if r.relayed.limit > 0 {
		return r.relayed.limit
	}
	return relayTimeout
}

// relayDropped logs a queued call Close's deadline dropped: a lost Hold
// means a restart does not resume that wait (Warn); a lost Release, that
// a restart resumes a wait that ended, which its first read ends (Debug).
func (r *PushReceiver) relayDropped(op relayOp) {
	level := slog.LevelDebug
	if op.held != nil {
		level = slog.LevelWarn
	}
	r.log.LogAttrs(context.Background(), level, "a2a push relay call dropped at Close", slog.String("call", op.call()))
}

// cutRelayAfter gives the relay calls queued, and those queued until
// Close has waited for them, relayTimeout in all from now: then their
// contexts end and the calls not made are dropped. It returns the func
// that stops the timer. r.mu is held.
func (r *PushReceiver) cutRelayAfter() (stop func()) {
	t := time.AfterFunc(r.relayLimit(), r.relayed.cut)
	return func() { t.Stop() }
}

// relayCall makes one queued call, within base; its failure is logged at
// warn level (a Hold's: a restart does not resume the wait; a Release's: a
// restart resumes a wait that ended, whose fallback poll then ends it).
func (r *PushReceiver) relayCall(base context.Context, op relayOp) {
	ctx, cancel := context.WithTimeout(base, relayTimeout)
	defer cancel()
	var err error
	if op.held != nil {
		err = r.relay.Hold(ctx, *op.held)
	} else {
		err = r.relay.Release(ctx, op.key)
	}
	if err != nil {
		r.logRelayFailure(ctx, op.call(), err)
	}
}

// holdNew records a new wait in the relay before its request goes out, so
// that a notification that lands on another replica before the agent's
// answer is passed to this one. No relay: nothing to do.
func (r *PushReceiver) holdNew(ctx context.Context, w *PushWait) error {
	if r.relay == nil {
		return nil
	}
	h := HeldWait{Key: w.key}
	h.Deadline, _ = ctx.Deadline()
	if err := r.relay.Hold(ctx, h); err != nil {
		return fmt.Errorf("a2a: push relay: hold: %w", err)
	}
	r.mu.Lock()
	r.startListeningLocked()
	r.mu.Unlock()
	return nil
}

// holdTaskLocked queues the Hold of the task id of a wait its call hands
// to the caller, unless it has ended, and returns a channel closed once
// the Hold was made or dropped (nil for none): the call returns after it
// (or once its ctx ends), so that a wait handed to the caller is one a
// restart resumes. It is queued, in
// order with the Release of the wait's end, so that the record of a wait
// that ends meanwhile is not made again. w.mu is held.
func (w *PushWait) holdTaskLocked() <-chan struct{} {
	r := w.r
	if r.relay == nil || w.state == stateEnded || w.idLocked() == "" {
		return nil
	}
	h := &HeldWait{Key: w.key, TaskID: w.idLocked()}
	h.Deadline, _ = w.ctx.Deadline()
	done := make(chan struct{})
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.relayLocked(relayOp{key: w.key, held: h, done: done})
	return done
}

// dropLocked takes w out of the receiver's waits once it ended. Its
// token is retired, and with a relay its record released, unless Close
// ended it: then, with a relay, the record stays for the next start
// (Resume), and the token is not retired, so that a notification for it
// that still lands here is passed on (to this replica's queue in the
// relay, for its next start). r.mu is held.
func (r *PushReceiver) dropLocked(w *PushWait) {
	delete(r.waits, w.key)
	switch {
	case r.relay == nil:
		r.retired.add(w.key)
	case w.err != ErrReceiverClosed:
		r.retired.add(w.key)
		r.relayLocked(relayOp{key: w.key})
	}
}

// Resume waits again for the waits this replica held when it stopped
// (Close, or a crash), as the relay keeps them ([PushReplicas]): each is
// registered under its token's hash (the token itself is not kept, and
// not needed: the relay passes what the agent sends with it) and waits as
// one [PushReceiver.SendMessage] returned does, with c (the client its
// waits were made with: give one per agent) and opts as SendMessage's. It
// sends no request: its Task is a task with only its id until news comes;
// the notifications passed to this replica while it was down come first.
// Each is reported to [PushOnDone] when it ends, and released like any.
// A wait whose agent never named its task (the replica stopped before the
// answer) cannot be waited for, and is released. ctx bounds the waits, as
// SendMessage's does, and so does the deadline each had. Call it at every
// start of the replica (see "A replica's life" at [PushReplicas]). A
// second call resumes only the waits not resumed yet. Errors: no relay, a
// Client not made by [NewClient], the relay's (Held), an option's error,
// and [ErrReceiverClosed]; the waits resumed before an error are returned
// with it.
func (r *PushReceiver) Resume(ctx context.Context, c *Client, opts ...WaitOption) ([]*PushWait, error) {
	if r.relay == nil {
		return nil, errors.New("a2a: Resume: the receiver has no PushRelay (PushReplicas)")
	}
	if err := c.usable(); err != nil {
		return nil, err
	}
	cfg, err := newPushPollConfig(opts)
	if err != nil {
		return nil, err
	}
	held, err := r.relay.Held(ctx)
	if err != nil {
		return nil, fmt.Errorf("a2a: push relay: held: %w", err)
	}
	var resumed []*PushWait
	for _, h := range held {
		if h.TaskID == "" {
			r.mu.Lock()
			r.relayLocked(relayOp{key: h.Key})
			r.mu.Unlock()
			continue
		}
		w, err := r.resumeWait(ctx, c, cfg, h)
		if errors.Is(err, errWaitRegistered) {
			continue // resumed already: the check and the registration are one step (add)
		}
		if err != nil {
			return resumed, err
		}
		resumed = append(resumed, w)
	}
	r.mu.Lock()
	r.startListeningLocked()
	r.mu.Unlock()
	return resumed, nil
}

// resumeWait registers a wait of h's and moves it on as the answer of its
// task would.
func (r *PushReceiver) resumeWait(ctx context.Context, c *Client, cfg *pollConfig, h HeldWait) (*PushWait, error) {
	cancel := context.CancelFunc(func() {})
	if !h.Deadline.IsZero() {
		ctx, cancel = context.WithDeadline(ctx, h.Deadline)
	}
	w, err := r.register(ctx, c, cfg, "", h.Key)
	if err != nil {
		cancel()
		return nil, err
	}
	defer r.leave()
	w.mu.Lock() // the deadline's context ends with the wait
	if unhook := w.unhook; w.state != stateEnded && unhook != nil {
		w.unhook = func() bool { ok := unhook(); cancel(); return ok }
	} else {
		cancel()
	}
	w.mu.Unlock()
	w.answer(&Task{ID: h.TaskID})
	return w.hand()
}
