// Command followup answers an agent that asks a question: the task comes
// back input-required with the question in its status message, and the
// answer is sent as a follow-up message carrying the task's taskId and
// contextId (A2A v0.3 multi-turn; the Caoliao gateway docs, "提交后续输入"). It runs against
// an offline fake agent, on any binding, with the same code.
//
//	go run ./examples/followup
//	go run ./examples/followup -transport http+json -version 1.0
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

func main() {
	// -h prints the usage and succeeds.
	if err := run(context.Background(), os.Stdout, os.Args[1:]); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "followup:", err)
		os.Exit(1)
	}
}

// run asks about a device and gives -answer when the agent asks which one.
func run(ctx context.Context, w io.Writer, args []string) error {
	fs := flag.NewFlagSet("followup", flag.ContinueOnError)
	fs.SetOutput(w)
	answer := fs.String("answer", "A08-03-06", "the answer to the agent's question")
	version := fs.String("version", a2a.ProtocolV03, "A2A protocol version of the offline agent: 0.3 or 1.0")
	transport := fs.String("transport", a2a.TransportJSONRPC, "transport of the offline agent: JSONRPC or HTTP+JSON (REST)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	binding := strings.ToUpper(*transport) // the names in any case: http+json
	if binding != a2a.TransportJSONRPC && binding != a2a.TransportHTTPJSON {
		return fmt.Errorf("-transport %s: want JSONRPC or HTTP+JSON", *transport)
	}

	agentOpts := []a2atest.Option{a2atest.OnSend(a2atest.Caoliao), a2atest.Bindings(binding)}
	if *version == a2a.ProtocolV10 {
		agentOpts = append(agentOpts, a2atest.V10())
	}
	agent := a2atest.NewServer(agentOpts...)
	defer agent.Close()
	// The two options that differ between bindings.
	c, err := a2a.NewClient(agent.URL, a2a.WithTransports(binding), a2a.WithProtocolVersion(*version))
	if err != nil {
		return err
	}

	task, err := c.SendText(ctx, "帮我查一台设备的状态")
	if err != nil {
		return err
	}
	for turn := 1; task.Status.State == a2a.TaskStateInputRequired; turn++ {
		if turn > 3 {
			return fmt.Errorf("agent keeps asking: %s", task.StatusText())
		}
		fmt.Fprintf(w, "agent asks: %s\nwe answer:  %s\n", task.StatusText(), *answer)
		res, err := c.SendFollowUp(ctx, task, a2a.NewTextMessage(*answer))
		if err != nil {
			return err
		}
		next, ok := res.(*a2a.Task)
		if !ok {
			return fmt.Errorf("agent answered with a message: %s", res.(*a2a.Message).Text())
		}
		task = next
	}
	fmt.Fprintf(w, "task %s (context %s): %s\n", task.ID, task.ContextID, task.Status.State)
	fmt.Fprintln(w, "summary:", task.Artifact("entity").Text())
	fmt.Fprintln(w, "history:", len(task.History), "messages")
	return nil
}
