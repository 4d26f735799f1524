package a2aotel_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2aotel"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// tracing is a tracer provider recording spans in memory, and the client
// options that trace with it (W3C trace context).
func tracing(t *testing.T) (*tracetest.SpanRecorder, *sdktrace.TracerProvider, a2a.Option) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { tp.Shutdown(context.Background()) })
	return rec, tp, a2a.WithObserver(a2aotel.NewObserver(a2aotel.WithTracerProvider(tp), a2aotel.WithPropagator(propagation.TraceContext{})))
}

// attrs is a span's attributes by key.
func attrs(s sdktrace.ReadOnlySpan) map[attribute.Key]attribute.Value {
	m := map[attribute.Key]attribute.Value{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value
	}
	return m
}

// want checks that span s has each attribute of want ("key": value as
// its Emit form) and none of absent.
func want(t *testing.T, s sdktrace.ReadOnlySpan, want map[string]string, absent ...string) {
	t.Helper()
	got := attrs(s)
	for k, v := range want {
		if g, ok := got[attribute.Key(k)]; !ok || g.Emit() != v {
			t.Errorf("span %s: %s = %q, want %q", s.Name(), k, g.Emit(), v)
		}
	}
	for _, k := range absent {
		if g, ok := got[attribute.Key(k)]; ok {
			t.Errorf("span %s: %s = %q, want none", s.Name(), k, g.Emit())
		}
	}
}

func TestSpans(t *testing.T) {
	for _, tc := range []struct {
		name       string
		srv        []a2atest.Option
		opts       []a2a.Option
		version    string
		transport  string
		getMethod  string
		httpMethod string
	}{
		{"v0.3 JSON-RPC", nil, nil, "0.3", "JSONRPC", "tasks/get", "POST"},
		{"v1.0 JSON-RPC", []a2atest.Option{a2atest.V10()}, []a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10)}, "1.0", "JSONRPC", "GetTask", "POST"},
		{"v0.3 HTTP+JSON", []a2atest.Option{a2atest.HTTPJSON()}, []a2a.Option{a2a.WithTransports(a2a.TransportHTTPJSON)}, "0.3", "HTTP+JSON", "", "GET"},
		{"v1.0 HTTP+JSON", []a2atest.Option{a2atest.V10(), a2atest.HTTPJSON()},
			[]a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON)}, "1.0", "HTTP+JSON", "", "GET"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := a2atest.NewServer(append(tc.srv, a2atest.OnSend(func(a2a.Message) a2atest.Reply {
				return a2atest.Reply{Task: a2atest.FailedTask("no luck")}
			}))...)
			defer srv.Close()
			rec, _, obs := tracing(t)
			c, err := a2a.NewClient(srv.URL, append(tc.opts, obs, a2a.WithBearerToken("span-test-token-5678"))...)
			if err != nil {
				t.Fatal(err)
			}
			msg := a2a.NewTextMessage("hi")
			msg.MessageID = "m-1"
			res, err := c.SendMessage(context.Background(), msg)
			if err != nil {
				t.Fatal(err)
			}
			task := res.(*a2a.Task)
			if _, err := c.GetTask(context.Background(), task.ID); err != nil {
				t.Fatal(err)
			}
			spans := rec.Ended()
			if len(spans) != 2 {
				t.Fatalf("%d spans, want 2", len(spans))
			}
			send, get := spans[0], spans[1]
			if send.Name() != "SendMessage" || get.Name() != "GetTask" || send.SpanKind() != trace.SpanKindClient {
				t.Errorf("spans %q (%v), %q", send.Name(), send.SpanKind(), get.Name())
			}
			host, port := srvHostPort(t, srv.URL)
			common := map[string]string{"gen_ai.agent.a2a.protocol": tc.transport, "gen_ai.agent.a2a.protocol_version": tc.version,
				"server.address": host, "server.port": port, "http.response.status_code": "200"}
			want(t, send, common)
			want(t, send, map[string]string{"gen_ai.agent.a2a.operation.name": "SendMessage", "gen_ai.operation.name": "invoke_agent",
				"gen_ai.agent.a2a.message_id": "m-1", "gen_ai.agent.a2a.context_id": task.ContextID, "gen_ai.conversation.id": task.ContextID,
				"gen_ai.agent.a2a.task_id": task.ID, "gen_ai.agent.a2a.status": "failed", "http.request.method": "POST"},
				"error.type", "http.request.resend_count")
			want(t, get, common)
			want(t, get, map[string]string{"gen_ai.agent.a2a.operation.name": "GetTask", "gen_ai.agent.a2a.task_id": task.ID,
				"gen_ai.agent.a2a.status": "failed", "http.request.method": tc.httpMethod}, "gen_ai.operation.name")
			if tc.transport == "JSONRPC" {
				want(t, get, map[string]string{"rpc.system": "jsonrpc", "rpc.method": tc.getMethod, "url.full": srv.URL})
			} else {
				want(t, get, map[string]string{"url.full": srv.URL + map[string]string{"0.3": "/v1"}[tc.version] + "/tasks/" + task.ID}, "rpc.system", "rpc.method")
			}
			for _, s := range spans {
				if s.Status().Code == codes.Error {
					t.Errorf("span %s: status %v; a failed task is no error", s.Name(), s.Status())
				}
				for _, kv := range s.Attributes() {
					if strings.Contains(kv.Value.Emit(), "span-test-token") || strings.Contains(kv.Value.Emit(), "hi") && kv.Key != "server.address" {
						t.Errorf("span %s: %s = %q holds a secret or content", s.Name(), kv.Key, kv.Value.Emit())
					}
				}
			}
			// Every request carried the trace context of its span.
			for i, r := range srv.Requests() {
				sc := spans[i].SpanContext()
				if got, want := r.Header.Get("Traceparent"), fmt.Sprintf("00-%s-%s-01", sc.TraceID(), sc.SpanID()); got != want {
					t.Errorf("request %d: traceparent %q, want %q", i, got, want)
				}
			}
		})
	}
}

func srvHostPort(t *testing.T, u string) (string, string) {
	t.Helper()
	hp := strings.TrimPrefix(u, "http://")
	hp = hp[:strings.Index(hp, "/")]
	i := strings.LastIndex(hp, ":")
	return hp[:i], hp[i+1:]
}

// TestErrorSpans: an RPCError, an HTTPError and a transport error each
// end their span as an error with its error.type.
func TestErrorSpans(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	rec, _, obs := tracing(t)
	c, err := a2a.NewClient(srv.URL, obs, a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTask(context.Background(), "nope"); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("GetTask = %v", err)
	}
	srv.Enqueue(a2atest.Raw{Status: http.StatusBadGateway, Body: "down"})
	if _, err := c.GetTask(context.Background(), "nope"); err == nil {
		t.Fatal("no error")
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	c2, err := a2a.NewClient(deadURL, obs, a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c2.CancelTask(context.Background(), "t"); err == nil {
		t.Fatal("no error")
	}
	spans := rec.Ended()
	if len(spans) != 3 {
		t.Fatalf("%d spans, want 3", len(spans))
	}
	for i, w := range []map[string]string{
		{"error.type": "-32001", "rpc.jsonrpc.error_code": "-32001", "http.response.status_code": "200"},
		{"error.type": "502", "http.response.status_code": "502"},
		{"error.type": "*a2a.TransportError", "gen_ai.agent.a2a.operation.name": "CancelTask"},
	} {
		s := spans[i]
		want(t, s, w)
		if s.Status().Code != codes.Error || len(s.Events()) != 1 || s.Events()[0].Name != "exception" {
			t.Errorf("span %d: status %v, events %v; want an error with its exception", i, s.Status(), s.Events())
		}
	}
}

// TestRetrySpan: a retried GetTask (a GET over HTTP+JSON) is one span
// with a "retry" event; each attempt carried a traceparent of that span.
func TestRetrySpan(t *testing.T) {
	for _, tc := range []struct {
		name string
		srv  []a2atest.Option
		opts []a2a.Option
		verb string
	}{
		{"v0.3 JSON-RPC", nil, nil, "POST"},
		{"v1.0 HTTP+JSON", []a2atest.Option{a2atest.V10(), a2atest.HTTPJSON()},
			[]a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON)}, "GET"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := a2atest.NewServer(tc.srv...)
			defer srv.Close()
			rec, _, obs := tracing(t)
			c, err := a2a.NewClient(srv.URL, append(tc.opts, obs, a2a.WithRetryWait(time.Millisecond, time.Millisecond))...)
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
			get := rec.Ended()[1]
			want(t, get, map[string]string{"http.request.resend_count": "1", "http.response.status_code": "200", "http.request.method": tc.verb}, "error.type")
			ev := get.Events()
			if len(ev) != 1 || ev[0].Name != "retry" || fmt.Sprint(ev[0].Attributes) != fmt.Sprint([]attribute.KeyValue{attribute.Int("a2a.attempt", 1), attribute.Int("http.response.status_code", 503)}) {
				t.Errorf("events %v, want one retry after a 503", ev)
			}
			reqs := srv.Requests()[1:]
			if len(reqs) != 2 {
				t.Fatalf("%d requests, want 2", len(reqs))
			}
			sc := get.SpanContext()
			for i, r := range reqs {
				if got, want := r.Header.Get("Traceparent"), fmt.Sprintf("00-%s-%s-01", sc.TraceID(), sc.SpanID()); got != want || r.HTTPMethod != tc.verb {
					t.Errorf("attempt %d (%s): traceparent %q, want %q", i+1, r.HTTPMethod, got, want)
				}
			}
		})
	}
}

// TestParentSpan: the operation's span is a child of the span in the
// caller's ctx, and the agent gets that trace.
func TestParentSpan(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	rec, tp, obs := tracing(t)
	c, err := a2a.NewClient(srv.URL, obs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, parent := tp.Tracer("test").Start(context.Background(), "caller")
	if _, err := c.SendText(ctx, "hi"); err != nil {
		t.Fatal(err)
	}
	parent.End()
	send := rec.Ended()[0]
	if send.Parent().SpanID() != parent.SpanContext().SpanID() || send.SpanContext().TraceID() != parent.SpanContext().TraceID() {
		t.Errorf("send span's parent %v, want %v", send.Parent(), parent.SpanContext())
	}
	tpHeader := srv.Requests()[0].Header.Get("Traceparent")
	if !strings.Contains(tpHeader, parent.SpanContext().TraceID().String()) {
		t.Errorf("agent got traceparent %q, not of trace %s", tpHeader, parent.SpanContext().TraceID())
	}
}

// TestStreamSpan: a stream's events are span events, without content; its
// span takes the task and its last state.
func TestStreamSpan(t *testing.T) {
	for _, tc := range []struct {
		name string
		srv  []a2atest.Option
		opts []a2a.Option
	}{
		{"v0.3 JSON-RPC", nil, nil},
		{"v1.0 HTTP+JSON", []a2atest.Option{a2atest.V10(), a2atest.HTTPJSON()},
			[]a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := a2atest.NewServer(append(tc.srv, a2atest.OnSend(func(a2a.Message) a2atest.Reply {
				return a2atest.Reply{Task: a2atest.CompletedTask("report", map[string]any{"secret": "content"}, "done"),
					States: []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateCompleted}}
			}))...)
			defer srv.Close()
			rec, _, obs := tracing(t)
			c, err := a2a.NewClient(srv.URL, append(tc.opts, obs)...)
			if err != nil {
				t.Fatal(err)
			}
			var task string
			for ev, err := range c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("hi")) {
				if err != nil {
					t.Fatal(err)
				}
				if tk, ok := ev.(*a2a.Task); ok {
					task = tk.ID
				}
			}
			spans := rec.Ended()
			if len(spans) != 1 {
				t.Fatalf("%d spans", len(spans))
			}
			s := spans[0]
			want(t, s, map[string]string{"gen_ai.agent.a2a.operation.name": "SendStreamingMessage", "gen_ai.agent.a2a.task_id": task,
				"gen_ai.agent.a2a.status": "completed"}, "error.type")
			var kinds []string
			for _, e := range s.Events() {
				if e.Name != "stream.event" {
					t.Errorf("event %q", e.Name)
				}
				for _, kv := range e.Attributes {
					if kv.Key == "gen_ai.agent.a2a.event.kind" {
						kinds = append(kinds, kv.Value.AsString())
					}
					if strings.Contains(kv.Value.Emit(), "content") || strings.Contains(kv.Value.Emit(), "done") {
						t.Errorf("event attribute %s = %q: content", kv.Key, kv.Value.Emit())
					}
				}
			}
			if got := strings.Join(kinds, ","); got != "task,artifact-update,status-update" {
				t.Errorf("event kinds %s", got)
			}
		})
	}
}

// TestStreamCancelSpan: a ctx cancelled mid-stream ends the span once,
// not as an error.
func TestStreamCancelSpan(t *testing.T) {
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
	rec, _, obs := tracing(t)
	c, err := a2a.NewClient(srv.URL, obs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, err := range c.SubscribeToTask(ctx, "t1") {
		if err != nil {
			break
		}
		cancel()
	}
	spans := rec.Ended()
	if len(spans) != 1 || len(rec.Started()) != 1 {
		t.Fatalf("%d spans ended, %d started; want 1", len(spans), len(rec.Started()))
	}
	s := spans[0]
	ev := s.Events()
	if s.Status().Code == codes.Error || len(ev) != 2 || ev[0].Name != "stream.event" || ev[1].Name != "canceled" {
		t.Errorf("status %v, events %v", s.Status(), ev)
	}
	want(t, s, map[string]string{"gen_ai.agent.a2a.task_id": "t1", "gen_ai.agent.a2a.status": "working"}, "error.type")
}

// TestCardSpan: ResolveAgentCard makes a span per URL it GETs.
func TestCardSpan(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10())
	defer srv.Close()
	rec, _, obs := tracing(t)
	if _, err := a2a.ResolveAgentCard(context.Background(), srv.BaseURL(), obs); err != nil {
		t.Fatal(err)
	}
	s := rec.Ended()[0]
	if s.Name() != "ResolveAgentCard" {
		t.Errorf("span %q", s.Name())
	}
	want(t, s, map[string]string{"url.full": srv.BaseURL() + a2a.AgentCardPath, "http.request.method": "GET", "http.response.status_code": "200"},
		"rpc.system", "gen_ai.agent.a2a.protocol")
}

// spanSeer is a transport that notes the span in each request's context,
// as an instrumented transport (otelhttp) takes it for its parent.
type spanSeer struct {
	seen []trace.SpanContext
}

func (s *spanSeer) RoundTrip(r *http.Request) (*http.Response, error) {
	s.seen = append(s.seen, trace.SpanContextFromContext(r.Context()))
	return http.DefaultTransport.RoundTrip(r)
}

// TestTransportSeesSpan: the requests of an operation carry its span in
// their context, so a transport given with WithHTTPClient nests under it.
func TestTransportSeesSpan(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	rec, _, obs := tracing(t)
	seer := &spanSeer{}
	c, err := a2a.NewClient(srv.URL, obs, a2a.WithHTTPClient(&http.Client{Transport: seer}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendText(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if len(seer.seen) != 1 || !seer.seen[0].Equal(rec.Ended()[0].SpanContext()) {
		t.Errorf("transport saw %v, want the SendMessage span %v", seer.seen, rec.Ended()[0].SpanContext())
	}
}

// TestSpansRecordAgentTextSafely: what the agent chose (ids, states)
// reaches span attributes redacted of the client's secrets, inert and
// bounded (attack round 2: an agent echoing the bearer token in a task id
// put it, with control characters and 100 KB, into exported spans).
func TestSpansRecordAgentTextSafely(t *testing.T) {
	const token = "tok-SECRET-0123456789"
	hostile := token + "\x1b]8;;evil\x07\u202e" + strings.Repeat("x", 100_000)
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID int `json:"id"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		task := map[string]any{"kind": "task", "id": hostile, "contextId": hostile, "status": map[string]any{"state": hostile}}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": task})
	}))
	defer agent.Close()
	rec, _, trace := tracing(t)
	c, err := a2a.NewClient(agent.URL, trace, a2a.WithBearerToken(token))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendMessage(context.Background(), a2a.NewTextMessage("hi")); err != nil {
		t.Fatal(err)
	}
	spans := rec.Ended()
	if len(spans) != 1 {
		t.Fatalf("%d spans", len(spans))
	}
	for k, v := range attrs(spans[0]) {
		s := v.Emit()
		if strings.Contains(s, token) || strings.ContainsAny(s, "\x1b\x07\u202e") || len(s) > 300 {
			t.Errorf("%s = %.80q… (%d bytes): a secret, a control character or unbounded", k, s, len(s))
		}
	}
	if got := attrs(spans[0])["gen_ai.agent.a2a.task_id"].Emit(); !strings.Contains(got, "[REDACTED]") {
		t.Errorf("task_id %.80q: want the token redacted", got)
	}
}
