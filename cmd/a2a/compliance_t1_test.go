package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// Tier 1 (Core) requirements of the A2A CLI specification v0.2.

// TestSpecCardGetReferences: A2ACLI_CARD_GET_001. One card reached as a
// bare host:port, an origin URL, the card's URL and a card file: the
// first three read the well-known path, a card URL is read as it is, and
// the file reads no network; the card then drives the binding chosen.
func TestSpecCardGetReferences(t *testing.T) {
	agent := specAgent(t, a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC))
	site := agent.BaseURL()
	host := strings.TrimPrefix(site, "http://")
	for _, ref := range []string{host, site, site + "/", site + a2a.AgentCardPath} {
		before := len(agent.Requests())
		r := specRun(t, "card", "get", "-a", ref).want(t, exitOK)
		got := agent.Requests()[before:]
		if len(got) != 1 || got[0].HTTPMethod != "GET" || got[0].Path != a2a.AgentCardPath {
			t.Errorf("card get -a %s: requests %v, want one GET %s", ref, got, a2a.AgentCardPath)
		}
		// The card's first interface (HTTP+JSON) is the one chosen.
		if line := specLine(r.stdout, "Interface: ", agent.Endpoint(a2a.TransportHTTPJSON)); !specChosen(line) {
			t.Errorf("card get -a %s: the card's first interface is not marked chosen:\n%s", ref, r.stdout)
		}
	}

	// A card URL is read as it is, wherever it is.
	other := specAgent(t, a2atest.WithCard(specCard(a2a.AgentCapabilities{}), "/cards/agent.json"))
	specRun(t, "card", "get", "-a", other.BaseURL()+"/cards/agent.json").want(t, exitOK)
	if got := other.Requests(); len(got) != 1 || got[0].Path != "/cards/agent.json" {
		t.Errorf("card URL: requests %v, want one GET /cards/agent.json", got)
	}

	// A card file, as a path and as a file:// URL: no network for the card,
	// and the card chooses where the command goes (its HTTP+JSON entry).
	card := specCard(a2a.AgentCapabilities{},
		a2a.AgentInterface{URL: agent.Endpoint(a2a.TransportHTTPJSON), ProtocolBinding: a2a.TransportHTTPJSON, ProtocolVersion: "1.0"},
		a2a.AgentInterface{URL: agent.Endpoint(a2a.TransportJSONRPC), ProtocolBinding: a2a.TransportJSONRPC, ProtocolVersion: "1.0"})
	b, err := json.Marshal(card)
	if err != nil {
		t.Fatal(err)
	}
	w := newSpecWorld(t)
	path := filepath.Join(w.dir, "agent.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	before := len(agent.Requests())
	for _, ref := range []string{path, "file://" + path} {
		r := w.run(t, "card", "get", "-a", ref).want(t, exitOK)
		if r.field("Name") != "spec agent" {
			t.Errorf("card get -a %s: no Name: spec agent:\n%s", ref, r.stdout)
		}
	}
	if got := agent.Requests()[before:]; len(got) != 0 {
		t.Errorf("card get from a file sent %d requests: %v", len(got), got)
	}
	id := specStartTask(t, agent)
	w.run(t, "task", "get", "-a", path, id).want(t, exitOK)
	got := specCalls(agent)
	if last := got[len(got)-1]; last.Method != "GetTask" || !strings.HasPrefix(last.Path, "/a2a/rest/") {
		t.Errorf("task get with a card file: %s %s, want GetTask over HTTP+JSON (the card's first entry)", last.Method, last.Path)
	}
}

// specLine is the first line of out that starts with prefix and holds
// every one of has, or "".
func specLine(out, prefix string, has ...string) string {
	for line := range strings.SplitSeq(out, "\n") {
		if strings.HasPrefix(line, prefix) && !slices.ContainsFunc(has, func(h string) bool { return !strings.Contains(line, h) }) {
			return line
		}
	}
	return ""
}

// specChosen reports whether a card's Interface: line is marked as the
// one chosen ("*" in the contract, "(chosen)" as the core prints it).
func specChosen(line string) bool {
	return strings.HasPrefix(line, "Interface: * ") || strings.HasSuffix(line, "(chosen)")
}

// specStartTask starts a completed task on a v1.0 agent with the SDK and
// returns its id.
func specStartTask(t *testing.T, agent *a2atest.Server) string {
	t.Helper()
	c, err := a2a.NewClient(agent.Endpoint(a2a.TransportJSONRPC), a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		t.Fatal(err)
	}
	defer a2a.CloseIdleConnections()
	res, err := c.SendMessage(t.Context(), a2a.NewTextMessage("hello"))
	if err != nil {
		t.Fatal(err)
	}
	return res.(*a2a.Task).ID
}

// TestSpecSendUserMessage: A2ACLI_SEND_001, A2ACLI_INTERACT_003 and
// A2ACLI_INTERACT_005. Each send is one user message with a fresh
// messageId and no task or context id; a second run sends no id from the
// first (nothing remembered), and no run writes a file.
func TestSpecSendUserMessage(t *testing.T) {
	agent := specAgent(t)
	w := newSpecWorld(t)
	w.vars["A2ACLI_AGENT_CARD"] = agent.BaseURL()
	before := specTree(t, filepath.Dir(w.dir))
	first := w.run(t, "send", "hello").want(t, exitOK)
	w.run(t, "send", "hello again").want(t, exitOK)
	if after := specTree(t, filepath.Dir(w.dir)); !mapsEqual(before, after) {
		t.Errorf("send wrote files: before %v, after %v", before, after)
	}
	got := specSends(agent)
	if len(got) != 2 {
		t.Fatalf("%d sends, want 2", len(got))
	}
	var ids []string
	for _, r := range got {
		m := specSentMessage(t, r)
		if m["role"] != "ROLE_USER" {
			t.Errorf("role %v, want ROLE_USER", m["role"])
		}
		id, _ := m["messageId"].(string)
		if id == "" || slices.Contains(ids, id) {
			t.Errorf("messageId %q: want a fresh one (earlier: %v)", id, ids)
		}
		ids = append(ids, id)
		for _, k := range []string{"taskId", "contextId"} {
			if _, ok := m[k]; ok {
				t.Errorf("the message carries %s %v: a2a invents no id", k, m[k])
			}
		}
	}
	if first.field("Task") == "" || first.field("Context") == "" {
		t.Errorf("send printed no Task: or Context:\n%s", first.stdout)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestSpecContextID: A2ACLI_INTERACT_001. --context-id starts a new task
// in that context: the message carries the context id and no task id.
func TestSpecContextID(t *testing.T) {
	agent := specAgent(t)
	specRun(t, "send", "-a", agent.BaseURL(), "--context-id", "ctx-given", "hello").want(t, exitOK)
	m := specSentMessage(t, specSends(agent)[0])
	if m["contextId"] != "ctx-given" {
		t.Errorf("contextId %v, want ctx-given", m["contextId"])
	}
	if _, ok := m["taskId"]; ok {
		t.Errorf("taskId %v sent with --context-id alone", m["taskId"])
	}
}

// TestSpecRejectedTaskID: A2ACLI_INTERACT_002. --task-id continues a task
// (with --context-id too, both sent); a task id the agent does not know is
// an error named as A2A names it, pointing at --debug, after exactly one
// request: no new task is started.
func TestSpecRejectedTaskID(t *testing.T) {
	agent := specAgent(t, a2atest.OnSend(a2atest.Caoliao))
	w := newSpecWorld(t)
	w.vars["A2ACLI_AGENT_CARD"] = agent.BaseURL()

	r := w.run(t, "send", "查一台设备").want(t, exitOK) // input-required
	id, ctxID := r.field("Task"), r.field("Context")
	w.run(t, "send", "--task-id", id, "--context-id", ctxID, "A08-03-06").want(t, exitOK)
	m := specSentMessage(t, specSends(agent)[1])
	if m["taskId"] != id || m["contextId"] != ctxID {
		t.Errorf("follow-up carried taskId %v contextId %v, want %s %s", m["taskId"], m["contextId"], id, ctxID)
	}

	for _, args := range [][]string{{"send", "--task-id", "no-such-task", "hello", "-o", "json"}, {"send", "--task-id", "no-such-task", "hello"}} {
		before := len(specCalls(agent))
		r := w.run(t, args...).want(t, exitError)
		if got := specCalls(agent)[before:]; len(got) != 1 {
			t.Errorf("a2a %s: %d requests, want exactly one: %v", strings.Join(args, " "), len(got), got)
		}
		if !strings.Contains(r.stderr, "TaskNotFoundError") || !strings.Contains(r.stderr, "--debug") {
			t.Errorf("a2a %s: stderr does not name TaskNotFoundError and --debug:\n%s", strings.Join(args, " "), r.stderr)
		}
		if slices.Contains(args, "json") {
			code, _, hint, _ := r.envelope(t)
			if h, _ := hint.(string); code != "TaskNotFoundError" || !strings.Contains(h, "--debug") {
				t.Errorf("envelope code %q hint %v: want TaskNotFoundError and a hint naming --debug", code, hint)
			}
		}
	}
}

// TestSpecJSONOnStdoutLogsOnStderr: A2ACLI_OUT_001. With --debug -o json
// stdout is still exactly one JSON document (naming the task, its context
// and state) and the logs are on stderr; in text the same three are
// fields.
func TestSpecJSONOnStdoutLogsOnStderr(t *testing.T) {
	agent := specAgent(t)
	for _, cmd := range [][]string{{"send", "hello"}, {"task", "get", specStartTask(t, agent)}} {
		args := append(slices.Clone(cmd), "-a", agent.BaseURL(), "--debug", "-o", "json")
		r := specRun(t, args...).want(t, exitOK)
		doc := r.oneJSON(t)
		task, _ := doc["task"].(map[string]any)
		if task == nil {
			task = doc
		}
		status, _ := task["status"].(map[string]any)
		if task["id"] == nil || task["contextId"] == nil || status["state"] == nil {
			t.Errorf("a2a %s: the document lacks id, contextId or status.state:\n%s", strings.Join(args, " "), r.stdout)
		}
		if !strings.Contains(r.stderr, "a2a: ") || strings.Contains(r.stdout, "a2a: ") {
			t.Errorf("a2a %s: the --debug log is not on stderr alone\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.stdout, r.stderr)
		}
		text := specRun(t, append(slices.Clone(cmd), "-a", agent.BaseURL())...).want(t, exitOK)
		for _, label := range []string{"Task", "Context", "Status"} {
			if text.field(label) == "" {
				t.Errorf("a2a %s: no %s: field:\n%s", strings.Join(cmd, " "), label, text.stdout)
			}
		}
	}
}

// TestSpecJSONOneDocument: A2ACLI_OUT_002. send -o json to an agent
// that streams (the send waits by stream, events folded) prints one
// document, the SendMessageResponse, then nothing.
func TestSpecJSONOneDocument(t *testing.T) {
	agent := specAgent(t, a2atest.OnSend(a2atest.Caoliao)) // its card says streaming
	r := specRun(t, "send", "-a", agent.BaseURL(), "-o", "json", "本月巡检记录").want(t, exitOK)
	doc := r.oneJSON(t)
	task, _ := doc["task"].(map[string]any)
	if task == nil || task["status"].(map[string]any)["state"] != "TASK_STATE_COMPLETED" {
		t.Errorf("the document is not {\"task\":…} completed:\n%s", r.stdout)
	}
	if len(specCallsOf(agent, "SendStreamingMessage")) != 1 {
		t.Errorf("the send did not stream: %v", specCalls(agent))
	}
}

// TestSpecAsyncIDs: A2ACLI_OUT_006. send --async -o json prints the reply
// at once with the task's id and context id, in both versions.
func TestSpecAsyncIDs(t *testing.T) {
	workingTask := func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateWorking, ""), States: []a2a.TaskState{a2a.TaskStateWorking}}
	}
	v10 := specAgent(t, a2atest.OnSend(workingTask))
	r := specRun(t, "send", "-a", v10.BaseURL(), "--async", "-o", "json", "hello").want(t, exitOK)
	task, _ := r.oneJSON(t)["task"].(map[string]any)
	if task == nil || task["id"] == nil || task["contextId"] == nil {
		t.Errorf("v1.0: no task.id and task.contextId:\n%s", r.stdout)
	}
	v03 := a2atest.NewServer(a2atest.OnSend(workingTask), a2atest.WithCard(&a2a.AgentCard{Name: "v03", ProtocolVersion: "0.3.0"}))
	t.Cleanup(v03.Close)
	r = specRun(t, "send", "-a", v03.BaseURL(), "--a2a-version", "0.3", "--async", "-o", "json", "hello").want(t, exitOK)
	doc := r.oneJSON(t)
	if doc["kind"] != "task" || doc["id"] == nil || doc["contextId"] == nil {
		t.Errorf("v0.3: no task with id and contextId:\n%s", r.stdout)
	}
	for _, req := range specSends(v10) {
		if p := specParams(t, req); p["configuration"].(map[string]any)["returnImmediately"] != true {
			t.Errorf("--async: configuration %v, want returnImmediately true", p["configuration"])
		}
	}
}

// specClosedPort is a loopback address nothing listens on.
func specClosedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestSpecExitCodes: A2ACLI_EXIT_001. A bad flag is 2 with
// A2ACLI_ERR_USAGE and nothing sent; an agent that cannot be reached is 3
// with A2ACLI_ERR_UNREACHABLE (a card reference and an endpoint alike).
func TestSpecExitCodes(t *testing.T) {
	agent := specAgent(t)
	for _, args := range [][]string{
		{"send", "-o", "json", "-a", agent.BaseURL(), "--no-such-flag", "hello"},
		{"send", "-a", agent.BaseURL(), "--no-such-flag", "hello", "-o", "json"}, // -o json after the bad flag
		{"task", "get", "-a", agent.BaseURL(), "-o", "json"},                     // TASKID missing
		{"send", "-o", "json", "-a", agent.BaseURL(), "--timeout", "soon", "hello"},
		{"send", "-a", agent.BaseURL(), "-e", agent.URL, "hello", "-o", "json"},           // exclusive flags
		{"send", "-a", agent.BaseURL(), "--media-type", "text/plain", "hi", "-o", "json"}, // no part before it
	} {
		r := specRun(t, args...).want(t, exitUsage)
		if code, _, _, _ := r.envelope(t); code != cliErrUsage {
			t.Errorf("a2a %s: code %q, want %s", strings.Join(args, " "), code, cliErrUsage)
		}
	}
	if got := agent.Requests(); len(got) != 0 {
		t.Errorf("usage errors sent %d requests", len(got))
	}
	closed := specClosedPort(t)
	for _, args := range [][]string{ // --retries 0: a refused connection is retried with backoff otherwise
		{"send", "-a", closed, "hello", "-o", "json"},
		{"task", "get", "-e", "http://" + closed + "/a2a", "t1", "-o", "json"},
		{"card", "get", "-a", "http://" + closed + "/", "-o", "json"},
	} {
		r := specRun(t, append(args, "--retries", "0")...).want(t, exitUnreachable)
		if code, _, _, _ := r.envelope(t); code != cliErrUnreachable {
			t.Errorf("a2a %s: code %q, want %s", strings.Join(args, " "), code, cliErrUnreachable)
		}
	}
}

// TestSpecOutcomesExitZero: A2ACLI_EXIT_002. A task that ends failed or
// rejected, or waits for input or authentication, is the agent's
// outcome, not the tool's failure: exit 0, the outcome named on stderr;
// --task-exit-codes opts into codes off the reserved 3–5.
func TestSpecOutcomesExitZero(t *testing.T) {
	for _, tc := range []struct {
		state     a2a.TaskState
		name      string
		taskCodes int
	}{
		{a2a.TaskStateFailed, "failed", exitTaskFailed},
		{a2a.TaskStateRejected, "rejected", exitTaskFailed},
		{a2a.TaskStateInputRequired, "input-required", exitTaskInterrupted},
		{a2a.TaskStateAuthRequired, "auth-required", exitTaskInterrupted},
	} {
		agent := specAgent(t, a2atest.OnSend(func(a2a.Message) a2atest.Reply {
			return a2atest.Reply{Task: a2atest.StatusTask(tc.state, "the agent's word")}
		}))
		for _, output := range []string{"text", "json"} {
			r := specRun(t, "send", "-a", agent.BaseURL(), "-o", output, "hello").want(t, exitOK)
			if !strings.Contains(r.stderr, tc.name) {
				t.Errorf("%s, -o %s: stderr does not name the outcome:\n%s", tc.name, output, r.stderr)
			}
		}
		specRun(t, "send", "-a", agent.BaseURL(), "--task-exit-codes", "hello").want(t, tc.taskCodes)
	}
}

// TestSpecBearerFromEnvironment: A2ACLI_AUTH_002. A2ACLI_BEARER is sent as
// the card's bearer scheme says (and not on the card GET); the help
// warns that a credential on the command line is visible in the process
// list and the shell's history.
func TestSpecBearerFromEnvironment(t *testing.T) {
	card := specCard(a2a.AgentCapabilities{})
	card.SecuritySchemes = map[string]a2a.SecurityScheme{"bearer": {Type: "http", Scheme: "Bearer"}}
	card.Security = []map[string][]string{{"bearer": {}}}
	agent := specAgent(t, a2atest.WithCard(card), a2atest.RequireBearer("env-token-123"))
	w := newSpecWorld(t)
	w.vars["A2ACLI_BEARER"] = "env-token-123"
	r := w.run(t, "send", "-a", agent.BaseURL(), "hello").want(t, exitOK)
	if strings.Contains(r.stdout+r.stderr, "env-token-123") {
		t.Errorf("the token was printed")
	}
	for _, req := range agent.Requests() {
		got := req.Header.Get("Authorization")
		if specIsCardGET(req) && got != "" || !specIsCardGET(req) && got != "Bearer env-token-123" {
			t.Errorf("%s %s: Authorization %q", req.HTTPMethod, req.Path, got)
		}
	}
	for _, args := range [][]string{{"--help"}, {"send", "--help"}} {
		h := specRun(t, args...).want(t, exitOK)
		if !strings.Contains(h.stdout, "process list") || !strings.Contains(h.stdout, "A2ACLI_BEARER") {
			t.Errorf("a2a %s does not warn of the process list or name A2ACLI_BEARER:\n%s", strings.Join(args, " "), h.stdout)
		}
	}
}

// TestSpecHelpAndVersion: A2ACLI_CLI_001. help, -h, --help, a command's
// --help, help COMMAND, version, -v and --version print on stdout and
// exit 0.
func TestSpecHelpAndVersion(t *testing.T) {
	for _, args := range [][]string{
		{"help"}, {"-h"}, {"--help"}, {"send", "--help"}, {"send", "-h"}, {"help", "send"}, {"help", "task", "get"},
		{"task", "push-config", "create", "--help"}, {"task", "--help"},
		{"version"}, {"-v"}, {"--version"}, {"send", "--version"},
	} {
		r := specRun(t, args...).want(t, exitOK)
		if strings.TrimSpace(r.stdout) == "" || r.stderr != "" {
			t.Errorf("a2a %s: stdout %q, stderr %q: want the text on stdout alone", strings.Join(args, " "), r.stdout, r.stderr)
		}
	}
	if r := specRun(t, "send", "--help"); !strings.Contains(r.stdout, "(2m0s)") {
		t.Errorf("send --help does not show --timeout's effective default:\n%s", r.stdout)
	}
}
