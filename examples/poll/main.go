// Command poll calls a gateway-style agent: it sends the API key
// and workspace headers and an agent selector in every request body, starts
// a task without blocking, and polls it with an overall deadline, a maximum
// number of attempts and backoff, printing a line per attempt. It runs
// against an offline fake agent that checks all of those.
//
//	go run ./examples/poll
//	go run ./examples/poll -version 1.0
//	go run ./examples/poll -transport http+json   # -version 1.0 too
//
// Over HTTP+JSON (REST) the calls and the polling are the same; the agent
// selector is not sent, as that binding has no request envelope to carry it
// (a REST gateway names the agent in its URL).
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
		fmt.Fprintln(os.Stderr, "poll:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer, args []string) error {
	fs := flag.NewFlagSet("poll", flag.ContinueOnError)
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
	jsonrpc := binding == a2a.TransportJSONRPC

	agentOpts := []a2atest.Option{a2atest.OnSend(a2atest.Caoliao), a2atest.Bindings(binding),
		a2atest.RequireAPIKey("demo-key"), a2atest.RequireWorkspace("ws-1")}
	if jsonrpc {
		agentOpts = append(agentOpts, a2atest.RequireAgentCode("inspection-records"))
	}
	if *version == a2a.ProtocolV10 {
		agentOpts = append(agentOpts, a2atest.V10())
	}
	agent := a2atest.NewServer(agentOpts...)
	defer agent.Close()

	opts := []a2a.Option{
		a2a.WithTransports(binding), a2a.WithProtocolVersion(*version), // the binding
		a2a.WithAPIKey("demo-key"),
		a2a.WithWorkspace("ws-1"),
	}
	if jsonrpc { // a member of the JSON-RPC request body: HTTP+JSON has none
		opts = append(opts, a2a.WithAgentCode("inspection-records")) // also sent with every tasks/get
	}
	c, err := a2a.NewClient(agent.URL, opts...)
	if err != nil {
		return err
	}
	task, err := c.SendText(ctx, "汇总本月的巡检记录", a2a.Blocking(false))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "started %s: %s\n", task.ID, task.Status.State)

	task, err = c.WaitTask(ctx, task.ID,
		a2a.PollTimeout(20*time.Second),        // overall deadline
		a2a.PollMaxAttempts(10),                // at most 10 tasks/get
		a2a.PollInterval(200*time.Millisecond), // first wait
		a2a.PollMultiplier(2),                  // then 400ms, 800ms, …
		a2a.PollMaxInterval(2*time.Second),     // … up to 2s
		a2a.PollProgress(func(a a2a.PollAttempt) {
			fmt.Fprintf(w, "attempt %d: %s\n", a.Attempt, a.Task.Status.State)
		}))
	var pe *a2a.PollError
	if errors.As(err, &pe) {
		return fmt.Errorf("task %s still %q: %w", pe.TaskID, pe.LastState, err)
	}
	if err != nil {
		return err
	}

	var data struct {
		Records []a2atest.Record `json:"records"`
	}
	if err := task.Artifact("records").DecodeData(&data); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %s\n", task.Status.State, task.Artifact("records").Text())
	for _, r := range data.Records {
		fmt.Fprintf(w, "  %s %s\n", r.ID, r.Result)
	}

	gets, checked := 0, "the headers"
	for _, r := range agent.Requests() {
		if r.Method == "tasks/get" || r.Method == "GetTask" { // v0.3's name, v1.0's
			gets++
		}
	}
	if jsonrpc {
		checked += " and agent_code"
	}
	fmt.Fprintf(w, "tasks/get calls: %d, each with %s checked\n", gets, checked)
	return nil
}
