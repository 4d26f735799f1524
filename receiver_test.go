package a2a_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
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

// longWait sends through recv to a new agent of version whose task only
// notifications finish (longTask), and returns the wait, the agent, and
// the webhook URL and token the send registered.
func longWait(t *testing.T, recv *a2a.PushReceiver, version string) (*a2a.PushWait, *a2atest.Server, string, string) {
	t.Helper()
	srv, c := agentFor(t, version, longTask)
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	url, token := registered(t, srv)
	return w, srv, url, token
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

func TestPushReceiverRefusals(t *testing.T) {
	log, lines := newCapture()
	var reached atomic.Int32
	recv := newReceiver(t, a2a.PushLogger(log), a2a.PushMaxBytes(1<<10),
		a2a.PushOnNotification(func(_ context.Context, n *a2a.PushNotification) error {
			if task, ok := n.Event.(*a2a.Task); !ok || task.Status.State != a2a.TaskStateSubmitted { // not a2atest's own
				reached.Add(1)
			}
			return nil
		}),
		a2a.PushVerify(func(r *http.Request, body []byte) error {
			if r.Header.Get("X-Refuse") != "" {
				return errors.New("signature does not verify")
			}
			return nil
		}))
	w, _, url, token := longWait(t, recv, a2a.ProtocolV03)
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
		{"refused by PushVerify", http.MethodPost, with("X-Refuse", "1"), ok, http.StatusUnauthorized},
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
		t.Errorf("%d refused notifications reached PushOnNotification", n)
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
		t.Errorf("PushVerify's error is not in the log: %q", logged)
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
	recv := newReceiver(t, a2a.PushOnNotification(func(context.Context, *a2a.PushNotification) error {
		if fail.Load() {
			return errors.New("database down")
		}
		return nil
	}))
	w, _, url, token := longWait(t, recv, a2a.ProtocolV03)
	body := taskBody(a2a.ProtocolV03, "task-1", "completed")
	if st := notify(t, url, "X-A2A-Notification-Token", token, body); st != http.StatusInternalServerError {
		t.Fatalf("status %d, want 500", st)
	}
	if w.Task().Status.State != a2a.TaskStateSubmitted {
		t.Fatal("a notification PushOnNotification failed on counted")
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
			w, _, url, token := longWait(t, recv, version)
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

func TestNewPushReceiverRefuses(t *testing.T) {
	for _, tt := range []struct {
		url  string
		opts []a2a.ReceiverOption
	}{
		{"127.0.0.1:8080/push", nil},
		{"ftp://host/push", nil},
		{"/push", nil},
		{"http://h/push", []a2a.ReceiverOption{nil}},
		{"http://h/push", []a2a.ReceiverOption{a2a.PushFallbackAfter(0)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.PushMaxBytes(-1)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.PushMaxInflightBytes(0)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.PushMaxInflightBytes(30 << 20)}}, // cannot hold one of 4 MiB
		{"http://h/push", []a2a.ReceiverOption{a2a.PushMaxBytes(1 << 20), a2a.PushMaxInflightBytes(9 << 20)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.PushReadTimeout(0)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.PushVerify(nil)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.PushOnNotification(nil)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.PushOnDone(nil)}},
		{"http://h/push", []a2a.ReceiverOption{a2a.PushLogger(nil)}},
	} {
		if _, err := a2a.NewPushReceiver(tt.url, tt.opts...); err == nil {
			t.Errorf("%q %d options: no error", tt.url, len(tt.opts))
		}
	}
}

// What Send registers: the token in the config's token and as its Bearer
// credentials, with a send that does not block; an agent that sends only
// "Authorization: Bearer <token>" (a2a-js with authentication set) is
// taken like one that sends a token header.
func TestPushReceiverRegistration(t *testing.T) {
	for _, tt := range []struct {
		version, auth, nonBlocking string
	}{
		{a2a.ProtocolV03, `"authentication":{"schemes":["Bearer"],"credentials":"%s"}`, `"blocking":false`},
		{a2a.ProtocolV10, `"authentication":{"scheme":"Bearer","credentials":"%s"}`, `"returnImmediately":true`},
	} {
		t.Run(tt.version, func(t *testing.T) {
			recv := newReceiver(t)
			w, srv, url, token := longWait(t, recv, tt.version)
			body := string(srv.Requests()[0].Body)
			if !strings.Contains(body, fmt.Sprintf(tt.auth, token)) || !strings.Contains(body, tt.nonBlocking) {
				t.Errorf("send %s: want %s and %s", body, fmt.Sprintf(tt.auth, token), tt.nonBlocking)
			}
			for _, auth := range []string{"Basic " + token, "Bearer", "Bearer " + token + "x"} {
				if st := notifyAuth(t, url, auth, taskBody(tt.version, "task-1", "completed")); st != http.StatusUnauthorized {
					t.Errorf("Authorization %q: status %d", auth, st)
				}
			}
			if st := notifyAuth(t, url, "bearer "+token, taskBody(tt.version, "task-1", "completed")); st != http.StatusNoContent {
				t.Fatalf("status %d", st)
			}
			if res, err := w.Wait(context.Background()); err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
				t.Fatalf("%v %v", res, err)
			}
		})
	}
	t.Run("Blocking(true) when asked", func(t *testing.T) {
		recv := newReceiver(t)
		srv, c := agentFor(t, a2a.ProtocolV03, a2atest.Caoliao)
		if _, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("hi"), a2a.Blocking(true)); err != nil {
			t.Fatal(err)
		}
		if body := string(srv.Requests()[0].Body); !strings.Contains(body, `"blocking":true`) {
			t.Errorf("send %s", body)
		}
	})
}

// notifyAuth POSTs body to url with only an Authorization header.
func notifyAuth(t *testing.T, url, auth, body string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Authorization", auth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// FuzzPushNotification: whatever a token holder POSTs, the receiver
// answers one of its statuses, never panics, and a wait it took the body
// for is still a wait (its Result has a task).
func FuzzPushNotification(f *testing.F) {
	for _, seed := range []string{
		taskBody(a2a.ProtocolV03, "t1", "completed"), taskBody(a2a.ProtocolV10, "t1", "working"),
		statusBody(a2a.ProtocolV03, "t1", "completed"), statusBody(a2a.ProtocolV10, "t1", "failed"),
		`{"kind":"artifact-update","taskId":"t1","artifact":{"artifactId":"a","parts":[{"kind":"text","text":"设备"}]},"append":true}`,
		`{"artifactUpdate":{"taskId":"t1","artifact":{"artifactId":"a","parts":[{"data":{"n":1}}]}}}`,
		`{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`,
		`{"kind":"message","messageId":"m","role":"agent","parts":[]}`,
		`{"task":{"id":"t1","status":{"state":3}}}`, `{"kind":"task","id":"t2","status":{"state":"completed"}}`,
		`null`, `[]`, `{"task":null}`, `<html>`, ``,
	} {
		f.Add(seed)
	}
	var token atomic.Value
	c := plainAgent(f, &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}, func(_ *http.Request, _, tok string) bool {
		token.Store(tok)
		return true
	})
	recv, err := a2a.NewPushReceiver("http://127.0.0.1:1/push", a2a.PushMaxBytes(64<<10))
	if err != nil {
		f.Fatal(err)
	}
	defer recv.Close()
	f.Fuzz(func(t *testing.T, body string) {
		w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Stop()
		req := httptest.NewRequest(http.MethodPost, "/push", strings.NewReader(body))
		req.Header.Set("X-A2A-Notification-Token", token.Load().(string))
		rec := httptest.NewRecorder()
		recv.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusNoContent, http.StatusBadRequest, http.StatusForbidden, http.StatusRequestEntityTooLarge:
		default:
			t.Fatalf("status %d for %q", rec.Code, body)
		}
		if res, _ := w.Result(); res == nil {
			t.Fatalf("the wait lost its task after %q (status %d)", body, rec.Code)
		}
	})
}

// TestPushObserve: the observer sees each request before it is handled
// (a refused one too), its context reaches PushOnNotification, and done
// gets the status answered, once.
func TestPushObserve(t *testing.T) {
	type seen struct {
		traceparent string
		status      int
	}
	var (
		mu    sync.Mutex
		calls []seen
		inCtx atomic.Bool
	)
	type key struct{}
	recv := newReceiver(t,
		a2a.PushObserve(func(r *http.Request) (context.Context, func(int)) {
			i := func() int {
				mu.Lock()
				defer mu.Unlock()
				calls = append(calls, seen{traceparent: r.Header.Get("Traceparent")})
				return len(calls) - 1
			}()
			return context.WithValue(r.Context(), key{}, "span"), func(status int) {
				mu.Lock()
				defer mu.Unlock()
				calls[i].status = status
			}
		}),
		a2a.PushOnNotification(func(ctx context.Context, _ *a2a.PushNotification) error {
			inCtx.Store(ctx.Value(key{}) == "span")
			return nil
		}))
	_, _, url, token := longWait(t, recv, a2a.ProtocolV03)
	post := func(token string) int {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(taskBody(a2a.ProtocolV03, "task-1", "working")))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
		if token != "" {
			req.Header.Set("X-A2A-Notification-Token", token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := post(token); st != http.StatusNoContent {
		t.Fatalf("status %d, want 204", st)
	}
	if st := post(""); st != http.StatusUnauthorized {
		t.Fatalf("status %d, want 401", st)
	}
	tp := "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
	mu.Lock()
	defer mu.Unlock()
	// The agent's own deliveries (longWait's a2atest pushes the task's
	// states) reach the observer too, at times of their own: only the
	// test's two posts carry the traceparent.
	var ours []seen
	for _, c := range calls {
		if c.traceparent != "" {
			ours = append(ours, c)
		}
	}
	if diff := cmp.Diff([]seen{{tp, 204}, {tp, 401}}, ours, cmp.AllowUnexported(seen{})); diff != "" {
		t.Errorf("observed (-want +got):\n%s", diff)
	}
	if !inCtx.Load() {
		t.Error("PushOnNotification did not get the observer's context")
	}
	if _, err := a2a.NewPushReceiver("http://127.0.0.1/push", a2a.PushObserve(nil)); err == nil {
		t.Error("PushObserve(nil) accepted")
	}
}
