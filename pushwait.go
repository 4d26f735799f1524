package a2a

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
	"github.com/caoliao-a2a/a2a-go/internal/sched"
)

// PushWait is one task a [PushReceiver] waits for: it registered the
// receiver's URL with the agent under a token of its own, and each
// notification with that token moves its task on, until the task is
// terminal (completed, failed, canceled, rejected) or interrupted
// (input-required, auth-required). A wait costs memory, not goroutines:
// while it waits it holds no goroutine, timer or context of its own (its
// fallback time is an entry of the client's scheduler, whose bound
// [WithMaxPollsInFlight] the fallback poll's tasks/get calls share with
// the client's other polling waits), and it watches the context it was
// given only when that context can end. Its methods are safe for concurrent use.
//
// A wait ends, once, when:
//   - its task becomes terminal or interrupted, by the send's answer, a
//     notification or the fallback poll: Result returns the task and nil.
//     When a status update brought the final state, the task is read
//     once with [Client.GetTask] (the spec's advice: notifications may
//     come out of order, or some not at all), and that read's task is
//     the result; if the read fails, the task as the notifications built
//     it comes with the read's error, and if the agent's task is not
//     final yet (its store lags behind its notifications), the built task
//     comes with nil (it may lack artifacts the notifications did not
//     carry);
//   - the agent answers the send with a Message, no notification having
//     named a task before: Result returns it (after one did, the wait
//     goes on for that task);
//   - no news of the task came for the receiver's [PushFallbackAfter] and
//     the fallback poll (as [Client.WaitTask], with the wait's options)
//     gives up or fails: its error;
//   - the context given to SendMessage or WatchTask ends: its error (its
//     cause), wrapped in one naming the task and its last state once the
//     agent has named the task: no notification may have come, so read
//     the task again ([Client.GetTask]) or wait for it ([Client.WaitTask]);
//   - [PushWait.Stop]: [ErrWaitStopped]; [PushReceiver.Close]:
//     [ErrReceiverClosed];
//   - the send's answer names another task than the notifications that
//     came before it: a *[ProtocolError];
//   - a notification would take the task's artifacts past the client's
//     reply cap ([WithMaxResponseBytes]): a *[FoldTooLargeError], with
//     the task as it stood.
//
// Folding notifications costs time and memory linear in their number:
// the wait folds its own task in place, and [PushWait.Task] and
// [PushWait.Result] hand out a copy, made once per change, that later
// notifications never modify.
//
// An unknown state is not finished, never success, as with polling.
type PushWait struct {
	r     *PushReceiver
	c     *Client
	token string
	key   tokenKey
	// red is the client's redactor with the token, made when an error
	// first needs it (redactor): a wait that meets none costs none.
	red atomic.Pointer[redact.Redactor]
	// opts is the wait's options: its calls' (opts.call: the send, the
	// final read) and its fallback poll's; shared by the waits made
	// without options (newPushPollConfig). Never modified.
	opts *pollConfig
	// ctx is the caller's: it bounds the wait (watched by unhook when it
	// can end), and the requests the wait makes run in contexts made from
	// it while they run (begin).
	ctx context.Context

	mu sync.Mutex
	// done is closed when the wait ends; made when first asked for (Done,
	// Wait) or at the end.
	done chan struct{}
	// unhook stops the ending of the wait by the caller's ctx; nil when
	// that ctx cannot end.
	unhook func() bool
	// cur is the last task known, folded in place; shown is the copy of
	// it handed out (Task, Result, the fallback poll), never modified, nil
	// when cur changed since (taskLocked makes one). shown == cur when cur
	// came whole (the answer, a read) and no fold has changed it since.
	cur, shown *Task
	msg        *Message // the agent's answer, when it was a message
	// byUpdate: the task's status came last from a status update, not a
	// whole task (a final one is then read once with GetTask).
	byUpdate bool
	// state is where the wait is in its life; only move changes it
	// (pushstate.go).
	state waitState
	err   error // what the wait ended with, once it has
	// handed: SendMessage or WatchTask returned the wait, so its end is
	// reported to PushOnDone (by the move to stateEnded, or by hand when
	// it ended first).
	handed bool
	// fallback is the wait's place on the client's scheduler while it
	// waits for news: it comes due at due, when the fallback poll starts
	// (fallbackDue), news permitting.
	fallback sched.Entry
	due      time.Time
	// reqs is the context of the requests the wait runs (the send, the
	// registration, reads), made by the first of them and ended by the
	// last or by the end of the wait; nreqs counts them.
	reqs     context.Context
	stopReqs context.CancelFunc
	nreqs    int
	// stopPoll stands the running fallback poll down (its end, polled,
	// follows); nil when none runs.
	stopPoll func()
}

// SendMessage sends msg as [Client.SendMessage] does, with the receiver's
// URL and a fresh token registered for the task ([Webhook]), and returns
// the wait for its final state: ended at once when the agent answers with
// a finished task or a Message. The send does not block (Blocking(false)
// unless a [Blocking] option says otherwise: the point is not to hold a
// connection per task). opts are those of [Client.SendMessageAndWait]: the
// CallOptions go to the send (and to the wait's GetTask calls); the Poll
// options shape the fallback poll. ctx bounds the send and the whole wait:
// give the lifetime of the wait, not of the send alone. Errors: those of
// SendMessage (no wait is left registered then, nor reported to
// [PushOnDone]), an option's error, [ErrReceiverClosed] (Close came
// first, or stopped the send before its answer), and [ErrWaitStopped] (a
// [PushOnNotification] func stopped the wait before the answer); the
// wait is nil whenever the error is not. Close or Stop after the answer
// leave SendMessage's result alone: the wait it returns has ended with their
// error, and its Task is what the agent answered.
func (r *PushReceiver) SendMessage(ctx context.Context, c *Client, msg Message, opts ...WaitOption) (*PushWait, error) {
	cfg, err := newPushPollConfig(opts)
	if err != nil {
		return nil, err
	}
	w, err := r.newWait(ctx, c, cfg)
	if err != nil {
		return nil, err
	}
	defer r.leave()
	call := append(append([]CallOption{Blocking(false)}, cfg.call...), Webhook(w.config()))
	rctx, end := w.begin()
	res, err := c.SendMessage(rctx, msg, call...)
	end()
	if err != nil {
		return nil, w.fail(err)
	}
	w.answer(res)
	return w.hand()
}

// WatchTask registers the receiver's URL for task, a task the agent already
// holds, with [Client.CreateTaskPushNotificationConfig], reads the task once
// more with [Client.GetTask] (it may have ended before the registration
// arrived; that read's failure is left to the fallback poll), and returns
// the wait for its final state. A task already terminal or interrupted
// gives an ended wait without a request. opts and ctx are as for
// [PushReceiver.SendMessage]. Errors: those of CreateTaskPushNotificationConfig, an
// error for a nil task or one without an id, an option's error,
// [ErrReceiverClosed] and [ErrWaitStopped] as for SendMessage; the wait is nil
// whenever the error is not.
func (r *PushReceiver) WatchTask(ctx context.Context, c *Client, task *Task, opts ...WaitOption) (*PushWait, error) {
	cfg, err := newPushPollConfig(opts)
	if err != nil {
		return nil, err
	}
	if task == nil || task.ID == "" {
		return nil, errors.New("a2a: WatchTask needs a task with an id")
	}
	w, err := r.newWait(ctx, c, cfg)
	if err != nil {
		return nil, err
	}
	defer r.leave()
	w.answer(task)
	if w.isEnded() {
		return w.hand()
	}
	rctx, end := w.begin()
	defer end()
	set := TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: w.config()}
	if _, err := c.CreateTaskPushNotificationConfig(rctx, set, cfg.call...); err != nil {
		return nil, w.fail(err)
	}
	if now, err := c.GetTask(rctx, task.ID, cfg.call...); err == nil && now.ID == task.ID {
		w.apply(now, now.ID)
	}
	return w.hand()
}

// newWait registers a wait with a fresh token; its fallback time starts
// with its answer. A pending wait holds no goroutine, timer or context of
// its own: the caller's ctx is watched only when it can end, and the
// fallback time is an entry on the client's scheduler.
func (r *PushReceiver) newWait(ctx context.Context, c *Client, poll *pollConfig) (*PushWait, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	token := rand.Text()
	w, err := r.register(ctx, c, poll, token, sha256.Sum256([]byte(token)))
	if err != nil {
		return nil, err
	}
	if err := r.holdNew(ctx, w); err != nil {
		w.fail(err)
		r.leave()
		return nil, err
	}
	return w, nil
}

// register registers a wait of token ("" for a resumed wait, which has
// only its key), for a call under way (r.busy; the call marks its end with
// leave).
func (r *PushReceiver) register(ctx context.Context, c *Client, poll *pollConfig, token string, key tokenKey) (*PushWait, error) {
	w := &PushWait{r: r, c: c, token: token, key: key, opts: poll, ctx: ctx}
	w.fallback.Init(w.fallbackDue)
	if err := r.add(w); err != nil {
		return nil, err
	}
	if ctx.Done() == nil {
		return w, nil // a ctx that cannot end: nothing to watch
	}
	w.mu.Lock() // finish, which the func may call at once, reads unhook
	w.unhook = context.AfterFunc(ctx, func() { w.ctxEnded(context.Cause(ctx)) })
	w.mu.Unlock()
	return w, nil
}

// newPushPollConfig is newPollConfig for a wait: the waits made without
// options share one config.
func newPushPollConfig(opts []WaitOption) (*pollConfig, error) {
	if len(opts) == 0 {
		return defaultPushPoll(), nil
	}
	cfg, err := newPollConfig(opts)
	if err != nil {
		return nil, err
	}
	return &cfg, nil
}

// defaultPushPoll is the config of the waits made without options.
var defaultPushPoll = sync.OnceValue(func() *pollConfig {
	cfg, _ := newPollConfig(nil)
	return &cfg
})

// redactor is the client's redactor with the wait's token, for the errors
// and refusals about the wait: made once, when first needed.
func (w *PushWait) redactor() *redact.Redactor {
	if red := w.red.Load(); red != nil {
		return red
	}
	red := w.c.red.With([]string{w.token}, nil)
	if !w.red.CompareAndSwap(nil, red) {
		return w.red.Load()
	}
	return red
}

// begin returns the context for a request the wait makes (the send, the
// registration, a read), which ends when the wait does, and the func to
// call, once, when the request is done. The requests running share one context,
// made by the first and ended by the last: a wait between requests holds
// none.
func (w *PushWait) begin() (context.Context, func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state == stateEnded {
		ctx, cancel := context.WithCancel(w.ctx)
		cancel()
		return ctx, func() {}
	}
	if w.reqs == nil {
		w.reqs, w.stopReqs = context.WithCancel(w.ctx)
	}
	w.nreqs++
	ctx := w.reqs
	return ctx, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.nreqs--; w.nreqs == 0 && w.reqs == ctx {
			w.stopReqs()
			w.reqs, w.stopReqs = nil, nil
		}
	}
}

// config is the webhook the wait registers: the token in the config's
// token and, for agents that send only Authorization when a config has
// authentication (a2a-js 1.0), as its Bearer credentials.
func (w *PushWait) config() PushNotificationConfig {
	return PushNotificationConfig{URL: w.r.url, Token: w.token,
		Authentication: &PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: w.token}}
}

// TaskID returns the id of the task waited for, "" until the agent has
// named it.
func (w *PushWait) TaskID() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.idLocked()
}

// Task returns the last task known: the send's answer, or the task as the
// notifications since have moved it on; nil when none is known yet or
// the agent answered with a Message. The task returned is never modified
// afterwards; do not modify it either.
func (w *PushWait) Task() *Task {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.taskLocked()
}

// Done returns a channel closed when the wait ends.
func (w *PushWait) Done() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done == nil {
		w.done = make(chan struct{})
	}
	return w.done
}

// Result returns what the wait ended with: the final *[Task] and nil, a
// *[Message] the agent answered with, or, with the error that ended the
// wait, the last task known (never nil when one was known). Before the
// wait ends it returns the last task known and [ErrWaitPending].
func (w *PushWait) Result() (SendResult, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.err
	if w.state != stateEnded {
		err = ErrWaitPending
	}
	switch {
	case w.msg != nil:
		return w.msg, err
	case w.cur != nil:
		return w.taskLocked(), err
	}
	return nil, err
}

// Wait blocks until the wait ends or ctx does, and returns
// [PushWait.Result] then; when ctx ends first, it returns the last task
// known with ctx's error, and the wait goes on.
func (w *PushWait) Wait(ctx context.Context) (SendResult, error) {
	select {
	case <-w.Done():
		return w.Result()
	case <-ctx.Done():
		res, _ := w.Result()
		return res, ctx.Err()
	}
}

// Stop ends the wait now, with [ErrWaitStopped], unless it has ended.
func (w *PushWait) Stop() { w.finish(ErrWaitStopped) }

func (w *PushWait) isEnded() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.state == stateEnded
}

// idLocked is the id of the wait's task, "" until one is known. w.mu is
// held.
func (w *PushWait) idLocked() string {
	if w.cur == nil {
		return ""
	}
	return w.cur.ID
}

// belonging is whether a notification is for a wait.
type belonging int

const (
	itBelongs belonging = iota
	waitEnded           // the wait has ended: the notification changes nothing
	otherTask           // the notification is about another task
)

// belongs says whether a notification about taskID ("" for a message
// naming none) is for this wait: the first task a notification names is
// the wait's until the send's answer says (apply binds it).
func (w *PushWait) belongs(taskID string) belonging {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.state == stateEnded:
		return waitEnded
	case taskID == "" || w.idLocked() == "" || taskID == w.idLocked():
		return itBelongs
	}
	return otherTask
}

// hand returns the wait to SendMessage's or WatchTask's caller: from now on its end
// is reported to PushOnDone, and so is an end that came first. A wait
// that Close or Stop ended before the agent named its task is not: SendMessage
// and WatchTask return their error instead. (One they ended after is
// returned, ended: its Task is what the agent answered.)
func (w *PushWait) hand() (*PushWait, error) {
	w.mu.Lock()
	if w.cutShortLocked() && w.cur == nil && w.msg == nil {
		err := w.err
		w.mu.Unlock()
		return nil, err
	}
	w.handed = true
	held := w.holdTaskLocked()
	ended := w.state == stateEnded
	w.mu.Unlock()
	if held != nil {
		select { // the Hold of the task id, or the end of ctx: the wait ends with its cause then
		case <-held:
		case <-w.ctx.Done():
		}
	}
	if ended {
		w.r.reportDone(w)
	}
	return w, nil
}

// fail ends a wait whose SendMessage or WatchTask failed with err, and returns the
// error to give the caller: Close's or Stop's when one of them ended the
// wait (and so the call), else err.
func (w *PushWait) fail(err error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cutShortLocked() {
		return w.err
	}
	w.move(stateEnded, err)
	return err
}

// cutShortLocked reports whether Close or Stop ended the wait. w.mu is
// held.
func (w *PushWait) cutShortLocked() bool {
	return w.state == stateEnded && (w.err == ErrReceiverClosed || w.err == ErrWaitStopped)
}

// ctxEnded ends the wait whose context ended with cause, unless it has
// ended: the error names the task and its last state when they are known
// (server text: inert and redacted), so that a caller whose wait heard
// nothing knows which task to read again.
func (w *PushWait) ctxEnded(cause error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	err := fmt.Errorf("a2a: push wait: %w", cause)
	if id := w.idLocked(); id != "" {
		red := w.redactor()
		err = fmt.Errorf("a2a: push wait for task %s (last state %s): %w",
			inert.Printable(red.Str(id)), inert.Printable(red.Str(string(w.cur.Status.State))), cause)
	}
	w.move(stateEnded, err)
}

// finish ends the wait with err unless it has ended.
func (w *PushWait) finish(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.move(stateEnded, err)
}
