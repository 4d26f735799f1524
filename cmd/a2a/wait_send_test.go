package main

import (
	"encoding/json"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// SEND_002: send waits by default: a task that goes submitted → working
// → completed over several polls is printed once completed.
func TestWaitSendPollsToCompleted(t *testing.T) {
	noLeaks(t)
	for _, v10 := range []bool{true, false} {
		agent := caoliaoAgent(t, v10, false, 0)
		r := a2aWait(t, append(append([]string{"send", "-a", agent.BaseURL(), "--poll-interval", "10ms"}, versionFlags(v10)...), "本月巡检记录")...)
		r.want(t, exitOK)
		if got := r.field("Status"); got != "completed" {
			t.Errorf("v10=%t: Status %q, want completed", v10, got)
		}
		r.has(t, "stdout", "Artifact: records", a2atest.RecordsSummary)
		if n := methodCounts(agent)[getMethod(v10)]; n != 3 {
			t.Errorf("v10=%t: %d GetTask, want 3 (working, working, completed)", v10, n)
		}
	}
}

// SEND_002: --async (and its aliases) returns on the first reply, without
// a poll, and asks the agent not to block: returnImmediately in A2A v1.0,
// blocking:false in v0.3.
func TestWaitSendAsync(t *testing.T) {
	noLeaks(t)
	for _, v10 := range []bool{true, false} {
		for _, flag := range []string{"--async", "--return-immediately", "--no-wait"} {
			agent := caoliaoAgent(t, v10, true, 0)
			r := a2aWait(t, append(append([]string{"send", flag, "-a", agent.BaseURL()}, versionFlags(v10)...), "本月巡检记录")...)
			r.want(t, exitOK)
			if got := r.field("Status"); got != "submitted" {
				t.Errorf("v10=%t %s: Status %q, want submitted", v10, flag, got)
			}
			r.has(t, "stdout", "Task: task-1\n", "Context: ctx-1\n", "Resume: a2a task get --wait")
			r.has(t, "stderr", "the task is not finished (submitted)")
			m := methodCounts(agent)
			send, want := "message/send", `"blocking":false`
			if v10 {
				send, want = "SendMessage", `"returnImmediately":true`
			}
			if m[send] != 1 || m[getMethod(v10)] != 0 || len(m) != 2 { // the card GET, the send
				t.Errorf("v10=%t %s: requests %v, want the card and one %s", v10, flag, m, send)
			}
			if body := bodyOf(agent, send); !strings.Contains(body, want) {
				t.Errorf("v10=%t %s: the send lacks %s: %s", v10, flag, want, body)
			}
		}
	}
	// -o json: the send's reply, the one document.
	agent := caoliaoAgent(t, true, false, 0)
	j := a2aWait(t, "send", "--async", "-o", "json", "-a", agent.BaseURL(), "本月巡检记录")
	j.want(t, exitOK)
	var doc struct {
		Task struct {
			ID     string
			Status struct{ State string }
		}
	}
	if err := json.Unmarshal([]byte(j.stdout), &doc); err != nil || doc.Task.Status.State != "TASK_STATE_SUBMITTED" || strings.Count(j.stdout, "\n") != 1 {
		t.Errorf("-o json: %q (%v), want one {\"task\":…} document, submitted", j.stdout, err)
	}
}

// SEND_003: --stream to an agent whose card says streaming:false does not
// hang nor fail: the message is sent without a stream (polled to its
// end) and the result printed as the one event, one JSON Lines line.
func TestWaitStreamUnsupportedFallsBack(t *testing.T) {
	noLeaks(t)
	agent := caoliaoAgent(t, true, false, 0)
	j := a2aWait(t, "send", "--stream", "-o", "json", "--poll-interval", "10ms", "-a", agent.BaseURL(), "本月巡检记录")
	j.want(t, exitOK)
	j.has(t, "stderr", "does not stream (capabilities.streaming is false): sent without a stream")
	lines := strings.Split(strings.TrimSuffix(j.stdout, "\n"), "\n")
	var ev struct {
		Task struct{ Status struct{ State string } }
	}
	if len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &ev) != nil || ev.Task.Status.State != "TASK_STATE_COMPLETED" {
		t.Errorf("stdout %q, want one line {\"task\":…} completed", j.stdout)
	}
	m := methodCounts(agent)
	if m["SendStreamingMessage"] != 0 || m["SendMessage"] != 1 || m["GetTask"] != 3 {
		t.Errorf("requests %v, want one SendMessage polled to its end, no stream", m)
	}

	text := a2aWait(t, "send", "--stream", "--poll-interval", "10ms", "-a", agent.BaseURL(), "这个二维码是什么？"+a2atest.SeedQRCode)
	text.want(t, exitOK)
	text.has(t, "stdout", "Event: task\n", "Artifact: entity\n")
	if !strings.HasSuffix(text.stdout, "Task: task-2\nContext: ctx-2\nStatus: completed\n") {
		t.Errorf("the event's block does not end with the task restated:\n%s", text.stdout)
	}
}

// SEND_003: a stream that sends one Message ends cleanly, exit 0, with it.
func TestWaitStreamOneMessage(t *testing.T) {
	noLeaks(t)
	agent := a2atest.NewServer(a2atest.V10(), a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		m := a2a.NewTextMessage("就这些")
		return a2atest.Reply{Message: &m}
	}), a2atest.WithCard(&a2a.AgentCard{Name: "m", Description: "m", Version: "1", Capabilities: a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}}))
	t.Cleanup(agent.Close)
	r := a2aWait(t, "send", "--stream", "-a", agent.BaseURL(), "hi")
	r.want(t, exitOK)
	r.has(t, "stdout", "Event: message\n", "就这些")
	j := a2aWait(t, "send", "--stream", "-o", "json", "-a", agent.BaseURL(), "hi")
	j.want(t, exitOK)
	if !strings.HasPrefix(j.stdout, `{"message":`) || strings.Count(j.stdout, "\n") != 1 {
		t.Errorf("-o json: %q, want one {\"message\":…} line", j.stdout)
	}
	// Without --stream, send's wait (by stream: the card says so) prints
	// the Message as send's result.
	w := a2aWait(t, "send", "-a", agent.BaseURL(), "hi")
	w.want(t, exitOK)
	w.has(t, "stdout", "就这些")
	if m := methodCounts(agent); m["SendStreamingMessage"] != 3 {
		t.Errorf("requests %v, want 3 streams", m)
	}
}

// INTERACT_004: a task that stops at INPUT_REQUIRED is printed with both
// ids, its state and a Resume line that, pasted into a shell with the
// answer, answers the task (it completes).
func TestWaitInputRequiredResume(t *testing.T) {
	noLeaks(t)
	for _, v10 := range []bool{true, false} {
		agent := caoliaoAgent(t, v10, v10, 0) // v1.0: streams; v0.3: polls
		r := a2aWait(t, append(append([]string{"send", "-a", agent.BaseURL()}, versionFlags(v10)...), "查一台设备")...)
		r.want(t, exitOK)
		if r.field("Task") != "task-1" || r.field("Context") != "ctx-1" || r.field("Status") != "input-required" {
			t.Fatalf("v10=%t: want Task task-1, Context ctx-1, Status input-required:\n%s", v10, r.stdout)
		}
		r.has(t, "stdout", a2atest.DeviceQuestion)
		r.has(t, "stderr", "the task waits for you (input-required)")
		line := r.field("Resume")
		words := shellWords(t, strings.Replace(line, "'ANSWER'", "'A08-03-06 号车床'", 1))
		if words[0] != "a2a" || words[1] != "send" {
			t.Fatalf("v10=%t: Resume %q is not an a2a send", v10, line)
		}
		answered := a2aWait(t, words[1:]...)
		answered.want(t, exitOK)
		if answered.field("Task") != "task-1" || answered.field("Status") != "completed" {
			t.Errorf("v10=%t: the pasted %q: want task-1 completed:\n%s\n%s", v10, line, answered.stdout, answered.stderr)
		}
		for _, req := range agent.Requests() {
			if strings.Contains(string(req.Body), "A08-03-06") && !strings.Contains(string(req.Body), `"taskId":"task-1"`) {
				t.Errorf("v10=%t: the answer does not name the task: %s", v10, req.Body)
			}
		}
	}
}
