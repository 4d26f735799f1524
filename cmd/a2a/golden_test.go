package main

import (
	"encoding/json"
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
	opts = append([]a2atest.Option{a2atest.WithCard(fakeCard())}, opts...)
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
		if r.stderr != "a2a: the task ended failed\n" {
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
	noStream := fakeCard()
	noStream.Capabilities.Streaming = false
	polls := newAgent(t, a2atest.V10(), a2atest.WithCard(noStream))
	byStream := a2aCmd(t, "send", "-a", siteOfAgent(streams), "本月巡检记录")
	byStream.wantCode(t, exitOK)
	byPoll := a2aCmd(t, "send", "-a", siteOfAgent(polls), "--poll-interval", "1ms", "本月巡检记录")
	byPoll.wantCode(t, exitOK)
	golden(t, "send_wait", byStream, byPoll)
	if diff := cmp.Diff([]string{"", "SendStreamingMessage", "GetTask"}, methods(streams)); diff != "" {
		t.Errorf("the wait by stream's requests (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"", "SendMessage", "GetTask", "GetTask", "GetTask"}, methods(polls)); diff != "" {
		t.Errorf("the wait by polling's requests (-want +got):\n%s", diff)
	}
}

// TestTaskGet: task get prints a task; -o json the agent's own bytes;
// a task not finished is named, with the command that waits for it.
func TestTaskGet(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	id := startTask(t, agent, a2a.ProtocolV10, "这个二维码是什么？"+a2atest.SeedQRCode)
	text := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), id)
	text.wantCode(t, exitOK)
	js := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), id, "-o", "json")
	js.wantCode(t, exitOK)
	running := startTask(t, agent, a2a.ProtocolV10, "本月巡检记录")
	unfinished := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), running)
	unfinished.wantCode(t, exitOK)
	codes := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), running, "--task-exit-codes")
	codes.wantCode(t, exitTaskUnfinished)
	golden(t, "task_get", text, js, unfinished)

	c, err := a2a.NewClient(agent.URL, a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		t.Fatal(err)
	}
	defer a2a.CloseIdleConnections()
	task, err := c.GetTask(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(compact(task.Raw()))+"\n", js.stdout); diff != "" {
		t.Errorf("task get -o json (-agent's bytes +printed):\n%s", diff)
	}
	if js.stderr != "" {
		t.Errorf("task get -o json wrote to stderr: %s", js.stderr)
	}
}

// TestTaskGetWait: task get --wait polls until the task ends and prints
// it; -o json the last task the agent sent.
func TestTaskGetWait(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	var results []result
	for _, out := range []string{"text", "json"} {
		id := startTask(t, agent, a2a.ProtocolV10, "本月巡检记录")
		r := a2aCmd(t, "task", "get", "--wait", "-a", siteOfAgent(agent), "--poll-interval", "1ms", "-o", out, id)
		r.wantCode(t, exitOK)
		results = append(results, r)
	}
	golden(t, "task_get_wait", results...)
	if v := wantJSONDoc(t, results[1]); v["id"] != "task-2" {
		t.Errorf("task get --wait -o json is not the task: %s", results[1].stdout)
	}

	// On a terminal, stderr shows a progress line, rewritten in place and
	// cleared at the end; stdout is the same as without one.
	id := startTask(t, agent, a2a.ProtocolV10, "本月巡检记录")
	tty := invocation{tty: true}.run(t, "task", "get", "--wait", "-a", siteOfAgent(agent), "--poll-interval", "1ms", id)
	tty.wantCode(t, exitOK)
	if want := "\r\x1b[Kpoll 1: working, "; !strings.HasPrefix(tty.stderr, want) || !strings.HasSuffix(tty.stderr, "\r\x1b[K") {
		t.Errorf("stderr on a terminal: %q, want progress lines starting %q and cleared", tty.stderr, want)
	}
	if strings.NewReplacer("task-3", "task-1", "ctx-3", "ctx-1").Replace(tty.stdout) != results[0].stdout || id != "task-3" {
		t.Errorf("stdout on a terminal differs:\n%s", tty.stdout)
	}
}

func TestTaskCancel(t *testing.T) {
	t.Parallel()
	agent := workingAgent(t, a2atest.V10(), a2atest.WithCard(fakeCard()))
	var results []result
	for _, out := range []string{"text", "json"} {
		id := startTask(t, agent, a2a.ProtocolV10, "盘点")
		r := a2aCmd(t, "task", "cancel", "-a", siteOfAgent(agent), "-o", out, "--task-exit-codes", id)
		r.wantCode(t, exitOK) // it did what was asked: the task is canceled
		results = append(results, r)
	}
	golden(t, "task_cancel", results...)
}

// TestTaskList: task list prints one page and the command that reads the
// next; that command reads it. v0.3's JSON-RPC has no ListTasks: refused
// before anything is sent.
func TestTaskList(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	for _, text := range []string{"这个二维码是什么？" + a2atest.SeedQRCode, "你好", "查一台设备"} {
		startTask(t, agent, a2a.ProtocolV10, text)
	}
	text := a2aCmd(t, "task", "list", "-a", siteOfAgent(agent))
	text.wantCode(t, exitOK)
	js := a2aCmd(t, "task", "list", "-a", siteOfAgent(agent), "-o", "json")
	js.wantCode(t, exitOK)
	page := a2aCmd(t, "task", "list", "-a", siteOfAgent(agent), "--page-size", "2")
	page.wantCode(t, exitOK)
	_, next, ok := strings.Cut(page.stdout, "Next page: ")
	if !ok {
		t.Fatalf("no Next page line:\n%s", page.stdout)
	}
	words := strings.Fields(next)
	want := []string{"a2a", "task", "list", "-a", siteOfAgent(agent), "--page-size", "2", "--page-token"}
	if len(words) != len(want)+1 || !cmp.Equal(words[:len(want)], want) {
		t.Fatalf("Next page: %q, want %q TOKEN", next, want)
	}
	rest := a2aCmd(t, append(words[1:len(words)-1], strings.Trim(words[len(words)-1], "'"))...)
	rest.wantCode(t, exitOK)
	if !strings.HasSuffix(rest.stdout, "Tasks: 1\n") {
		t.Errorf("the next page:\n%s", rest.stdout)
	}
	v03 := demoAgent(t, a2a.ProtocolV03)
	old := a2aCmd(t, "task", "list", "-a", siteOfAgent(v03), "--a2a-version", "0.3")
	old.wantCode(t, exitError)
	golden(t, "task_list", text, js, page, old)
	if m := methods(v03); len(m) != 1 || m[0] != "" {
		t.Errorf("task list on a v0.3 JSON-RPC agent sent %q, want its card's GET alone", m)
	}
	if v := wantJSONDoc(t, js); v["tasks"] == nil {
		t.Errorf("task list -o json is not the agent's ListTasksResponse: %s", js.stdout)
	}
}

// TestTaskSubscribe: task subscribe follows a running task to its end
// and prints it (-o json: the task the agent then gives GetTask); with
// --stream each event as it comes.
func TestTaskSubscribe(t *testing.T) {
	t.Parallel()
	var results []result
	for _, version := range []string{a2a.ProtocolV10, a2a.ProtocolV03} {
		agent := demoAgent(t, version)
		for _, flags := range []string{"", "-o json", "--stream", "--stream -o json"} {
			id := startTask(t, agent, version, "本月巡检记录")
			r := a2aCmd(t, cmdArgs("task subscribe "+flags, demoArgs(agent, version), id)...)
			r.wantCode(t, exitOK)
			results = append(results, r)
		}
	}
	golden(t, "task_subscribe", results...)
}

const (
	pushToken = "tok-9f8e7d"
	pushCreds = "cred-5a4b3c"
)

// TestPushConfig: task push-config create, get, list and delete, in text
// and -o json; the token and the credentials reach the agent and are
// never printed, nor the webhook's query.
func TestPushConfig(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	id := startTask(t, agent, a2a.ProtocolV10, "这个二维码是什么？"+a2atest.SeedQRCode)
	a := []string{"-a", siteOfAgent(agent)}
	var results []result
	for _, out := range []string{"text", "json"} {
		o := []string{"-o", out}
		for _, args := range [][]string{
			cmdArgs("task push-config create", a, append(o, id, "https://hooks.example.com/a2a?sig=abc", "--config-id", "cfg-"+out,
				"--token", pushToken, "--scheme", "Bearer", "--credentials", pushCreds)...),
			cmdArgs("task push-config get", a, append(o, id, "cfg-"+out)...),
			cmdArgs("task push-config list", a, append(o, id)...),
			cmdArgs("task push-config delete", a, append(o, id, "cfg-"+out)...),
			cmdArgs("task push-config list", a, append(o, id)...),
		} {
			r := a2aCmd(t, args...)
			r.wantCode(t, exitOK)
			results = append(results, r)
		}
	}
	golden(t, "task_push_config", results...)

	var sent string
	for _, r := range agent.Requests() {
		if r.Method == "CreateTaskPushNotificationConfig" {
			sent = string(r.Body)
		}
	}
	if !strings.Contains(sent, pushToken) || !strings.Contains(sent, pushCreds) {
		t.Errorf("push-config create did not send the token and credentials: %s", sent)
	}
	for _, r := range results {
		for _, secret := range []string{pushToken, pushCreds, "sig=abc"} {
			if strings.Contains(r.stdout+r.stderr, secret) {
				t.Errorf("a2a %s shows %q:\n%s", strings.Join(r.args, " "), secret, r.transcript())
			}
		}
	}
}

// TestErrorEnvelope: a failed command says why on stderr, and with
// -o json prints the error envelope as its one document on stdout.
//
// TODO(classify): the code of a missing task is A2ACLI_ERR_INTERNAL
// while zz_stubs.go stands in for the error classification; once it
// merges it is TaskNotFoundError with a2aCode -32001: regenerate
// testdata/error.txt with -update and review it.
func TestErrorEnvelope(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	missing := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), "-o", "json", "no-such-task")
	missing.wantCode(t, exitError)
	text := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), "no-such-task")
	text.wantCode(t, exitError)
	usage := a2aCmd(t, "task", "list", "-a", siteOfAgent(agent), "-o", "json", "--page-size", "101")
	usage.wantCode(t, exitUsage)
	golden(t, "error", missing, text, usage)
	for _, r := range []result{missing, usage} {
		v := wantJSONDoc(t, r)
		e, ok := v["error"].(map[string]any)
		if !ok || len(v) != 1 {
			t.Fatalf("not an error envelope: %s", r.stdout)
		}
		for _, k := range []string{"code", "message", "hint", "a2aCode"} {
			if _, ok := e[k]; !ok {
				t.Errorf("the envelope has no %q: %s", k, r.stdout)
			}
		}
		if !strings.HasPrefix(r.stderr, "a2a task ") || !strings.Contains(r.stderr, ": "+e["code"].(string)+": ") {
			t.Errorf("stderr does not say the error as the envelope does:\n%s", r.stderr)
		}
	}
	if e := wantJSONDoc(t, usage)["error"].(map[string]any); e["code"] != "A2ACLI_ERR_USAGE" || e["a2aCode"] != nil {
		t.Errorf("a usage error's envelope: %s", usage.stdout)
	}
}

// TestHelp: --help, -h and help print the tool's usage on stdout and
// exit 0 (no arguments: usage, exit 2); a command's --help (or "help
// COMMAND") lists its flags with their effective defaults.
func TestHelp(t *testing.T) {
	t.Parallel()
	help := a2aCmd(t, "--help")
	help.wantCode(t, exitOK)
	send := a2aCmd(t, "send", "--help")
	send.wantCode(t, exitOK)
	golden(t, "help", help, send)
	for _, args := range [][]string{{}, {"-h"}, {"help"}, {"task", "--help"}} {
		r := a2aCmd(t, args...)
		if want := map[bool]int{true: exitUsage, false: exitOK}[len(args) == 0]; r.code != want {
			t.Errorf("a2a %v: exit %d, want %d", args, r.code, want)
		}
		if r.stdout != help.stdout {
			t.Errorf("a2a %v does not print the help", args)
		}
	}
	for _, args := range [][]string{{"help", "send"}, {"send", "-h"}} {
		r := a2aCmd(t, args...)
		r.wantCode(t, exitOK)
		if r.stdout != send.stdout {
			t.Errorf("a2a %v is not send's help:\n%s", args, r.stdout)
		}
	}
	// --help after other flags: the help, with the values they give.
	r := a2aCmd(t, "send", "-a", "example.com", "--help")
	r.wantCode(t, exitOK)
	if !strings.HasPrefix(r.stdout, "Usage: a2a send ") || !strings.Contains(r.stdout, " (example.com") {
		t.Errorf("a2a send -a example.com --help:\n%s", r.stdout)
	}
	// The effective default, and where it came from.
	r = invocation{env: map[string]string{"A2ACLI_TIMEOUT": "30s"}}.run(t, "task", "get", "--help")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "(30s, from the environment) [A2ACLI_TIMEOUT]") {
		t.Errorf("task get --help does not show A2ACLI_TIMEOUT's value:\n%s", r.stdout)
	}
}

// TestRenamed: a command or flag of the releases before the A2A CLI
// specification is a usage error that names what replaced it.
func TestRenamed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"get", "t1"}, `"get" is now "a2a task get"`},
		{[]string{"wait", "t1"}, `"wait" is now "a2a task get --wait"`},
		{[]string{"tasks"}, `"tasks" is now "a2a task list"`},
		{[]string{"stream", "hi"}, `"stream" is now "a2a send --stream"`},
		{[]string{"resubscribe", "t1"}, `"resubscribe" is now "a2a task subscribe"`},
		{[]string{"push", "list", "t1"}, `"push" is now "a2a task push-config"`},
		{[]string{"fake-agent"}, `"fake-agent" is now "a2a demo-server"`},
		{[]string{"card", "-a", "example.com"}, `"card" needs a subcommand: get`},
		{[]string{"send", "--json", "hi"}, "unknown flag --json"},
		{[]string{"send", "--protocol", "0.3", "hi"}, "unknown flag --protocol"},
		{[]string{"send", "--no-block", "hi"}, "unknown flag --no-block"},
	} {
		r := a2aCmd(t, tc.args...)
		r.wantCode(t, exitUsage)
		if !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
			t.Errorf("a2a %s: stderr does not hold %q (or stdout is not empty):\n%s", strings.Join(tc.args, " "), tc.want, r.transcript())
		}
	}
}

// TestResumeReachesTheSameAgent: the printed Resume lines carry the
// flags that reach the agent as the command did (the card, the version,
// the agent selector, the workspace), so that pasted they ask the same
// agent; a secret is never among them, nor a flag that came from the
// environment (it comes from there again).
func TestResumeReachesTheSameAgent(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	raw := func(task string) a2atest.Raw {
		return a2atest.Raw{Status: 200, ContentType: "application/json", EchoID: true, Body: `{"jsonrpc":"2.0","id":{{id}},"result":` + task + `}`}
	}
	agent.Enqueue(raw(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}`),
		raw(`{"kind":"task","id":"t2","contextId":"c2","status":{"state":"input-required"}}`))
	const key = "key-7c6b5a"
	flags := []string{"-e", agent.URL, "--a2a-version", "0.3", "--agent-id", "AG1", "--workspace", "ws-9", "--api-key", key}
	same := " -e " + agent.URL + " --a2a-version 0.3 --agent-id AG1 --workspace ws-9"
	r := a2aCmd(t, append([]string{"send", "--async", "你好"}, flags...)...)
	r.wantCode(t, exitOK)
	if want := "\nResume: a2a task get --wait" + same + " t1\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("the Resume line lacks the agent's flags, want %q:\n%s", want, r.stdout)
	}
	r = invocation{env: map[string]string{"A2ACLI_API_KEY": key, "A2ACLI_WORKSPACE": "ws-9"}}.run(t, append([]string{"send", "你好"}, flags[:6]...)...)
	r.wantCode(t, exitOK)
	if want := "\nResume: a2a send -e " + agent.URL + " --a2a-version 0.3 --agent-id AG1 --task-id t2 --context-id c2 'ANSWER'\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("the Resume line, want %q:\n%s", want, r.stdout)
	}
	for _, req := range agent.Requests() {
		if req.Header.Get("X-API-Key") != key || req.Header.Get("X-Workspace-ID") != "ws-9" {
			t.Errorf("%s was sent without the key or the workspace: %v", req.Method, req.Header)
		}
	}
	if strings.Contains(r.stdout+r.stderr, key) {
		t.Errorf("a line shows the key:\n%s", r.transcript())
	}
}

// TestCardFromEndpoint: card get given the agent's JSON-RPC endpoint
// finds the card at the site's root, and --debug names each URL tried
// with its status, without the URL's secrets; without a card, the error
// names every URL tried and exits 3.
func TestCardFromEndpoint(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.WithCard(caoliaoCard()))
	site := a2aCmd(t, "card", "get", "-a", siteOfAgent(agent))
	site.wantCode(t, exitOK)
	r := a2aCmd(t, "card", "get", "--debug", "-a", agent.URL+"?key=q-secret-value")
	r.wantCode(t, exitOK)
	if r.stdout != site.stdout {
		t.Errorf("card of the endpoint:\n%s\nwant the site's:\n%s", r.stdout, site.stdout)
	}
	if strings.Contains(r.stderr, "secret") {
		t.Errorf("--debug shows the URL's secret:\n%s", r.stderr)
	}
	for _, want := range []string{
		"url=" + agent.URL + a2a.AgentCardPath + " status=404",
		"url=" + siteOfAgent(agent) + "/a2a" + a2a.AgentCardPath + " status=404",
		"url=" + siteOfAgent(agent) + a2a.AgentCardPath + " status=200",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("--debug does not say %q:\n%s", want, r.stderr)
		}
	}

	none := newAgent(t)
	r = a2aCmd(t, "card", "get", "-a", none.URL)
	r.wantCode(t, exitUnreachable)
	for _, p := range []string{none.URL + a2a.AgentCardPath, siteOfAgent(none) + "/a2a" + a2a.AgentCardPath, siteOfAgent(none) + a2a.AgentCardPath,
		none.URL + a2a.LegacyAgentCardPath, siteOfAgent(none) + a2a.LegacyAgentCardPath} {
		if !strings.Contains(r.stderr, " "+p+" (HTTP 404)") {
			t.Errorf("the error does not name %s:\n%s", p, r.stderr)
		}
	}
	if !strings.Contains(r.stderr, "A2ACLI_ERR_CARD_NOT_FOUND") || !strings.Contains(r.stderr, "hint: ") {
		t.Errorf("not A2ACLI_ERR_CARD_NOT_FOUND with a hint:\n%s", r.stderr)
	}
}

// TestCommandLine: flags go before or after the positional arguments,
// "--" ends them (a text that starts with "-" is sent as it is), each
// flag reads its A2ACLI_ variable when not given, and the flag wins over
// the variable; --stream is never read from the environment.
func TestCommandLine(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	site := siteOfAgent(agent)
	dash := a2aCmd(t, "send", "-a", site, "--", "-o")
	dash.wantCode(t, exitOK)
	if !strings.HasPrefix(dash.stdout, "Task: task-1\n") {
		t.Errorf("a2a send -a SITE -- -o: not text output:\n%s", dash.stdout)
	}
	if body := string(agent.Requests()[len(agent.Requests())-2].Body); !strings.Contains(body, `"text":"-o"`) {
		t.Errorf("the text after -- was not sent as it is: %s", body)
	}
	after := a2aCmd(t, "task", "get", "task-1", "-a", site, "-o", "json")
	after.wantCode(t, exitOK)
	if v := wantJSONDoc(t, after); v["id"] != "task-1" {
		t.Errorf("flags after the task id: %s", after.stdout)
	}
	vars := map[string]string{"A2ACLI_AGENT_CARD": site, "A2ACLI_OUTPUT": "json", "A2ACLI_STREAM": "true", "A2ACLI_TASK_EXIT_CODES": "true"}
	fromEnv := invocation{env: vars}.run(t, "task", "get", "task-1")
	fromEnv.wantCode(t, exitTaskFailed) // A2ACLI_TASK_EXIT_CODES: task-1 failed
	if fromEnv.stdout != after.stdout {
		t.Errorf("A2ACLI_AGENT_CARD and A2ACLI_OUTPUT: got\n%s\nwant\n%s", fromEnv.stdout, after.stdout)
	}
	flagWins := invocation{env: vars}.run(t, "task", "get", "task-1", "-o", "text")
	flagWins.wantCode(t, exitTaskFailed)
	if !strings.HasPrefix(flagWins.stdout, "Task: task-1\n") {
		t.Errorf("-o text does not win over A2ACLI_OUTPUT=json:\n%s", flagWins.stdout)
	}
	send := invocation{env: vars}.run(t, "send", "你好")
	send.wantCode(t, exitTaskFailed)
	if strings.Count(send.stdout, "\n") != 1 || strings.Contains(send.stdout, "statusUpdate") {
		t.Errorf("A2ACLI_STREAM was read: want one document, not JSON Lines:\n%s", send.stdout)
	}
	// A --svc-param with a control character is refused before anything
	// is sent.
	before := len(agent.Requests())
	bad := a2aCmd(t, "task", "get", "-a", site, "task-1", "--svc-param", "X-Trace:a\x01b")
	bad.wantCode(t, exitUsage)
	if n := len(agent.Requests()) - before; n != 0 || !strings.Contains(bad.stderr, "control character") {
		t.Errorf("--svc-param with a control character: %d requests sent\n%s", n, bad.stderr)
	}
}

// TestStreamJSONIsTheAgentsBytes: on A2A v1.0, --stream -o json prints
// each event as the agent sent it (a StreamResponse: no v0.3 "kind" or
// "final", states as TASK_STATE_*), and a Message reply likewise.
func TestStreamJSONIsTheAgentsBytes(t *testing.T) {
	t.Parallel()
	// TODO(raw events): the package keeps the agent's bytes of a Task
	// only (Task.Raw); a Message, a TaskStatusUpdateEvent and a
	// TaskArtifactUpdateEvent are printed as the package encodes them,
	// in v0.3's shape, under v1.0's member names. It needs Raw on those
	// types in the root package (out of the CLI's reach).
	t.Skip("TODO(raw events): v1.0 messages and update events are re-encoded in v0.3's shape; see the comment")
	agent := demoAgent(t, a2a.ProtocolV10)
	r := a2aCmd(t, "send", "--stream", "-o", "json", "-a", siteOfAgent(agent), "本月巡检记录")
	r.wantCode(t, exitOK)
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
		if strings.Contains(line, `"kind":`) || strings.Contains(line, `"final":`) || strings.Contains(line, `"state":"working"`) {
			t.Errorf("not the agent's v1.0 bytes: %s", line)
		}
	}
}
