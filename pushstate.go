package a2a

import (
	"context"
	"net/http"
	"time"
)

// The life cycle of a PushWait, and of the receiver's hooks and
// goroutines: one state value per wait, moved only by move, and one
// count of the work Close waits for. Each guarantee of PushWait and
// PushReceiver.Close is kept here:
//
//   - a wait ends once: move refuses to leave stateEnded, and only the move
//     into it sets the error, takes the fallback time off the scheduler,
//     stops the poll, the requests running and the watch on the caller's
//     context, retires the token, closes Done and reports the wait (when
//     handed);
//   - one fallback poll at a time, run to its end: statePolling is entered
//     only from stateWaiting, and news does not leave it (settle);
//   - news changes nothing while the final read runs (stateReading) or
//     after the end;
//   - nothing the caller gave is called after Close returns: PushOnDone,
//     PollProgress (in the fallback poll) and the final read run as work
//     Close waits for (r.busy), PushVerify and PushOnNotification are
//     counted while they run (gateHooks), and once Close has seen the
//     count reach zero (r.drained) nothing new is started or reported.

// waitState is where a PushWait is in its life.
type waitState int

const (
	// stateSending: registered; the send's answer (WatchTask's task) has
	// not come. News is folded in and waits for the answer.
	stateSending waitState = iota
	// stateWaiting: answered, not finished; the fallback time is on the
	// client's scheduler.
	stateWaiting
	// statePolling: the fallback poll runs (stopPoll stands it down).
	statePolling
	// stateReading: a status update brought a final state; the one final
	// read runs.
	stateReading
	// stateEnded: ended, with err; final.
	stateEnded
)

// move moves the wait to state to, doing what entering it takes, and
// reports whether it moved; err is the error to end with (to ==
// stateEnded). The moves: sending → waiting, reading or ended; waiting →
// waiting (news: the fallback time starts again), polling, reading or
// ended; polling → reading or ended; reading → ended. Any other is refused.
// w.mu is held.
func (w *PushWait) move(to waitState, err error) bool {
	from := w.state
	switch {
	case from == stateEnded:
		return false
	case to == stateWaiting && from != stateSending && from != stateWaiting,
		to == statePolling && from != stateWaiting,
		to == stateReading && from == stateReading,
		to == stateSending:
		return false
	}
	w.state = to
	switch to {
	case stateWaiting:
		w.due = time.Now().Add(jittered(w.r.fallback, 0.2))
		w.c.scheduler().At(&w.fallback, w.due)
	case statePolling:
		w.c.scheduler().Stop(&w.fallback)
	case stateReading:
		w.quietLocked()
		if !w.r.goWork(w.readFinal) {
			return w.move(stateEnded, ErrReceiverClosed)
		}
	case stateEnded:
		w.err = err
		w.quietLocked()
		if w.unhook != nil {
			w.unhook()
		}
		if w.stopReqs != nil {
			w.stopReqs() // the requests running end; begin makes no more
		}
		w.r.remove(w) // lock order: a wait's, then its receiver's
		if w.done == nil {
			w.done = closedDone
		} else {
			close(w.done)
		}
		if w.handed {
			w.r.reportDone(w)
		}
	}
	return true
}

// closedDone is the Done of the waits that ended before it was asked for.
var closedDone = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// quietLocked takes the fallback time off the scheduler and stops the
// poll running, if any. w.mu is held.
func (w *PushWait) quietLocked() {
	w.c.scheduler().Stop(&w.fallback)
	if w.stopPoll != nil {
		w.stopPoll()
		w.stopPoll = nil
	}
}

// settle moves an answered wait on after its task changed: to its end
// when the task is finished (after the final read when a status update
// brought that, byUpdate), else to waiting again, which starts the
// fallback time again, unless the fallback poll is running: that runs on
// to its end, news or not (a notification that finishes the task still
// ends the wait, and the poll with it). w.mu is held.
func (w *PushWait) settle() {
	switch w.state {
	case stateSending, stateReading, stateEnded:
	default:
		w.follow()
	}
}

// follow moves the wait where its task says: to its end when the task is
// finished by a whole task, to the final read when a status update
// finished it (byUpdate), else to waiting. w.mu is held.
func (w *PushWait) follow() {
	switch {
	case finished(w.cur) && !w.byUpdate:
		w.move(stateEnded, nil)
	case finished(w.cur):
		w.move(stateReading, nil)
	default:
		w.move(stateWaiting, nil)
	}
}

// enter counts a hook call Close waits for, and reports whether it may
// start: only until Close begins.
func (r *PushReceiver) enter() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return false
	}
	r.busy++
	return true
}

// leave ends a piece of work enter counted.
func (r *PushReceiver) leave() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.busy--
	if r.busy == 0 && r.idle.L != nil {
		r.idle.Broadcast()
	}
}

// gateHooks makes the PushVerify and PushOnNotification funcs count as
// work while they run, and refuse (PushVerify with 401,
// PushOnNotification with 500: the wait is left as it was, and the agent
// may send again) a notification whose hook would start once Close has
// begun: it raced Close, and its wait is ending. The context a hook is
// given (the request's, for PushVerify) also ends when Close begins, so
// that a hook waiting on it does not hold Close for as long as the sender
// keeps its connection open.
func (r *PushReceiver) gateHooks() {
	r.closing, r.stopHooks = context.WithCancel(context.Background())
	if verify := r.verify; verify != nil {
		r.verify = func(req *http.Request, body []byte) error {
			if !r.enter() {
				return ErrReceiverClosed
			}
			defer r.leave()
			ctx, stop := r.hookContext(req.Context())
			defer stop()
			return verify(req.WithContext(ctx), body)
		}
	}
	if notify := r.notify; notify != nil {
		r.notify = func(ctx context.Context, n *PushNotification) error {
			if !r.enter() {
				return ErrReceiverClosed
			}
			defer r.leave()
			ctx, stop := r.hookContext(ctx)
			defer stop()
			return notify(ctx, n)
		}
	}
}

// hookContext is ctx, ended too when Close begins.
func (r *PushReceiver) hookContext(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	unhook := context.AfterFunc(r.closing, func() { cancel(ErrReceiverClosed) })
	return ctx, func() {
		unhook()
		cancel(nil)
	}
}
