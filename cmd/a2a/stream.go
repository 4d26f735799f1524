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
// when the stream closes or breaks before it ends (at most maxResubscribes
// times; then, or when the agent refuses to stream it again, it polls
// the task and prints it as the last event), and ends as the task's state
// says.
func (o *options) follow(ctx context.Context, c *a2a.Client, events iter.Seq2[a2a.Event, error], task *a2a.Task, send bool) int {
	return o.followAgain(ctx, c, events, task, true)
}

// followAgain is follow, and task subscribe without --stream (show false:
// the events folded, the task printed once it ends).
func (o *options) followAgain(ctx context.Context, c *a2a.Client, events iter.Seq2[a2a.Event, error], task *a2a.Task, show bool) int {
	release := func() {}
	defer func() { release() }()
	for attempt := 0; ; attempt++ {
		closed, code, done := o.followOnce(ctx, c, events, task, show)
		release()
		if done || !closed || task.ID == "" {
			return code
		}
		if attempt == maxResubscribes {
			o.debugf("stream: closed %d times before the task ended; polling", attempt+1)
			return o.pollShown(ctx, c, task, show)
		}
		o.debugf("stream: closed before the task ended; following it again")
		rest, refused, stop := opened(c.SubscribeToTask(ctx, task.ID))
		if refused != nil {
			o.debugf("stream: following it again refused (%v); polling", refused)
			return o.pollShown(ctx, c, task, show)
		}
		events, release = rest, stop
	}
}

// followOnce reads one stream: each event printed when show, folded into
// task. It reports whether the stream closed (or broke in transport)
// before the task ended, or else the command's exit code with done.
func (o *options) followOnce(ctx context.Context, c *a2a.Client, events iter.Seq2[a2a.Event, error], task *a2a.Task, show bool) (closed bool, code int, done bool) {
	// A wait that prints nothing until the end shows its progress on
	// stderr when that is a terminal, as a poll does, cleared before
	// anything else is printed.
	progress := !show && o.env.stderrTTY
	clear := func() {
		if progress {
			o.errf("\r\x1b[K")
			progress = false
		}
	}
	defer clear()
	for ev, err := range events {
		var cut *a2a.StreamCutError
		if err != nil {
			clear()
		}
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
				o.outf("\n") // events apart
			}
		}
		if m, ok := ev.(*a2a.Message); ok && task.ID == "" {
			clear()
			if !show {
				return false, o.finishMessage(m), true
			}
			return false, exitOK, true
		}
		if err := task.ApplyWithin(ev, o.maxBytes); err != nil {
			clear()
			return false, o.stopped(ctx, c, task, "subscribe", err), true // past --max-bytes
		}
		if progress {
			o.errf("\r\x1b[Kstream: %s", statusText(task.Status))
		}
	}
	clear()
	s := task.Status.State
	if task.ID != "" && !s.Terminal() && !s.Interrupted() {
		return true, 0, false
	}
	if !show {
		return false, o.finishFetched(ctx, c, task, o.name == "send"), true
	}
	if !o.json() {
		o.field("Task", task.ID)
		o.field("Context", task.ContextID)
		o.field("Status", statusText(task.Status))
	}
	return false, o.outcome(task), true
}

// waitByStream is send's wait when the card says the agent streams (the
// specification's §9.3): the stream's events are folded, not printed,
// and the task is printed once it ends or waits for the caller. When the
// stream breaks or closes before that, with the task's id known, the task
// is polled (GetTask) to its end (TASK_POLL_004), not streamed again. An
// agent that refuses to stream before acting (method not found,
// unsupported operation) is sent the message without a stream, and the
// task it answers with is polled.
func (o *options) waitByStream(ctx context.Context, c *a2a.Client, msg a2a.Message, opts []a2a.CallOption) int {
	events, refused, stop := opened(c.SendStreamingMessage(ctx, msg, opts...))
	defer stop()
	if refused != nil {
		o.debugf("stream: refused (%v); sending without a stream", refused)
		return o.sendAndPoll(ctx, c, msg, opts)
	}
	task := &a2a.Task{}
	closed, code, done := o.followOnce(ctx, c, events, task, false)
	if done || !closed || task.ID == "" {
		return code
	}
	o.debugf("stream: ended before the task did (%s); polling it", statusText(task.Status))
	return o.poll(ctx, c, task, true)
}

// finishFetched prints a task a stream ended: as the agent sends it to
// GetTask (its own bytes, for -o json), or as folded when that fails;
// send: as send's result (A2A v1.0's {"task": …}), else the Task itself
// (task subscribe).
func (o *options) finishFetched(ctx context.Context, c *a2a.Client, folded *a2a.Task, send bool) int {
	got, err := c.GetTask(ctx, folded.ID)
	switch {
	case err == nil && got.Status.State != folded.Status.State:
		// The agent contradicts its own stream: what it says now, in its
		// own bytes (-o json is never a re-encoding), and the contradiction.
		o.errf("a2a: the agent's stream said %s, its GetTask now says %s: the task as GetTask gives it\n", statusText(folded.Status), statusText(got.Status))
		return o.finish(got, send)
	case err == nil:
		return o.finish(got, send)
	case o.json():
		o.errf("a2a: the task could not be read once its stream ended (%v): it is printed as the package encodes it\n", err)
	}
	return o.finish(folded, send)
}
