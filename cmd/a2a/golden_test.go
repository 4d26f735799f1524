package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// Every subcommand against a2atest's fake agent: what it prints and how
// it exits, compared with the transcripts in testdata/.

// caoliaoCard is the v0.3 card of a Caoliao-style agent.
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

func TestCard(t *testing.T) {
	t.Parallel()
	v03 := newAgent(t, a2atest.WithCard(caoliaoCard()))
	v10 := newAgent(t, a2atest.V10())
	r03 := a2aCmd(t, "card", siteOfAgent(v03))
	r03.wantCode(t, exitOK)
	r10 := a2aCmd(t, "card", siteOfAgent(v10)+a2a.AgentCardPath)
	r10.wantCode(t, exitOK)
	golden(t, "card", r03, r10)

	// --json prints the card as the agent served it.
	card, err := a2a.ResolveAgentCard(t.Context(), siteOfAgent(v10))
	if err != nil {
		t.Fatal(err)
	}
	r := a2aCmd(t, "card", "--json", siteOfAgent(v10))
	r.wantCode(t, exitOK)
	if diff := cmp.Diff(string(card.Raw())+"\n", r.stdout); diff != "" {
		t.Errorf("card --json (-agent's bytes +printed):\n%s", diff)
	}
}

func TestSend(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	entity := a2aCmd(t, "send", agent.URL, "这个二维码是什么？"+a2atest.SeedQRCode)
	entity.wantCode(t, exitOK)
	failed := a2aCmd(t, "send", agent.URL, "你好")
	failed.wantCode(t, exitFailed)
	asks := a2aCmd(t, "send", agent.URL, "查一台设备")
	asks.wantCode(t, exitInterrupted)
	golden(t, "send", entity, failed, asks)

	// The printed answer command answers the question.
	const want = "a2a send http://127.0.0.1:PORT/a2a/jsonrpc --task task-3 --context ctx-3 'ANSWER'"
	if !strings.Contains(stable(asks.stderr), want) {
		t.Fatalf("stderr does not show %q:\n%s", want, asks.stderr)
	}
	answer := a2aCmd(t, "send", agent.URL, "--task", "task-3", "--context", "ctx-3", "A08-03-06")
	answer.wantCode(t, exitOK)
	if !strings.Contains(answer.stdout, "task task-3: completed") {
		t.Errorf("the answer did not complete task-3:\n%s", answer.stdout)
	}
}

func TestSendMessageReply(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		dp, _ := a2a.NewDataPart(map[string]int{"count": 2})
		return a2atest.Reply{Message: &a2a.Message{MessageID: "m-1", Role: a2a.RoleAgent, Parts: a2a.Parts{a2a.TextPart{Text: "你好，我是草料二维码助手"}, dp}}}
	}))
	r := a2aCmd(t, "send", agent.URL, "你好")
	r.wantCode(t, exitOK)
	golden(t, "send_message", r)
}

func TestSendWait(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	r := a2aCmd(t, "send", "--wait", agent.URL, "本月巡检记录")
	r.wantCode(t, exitOK)
	golden(t, "send_wait", r)
	want := []string{"message/send", "tasks/get", "tasks/get", "tasks/get"}
	if diff := cmp.Diff(want, methods(agent)[len(methods(agent))-4:]); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestSendNoBlock(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	r := a2aCmd(t, "send", "--no-block", agent.URL, "本月巡检记录")
	r.wantCode(t, exitUnfinished)
	golden(t, "send_no_block", r)
	reqs := agent.Requests()
	if body := reqs[len(reqs)-1].Body; !strings.Contains(string(body), `"blocking":false`) {
		t.Errorf("the request does not ask for a non-blocking send: %s", body)
	}
}

func TestGet(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	id := startTask(t, agent, a2a.ProtocolV03, "这个二维码是什么？"+a2atest.SeedQRCode)
	r := a2aCmd(t, "get", agent.URL, id)
	r.wantCode(t, exitOK)
	golden(t, "get", r)

	// --json prints exactly the bytes of the agent's result.
	c, err := a2a.NewClient(agent.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer a2a.CloseIdleConnections()
	task, err := c.GetTask(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	j := a2aCmd(t, "get", "--json", agent.URL, id)
	j.wantCode(t, exitOK)
	if diff := cmp.Diff(string(task.Raw())+"\n", j.stdout); diff != "" {
		t.Errorf("get --json (-agent's bytes +printed):\n%s", diff)
	}
	if j.stderr != "" {
		t.Errorf("get --json wrote to stderr: %s", j.stderr)
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	agent := workingAgent(t)
	id := startTask(t, agent, a2a.ProtocolV03, "盘点")
	r := a2aCmd(t, "cancel", agent.URL, id)
	r.wantCode(t, exitOK) // cancel did what was asked: the task is canceled
	golden(t, "cancel", r)
}

func TestWait(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.CompletedTask("records", map[string]int{"total": 2}, a2atest.RecordsSummary),
			States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateCompleted}}
	}))
	id := startTask(t, agent, a2a.ProtocolV03, "本月巡检记录")
	done := a2aCmd(t, "wait", agent.URL, id)
	done.wantCode(t, exitOK)

	slow := workingAgent(t)
	id = startTask(t, slow, a2a.ProtocolV03, "盘点")
	out := a2aCmd(t, "wait", "--max-attempts", "1", slow.URL, id)
	out.wantCode(t, exitUnfinished)
	golden(t, "wait", done, out)
}

func TestTasks(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.V10())
	startTask(t, agent, a2a.ProtocolV10, "这个二维码是什么？"+a2atest.SeedQRCode)
	startTask(t, agent, a2a.ProtocolV10, "你好")
	r := a2aCmd(t, "tasks", agent.URL)
	r.wantCode(t, exitOK)

	v03 := newAgent(t)
	old := a2aCmd(t, "tasks", "--protocol", "0.3", v03.URL)
	old.wantCode(t, exitError)
	golden(t, "tasks", r, old)
	if n := len(v03.Requests()); n != 0 {
		t.Errorf("tasks on a v0.3 client sent %d requests, want none", n)
	}
}

func TestStream(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	r := a2aCmd(t, "stream", agent.URL, "本月巡检记录")
	r.wantCode(t, exitOK)
	golden(t, "stream", r)
}

func TestResubscribe(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	id := startTask(t, agent, a2a.ProtocolV03, "本月巡检记录")
	r := a2aCmd(t, "resubscribe", agent.URL, id)
	r.wantCode(t, exitOK)
	golden(t, "resubscribe", r)
}

const (
	pushToken = "tok-9f8e7d"
	pushCreds = "cred-5a4b3c"
)

func TestPush(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	id := startTask(t, agent, a2a.ProtocolV03, "这个二维码是什么？"+a2atest.SeedQRCode)
	set := a2aCmd(t, "push", "set", agent.URL, id, "https://hooks.example.com/a2a?sig=abc",
		"--token", pushToken, "--scheme", "Bearer", "--credentials", pushCreds)
	set.wantCode(t, exitOK)
	get := a2aCmd(t, "push", "get", agent.URL, id, "cfg-1")
	get.wantCode(t, exitOK)
	list := a2aCmd(t, "push", "list", agent.URL, id)
	list.wantCode(t, exitOK)
	del := a2aCmd(t, "push", "delete", agent.URL, id, "cfg-1")
	del.wantCode(t, exitOK)
	after := a2aCmd(t, "push", "list", agent.URL, id)
	after.wantCode(t, exitOK)
	golden(t, "push", set, get, list, del, after)

	// The token and credentials reached the agent and went no further.
	var sent string
	for _, r := range agent.Requests() {
		if r.Method == "tasks/pushNotificationConfig/set" {
			sent = string(r.Body)
		}
	}
	if !strings.Contains(sent, pushToken) || !strings.Contains(sent, pushCreds) {
		t.Errorf("push set did not send the token and credentials: %s", sent)
	}
	for _, r := range []result{set, get, list, del, after} {
		noSecret(t, r, pushToken, pushCreds, "sig=abc")
	}
}

func TestData(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		d, _ := m.Parts.Data()
		var v any
		json.Unmarshal(d.Data, &v)
		return a2atest.Reply{Task: a2atest.CompletedTask("echo", map[string]any{"got": v}, m.Parts.Text())}
	}))
	dir := t.TempDir()
	in := filepath.Join(dir, "in.json")
	if err := os.WriteFile(in, []byte(`{"code":"A08-03-06","fields":["状态"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	file := a2aCmd(t, "send", agent.URL, "查询", "--data", in, "--data-out", out)
	file.wantCode(t, exitOK)
	stdin := invocation{stdin: `[1, 2, 3]`}.run(t, "send", "--data", "-", agent.URL, "查询")
	stdin.wantCode(t, exitOK)
	golden(t, "data", file.replace(dir, "DIR"), stdin)

	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"got\": {\n    \"code\": \"A08-03-06\",\n    \"fields\": [\n      \"状态\"\n    ]\n  }\n}\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("--data-out file (-want +got):\n%s", diff)
	}

	// A task that is not completed has no data to write: it ends as its
	// state says, with what to do next.
	for _, tc := range []struct {
		text   string
		code   int
		stderr string
	}{
		{"查一台设备", exitInterrupted, "answer with:"},
		{"你好", exitFailed, ""},
		{"本月巡检记录", exitUnfinished, "wait for it with:"},
	} {
		r := a2aCmd(t, "send", newAgent(t).URL, tc.text, "--data-out", out)
		r.wantCode(t, tc.code)
		if !strings.Contains(r.stderr, tc.stderr) || strings.Contains(r.stderr, "--data-out") {
			t.Errorf("a2a send %s --data-out: stderr:\n%s", tc.text, r.stderr)
		}
	}

	// A completed task without a data part leaves --data-out unwritten: exit 1.
	none := newAgent(t, a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateCompleted, "好")}
	}))
	missing := filepath.Join(dir, "missing.json")
	r := a2aCmd(t, "send", none.URL, "查询", "--data-out", missing)
	r.wantCode(t, exitError)
	if _, err := os.Stat(missing); err == nil {
		t.Error("--data-out wrote a file for a task without data")
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	help := a2aCmd(t, "help")
	help.wantCode(t, exitOK)
	golden(t, "help", help)
	for _, args := range [][]string{{}, {"-h"}, {"--help"}} {
		r := a2aCmd(t, args...)
		if want := map[bool]int{true: exitUsage, false: exitOK}[len(args) == 0]; r.code != want {
			t.Errorf("a2a %v: exit %d, want %d", args, r.code, want)
		}
		if r.stdout != help.stdout {
			t.Errorf("a2a %v does not print the help", args)
		}
	}
	// A command's own -h lists its flags and exits 0.
	r := a2aCmd(t, "send", "-h")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stderr, "-wait") {
		t.Errorf("a2a send -h does not list --wait:\n%s", r.stderr)
	}
}

// TestTasksLimit: a listing stopped at --limit exits "not finished" and
// prints the command that lists on from the next page, which then lists
// the rest.
func TestTasksLimit(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.V10())
	for _, text := range []string{"一", "二", "三"} {
		startTask(t, agent, a2a.ProtocolV10, text)
	}
	r := a2aCmd(t, "tasks", "--page-size", "1", "--limit", "2", agent.URL)
	r.wantCode(t, exitUnfinished)
	_, line, ok := strings.Cut(r.stderr, "  a2a tasks ")
	if !ok || !strings.Contains(r.stdout, "2 tasks") {
		t.Fatalf("no listing of 2 tasks and no command to list on:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	_, token, ok := strings.Cut(strings.TrimSpace(line), "--page-token ")
	if !ok || token == "" {
		t.Fatalf("no page token in %q", line)
	}
	if !strings.HasPrefix(line, "--page-size 1 --limit 2 ") {
		t.Errorf("the command to list on drops the listing's flags: %q", line)
	}
	rest := a2aCmd(t, "tasks", "--page-size", "1", "--page-token", strings.Trim(token, "'"), agent.URL)
	rest.wantCode(t, exitOK)
	if !strings.Contains(rest.stdout, "1 task\n") {
		t.Errorf("listing on gave:\n%s\n%s", rest.stdout, rest.stderr)
	}
}

// TestResumeReachesTheSameAgent: the printed resume and answer lines
// carry the flags that reach the agent as the command did (the protocol
// chosen, the tenant, the agent selector, the workspace), so that pasted
// they ask the same agent; a secret is never among them.
func TestResumeReachesTheSameAgent(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	agent.Enqueue(rpcResult(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}`),
		rpcResult(`{"kind":"task","id":"t2","contextId":"c2","status":{"state":"input-required"}}`))
	flags := []string{"--protocol", "0.3", "--agent-id", "AG1", "--workspace", "ws-9", "--api-key", secretKey}
	r := a2aCmd(t, append([]string{"send", agent.URL, "你好"}, flags...)...)
	r.wantCode(t, exitUnfinished)
	same := " --protocol 0.3 --agent-id AG1 --workspace ws-9 "
	if !strings.Contains(r.stderr, "\n  a2a wait"+same+agent.URL+" t1\n") {
		t.Errorf("wait line lacks the agent's flags:\n%s", r.stderr)
	}
	r = a2aCmd(t, append([]string{"send", agent.URL, "你好"}, flags...)...)
	r.wantCode(t, exitInterrupted)
	if !strings.Contains(r.stderr, "\n  a2a send"+same+agent.URL+" --task t2 --context c2 'ANSWER'\n") {
		t.Errorf("answer line lacks the agent's flags:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, secretKey) {
		t.Errorf("a line shows the key:\n%s", r.stderr)
	}
}

// TestCardFromEndpoint: `a2a card` given the agent's JSON-RPC endpoint
// finds the card at the site's root, and -v names each URL tried with its
// status, without the URL's secrets.
func TestCardFromEndpoint(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.WithCard(caoliaoCard()))
	site := a2aCmd(t, "card", siteOfAgent(agent))
	site.wantCode(t, exitOK)
	r := a2aCmd(t, "card", "-v", agent.URL+"?key=q-secret-value")
	r.wantCode(t, exitOK)
	if r.stdout != site.stdout {
		t.Errorf("card of the endpoint:\n%s\nwant the site's:\n%s", r.stdout, site.stdout)
	}
	if strings.Contains(r.stderr, "secret") {
		t.Errorf("-v shows the URL's secret:\n%s", r.stderr)
	}
	for _, want := range []string{
		"url=" + agent.URL + a2a.AgentCardPath + " status=404",
		"url=" + siteOfAgent(agent) + "/a2a" + a2a.AgentCardPath + " status=404",
		"url=" + siteOfAgent(agent) + a2a.AgentCardPath + " status=200",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("-v does not say %q:\n%s", want, r.stderr)
		}
	}

	// Without a card, the error names every URL tried.
	none := newAgent(t)
	r = a2aCmd(t, "card", none.URL)
	r.wantCode(t, exitError)
	for _, p := range []string{none.URL + a2a.AgentCardPath, siteOfAgent(none) + "/a2a" + a2a.AgentCardPath, siteOfAgent(none) + a2a.AgentCardPath,
		none.URL + a2a.LegacyAgentCardPath, siteOfAgent(none) + a2a.LegacyAgentCardPath} {
		if !strings.Contains(r.stderr, " "+p+" (HTTP 404)") {
			t.Errorf("the error does not name %s:\n%s", p, r.stderr)
		}
	}
}
