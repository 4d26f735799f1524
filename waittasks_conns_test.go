package a2a_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestPollConnections: with the default client (the shared transport),
// the polling waits of one client use at most DefaultMaxPollsInFlight (n)
// connections at once and open about n in all, however many tasks they
// wait for: 10,000 tasks through WaitTasks, 2,000 goroutines calling
// WaitTask. The agent counts the connections it accepted.
//
// The bound asserted is 2n−1: net/http dials only when a request finds no
// idle connection, so only while fewer than n connections are up, and at
// most n requests (each with its dial) are in flight then; a request that
// got another's freed connection leaves its dial to join the idle pool
// (2n per host), which closes none. Typically it is n and a few.
func TestPollConnections(t *testing.T) {
	const slack = a2a.DefaultMaxPollsInFlight - 1
	cases := []struct {
		name string
		run  func(t *testing.T, c *a2a.Client)
	}{
		{"WaitTasks 10000", func(t *testing.T, c *a2a.Client) {
			ids := make([]string, 10_000)
			for i := range ids {
				ids[i] = fmt.Sprint("task-", i)
			}
			n := 0
			for r := range c.WaitTasks(context.Background(), ids, fast...) {
				if r.Err != nil || r.Task.Status.State != a2a.TaskStateCompleted {
					t.Fatalf("%s: %v %v", r.TaskID, r.Task, r.Err)
				}
				n++
			}
			if n != len(ids) {
				t.Fatalf("%d results, want %d", n, len(ids))
			}
		}},
		{"WaitTask 2000 goroutines", func(t *testing.T, c *a2a.Client) {
			var wg sync.WaitGroup
			for i := range 2_000 {
				wg.Go(func() {
					task, err := c.WaitTask(context.Background(), fmt.Sprint("task-", i), fast...)
					if err != nil || task.Status.State != a2a.TaskStateCompleted {
						t.Errorf("task-%d: %v %v", i, task, err)
					}
				})
			}
			wg.Wait()
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			agent := newPollAgent(t, nil)
			c := newPollClient(t, agent.URL)
			tc.run(t, c)
			opened := agent.opened.Load()
			t.Logf("%d requests, %d connections accepted, %d tasks/get in flight at the peak",
				agent.requests.Load(), opened, agent.peak.Load())
			if opened > a2a.DefaultMaxPollsInFlight+slack {
				t.Errorf("agent accepted %d connections, want ≤ %d", opened, a2a.DefaultMaxPollsInFlight+slack)
			}
			if p := agent.peak.Load(); p > a2a.DefaultMaxPollsInFlight {
				t.Errorf("%d tasks/get in flight, want ≤ %d", p, a2a.DefaultMaxPollsInFlight)
			}
			a2a.CloseIdleConnections()
		})
	}
}
