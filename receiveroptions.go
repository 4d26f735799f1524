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

// PushObserve makes the receiver call f with each request it is sent,
// before it reads or checks anything, for tracing or metrics: the
// a2aotel module extracts the agent's W3C trace context (traceparent)
// from r.Header and starts a span. f returns the context the receiver
// handles the request with (r's, or one derived from it; nil keeps
// r's), which the func given to [PushOnNotification] gets, and done,
// called once (unless nil) with the HTTP status the receiver answered
// (204 for a notification taken; see [PushReceiver] for the others)
// after the answer is written. f and done may be called concurrently
// for concurrent requests and must not read r.Body. It returns an error
// from NewPushReceiver when f is nil.
func PushObserve(f func(r *http.Request) (ctx context.Context, done func(status int))) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if f == nil {
			return errors.New("a2a: PushObserve: nil func")
		}
		c.observe = f
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
// and a hook's error; never a token, credential or body. At most 20
// refusals are logged in 10 seconds from senders without a valid token,
// and 20 from those with one; those past it are counted, and the count is
// logged in one record ("a2a push notifications refused and not
// logged", with count, senders and since) with the next refusal logged,
// or at [PushReceiver.Close]. With [PushReplicas], it also logs at warn
// level a call to the relay that failed and, once per wait, a
// notification passed for a wait held before a restart and not resumed
// (its key as 8 hex digits, never the token); at most 10 such records a
// minute, those past it counted ("a2a push relay warnings not logged")
// in the next one.
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
// a larger body is answered 413, without reading it when its
// Content-Length says so. The default, 4 MiB, is gRPC's default message
// limit, which agents already keep tasks and events under; it is sized
// for notifications, not for replies ([WithMaxResponseBytes]), since a
// wait reads a final task again with [Client.GetTask]. n must be positive,
// and no more than the in-flight budget can hold (see
// [PushMaxInflightBytes]); [NewPushReceiver] returns an error otherwise.
func PushMaxBytes(n int64) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if n <= 0 {
			return fmt.Errorf("a2a: PushMaxBytes %d is not positive", n)
		}
		c.maxBody = n
		return nil
	})
}

// PushMaxInflightBytes bounds the memory of the notifications a receiver
// reads and decodes at once, in bytes (default 64 MiB), whoever sends
// them and however many at a time. Each notification whose token matched
// is charged 64 KiB when its reading starts, then each buffer as its
// bytes arrive (never on the word of its Content-Length: at most about
// three times the body read so far), then, once [PushVerify] passed it,
// what decoding it may take (four times its body, and 2 MiB); all of it
// is given back once the notification is done with: decoded, passed to
// [PushOnNotification] (however long that takes) and folded into its
// wait. One that does not fit is answered at
// once 503 Service Unavailable with "Retry-After: 1", the rest of its
// body unread. n must hold one notification of the largest size, alone:
// at least seven times the cap ([PushMaxBytes]), 2 MiB and 68 KiB
// (30 MiB and 68 KiB for the default cap of 4 MiB); [NewPushReceiver]
// returns an error otherwise.
func PushMaxInflightBytes(n int64) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if n <= 0 {
			return fmt.Errorf("a2a: PushMaxInflightBytes %d is not positive", n)
		}
		c.maxInflight = n
		return nil
	})
}

// PushReadTimeout bounds the time a notification's body may take to
// arrive, from the start of the handler (default 10 seconds); past it the
// receiver answers 408 Request Timeout and the connection is closed. It
// holds when the serving http.Server has no ReadTimeout (one shorter
// than d bounds the body instead): the deadline is set on the connection
// through [http.ResponseController]. Behind a ResponseWriter that cannot
// set it (a wrapper without an Unwrap method) reads that start past the
// deadline fail, which stops a sender that trickles at its next byte, but
// a silent one, and what net/http reads of a body left unread after the
// answer (up to 256 KiB), are then bounded only by the server's
// ReadTimeout. d must be positive.
func PushReadTimeout(d time.Duration) ReceiverOption {
	return receiverOption(func(c *receiverConfig) error {
		if d <= 0 {
			return fmt.Errorf("a2a: PushReadTimeout %v is not positive", d)
		}
		c.readTimeout = d
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
