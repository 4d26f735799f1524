package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TASK_POLL_001: a one-shot task get reads the task once and says it is
// not finished; task get --wait polls it to its final state.
func TestWaitTaskGetOneShotAndWait(t *testing.T) {
	noLeaks(t)
	for _, v10 := range []bool{true, false} {
		agent := caoliaoAgent(t, v10, false, 0)
		flags := append([]string{"-a", agent.BaseURL(), "--poll-interval", "10ms"}, versionFlags(v10)...)
		sent := a2aWait(t, append(append([]string{"send", "--async"}, flags...), "本月巡检记录")...)
		sent.want(t, exitOK)
		id := sent.field("Task")

		one := a2aWait(t, append(append([]string{"task", "get"}, flags...), id)...)
		one.want(t, exitOK)
		if got := one.field("Status"); got != "working" {
			t.Errorf("v10=%t: task get: Status %q, want working (one GetTask moves the script one state)", v10, got)
		}
		one.has(t, "stderr", "the task is not finished (working)")
		one.has(t, "stdout", "Resume: a2a task get --wait -a "+agent.BaseURL())
		if n := methodCounts(agent)[getMethod(v10)]; n != 1 {
			t.Errorf("v10=%t: one-shot task get sent %d GetTask, want 1", v10, n)
		}

		waited := a2aWait(t, append(append([]string{"task", "get", "--wait"}, flags...), id)...)
		waited.want(t, exitOK)
		if got := waited.field("Status"); got != "completed" {
			t.Errorf("v10=%t: task get --wait: Status %q, want completed", v10, got)
		}
		waited.has(t, "stdout", "Artifact: records")
		if n := methodCounts(agent)[getMethod(v10)]; n != 3 { // working (1), working, completed
			t.Errorf("v10=%t: GetTask sent %d times in all, want 3", v10, n)
		}
		if strings.Contains(waited.stdout, "Resume:") || waited.stderr != "" {
			t.Errorf("v10=%t: a completed wait prints no Resume and nothing on stderr:\n%s\n%s", v10, waited.stdout, waited.stderr)
		}
	}
}

// getMethod is GetTask's method name in the version.
func getMethod(v10 bool) string {
	if v10 {
		return "GetTask"
	}
	return "tasks/get"
}

// TASK_POLL_002: at --poll-interval 100ms a wait that --timeout ends
// sends no more GetTask than the backoff allows in the time it took
// (each pause at least 80ms, growing ×1.5 to 500ms: the jitter is ±20%),
// and ends with A2ACLI_ERR_TIMEOUT, exit 5, the ids and the Resume line.
func TestWaitPollIntervalBoundsGetTasks(t *testing.T) {
	noLeaks(t)
	agent := newScriptAgent(t, &scriptAgent{states: []string{"TASK_STATE_WORKING"}})
	start := time.Now()
	r := a2aWait(t, "task", "get", "--wait", "-e", agent.endpoint(), "--poll-interval", "100ms", "--timeout", "1500ms", "t1")
	elapsed := time.Since(start)
	r.want(t, exitTimeout)
	r.has(t, "stderr", "A2ACLI_ERR_TIMEOUT", "--timeout 1.5s reached after", `last state "working"`)
	r.has(t, "stdout", "Task: t1\n", "Context: c1\n", "Status: working\n", "Resume: a2a task get --wait -e "+agent.endpoint()+" t1\n")

	// The most polls the backoff allows in elapsed: the first at once,
	// then one after each pause, each pause at its least.
	allowed, pause, spent := 1, 100*time.Millisecond, time.Duration(0)
	for {
		spent += time.Duration(float64(pause) * 0.8)
		if spent > elapsed {
			break
		}
		allowed++
		pause = min(time.Duration(float64(pause)*1.5), 500*time.Millisecond)
	}
	got := agent.count("GetTask")
	if got > allowed || got < 2 {
		t.Errorf("%d GetTask in %s at --poll-interval 100ms; the backoff allows 2..%d", got, elapsed, allowed)
	}

	// -o json: the error envelope is the one document on stdout, the
	// Resume line on stderr.
	j := a2aWait(t, "task", "get", "--wait", "-e", agent.endpoint(), "--poll-interval", "100ms", "--timeout", "300ms", "-o", "json", "t1")
	j.want(t, exitTimeout)
	var env struct{ Error struct{ Code string } }
	if err := json.Unmarshal([]byte(j.stdout), &env); err != nil || env.Error.Code != "A2ACLI_ERR_TIMEOUT" {
		t.Errorf("-o json: stdout %q, want the envelope of A2ACLI_ERR_TIMEOUT (%v)", j.stdout, err)
	}
	j.has(t, "stderr", "resume: a2a task get --wait -e "+agent.endpoint()+" t1\n")
}

// TASK_POLL_002: Ctrl-C (the context cancelled) in the middle of send's
// wait ends it with 130, the task's ids and the Resume line printed: the
// task is not lost.
func TestWaitInterruptKeepsTaskID(t *testing.T) {
	noLeaks(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	agent := newScriptAgent(t, &scriptAgent{sendState: "TASK_STATE_SUBMITTED", states: []string{"TASK_STATE_WORKING"},
		onGet: func(n int) {
			if n == 2 {
				cancel() // Ctrl-C while the second poll is under way
			}
		}})
	r := waitRun{ctx: ctx}.run(t, "send", "-e", agent.endpoint(), "--poll-interval", "10ms", "hello")
	r.want(t, exitSignal)
	r.has(t, "stdout", "Task: t1\n", "Context: c1\n", "Resume: a2a task get --wait -e "+agent.endpoint()+" t1\n")
	r.has(t, "stderr", "a2a send: stopped")
	if n := agent.count("GetTask"); n != 2 {
		t.Errorf("%d GetTask, want 2: the wait stops when interrupted", n)
	}
	if n := agent.count("CancelTask"); n != 0 {
		t.Errorf("the task was cancelled (%d) without --cancel-on-interrupt", n)
	}
}

// TASK_POLL_003: a wait stops at once on AUTH_REQUIRED (a2a-cli #46), and
// exits 0 naming the state.
func TestWaitStopsAtAuthRequired(t *testing.T) {
	noLeaks(t)
	agent := newScriptAgent(t, &scriptAgent{states: []string{"TASK_STATE_WORKING", "TASK_STATE_AUTH_REQUIRED", "TASK_STATE_COMPLETED"}})
	r := a2aWait(t, "task", "get", "--wait", "-e", agent.endpoint(), "--poll-interval", "10ms", "t1")
	r.want(t, exitOK)
	if got := r.field("Status"); got != "auth-required" {
		t.Errorf("Status %q, want auth-required", got)
	}
	r.has(t, "stderr", "the task waits for you (auth-required)")
	r.has(t, "stdout", "Resume: a2a send -e "+agent.endpoint()+" --task-id t1 --context-id c1 'ANSWER'")
	if n := agent.count("GetTask"); n != 2 {
		t.Errorf("%d GetTask, want 2: the wait stops at the interrupted state", n)
	}
	again := newScriptAgent(t, &scriptAgent{states: []string{"TASK_STATE_AUTH_REQUIRED"}})
	code := a2aWait(t, "task", "get", "--wait", "--task-exit-codes", "-e", again.endpoint(), "t1")
	code.want(t, exitTaskInterrupted)
}

// TASK_POLL_003: TASK_STATE_UNSPECIFIED is neither terminal nor
// interrupted: the wait goes on to COMPLETED; shown as received
// (TASK_STATE_UNSPECIFIED, not the package's name for it, unknown), and
// a one-shot read of it is not finished.
func TestWaitKeepsPollingUnspecified(t *testing.T) {
	noLeaks(t)
	agent := newScriptAgent(t, &scriptAgent{states: []string{"TASK_STATE_UNSPECIFIED", "TASK_STATE_UNSPECIFIED", "TASK_STATE_COMPLETED"}})
	r := waitRun{tty: true}.run(t, "task", "get", "--wait", "-e", agent.endpoint(), "--poll-interval", "10ms", "t1")
	r.want(t, exitOK)
	if got := r.field("Status"); got != "completed" {
		t.Errorf("Status %q, want completed", got)
	}
	r.has(t, "stderr", "poll 1: TASK_STATE_UNSPECIFIED", "poll 2: TASK_STATE_UNSPECIFIED", "poll 3: completed")
	if n := agent.count("GetTask"); n != 3 {
		t.Errorf("%d GetTask, want 3", n)
	}

	once := newScriptAgent(t, &scriptAgent{states: []string{"TASK_STATE_UNSPECIFIED"}})
	one := a2aWait(t, "task", "get", "--task-exit-codes", "-e", once.endpoint(), "t1")
	one.want(t, exitTaskUnfinished)
	if got := one.field("Status"); got != "TASK_STATE_UNSPECIFIED" {
		t.Errorf("one-shot: Status %q, want TASK_STATE_UNSPECIFIED", got)
	}
	one.has(t, "stderr", "the task is not finished (TASK_STATE_UNSPECIFIED)")
}

// TASK_POLL_004: send's wait streams when the card says so; when the
// stream breaks (or closes) after its first event, the wait goes on with
// GetTask until COMPLETED, exit 0, and does not stream again.
func TestWaitStreamCutThenPolls(t *testing.T) {
	noLeaks(t)
	for _, cut := range []bool{true, false} {
		agent := newScriptAgent(t, &scriptAgent{streaming: true, states: []string{"TASK_STATE_WORKING", "TASK_STATE_COMPLETED"},
			stream: func(string, int) ([]string, bool, string) {
				return []string{taskResult("TASK_STATE_SUBMITTED")}, cut, ""
			}})
		r := a2aWait(t, "send", "-a", agent.card(), "--poll-interval", "10ms", "hello")
		r.want(t, exitOK)
		if got := r.field("Status"); got != "completed" {
			t.Errorf("cut=%t: Status %q, want completed", cut, got)
		}
		if n := agent.count("GetTask"); n != 2 {
			t.Errorf("cut=%t: %d GetTask, want 2 (working, completed)", cut, n)
		}
		if n := agent.count("SendStreamingMessage") + agent.count("SubscribeToTask"); n != 1 {
			t.Errorf("cut=%t: %d streams, want the one", cut, n)
		}
		if strings.Contains(r.stdout, "Event:") {
			t.Errorf("cut=%t: send's wait printed the stream's events:\n%s", cut, r.stdout)
		}
	}
}

// TASK_POLL_004: an agent whose card says it streams but that refuses to
// (unsupported operation, before acting) is sent the message without a
// stream, and the task polled.
func TestWaitStreamRefusedSendsWithout(t *testing.T) {
	noLeaks(t)
	agent := newScriptAgent(t, &scriptAgent{streaming: true, sendState: "TASK_STATE_WORKING", states: []string{"TASK_STATE_COMPLETED"},
		stream: func(string, int) ([]string, bool, string) { return nil, false, "streaming is off today" }})
	r := a2aWait(t, "send", "-a", agent.card(), "--poll-interval", "10ms", "hello")
	r.want(t, exitOK)
	if got := r.field("Status"); got != "completed" {
		t.Errorf("Status %q, want completed", got)
	}
	if a, b := agent.count("SendStreamingMessage"), agent.count("SendMessage"); a != 1 || b != 1 {
		t.Errorf("%d streams and %d sends, want 1 and 1", a, b)
	}
}

// TASK_POLL_002: a stream that goes quiet does not hold send past
// --timeout: A2ACLI_ERR_TIMEOUT, exit 5, the ids and a Resume line.
func TestWaitStreamTimeout(t *testing.T) {
	noLeaks(t)
	agent := newScriptAgent(t, &scriptAgent{streaming: true, hold: true, stream: func(string, int) ([]string, bool, string) {
		return []string{taskResult("TASK_STATE_WORKING")}, false, ""
	}})
	r := a2aWait(t, "send", "-a", agent.card(), "--timeout", "300ms", "hello")
	r.want(t, exitTimeout)
	r.has(t, "stderr", "A2ACLI_ERR_TIMEOUT", "(last state known: working)")
	r.has(t, "stdout", "Task: t1\n", "Context: c1\n", "Status: working\n", "Resume: a2a task subscribe -a "+agent.card()+" t1\n")
}
