// Command quickstart shows the main job of the a2a package end to end:
// send a question to a Caoliao-style agent, read the completed task's
// one-line summary and structured data, see a failed task as a normal value,
// and poll a gateway-style task to completion.
//
// By default it starts an offline fake agent (package a2atest) in-process:
//
//	go run ./examples/quickstart
//	go run ./examples/quickstart -version 1.0                       # the same calls in A2A v1.0
//	go run ./examples/quickstart -transport http+json -version 1.0  # over HTTP+JSON (REST)
//	go run ./examples/quickstart -transport http+json               # A2A v0.3 over HTTP+JSON
//
// To call a real agent instead:
//
//	go run ./examples/quickstart -url https://a2a.objqr.com/a2a/jsonrpc
//	go run ./examples/quickstart -url "$PRODUCT_API_BASE_URL/agents/a2a" \
//	    -api-key "$PRODUCT_API_KEY" -workspace "$WORKSPACE_ID" -agent-id "$AGENT_ID"
//
// The binding (transport and protocol version) is the one thing that
// changes between an A2A v0.3 JSON-RPC agent (Caoliao's), a v1.0 one, and
// an agent that speaks HTTP+JSON: two client options; the rest of the code
// is the same. The agent selector (-agent-id) is a member of the JSON-RPC
// envelope, which HTTP+JSON does not have.
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
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// -h prints the usage and succeeds.
	if err := run(ctx, os.Stdout, os.Args[1:]); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// entityCard is the part of the "entity" data this program reads.
type entityCard struct {
	Title        string            `json:"title"`
	Organization string            `json:"organization"`
	Status       map[string]string `json:"status"`
}

func run(ctx context.Context, w io.Writer, args []string) error {
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(w)
	url := fs.String("url", "", "endpoint of a real agent, of the -transport binding (default: an offline fake agent)")
	apiKey := fs.String("api-key", "", "X-API-Key header (gateway style)")
	workspace := fs.String("workspace", "", "X-Workspace-ID header (gateway style)")
	agentID := fs.String("agent-id", "", `"agent_id" selector sent in every request body (gateway style)`)
	version := fs.String("version", a2a.ProtocolV03, "A2A protocol version the agent speaks: 0.3 or 1.0")
	transport := fs.String("transport", a2a.TransportJSONRPC, "transport the agent speaks: JSONRPC or HTTP+JSON (REST)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	binding := strings.ToUpper(*transport) // the names in any case: http+json
	if binding != a2a.TransportJSONRPC && binding != a2a.TransportHTTPJSON {
		return fmt.Errorf("-transport %s: want JSONRPC or HTTP+JSON", *transport)
	}

	endpoint := *url
	if endpoint == "" {
		agentOpts := []a2atest.Option{a2atest.OnSend(a2atest.Caoliao), a2atest.Bindings(binding)}
		if *version == a2a.ProtocolV10 {
			agentOpts = append(agentOpts, a2atest.V10())
		}
		agent := a2atest.NewServer(agentOpts...)
		defer agent.Close()
		endpoint = agent.URL
	}
	// The two options that differ between bindings.
	opts := []a2a.Option{a2a.WithTransports(binding), a2a.WithProtocolVersion(*version)}
	if *apiKey != "" {
		opts = append(opts, a2a.WithAPIKey(*apiKey))
	}
	if *workspace != "" {
		opts = append(opts, a2a.WithWorkspace(*workspace))
	}
	if *agentID != "" {
		opts = append(opts, a2a.WithAgentID(*agentID))
	}
	c, err := a2a.NewClient(endpoint, opts...)
	if err != nil {
		return err
	}
	if *url == "" {
		over := "" // JSON-RPC, the default, goes unsaid
		if in := c.Interface(); in.ProtocolBinding != a2a.TransportJSONRPC {
			over = " over " + in.ProtocolBinding
		}
		fmt.Fprintf(w, "(using the offline fake agent, A2A v%s%s; pass -url to call a real one)\n", c.ProtocolVersion(), over)
	}

	// 1. A synchronous query: the task comes back completed.
	fmt.Fprintln(w, "\n1. What is this QR code?")
	task, err := c.SendText(ctx, "这个二维码是什么？https://qr71.cn/okDISU/qssTnoy")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "   task %s: %s\n", task.ID, task.Status.State)
	if task.Status.State == a2a.TaskStateCompleted {
		entity := task.Artifact("entity")
		fmt.Fprintln(w, "   summary:", entity.Text())
		var card entityCard
		if err := entity.DecodeData(&card); err != nil {
			return fmt.Errorf("entity data: %w", err)
		}
		fmt.Fprintf(w, "   data: title=%s organization=%s 设备运行状态=%s\n", card.Title, card.Organization, card.Status["设备运行状态"])
	} else {
		fmt.Fprintln(w, "   reason:", task.StatusText())
	}

	// 2. A code that does not exist: a failed task, returned as a value.
	fmt.Fprintln(w, "\n2. A code that does not exist")
	task, err = c.SendText(ctx, "这个二维码是什么？https://qr71.cn/no-such-code")
	if err != nil {
		return err // only transport or protocol faults land here
	}
	fmt.Fprintf(w, "   task %s: %s (err == nil)\n", task.ID, task.Status.State)
	fmt.Fprintln(w, "   reason:", task.StatusText())

	// 3. A gateway-style task: answered at once, then polled to its end.
	fmt.Fprintln(w, "\n3. A slower query, polled")
	task, err = c.SendText(ctx, "本月的巡检记录", a2a.Blocking(false))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "   task %s: %s\n", task.ID, task.Status.State)
	if !task.Status.State.Terminal() && !task.Status.State.Interrupted() {
		task, err = c.WaitTask(ctx, task.ID,
			a2a.PollTimeout(30*time.Second),
			a2a.PollProgress(func(a a2a.PollAttempt) {
				fmt.Fprintf(w, "   poll %d: %s\n", a.Attempt, a.Task.Status.State)
			}))
		if err != nil {
			return err // a *a2a.PollError says what ran out; task holds the last state seen
		}
	}
	fmt.Fprintf(w, "   final: %s\n", task.Status.State)
	if art := task.Artifact("records"); art != nil {
		fmt.Fprintln(w, "   summary:", art.Text())
	}
	return nil
}
