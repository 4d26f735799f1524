// Command stream sends a message with message/stream (SendStreamingMessage
// in A2A v1.0) and shows the agent's events as they arrive (Server-Sent
// Events): a progress line per status update and per artifact chunk, folded
// with Task.Apply into the task as it stands. The offline fake agent drops
// the stream before the final event, which ends the stream with a
// *a2a.StreamCutError, so the program resubscribes to the task
// (tasks/resubscribe; SubscribeToTask in v1.0, whose first event is the
// task as it stands) for the rest.
//
//	go run ./examples/stream
//	go run ./examples/stream -version 1.0
//	go run ./examples/stream -transport http+json -version 1.0   # HTTP+JSON (REST)
//	go run ./examples/stream -transport http+json                # A2A v0.3 over HTTP+JSON
//
// The code is the same on every binding; only the two client options that
// name it differ.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// -h prints the usage and succeeds.
	if err := run(ctx, os.Stdout, os.Args[1:]); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "stream:", err)
		os.Exit(1)
	}
}

// offlineAgent streams the task, a working status and the first chunk of
// its summary, then drops the connection; a resubscription delivers the
// rest from the task it keeps (the whole artifact, then the final status).
// It speaks A2A v1.0 when version is "1.0", else v0.3, over transport
// (JSONRPC or HTTP+JSON).
func offlineAgent(transport, version string) *a2atest.Server {
	summary := a2a.Artifact{ArtifactID: "summary", Name: "entity",
		Parts: a2a.Parts{a2a.TextPart{Text: "数控车床-A08-03-06;"}, a2a.TextPart{Text: "状态:设备运行状态=正常"}}}
	firstChunk := summary
	firstChunk.Parts = summary.Parts[:1]
	opts := []a2atest.Option{a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{
			Task:   &a2a.Task{Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}, Artifacts: []a2a.Artifact{summary}},
			States: []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateWorking, a2a.TaskStateCompleted},
			Events: []a2a.Event{
				&a2a.Task{ID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateSubmitted}},
				&a2a.TaskStatusUpdateEvent{TaskID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}},
				&a2a.TaskArtifactUpdateEvent{TaskID: "task-1", ContextID: "ctx-1", Artifact: firstChunk},
			},
		}
	}), a2atest.Bindings(transport)}
	if version == a2a.ProtocolV10 {
		opts = append(opts, a2atest.V10())
	}
	return a2atest.NewServer(opts...)
}

// show prints one event as a progress line.
func show(w io.Writer, ev a2a.Event) {
	switch e := ev.(type) {
	case *a2a.Task:
		fmt.Fprintf(w, "task %s: %s\n", e.ID, e.Status.State)
	case *a2a.TaskStatusUpdateEvent:
		fmt.Fprintf(w, "  status: %s\n", e.Status.State)
	case *a2a.TaskArtifactUpdateEvent:
		mark := "="
		if e.Append {
			mark = "+"
		}
		fmt.Fprintf(w, "  artifact %s %s %q\n", e.Artifact.Name, mark, strings.Join(strings.Split(e.Artifact.Text(), "\n"), ""))
	case *a2a.Message:
		fmt.Fprintln(w, "agent says:", e.Text())
	}
}

func run(ctx context.Context, w io.Writer, args []string) error {
	fs := flag.NewFlagSet("stream", flag.ContinueOnError)
	fs.SetOutput(w)
	version := fs.String("version", a2a.ProtocolV03, "A2A protocol version of the offline agent: 0.3 or 1.0")
	transport := fs.String("transport", a2a.TransportJSONRPC, "transport of the offline agent: JSONRPC or HTTP+JSON (REST)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	binding := strings.ToUpper(*transport) // the names in any case: http+json
	if binding != a2a.TransportJSONRPC && binding != a2a.TransportHTTPJSON {
		return fmt.Errorf("-transport %s: want JSONRPC or HTTP+JSON", *transport)
	}
	agent := offlineAgent(binding, *version)
	defer agent.Close()
	// The two options that differ between bindings.
	c, err := a2a.NewClient(agent.URL, a2a.WithTransports(binding), a2a.WithProtocolVersion(*version))
	if err != nil {
		return err
	}

	var task a2a.Task
	resume := ""
	for ev, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("这个二维码是什么？")) {
		if cut, ok := errors.AsType[*a2a.StreamCutError](err); ok && cut.TaskID != "" {
			resume = cut.TaskID // the stream ended before the task did
			break
		}
		if err != nil {
			return err // *a2a.RPCError inside the stream, *a2a.ProtocolError, …
		}
		task.Apply(ev) // fold into the task as it stands
		show(w, ev)
	}
	if resume != "" {
		fmt.Fprintln(w, "(the stream closed before the task was final: resubscribing)")
		for ev, err := range c.SubscribeToTask(ctx, resume) {
			if err != nil {
				return err
			}
			task.Apply(ev)
			show(w, ev)
		}
	}
	fmt.Fprintf(w, "final: %s, %s = %q\n", task.Status.State, task.Artifact("entity").Name,
		strings.Join(strings.Split(task.Artifact("entity").Text(), "\n"), ""))
	return nil
}
