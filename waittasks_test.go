package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// collectResults ranges over WaitTasks and returns its results by task id, failing
// on an id yielded twice.
func collectResults(t *testing.T, seq func(func(a2a.TaskResult) bool)) map[string]a2a.TaskResult {
	t.Helper()
	got := map[string]a2a.TaskResult{}
	for r := range seq {
		if _, dup := got[r.TaskID]; dup {
			t.Errorf("task %q yielded twice", r.TaskID)
		}
		got[r.TaskID] = r
	}
	return got
}

func newPollClient(t *testing.T, url string, opts ...a2a.Option) *a2a.Client {
	t.Helper()
	c, err := a2a.NewClient(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestWaitTasksResults(t *testing.T) {
	w, f := a2a.TaskStateWorking, a2a.TaskStateFailed
	agent := newPollAgent(t, map[string][]a2a.TaskState{
		"done":    {w, w, a2a.TaskStateCompleted},
		"failed":  {w, f},
		"unknown": {"submitted", "paused", "", "TASK_STATE_PAUSED", a2a.TaskStateCompleted},
		"input":   {a2a.TaskStateInputRequired},
		"cancel":  {a2a.TaskStateCanceled},
	})
	c := newPollClient(t, agent.URL)
	ids := []string{"done", "failed", "unknown", "input", "cancel"}
	got := collectResults(t, c.WaitTasks(context.Background(), ids, fast...))
	want := map[string]a2a.TaskState{"done": "completed", "failed": "failed", "unknown": "completed",
		"input": "input-required", "cancel": "canceled"}
	if len(got) != len(want) {
		t.Fatalf("got %d results, want %d", len(got), len(want))
	}
	for id, state := range want {
		r := got[id]
		if r.Err != nil || r.Task == nil || r.Task.ID != id || r.Task.Status.State != state {
			t.Errorf("%s: task %+v err %v, want state %q and nil error", id, r.Task, r.Err, state)
		}
	}
	if diff := cmp.Diff(map[string]int{"done": 3, "failed": 2, "unknown": 5, "input": 1, "cancel": 1}, agent.gets()); diff != "" {
		t.Errorf("tasks/get per task (-want +got):\n%s", diff)
	}
}

func TestWaitTasksBadIDs(t *testing.T) {
	agent := newPollAgent(t, nil)
	c := newPollClient(t, agent.URL)
	var results []a2a.TaskResult
	for r := range c.WaitTasks(context.Background(), []string{"a", "", "a", "b", "a"}, fast...) {
		results = append(results, r)
	}
	if len(results) != 5 {
		t.Fatalf("%d results, want 5 (one per id given)", len(results))
	}
	var bad, ok []string
	for _, r := range results {
		switch {
		case r.Err != nil && r.Task == nil:
			bad = append(bad, r.TaskID)
		case r.Err == nil && r.Task != nil && r.Task.ID == r.TaskID && r.Task.Status.State == a2a.TaskStateCompleted:
			ok = append(ok, r.TaskID)
		default:
			t.Errorf("unexpected result %+v", r)
		}
	}
	if diff := cmp.Diff([]string{"", "a", "a"}, bad); diff != "" {
		t.Errorf("ids with an error (-want +got):\n%s", diff)
	}
	if len(ok) != 2 {
		t.Errorf("tasks completed %v, want a and b", ok)
	}
	if diff := cmp.Diff(map[string]int{"a": 2, "b": 2}, agent.gets()); diff != "" {
		t.Errorf("tasks/get per task (-want +got): nothing sent for a bad id:\n%s", diff)
	}
}

func TestWaitTasksOptionError(t *testing.T) {
	agent := newPollAgent(t, nil)
	c := newPollClient(t, agent.URL)
	ids := []string{"a", "b"}
	n := 0
	for r := range c.WaitTasks(context.Background(), ids, a2a.PollInterval(-time.Second)) {
		if r.TaskID != ids[n] || r.Task != nil || r.Err == nil || !strings.Contains(r.Err.Error(), "poll interval") {
			t.Errorf("result %+v: want the option's error for %s", r, ids[n])
		}
		n++
	}
	var zero *a2a.Client
	for r := range zero.WaitTasks(context.Background(), ids) {
		if r.Err == nil {
			t.Errorf("nil client: result %+v without error", r)
		}
		n++
	}
	if n != 4 || agent.requests.Load() != 0 {
		t.Errorf("%d results, %d requests: want 4 results, nothing sent", n, agent.requests.Load())
	}
}

// TestWaitTasksBreakStops: breaking out of the loop cancels the attempts in
// flight, drops the waits pending, and returns once none runs: no request
// follows, no goroutine is left (TestMain's goleak).
func TestWaitTasksBreakStops(t *testing.T) {
	scripts := map[string][]a2a.TaskState{"fast": {a2a.TaskStateCompleted}}
	ids := []string{"fast"}
	for i := range 200 {
		id := fmt.Sprint("slow-", i)
		scripts[id] = []a2a.TaskState{a2a.TaskStateWorking} // never ends
		ids = append(ids, id)
	}
	agent := newPollAgent(t, scripts)
	canceled := make(chan struct{}, 10)
	agent.hold = func(r *http.Request, id string) {
		if id == "slow-0" { // in flight when the loop breaks
			<-r.Context().Done()
			select {
			case canceled <- struct{}{}:
			default:
			}
		}
	}
	var started atomic.Int64 // round trips the client started
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		started.Add(1)
		return http.DefaultTransport.RoundTrip(r)
	})}
	c := newPollClient(t, agent.URL, a2a.WithMaxPollsInFlight(4), a2a.WithHTTPClient(hc))
	n := 0
	for r := range c.WaitTasks(context.Background(), ids, fast...) {
		n++
		if r.TaskID == "fast" {
			break
		}
		t.Errorf("result before the first task ended: %+v", r)
	}
	if n != 1 {
		t.Fatalf("%d results, want 1", n)
	}
	after := started.Load()
	<-canceled                        // the attempt in flight was canceled
	time.Sleep(20 * time.Millisecond) // ten poll intervals
	if got := started.Load(); got != after {
		t.Errorf("%d requests started after the loop ended", got-after)
	}
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
}

// TestWaitTasksContextCancel: ctx's end ends every wait with the last task
// read and a *PollError for ctx.
func TestWaitTasksContextCancel(t *testing.T) {
	const n = 50
	scripts := map[string][]a2a.TaskState{}
	var ids []string
	for i := range n {
		id := fmt.Sprint("t", i)
		scripts[id] = []a2a.TaskState{a2a.TaskStateWorking}
		ids = append(ids, id)
	}
	agent := newPollAgent(t, scripts)
	c := newPollClient(t, agent.URL, a2a.WithMaxPollsInFlight(8))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	read := map[string]bool{}
	opts := append(fast[:len(fast):len(fast)], a2a.PollProgress(func(a a2a.PollAttempt) {
		mu.Lock()
		defer mu.Unlock()
		read[a.Task.ID] = true
		if len(read) == n {
			cancel() // every task read at least once
		}
	}))
	got := collectResults(t, c.WaitTasks(ctx, ids, opts...))
	if len(got) != n {
		t.Fatalf("%d results, want %d", len(got), n)
	}
	for id, r := range got {
		pe, ok := errors.AsType[*a2a.PollError](r.Err)
		if !ok || pe.Limit != a2a.PollLimitContext || !errors.Is(r.Err, context.Canceled) || pe.TaskID != id || pe.Attempts < 1 {
			t.Errorf("%s: err %v, want a *PollError for the canceled ctx", id, r.Err)
		}
		if r.Task == nil || r.Task.ID != id || r.Task.Status.State != a2a.TaskStateWorking {
			t.Errorf("%s: task %+v, want the last task read", id, r.Task)
		}
	}
}

// TestWaitTasksBudgets: each wait keeps its own budget (attempts here).
func TestWaitTasksBudgets(t *testing.T) {
	agent := newPollAgent(t, map[string][]a2a.TaskState{"x": {a2a.TaskStateWorking}, "y": {a2a.TaskStateWorking}})
	c := newPollClient(t, agent.URL)
	got := collectResults(t, c.WaitTasks(context.Background(), []string{"x", "y"}, append(fast[:len(fast):len(fast)], a2a.PollMaxAttempts(3))...))
	for _, id := range []string{"x", "y"} {
		pe, ok := errors.AsType[*a2a.PollError](got[id].Err)
		if !ok || pe.Limit != a2a.PollLimitAttempts || pe.Attempts != 3 || pe.LastState != a2a.TaskStateWorking {
			t.Errorf("%s: %v, want the attempt limit after 3", id, got[id].Err)
		}
	}
	if diff := cmp.Diff(map[string]int{"x": 3, "y": 3}, agent.gets()); diff != "" {
		t.Errorf("tasks/get per task (-want +got):\n%s", diff)
	}
}

// TestPollsInFlightBound: the polling waits of one client, WaitTasks and
// WaitTask alike, never make more than WithMaxPollsInFlight tasks/get at
// once (the agent counts them).
func TestPollsInFlightBound(t *testing.T) {
	for _, limit := range []int{1, 3} {
		agent := newPollAgent(t, nil)
		agent.hold = func(*http.Request, string) { time.Sleep(200 * time.Microsecond) } // so attempts overlap
		c := newPollClient(t, agent.URL, a2a.WithMaxPollsInFlight(limit))
		var ids []string
		for i := range 60 {
			ids = append(ids, fmt.Sprint("batch-", i))
		}
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Go(func() {
				if _, err := c.WaitTask(context.Background(), fmt.Sprint("single-", i), fast...); err != nil {
					t.Error(err)
				}
			})
		}
		for r := range c.WaitTasks(context.Background(), ids, fast...) {
			if r.Err != nil {
				t.Error(r.Err)
			}
		}
		wg.Wait()
		if p := agent.peak.Load(); p > int64(limit) || p < 1 {
			t.Errorf("limit %d: %d tasks/get in flight at the peak", limit, p)
		}
		if got := agent.requests.Load(); got != 2*80 {
			t.Errorf("limit %d: %d requests, want 160", limit, got)
		}
	}
	if _, err := a2a.NewClient("http://agent.example", a2a.WithMaxPollsInFlight(0)); err == nil {
		t.Error("WithMaxPollsInFlight(0): no error")
	}
}
