package a2aotel_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2aotel"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// TestPushSpan: a notification's span is parented by the traceparent the
// agent sent, and records the status answered.
func TestPushSpan(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	var notified trace.SpanContext
	recv, err := a2a.NewPushReceiver("http://127.0.0.1/push",
		a2aotel.PushObserve(a2aotel.WithTracerProvider(tp), a2aotel.WithPropagator(propagation.TraceContext{})),
		a2a.PushOnNotification(func(ctx context.Context, _ *a2a.PushNotification) error {
			notified = trace.SpanContextFromContext(ctx)
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	const agentTrace, agentSpan = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
	post := func(h http.Handler, method string) {
		req := httptest.NewRequest(method, "/push", strings.NewReader(`{}`))
		req.Header.Set("Traceparent", "00-"+agentTrace+"-"+agentSpan+"-01")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	post(recv, http.MethodPost) // no token: 401
	post(recv, http.MethodGet)  // 405
	spans := rec.Ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans, want 2", len(spans))
	}
	for i, status := range []string{"401", "405"} {
		s := spans[i]
		if s.Name() != "PushNotification" || s.SpanKind() != trace.SpanKindServer || !s.Parent().IsRemote() ||
			s.Parent().TraceID().String() != agentTrace || s.Parent().SpanID().String() != agentSpan {
			t.Errorf("span %d: %q %v, parent %v", i, s.Name(), s.SpanKind(), s.Parent())
		}
		want(t, s, map[string]string{"http.response.status_code": status})
		for _, kv := range s.Attributes() {
			if kv.Key == "url.path" {
				t.Errorf("span %d: url.path recorded (a webhook's path may hold its secret)", i)
			}
		}
		if s.Status().Code == codes.Error {
			t.Errorf("span %d: a 4xx answer is no error of the receiver", i)
		}
	}
	if notified.IsValid() {
		t.Error("PushOnNotification called for a refused request")
	}

	// A receiver behind otelhttp's handler: the span is a child of the
	// handler's, and PushOnNotification's context holds it.
	_, parent := tp.Tracer("test").Start(context.Background(), "handler")
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		recv.ServeHTTP(w, r.WithContext(trace.ContextWithSpan(r.Context(), parent)))
	})
	post(handler, http.MethodPost)
	parent.End()
	s := rec.Ended()[2]
	if s.SpanKind() != trace.SpanKindInternal || s.Parent().SpanID() != parent.SpanContext().SpanID() {
		t.Errorf("span under a handler's: kind %v, parent %v", s.SpanKind(), s.Parent())
	}
}

// TestPushSpanDelivery: notifications a2atest delivers for a wait are
// each a span, ended with 204, whose context PushOnNotification gets.
func TestPushSpanDelivery(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	srv := a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.CompletedTask("r", map[string]any{"ok": true}, "done"),
			States: []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateCompleted}, Interval: 10 * time.Millisecond}
	}))
	defer srv.Close()
	ts := httptest.NewUnstartedServer(nil)
	var inSpan atomic.Int32
	recv, err := a2a.NewPushReceiver("http://"+ts.Listener.Addr().String()+"/push",
		a2aotel.PushObserve(a2aotel.WithTracerProvider(tp)),
		a2a.PushOnNotification(func(ctx context.Context, _ *a2a.PushNotification) error {
			if trace.SpanContextFromContext(ctx).IsValid() {
				inSpan.Add(1)
			}
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = recv
	ts.Start()
	defer ts.Close()
	defer recv.Close()
	c, err := a2a.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	var taken int
	for _, s := range rec.Ended() {
		if s.Name() == "PushNotification" && attrs(s)["http.response.status_code"].AsInt64() == 204 {
			taken++
		}
	}
	if taken == 0 || int(inSpan.Load()) != taken {
		t.Errorf("%d notifications taken in spans, %d seen in a span by PushOnNotification", taken, inSpan.Load())
	}
}

// TestPushSpanBadTraceparent: a malformed trace context from the agent
// is ignored: the span starts a trace of its own, the request is answered
// as without it.
func TestPushSpanBadTraceparent(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())
	recv, err := a2a.NewPushReceiver("http://127.0.0.1/push",
		a2aotel.PushObserve(a2aotel.WithTracerProvider(tp), a2aotel.WithPropagator(propagation.TraceContext{})))
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	for _, tp := range []string{"00-zz-b7ad6b7169203331-01", "00-00000000000000000000000000000000-b7ad6b7169203331-01",
		"ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", strings.Repeat("0", 10000)} {
		req := httptest.NewRequest(http.MethodPost, "/push", strings.NewReader(`{}`))
		req.Header.Set("Traceparent", tp)
		req.Header.Set("Tracestate", strings.Repeat("k=v,", 1000))
		w := httptest.NewRecorder()
		recv.ServeHTTP(w, req)
		if w.Code != http.StatusUnauthorized {
			t.Errorf("traceparent %.20q: status %d, want 401", tp, w.Code)
		}
	}
	for i, s := range rec.Ended() {
		if s.Parent().IsValid() || !s.SpanContext().IsValid() {
			t.Errorf("span %d: parent %v; want a root span", i, s.Parent())
		}
	}
}
