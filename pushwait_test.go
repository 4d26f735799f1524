package a2a_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

func TestPushReceiverSendCollectsTheFinalTask(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		t.Run(version, func(t *testing.T) {
			var notified atomic.Int32
			recv := newReceiver(t, a2a.PushOnNotification(func(ctx context.Context, n *a2a.PushNotification) error {
				if ctx == nil || n.Wait == nil || n.TaskID != "task-1" {
					t.Errorf("notification %+v", n)
				}
				notified.Add(1)
				return nil
			}))
			srv, c := agentFor(t, version, longTask)
			w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("本月巡检记录"))
			if err != nil {
				t.Fatal(err)
			}
			if got := w.TaskID(); got != "task-1" {
				t.Fatalf("TaskID = %q", got)
			}
			url, token := registered(t, srv)
			if url != recv.URL() || len(token) < 20 {
				t.Fatalf("registered %q with token %q", url, token)
			}
			if st := notify(t, url, tokenHeader(version), token, statusBody(version, "task-1", "working")); st != http.StatusNoContent {
				t.Fatalf("working: status %d", st)
			}
			select {
			case <-w.Done():
				t.Fatal("the wait ended on a working notification")
			default:
			}
			if st := notify(t, url, tokenHeader(version), token, taskBody(version, "task-1", "completed")); st != http.StatusNoContent {
				t.Fatalf("completed: status %d", st)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			res, err := w.Wait(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if task := res.(*a2a.Task); task.Status.State != a2a.TaskStateCompleted || task.ID != "task-1" {
				t.Fatalf("result %+v", task)
			}
			if n := getCalls(srv); n != 0 {
				t.Errorf("%d tasks/get calls; a pushed task needs none", n)
			}
			// Ours, and a2atest's own of the task's first state when it
			// came before the end.
			n := notified.Load()
			if n < 2 || n > 3 {
				t.Errorf("PushOnNotification called %d times, want 2 or 3", n)
			}
			if n := recv.Pending(); n != 0 {
				t.Errorf("Pending = %d after the wait ended", n)
			}
			// A duplicate after the end is answered 204 and reaches nothing.
			if st := notify(t, url, tokenHeader(version), token, taskBody(version, "task-1", "completed")); st != http.StatusNoContent {
				t.Errorf("duplicate: status %d", st)
			}
			if notified.Load() != n {
				t.Errorf("a duplicate after the end reached PushOnNotification")
			}
		})
	}
}

func TestPushReceiverSendFinishedAnswers(t *testing.T) {
	recv := newReceiver(t)
	t.Run("completed at once", func(t *testing.T) {
		srv, c := agentFor(t, a2a.ProtocolV03, a2atest.Caoliao)
		w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage(a2atest.SeedQRCode))
		if err != nil {
			t.Fatal(err)
		}
		<-w.Done() // already closed
		res, err := w.Result()
		if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
			t.Fatalf("%v %v", res, err)
		}
		if _, token := registered(t, srv); token == "" {
			t.Error("the send carried no token")
		}
	})
	t.Run("failed is a value", func(t *testing.T) {
		_, c := agentFor(t, a2a.ProtocolV10, a2atest.Caoliao)
		w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("hello"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := w.Wait(context.Background())
		if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateFailed {
			t.Fatalf("%v %v", res, err)
		}
	})
	t.Run("message", func(t *testing.T) {
		_, c := agentFor(t, a2a.ProtocolV03, func(a2a.Message) a2atest.Reply {
			return a2atest.Reply{Message: &a2a.Message{Parts: a2a.Parts{a2a.TextPart{Text: "hi"}}}}
		})
		w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("hello"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := w.Wait(context.Background())
		if m, ok := res.(*a2a.Message); err != nil || !ok || m.Text() != "hi" {
			t.Fatalf("%v %v", res, err)
		}
	})
	t.Run("send error leaves no wait", func(t *testing.T) {
		_, c := agentFor(t, a2a.ProtocolV03, func(a2a.Message) a2atest.Reply {
			return a2atest.Reply{Error: &a2a.RPCError{Code: -32003, Message: "push not supported"}}
		})
		w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("hello"))
		if w != nil || !errors.Is(err, a2a.ErrPushNotificationNotSupported) {
			t.Fatalf("%v %v", w, err)
		}
		if n := recv.Pending(); n != 0 {
			t.Errorf("Pending = %d", n)
		}
	})
	if n := recv.Pending(); n != 0 {
		t.Errorf("Pending = %d", n)
	}
}

// A notification may come before the send's answer: it names the task.
func TestPushReceiverNotificationBeforeAnswer(t *testing.T) {
	recv := newReceiver(t)
	var srv *a2atest.Server
	srv, c := agentFor(t, a2a.ProtocolV03, func(a2a.Message) a2atest.Reply {
		url, token := registered(t, srv)
		if st := notify(t, url, "X-A2A-Notification-Token", token, taskBody(a2a.ProtocolV03, "early", "completed")); st != http.StatusNoContent {
			t.Errorf("status %d", st)
		}
		return a2atest.Reply{Task: &a2a.Task{ID: "early", Status: a2a.TaskStatus{State: a2a.TaskStateSubmitted}}}
	})
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.Wait(context.Background())
	if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
		t.Fatalf("%v %v: the earlier notification is newer than the submitted answer", res, err)
	}
}

func TestPushReceiverFallbackPolls(t *testing.T) {
	recv := newReceiver(t, a2a.PushFallbackAfter(20*time.Millisecond))
	srv, c := agentFor(t, a2a.ProtocolV03, func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.CompletedTask("records", nil, "done"),
			States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted}}
	})
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"), fast...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := w.Wait(ctx)
	if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
		t.Fatalf("%v %v", res, err)
	}
	if n := getCalls(srv); n != 2 {
		t.Errorf("%d tasks/get calls, want 2 (the fallback poll's)", n)
	}
}

func TestPushReceiverFallbackGivesUp(t *testing.T) {
	recv := newReceiver(t, a2a.PushFallbackAfter(time.Millisecond))
	_, c := agentFor(t, a2a.ProtocolV03, longTask)
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"),
		append(fast, a2a.PollMaxAttempts(2))...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.Wait(context.Background())
	pe, ok := errors.AsType[*a2a.PollError](err)
	if !ok || pe.Limit != a2a.PollLimitAttempts || pe.LastState != a2a.TaskStateWorking {
		t.Fatalf("err %v", err)
	}
	if task, ok := res.(*a2a.Task); !ok || task.Status.State != a2a.TaskStateWorking {
		t.Fatalf("the last task known is lost: %v", res)
	}
}

func TestPushReceiverEnds(t *testing.T) {
	send := func(t *testing.T, recv *a2a.PushReceiver, ctx context.Context) *a2a.PushWait {
		_, c := agentFor(t, a2a.ProtocolV03, longTask)
		w, err := recv.SendMessage(ctx, c, a2a.NewTextMessage("go"))
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	t.Run("ctx", func(t *testing.T) {
		var done atomic.Int32
		recv := newReceiver(t, a2a.PushOnDone(func(*a2a.PushWait) { done.Add(1) }))
		ctx, cancel := context.WithCancel(context.Background())
		w := send(t, recv, ctx)
		cancel()
		res, err := w.Wait(context.Background())
		if !errors.Is(err, context.Canceled) || res.(*a2a.Task).Status.State != a2a.TaskStateSubmitted {
			t.Fatalf("%v %v", res, err)
		}
		pending := recv.Pending()
		recv.Close() // waits for the PushOnDone calls queued
		if pending != 0 || done.Load() != 1 {
			t.Errorf("pending %d, PushOnDone %d", pending, done.Load())
		}
	})
	t.Run("Stop", func(t *testing.T) {
		recv := newReceiver(t)
		w := send(t, recv, context.Background())
		w.Stop()
		if _, err := w.Result(); !errors.Is(err, a2a.ErrWaitStopped) {
			t.Fatal(err)
		}
	})
	t.Run("Wait's ctx leaves the wait", func(t *testing.T) {
		recv := newReceiver(t)
		w := send(t, recv, context.Background())
		ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
		defer cancel()
		if res, err := w.Wait(ctx); !errors.Is(err, context.DeadlineExceeded) || res == nil {
			t.Fatalf("%v %v", res, err)
		}
		if recv.Pending() != 1 {
			t.Error("Wait's ctx ended the wait")
		}
	})
	t.Run("Close", func(t *testing.T) {
		recv := newReceiver(t)
		w := send(t, recv, context.Background())
		recv.Close()
		if _, err := w.Result(); !errors.Is(err, a2a.ErrReceiverClosed) {
			t.Fatal(err)
		}
		_, c := agentFor(t, a2a.ProtocolV03, longTask)
		if _, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go")); !errors.Is(err, a2a.ErrReceiverClosed) {
			t.Fatalf("Send after Close: %v", err)
		}
	})
}

func TestPushReceiverWatch(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		t.Run(version, func(t *testing.T) {
			recv := newReceiver(t)
			srv, c := agentFor(t, version, longTask)
			task, err := c.SendText(context.Background(), "go", a2a.Blocking(false))
			if err != nil {
				t.Fatal(err)
			}
			w, err := recv.WatchTask(context.Background(), c, task)
			if err != nil {
				t.Fatal(err)
			}
			url, token := registered(t, srv)
			if url != recv.URL() {
				t.Fatalf("set %q", url)
			}
			configs, err := c.ListTaskPushNotificationConfigs(context.Background(), task.ID)
			if err != nil || len(configs) != 1 || configs[0].PushNotificationConfig.Token != token {
				t.Fatalf("the agent holds %+v, %v", configs, err)
			}
			if w.Task().Status.State != a2a.TaskStateWorking {
				t.Errorf("state %q: Watch reads the task once after registering", w.Task().Status.State)
			}
			if st := notify(t, url, tokenHeader(version), token, taskBody(version, task.ID, "input-required")); st != http.StatusNoContent {
				t.Fatalf("status %d", st)
			}
			res, err := w.Wait(context.Background())
			if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateInputRequired {
				t.Fatalf("%v %v", res, err)
			}
		})
	}
	t.Run("finished task", func(t *testing.T) {
		recv := newReceiver(t)
		srv, c := agentFor(t, a2a.ProtocolV03, longTask)
		done := &a2a.Task{ID: "t9", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
		w, err := recv.WatchTask(context.Background(), c, done)
		if err != nil {
			t.Fatal(err)
		}
		if res, err := w.Result(); err != nil || res != done {
			t.Fatalf("%v %v", res, err)
		}
		if n := len(srv.Requests()); n != 0 {
			t.Errorf("%d requests for a finished task", n)
		}
	})
	t.Run("bad input", func(t *testing.T) {
		recv := newReceiver(t)
		_, c := agentFor(t, a2a.ProtocolV03, longTask)
		if _, err := recv.WatchTask(context.Background(), c, nil); err == nil {
			t.Error("nil task accepted")
		}
		if _, err := recv.WatchTask(context.Background(), c, &a2a.Task{}); err == nil {
			t.Error("task without id accepted")
		}
	})
}

// Many waits, notified concurrently and out of order, under -race.
func TestPushReceiverConcurrent(t *testing.T) {
	const n = 200
	var mu sync.Mutex
	ended := map[*a2a.PushWait]int{}
	recv := newReceiver(t, a2a.PushOnDone(func(w *a2a.PushWait) {
		mu.Lock()
		ended[w]++
		mu.Unlock()
	}))
	srv, c := agentFor(t, a2a.ProtocolV10, longTask)
	waits := make([]*a2a.PushWait, n)
	tokens := make([]string, n)
	for i := range waits {
		w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
		if err != nil {
			t.Fatal(err)
		}
		waits[i] = w
		_, tokens[i] = registered(t, srv)
	}
	var wg sync.WaitGroup
	for i, w := range waits {
		for _, body := range []string{statusBody(a2a.ProtocolV10, w.TaskID(), "working"),
			taskBody(a2a.ProtocolV10, w.TaskID(), "completed"), taskBody(a2a.ProtocolV10, w.TaskID(), "completed")} {
			wg.Go(func() {
				if st := notify(t, recv.URL(), "A2A-Notification-Token", tokens[i], body); st != http.StatusNoContent {
					t.Errorf("status %d", st)
				}
			})
		}
	}
	wg.Wait()
	for _, w := range waits {
		res, err := w.Wait(context.Background())
		if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
			t.Fatalf("%v %v", res, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	for _, w := range waits {
		if ended[w] != 1 {
			t.Fatalf("PushOnDone called %d times for one wait", ended[w])
		}
	}
}

// plainAgent serves a v0.3 agent that answers every request with result
// and delivers no notification itself. hook, when set, runs first with
// the request, its method and, for a send, the webhook token it
// registered; returning false answers nothing, holding the request until
// the client gives it up.
func plainAgent(t testing.TB, result any, hook func(r *http.Request, method, token string) bool) *a2a.Client {
	t.Helper()
	respond := a2atest.Responder(result)
	agent := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct {
			Method string
			Params struct {
				Configuration struct{ PushNotificationConfig a2a.PushNotificationConfig }
			}
		}
		json.Unmarshal(body, &req)
		if hook != nil && !hook(r, req.Method, req.Params.Configuration.PushNotificationConfig.Token) {
			<-r.Context().Done()
			return
		}
		resp, _ := respond(r)
		rw.Header().Set("Content-Type", "application/json")
		io.Copy(rw, resp.Body)
	}))
	t.Cleanup(agent.Close)
	c, err := a2a.NewClient(agent.URL, a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// One fallback poll at a time, run to its end: news that does not finish
// the task neither stops it nor starts another; news that does ends the
// wait, and the poll with it.
func TestPushReceiverOnePollAtATime(t *testing.T) {
	var inFlight, most, gets atomic.Int32
	var sent atomic.Value
	polling := make(chan struct{}, 10)
	c := plainAgent(t, &a2a.Task{ID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}},
		func(r *http.Request, method, tok string) bool {
			if method != "tasks/get" {
				sent.Store(tok)
				return true
			}
			gets.Add(1)
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			if n > most.Load() {
				most.Store(n)
			}
			polling <- struct{}{}
			<-r.Context().Done() // held until the poll gives it up
			return false
		})
	const fallback = 20 * time.Millisecond
	recv := newReceiver(t, a2a.PushFallbackAfter(fallback))
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"), a2a.PollInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	token := sent.Load().(string)
	select {
	case <-polling: // the poll's tasks/get, held
	case <-time.After(10 * time.Second):
		t.Fatal("no fallback poll")
	}
	for range 3 {
		if st := notify(t, recv.URL(), "X-A2A-Notification-Token", token, statusBody(a2a.ProtocolV03, "t1", "working")); st != http.StatusNoContent {
			t.Fatalf("status %d", st)
		}
	}
	time.Sleep(5 * fallback) // room for a second poll to start, were news to start one
	if n, m := gets.Load(), most.Load(); n != 1 || m != 1 {
		t.Errorf("%d tasks/get, %d at once: want the one poll, running on", n, m)
	}
	if st := notify(t, recv.URL(), "X-A2A-Notification-Token", token, taskBody(a2a.ProtocolV03, "t1", "completed")); st != http.StatusNoContent {
		t.Fatalf("status %d", st)
	}
	if res, err := w.Wait(context.Background()); err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
		t.Fatalf("%v %v", res, err)
	}
}

// Over HTTP+JSON the agent posts what it posts to a JSON-RPC client's
// webhook: in v0.3 the task as v0.3 JSON-RPC writes it ("kind": "task",
// as a2a-python 0.3's push sender does), not the v0.3 proto's JSON of the
// binding's requests; in v1.0 a StreamResponse. Every notification is
// taken (2xx) and ends the wait without a GetTask.
func TestPushReceiverSendOverHTTPJSON(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		t.Run(version, func(t *testing.T) {
			opts := []a2atest.Option{a2atest.Bindings(a2a.TransportHTTPJSON), a2atest.OnSend(func(a2a.Message) a2atest.Reply {
				return a2atest.Reply{Task: a2atest.CompletedTask("records", map[string]int{"n": 2}, "2 条"),
					States:   []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted},
					Interval: 10 * time.Millisecond}
			})}
			if version == a2a.ProtocolV10 {
				opts = append(opts, a2atest.V10())
			}
			srv := a2atest.NewServer(opts...)
			t.Cleanup(srv.Close)
			c, err := a2a.NewClient(srv.URL, a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithProtocolVersion(version))
			if err != nil {
				t.Fatal(err)
			}
			recv := newReceiver(t)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			w, err := recv.SendMessage(ctx, c, a2a.NewTextMessage("本月巡检记录"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := w.Wait(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if task := res.(*a2a.Task); task.Status.State != a2a.TaskStateCompleted || task.Artifact("records").Text() != "2 条" {
				t.Errorf("result %+v", task)
			}
			ds := srv.Deliveries()
			if len(ds) == 0 {
				t.Fatal("no notification delivered")
			}
			for _, d := range ds {
				if d.Err != "" || d.StatusCode != http.StatusNoContent {
					t.Errorf("delivery of %s: %d %s", d.State, d.StatusCode, d.Err)
				}
			}
			if n := getCalls(srv); n != 0 {
				t.Errorf("%d GetTask calls; a pushed task needs none", n)
			}
		})
	}
}
