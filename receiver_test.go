package a2a_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// newReceiver serves a PushReceiver made with opts on loopback, at
// /push.
func newReceiver(t *testing.T, opts ...a2a.ReceiverOption) *a2a.PushReceiver {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	recv, err := a2a.NewPushReceiver("http://"+ts.Listener.Addr().String()+"/push", opts...)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = recv
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(recv.Close)
	return recv
}

// agentFor starts an a2atest agent of version answering every send with
// rep, and a client for it.
func agentFor(t *testing.T, version string, rep func(a2a.Message) a2atest.Reply) (*a2atest.Server, *a2a.Client) {
	t.Helper()
	opts := []a2atest.Option{a2atest.OnSend(rep)}
	if version == a2a.ProtocolV10 {
		opts = append(opts, a2atest.V10())
	}
	srv := a2atest.NewServer(opts...)
	t.Cleanup(srv.Close)
	c, err := a2a.NewClient(srv.URL, a2a.WithProtocolVersion(version))
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// registered returns the webhook URL and token of the last request to srv
// that registered one (with a send, or with a set), read from its params
// as the agent got them.
func registered(t *testing.T, srv *a2atest.Server) (url, token string) {
	t.Helper()
	reqs := srv.Requests()
	for i := len(reqs) - 1; i >= 0; i-- {
		var env struct {
			Params struct {
				Configuration struct {
					V03 *a2a.PushNotificationConfig `json:"pushNotificationConfig"`
					V10 *a2a.PushNotificationConfig `json:"taskPushNotificationConfig"`
				}
				PushNotificationConfig *a2a.PushNotificationConfig // v0.3 set
				URL, Token             string                      // v1.0 create
			}
		}
		if json.Unmarshal(reqs[i].Body, &env) != nil {
			continue
		}
		p := env.Params
		for _, cfg := range []*a2a.PushNotificationConfig{p.Configuration.V03, p.Configuration.V10, p.PushNotificationConfig} {
			if cfg != nil {
				return cfg.URL, cfg.Token
			}
		}
		if p.URL != "" {
			return p.URL, p.Token
		}
	}
	t.Fatal("no request registered a webhook")
	return "", ""
}

// notify POSTs body to url with the token in header, as an agent does,
// and returns the status.
func notify(t *testing.T, url, header, token, body string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set(header, token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// taskBody is a notification about task id in state, as an agent of
// version sends it: v0.3 the Task, v1.0 a StreamResponse holding it.
func taskBody(version, id string, state a2a.TaskState) string {
	if version == a2a.ProtocolV10 {
		return fmt.Sprintf(`{"task":{"id":%q,"contextId":"ctx-1","status":{"state":"TASK_STATE_%s"}}}`,
			id, strings.ToUpper(strings.ReplaceAll(string(state), "-", "_")))
	}
	b, _ := json.Marshal(a2a.Task{ID: id, ContextID: "ctx-1", Status: a2a.TaskStatus{State: state}})
	return string(b)
}

// statusBody is a status-update notification in version's shape.
func statusBody(version, id string, state a2a.TaskState) string {
	if version == a2a.ProtocolV10 {
		return fmt.Sprintf(`{"statusUpdate":{"taskId":%q,"contextId":"ctx-1","status":{"state":"TASK_STATE_%s"}}}`,
			id, strings.ToUpper(string(state)))
	}
	return fmt.Sprintf(`{"kind":"status-update","taskId":%q,"contextId":"ctx-1","final":false,"status":{"state":%q}}`, id, state)
}

// tokenHeader is the header an agent of version puts the token in.
func tokenHeader(version string) string {
	if version == a2a.ProtocolV10 {
		return "A2A-Notification-Token" // a2a-go's v1.0 sender
	}
	return "X-A2A-Notification-Token"
}

// longTask answers every send with a task that stays submitted, then
// working, as far as tasks/get goes: only notifications finish it.
func longTask(a2a.Message) a2atest.Reply {
	return a2atest.Reply{Task: a2atest.CompletedTask("records", map[string]int{"n": 2}, "2 条"),
		States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateWorking, a2a.TaskStateWorking}}
}

func getCalls(srv *a2atest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == "tasks/get" || r.Method == "GetTask" {
			n++
		}
	}
	return n
}

func TestPushReceiverSendCollectsTheFinalTask(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		t.Run(version, func(t *testing.T) {
			var notified atomic.Int32
			recv := newReceiver(t, a2a.OnNotification(func(ctx context.Context, n *a2a.PushNotification) error {
				if ctx == nil || n.Wait == nil || n.TaskID != "task-1" {
					t.Errorf("notification %+v", n)
				}
				notified.Add(1)
				return nil
			}))
			srv, c := agentFor(t, version, longTask)
			w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("本月巡检记录"), a2a.PollCallOptions(a2a.Blocking(false)))
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
				t.Errorf("OnNotification called %d times, want 2 or 3", n)
			}
			if n := recv.Pending(); n != 0 {
				t.Errorf("Pending = %d after the wait ended", n)
			}
			// A duplicate after the end is answered 204 and reaches nothing.
			if st := notify(t, url, tokenHeader(version), token, taskBody(version, "task-1", "completed")); st != http.StatusNoContent {
				t.Errorf("duplicate: status %d", st)
			}
			if notified.Load() != n {
				t.Errorf("a duplicate after the end reached OnNotification")
			}
		})
	}
}

func TestPushReceiverSendFinishedAnswers(t *testing.T) {
	recv := newReceiver(t)
	t.Run("completed at once", func(t *testing.T) {
		srv, c := agentFor(t, a2a.ProtocolV03, a2atest.Caoliao)
		w, err := recv.Send(context.Background(), c, a2a.NewTextMessage(a2atest.SeedQRCode))
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
		w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("hello"))
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
		w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("hello"))
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
		w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("hello"))
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
	w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.Wait(context.Background())
	if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
		t.Fatalf("%v %v: the earlier notification is newer than the submitted answer", res, err)
	}
}

func TestPushReceiverRefusals(t *testing.T) {
	log, lines := newCapture()
	var reached atomic.Int32
	recv := newReceiver(t, a2a.ReceiverLogger(log), a2a.ReceiverMaxBytes(1<<10),
		a2a.OnNotification(func(_ context.Context, n *a2a.PushNotification) error {
			if task, ok := n.Event.(*a2a.Task); !ok || task.Status.State != a2a.TaskStateSubmitted { // not a2atest's own
				reached.Add(1)
			}
			return nil
		}),
		a2a.VerifyPush(func(r *http.Request, body []byte) error {
			if r.Header.Get("X-Refuse") != "" {
				return errors.New("signature does not verify")
			}
			return nil
		}))
	srv, c := agentFor(t, a2a.ProtocolV03, longTask)
	w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("go"), a2a.PollCallOptions(a2a.Blocking(false)))
	if err != nil {
		t.Fatal(err)
	}
	url, token := registered(t, srv)
	ok := taskBody(a2a.ProtocolV03, "task-1", "working")
	post := func(method string, header http.Header, body string) (int, string) {
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header = header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(resp.Body)
		return resp.StatusCode, b.String()
	}
	with := func(kv ...string) http.Header {
		h := http.Header{"X-A2a-Notification-Token": {token}}
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "" {
				h.Del(kv[i])
			} else {
				h.Set(kv[i], kv[i+1])
			}
		}
		return h
	}
	big := `{"kind":"task","id":"task-1","status":{"state":"working"},"metadata":{"pad":"` + strings.Repeat("x", 2<<10) + `"}}`
	tests := []struct {
		name   string
		method string
		header http.Header
		body   string
		want   int
	}{
		{"GET", http.MethodGet, with(), "", http.StatusMethodNotAllowed},
		{"no token", http.MethodPost, with("X-A2A-Notification-Token", ""), ok, http.StatusUnauthorized},
		{"wrong token", http.MethodPost, with("X-A2A-Notification-Token", token+"x"), ok, http.StatusUnauthorized},
		{"token of the other header, wrong", http.MethodPost, with("X-A2A-Notification-Token", "", "A2A-Notification-Token", "nope"), ok, http.StatusUnauthorized},
		{"refused by VerifyPush", http.MethodPost, with("X-Refuse", "1"), ok, http.StatusUnauthorized},
		{"body over the cap", http.MethodPost, with(), big, http.StatusRequestEntityTooLarge},
		{"not JSON", http.MethodPost, with(), "<html>502 Bad Gateway</html>", http.StatusBadRequest},
		{"truncated", http.MethodPost, with(), ok[:len(ok)-5], http.StatusBadRequest},
		{"empty", http.MethodPost, with(), "", http.StatusBadRequest},
		{"null", http.MethodPost, with(), "null", http.StatusBadRequest},
		{"unknown kind", http.MethodPost, with(), `{"kind":"weather","id":"task-1"}`, http.StatusBadRequest},
		{"task without id", http.MethodPost, with(), `{"kind":"task","status":{"state":"completed"}}`, http.StatusBadRequest},
		{"status update without task", http.MethodPost, with(), `{"kind":"status-update","status":{"state":"completed"},"final":true}`, http.StatusBadRequest},
		{"v1.0 with two members", http.MethodPost, with(), `{"task":{"id":"task-1","status":{}},"message":{"messageId":"m","role":"ROLE_AGENT","parts":[]}}`, http.StatusBadRequest},
		{"unsupported encoding", http.MethodPost, with("Content-Encoding", "br"), ok, http.StatusBadRequest},
		{"another task", http.MethodPost, with(), taskBody(a2a.ProtocolV03, "task-2", "completed"), http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(tt.method, tt.header, tt.body)
			if status != tt.want {
				t.Errorf("status %d, want %d (%s)", status, tt.want, body)
			}
			noSecrets(t, []string{body}, token, "signature does not verify") // a hook's error is logged, not sent
		})
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("%d refused notifications reached OnNotification", n)
	}
	select {
	case <-w.Done():
		t.Fatal("a refused notification ended the wait")
	default:
	}
	if w.Task().Status.State != a2a.TaskStateSubmitted {
		t.Errorf("state %q: a refused notification moved the task", w.Task().Status.State)
	}
	logged := lines()
	if len(logged) != len(tests) {
		t.Errorf("%d log lines for %d refusals: %q", len(logged), len(tests), logged)
	}
	noSecrets(t, logged, token)
	if !strings.Contains(strings.Join(logged, "\n"), "signature does not verify") {
		t.Errorf("VerifyPush's error is not in the log: %q", logged)
	}

	// The same body with a good token and no fault is taken, gzipped too.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(taskBody(a2a.ProtocolV03, "task-1", "completed")))
	zw.Close()
	if status, body := post(http.MethodPost, with("Content-Encoding", "gzip"), gz.String()); status != http.StatusNoContent {
		t.Fatalf("gzip: %d %s", status, body)
	}
	if res, err := w.Wait(context.Background()); err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
		t.Fatalf("%v %v", res, err)
	}
}

func TestPushReceiverOnNotificationError(t *testing.T) {
	fail := atomic.Bool{}
	fail.Store(true)
	recv := newReceiver(t, a2a.OnNotification(func(context.Context, *a2a.PushNotification) error {
		if fail.Load() {
			return errors.New("database down")
		}
		return nil
	}))
	srv, c := agentFor(t, a2a.ProtocolV03, longTask)
	w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("go"), a2a.PollCallOptions(a2a.Blocking(false)))
	if err != nil {
		t.Fatal(err)
	}
	url, token := registered(t, srv)
	body := taskBody(a2a.ProtocolV03, "task-1", "completed")
	if st := notify(t, url, "X-A2A-Notification-Token", token, body); st != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", st)
	}
	if w.Task().Status.State != a2a.TaskStateSubmitted {
		t.Fatal("a notification OnNotification failed on counted")
	}
	fail.Store(false)
	if st := notify(t, url, "X-A2A-Notification-Token", token, body); st != http.StatusNoContent {
		t.Fatalf("again: status %d", st)
	}
	if _, err := w.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// A v1.0 agent may send v0.3 bodies to a webhook, and the reverse.
func TestPushReceiverReadsEitherVersion(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		other := a2a.ProtocolV10
		if version == other {
			other = a2a.ProtocolV03
		}
		t.Run(version+" client, "+other+" body", func(t *testing.T) {
			recv := newReceiver(t)
			srv, c := agentFor(t, version, longTask)
			w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("go"), a2a.PollCallOptions(a2a.Blocking(false)))
			if err != nil {
				t.Fatal(err)
			}
			url, token := registered(t, srv)
			if st := notify(t, url, tokenHeader(other), token, taskBody(other, "task-1", "canceled")); st != http.StatusNoContent {
				t.Fatalf("status %d", st)
			}
			res, err := w.Wait(context.Background())
			if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCanceled {
				t.Fatalf("%v %v", res, err)
			}
		})
	}
}

func TestPushReceiverFallbackPolls(t *testing.T) {
	recv := newReceiver(t, a2a.FallbackAfter(20*time.Millisecond))
	srv, c := agentFor(t, a2a.ProtocolV03, func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.CompletedTask("records", nil, "done"),
			States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted}}
	})
	w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("go"), append(fast, a2a.PollCallOptions(a2a.Blocking(false)))...)
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
	recv := newReceiver(t, a2a.FallbackAfter(time.Millisecond))
	_, c := agentFor(t, a2a.ProtocolV03, longTask)
	w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("go"),
		append(fast, a2a.PollMaxAttempts(2), a2a.PollCallOptions(a2a.Blocking(false)))...)
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
		w, err := recv.Send(ctx, c, a2a.NewTextMessage("go"), a2a.PollCallOptions(a2a.Blocking(false)))
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	t.Run("ctx", func(t *testing.T) {
		var done atomic.Int32
		recv := newReceiver(t, a2a.OnDone(func(*a2a.PushWait) { done.Add(1) }))
		ctx, cancel := context.WithCancel(context.Background())
		w := send(t, recv, ctx)
		cancel()
		res, err := w.Wait(context.Background())
		if !errors.Is(err, context.Canceled) || res.(*a2a.Task).Status.State != a2a.TaskStateSubmitted {
			t.Fatalf("%v %v", res, err)
		}
		if recv.Pending() != 0 || done.Load() != 1 {
			t.Errorf("pending %d, OnDone %d", recv.Pending(), done.Load())
		}
	})
	t.Run("Stop", func(t *testing.T) {
		recv := newReceiver(t)
		w := send(t, recv, context.Background())
		w.Stop()
		if _, err := w.Result(); !errors.Is(err, context.Canceled) {
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
		if _, err := recv.Send(context.Background(), c, a2a.NewTextMessage("go")); !errors.Is(err, a2a.ErrReceiverClosed) {
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
			w, err := recv.Watch(context.Background(), c, task)
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
		w, err := recv.Watch(context.Background(), c, done)
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
		if _, err := recv.Watch(context.Background(), c, nil); err == nil {
			t.Error("nil task accepted")
		}
		if _, err := recv.Watch(context.Background(), c, &a2a.Task{}); err == nil {
			t.Error("task without id accepted")
		}
	})
}

func TestNewPushReceiverRefuses(t *testing.T) {
	for _, tt := range []struct {
		url  string
		opts []a2a.ReceiverOption
	}{
		{"127.0.0.1:8080/push", nil},
		{"ftp://host/push", nil},
		{"/push", nil},
		{"http://h/push", []a2a.ReceiverOption{nil}},
		{"http://h/push", []a2a.ReceiverOption{a2a.FallbackAfter(0)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.ReceiverMaxBytes(-1)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.VerifyPush(nil)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.OnNotification(nil)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.OnDone(nil)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.ReceiverLogger(nil)}},
	} {
		if _, err := a2a.NewPushReceiver(tt.url, tt.opts...); err == nil {
			t.Errorf("%q %d options: no error", tt.url, len(tt.opts))
		}
	}
}

// Many waits, notified concurrently and out of order, under -race.
func TestPushReceiverConcurrent(t *testing.T) {
	const n = 200
	var mu sync.Mutex
	ended := map[*a2a.PushWait]int{}
	recv := newReceiver(t, a2a.OnDone(func(w *a2a.PushWait) {
		mu.Lock()
		ended[w]++
		mu.Unlock()
	}))
	srv, c := agentFor(t, a2a.ProtocolV10, longTask)
	waits := make([]*a2a.PushWait, n)
	tokens := make([]string, n)
	for i := range waits {
		w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("go"), a2a.PollCallOptions(a2a.Blocking(false)))
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
			t.Fatalf("OnDone called %d times for one wait", ended[w])
		}
	}
}

// One fallback poll at a time: news stands a running poll down (its
// tasks/get is cancelled) before the next may start.
func TestPushReceiverOnePollAtATime(t *testing.T) {
	var inFlight, most atomic.Int32
	var sentToken atomic.Value
	gets := make(chan struct{}, 10)
	working := a2atest.Responder(&a2a.Task{ID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}})
	agent := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"tasks/get"`)) {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			if n > most.Load() {
				most.Store(n)
			}
			gets <- struct{}{}
			<-r.Context().Done() // held until the poll gives it up
			return
		}
		var send struct {
			Params struct {
				Configuration struct{ PushNotificationConfig a2a.PushNotificationConfig }
			}
		}
		json.Unmarshal(body, &send)
		sentToken.Store(send.Params.Configuration.PushNotificationConfig.Token)
		resp, _ := working(r)
		for k, v := range resp.Header {
			rw.Header()[k] = v
		}
		rw.WriteHeader(resp.StatusCode)
		io.Copy(rw, resp.Body)
	}))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL, a2a.WithMaxRetries(0))
	recv := newReceiver(t, a2a.FallbackAfter(20*time.Millisecond))
	w, err := recv.Send(context.Background(), c, a2a.NewTextMessage("go"), a2a.PollInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	token := sentToken.Load().(string)
	waitFor := func() {
		select {
		case <-gets:
		case <-time.After(10 * time.Second):
			t.Fatal("no fallback poll")
		}
	}
	waitFor() // the first poll's tasks/get, held
	for range 3 {
		if st := notify(t, recv.URL(), "X-A2A-Notification-Token", token, statusBody(a2a.ProtocolV03, "t1", "working")); st != http.StatusNoContent {
			t.Fatalf("status %d", st)
		}
		waitFor() // news stood the poll down; after 20 ms of quiet the next one asks
	}
	if n := most.Load(); n != 1 {
		t.Errorf("%d fallback polls ran at once", n)
	}
	if st := notify(t, recv.URL(), "X-A2A-Notification-Token", token, taskBody(a2a.ProtocolV03, "t1", "completed")); st != http.StatusNoContent {
		t.Fatalf("status %d", st)
	}
	if res, err := w.Wait(context.Background()); err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
		t.Fatalf("%v %v", res, err)
	}
}
