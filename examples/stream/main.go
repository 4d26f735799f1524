// Command stream sends a message with message/stream and shows the agent's
// events as they arrive (Server-Sent Events): a progress line per status
// update and per artifact chunk, folded with Task.Apply into the final task.
// If the connection drops before the final event, it resubscribes to the
// task. It runs against an offline fake agent that streams in small steps.
//
//	go run ./examples/stream
package main

import (
	"context"
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
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "stream:", err)
		os.Exit(1)
	}
}

// storyEvents is what the offline agent streams: the task, a working
// status, an artifact in two chunks, and the final status.
func storyEvents() []a2a.Event {
	chunk := func(text string, appendIt, last bool) *a2a.TaskArtifactUpdateEvent {
		return &a2a.TaskArtifactUpdateEvent{TaskID: "task-1", ContextID: "ctx-1", Append: appendIt, LastChunk: last,
			Artifact: a2a.Artifact{ArtifactID: "summary", Name: "entity", Parts: a2a.Parts{a2a.TextPart{Text: text}}}}
	}
	status := func(s a2a.TaskState, final bool) *a2a.TaskStatusUpdateEvent {
		return &a2a.TaskStatusUpdateEvent{TaskID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: s}, Final: final}
	}
	return []a2a.Event{
		&a2a.Task{ID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateSubmitted}},
		status(a2a.TaskStateWorking, false),
		chunk("数控车床-A08-03-06;", false, false),
		chunk("状态:设备运行状态=正常", true, true),
		status(a2a.TaskStateCompleted, true),
	}
}

func run(ctx context.Context, w io.Writer) error {
	agent := a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateSubmitted, ""), Events: storyEvents()}
	}))
	defer agent.Close()
	c, err := a2a.NewClient(agent.URL)
	if err != nil {
		return err
	}

	var task a2a.Task
	final := false
	for ev, err := range c.StreamMessage(ctx, a2a.NewTextMessage("这个二维码是什么？")) {
		if err != nil {
			return err // *a2a.RPCError inside the stream, *a2a.TransportError, …
		}
		task.Apply(ev)
		switch e := ev.(type) {
		case *a2a.Task:
			fmt.Fprintf(w, "task %s: %s\n", e.ID, e.Status.State)
		case *a2a.TaskStatusUpdateEvent:
			fmt.Fprintf(w, "  status: %s\n", e.Status.State)
			final = e.Final
		case *a2a.TaskArtifactUpdateEvent:
			fmt.Fprintf(w, "  artifact %s: +%q\n", e.Artifact.Name, e.Artifact.Text())
		case *a2a.Message:
			fmt.Fprintln(w, "agent says:", e.Text())
			return nil
		}
	}
	if !final && task.ID != "" {
		// The stream closed early: pick the task up again.
		for ev, err := range c.Resubscribe(ctx, task.ID) {
			if err != nil {
				return err
			}
			task.Apply(ev)
		}
	}
	fmt.Fprintf(w, "final: %s, %s = %q\n", task.Status.State, task.Artifact("entity").Name,
		strings.Join(strings.Split(task.Artifact("entity").Text(), "\n"), ""))
	return nil
}
