// Command failed shows how to tell apart every way a call can end without a
// usable result: a failed task (a value, with its reason), a canceled or
// rejected task, a task the agent lost, an HTTP error from a gateway, and a
// poll that ran out of time. It runs against an offline fake agent, on any
// binding: the same code tells the same cases apart over JSON-RPC and
// HTTP+JSON (REST), where errors arrive as HTTP statuses with a
// google.rpc.Status body instead of JSON-RPC error objects.
//
//	go run ./examples/failed
//	go run ./examples/failed -transport http+json -version 1.0
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

func main() {
	// -h prints the usage and succeeds.
	if err := run(context.Background(), os.Stdout, os.Args[1:]); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "failed:", err)
		os.Exit(1)
	}
}

// describe turns the outcome of a call into one line, handling each case.
func describe(task *a2a.Task, err error) string {
	var (
		rpcErr  *a2a.RPCError
		httpErr *a2a.HTTPError
		pollErr *a2a.PollError
	)
	switch {
	case errors.As(err, &pollErr):
		// The client stopped waiting; the agent may still finish the task.
		return fmt.Sprintf("gave up waiting: %s ran out after %d attempts, last state %q (not a server failure)",
			pollErr.Limit, pollErr.Attempts, pollErr.LastState)
	case errors.Is(err, a2a.ErrTaskNotFound):
		return "the agent no longer knows this task (Caoliao keeps tasks in memory only)"
	case errors.As(err, &rpcErr):
		return fmt.Sprintf("agent error %d: %s", rpcErr.Code, rpcErr.Message)
	case errors.As(err, &httpErr):
		return fmt.Sprintf("HTTP %d from the way in, not from the agent", httpErr.StatusCode)
	case err != nil:
		return "call failed: " + err.Error()
	}
	switch task.Status.State {
	case a2a.TaskStateCompleted:
		return "completed: " + task.Artifacts[0].Text()
	case a2a.TaskStateFailed:
		return "task failed (a value, err == nil): " + task.StatusText()
	case a2a.TaskStateCanceled:
		return "task canceled; side effects already made are not undone"
	case a2a.TaskStateRejected:
		return "the agent declined the task: " + task.StatusText()
	default:
		return fmt.Sprintf("not finished: state %q", task.Status.State)
	}
}

func run(ctx context.Context, w io.Writer, args []string) error {
	fs := flag.NewFlagSet("failed", flag.ContinueOnError)
	fs.SetOutput(w)
	version := fs.String("version", a2a.ProtocolV03, "A2A protocol version of the offline agent: 0.3 or 1.0")
	transport := fs.String("transport", a2a.TransportJSONRPC, "transport of the offline agent: JSONRPC or HTTP+JSON (REST)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	binding := strings.ToUpper(*transport) // the names in any case: http+json
	if binding != a2a.TransportJSONRPC && binding != a2a.TransportHTTPJSON {
		return fmt.Errorf("-transport %s: want JSONRPC or HTTP+JSON", *transport)
	}

	agentOpts := []a2atest.Option{a2atest.Bindings(binding), a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		switch m.Parts.Text() {
		case "reject me":
			return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateRejected, "只读服务，不执行写入")}
		case "slow":
			return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateWorking, ""), States: []a2a.TaskState{a2a.TaskStateWorking}}
		}
		return a2atest.Caoliao(m)
	})}
	if *version == a2a.ProtocolV10 {
		agentOpts = append(agentOpts, a2atest.V10())
	}
	agent := a2atest.NewServer(agentOpts...)
	defer agent.Close()
	// WithTransports and WithProtocolVersion name the binding; the rest of
	// the code is the same on every one.
	c, err := a2a.NewClient(agent.URL, a2a.WithTransports(binding), a2a.WithProtocolVersion(*version), a2a.WithMaxRetries(0))
	if err != nil {
		return err
	}

	fmt.Fprintln(w, "failed:  ", describe(c.SendText(ctx, "https://qr71.cn/no-such-code")))
	fmt.Fprintln(w, "rejected:", describe(c.SendText(ctx, "reject me")))

	slow, err := c.SendText(ctx, "slow")
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "timeout: ", describe(c.WaitTask(ctx, slow.ID, a2a.PollInterval(5*time.Millisecond), a2a.PollMaxAttempts(3))))
	fmt.Fprintln(w, "canceled:", describe(c.CancelTask(ctx, slow.ID)))
	fmt.Fprintln(w, "lost:    ", describe(c.GetTask(ctx, "task-from-before-a-restart")))

	agent.Enqueue(a2atest.Raw{Status: 502, ContentType: "text/html", Body: "<html><h1>502 Bad Gateway</h1></html>"})
	fmt.Fprintln(w, "gateway: ", describe(c.GetTask(ctx, slow.ID)))
	return nil
}
