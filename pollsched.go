package a2a

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/sched"
)

// The polling engine: every tasks/get of a polling wait ([Client.WaitTask],
// [Client.SendMessageAndWait], [Client.WaitTasks], a PushWait's fallback
// poll) runs as an entry of the client's one scheduler (internal/sched),
// at most the client's in-flight bound at once. A waiting poll holds no
// goroutine, timer or context: it is a pollWait (its task, attempt,
// interval, last task and fault) pointing at the pollCall shared by the
// waits of one call (config, caller's ctx, start, deadline). A call has
// one context of its own when the poll has a deadline of its own (its
// live context, which ends at that deadline: the call's waits end then
// whether or not a scheduler slot is free), and one for the length of
// each tasks/get.

// DefaultMaxPollsInFlight is how many tasks/get the polling waits of one
// [Client] make at once unless [WithMaxPollsInFlight] says otherwise; the
// shared transport keeps twice as many idle connections per host (128),
// so these polls reuse connections instead of opening new ones.
const DefaultMaxPollsInFlight = 64

// scheduler returns the client's poll scheduler, made on first use.
func (c *Client) scheduler() *sched.Scheduler {
	c.pollsOnce.Do(func() { c.polls = sched.New(cmp.Or(c.maxPolls, DefaultMaxPollsInFlight)) })
	return c.polls
}

// pollCall is what the waits of one call share.
type pollCall struct {
	c   *Client
	ctx context.Context // the caller's; its end ends every wait of the call
	cfg *pollConfig
	// start is when the call's waits started; deadline, when not zero, is
	// the poll's own bound (start + PollTimeout, or DefaultPollTimeout when
	// ctx has no deadline), on top of ctx's.
	start, deadline time.Time
	// live is ctx, or its child ending at deadline when there is one (made
	// by open, released by close): its end ends the pending waits (watch)
	// and the attempts in flight (their contexts are its children).
	live    context.Context
	release context.CancelFunc
	// done gets each wait's end, once, after its last attempt returned,
	// in a scheduler worker or the goroutine ctx's end runs in; never with
	// a lock of the wait held.
	done func(w *pollWait, task *Task, err error)
}

func newPollCall(c *Client, ctx context.Context, cfg *pollConfig, done func(*pollWait, *Task, error)) *pollCall {
	pc := &pollCall{c: c, ctx: ctx, cfg: cfg, start: time.Now(), done: done}
	if bound := pollBound(ctx, cfg.timeout); bound > 0 {
		pc.deadline = pc.start.Add(bound)
	}
	return pc
}

// open makes pc.live; close must follow once the call's waits ended.
func (pc *pollCall) open() {
	pc.live = pc.ctx
	if !pc.deadline.IsZero() {
		pc.live, pc.release = context.WithDeadline(pc.ctx, pc.deadline)
	}
}

// close releases pc.live.
func (pc *pollCall) close() {
	if pc.release != nil {
		pc.release()
	}
}

// pollWait is one task being polled.
type pollWait struct {
	sched.Entry
	call   *pollCall
	taskID string

	mu      sync.Mutex
	attempt int                // tasks/get started
	wait    time.Duration      // the interval before jitter
	last    *Task              // the last task known
	lastErr error              // the transient fault of the last attempt
	cancel  context.CancelFunc // the running attempt's
	running bool               // step runs: only it ends w then
	stopped bool               // stop was called
	ended   bool               // done was or is being called
}

// init readies w to poll taskID; known is the task the caller holds (nil
// if none), the last task known until one is read.
func (w *pollWait) init(call *pollCall, taskID string, known *Task) {
	w.call, w.taskID, w.last = call, taskID, known
	w.wait = min(call.cfg.interval, call.cfg.maxInterval)
	w.Init(w.step)
}

// begin schedules the first attempt, at once.
func (w *pollWait) begin() { w.call.c.scheduler().At(&w.Entry, time.Now()) }

// step makes one attempt, in a scheduler worker, and schedules the next or
// ends the wait: the loop of the poll.go doc, one turn per call.
func (w *pollWait) step() {
	pc, cfg := w.call, w.call.cfg
	w.mu.Lock()
	if w.ended {
		w.mu.Unlock()
		return
	}
	if w.stopped || pc.live.Err() != nil || pc.pastDeadline(time.Now()) {
		w.endLocked(w.ranOutLocked())
		return
	}
	w.running = true
	actx, cancel := context.WithCancel(pc.live) // live's child: ends with ctx and at the poll's deadline
	w.cancel = cancel
	w.attempt++
	attempt := w.attempt
	w.mu.Unlock()

	task, err := pc.c.GetTask(actx, w.taskID, cfg.call...)
	cut := actx.Err() != nil
	cancel()

	w.mu.Lock()
	w.cancel = nil
	done := false
	switch {
	case err != nil && cut:
		w.endLocked(w.ranOutLocked())
		return
	case err != nil && !transient(err):
		w.endLocked(w.last, err)
		return
	case err != nil:
		w.lastErr = err // a gateway blip: poll again within the budget
	default:
		w.last, w.lastErr = task, nil
		// Terminal (a failed task is a value) or interrupted (the caller
		// must answer). Submitted, working, unknown, absent or a state
		// newer than this SDK: not finished, never success.
		done = task.Status.State.final()
	}
	next := time.Duration(0)
	if !done && attempt < cfg.maxAttempts {
		next = min(jittered(w.wait, cfg.jitter), cfg.maxInterval)
	}
	w.mu.Unlock()
	if cfg.seen != nil && err == nil {
		cfg.seen(task)
	}
	if cfg.progress != nil && err == nil {
		if p := callProgress(cfg.progress, PollAttempt{Attempt: attempt, Task: task, Elapsed: time.Since(pc.start), Next: next}); p != nil {
			w.mu.Lock()
			w.endLocked(w.last, p) // the caller's goroutine panics anew
			return
		}
	}

	w.mu.Lock()
	switch {
	case done:
		w.endLocked(task, nil)
		return
	case attempt >= cfg.maxAttempts:
		w.endLocked(w.stopLocked(PollLimitAttempts, nil))
		return
	}
	if he, ok := errors.AsType[*HTTPError](err); ok && he.RetryAfter > next {
		// The server asked for a longer pause (a Retry-After over the
		// call's retry cap): honour it, or stop now if the poll's
		// deadline comes first, rather than sleep into it.
		if dl, ok := pc.nearestDeadline(); ok && time.Until(dl) < he.RetryAfter {
			if cd, ok := pc.ctx.Deadline(); ok && !cd.After(dl) {
				w.endLocked(w.stopLocked(PollLimitContext, context.DeadlineExceeded))
				return
			}
			w.endLocked(w.stopLocked(PollLimitDeadline, context.DeadlineExceeded))
			return
		}
		next = he.RetryAfter
	}
	if w.stopped || pc.live.Err() != nil {
		w.endLocked(w.ranOutLocked())
		return
	}
	at := time.Now().Add(next)
	if !pc.deadline.IsZero() && pc.deadline.Before(at) {
		at = pc.deadline // the wait is cut short: step then ends it
	}
	w.wait = min(time.Duration(float64(w.wait)*cfg.multiplier), cfg.maxInterval)
	w.running = false // pending from here: stop, ctxDone and drop may end it
	pc.c.scheduler().At(&w.Entry, at)
	w.mu.Unlock()
}

// stop ends the poll early, as the caller's ctx ending does but with
// context.Canceled: a pending attempt is dropped, a running one's context
// canceled; done follows, in a worker. It never blocks nor calls done
// itself, so it may be called with the caller's locks held, any number of
// times, also after the end.
func (w *pollWait) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ended || w.stopped {
		return
	}
	w.stopped = true
	if w.running {
		if w.cancel != nil {
			w.cancel()
		}
		return // step sees stopped and ends w
	}
	w.call.c.scheduler().At(&w.Entry, time.Now()) // step runs, sees stopped and ends w
}

// ctxDone ends w if it is pending, in the goroutine ctx's end runs in; a
// running attempt's context is ctx's child and ends with it, and step
// then ends w.
func (w *pollWait) ctxDone() {
	w.mu.Lock()
	if w.ended || w.running || !w.call.c.scheduler().Stop(&w.Entry) {
		w.mu.Unlock()
		return
	}
	w.endLocked(w.ranOutLocked())
}

// drop ends w without a result if it is pending and reports whether it
// did; else it stops w, whose done then follows.
func (w *pollWait) drop() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ended {
		return false
	}
	if !w.running && w.call.c.scheduler().Stop(&w.Entry) {
		w.ended = true
		return true
	}
	w.stopped = true // step, running or about to, sees it and ends w
	if w.cancel != nil {
		w.cancel()
	}
	return false
}

// endLocked marks w ended, unlocks it and calls done. w.mu is held.
func (w *pollWait) endLocked(task *Task, err error) {
	w.ended, w.running = true, false
	w.mu.Unlock()
	w.call.done(w, task, err)
}

// ranOutLocked is the end of a wait cut short: by the caller's ctx, by
// stop, or by the poll's own deadline. w.mu is held.
func (w *pollWait) ranOutLocked() (*Task, error) {
	switch {
	case w.call.ctx.Err() != nil:
		return w.stopLocked(PollLimitContext, w.call.ctx.Err())
	case w.stopped:
		return w.stopLocked(PollLimitContext, context.Canceled)
	}
	return w.stopLocked(PollLimitDeadline, context.DeadlineExceeded)
}

// stopLocked is the last task known and a *PollError for a wait that
// gave up. w.mu is held.
func (w *pollWait) stopLocked(limit PollLimit, err error) (*Task, error) {
	pc := w.call
	pe := &PollError{TaskID: w.taskID, Attempts: w.attempt, Elapsed: time.Since(pc.start), Limit: limit, Err: err, LastErr: w.lastErr}
	if w.last != nil {
		// The state is server text going into an error: redacted.
		pe.LastState = TaskState(pc.c.red.Str(string(w.last.Status.State)))
	}
	return w.last, pe
}

// pastDeadline reports whether the poll's own deadline has passed at now.
func (pc *pollCall) pastDeadline(now time.Time) bool {
	return !pc.deadline.IsZero() && !now.Before(pc.deadline)
}

// nearestDeadline is the earlier of ctx's deadline and the poll's own.
func (pc *pollCall) nearestDeadline() (time.Time, bool) {
	cd, ok := pc.ctx.Deadline()
	switch {
	case pc.deadline.IsZero():
		return cd, ok
	case !ok || pc.deadline.Before(cd):
		return pc.deadline, true
	}
	return cd, true
}

// progressPanic is the end of a wait whose PollProgress func panicked or
// called runtime.Goexit (as t.FailNow does): it carries the value to the
// caller's goroutine, which panics with it, or exits (WaitTask,
// SendMessageAndWait, WaitTasks), or becomes an error (a PushWait's
// fallback poll, see startPoll).
type progressPanic struct {
	value  any
	goexit bool // fn called runtime.Goexit; value is nil
}

func (p *progressPanic) Error() string {
	if p.goexit {
		return "a2a: the PollProgress func called runtime.Goexit"
	}
	return "a2a: the PollProgress func panicked"
}

// callProgress calls fn in a goroutine of its own, which the worker waits
// for, and returns what fn panicked with, or that it called
// runtime.Goexit, if it did: neither may end a worker, whose slot and
// wait would then never be given back.
func callProgress(fn func(PollAttempt), a PollAttempt) *progressPanic {
	ended := make(chan *progressPanic, 1)
	go func() {
		returned := false
		defer func() {
			switch v := recover(); {
			case v != nil:
				ended <- &progressPanic{value: v}
			case !returned:
				ended <- &progressPanic{goexit: true}
			default:
				ended <- nil
			}
		}()
		fn(a)
		returned = true
	}()
	return <-ended
}

// repanic panics with what a PollProgress func panicked with, or calls
// runtime.Goexit if it did, when err says so; it runs in the caller's
// goroutine.
func repanic(err error) {
	if p, ok := err.(*progressPanic); ok {
		if p.goexit {
			runtime.Goexit()
		}
		panic(p.value)
	}
}

// watch ends the pending waits of a call when ctx ends, from one
// goroutine for the whole call; it returns the func that stops watching.
// A ctx that cannot end costs nothing.
func watch(ctx context.Context, end func()) (unwatch func() bool) {
	if ctx.Done() == nil {
		return func() bool { return false }
	}
	return context.AfterFunc(ctx, end)
}

// wait is the poll of WaitTask and awaitTask, shaped by cfg (newPollConfig);
// known is the task the caller holds (nil for WaitTask), the last task
// known until one is read. The caller's goroutine blocks while the
// client's scheduler makes the attempts.
func (c *Client) wait(ctx context.Context, taskID string, known *Task, cfg pollConfig) (*Task, error) {
	type result struct {
		task *Task
		err  error
	}
	ch := make(chan result, 1)
	c.launch(ctx, taskID, known, &cfg, func(task *Task, err error) { ch <- result{task, err} })
	r := <-ch
	repanic(r.err)
	return r.task, r.err
}

// startPoll polls taskID as WaitTask does, shaped by cfg, without blocking:
// known is the task the caller holds (nil if none), the last task known
// until one is read. done gets the end, once, with WaitTask's results,
// after the last attempt returned (so no cfg.seen or cfg.progress call
// follows it), in a goroutine of the client's scheduler or the one ctx's
// end runs in, never in the caller's. stop ends the poll early: done then
// follows with the last task and a *PollError (PollLimitContext,
// context.Canceled); stop never blocks nor calls done itself, so it may be
// called with locks held that done takes, any number of times, also after
// done. A panic of cfg.progress, or its runtime.Goexit, ends the poll with
// an error saying so (no goroutine of the caller's is blocked on it to
// panic or exit in).
func (c *Client) startPoll(ctx context.Context, taskID string, known *Task, cfg *pollConfig, done func(*Task, error)) (stop func()) {
	return c.launch(ctx, taskID, known, cfg, func(task *Task, err error) {
		if p, ok := err.(*progressPanic); ok && !p.goexit {
			// The value is the caller's, but may quote what the agent sent.
			err = fmt.Errorf("a2a: the PollProgress func panicked: %s", inert.Truncate(inert.Printable(c.red.Str(fmt.Sprint(p.value))), maxShown))
		}
		done(task, err)
	}).stop
}

// launch starts the poll of taskID as a call of its own (wait, startPoll):
// done gets its end, once, once the call's watch of ctx and its live
// context are released.
func (c *Client) launch(ctx context.Context, taskID string, known *Task, cfg *pollConfig, done func(*Task, error)) *pollWait {
	w := new(pollWait)
	var unwatch func() bool
	pc := newPollCall(c, ctx, cfg, func(_ *pollWait, task *Task, err error) {
		unwatch()
		w.call.close()
		done(task, err)
	})
	pc.open()
	w.init(pc, taskID, known)
	unwatch = watch(pc.live, w.ctxDone)
	w.begin()
	return w
}
