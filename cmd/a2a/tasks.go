package main

import (
	"cmp"
	"context"
	"errors"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// call runs do with a client for the agent, within --timeout.
func (o *options) call(ctx context.Context, do func(ctx context.Context, c *a2a.Client) int) int {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	c, err := o.client(ctx)
	if err != nil {
		return o.fail(err)
	}
	defer a2a.CloseIdleConnections()
	o.spoken, o.spokenTransport = c.ProtocolVersion(), c.Interface().ProtocolBinding
	return do(ctx, c)
}

// message builds send's message: TEXT and the part flags in order, the
// --metadata, --task-id and --context-id. Its errors are usage errors.
func (o *options) message(args []string) (a2a.Message, error) {
	first := ""
	if len(args) > 0 {
		first = args[0]
	}
	parts, err := o.parts.build(o.env.stdin, first, 10<<20)
	if err != nil {
		return a2a.Message{}, err
	}
	meta, err := parseMetadata(o.metadata)
	if err != nil {
		return a2a.Message{}, err
	}
	return a2a.Message{Role: a2a.RoleUser, Parts: parts, Metadata: meta, TaskID: o.taskID, ContextID: o.contextID}, nil
}

func runSend(ctx context.Context, o *options, args []string) int {
	msg, err := o.message(args)
	if err != nil {
		return o.fail(err)
	}
	switch {
	case o.async && o.stream:
		return o.fail(usagef("--async and --stream contradict each other: --stream follows the task as it runs"))
	case o.stream && o.pushReceiver != "":
		return o.fail(usagef("--stream and --push-receiver are two ways to follow the task: give one"))
	case o.async && o.pushReceiver != "":
		return o.fail(usagef("--async and --push-receiver contradict each other: --push-receiver waits for the task"))
	case o.pushURL != "" && o.pushReceiver == "":
		return o.fail(usagef("--push-url goes with --push-receiver"))
	case o.pushURL != "":
		if err := o.checkURL("--push-url", o.pushURL); err != nil {
			return o.fail(err) // before anything is sent, the card's GET included
		}
	}
	var opts []a2a.CallOption
	if o.history >= 0 {
		opts = append(opts, a2a.HistoryLength(o.history))
	}
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		switch {
		case o.stream && o.card != nil && !o.card.Capabilities.Streaming:
			return o.sendUnstreamed(ctx, c, msg, opts)
		case o.stream:
			return o.follow(ctx, c, c.SendStreamingMessage(ctx, msg, opts...), &a2a.Task{}, true)
		case o.pushReceiver != "":
			return o.waitByPush(ctx, c, msg, opts)
		case !o.async && o.card != nil && o.card.Capabilities.Streaming:
			return o.waitByStream(ctx, c, msg, opts)
		}
		return o.sendAndPoll(ctx, c, msg, opts)
	})
}

// sendAndPoll sends msg without a stream and, unless --async, polls the
// task the agent answers with to its end (poll); it prints the result as
// send's. With --async the send does not block (Blocking(false): A2A
// v1.0's returnImmediately, v0.3's blocking:false) and its answer is
// printed as it is.
func (o *options) sendAndPoll(ctx context.Context, c *a2a.Client, msg a2a.Message, opts []a2a.CallOption) int {
	if o.async {
		opts = append(opts, a2a.Blocking(false))
	}
	res, err := c.SendMessage(ctx, msg, opts...)
	if err != nil {
		return o.fail(err)
	}
	task, ok := res.(*a2a.Task)
	if !ok {
		return o.finishMessage(res.(*a2a.Message))
	}
	if !o.async && !finalState(task.Status.State) {
		return o.poll(ctx, c, task, true)
	}
	return o.finish(task, true)
}

func runTaskGet(ctx context.Context, o *options, args []string) int {
	var opts []a2a.CallOption
	if o.history >= 0 {
		opts = append(opts, a2a.HistoryLength(o.history))
	}
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		if o.wait {
			return o.poll(ctx, c, &a2a.Task{ID: args[0]}, false)
		}
		task, err := c.GetTask(ctx, args[0], opts...)
		if err != nil {
			return o.fail(err)
		}
		return o.finish(task, false)
	})
}

func runTaskCancel(ctx context.Context, o *options, args []string) int {
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		task, err := c.CancelTask(ctx, args[0])
		if errors.Is(err, a2a.ErrTaskNotCancelable) && !o.json() {
			// The specification's TASK_CANCEL_001: report the resulting
			// state, here the one that made it not cancelable.
			if got, gerr := c.GetTask(ctx, args[0], a2a.HistoryLength(0)); gerr == nil {
				o.field("Task", got.ID)
				o.field("Context", got.ContextID)
				o.field("Status", statusText(got.Status))
			}
		}
		if err != nil {
			return o.fail(err)
		}
		code := o.finish(task, false)
		if task.Status.State == a2a.TaskStateCanceled {
			return exitOK // what was asked
		}
		return code
	})
}

// poll waits for the task known (its id, and its context when known)
// with WaitTask (await: a progress line on stderr when it is a terminal),
// and prints how it ended (send: as send's result), or, when the wait
// stopped first, the task's ids and the command that resumes (stopped).
func (o *options) poll(ctx context.Context, c *a2a.Client, known *a2a.Task, send bool) int {
	task, err := o.await(ctx, c, known)
	if err == nil {
		return o.finish(task, send)
	}
	return o.stopped(ctx, c, task, "get", o.whyStopped(ctx, err, task))
}

// waitOptions are the poll's: --poll-interval, growing by half each time
// to five times it (at most 30s), within --timeout, however many polls
// that takes.
func (o *options) waitOptions() []a2a.WaitOption {
	opts := []a2a.WaitOption{a2a.PollInterval(o.pollInterval), a2a.PollMultiplier(1.5),
		a2a.PollMaxInterval(min(5*o.pollInterval, max(o.pollInterval, 30*time.Second))), a2a.PollMaxAttempts(1 << 30), a2a.PollTimeout(o.timeout)}
	if o.history >= 0 {
		opts = append(opts, a2a.HistoryLength(o.history))
	}
	return opts
}

// stopped ends a command whose wait or stream ended before the task did,
// with err: by Ctrl-C (130, after --cancel-on-interrupt's cancel), by
// --timeout (5: a waitTimeout), or by an error. Once the task's id is known it also
// prints the task's ids, its last state known and the command that
// resumes (resume): nothing is lost.
func (o *options) stopped(ctx context.Context, c *a2a.Client, task *a2a.Task, verb string, err error) int {
	if errors.Is(ctx.Err(), context.Canceled) {
		err = context.Canceled
		if o.cancelOnInterrupt(c, task) {
			if !o.json() {
				o.field("Task", task.ID)
				o.field("Context", cmp.Or(task.ContextID, "(not known)"))
				o.field("Status", statusText(task.Status))
			}
			return o.fail(err) // it has ended: nothing to resume
		}
	} else if errors.Is(ctx.Err(), context.DeadlineExceeded) && !errors.Is(err, context.DeadlineExceeded) {
		err = errors.Join(context.DeadlineExceeded, err)
	}
	if timedOut(err) {
		err = waitTimeout{err: err, timeout: o.timeout, state: task.Status.State}
	}
	if task.ID != "" && !o.json() {
		o.field("Task", task.ID)
		o.field("Context", cmp.Or(task.ContextID, "(not known)"))
		o.field("Status", statusText(task.Status))
	}
	code := o.fail(err)
	if task.ID != "" {
		o.resume(task, verb)
	}
	return code
}

// cancelOnInterrupt cancels the task, with a short deadline of its own,
// when --cancel-on-interrupt was given, and reports whether the task has
// ended.
func (o *options) cancelOnInterrupt(c *a2a.Client, task *a2a.Task) bool {
	if !o.cancelOnInt || task.ID == "" {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	got, err := c.CancelTask(ctx, task.ID)
	if err != nil {
		o.errf("a2a %s: cancel: %v\n", o.name, err)
		return false
	}
	o.errf("a2a %s: task %s is %s\n", o.name, task.ID, got.Status.State)
	task.Status = got.Status
	task.ContextID = cmp.Or(task.ContextID, got.ContextID)
	return got.Status.State.Terminal()
}

// finish prints the task (send: as send's result) and ends as its
// outcome says (outcome).
func (o *options) finish(task *a2a.Task, send bool) int {
	if o.json() {
		o.printTaskJSON(task, send)
	} else {
		o.printTask(task)
	}
	return o.outcome(task)
}

// outcome names on stderr a task that did not complete, prints what to
// do next (resume), and returns the exit code its state means: 0, or
// --task-exit-codes' code.
func (o *options) outcome(task *a2a.Task) int {
	s := task.Status.State
	switch {
	case s == a2a.TaskStateCompleted:
	case s.Interrupted():
		o.errf("a2a: the task waits for you (%s): answer it with the Resume command\n", s)
		o.resume(task, "answer")
	case s.Terminal():
		o.errf("a2a: the task %s\n", map[a2a.TaskState]string{a2a.TaskStateFailed: "failed", a2a.TaskStateCanceled: "was canceled", a2a.TaskStateRejected: "was rejected"}[s])
	default:
		o.errf("a2a: the task is not finished (%s)\n", statusText(task.Status))
		o.resume(task, "get")
	}
	return o.outcomeExit(s)
}

// finishMessage prints an agent's Message reply to send.
func (o *options) finishMessage(m *a2a.Message) int {
	if o.json() {
		o.printMessageJSON(m, true)
	} else {
		o.printMessage(m)
	}
	return exitOK
}
