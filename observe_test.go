package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// recorder is an Observer that writes down what it is told, one line a
// hook, and adds a header to every attempt.
type recorder struct {
	mu   sync.Mutex
	ops  []a2a.Operation
	log  []string
	ends []a2a.OperationEnd
}

type ctxKey struct{}

func (r *recorder) StartOperation(ctx context.Context, op a2a.Operation) (context.Context, *a2a.OperationHooks) {
	r.mu.Lock()
	r.ops = append(r.ops, op)
	n := len(r.ops)
	r.mu.Unlock()
	add := func(s string) {
		r.mu.Lock()
		r.log = append(r.log, s)
		r.mu.Unlock()
	}
	return context.WithValue(ctx, ctxKey{}, n), &a2a.OperationHooks{
		Attempt: func(a a2a.HTTPAttempt) {
			a.Header.Set("Traceparent", fmt.Sprintf("op%d-attempt%d", n, a.N))
			add(fmt.Sprintf("attempt %d %s", a.N, a.Method))
		},
		AttemptDone: func(a a2a.HTTPAttempt) {
			add(fmt.Sprintf("done %d %d retry=%v err=%v", a.N, a.StatusCode, a.Retry, a.Err != nil))
		},
		Event: func(ev a2a.Event) { add(fmt.Sprintf("event %T", ev)) },
		End: func(e a2a.OperationEnd) {
			add(fmt.Sprintf("end %T %v", e.Result, e.Err != nil))
			r.mu.Lock()
			r.ends = append(r.ends, e)
			r.mu.Unlock()
		},
	}
}

func (r *recorder) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.log...)
}

func TestObserverUnary(t *testing.T) {
	for _, tc := range []struct {
		name            string
		srv             []a2atest.Option
		opts            []a2a.Option
		version, method string
		transport       string
		httpMethod      string
	}{
		{"v0.3 JSON-RPC", nil, nil, "0.3", "tasks/get", a2a.TransportJSONRPC, "POST"},
		{"v1.0 JSON-RPC", []a2atest.Option{a2atest.V10(), a2atest.RequireTenant("t1")},
			[]a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTenant("t1")}, "1.0", "GetTask", a2a.TransportJSONRPC, "POST"},
		{"v1.0 HTTP+JSON", []a2atest.Option{a2atest.V10(), a2atest.HTTPJSON()},
			[]a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON)}, "1.0", "GetTask", a2a.TransportHTTPJSON, "GET"},
		{"v0.3 HTTP+JSON", []a2atest.Option{a2atest.HTTPJSON()},
			[]a2a.Option{a2a.WithTransports(a2a.TransportHTTPJSON)}, "0.3", "GetTask", a2a.TransportHTTPJSON, "GET"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := a2atest.NewServer(tc.srv...)
			defer srv.Close()
			rec := &recorder{}
			endpoint := srv.URL
			if tc.transport == a2a.TransportJSONRPC { // HTTP+JSON agents refuse a query they do not know
				endpoint += "?key=sekrit-query-value"
			}
			c, err := a2a.NewClient(endpoint, append(tc.opts, a2a.WithObserver(rec), a2a.WithAPIKey("observer-test-key-1234"))...)
			if err != nil {
				t.Fatal(err)
			}
			task, err := c.SendText(context.Background(), "hi")
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.GetTask(context.Background(), task.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.ops) != 2 {
				t.Fatalf("operations = %d, want 2", len(rec.ops))
			}
			op := rec.ops[1]
			want := a2a.Operation{Name: "GetTask", Method: tc.method, ProtocolVersion: tc.version, Transport: tc.transport,
				Endpoint: strings.TrimSuffix(srv.URL, "/"), TaskID: task.ID, Tenant: map[bool]string{true: "t1"}[tc.name == "v1.0 JSON-RPC"]}
			if diff := cmp.Diff(want, op, cmpopts.IgnoreUnexported(a2a.Operation{})); diff != "" {
				t.Errorf("GetTask operation (-want +got):\n%s", diff)
			}
			send := rec.ops[0]
			if send.Name != "SendMessage" || send.MessageID == "" || send.TaskID != "" {
				t.Errorf("send operation = %+v, want SendMessage with a message id", send)
			}
			wantLog := []string{"attempt 1 POST", "done 1 200 retry=false err=false", "end *a2a.Task false",
				"attempt 1 " + tc.httpMethod, "done 1 200 retry=false err=false", "end *a2a.Task false"}
			if diff := cmp.Diff(wantLog, rec.lines()); diff != "" {
				t.Errorf("hooks (-want +got):\n%s", diff)
			}
			if rec.ends[1].Result.(*a2a.Task) != got {
				t.Errorf("End's result is not the task GetTask returned")
			}
			reqs := srv.Requests()
			if h := reqs[len(reqs)-1].Header.Get("Traceparent"); h != "op2-attempt1" {
				t.Errorf("server got traceparent %q, want op2-attempt1", h)
			}
			for _, op := range rec.ops {
				if strings.Contains(fmt.Sprint(op), "sekrit") || strings.Contains(fmt.Sprint(op), "observer-test-key") {
					t.Errorf("operation shows a secret: %+v", op)
				}
			}
		})
	}
}

// TestObserverRetry: every attempt is told of, carries the header the
// observer added (the server sees a fresh one on the retry), and the
// first says a retry follows.
func TestObserverRetry(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	rec := &recorder{}
	c, err := a2a.NewClient(srv.URL, a2a.WithObserver(rec), a2a.WithRetryWait(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	task, err := c.SendText(context.Background(), "hi")
	if err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(a2atest.Raw{Status: http.StatusServiceUnavailable, Body: "busy"})
	if _, err := c.GetTask(context.Background(), task.ID); err != nil {
		t.Fatal(err)
	}
	want := []string{"attempt 1 POST", "done 1 503 retry=true err=false", "attempt 2 POST", "done 2 200 retry=false err=false", "end *a2a.Task false"}
	if diff := cmp.Diff(want, rec.lines()[3:]); diff != "" {
		t.Errorf("hooks (-want +got):\n%s", diff)
	}
	reqs := srv.Requests()
	var got []string
	for _, r := range reqs[1:] {
		got = append(got, r.Header.Values("Traceparent")...)
	}
	if diff := cmp.Diff([]string{"op2-attempt1", "op2-attempt2"}, got); diff != "" {
		t.Errorf("traceparent the server got (-want +got):\n%s", diff)
	}
}

// TestObserverErrors: an error ends the operation with it, once; a
// transport error is told of on the attempt.
func TestObserverErrors(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	rec := &recorder{}
	c, err := a2a.NewClient(srv.URL, a2a.WithObserver(rec), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetTask(context.Background(), "nope")
	var rpc *a2a.RPCError
	if !errors.As(err, &rpc) {
		t.Fatalf("GetTask = %v, want an RPCError", err)
	}
	srv.Enqueue(a2atest.Raw{Status: http.StatusBadGateway, Body: "down"})
	_, err = c.GetTask(context.Background(), "nope")
	var he *a2a.HTTPError
	if !errors.As(err, &he) {
		t.Fatalf("GetTask = %v, want an HTTPError", err)
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	c2, err := a2a.NewClient(deadURL, a2a.WithObserver(rec), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c2.GetTask(context.Background(), "t")
	var te *a2a.TransportError
	if !errors.As(err, &te) {
		t.Fatalf("GetTask = %v, want a TransportError", err)
	}
	want := []string{
		"attempt 1 POST", "done 1 200 retry=false err=false", "end <nil> true",
		"attempt 1 POST", "done 1 502 retry=false err=false", "end <nil> true",
		"attempt 1 POST", "done 1 0 retry=false err=true", "end <nil> true",
	}
	if diff := cmp.Diff(want, rec.lines()); diff != "" {
		t.Errorf("hooks (-want +got):\n%s", diff)
	}
	if !errors.As(rec.ends[0].Err, &rpc) || !errors.As(rec.ends[1].Err, &he) || !errors.As(rec.ends[2].Err, &te) {
		t.Errorf("ends carry %v, %v, %v", rec.ends[0].Err, rec.ends[1].Err, rec.ends[2].Err)
	}
}

// TestObserverStream: each event is told of before the caller sees it;
// the end comes once, with the last event, however the stream ends.
func TestObserverStream(t *testing.T) {
	for _, tc := range []struct {
		name  string
		srv   []a2atest.Option
		opts  []a2a.Option
		brk   bool // break out after the first event
		end   string
		count int
	}{
		{"whole v0.3", nil, nil, false, "end *a2a.TaskStatusUpdateEvent false", 3},
		{"whole v1.0 HTTP+JSON", []a2atest.Option{a2atest.V10(), a2atest.HTTPJSON()},
			[]a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON)}, false, "end *a2a.TaskStatusUpdateEvent false", 3},
		{"break", nil, nil, true, "end *a2a.Task false", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := a2atest.NewServer(append(tc.srv, a2atest.OnSend(func(a2a.Message) a2atest.Reply {
				return a2atest.Reply{Task: a2atest.CompletedTask("r", map[string]any{"ok": true}, "done"),
					States: []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateCompleted}}
			}))...)
			defer srv.Close()
			rec := &recorder{}
			c, err := a2a.NewClient(srv.URL, append(tc.opts, a2a.WithObserver(rec))...)
			if err != nil {
				t.Fatal(err)
			}
			seen := 0
			for ev, err := range c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("hi")) {
				if err != nil {
					t.Fatal(err)
				}
				seen++
				lines := rec.lines()
				if want := fmt.Sprintf("event %T", ev); lines[len(lines)-1] != want {
					t.Errorf("last hook before the caller saw %T: %q", ev, lines[len(lines)-1])
				}
				if tc.brk {
					break
				}
			}
			lines := rec.lines()
			if lines[len(lines)-1] != tc.end || strings.Count(strings.Join(lines, "\n"), "end ") != 1 {
				t.Errorf("hooks = %q, want one end %q", lines, tc.end)
			}
			if seen != tc.count || !rec.ops[0].Streaming || rec.ops[0].Name != "SendStreamingMessage" {
				t.Errorf("seen %d events, operation %+v", seen, rec.ops[0])
			}
		})
	}
}

// TestObserverStreamCancel: a ctx cancelled mid-stream ends the
// operation once, with the error the caller got.
func TestObserverStreamCancel(t *testing.T) {
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}}`+"\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer srv.Close()
	defer close(stop)
	rec := &recorder{}
	c, err := a2a.NewClient(srv.URL, a2a.WithObserver(rec))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last error
	for _, err := range c.SubscribeToTask(ctx, "t1") {
		if err != nil {
			last = err
			break
		}
		cancel()
	}
	if !errors.Is(last, context.Canceled) {
		t.Fatalf("stream ended with %v, want context.Canceled", last)
	}
	if len(rec.ends) != 1 || !errors.Is(rec.ends[0].Err, context.Canceled) || rec.ends[0].Result != nil {
		t.Errorf("ends = %+v, want one with context.Canceled", rec.ends)
	}
	if op := rec.ops[0]; op.Name != "SubscribeToTask" || op.TaskID != "t1" {
		t.Errorf("operation = %+v", op)
	}
}

// TestObserverCard: each card GET is an operation of its own, and a
// client's operations name the agent of its card.
func TestObserverCard(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10())
	defer srv.Close()
	rec := &recorder{}
	card, err := a2a.ResolveAgentCard(context.Background(), srv.BaseURL(), a2a.WithObserver(rec))
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2a.NewClientFromCard(card, a2a.WithObserver(rec))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendText(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	want := a2a.Operation{Name: "ResolveAgentCard", Endpoint: srv.BaseURL() + a2a.AgentCardPath}
	if diff := cmp.Diff(want, rec.ops[0], cmpopts.IgnoreUnexported(a2a.Operation{})); diff != "" {
		t.Errorf("card operation (-want +got):\n%s", diff)
	}
	if rec.ends[0].Result.(*a2a.AgentCard) != card {
		t.Errorf("End's result is not the card")
	}
	if rec.ops[1].Agent != card.Name || card.Name == "" {
		t.Errorf("send operation's agent = %q, card's %q", rec.ops[1].Agent, card.Name)
	}
}

// TestObserverRefusedByCard: a call the card rules out is an operation
// ended at once with the refusal; nothing is sent.
func TestObserverRefusedByCard(t *testing.T) {
	card := &a2a.AgentCard{Name: "n", URL: "http://127.0.0.1:1/a2a", Capabilities: a2a.AgentCapabilities{Streaming: false}}
	rec := &recorder{}
	c, err := a2a.NewClientFromCard(card, a2a.WithObserver(rec))
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range c.SubscribeToTask(context.Background(), "t1") {
		var u *a2a.UnsupportedByCardError
		if !errors.As(err, &u) {
			t.Fatalf("SubscribeToTask = %v, want UnsupportedByCardError", err)
		}
	}
	if diff := cmp.Diff([]string{"end <nil> true"}, rec.lines()); diff != "" {
		t.Errorf("hooks (-want +got):\n%s", diff)
	}
}

// TestObserverNilHooks: an observer may want nothing of an operation but
// its context.
func TestObserverNilHooks(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	var got []string
	obs := a2a.ObserverFunc(func(ctx context.Context, op a2a.Operation) (context.Context, *a2a.OperationHooks) {
		got = append(got, op.Name)
		return nil, nil
	})
	c, err := a2a.NewClient(srv.URL, a2a.WithObserver(obs))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendText(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"SendMessage"}, got); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}
	if _, err := a2a.NewClient(srv.URL, a2a.WithObserver(nil)); err == nil {
		t.Error("WithObserver(nil) accepted")
	}
}

// TestObserverZeroCost: observing is paid for by observed calls only: a
// GetTask without an Observer allocates less than one whose Observer
// does nothing. (Against the call path before observation, the count
// without one is unchanged: see the CHANGELOG's Tracing section.)
func TestObserverZeroCost(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocation count: not under -short or -race")
	}
	srv := a2atest.NewServer()
	defer srv.Close()
	plain, err := a2a.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	task, err := plain.SendText(context.Background(), "hi")
	if err != nil {
		t.Fatal(err)
	}
	measure := func(c *a2a.Client) float64 {
		return testing.AllocsPerRun(50, func() {
			if _, err := c.GetTask(context.Background(), task.ID); err != nil {
				t.Fatal(err)
			}
		})
	}
	observed, err := a2a.NewClient(srv.URL, a2a.WithObserver(a2a.ObserverFunc(func(ctx context.Context, _ a2a.Operation) (context.Context, *a2a.OperationHooks) {
		return ctx, nil
	})))
	if err != nil {
		t.Fatal(err)
	}
	// AllocsPerRun counts every goroutine's allocations, the agent's and
	// net/http's included, which a loaded machine can only add to: the
	// least of interleaved rounds is each client's own cost.
	without, with := measure(plain), measure(observed)
	for range 4 {
		without, with = min(without, measure(plain)), min(with, measure(observed))
	}
	t.Logf("GetTask allocations: %v without an Observer, %v with a no-op one", without, with)
	if without >= with {
		t.Errorf("GetTask allocates %v without an Observer, %v with one: the unobserved path pays for observation", without, with)
	}
}

// TestObserverCannotReplaceClientHeaders: what an Observer adds is set on
// the request, except the headers the client sends itself (attack round
// 2 and the new-user trial: an Attempt hook replaced the bearer token and
// A2A-Version).
func TestObserverCannotReplaceClientHeaders(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10())
	defer srv.Close()
	obs := a2a.ObserverFunc(func(ctx context.Context, _ a2a.Operation) (context.Context, *a2a.OperationHooks) {
		return ctx, &a2a.OperationHooks{Attempt: func(a a2a.HTTPAttempt) {
			for _, k := range []string{"Authorization", "X-Api-Key", "A2A-Version", "A2A-Extensions", "Content-Type", "User-Agent", "X-Tenant"} {
				a.Header.Set(k, "observer")
			}
			a.Header.Set("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
			a.Header.Set("X-Bad", "a\r\nInjected: 1")
			a.Header.Set("Cookie", "session=observer")            // a credential the client was not given
			a.Header.Set("Proxy-Authorization", "Basic observer") // likewise
		}}
	})
	c, err := a2a.NewClient(srv.URL, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithObserver(obs), a2a.WithBearerToken("tok-1"),
		a2a.WithAPIKey("key-1"), a2a.WithHeader("X-Tenant", "mine"), a2a.WithExtensions("urn:ext:a"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendText(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	h := srv.Requests()[0].Header
	for k, want := range map[string]string{"Authorization": "Bearer tok-1", "X-Api-Key": "key-1", "A2a-Version": "1.0",
		"A2a-Extensions": "urn:ext:a", "Content-Type": "application/json", "X-Tenant": "mine",
		"Traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "X-Bad": "", "Cookie": "", "Proxy-Authorization": ""} {
		if got := h.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
}
