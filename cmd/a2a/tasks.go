package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// call runs do with a client for endpoint, within --timeout. With
// --protocol auto and no card, an agent that answers the v0.3 call as a
// v1.0 agent (it has not acted: -32009, or -32601 with v1.0's details) is
// asked again in v1.0, once, and the switch is said on stderr.
func (o *options) call(ctx context.Context, endpoint string, do func(ctx context.Context, c *a2a.Client) int) int {
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	c, err := o.client(ctx, endpoint)
	if err != nil {
		return o.fail(err)
	}
	defer a2a.CloseIdleConnections()
	o.spoken = c.ProtocolVersion()
	o.askAgain = o.protocol == "auto" && c.ProtocolVersion() == a2a.ProtocolV03
	code := do(ctx, c)
	if o.askAgain && refusedVersion(o.lastErr) {
		fmt.Fprintln(o.stderr(), "a2a: the agent answers as an A2A v1.0 agent; asking again in v1.0 (--protocol 1.0 skips this)")
		c10, err := a2a.NewClient(endpoint, o.clientOptions(a2a.ProtocolV10)...)
		if err != nil {
			return o.fail(err)
		}
		o.spoken = a2a.ProtocolV10
		o.lastErr, o.askAgain = nil, false
		code = do(ctx, c10)
	}
	return code
}

// refusedVersion reports whether err is an agent's JSON-RPC refusal of
// the version spoken (it has not acted), not a result in the other
// version's shapes (it has).
func refusedVersion(err error) bool {
	var rpcErr *a2a.RPCError
	return errors.Is(err, a2a.ErrVersionMismatch) && errors.As(err, &rpcErr)
}

// fail prints err and returns its exit code: usage for a usage error,
// 130 for Ctrl-C, 1 for the rest. A version mismatch is not printed
// when call will ask again.
func (o *options) fail(err error) int {
	o.lastErr = err
	var ue usageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintf(o.stderr(), "a2a %s: %v\n", o.name, err)
		return exitUsage
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(o.stderr(), "a2a %s: stopped\n", o.name)
		return exitSignal
	case o.askAgain && refusedVersion(err):
		return exitError // call asks again in v1.0
	}
	// The package's text, without its "a2a: " (the command's name comes
	// first) and without a hint that names Go options: the command line
	// has its own.
	text := strings.TrimPrefix(err.Error(), "a2a: ")
	var rpcErr *a2a.RPCError
	if errors.As(err, &rpcErr) && rpcErr.Hint != "" {
		text = strings.TrimSuffix(text, "; "+rpcErr.Hint)
	}
	fmt.Fprintf(o.stderr(), "a2a %s: %s\n", o.name, text)
	var uv *a2a.UnsupportedByVersionError
	other := map[string]string{a2a.ProtocolV03: a2a.ProtocolV10, a2a.ProtocolV10: a2a.ProtocolV03}[o.spoken]
	switch {
	case errors.As(err, &uv):
		fmt.Fprintf(o.stderr(), "(spoken to in A2A v%s; if the agent speaks v1.0, add --protocol 1.0)\n", uv.Version)
	case (errors.Is(err, a2a.ErrVersionMismatch) || errors.As(err, &rpcErr) && rpcErr.Hint != "") && other != "":
		fmt.Fprintf(o.stderr(), "(spoken to in A2A v%s; the agent may speak v%s: add --protocol %s, or --protocol auto to read its card)\n", o.spoken, other, other)
	}
	return exitError
}

// message builds the message of send and stream: text, and a DataPart
// read from --data.
func (o *options) message(text string) (a2a.Message, error) {
	msg := a2a.NewTextMessage(text)
	msg.TaskID, msg.ContextID = o.taskID, o.contextID
	if o.data == "" {
		return msg, nil
	}
	var b []byte
	var err error
	if o.data == "-" {
		b, err = io.ReadAll(io.LimitReader(o.env.stdin, 64<<20))
	} else {
		b, err = os.ReadFile(o.data)
	}
	if err != nil {
		return msg, usagef("--data: %v", err)
	}
	if !json.Valid(b) {
		source := "stdin"
		if o.data != "-" {
			source = quote(o.data)
		}
		return msg, usagef("--data: %s is not valid JSON", source)
	}
	msg.Parts = append(msg.Parts, a2a.DataPart{Data: json.RawMessage(b)})
	return msg, nil
}

func runSend(ctx context.Context, o *options, args []string) int {
	endpoint, text := args[0], args[1]
	msg, err := o.message(text)
	if err != nil {
		return o.fail(err)
	}
	if err := checkURL(endpoint); err != nil {
		return o.fail(err)
	}
	var opts []a2a.CallOption
	if o.noBlock {
		opts = append(opts, a2a.Blocking(false))
	}
	if o.history >= 0 {
		opts = append(opts, a2a.HistoryLength(o.history))
	}
	return o.call(ctx, endpoint, func(ctx context.Context, c *a2a.Client) int {
		res, err := c.SendMessage(ctx, msg, opts...)
		if err != nil {
			return o.fail(err)
		}
		task, ok := res.(*a2a.Task)
		if !ok {
			return o.printMessage(res.(*a2a.Message))
		}
		if o.wait && !task.Status.State.Terminal() && !task.Status.State.Interrupted() {
			return o.poll(ctx, c, endpoint, task.ID)
		}
		return o.finish(endpoint, task)
	})
}

func runGet(ctx context.Context, o *options, args []string) int {
	var opts []a2a.CallOption
	if o.history >= 0 {
		opts = append(opts, a2a.HistoryLength(o.history))
	}
	return o.call(ctx, args[0], func(ctx context.Context, c *a2a.Client) int {
		task, err := c.GetTask(ctx, args[1], opts...)
		if err != nil {
			return o.fail(err)
		}
		return o.finish(args[0], task)
	})
}

func runCancel(ctx context.Context, o *options, args []string) int {
	return o.call(ctx, args[0], func(ctx context.Context, c *a2a.Client) int {
		task, err := c.CancelTask(ctx, args[1])
		if err != nil {
			return o.fail(err)
		}
		code := o.finish(args[0], task)
		if task.Status.State == a2a.TaskStateCanceled {
			return exitOK // what was asked
		}
		return code
	})
}

func runWait(ctx context.Context, o *options, args []string) int {
	return o.call(ctx, args[0], func(ctx context.Context, c *a2a.Client) int {
		return o.poll(ctx, c, args[0], args[1])
	})
}

// poll waits for the task with WaitTask, a progress line on stderr when
// it is a terminal, and prints how it ended.
func (o *options) poll(ctx context.Context, c *a2a.Client, endpoint, taskID string) int {
	opts := []a2a.WaitOption{a2a.PollMaxAttempts(o.maxAttempts), a2a.PollTimeout(o.timeout)}
	if o.history >= 0 {
		opts = append(opts, a2a.HistoryLength(o.history))
	}
	if o.env.stderrTTY {
		opts = append(opts, a2a.PollProgress(func(p a2a.PollAttempt) {
			fmt.Fprintf(o.stderr(), "\r\x1b[Kpoll %d: %s, %s", p.Attempt, p.Task.Status.State, p.Elapsed.Round(100*time.Millisecond))
		}))
	}
	task, err := c.WaitTask(ctx, taskID, opts...)
	if o.env.stderrTTY {
		fmt.Fprint(o.stderr(), "\r\x1b[K")
	}
	var pe *a2a.PollError
	switch {
	case errors.As(err, &pe) && (pe.Limit != a2a.PollLimitContext || errors.Is(ctx.Err(), context.DeadlineExceeded)):
		// Out of attempts, or of --timeout: not the agent's failure.
		if task != nil {
			o.printTask(task)
		}
		fmt.Fprintf(o.stderr(), "a2a %s: %v\nthe task may still finish; to wait again:\n  a2a wait %s %s\n", o.name, err, quote(redactURL(endpoint)), quote(taskID))
		return exitUnfinished
	case errors.Is(ctx.Err(), context.Canceled): // Ctrl-C
		o.cancelOnInterrupt(c, taskID)
		return o.fail(context.Canceled)
	case err != nil:
		return o.fail(err)
	}
	return o.finish(endpoint, task)
}

// cancelOnInterrupt cancels the task, with a short deadline of its own,
// when --cancel-on-interrupt was given.
func (o *options) cancelOnInterrupt(c *a2a.Client, taskID string) {
	if !o.cancelOnInt || taskID == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if task, err := c.CancelTask(ctx, taskID); err != nil {
		fmt.Fprintf(o.stderr(), "a2a %s: cancel: %v\n", o.name, err)
	} else {
		fmt.Fprintf(o.stderr(), "a2a %s: task %s is %s\n", o.name, taskID, task.Status.State)
	}
}

// finish prints the task and returns the exit code its state means, with
// what to do next for a task that waits or is not finished.
func (o *options) finish(endpoint string, task *a2a.Task) int {
	o.printTask(task)
	code := stateExit(task.Status.State)
	if code == exitOK { // only a completed task has the data to write
		if err := o.writeData(task); err != nil {
			fmt.Fprintf(o.stderr(), "a2a %s: --data-out: %v\n", o.name, err)
			return exitError
		}
	}
	u := quote(redactURL(endpoint))
	switch code {
	case exitInterrupted:
		fmt.Fprintf(o.stderr(), "the agent waits for you; answer with:\n  a2a send %s --task %s --context %s 'ANSWER'\n", u, quote(task.ID), quote(task.ContextID))
		return code
	case exitUnfinished:
		fmt.Fprintf(o.stderr(), "the task is not finished; wait for it with:\n  a2a wait %s %s\n", u, quote(task.ID))
		return code
	default:
		return code
	}
}

// writeData writes the first artifact's DataPart to --data-out.
func (o *options) writeData(task *a2a.Task) error {
	if o.dataOut == "" {
		return nil
	}
	for i := range task.Artifacts {
		if d, ok := task.Artifacts[i].Data(); ok {
			return os.WriteFile(o.dataOut, append(indentJSON(d.Data), '\n'), 0o644)
		}
	}
	return errors.New("the task has no data part")
}

func runTasks(ctx context.Context, o *options, args []string) int {
	if o.protocol == "auto" {
		o.protocol = a2a.ProtocolV10 // ListTasks is v1.0's: nothing to choose
	}
	req := a2a.ListTasksRequest{ContextID: o.contextID, Status: a2a.TaskState(o.status), PageSize: o.pageSize}
	var opts []a2a.CallOption
	if o.history >= 0 {
		opts = append(opts, a2a.HistoryLength(o.history))
	}
	return o.call(ctx, args[0], func(ctx context.Context, c *a2a.Client) int {
		n := 0
		for task, err := range c.ListTasks(ctx, req, opts...) {
			if err != nil {
				return o.fail(err)
			}
			n++
			if o.json {
				o.env.stdout.Write(append(append([]byte(nil), task.Raw()...), '\n'))
				continue
			}
			fmt.Fprintln(o.env.stdout, strings.TrimRight(fmt.Sprintf("%s  %-15s %s  %s", task.ID, task.Status.State, task.Status.Timestamp, oneLine(task.StatusText())), " "))
		}
		if !o.json {
			fmt.Fprintf(o.env.stdout, "%d %s\n", n, plural(n, "task"))
		}
		return exitOK
	})
}
