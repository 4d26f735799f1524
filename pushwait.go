package a2a

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// PushWait is one task a [PushReceiver] waits for: it registered the
// receiver's URL with the agent under a token of its own, and each
// notification with that token moves its task on, until the task is
// terminal (completed, failed, canceled, rejected) or interrupted
// (input-required, auth-required). A wait costs no goroutine while it
// waits. Its methods are safe for concurrent use.
//
// A wait ends, once, when:
//   - its task becomes terminal or interrupted, by the send's answer, a
//     notification or the fallback poll: Result returns the task and nil;
//   - the agent answers the send with a Message: Result returns it;
//   - no news of the task comes for the receiver's [FallbackAfter] and the
//     fallback poll ([Client.AwaitTask], with the wait's PollOptions) gives
//     up or fails: its error;
//   - the context given to Send or Watch ends: ctx's error;
//   - [PushReceiver.Close]: [ErrReceiverClosed];
//   - the send's answer names another task than the notifications that
//     came before it: a *[ProtocolError].
//
// An unknown state is not finished, never success, as with polling.
type PushWait struct {
	r     *PushReceiver
	c     *Client
	token string
	key   tokenKey
	red   *redactor // the client's, with the token
	opts  []PollOption
	ctx   context.Context // ends when the wait does
	stop  context.CancelFunc
	// unhook stops the ending of the wait by the caller's ctx.
	unhook func() bool
	done   chan struct{}

	mu     sync.Mutex
	taskID string   // the task, once known
	task   *Task    // the last task known; replaced, never modified
	msg    *Message // the agent's answer, when it was a message
	err    error
	ended  bool
	timer  *time.Timer // the fallback poll's
	heard  time.Time   // when news of the task last came
	// stopPoll stands the running fallback poll down; nil when none runs.
	stopPoll context.CancelFunc
}

// Send sends msg as [Client.SendMessage] does, with the receiver's URL
// and a fresh token registered for the task ([PushConfig]), and
// returns the wait for its final state: ended at once when the agent
// answers with a finished task or a Message. opts are those of
// [Client.SendAndWait]: [PollCallOptions] go to the send (and to the
// fallback poll's tasks/get); the others shape the fallback poll. ctx
// bounds the send and the whole wait. Errors: those of SendMessage (no
// wait is left registered then), an option's error, and
// [ErrReceiverClosed]; the wait is nil whenever the error is not.
func (r *PushReceiver) Send(ctx context.Context, c *Client, msg Message, opts ...PollOption) (*PushWait, error) {
	cfg, err := newPollConfig(opts)
	if err != nil {
		return nil, err
	}
	w, err := r.newWait(ctx, c, opts)
	if err != nil {
		return nil, err
	}
	call := append(slices.Clip(cfg.call), PushConfig(w.config()))
	res, err := c.SendMessage(ctx, msg, call...)
	if err != nil {
		w.finish(err)
		return nil, err
	}
	w.answer(res)
	return w, nil
}

// Watch registers the receiver's URL for task, a task the agent already
// holds, with [Client.SetTaskPushNotificationConfig], reads the task once
// more with [Client.GetTask] (it may have ended before the registration
// arrived; that read's failure is left to the fallback poll), and returns
// the wait for its final state. A task already terminal or interrupted
// gives an ended wait without a request. opts and ctx are as for
// [PushReceiver.Send]. Errors: those of SetTaskPushNotificationConfig, an
// error for a nil task or one without an id, an option's error, and
// [ErrReceiverClosed]; the wait is nil whenever the error is not.
func (r *PushReceiver) Watch(ctx context.Context, c *Client, task *Task, opts ...PollOption) (*PushWait, error) {
	cfg, err := newPollConfig(opts)
	if err != nil {
		return nil, err
	}
	if task == nil || task.ID == "" {
		return nil, errors.New("a2a: Watch needs a task with an id")
	}
	w, err := r.newWait(ctx, c, opts)
	if err != nil {
		return nil, err
	}
	w.answer(task)
	select {
	case <-w.done:
		return w, nil
	default:
	}
	set := TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: w.config()}
	if _, err := c.SetTaskPushNotificationConfig(ctx, set, cfg.call...); err != nil {
		w.finish(err)
		return nil, err
	}
	if now, err := c.GetTask(ctx, task.ID, cfg.call...); err == nil {
		w.apply(now)
	}
	return w, nil
}

// newWait registers a wait with a fresh token; its fallback timer starts
// with its first answer.
func (r *PushReceiver) newWait(ctx context.Context, c *Client, opts []PollOption) (*PushWait, error) {
	if err := c.usable(); err != nil {
		return nil, err
	}
	token := rand.Text()
	w := &PushWait{r: r, c: c, token: token, key: sha256.Sum256([]byte(token)),
		red: c.red.with([]string{token}, nil), opts: opts, done: make(chan struct{})}
	w.ctx, w.stop = context.WithCancel(ctx)
	if err := r.add(w); err != nil {
		w.stop()
		return nil, err
	}
	// The caller's ctx ending ends the wait; a wait ending stops this.
	w.mu.Lock() // finish, which the func may call at once, reads unhook
	w.unhook = context.AfterFunc(w.ctx, func() { w.finish(context.Cause(ctx)) })
	w.mu.Unlock()
	return w, nil
}

// config is the webhook the wait registers.
func (w *PushWait) config() PushNotificationConfig {
	return PushNotificationConfig{URL: w.r.url, Token: w.token}
}

// TaskID returns the id of the task waited for, "" until the agent has
// named it.
func (w *PushWait) TaskID() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.taskID
}

// Task returns the last task known: the send's answer, or the task as the
// notifications since have moved it on; nil when none is known yet or
// the agent answered with a Message. The task returned is never modified
// afterwards.
func (w *PushWait) Task() *Task {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.task
}

// Done returns a channel closed when the wait ends.
func (w *PushWait) Done() <-chan struct{} { return w.done }

// Result returns what the wait ended with: the final *[Task], a
// *[Message] the agent answered with, or, with the error that ended the
// wait, the last task known (never nil when one was known). Before the
// wait ends it returns the last task known and a nil error.
func (w *PushWait) Result() (SendResult, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.msg != nil:
		return w.msg, w.err
	case w.task != nil:
		return w.task, w.err
	}
	return nil, w.err
}

// Wait blocks until the wait ends or ctx does, and returns
// [PushWait.Result] then; when ctx ends first, it returns the last task
// known with ctx's error, and the wait goes on.
func (w *PushWait) Wait(ctx context.Context) (SendResult, error) {
	select {
	case <-w.done:
		return w.Result()
	case <-ctx.Done():
		res, _ := w.Result()
		return res, ctx.Err()
	}
}

// Stop ends the wait now, with [context.Canceled], unless it has ended.
func (w *PushWait) Stop() { w.finish(context.Canceled) }

// decode reads a notification's body.
func (w *PushWait) decode(body []byte) (Event, *ProtocolError) {
	cl := &call{c: w.c, spec: callSpec{method: "push notification"}, red: w.red}
	return decodePush(w.c, cl, body)
}

// claim reports whether a notification about taskID ("" for a message
// naming none) belongs to this wait: the first task named is the wait's
// when the send has not answered yet.
func (w *PushWait) claim(taskID string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case taskID == "" || taskID == w.taskID:
		return true
	case w.taskID == "":
		w.taskID = taskID
		return true
	}
	return false
}

// answer takes the send's answer (or Watch's task): the task it names is
// the wait's; a finished task or a message ends the wait; else the
// fallback timer starts.
func (w *PushWait) answer(res SendResult) {
	w.mu.Lock()
	switch v := res.(type) {
	case *Message:
		if w.task == nil { // no notification named a task
			w.msg = v
			w.mu.Unlock()
			w.finish(nil)
			return
		}
	case *Task:
		switch {
		case w.taskID != "" && w.taskID != v.ID:
			w.mu.Unlock()
			w.finish(&ProtocolError{Method: "push notification", Reason: fmt.Sprintf(
				"the agent answered with task %s, notifications for this wait came for task %s", w.red.quote(v.ID), w.red.quote(w.taskID))})
			return
		case w.task == nil:
			// Notifications that came first are newer than the answer.
			w.taskID, w.task = v.ID, v
		}
	}
	w.mu.Unlock()
	w.settle()
}

// apply moves the wait's task on by a notification's event; a
// notification after the wait ended changes nothing.
func (w *PushWait) apply(ev Event) {
	if _, ok := ev.(*Message); ok {
		return // news for OnNotification; the task's state is in its status
	}
	w.mu.Lock()
	if w.ended {
		w.mu.Unlock()
		return
	}
	next := &Task{}
	if w.task != nil {
		next = w.task.clone()
	}
	next.Apply(ev)
	w.task = next
	w.mu.Unlock()
	w.settle()
}

// clone is a copy of t that Apply can change without changing t (Apply
// replaces the slices it changes).
func (t *Task) clone() *Task {
	c := *t
	return &c
}

// settle ends the wait when its task is finished, and otherwise takes
// the news: a fallback poll running stands down (notifications come
// after all), and the fallback timer starts again.
func (w *PushWait) settle() {
	w.mu.Lock()
	if w.ended {
		w.mu.Unlock()
		return
	}
	if w.task != nil && (w.task.Status.State.Terminal() || w.task.Status.State.Interrupted()) {
		w.mu.Unlock()
		w.finish(nil)
		return
	}
	if w.stopPoll != nil {
		w.stopPoll()
		w.stopPoll = nil
	}
	w.heard = time.Now()
	if w.timer == nil {
		w.timer = time.AfterFunc(w.r.fallback, w.poll)
	} else {
		w.timer.Reset(w.r.fallback)
	}
	w.mu.Unlock()
}

// poll is the fallback: no news came for FallbackAfter, so the task is
// polled until it ends or the poll gives up, which ends the wait. One
// poll runs at a time; news stands it down (settle), and so does the
// wait ending.
func (w *PushWait) poll() {
	w.mu.Lock()
	if w.ended || w.task == nil || time.Since(w.heard) < w.r.fallback {
		w.mu.Unlock() // ended, or news came as the timer fired: it runs again
		return
	}
	if w.stopPoll != nil {
		w.stopPoll()
	}
	ctx, stop := context.WithCancel(w.ctx)
	w.stopPoll = stop
	last := w.task
	w.mu.Unlock()
	defer stop()

	task, err := w.c.AwaitTask(ctx, last, w.opts...)
	w.mu.Lock()
	if ctx.Err() != nil || w.ended {
		w.mu.Unlock() // stood down, or the wait ended otherwise
		return
	}
	w.stopPoll = nil
	if task != nil {
		w.task = task // no news came while it ran: it is the newest
	}
	w.mu.Unlock()
	w.finish(err)
}

// finish ends the wait with err (nil: its task or message is final),
// once: it retires its token, stops its timer and context, closes Done and
// calls the receiver's OnDone.
func (w *PushWait) finish(err error) {
	w.mu.Lock()
	if w.ended {
		w.mu.Unlock()
		return
	}
	w.ended, w.err = true, err
	if w.timer != nil {
		w.timer.Stop()
	}
	if w.stopPoll != nil {
		w.stopPoll()
	}
	unhook := w.unhook
	w.mu.Unlock()
	w.r.remove(w)
	if unhook != nil {
		unhook()
	}
	w.stop()
	close(w.done)
	if w.r.onDone != nil {
		w.r.onDone(w)
	}
}
