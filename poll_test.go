package a2a_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// scriptedAgent starts an a2atest agent whose every task goes through
// states (one per tasks/get) and returns a client for it and the task sent.
func scriptedAgent(t *testing.T, task *a2a.Task, states ...a2a.TaskState) (*a2a.Client, *a2a.Task, *a2atest.Server) {
	t.Helper()
	srv := a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: task, States: states}
	}))
	t.Cleanup(srv.Close)
	c, err := a2a.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	first, err := c.SendText(context.Background(), "go", a2a.Blocking(false))
	if err != nil {
		t.Fatal(err)
	}
	return c, first, srv
}

// fast makes polls quick and deterministic in tests.
var fast = []a2a.WaitOption{a2a.PollInterval(time.Millisecond), a2a.PollMaxInterval(2 * time.Millisecond), a2a.PollJitter(0)}

func TestWaitTaskOutcomes(t *testing.T) {
	working := a2a.TaskStateWorking
	tests := []struct {
		name      string
		task      *a2a.Task
		states    []a2a.TaskState
		wantState a2a.TaskState
		wantSeen  []a2a.TaskState
	}{
		{"completes", a2atest.CompletedTask("records", map[string]int{"n": 2}, "2 条"),
			[]a2a.TaskState{"submitted", working, working, "completed"}, "completed",
			[]a2a.TaskState{working, working, "completed"}},
		{"fails as a value", a2atest.FailedTask("查询失败"), []a2a.TaskState{working, "failed"}, "failed",
			[]a2a.TaskState{"failed"}},
		{"stops on input-required", a2atest.StatusTask("input-required", "哪台设备？"), []a2a.TaskState{"submitted", "input-required"},
			"input-required", []a2a.TaskState{"input-required"}},
		{"stops on auth-required", a2atest.StatusTask("auth-required", ""), []a2a.TaskState{"auth-required"}, "auth-required",
			[]a2a.TaskState{"auth-required"}},
		{"unknown and absent states keep polling", a2atest.StatusTask("rejected", "no"),
			[]a2a.TaskState{"submitted", "unknown", "", "paused", "TASK_STATE_PAUSED", "rejected"}, "rejected",
			[]a2a.TaskState{"unknown", "", "paused", "TASK_STATE_PAUSED", "rejected"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, first, _ := scriptedAgent(t, tt.task, tt.states...)
			var seen []a2a.TaskState
			opts := append(fast, a2a.PollProgress(func(a a2a.PollAttempt) {
				seen = append(seen, a.Task.Status.State)
				if a.Attempt != len(seen) {
					t.Errorf("attempt %d reported as %d", len(seen), a.Attempt)
				}
			}))
			task, err := c.WaitTask(context.Background(), first.ID, opts...)
			if err != nil {
				t.Fatalf("WaitTask: %v", err)
			}
			if task.Status.State != tt.wantState || task.ID != first.ID {
				t.Errorf("task %s in %q, want %s in %q", task.ID, task.Status.State, first.ID, tt.wantState)
			}
			if diff := cmp.Diff(tt.wantSeen, seen); diff != "" {
				t.Errorf("states seen (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWaitTaskRunsOut: each budget returns the last task and a *PollError
// naming the task, last state, attempts and what ran out.
func TestWaitTaskRunsOut(t *testing.T) {
	t.Run("attempts", func(t *testing.T) {
		c, first, srv := scriptedAgent(t, a2atest.StatusTask("working", ""), "submitted", "pending-review")
		task, err := c.WaitTask(context.Background(), first.ID, append(fast, a2a.PollMaxAttempts(3))...)
		pe, ok := errors.AsType[*a2a.PollError](err)
		if !ok {
			t.Fatalf("err = %v, want *PollError", err)
		}
		want := a2a.PollError{TaskID: first.ID, LastState: "pending-review", Attempts: 3, Limit: a2a.PollLimitAttempts}
		pe.Elapsed = 0
		if diff := cmp.Diff(want, *pe); diff != "" {
			t.Errorf("PollError (-want +got):\n%s", diff)
		}
		if task == nil || task.Status.State != "pending-review" {
			t.Errorf("last task = %+v", task)
		}
		if got := len(srv.Requests()); got != 1+3 {
			t.Errorf("server saw %d requests, want 1 send + 3 gets", got)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		c, first, _ := scriptedAgent(t, a2atest.StatusTask("working", ""), "working")
		task, err := c.WaitTask(context.Background(), first.ID, append(fast, a2a.PollTimeout(30*time.Millisecond), a2a.PollMaxAttempts(1e6))...)
		pe, ok := errors.AsType[*a2a.PollError](err)
		if !ok || pe.Limit != a2a.PollLimitDeadline || !errors.Is(err, context.DeadlineExceeded) || pe.LastState != "working" || pe.Attempts < 1 {
			t.Fatalf("err = %#v", err)
		}
		if task == nil || task.ID != first.ID {
			t.Errorf("last task = %v", task)
		}
	})
	t.Run("caller context", func(t *testing.T) {
		c, first, _ := scriptedAgent(t, a2atest.StatusTask("working", ""), "working")
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		task, err := c.WaitTask(ctx, first.ID, append(fast, a2a.PollProgress(func(a a2a.PollAttempt) {
			if a.Attempt == 2 {
				cancel()
			}
		}))...)
		if task == nil || task.Status.State != "working" {
			t.Errorf("last task = %v", task)
		}
		pe, ok := errors.AsType[*a2a.PollError](err)
		if !ok || pe.Limit != a2a.PollLimitContext || !errors.Is(err, context.Canceled) || pe.Attempts != 2 {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestWaitTaskCancelDuringFirstWait: the wait is an hour, so returning at
// all (the minute below only catches a hang) shows a cancellation cuts it
// short.
func TestWaitTaskCancelDuringFirstWait(t *testing.T) {
	c, first, _ := scriptedAgent(t, a2atest.StatusTask("working", ""), "working")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	go func() { <-started; cancel() }()
	type result struct {
		task *a2a.Task
		err  error
	}
	done := make(chan result, 1)
	go func() {
		task, err := c.WaitTask(ctx, first.ID, a2a.PollInterval(time.Hour), a2a.PollMaxInterval(2*time.Hour), a2a.PollJitter(0),
			a2a.PollTimeout(3*time.Hour), a2a.PollProgress(func(a2a.PollAttempt) { close(started) }))
		done <- result{task, err}
	}()
	select {
	case r := <-done:
		pe, ok := errors.AsType[*a2a.PollError](r.err)
		if !ok || pe.Attempts != 1 || pe.Limit != a2a.PollLimitContext || r.task == nil {
			t.Fatalf("WaitTask = %v, %v", r.task, r.err)
		}
	case <-time.After(time.Minute):
		t.Fatal("WaitTask still waiting a minute after its ctx was cancelled")
	}
}

// TestWaitTaskLostTask: a task the agent no longer knows (Caoliao restarted)
// ends the poll at once with an error matching ErrTaskNotFound.
func TestWaitTaskLostTask(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	c, _ := a2a.NewClient(srv.URL)
	_, err := c.WaitTask(context.Background(), "gone", fast...)
	if !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("err = %v, want ErrTaskNotFound", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

// TestWaitTaskHistoryLength passes call options to each tasks/get.
func TestWaitTaskHistoryLength(t *testing.T) {
	c, first, srv := scriptedAgent(t, a2atest.CompletedTask("entity", map[string]int{}, "x"), "working", "working", "completed")
	task, err := c.WaitTask(context.Background(), first.ID, a2a.HistoryLength(0), a2a.PollInterval(time.Millisecond))
	if err != nil || len(task.History) != 0 {
		t.Fatalf("WaitTask = %v, %v", task, err)
	}
	gets := 0
	for _, req := range srv.Requests() {
		if body := string(req.Body); strings.Contains(body, `"method":"tasks/get"`) {
			gets++
			if !strings.Contains(body, `"historyLength":0`) {
				t.Errorf("tasks/get without historyLength: %s", body)
			}
		}
	}
	if gets != 2 { // message/send answered with the first state
		t.Errorf("%d tasks/get, want 2", gets)
	}
}

// TestWaitTaskRidesOutGatewayFaults: a 502 or a dropped connection that
// outlasts one tasks/get's own retries does not end the poll; a budget that
// runs out during such faults reports the last one in PollError.LastErr.
func TestWaitTaskRidesOutGatewayFaults(t *testing.T) {
	srv := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer srv.Close()
	c, _ := a2a.NewClient(srv.URL, a2a.WithMaxRetries(0))
	task, err := c.SendText(context.Background(), "本月巡检记录")
	if err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(a2atest.Raw{Status: 502, ContentType: "text/html", Body: "<html>502</html>"},
		a2atest.Raw{Status: 503, Body: "busy"})
	done, err := c.WaitTask(context.Background(), task.ID, fast...)
	if err != nil || done.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("WaitTask through two faults = %v, %v", done, err)
	}

	srv.Enqueue(a2atest.Raw{Status: 502, Body: "x"}, a2atest.Raw{Status: 502, Body: "x"}) // one per attempt: none left over
	_, err = c.WaitTask(context.Background(), task.ID, append(fast, a2a.PollMaxAttempts(2))...)
	pe, ok := errors.AsType[*a2a.PollError](err)
	if !ok || pe.Attempts != 2 || pe.LastState != "" {
		t.Fatalf("err = %v", err)
	}
	if he, ok := errors.AsType[*a2a.HTTPError](pe.LastErr); !ok || he.StatusCode != 502 {
		t.Errorf("LastErr = %v, want the 502", pe.LastErr)
	}

	// A protocol fault is not transient: it ends the poll at once.
	srv.Enqueue(a2atest.Raw{Status: 200, Body: "not json"})
	_, err = c.WaitTask(context.Background(), task.ID, fast...)
	if _, ok := errors.AsType[*a2a.ProtocolError](err); !ok {
		t.Errorf("err = %v, want *ProtocolError", err)
	}
}

// TestWaitTaskHonoursLongRetryAfter: a 429 whose Retry-After is over the
// call's retry cap is not retried by tasks/get; the poller then waits as
// long as the server asked instead of polling again at its own pace, and
// stops at once when that wait would pass its deadline.
func TestWaitTaskHonoursLongRetryAfter(t *testing.T) {
	var mu sync.Mutex
	var hits int
	var start time.Time
	srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
		mu.Lock()
		hits++
		busy := time.Since(start) < 900*time.Millisecond
		mu.Unlock()
		if busy {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+id+`,"result":{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"}}}`)
	}})
	c, err := a2a.NewClient(srv.URL, a2a.WithRetryWait(time.Millisecond, 10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("waits for it", func(t *testing.T) {
		mu.Lock()
		hits, start = 0, time.Now()
		mu.Unlock()
		task, err := c.WaitTask(context.Background(), "t1", a2a.PollInterval(5*time.Millisecond), a2a.PollMaxInterval(10*time.Millisecond), a2a.PollTimeout(10*time.Second))
		if err != nil || task.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("WaitTask = %v, %v", task, err)
		}
		mu.Lock()
		defer mu.Unlock()
		if hits != 2 {
			t.Errorf("server saw %d requests, want 2 (one 429, then one after the asked-for second)", hits)
		}
	})
	t.Run("stops when it passes the deadline", func(t *testing.T) {
		mu.Lock()
		hits, start = 0, time.Now()
		mu.Unlock()
		_, err := c.WaitTask(context.Background(), "t1", a2a.PollInterval(5*time.Millisecond), a2a.PollTimeout(300*time.Millisecond))
		pe, ok := errors.AsType[*a2a.PollError](err)
		if !ok || pe.Limit != a2a.PollLimitDeadline || pe.Attempts != 1 {
			t.Fatalf("err = %v, want a PollError after 1 attempt, limit deadline", err)
		}
		if he, ok := errors.AsType[*a2a.HTTPError](pe.LastErr); !ok || he.RetryAfter != time.Second {
			t.Errorf("LastErr = %v, want the 429 with its Retry-After", pe.LastErr)
		}
		mu.Lock()
		defer mu.Unlock()
		if hits != 1 {
			t.Errorf("server saw %d requests, want 1", hits)
		}
	})
}

// TestWaitTaskOtherTask: a poll answered with another task stops at once
// with the *ProtocolError, never reporting that task as the one waited for.
func TestWaitTaskOtherTask(t *testing.T) {
	c, f := newMock(t, []mockReply{{body: []byte(`{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","id":"someone-elses-task","status":{"state":"completed"}}}`)}})
	task, err := c.WaitTask(context.Background(), "my-task", a2a.PollInterval(time.Millisecond))
	if _, ok := errors.AsType[*a2a.ProtocolError](err); !ok || task != nil || f.count() != 1 {
		t.Errorf("WaitTask = %v, %v after %d requests; want a ProtocolError after 1", task, err, f.count())
	}
}

// TestSendMessageAndWaitKeepsTheTask: when no tasks/get succeeds before
// the poll gives up, SendMessageAndWait hands back the task the send
// answered with, and the PollError names its state; WaitTask by id has no
// task to hand back; a task already finished costs no tasks/get.
func TestSendMessageAndWaitKeepsTheTask(t *testing.T) {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL, a2a.WithMaxRetries(0))
	ctx := context.Background()
	agent.Enqueue(a2atest.Raw{EchoID: true, Body: `{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","id":"t1","contextId":"c1","status":{"state":"submitted"}}}`},
		a2atest.Raw{Status: 503, Body: "busy"}, a2atest.Raw{Status: 503, Body: "busy"})
	res, err := c.SendMessageAndWait(ctx, a2a.NewTextMessage("本月巡检记录"), a2a.PollMaxAttempts(2), a2a.PollInterval(time.Millisecond))
	pe, ok := errors.AsType[*a2a.PollError](err)
	held, _ := res.(*a2a.Task)
	if !ok || held == nil || held.ID != "t1" || pe.LastState != a2a.TaskStateSubmitted || pe.Attempts != 2 {
		t.Fatalf("got %v, %v; want the send's task and a PollError in state submitted after 2 attempts", res, err)
	}
	agent.Enqueue(a2atest.Raw{Status: 503, Body: "busy"})
	if got, err := c.WaitTask(ctx, held.ID, a2a.PollMaxAttempts(1)); got != nil || err == nil {
		t.Errorf("WaitTask: %v, %v; want nil and an error", got, err)
	}

	n := len(agent.Requests())
	res, err = c.SendMessageAndWait(ctx, a2a.NewTextMessage("https://qr71.cn/nope"))
	if task, ok := res.(*a2a.Task); !ok || err != nil || task.Status.State != a2a.TaskStateFailed || len(agent.Requests()) != n+1 {
		t.Errorf("finished task: %v, %v, %d requests; want it back after the send alone", res, err, len(agent.Requests())-n)
	}
}

// TestSendMessageAndWait: one call sends and polls an unfinished answer to its
// end; a Message reply comes back as it is; when the poll gives up the
// last task known comes back with the PollError.
func TestSendMessageAndWait(t *testing.T) {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()
	res, err := c.SendMessageAndWait(ctx, a2a.NewTextMessage("本月巡检记录"), a2a.PollInterval(time.Millisecond))
	if task, ok := res.(*a2a.Task); err != nil || !ok || task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("records: %v, %v; want a completed task", res, err)
	}
	res, err = c.SendMessageAndWait(ctx, a2a.NewTextMessage("本月巡检记录"), a2a.PollMaxAttempts(1))
	task, ok := res.(*a2a.Task)
	if _, isPoll := errors.AsType[*a2a.PollError](err); !isPoll || !ok || task == nil || task.Status.State.Terminal() {
		t.Fatalf("gave up: %v, %v; want the last task and a PollError", res, err)
	}

	greeter := a2atest.NewServer(a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		return a2atest.Reply{Message: &a2a.Message{Role: a2a.RoleAgent, Parts: a2a.Parts{a2a.TextPart{Text: "你好"}}}}
	}))
	defer greeter.Close()
	g, _ := a2a.NewClient(greeter.URL)
	if res, err := g.SendMessageAndWait(ctx, a2a.NewTextMessage("hi")); err != nil || res.(*a2a.Message).Text() != "你好" {
		t.Errorf("message reply: %v, %v", res, err)
	}
	n := len(agent.Requests())
	if _, err := c.SendMessageAndWait(ctx, a2a.NewTextMessage("hi"), a2a.HistoryLength(-1)); err == nil || len(agent.Requests()) != n {
		t.Errorf("bad call option: %v, %d requests; want an error and none sent", err, len(agent.Requests())-n)
	}
}
