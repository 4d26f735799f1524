package a2a

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// Logging a PushReceiver's refusals (receiver.go) at a bounded rate: a
// sender that posts without end cannot turn each POST into a log record.

// At most refusalsLogged refusals of each kind are logged in a window of
// refusalWindow; those past it are counted, and the count is logged
// (one record) with the first refusal of a later window, or at Close.
const (
	refusalsLogged = 20
	refusalWindow  = 10 * time.Second
)

// sender kinds, each with a window of its own, so that a flood of
// anonymous POSTs cannot hide the refusals of an agent holding a token.
const (
	anonymous   = iota // no token, an unknown one, not a POST
	tokenHolder        // the token matched a wait
	senderKinds
)

var senderKindNames = [senderKinds]string{"anonymous", "token holder"}

// refusalLog is the rate limit on a receiver's log of refusals.
type refusalLog struct {
	mu      sync.Mutex
	windows [senderKinds]refusalWindowState
}

// refusalWindowState is one kind's window: when it started, how many
// refusals it logged, how many it dropped.
type refusalWindowState struct {
	start   time.Time
	logged  int
	dropped int
}

// admit reports whether a refusal of kind is logged now, and the count
// of those dropped in the window that just ended (0 for none), which the
// caller logs first.
func (l *refusalLog) admit(kind int) (log bool, dropped int, since time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.windows[kind].admit(refusalWindow, refusalsLogged)
}

// admit reports whether one more record is logged in the window of length
// window (at most most records a window), and the count of those dropped
// in the window that just ended (0 for none) and its start, which the
// caller logs first.
func (w *refusalWindowState) admit(window time.Duration, most int) (log bool, dropped int, since time.Time) {
	t := time.Now()
	if w.start.IsZero() || t.Sub(w.start) >= window {
		dropped, since = w.dropped, w.start
		*w = refusalWindowState{start: t}
	}
	if w.logged < most {
		w.logged++
		return true, dropped, since
	}
	w.dropped++
	return false, dropped, since
}

// flush takes the counts of refusals dropped and not yet reported, by
// kind, and the start of their windows.
func (l *refusalLog) flush() (dropped [senderKinds]int, since [senderKinds]time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k := range l.windows {
		dropped[k], since[k] = l.windows[k].dropped, l.windows[k].start
		l.windows[k].dropped = 0
	}
	return dropped, since
}

// logRefusal logs a refused notification from remote (a request's
// RemoteAddr), within the rate limit.
func (r *PushReceiver) logRefusal(ctx context.Context, remote string, out outcome) {
	if !r.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	kind := anonymous
	if out.authed {
		kind = tokenHolder
	}
	log, dropped, since := r.refusals.admit(kind)
	r.logDropped(ctx, kind, dropped, since)
	if !log {
		return
	}
	// Every string is inert: a task id, a reason quoting the body, a
	// hook's error may hold the sender's control or bidi characters, which
	// a handler (slog.JSONHandler) may write as they are.
	attrs := []slog.Attr{slog.Int("status", out.status), slog.String("reason", inert.Printable(out.reason)),
		slog.String("remote", inert.Printable(inert.Truncate(remote, maxLoggedID)))}
	if out.taskID != "" {
		attrs = append(attrs, slog.String("task", inert.Printable(inert.Truncate(out.taskID, maxLoggedID))))
	}
	if out.err != nil {
		attrs = append(attrs, slog.String("err", inert.Printable(out.err.Error())))
	}
	r.log.LogAttrs(ctx, slog.LevelDebug, "a2a push notification refused", attrs...)
}

// logDropped logs how many refusals of kind went unlogged since a window
// started, if any.
func (r *PushReceiver) logDropped(ctx context.Context, kind, dropped int, since time.Time) {
	if dropped == 0 {
		return
	}
	r.log.LogAttrs(ctx, slog.LevelDebug, "a2a push notifications refused and not logged",
		slog.Int("count", dropped), slog.String("senders", senderKindNames[kind]), slog.Time("since", since))
}

// flushRefusals logs the counts of refusals not logged yet (at Close).
func (r *PushReceiver) flushRefusals() {
	dropped, since := r.refusals.flush()
	for k := range dropped {
		r.logDropped(context.Background(), k, dropped[k], since[k])
	}
}
