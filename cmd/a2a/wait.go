package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"sync"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// waitTimeout is the error of a wait that --timeout ended before the task
// did (the specification's §9.3: A2ACLI_ERR_TIMEOUT, exit 5): stopped
// makes it of a context deadline or of a poll that used up its budget
// (--timeout too: timedOut), and fail reports it with the task's last
// state and the --timeout to exceed.
type waitTimeout struct {
	err     error         // what ended the wait: a deadline, a *a2a.PollError
	timeout time.Duration // --timeout
	state   a2a.TaskState // the task's last state known ("" when none)
}

func (e waitTimeout) Error() string {
	if ws, ok := errors.AsType[waitStopped](e.err); ok {
		return ws.msg // the poll's own account: the attempts, a Retry-After
	}
	return fmt.Sprintf("--timeout %s ran out before the task ended (last state known: %s)", e.timeout, stateText(e.state))
}

// Unwrap is what ended the wait: a context deadline to errors.Is.
func (e waitTimeout) Unwrap() error { return e.err }

// finalState reports whether a task in state s has ended or waits for the
// caller: a wait stops there (an unknown state is neither).
func finalState(s a2a.TaskState) bool { return s.Terminal() || s.Interrupted() }

// await polls the task known (its id) until it ends or waits for the
// caller, as --poll-interval and --timeout say (waitOptions), with a
// progress line on stderr when it is a terminal. It returns the last task
// read (known until one is), its context id kept, and the error that
// ended the poll early (a *a2a.PollError, the agent's error).
func (o *options) await(ctx context.Context, c *a2a.Client, known *a2a.Task) (*a2a.Task, error) {
	opts := o.waitOptions()
	if o.env.stderrTTY {
		opts = append(opts, a2a.PollProgress(func(p a2a.PollAttempt) {
			o.errf("\r\x1b[Kpoll %d: %s, %s", p.Attempt, statusText(p.Task.Status), p.Elapsed.Round(100*time.Millisecond))
		}))
	}
	task, err := c.WaitTask(ctx, known.ID, opts...)
	if o.env.stderrTTY {
		o.errf("\r\x1b[K")
	}
	if task == nil {
		return known, err
	}
	task.ContextID = cmp.Or(task.ContextID, known.ContextID)
	return task, err
}

// sendUnstreamed is send --stream to an agent whose card says it does not
// stream (the specification's SEND_003): rather than fail, the message is
// sent without a stream (a blocking send, polled to its end when the
// agent answers before it), a line on stderr says so, and the result is
// printed as the stream's one event would be (a JSON Lines line with -o
// json, an "Event:" block in text), so a script reading events reads it.
func (o *options) sendUnstreamed(ctx context.Context, c *a2a.Client, msg a2a.Message, opts []a2a.CallOption) int {
	o.errf("a2a %s: the agent's card says it does not stream (capabilities.streaming is false): sent without a stream; the result follows as one event\n", o.name)
	res, err := c.SendMessage(ctx, msg, opts...)
	if err != nil {
		return o.fail(err)
	}
	var ev a2a.Event
	switch r := res.(type) {
	case *a2a.Message:
		ev = r
	case *a2a.Task:
		ev = r
		if !finalState(r.Status.State) {
			got, err := o.await(ctx, c, r)
			if err != nil {
				return o.stopped(ctx, c, got, "get", err)
			}
			ev = got
		}
	}
	_, code, _ := o.followOnce(ctx, c, oneEvent(ev), &a2a.Task{}, true)
	return code
}

// oneEvent is a stream of the one event ev.
func oneEvent(ev a2a.Event) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(ev, nil) }
}

// refusedStream reports whether err, a stream's first item, is the
// agent's refusal to stream (method not found, unsupported operation),
// which means it has not acted on the message: send may send it again
// without a stream.
func refusedStream(err error) bool {
	return errors.Is(err, a2a.ErrUnsupportedOperation) || errors.Is(err, a2a.ErrMethodNotFound) && !errors.Is(err, a2a.ErrVersionMismatch)
}

// lockedWriter serializes the writes of the goroutines that print while a
// push wait runs (the receiver's hooks, its fallback poll, the main one)
// with those of --debug's wire dump to the same writer (mu is the dump's
// lock for w: dumpStateOf).
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

// newLockedWriter returns w behind the lock --debug's dumps of w hold.
func newLockedWriter(w io.Writer) *lockedWriter {
	return &lockedWriter{mu: &dumpStateOf(w).mu, w: w}
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// opened reads the first item of the stream events: refused is the
// agent's refusal to stream (refusedStream) when that item is one, and
// else rest is the whole stream, that item included. stop releases the
// stream; call it once done with rest.
func opened(events iter.Seq2[a2a.Event, error]) (rest iter.Seq2[a2a.Event, error], refused error, stop func()) {
	next, stop := iter.Pull2(events)
	ev, err, ok := next()
	if ok && err != nil && refusedStream(err) {
		stop()
		return nil, err, stop
	}
	return func(yield func(a2a.Event, error) bool) {
		for ok && yield(ev, err) {
			ev, err, ok = next()
		}
	}, nil, stop
}

// pollShown polls the task to its end, when a stream could not follow it,
// and prints the task it ends with as the stream's last event (show: an
// "Event: task" block, a JSON Lines line) or as the command's result.
func (o *options) pollShown(ctx context.Context, c *a2a.Client, task *a2a.Task, show bool) int {
	if !show {
		return o.poll(ctx, c, task, o.name == "send")
	}
	got, err := o.await(ctx, c, task)
	if err != nil {
		return o.stopped(ctx, c, got, "get", err)
	}
	_, code, _ := o.followOnce(ctx, c, oneEvent(got), task, true)
	return code
}
