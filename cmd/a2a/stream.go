package main

import (
	"cmp"
	"context"
	"errors"
	"iter"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// maxResubscribes bounds how often a stream that closes before its task
// ends is followed again (task subscribe) before the command polls.
const maxResubscribes = 5

// follow prints a stream's events as they arrive (--stream: fields and
// blocks, or JSON Lines), folds them into task, follows the task again
// when the stream closes before it ends (at most maxResubscribes times,
// then it polls), and ends as the task's state says.
func (o *options) follow(ctx context.Context, c *a2a.Client, events iter.Seq2[a2a.Event, error], task *a2a.Task, send bool) int {
	for attempt := 0; ; attempt++ {
		closed, code, done := o.followOnce(ctx, c, events, task, true)
		if done {
			return code
		}
		if !closed || task.ID == "" {
			return code
		}
		if attempt == maxResubscribes {
			o.debugf("stream: closed %d times before the task ended; polling", attempt+1)
			return o.poll(ctx, c, task, false)
		}
		o.debugf("stream: closed before the task ended; following it again")
		events = c.SubscribeToTask(ctx, task.ID)
	}
}

// followOnce reads one stream: each event printed when show, folded into
// task. It reports whether the stream closed (or broke in transport)
// before the task ended, or else the command's exit code with done.
func (o *options) followOnce(ctx context.Context, c *a2a.Client, events iter.Seq2[a2a.Event, error], task *a2a.Task, show bool) (closed bool, code int, done bool) {
	for ev, err := range events {
		var cut *a2a.StreamCutError
		if errors.As(err, &cut) && cut.TaskID != "" {
			task.ID, task.ContextID = cut.TaskID, cmp.Or(task.ContextID, cut.ContextID)
			if ctx.Err() != nil || cut.Err != nil && !errors.As(cut.Err, new(*a2a.TransportError)) {
				return false, o.stopped(ctx, c, task, "subscribe", err), true
			}
			return true, 0, false
		}
		if err != nil {
			return false, o.stopped(ctx, c, task, "subscribe", err), true
		}
		if show {
			if o.json() {
				o.printEventJSON(ev)
			} else {
				o.printEvent(ev)
			}
		}
		if m, ok := ev.(*a2a.Message); ok && task.ID == "" {
			if !show {
				return false, o.finishMessage(m), true
			}
			return false, exitOK, true
		}
		if err := task.ApplyWithin(ev, o.maxBytes); err != nil {
			return false, o.stopped(ctx, c, task, "subscribe", err), true // past --max-bytes
		}
	}
	s := task.Status.State
	if task.ID != "" && !s.Terminal() && !s.Interrupted() {
		return true, 0, false
	}
	if !show {
		return false, o.finishFetched(ctx, c, task), true
	}
	if !o.json() {
		o.field("Task", task.ID)
		o.field("Context", task.ContextID)
		o.field("Status", stateText(s))
	}
	return false, o.outcome(task), true
}

// waitByStream is send's wait when the card says the agent streams: the
// events are folded (not printed), the stream followed again when it
// closes early, and when it breaks the task is polled (the
// specification's TASK_POLL_004); the task is printed once it ends. An
// agent that refuses to stream (it has not acted) is sent the message
// without.
func (o *options) waitByStream(ctx context.Context, c *a2a.Client, msg a2a.Message, opts []a2a.CallOption) int {
	task := &a2a.Task{}
	events := c.SendStreamingMessage(ctx, msg, opts...)
	for attempt := 0; ; attempt++ {
		closed, code, done := o.followOnce(ctx, c, events, task, false)
		switch {
		case done:
			return code
		case !closed || task.ID == "":
			return code
		case attempt == maxResubscribes:
			return o.poll(ctx, c, task, true)
		}
		events = c.SubscribeToTask(ctx, task.ID)
	}
}

// finishFetched prints a task a stream ended: as the agent sends it to
// GetTask (its own bytes, for -o json), or as folded when that fails.
func (o *options) finishFetched(ctx context.Context, c *a2a.Client, folded *a2a.Task) int {
	if got, err := c.GetTask(ctx, folded.ID); err == nil && got.Status.State == folded.Status.State {
		return o.finish(got, true)
	}
	return o.finish(folded, true)
}

// waitByPush is send's wait by push notification (--push-receiver).
func (o *options) waitByPush(ctx context.Context, c *a2a.Client, msg a2a.Message, opts []a2a.CallOption) int {
	return o.fail(usagef("--push-receiver is not ready yet"))
}
