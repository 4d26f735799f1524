package a2a

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// The options of a PushReceiver (receiver.go).

// ReceiverOption configures a [PushReceiver].
type ReceiverOption interface {
	applyReceiver(*receiverConfig) error
}

// receiverOption is the one implementation of ReceiverOption.
type receiverOption func(*receiverConfig) error

func (o receiverOption) applyReceiver(c *receiverConfig) error { return o(c) }

// PushVerify adds a check of every notification whose token matched:
// f gets the request and its body (read whole, at most the cap) and
// returns an error to refuse it with 401, e.g. after checking a JWT
// signed by the agent against its keys (A2A v1.0 §13.2), which this
// module leaves to the caller's own library. The error is logged at debug
// level, never sent to the agent. f may be called concurrently.
func PushVerify(f func(r *http.Request, body []byte) error) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if f == nil {
			return errors.New("a2a: PushVerify: nil func")
		}
		c.verify = f
		return nil
	})
}

// PushOnNotification makes the receiver call f with each notification it
// takes, before the notification counts for its wait, with the
// request's context; an error from f answers the agent 500 (so it may
// send again; it is logged, not sent) and the notification does not
// count. f may be called concurrently and should return quickly: the
// agent waits for it.
func PushOnNotification(f func(ctx context.Context, n *PushNotification) error) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if f == nil {
			return errors.New("a2a: PushOnNotification: nil func")
		}
		c.notify = f
		return nil
	})
}

// PushOnDone makes the receiver call f once for each wait that ends, after
// SendMessage or WatchTask returned it (a wait whose SendMessage or WatchTask failed is not
// reported), however it ends (see [PushWait.Result]). The calls come one
// at a time, in the order the waits ended (or, for those that ended
// before SendMessage or WatchTask returned them, were returned), from a goroutine of the
// receiver, so f may block (on a channel whose reader is busy, say)
// without holding up notifications, sends or polls; [PushReceiver.Close]
// waits for the calls queued, so f must not call Close itself, and must
// not block on a reader that has gone (see the pattern in docs/waiting.md:
// select on a channel closed when the reader stops). A call may come after the
// wait's Done is closed and its Wait has returned. It is the way to
// collect thousands of results as they end without a goroutine per wait.
func PushOnDone(f func(w *PushWait)) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if f == nil {
			return errors.New("a2a: PushOnDone: nil func")
		}
		c.onDone = f
		return nil
	})
}

// PushLogger logs refused notifications at debug level: status, reason,
// the sender's address, the task id once read (at most 128 bytes of it)
// and a hook's error; never a token, credential or body.
func PushLogger(l *slog.Logger) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if l == nil {
			return errors.New("a2a: PushLogger: nil *slog.Logger")
		}
		c.log = l
		return nil
	})
}

// PushMaxBytes caps a notification's body, in bytes after gzip decoding;
// a larger body is answered 413. By default the cap is that of the wait's
// client ([WithMaxResponseBytes], default [DefaultMaxResponseBytes]). n
// must be positive.
func PushMaxBytes(n int64) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if n <= 0 {
			return fmt.Errorf("a2a: PushMaxBytes %d is not positive", n)
		}
		c.maxBody = n
		return nil
	})
}

// PushFallbackAfter sets how long a wait goes without news of its task
// before it polls the task as [Client.WaitTask] does (default 30 seconds,
// ±20 % so that waits started together do not poll together): push is
// best effort, and an agent may never send a notification. Each
// notification starts the time again, except while the poll runs: it runs
// to its end. The poll takes the wait's options and is bounded by the
// context given to SendMessage or WatchTask, or by [DefaultPollTimeout]
// when that has no deadline and no [PollTimeout] is given; while it runs
// it holds a goroutine, as WaitTask does, so a thousand silent waits poll
// with a thousand. d must be positive.
func PushFallbackAfter(d time.Duration) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if d <= 0 {
			return fmt.Errorf("a2a: PushFallbackAfter %v is not positive", d)
		}
		c.fallback = d
		return nil
	})
}
