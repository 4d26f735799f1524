package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// taskAgent serves tasks/get for one task with the states given, one per
// request (the last repeating); hold, when set, runs before answering.
func taskAgent(t *testing.T, hold func(*http.Request), states ...string) (*Client, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage `json:"id"`
			Params struct{ ID string }
		}
		json.Unmarshal(body, &req)
		if hold != nil {
			hold(r)
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"kind":"task","id":`+
			strconv.Quote(req.Params.ID)+`,"contextId":"c","status":{"state":"`+states[min(i, len(states)-1)]+`"}}}`)
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(srv.URL, WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	return c, &n
}

type pollEnd struct {
	task *Task
	err  error
}

// TestStartPollEnds: startPoll polls as WaitTask does and calls done once,
// after every seen call.
func TestStartPollEnds(t *testing.T) {
	c, n := taskAgent(t, nil, "working", "working", "completed")
	cfg, err := newPollConfig([]WaitOption{PollInterval(time.Millisecond), PollJitter(0)})
	if err != nil {
		t.Fatal(err)
	}
	var seen atomic.Int32
	var ended atomic.Bool
	cfg.seen = func(*Task) {
		if ended.Load() {
			t.Error("seen after done")
		}
		seen.Add(1)
	}
	ends := make(chan pollEnd, 2)
	known := &Task{ID: "t1", Status: TaskStatus{State: TaskStateSubmitted}}
	c.startPoll(context.Background(), "t1", known, &cfg, func(task *Task, err error) {
		ended.Store(true)
		ends <- pollEnd{task, err}
	})
	e := <-ends
	if e.err != nil || e.task == nil || e.task.Status.State != TaskStateCompleted {
		t.Fatalf("done(%+v, %v), want the completed task", e.task, e.err)
	}
	if seen.Load() != 3 || n.Load() != 3 {
		t.Errorf("%d tasks seen, %d requests: want 3 and 3", seen.Load(), n.Load())
	}
	if l := c.scheduler().Len(); l != 0 {
		t.Errorf("%d entries pending after the end", l)
	}
}

// TestStartPollStop: stop, called with a lock held that done takes, ends
// the poll pending or running; done follows once with the last task and a
// *PollError for a canceled poll, in another goroutine; later stops do
// nothing.
func TestStartPollStop(t *testing.T) {
	for _, running := range []bool{false, true} {
		name := "pending"
		if running {
			name = "running"
		}
		t.Run(name, func(t *testing.T) {
			inFlight := make(chan struct{}, 10)
			var hold func(*http.Request)
			if running {
				var calls atomic.Int32
				hold = func(r *http.Request) {
					if calls.Add(1) == 2 { // the second attempt hangs until canceled
						inFlight <- struct{}{}
						<-r.Context().Done()
					}
				}
			}
			c, _ := taskAgent(t, hold, "working")
			interval := time.Hour // pending after the first attempt
			if running {
				interval = time.Millisecond
			}
			cfg, _ := newPollConfig([]WaitOption{PollInterval(interval), PollJitter(0)})
			first := make(chan struct{}, 10)
			cfg.seen = func(*Task) { first <- struct{}{} }
			var mu sync.Mutex
			ends := make(chan pollEnd, 2)
			stop := c.startPoll(context.Background(), "t1", nil, &cfg, func(task *Task, err error) {
				mu.Lock() // the lock stop's caller holds
				defer mu.Unlock()
				ends <- pollEnd{task, err}
			})
			<-first
			if running {
				<-inFlight
			}
			mu.Lock()
			stop()
			stop()
			mu.Unlock()
			e := <-ends
			pe, ok := errors.AsType[*PollError](e.err)
			if !ok || pe.Limit != PollLimitContext || !errors.Is(e.err, context.Canceled) {
				t.Fatalf("done error %v, want a *PollError for a canceled poll", e.err)
			}
			if e.task == nil || e.task.Status.State != TaskStateWorking {
				t.Errorf("done task %+v, want the last task read", e.task)
			}
			stop()
			select {
			case e := <-ends:
				t.Fatalf("done called again: %+v", e)
			case <-time.After(10 * time.Millisecond):
			}
		})
	}
}

// TestStartPollContext: ctx's end ends a pending poll at once with ctx's
// error.
func TestStartPollContext(t *testing.T) {
	c, _ := taskAgent(t, nil, "working")
	cfg, _ := newPollConfig([]WaitOption{PollInterval(time.Hour)})
	first := make(chan struct{}, 1)
	cfg.seen = func(*Task) { first <- struct{}{} }
	ctx, cancel := context.WithCancel(context.Background())
	ends := make(chan pollEnd, 1)
	c.startPoll(ctx, "t1", nil, &cfg, func(task *Task, err error) { ends <- pollEnd{task, err} })
	<-first
	cancel()
	e := <-ends
	if pe, ok := errors.AsType[*PollError](e.err); !ok || pe.Limit != PollLimitContext || pe.Attempts != 1 || !errors.Is(e.err, context.Canceled) {
		t.Fatalf("done error %v, want the ctx's *PollError after 1 attempt", e.err)
	}
}

// TestPollEndsAfterProgress drives the interleaving that once let a
// PushWait's fallback poll call PollProgress after PushReceiver.Close
// returned: while step is in the seen and progress funcs (its attempt
// returned, w.mu let go), the wait's end stops the poll (stop, from
// quietLocked), the caller's ctx ends (ctxDone, as its AfterFunc runs
// it) or WaitTasks breaks (drop). None of them may end the poll from
// outside then: done (the PushWait's polled, which lets Close return;
// WaitTask's and WaitTasks' return) comes once, after progress returned,
// with the *PollError of a poll cut short, and no attempt follows.
func TestPollEndsAfterProgress(t *testing.T) {
	cases := []struct {
		name string
		cut  func(t *testing.T, w *pollWait, cancel context.CancelFunc)
	}{
		{"stop then ctx", func(t *testing.T, w *pollWait, cancel context.CancelFunc) { w.stop(); cancel(); w.ctxDone() }},
		{"ctx then stop", func(t *testing.T, w *pollWait, cancel context.CancelFunc) { cancel(); w.ctxDone(); w.stop() }},
		{"stop then drop", func(t *testing.T, w *pollWait, cancel context.CancelFunc) {
			w.stop()
			if w.drop() {
				t.Error("drop ended a poll whose progress func runs")
			}
		}},
		{"drop then ctx", func(t *testing.T, w *pollWait, cancel context.CancelFunc) {
			if w.drop() {
				t.Error("drop ended a poll whose progress func runs")
			}
			cancel()
			w.ctxDone()
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, n := taskAgent(t, nil, "working")
			cfg, _ := newPollConfig([]WaitOption{PollInterval(time.Millisecond), PollJitter(0)})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var inProgress atomic.Bool
			var progressCalls atomic.Int32
			ends := make(chan pollEnd, 2)
			w := new(pollWait)
			pc := newPollCall(c, ctx, &cfg, func(_ *pollWait, task *Task, err error) {
				if inProgress.Load() {
					t.Error("done called while the progress func runs")
				}
				ends <- pollEnd{task, err}
			})
			pc.open()
			defer pc.close()
			w.init(pc, "t1", nil)
			cfg.progress = func(PollAttempt) {
				inProgress.Store(true)
				defer inProgress.Store(false)
				if progressCalls.Add(1) == 1 {
					tc.cut(t, w, cancel) // the end of the wait, in this very window
				}
			}
			w.begin()
			e := <-ends
			pe, ok := errors.AsType[*PollError](e.err)
			if !ok || pe.Limit != PollLimitContext || !errors.Is(e.err, context.Canceled) || pe.Attempts != 1 {
				t.Fatalf("done error %v, want a *PollError for a poll cut short after 1 attempt", e.err)
			}
			if e.task == nil || e.task.Status.State != TaskStateWorking {
				t.Errorf("done task %+v, want the task read", e.task)
			}
			if p, r := progressCalls.Load(), n.Load(); p != 1 || r != 1 {
				t.Errorf("%d progress calls, %d requests: want 1 and 1", p, r)
			}
			select {
			case e := <-ends:
				t.Fatalf("done called again: %+v", e)
			default:
			}
			if l := c.scheduler().Len(); l != 0 {
				t.Errorf("%d entries pending after the end", l)
			}
		})
	}
}

// TestStartPollProgressPanic: a panic in the PollProgress func of a poll
// started by startPoll (a PushWait's fallback) ends it with an error that
// says so, the value escaped and redacted, and the last task; nothing
// crashes.
func TestStartPollProgressPanic(t *testing.T) {
	c, n := taskAgent(t, nil, "working")
	cfg, err := newPollConfig([]WaitOption{PollInterval(time.Millisecond), PollJitter(0),
		PollProgress(func(PollAttempt) { panic("bad\x1b[31m state") })})
	if err != nil {
		t.Fatal(err)
	}
	ends := make(chan pollEnd, 2)
	c.startPoll(context.Background(), "t1", nil, &cfg, func(task *Task, err error) { ends <- pollEnd{task, err} })
	e := <-ends
	if e.err == nil || !strings.Contains(e.err.Error(), "PollProgress func panicked") ||
		strings.Contains(e.err.Error(), "\x1b") || !strings.Contains(e.err.Error(), "bad") {
		t.Errorf("err %q, want one saying the PollProgress func panicked, inert", e.err)
	}
	if e.task == nil || e.task.Status.State != TaskStateWorking {
		t.Errorf("task %+v, want the last one read", e.task)
	}
	if n.Load() != 1 {
		t.Errorf("%d tasks/get, want 1", n.Load())
	}
	if l := c.scheduler().Len(); l != 0 {
		t.Errorf("%d entries pending after the end", l)
	}
}

// TestStartPollProgressGoexit: runtime.Goexit in the PollProgress func of a
// poll started by startPoll ends it with an error that says so and the
// last task; the scheduler's one slot is given back.
func TestStartPollProgressGoexit(t *testing.T) {
	c, n := taskAgent(t, nil, "working")
	c.maxPolls = 1
	cfg, err := newPollConfig([]WaitOption{PollInterval(time.Millisecond), PollJitter(0),
		PollProgress(func(PollAttempt) { runtime.Goexit() })})
	if err != nil {
		t.Fatal(err)
	}
	ends := make(chan pollEnd, 2)
	c.startPoll(context.Background(), "t1", nil, &cfg, func(task *Task, err error) { ends <- pollEnd{task, err} })
	e := <-ends
	if e.err == nil || !strings.Contains(e.err.Error(), "PollProgress func called runtime.Goexit") {
		t.Errorf("err %q, want one saying the PollProgress func called runtime.Goexit", e.err)
	}
	if e.task == nil || e.task.Status.State != TaskStateWorking || n.Load() != 1 {
		t.Errorf("task %+v after %d tasks/get, want the one read", e.task, n.Load())
	}
	cfg, _ = newPollConfig([]WaitOption{PollInterval(time.Millisecond), PollJitter(0), PollMaxAttempts(2)})
	c.startPoll(context.Background(), "t2", nil, &cfg, func(task *Task, err error) { ends <- pollEnd{task, err} })
	if e := <-ends; n.Load() != 3 {
		t.Errorf("the next poll: %v after %d tasks/get in all, want 3 (its slot free)", e.err, n.Load())
	}
}
