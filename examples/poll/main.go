// Command poll calls a gateway-style agent: it sends the API key
// and workspace headers and an agent selector in every request body, starts
// a task without blocking, and polls it with an overall deadline, a maximum
// number of attempts and backoff, printing a line per attempt. It runs
// against an offline fake agent that checks all of those.
//
//	go run ./examples/poll
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "poll:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao),
		a2atest.RequireAPIKey("demo-key"), a2atest.RequireWorkspace("ws-1"), a2atest.RequireAgentCode("inspection-records"))
	defer agent.Close()

	c, err := a2a.NewClient(agent.URL,
		a2a.WithAPIKey("demo-key"),
		a2a.WithWorkspace("ws-1"),
		a2a.WithAgentCode("inspection-records"), // also sent with every tasks/get
	)
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

	gets := 0
	for _, r := range agent.Requests() {
		if r.Method == "tasks/get" {
			gets++
		}
	}
	fmt.Fprintf(w, "tasks/get calls: %d, each with the headers and agent_code checked\n", gets)
	return nil
}
