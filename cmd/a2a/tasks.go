package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
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
	o.spoken, o.spokenTransport = c.ProtocolVersion(), c.Interface().ProtocolBinding
	o.askAgain = o.protocol == "auto" && c.ProtocolVersion() == a2a.ProtocolV03
	code := do(ctx, c)
	if o.askAgain && refusedVersion(o.lastErr) {
		o.errf("a2a: the agent answers as an A2A v1.0 agent; asking again in v1.0 (--protocol 1.0 skips this)\n")
		c10, err := a2a.NewClient(c.Interface().URL, o.clientOptions(a2a.ProtocolV10, c.Interface().ProtocolBinding)...)
		if err != nil {
			return o.fail(err)
		}
		o.spoken, o.askedAgain = a2a.ProtocolV10, true
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
		o.errf("a2a %s: %v\n", o.name, err)
		return exitUsage
	case errors.Is(err, context.Canceled):
		o.errf("a2a %s: stopped\n", o.name)
		return exitSignal
	case o.askAgain && refusedVersion(err):
		return exitError // call asks again in v1.0
	}
	var uv *a2a.UnsupportedByVersionError
	if errors.As(err, &uv) {
		// Not sent: the call is in other bindings. Say which, in flags.
		o.errf("a2a %s: %s is not in A2A v%s over %s, the binding spoken", o.name, uv.Method, uv.Version, o.spokenTransport)
		if uv.Method != "ListTasks" {
			o.errf(" (if the agent speaks v1.0, add --protocol 1.0)\n")
			return exitError
		}
		o.errf("; it is in A2A v1.0 (--protocol 1.0) and in v0.3 over HTTP+JSON (--transport http+json)\n")
		return exitError
	}
	// The package's text, without its "a2a: " (the command's name comes
	// first), without a hint that names Go options (the command line has
	// its own, below), and with every other Go option written as its flag
	// (inFlags).
	text := strings.TrimPrefix(err.Error(), "a2a: ")
	var rpcErr *a2a.RPCError
	if errors.As(err, &rpcErr) && rpcErr.Hint != "" {
		text = strings.TrimSuffix(text, "; "+rpcErr.Hint)
	}
	o.errf("a2a %s: %s\n", o.name, inFlags(text))
	o.hint(err)
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
	if err := o.checkURL(endpoint); err != nil {
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
			return o.poll(ctx, c, endpoint, task)
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
		return o.poll(ctx, c, args[0], &a2a.Task{ID: args[1]})
	})
}

// poll waits for the task known (its id, and its context when known)
// with WaitTask, a progress line on stderr when it is a terminal, and
// prints how it ended.
func (o *options) poll(ctx context.Context, c *a2a.Client, endpoint string, known *a2a.Task) int {
	opts := []a2a.WaitOption{a2a.PollMaxAttempts(o.maxAttempts), a2a.PollTimeout(o.timeout)}
	if o.history >= 0 {
		opts = append(opts, a2a.HistoryLength(o.history))
	}
	if o.env.stderrTTY {
		opts = append(opts, a2a.PollProgress(func(p a2a.PollAttempt) {
			o.errf("\r\x1b[Kpoll %d: %s, %s", p.Attempt, p.Task.Status.State, p.Elapsed.Round(100*time.Millisecond))
		}))
	}
	task, err := c.WaitTask(ctx, known.ID, opts...)
	if o.env.stderrTTY {
		o.errf("\r\x1b[K")
	}
	last := known
	if task != nil {
		last = task
		if last.ContextID == "" {
			last.ContextID = known.ContextID
		}
	}
	var pe *a2a.PollError
	var te *a2a.TransportError
	switch {
	case err == nil:
		return o.finish(endpoint, task)
	case errors.As(err, &pe) && pe.LastErr != nil && errors.As(pe.LastErr, &te) && task == nil && known.Status.State == "":
		// No poll reached the agent, nor anything before: no answer.
		return o.stopped(ctx, c, endpoint, last, "wait", pe.LastErr)
	case errors.As(err, &pe) && !errors.Is(ctx.Err(), context.Canceled):
		// Out of attempts or of --timeout, or a Retry-After longer than
		// the time left: not the agent's failure.
		if task != nil {
			o.printTask(task)
		}
		o.gaveUp(ctx, pe, last)
		o.resume(endpoint, last, "wait")
		return exitUnfinished
	}
	return o.stopped(ctx, c, endpoint, last, "wait", err)
}

// gaveUp prints why a wait stopped before its task ended, from pe: the
// flag that ran out, or the agent's Retry-After when that asked for more
// than the time left (the poll stops then rather than sleep past
// --timeout), the attempts, and the last state known (last: the task the
// send answered with until a poll reads one), with the fault of the last
// attempt when it read no task.
func (o *options) gaveUp(ctx context.Context, pe *a2a.PollError, last *a2a.Task) {
	attempts := fmt.Sprintf("%d %s", pe.Attempts, plural(pe.Attempts, "attempt"))
	elapsed := pe.Elapsed.Round(time.Millisecond)
	he, busy := errors.AsType[*a2a.HTTPError](pe.LastErr)
	dl, hasDeadline := ctx.Deadline()
	left := time.Until(dl).Round(time.Second)
	switch {
	case pe.Limit != a2a.PollLimitAttempts && busy && hasDeadline && he.RetryAfter > 0 && he.RetryAfter > time.Until(dl):
		retry := he.RetryAfter.String()
		if he.RetryAfter >= 24*time.Hour { // the SDK's cap: the agent may have asked for more
			retry = "24h or more"
		}
		o.errf("a2a %s: wait for task %s: the agent answered HTTP %d and asked to retry after %s, more than the %s left of --timeout %s; stopped after %s in %s, last state \"%s\"\n",
			o.name, last.ID, he.StatusCode, retry, left, o.timeout, attempts, elapsed, last.Status.State)
		return
	case pe.Limit == a2a.PollLimitAttempts:
		o.errf("a2a %s: wait for task %s: --max-attempts %d reached after %s in %s, last state \"%s\"", o.name, last.ID, o.maxAttempts, attempts, elapsed, last.Status.State)
	case errors.Is(pe, context.DeadlineExceeded):
		o.errf("a2a %s: wait for task %s: --timeout %s reached after %s in %s, last state \"%s\"", o.name, last.ID, o.timeout, attempts, elapsed, last.Status.State)
	default:
		o.errf("a2a %s: %s", o.name, strings.TrimPrefix(pe.Error(), "a2a: "))
	}
	if pe.LastErr != nil {
		o.errf("; the last attempt got %s", strings.TrimPrefix(pe.LastErr.Error(), "a2a: "))
	}
	o.errf("\n")
}

// stopped ends a command whose wait or stream ended before the task did,
// with err: by Ctrl-C (130, after --cancel-on-interrupt's cancel), by
// --timeout (5: not finished), or by an error (1). Once the task's id is
// known, it also prints the id, the context and the command that resumes
// (resume), so nothing is lost.
func (o *options) stopped(ctx context.Context, c *a2a.Client, endpoint string, task *a2a.Task, verb string, err error) int {
	var code int
	switch {
	case errors.Is(ctx.Err(), context.Canceled): // Ctrl-C
		if o.cancelOnInterrupt(c, task.ID) {
			return o.fail(context.Canceled) // it has ended: nothing to resume
		}
		code = o.fail(context.Canceled)
	case errors.Is(ctx.Err(), context.DeadlineExceeded) && task.ID != "":
		o.errf("a2a %s: --timeout %s reached: %v\n", o.name, o.timeout, err)
		code = exitUnfinished
	default:
		code = o.fail(err)
	}
	if task.ID != "" && code != exitUsage {
		o.resume(endpoint, task, verb)
	}
	return code
}

// resume prints on stderr what takes up a task the command leaves before
// its end: its id, its context, and the command that resumes (verb: wait,
// or resubscribe after a stream), each word quoted for a shell (quote).
func (o *options) resume(endpoint string, task *a2a.Task, verb string) {
	what := "wait for it"
	if verb == "resubscribe" {
		what = "follow it again"
	}
	id := quote(task.ID)
	if strings.HasPrefix(task.ID, "-") {
		id = "-- " + id // an id, not a flag
	}
	o.errf("the task is not finished (task %s, context %s); %s with:\n  a2a %s%s %s %s\n",
		task.ID, or(task.ContextID, "not known"), what, verb, o.sameAgent(), quote(o.shownURL(endpoint)), id)
}

// sameAgent is the flags, each word quoted and with a space before it,
// that make a printed command reach the agent as this one did: the
// protocol version and the transports when they were named (not auto),
// the tenant, the agent selector and the workspace (the key, the token
// and the headers are the user's to give again: they are secrets).
func (o *options) sameAgent() string {
	protocol := o.protocol
	if protocol == "auto" {
		protocol = "" // the default: nothing chosen
	}
	transport := ""
	if len(o.transport.names) > 0 {
		transport = o.transport.String()
	}
	return flagWords("protocol", protocol, "transport", transport, "tenant", o.tenant, "agent-id", o.agentID,
		"agent-code", o.agentCode, "workspace", o.workspace)
}

// flagWords is " --NAME VALUE" for each pair of nameValues whose value is
// not empty, each value quoted for a shell.
func flagWords(nameValues ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(nameValues); i += 2 {
		if v := nameValues[i+1]; v != "" {
			b.WriteString(" --" + nameValues[i] + " " + quote(v))
		}
	}
	return b.String()
}

// cancelOnInterrupt cancels the task, with a short deadline of its own,
// when --cancel-on-interrupt was given, and reports whether the task has
// ended.
func (o *options) cancelOnInterrupt(c *a2a.Client, taskID string) bool {
	if !o.cancelOnInt || taskID == "" {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	task, err := c.CancelTask(ctx, taskID)
	if err != nil {
		o.errf("a2a %s: cancel: %v\n", o.name, err)
		return false
	}
	o.errf("a2a %s: task %s is %s\n", o.name, taskID, task.Status.State)
	return task.Status.State.Terminal()
}

// finish prints the task and returns the exit code its state means, with
// what to do next for a task that waits or is not finished.
func (o *options) finish(endpoint string, task *a2a.Task) int {
	return o.finishAs(endpoint, task, "wait")
}

// finishAs is finish, resuming an unfinished task with verb (resume).
func (o *options) finishAs(endpoint string, task *a2a.Task, verb string) int {
	o.printTask(task)
	code := stateExit(task.Status.State)
	if code == exitOK { // only a completed task has the data to write
		if err := o.writeData(task); err != nil {
			o.errf("a2a %s: --data-out: %v\n", o.name, err)
			return exitError
		}
	}
	switch code {
	case exitInterrupted:
		o.errf("the agent waits for you; answer with:\n  a2a send%s %s --task %s --context %s 'ANSWER'\n", o.sameAgent(), quote(o.shownURL(endpoint)), quote(task.ID), quote(task.ContextID))
	case exitUnfinished:
		o.resume(endpoint, task, verb)
	}
	return code
}

// writeData writes the first artifact's DataPart to --data-out.
func (o *options) writeData(task *a2a.Task) error {
	if o.dataOut == "" {
		return nil
	}
	for i := range task.Artifacts {
		if d, ok := task.Artifacts[i].Data(); ok {
			return os.WriteFile(o.dataOut, append(o.redactor().Bytes(indentJSON(d.Data)), '\n'), 0o644) // redacted, as every output
		}
	}
	return errors.New("the task has no data part")
}

func runTasks(ctx context.Context, o *options, args []string) int {
	// ListTasks is in A2A v1.0 and in v0.3's HTTP+JSON, not in v0.3's
	// JSON-RPC: the card's choice among the interfaces that have it, and
	// v1.0 without a card.
	o.usable, o.usableText = canList, "lists tasks (A2A v1.0, or v0.3 over HTTP+JSON)"
	o.autoVersion = a2a.ProtocolV10
	if o.listLimit < 1 {
		return o.fail(usagef("--limit must be positive"))
	}
	req := a2a.ListTasksRequest{ContextID: o.contextID, Status: a2a.TaskState(o.status), PageSize: o.pageSize, PageToken: o.pageToken}
	opts := []a2a.CallOption{a2a.ListLimit(o.listLimit)}
	if o.history >= 0 {
		opts = append(opts, a2a.HistoryLength(o.history))
	}
	return o.call(ctx, args[0], func(ctx context.Context, c *a2a.Client) int {
		n := 0
		for task, err := range c.ListTasks(ctx, req, opts...) {
			if le, ok := errors.AsType[*a2a.ListLimitError](err); ok {
				if !o.json {
					o.outf("%d %s\n", n, plural(n, "task"))
				}
				o.errf("a2a tasks: stopped at --limit %d, more tasks follow; list on with:\n  a2a tasks%s%s %s --page-token %s\n",
					o.listLimit, o.sameAgent(), o.sameListing(), quote(o.shownURL(args[0])), quote(le.NextPageToken))
				return exitUnfinished
			}
			if err != nil {
				return o.fail(err)
			}
			n++
			if o.json {
				o.outJSON(task.Raw())
				continue
			}
			o.outf("%s\n", strings.TrimRight(fmt.Sprintf("%s  %-15s %s  %s", o.shown(task.ID), o.shown(task.Status.State), o.shown(task.Status.Timestamp), o.shown(task.StatusText())), " "))
		}
		if !o.json {
			o.outf("%d %s\n", n, plural(n, "task"))
		}
		return exitOK
	})
}

// canList reports whether a binding has ListTasks: every one but v0.3's
// JSON-RPC.
func canList(version, transport string) bool {
	return version == a2a.ProtocolV10 || strings.EqualFold(transport, a2a.TransportHTTPJSON)
}

// sameListing is the flags, as sameAgent's, that ask for the same
// listing: its filters, page size and limit.
func (o *options) sameListing() string {
	pageSize, history := "", ""
	if o.pageSize > 0 {
		pageSize = strconv.Itoa(o.pageSize)
	}
	if o.history >= 0 {
		history = strconv.Itoa(o.history)
	}
	return flagWords("context", o.contextID, "status", o.status, "page-size", pageSize,
		"limit", strconv.Itoa(o.listLimit), "history", history)
}
