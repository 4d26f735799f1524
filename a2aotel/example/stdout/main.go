// Command stdout traces an A2A client and a push receiver with
// OpenTelemetry and prints every span to standard output as JSON
// (stdouttrace), against an offline fake agent (package a2atest):
//
//	cd a2aotel && go run ./example/stdout
//
// It sends a message, reads the task again, streams a second message and
// waits for a third by push notification: one client span for each
// operation (the stream's events as span events), under the example's
// own span, and a server span for each notification the receiver takes
// (parented by the agent's traceparent when it sends one; a2atest sends
// none, so here they start traces of their own).
package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2aotel"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	exp, err := stdouttrace.New(stdouttrace.WithPrettyPrint())
	if err != nil {
		return err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	defer tp.Shutdown(context.Background())
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.TraceContext{}) // W3C traceparent and tracestate

	agent := a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.CompletedTask("answer", map[string]any{"ok": true}, "done"),
			States: []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateCompleted}, Interval: 20 * time.Millisecond}
	}))
	defer agent.Close()

	c, err := a2a.NewClient(agent.URL, a2a.WithObserver(a2aotel.NewObserver()))
	if err != nil {
		return err
	}
	ctx, span := tp.Tracer("example").Start(context.Background(), "example")
	defer span.End()

	task, err := c.SendText(ctx, "hello")
	if err != nil {
		return err
	}
	if _, err := c.GetTask(ctx, task.ID); err != nil {
		return err
	}
	for _, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("stream it")) {
		if err != nil {
			return err
		}
	}

	hook := httptest.NewUnstartedServer(nil)
	recv, err := a2a.NewPushReceiver("http://"+hook.Listener.Addr().String()+"/push", a2aotel.PushObserve())
	if err != nil {
		return err
	}
	hook.Config.Handler = recv
	hook.Start()
	defer hook.Close()
	defer recv.Close()
	w, err := recv.SendMessage(ctx, c, a2a.NewTextMessage("tell me when done"))
	if err != nil {
		return err
	}
	_, err = w.Wait(ctx)
	return err
}
