package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// Every command against demo-server's agent (a2atest's Caoliao scenario
// with its card, on loopback), in each output mode: what it prints and
// how it exits, compared with the transcripts in testdata/. A2A v1.0
// unless the test says v0.3 (--a2a-version 0.3).

// caoliaoCard is the v0.3 card of a Caoliao-style agent with an API key
// scheme.
func caoliaoCard() *a2a.AgentCard {
	return &a2a.AgentCard{
		Name: "草料二维码", Description: "Answers what a QR code is, inspection records and device questions.",
		ProtocolVersion: "0.3.0", Version: "1.0.0", PreferredTransport: a2a.TransportJSONRPC,
		Capabilities:      a2a.AgentCapabilities{Streaming: true, PushNotifications: true},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"application/json", "text/plain"},
		Skills: []a2a.AgentSkill{
			{ID: "entity", Name: "What a code is", Description: "Reads a QR code and returns what it stands for.", Examples: []string{"这个二维码是什么？" + a2atest.SeedQRCode}},
			{ID: "records", Name: "Inspection records", Examples: []string{"本月巡检记录"}},
		},
		SecuritySchemes: map[string]a2a.SecurityScheme{"apiKey": {Type: "apiKey", Name: "X-API-Key", In: "header"}},
	}
}

// demoAgent is demo-server's agent in version (a2a.ProtocolV10 or
// ProtocolV03): the Caoliao scenario and card, its tasks moved one state
// by each GetTask (no clock: the transcripts do not depend on timing).
func demoAgent(t *testing.T, version string, opts ...a2atest.Option) *a2atest.Server {
	t.Helper()
	opts = append([]a2atest.Option{a2atest.WithCard(demoCard())}, opts...)
	if version == a2a.ProtocolV10 {
		opts = append(opts, a2atest.V10())
	}
	return newAgent(t, opts...)
}

// demoArgs are the flags that reach agent, in version: -a its site, and
// --a2a-version 0.3 for v0.3.
func demoArgs(agent *a2atest.Server, version string) []string {
	if version == a2a.ProtocolV03 {
		return []string{"-a", siteOfAgent(agent), "--a2a-version", "0.3"}
	}
	return []string{"-a", siteOfAgent(agent)}
}

// cmdArgs is words, then flags, then args: "task get -a SITE ID".
func cmdArgs(words string, flags []string, args ...string) []string {
	return append(append(strings.Fields(words), flags...), args...)
}

// wantJSONDoc fails the test unless r's stdout is one JSON document on
// one line, and returns it decoded.
func wantJSONDoc(t *testing.T, r result) map[string]any {
	t.Helper()
	line, rest, _ := strings.Cut(r.stdout, "\n")
	var v map[string]any
	if err := json.Unmarshal([]byte(line), &v); err != nil || rest != "" {
		t.Fatalf("a2a %s: stdout is not one JSON document on one line (%v):\n%s", strings.Join(r.args, " "), err, r.stdout)
	}
	return v
}

func TestCardGet(t *testing.T) {
	t.Parallel()
	v10 := demoAgent(t, a2a.ProtocolV10)
	v03 := newAgent(t, a2atest.WithCard(caoliaoCard()))
	text := a2aCmd(t, "card", "get", "-a", siteOfAgent(v10))
	text.wantCode(t, exitOK)
	old := a2aCmd(t, "card", "get", "-a", siteOfAgent(v03)+a2a.AgentCardPath, "--a2a-version", "0.3")
	old.wantCode(t, exitOK)
	// Without --a2a-version 0.3 a v0.3 card is still shown, no interface
	// chosen, and why on stderr.
	unchosen := a2aCmd(t, "card", "get", "-a", siteOfAgent(v03))
	unchosen.wantCode(t, exitOK)
	js := a2aCmd(t, "card", "get", "-a", siteOfAgent(v10), "-o", "json")
	js.wantCode(t, exitOK)
	golden(t, "card_get", text, old, unchosen, js)

	// -o json prints the card as the agent served it, compacted.
	card, err := a2a.ResolveAgentCard(t.Context(), siteOfAgent(v10))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(compact(card.Raw()))+"\n", js.stdout); diff != "" {
		t.Errorf("card get -o json (-agent's bytes +printed):\n%s", diff)
	}
	if js.stderr != "" {
		t.Errorf("card get -o json wrote to stderr: %s", js.stderr)
	}
	if !strings.Contains(text.stdout, "/a2a/jsonrpc JSONRPC 1.0 (chosen)\n") || strings.Contains(unchosen.stdout, "(chosen)") {
		t.Errorf("the chosen interface is not marked as it should be:\n%s\n%s", text.stdout, unchosen.stdout)
	}
}

func TestSend(t *testing.T) {
	t.Parallel()
	for _, version := range []string{a2a.ProtocolV10, a2a.ProtocolV03} {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			agent := demoAgent(t, version)
			flags := demoArgs(agent, version)
			var text, js []result
			for _, msg := range []string{"这个二维码是什么？" + a2atest.SeedQRCode, "你好", "查一台设备"} {
				r := a2aCmd(t, cmdArgs("send", flags, msg)...)
				r.wantCode(t, exitOK) // the spec's: whatever the task's outcome
				text = append(text, r)
				j := a2aCmd(t, cmdArgs("send -o json", flags, msg)...)
				j.wantCode(t, exitOK)
				wantJSONDoc(t, j)
				js = append(js, j)
			}
			name := "send_v" + version
			golden(t, name, text...)
			golden(t, name+"_json", js...)

			// The Resume line answers the question.
			asks := text[2]
			_, line, ok := strings.Cut(asks.stdout, "Resume: ")
			line = strings.TrimSuffix(line, "\n")
			want := "a2a send " + strings.Join(flags, " ") + " --task-id task-5 --context-id ctx-5 'ANSWER'"
			if !ok || line != want {
				t.Fatalf("Resume: %q, want %q\n%s", line, want, asks.stdout)
			}
			answer := a2aCmd(t, cmdArgs("send", flags, "--task-id", "task-5", "--context-id", "ctx-5", "A08-03-06")...)
			answer.wantCode(t, exitOK)
			if !strings.Contains(answer.stdout, "Task: task-5\nContext: ctx-5\nStatus: completed\n") {
				t.Errorf("the answer did not complete task-5:\n%s", answer.stdout)
			}
		})
	}
}

// TestSendJSONIsTheAgentsBytes: send -o json prints the agent's own
// reply, in v1.0 under "task" (its SendMessageResponse), in v0.3 as the
// Task itself.
func TestSendJSONIsTheAgentsBytes(t *testing.T) {
	t.Parallel()
	for _, version := range []string{a2a.ProtocolV10, a2a.ProtocolV03} {
		agent := demoAgent(t, version)
		r := a2aCmd(t, cmdArgs("send -o json", demoArgs(agent, version), "你好")...)
		r.wantCode(t, exitOK)
		c, err := a2a.NewClient(agent.URL, a2a.WithProtocolVersion(version))
		if err != nil {
			t.Fatal(err)
		}
		task, err := c.GetTask(t.Context(), "task-1")
		if err != nil {
			t.Fatal(err)
		}
		want := string(compact(task.Raw()))
		if version == a2a.ProtocolV10 {
			want = `{"task":` + want + `}`
		}
		if diff := cmp.Diff(want+"\n", r.stdout); diff != "" {
			t.Errorf("v%s: send -o json (-agent's task +printed):\n%s", version, diff)
		}
		if r.stderr != "a2a: the task failed\n" {
			t.Errorf("v%s: stderr %q, want the outcome named", version, r.stderr)
		}
	}
	a2a.CloseIdleConnections()
}

func TestSendMessageReply(t *testing.T) {
	t.Parallel()
	reply := a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		dp, _ := a2a.NewDataPart(map[string]int{"count": 2})
		return a2atest.Reply{Message: &a2a.Message{MessageID: "m-1", Role: a2a.RoleAgent, Parts: a2a.Parts{a2a.TextPart{Text: "你好，我是草料二维码助手"}, dp}}}
	})
	var results []result
	for _, version := range []string{a2a.ProtocolV10, a2a.ProtocolV03} {
		agent := demoAgent(t, version, reply)
		for _, out := range []string{"text", "json"} {
			r := a2aCmd(t, cmdArgs("send -o "+out, demoArgs(agent, version), "你好")...)
			r.wantCode(t, exitOK)
			results = append(results, r)
		}
	}
	golden(t, "send_message", results...)
	if v := wantJSONDoc(t, results[1]); v["message"] == nil {
		t.Errorf("v1.0 send -o json of a Message reply is not {\"message\":…}: %s", results[1].stdout)
	}
	if v := wantJSONDoc(t, results[3]); v["kind"] != "message" {
		t.Errorf("v0.3 send -o json of a Message reply is not the Message: %s", results[3].stdout)
	}
}

// TestSendAsync: --async sends without waiting (v1.0 returnImmediately,
// v0.3 blocking false), prints the task as the agent answered and what
// to run to wait for it, and exits 0 (12 with --task-exit-codes).
func TestSendAsync(t *testing.T) {
	t.Parallel()
	var results []result
	for _, version := range []string{a2a.ProtocolV10, a2a.ProtocolV03} {
		agent := demoAgent(t, version)
		for _, out := range []string{"text", "json"} {
			r := a2aCmd(t, cmdArgs("send --async -o "+out, demoArgs(agent, version), "本月巡检记录")...)
			r.wantCode(t, exitOK)
			results = append(results, r)
		}
		want := `"blocking":false`
		if version == a2a.ProtocolV10 {
			want = `"returnImmediately":true`
		}
		for _, r := range agent.Requests() {
			if r.Method != "" && !strings.Contains(string(r.Body), want) {
				t.Errorf("v%s: %s does not ask to return at once (%s): %s", version, r.Method, want, r.Body)
			}
		}
		if m := methods(agent); len(m) != 4 || m[1] != "SendMessage" && m[1] != "message/send" {
			t.Errorf("v%s: requests %q, want the card's GET and one send per command", version, m)
		}
		codes := a2aCmd(t, cmdArgs("send --async --task-exit-codes", demoArgs(agent, version), "本月巡检记录")...)
		codes.wantCode(t, exitTaskUnfinished)
	}
	golden(t, "send_async", results...)
}

// TestSendStream: --stream prints each event as it comes: fields and
// blocks, or JSON Lines of the agent's own events.
func TestSendStream(t *testing.T) {
	t.Parallel()
	var results []result
	for _, version := range []string{a2a.ProtocolV10, a2a.ProtocolV03} {
		agent := demoAgent(t, version)
		for _, out := range []string{"text", "json"} {
			r := a2aCmd(t, cmdArgs("send --stream -o "+out, demoArgs(agent, version), "本月巡检记录")...)
			r.wantCode(t, exitOK)
			results = append(results, r)
			if out == "json" {
				for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
					var v map[string]any
					if err := json.Unmarshal([]byte(line), &v); err != nil {
						t.Errorf("v%s: a line of --stream -o json is not JSON (%v): %q", version, err, line)
					}
				}
			}
		}
	}
	golden(t, "send_stream", results...)
	if !strings.HasPrefix(results[1].stdout, `{"task":{`) || !strings.HasPrefix(results[3].stdout, `{"kind":"task",`) {
		t.Errorf("the first event is not the agent's task (v1.0 StreamResponse, v0.3 event with kind):\n%s\n%s", results[1].stdout, results[3].stdout)
	}
}

// TestSendWaits: send waits by default, by stream when the card says the
// agent streams, else by polling; either way it prints the task once.
func TestSendWaits(t *testing.T) {
	t.Parallel()
	streams := demoAgent(t, a2a.ProtocolV10)
	noStream := demoCard()
	noStream.Capabilities.Streaming = false
	polls := newAgent(t, a2atest.V10(), a2atest.WithCard(noStream))
	byStream := a2aCmd(t, "send", "-a", siteOfAgent(streams), "本月巡检记录")
	byStream.wantCode(t, exitOK)
	byPoll := a2aCmd(t, "send", "-a", siteOfAgent(polls), "--poll-interval", "10ms", "本月巡检记录")
	byPoll.wantCode(t, exitOK)
	golden(t, "send_wait", byStream, byPoll)
	if diff := cmp.Diff([]string{"", "SendStreamingMessage", "GetTask"}, methods(streams)); diff != "" {
		t.Errorf("the wait by stream's requests (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"", "SendMessage", "GetTask", "GetTask", "GetTask"}, methods(polls)); diff != "" {
		t.Errorf("the wait by polling's requests (-want +got):\n%s", diff)
	}
}

// TestStreamJSONIsTheAgentsBytes: on A2A v1.0, --stream -o json prints
// each event as the agent sent it (a StreamResponse: one member naming
// the event, no v0.3 "kind" or "final", states as TASK_STATE_*), one
// compact object a line, the last the terminal status.
func TestStreamJSONIsTheAgentsBytes(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	r := a2aCmd(t, "send", "--stream", "-o", "json", "-a", siteOfAgent(agent), "本月巡检记录")
	r.wantCode(t, exitOK)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	for _, line := range lines {
		var ev map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &ev); err != nil || len(ev) != 1 {
			t.Fatalf("not one StreamResponse object a line (%v): %s", err, line)
		}
		for member := range ev {
			if !slices.Contains([]string{"task", "message", "statusUpdate", "artifactUpdate"}, member) {
				t.Errorf("member %q is not a StreamResponse's: %s", member, line)
			}
		}
		if strings.Contains(line, `"kind":`) || strings.Contains(line, `"final":`) || strings.Contains(line, `"state":"working"`) {
			t.Errorf("not the agent's v1.0 bytes: %s", line)
		}
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, `{"statusUpdate":`) || !strings.Contains(last, `"TASK_STATE_COMPLETED"`) {
		t.Errorf("the last line is not the terminal status: %s", last)
	}
}
