package a2a_test

import (
	"context"
	"fmt"
	"log"
	"net/http"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// An Observer that logs each operation: its name, its attempts and how it
// ended. The same hooks feed metrics; the a2aotel module makes spans of
// them.
func ExampleWithObserver() {
	agent := a2atest.NewServer()
	defer agent.Close()

	// snippet: observer-func
	logOps := a2a.ObserverFunc(func(ctx context.Context, op a2a.Operation) (context.Context, *a2a.OperationHooks) {
		attempts := 0
		return ctx, &a2a.OperationHooks{
			Attempt: func(a a2a.HTTPAttempt) {
				attempts = a.N
				a.Header.Set("X-Request-Source", "example") // sent with this attempt
			},
			AttemptDone: func(a a2a.HTTPAttempt) {
				if a.Retry {
					fmt.Printf("%s: attempt %d got %d, retrying\n", op.Name, a.N, a.StatusCode)
				}
			},
			End: func(e a2a.OperationEnd) {
				fmt.Printf("%s (%s over %s): %d attempt(s), error: %v\n", op.Name, op.Method, op.Transport, attempts, e.Err)
			},
		}
	})
	c, err := a2a.NewClient(agent.URL, a2a.WithObserver(logOps))
	// snippet end
	if err != nil {
		log.Fatal(err)
	}
	task, err := c.SendText(context.Background(), "hello")
	if err != nil {
		log.Fatal(err)
	}
	agent.Enqueue(a2atest.Raw{Status: http.StatusServiceUnavailable, Body: "busy"})
	if _, err := c.GetTask(context.Background(), task.ID); err != nil {
		log.Fatal(err)
	}
	c.GetTask(context.Background(), "no-such-task")
	// Output:
	// SendMessage (message/send over JSONRPC): 1 attempt(s), error: <nil>
	// GetTask: attempt 1 got 503, retrying
	// GetTask (tasks/get over JSONRPC): 2 attempt(s), error: <nil>
	// GetTask (tasks/get over JSONRPC): 1 attempt(s), error: a2a: tasks/get: task not found: no-such-task (code -32001)
}
