package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// PUSH_002: send --push-receiver hosts a webhook receiver, registers it
// with the send (a token of its own), and the wait ends by push: the
// agent's notifications (a2atest moves the task on its clock and POSTs
// each state) bring the task to its end with no GetTask at all.
func TestWaitPushEndsByPush(t *testing.T) {
	noLeaks(t)
	for _, v10 := range []bool{true, false} {
		agent := caoliaoAgent(t, v10, true, 20*time.Millisecond)
		// --poll-interval 10s: the fallback poll would come after 30s.
		r := waitRun{tty: true}.run(t, append(append([]string{"send", "--push-receiver", "127.0.0.1:0", "--poll-interval", "10s", "-a", agent.BaseURL()}, versionFlags(v10)...), "本月巡检记录")...)
		r.want(t, exitOK)
		if got := r.field("Status"); got != "completed" {
			t.Fatalf("v10=%t: Status %q, want completed\n%s", v10, got, r.stderr)
		}
		r.has(t, "stdout", "Artifact: records", a2atest.RecordsSummary)
		r.has(t, "stderr", "push: completed")
		if n := methodCounts(agent)[getMethod(v10)]; n != 0 {
			t.Errorf("v10=%t: %d GetTask: the wait did not end by push", v10, n)
		}
		var took []a2a.TaskState
		for _, d := range agent.Deliveries() {
			if !strings.HasPrefix(d.URL, "http://127.0.0.1:") || !strings.HasSuffix(d.URL, "/a2a/push") {
				t.Errorf("v10=%t: webhook %s, want http://127.0.0.1:PORT/a2a/push", v10, d.URL)
			}
			if d.StatusCode == 204 {
				took = append(took, d.State)
			}
		}
		// (The last delivery may not be listed yet: the agent records it
		// once it has read the answer; "push: completed" above says it came.)
		if len(took) == 0 {
			t.Errorf("v10=%t: the receiver took no notification: %+v", v10, agent.Deliveries())
		}
		send := bodyOf(agent, map[bool]string{true: "SendMessage", false: "message/send"}[v10])
		if !strings.Contains(send, "/a2a/push") || !strings.Contains(send, `"token":"`) {
			t.Errorf("v10=%t: the send registers no webhook with a token: %s", v10, send)
		}
		var body struct{ Params json.RawMessage }
		json.Unmarshal([]byte(send), &body)
		if token := tokenOf(body.Params); token == "" || strings.Contains(r.stdout+r.stderr, token) {
			t.Errorf("v10=%t: the wait's token is empty or printed", v10)
		}
	}
}

// tokenOf is the push config's token in a send's params, "" when none.
func tokenOf(params json.RawMessage) string {
	_, after, ok := strings.Cut(string(params), `"token":"`)
	if !ok {
		return ""
	}
	token, _, _ := strings.Cut(after, `"`)
	return token
}

// PUSH_002: push is best effort: when no notification reaches the
// receiver (here the agent posts to a --push-url nobody serves), the wait
// polls the task after 5 × --poll-interval, to its end.
func TestWaitPushFallsBackToPolling(t *testing.T) {
	noLeaks(t)
	agent := caoliaoAgent(t, true, true, 0) // moves on each GetTask
	r := a2aWait(t, "send", "--push-receiver", "127.0.0.1:0", "--push-url", "http://127.0.0.1:1/nobody", "--poll-interval", "10ms", "-a", agent.BaseURL(), "本月巡检记录")
	r.want(t, exitOK)
	if got := r.field("Status"); got != "completed" {
		t.Errorf("Status %q, want completed\n%s", got, r.stderr)
	}
	if n := methodCounts(agent)["GetTask"]; n < 3 {
		t.Errorf("%d GetTask, want the fallback poll to the end (3 at least)", n)
	}
	for _, d := range agent.Deliveries() {
		if d.StatusCode != 0 {
			t.Errorf("a delivery reached someone: %+v", d)
		}
	}
}

// PUSH_002: a push wait that Ctrl-C stops (after the first notification
// came) prints the ids and the Resume line, exit 130; one that --timeout
// ends is A2ACLI_ERR_TIMEOUT, exit 5, with them too.
func TestWaitPushStopped(t *testing.T) {
	noLeaks(t)
	agent := caoliaoAgent(t, true, true, time.Hour) // stays submitted
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		for ctx.Err() == nil && len(agent.Deliveries()) == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel() // the receiver has taken the first notification
	}()
	r := waitRun{ctx: ctx}.run(t, "send", "--push-receiver", "127.0.0.1:0", "--poll-interval", "10s", "-a", agent.BaseURL(), "本月巡检记录")
	r.want(t, exitSignal)
	r.has(t, "stdout", "Task: task-1\n", "Context: ctx-1\n", "Status: submitted\n", "Resume: a2a task get --wait -a "+agent.BaseURL()+" task-1\n")
	if d := agent.Deliveries(); len(d) == 0 || d[0].StatusCode != 204 {
		t.Errorf("deliveries %+v, want the first taken (204)", d)
	}

	timed := a2aWait(t, "send", "--push-receiver", "127.0.0.1:0", "--poll-interval", "10s", "--timeout", "300ms", "-a", agent.BaseURL(), "本月巡检记录")
	timed.want(t, exitTimeout)
	timed.has(t, "stderr", "A2ACLI_ERR_TIMEOUT")
	timed.has(t, "stdout", "Task: task-2\n", "Resume: a2a task get --wait -a "+agent.BaseURL()+" task-2\n")
}

// PUSH_002: what --push-receiver refuses before anything is sent to the
// task: not HOST:PORT, not loopback without --push-url, a --push-url that
// is no http(s) URL, an address already taken, and the flags it
// contradicts.
func TestWaitPushUsage(t *testing.T) {
	noLeaks(t)
	agent := caoliaoAgent(t, true, true, 0)
	taken := a2atest.NewServer()
	defer taken.Close()
	busy := strings.TrimPrefix(taken.BaseURL(), "http://")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--push-receiver", "8765"}, "want HOST:PORT"},
		{[]string{"--push-receiver", "0.0.0.0:0"}, "is not a loopback address: give --push-url"},
		{[]string{"--push-receiver", ":0"}, "is not a loopback address"},
		{[]string{"--push-receiver", "127.0.0.1:0", "--push-url", "ftp://x/y"}, "--push-url ftp://x/y is not an http:// or https:// URL"},
		{[]string{"--push-receiver", busy}, "cannot listen there"},
		{[]string{"--push-url", "http://127.0.0.1:9/x"}, "--push-url goes with --push-receiver"},
		{[]string{"--push-receiver", "127.0.0.1:0", "--async"}, "contradict"},
		{[]string{"--push-receiver", "127.0.0.1:0", "--stream"}, "give one"},
	} {
		r := a2aWait(t, append(append([]string{"send", "-a", agent.BaseURL()}, c.args...), "hi")...)
		r.want(t, exitUsage)
		r.has(t, "stderr", "A2ACLI_ERR_USAGE", c.want)
	}
	if n := methodCounts(agent)["SendMessage"]; n != 0 {
		t.Errorf("%d sends: a refused --push-receiver sent the message", n)
	}

	// A card without push notifications: refused before the send.
	nopush := a2atest.NewServer(a2atest.V10(), a2atest.WithCard(&a2a.AgentCard{Name: "n", Description: "n", Version: "1",
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}}))
	defer nopush.Close()
	r := a2aWait(t, "send", "--push-receiver", "127.0.0.1:0", "-a", nopush.BaseURL(), "hi")
	if r.code == exitOK || !strings.Contains(r.stderr, "pushNotifications") {
		t.Errorf("card without push: exit %d, stderr %s; want an error naming capabilities.pushNotifications", r.code, r.stderr)
	}
	if n := methodCounts(nopush)["SendMessage"]; n != 0 {
		t.Errorf("card without push: %d sends", n)
	}
}

// TestWaitPushTokenHidden: the wait's token (made inside the package's
// send) is in no output, the --debug dump of the very request that
// registers it included (AUTH_004).
func TestWaitPushTokenHidden(t *testing.T) {
	noLeaks(t)
	agent := caoliaoAgent(t, true, true, 20*time.Millisecond)
	r := waitRun{}.run(t, append(append([]string{"send", "--debug", "--push-receiver", "127.0.0.1:0", "--poll-interval", "10s", "-a", agent.BaseURL()}, versionFlags(true)...), "本月巡检记录")...)
	r.want(t, exitOK)
	var body struct{ Params json.RawMessage }
	json.Unmarshal([]byte(bodyOf(agent, "SendMessage")), &body)
	token := tokenOf(body.Params)
	if token == "" {
		t.Fatal("the send registers no token")
	}
	if strings.Contains(r.stdout+r.stderr, token) {
		t.Errorf("the wait's token is printed:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, `"token":"[REDACTED]"`) {
		t.Errorf("the --debug dump does not show the send's token redacted:\n%s", r.stderr)
	}
}

// learnWebhookSecrets learns a config's token and credentials, in either
// version's shape, and nothing else.
func TestLearnWebhookSecrets(t *testing.T) {
	var got []string
	learnWebhookSecrets([]byte(`{"params":{"message":{"parts":[{"text":"token"}],"metadata":{"token":"not-a-webhook"}},
		"configuration":{"pushNotificationConfig":{"url":"http://h/p","token":"t1","authentication":{"schemes":["Bearer"],"credentials":"c1"}}}},
		"taskPushNotificationConfig":{"url":"http://h/q","token":"t2"}}`), func(s string) { got = append(got, s) })
	slices.Sort(got)
	if !slices.Equal(got, []string{"c1", "t1", "t2"}) {
		t.Errorf("learnt %q, want c1 t1 t2", got)
	}
}
