package a2aotel_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2aotel"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// A client traced with OpenTelemetry: one span per operation, the W3C
// trace context on every request. Here the spans go to an in-memory
// recorder; give a real tracer provider (or set the global one) to
// export them. example/stdout prints them with stdouttrace.
func ExampleNewObserver() {
	agent := a2atest.NewServer()
	defer agent.Close()

	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())

	// snippet: tracing-client
	obs := a2aotel.NewObserver(
		a2aotel.WithTracerProvider(tp),                     // default: otel.GetTracerProvider()
		a2aotel.WithPropagator(propagation.TraceContext{}), // default: otel.GetTextMapPropagator()
	)
	c, err := a2a.NewClient(agent.URL, a2a.WithObserver(obs))
	// snippet end
	if err != nil {
		panic(err)
	}
	task, err := c.SendText(context.Background(), "hello")
	if err != nil {
		panic(err)
	}
	if _, err := c.GetTask(context.Background(), task.ID); err != nil {
		panic(err)
	}
	for _, s := range rec.Ended() {
		var status, method string
		for _, kv := range s.Attributes() {
			switch kv.Key {
			case "gen_ai.agent.a2a.status":
				status = kv.Value.AsString()
			case "rpc.method":
				method = kv.Value.AsString()
			}
		}
		fmt.Printf("%s (%s, %s): task %s\n", s.Name(), s.SpanKind(), method, status)
	}
	fmt.Println("traceparent sent:", agent.Requests()[0].Header.Get("Traceparent") != "")
	// Output:
	// SendMessage (client, message/send): task completed
	// GetTask (client, tasks/get): task completed
	// traceparent sent: true
}

// A push receiver traced with OpenTelemetry: a span per notification,
// parented by the traceparent the agent sent.
func ExamplePushObserve() {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	defer tp.Shutdown(context.Background())

	// snippet: tracing-receiver
	recv, err := a2a.NewPushReceiver("https://me.example/a2a/push",
		a2aotel.PushObserve(a2aotel.WithTracerProvider(tp), a2aotel.WithPropagator(propagation.TraceContext{})))
	// snippet end
	if err != nil {
		panic(err)
	}
	defer recv.Close()

	// An agent's notification, with its trace context (and no token: 401).
	req := httptest.NewRequest(http.MethodPost, "/a2a/push", strings.NewReader(`{}`))
	req.Header.Set("Traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	recv.ServeHTTP(httptest.NewRecorder(), req)

	s := rec.Ended()[0]
	fmt.Println(s.Name(), s.SpanKind(), "in trace", s.SpanContext().TraceID(), "under", s.Parent().SpanID())
	// Output:
	// PushNotification server in trace 0af7651916cd43dd8448eb211c80319c under b7ad6b7169203331
}
