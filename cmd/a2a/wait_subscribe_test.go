package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TASK_SUBSCRIBE_001: task subscribe's first event is the Task, and it
// follows the task to its end; without --stream it prints the task it
// ended with (-o json: the Task as GetTask read it, not wrapped); a task
// that has ended is read, not refused.
func TestWaitSubscribeFirstEventIsTask(t *testing.T) {
	noLeaks(t)
	// start sends a task that runs (submitted, working, working,
	// completed) and returns the agent's site.
	start := func() string {
		agent := caoliaoAgent(t, true, true, 0)
		a2aWait(t, "send", "--async", "-a", agent.BaseURL(), "本月巡检记录").want(t, exitOK)
		return agent.BaseURL()
	}
	site := start()
	text := a2aWait(t, "task", "subscribe", "--stream", "-a", site, "task-1")
	text.want(t, exitOK)
	if !strings.HasPrefix(text.stdout, "Event: task\nTask: task-1\n") {
		t.Errorf("the first event is not the task:\n%s", text.stdout)
	}
	text.has(t, "stdout", "Event: status-update\n", "Artifact: records\n")
	if !strings.HasSuffix(text.stdout, "Task: task-1\nContext: ctx-1\nStatus: completed\n") {
		t.Errorf("the stream does not end with the task completed:\n%s", text.stdout)
	}

	site = start()
	lines := a2aWait(t, "task", "subscribe", "--stream", "-o", "json", "-a", site, "task-1")
	lines.want(t, exitOK)
	first, _, _ := strings.Cut(lines.stdout, "\n")
	var ev struct{ Task struct{ ID string } }
	if json.Unmarshal([]byte(first), &ev) != nil || ev.Task.ID != "task-1" {
		t.Errorf("the first line is not the task: %s", first)
	}

	site = start()
	doc := a2aWait(t, "task", "subscribe", "-o", "json", "-a", site, "task-1")
	doc.want(t, exitOK)
	var task struct {
		ID     string
		Status struct{ State string }
	}
	if json.Unmarshal([]byte(doc.stdout), &task) != nil || task.ID != "task-1" || task.Status.State != "TASK_STATE_COMPLETED" || strings.Count(doc.stdout, "\n") != 1 {
		t.Errorf("-o json: %q, want the completed Task itself, one document", doc.stdout)
	}

	// The task has ended: a2atest refuses to stream it (-32004); it is read.
	ended := a2aWait(t, "task", "subscribe", "-a", site, "task-1")
	ended.want(t, exitOK)
	if got := ended.field("Status"); got != "completed" {
		t.Errorf("subscribe to an ended task: Status %q, want completed:\n%s", got, ended.stderr)
	}
}

// TASK_SUBSCRIBE_002: a stream dropped in the middle is followed again;
// the Task the new stream starts with reconciles the state, no GetTask
// needed; when following again is refused (the task ended in between) it
// is polled; and after five drops in a row it is polled.
func TestWaitSubscribeResumesAfterDrop(t *testing.T) {
	noLeaks(t)
	dropOnce := func(_ string, n int) ([]string, bool, string) {
		if n == 1 {
			return []string{taskResult("TASK_STATE_WORKING"), statusResult("TASK_STATE_WORKING")}, true, ""
		}
		return []string{taskResult("TASK_STATE_WORKING"), statusResult("TASK_STATE_COMPLETED")}, false, ""
	}
	agent := newScriptAgent(t, &scriptAgent{streaming: true, states: []string{"TASK_STATE_COMPLETED"}, stream: dropOnce})
	r := a2aWait(t, "task", "subscribe", "--stream", "-a", agent.card(), "t1")
	r.want(t, exitOK)
	if n := strings.Count(r.stdout, "Event: task\n"); n != 2 {
		t.Errorf("%d task events, want 2 (one per stream):\n%s", n, r.stdout)
	}
	if !strings.HasSuffix(r.stdout, "Task: t1\nContext: c1\nStatus: completed\n") {
		t.Errorf("not followed to its end:\n%s", r.stdout)
	}
	if s, g := agent.count("SubscribeToTask"), agent.count("GetTask"); s != 2 || g != 0 {
		t.Errorf("%d subscriptions and %d GetTask, want 2 and 0", s, g)
	}

	refused := newScriptAgent(t, &scriptAgent{streaming: true, states: []string{"TASK_STATE_COMPLETED"},
		stream: func(_ string, n int) ([]string, bool, string) {
			if n == 1 {
				return []string{taskResult("TASK_STATE_WORKING")}, true, ""
			}
			return nil, false, "task t1 is in a terminal state"
		}})
	r = a2aWait(t, "task", "subscribe", "-a", refused.card(), "t1")
	r.want(t, exitOK)
	if got := r.field("Status"); got != "completed" {
		t.Errorf("refused again: Status %q, want completed\n%s", got, r.stderr)
	}
	if s, g := refused.count("SubscribeToTask"), refused.count("GetTask"); s != 2 || g != 1 {
		t.Errorf("refused again: %d subscriptions and %d GetTask, want 2 and 1", s, g)
	}

	always := newScriptAgent(t, &scriptAgent{streaming: true, states: []string{"TASK_STATE_COMPLETED"},
		stream: func(string, int) ([]string, bool, string) {
			return []string{taskResult("TASK_STATE_WORKING")}, true, ""
		}})
	r = a2aWait(t, "task", "subscribe", "--stream", "-o", "json", "-a", always.card(), "t1")
	r.want(t, exitOK)
	if s, g := always.count("SubscribeToTask"), always.count("GetTask"); s != 1+maxResubscribes || g != 1 {
		t.Errorf("always dropped: %d subscriptions and %d GetTask, want %d and 1", s, g, 1+maxResubscribes)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if last := lines[len(lines)-1]; len(lines) != 2+maxResubscribes || !strings.Contains(last, `"TASK_STATE_COMPLETED"`) || !strings.HasPrefix(last, `{"task":`) {
		t.Errorf("always dropped: %d lines, the last %s; want one per stream and the polled task as the last event", len(lines), last)
	}
}
