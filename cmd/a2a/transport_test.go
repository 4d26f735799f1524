package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// --transport, and the card's choice of binding.

// restAgent is a small A2A v1.0 HTTP+JSON agent: its card lists its
// HTTP+JSON interface (/rest) first and a JSON-RPC one (/rpc, not
// served) second; it answers GET /rest/tasks/{id}, GET /rest/tasks and
// POST /rest/message:send, and records every request but those for a card.
type restAgent struct {
	*httptest.Server
	mu  sync.Mutex
	got []string
}

func newRESTAgent(t *testing.T) *restAgent {
	t.Helper()
	a := &restAgent{}
	mux := http.NewServeMux()
	a.Server = httptest.NewServer(mux)
	t.Cleanup(a.Close)
	card := `{"name":"REST agent","version":"1","capabilities":{},"supportedInterfaces":[
		{"url":"` + a.URL + `/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"},
		{"url":"` + a.URL + `/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`
	task := `{"id":"task-1","contextId":"ctx-1","status":{"state":"TASK_STATE_%s"}}`
	mux.HandleFunc("GET "+a2a.AgentCardPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(card))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.URL.Path, "/.well-known/") {
			a.mu.Lock()
			a.got = append(a.got, r.Method+" "+r.URL.Path+" "+r.Header.Get("A2A-Version"))
			a.mu.Unlock()
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.Method + " " + r.URL.Path {
		case "GET /rest/tasks/task-1":
			w.Write([]byte(strings.Replace(task, "%s", "COMPLETED", 1)))
		case "GET /rest/tasks":
			w.Write([]byte(`{"tasks":[` + strings.Replace(task, "%s", "COMPLETED", 1) + `],"nextPageToken":"","pageSize":50,"totalSize":1}`))
		case "POST /rest/message:send":
			w.Write([]byte(`{"task":` + strings.Replace(task, "%s", "SUBMITTED", 1) + `}`))
		default:
			http.NotFound(w, r)
		}
	})
	return a
}

// requests are the requests the agent took, the card's left out.
func (a *restAgent) requests() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.got...)
}

// TestTransportFromCard: --protocol auto reads the card and speaks the
// binding of its interface for the URL given: HTTP+JSON v1.0 here.
func TestTransportFromCard(t *testing.T) {
	t.Parallel()
	agent := newRESTAgent(t)
	r := a2aCmd(t, "get", "-v", agent.URL+"/rest", "task-1")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "task task-1: completed") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	if want := "a2a: protocol: v1.0, from the card's interface for " + agent.URL + "/rest (HTTP+JSON)"; !strings.Contains(r.stderr, want) {
		t.Errorf("-v does not say %q:\n%s", want, r.stderr)
	}
	// tasks, which only v1.0 has, reads the card too.
	list := a2aCmd(t, "tasks", agent.URL+"/rest")
	list.wantCode(t, exitOK)
	if !strings.Contains(list.stdout, "1 task\n") {
		t.Errorf("tasks: stdout:\n%s", list.stdout)
	}
	if diff := cmp.Diff([]string{"GET /rest/tasks/task-1 1.0", "GET /rest/tasks 1.0"}, agent.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestTransportResume: a printed command carries --transport when it was
// named, so it reaches the agent the same way.
func TestTransportResume(t *testing.T) {
	t.Parallel()
	agent := newRESTAgent(t)
	r := a2aCmd(t, "send", "--no-block", "--transport", "http+json", agent.URL+"/rest", "你好")
	r.wantCode(t, exitUnfinished)
	if want := "a2a wait --transport HTTP+JSON " + agent.URL + "/rest task-1\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not hold %q:\n%s", want, r.stderr)
	}
	if diff := cmp.Diff([]string{"POST /rest/message:send 1.0"}, agent.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	auto := a2aCmd(t, "send", "--no-block", agent.URL+"/rest", "你好")
	auto.wantCode(t, exitUnfinished)
	if strings.Contains(auto.stderr, "--transport") {
		t.Errorf("auto: the resume line names a transport:\n%s", auto.stderr)
	}
}

// TestTransportCard: "a2a card" marks the interface the command would
// call: the card's first, or the first of the transports named.
func TestTransportCard(t *testing.T) {
	t.Parallel()
	agent := newRESTAgent(t)
	for _, tc := range []struct {
		name string
		in   invocation
		args []string
		want string
	}{
		{"auto", invocation{}, nil, "* " + agent.URL + "/rest  HTTP+JSON 1.0\n"},
		{"--transport jsonrpc", invocation{}, []string{"--transport", "jsonrpc"}, "* " + agent.URL + "/rpc  JSONRPC 1.0\n"},
		{"repeated, most wanted first", invocation{}, []string{"--transport", "JSONRPC", "--transport", "http+json"}, "* " + agent.URL + "/rpc  JSONRPC 1.0\n"},
		{"A2A_TRANSPORT", invocation{env: map[string]string{"A2A_TRANSPORT": "jsonrpc,http+json"}}, nil, "* " + agent.URL + "/rpc  JSONRPC 1.0\n"},
		{"the flag over A2A_TRANSPORT", invocation{env: map[string]string{"A2A_TRANSPORT": "jsonrpc"}}, []string{"--transport", "auto"},
			"* " + agent.URL + "/rest  HTTP+JSON 1.0\n"},
		{"none fits", invocation{}, []string{"--protocol", "0.3"}, "(a2a: agent card offers no interface"},
	} {
		r := tc.in.run(t, append(append([]string{"card"}, tc.args...), agent.URL)...)
		r.wantCode(t, exitOK)
		if !strings.Contains(r.stdout, tc.want) || strings.Count(r.stdout, "   * ") > 1 {
			t.Errorf("%s: stdout does not mark %q once:\n%s", tc.name, tc.want, r.stdout)
		}
	}
}

// TestTransportFlagErrors: a --transport that names what the command
// cannot speak is a usage error; nothing is sent.
func TestTransportFlagErrors(t *testing.T) {
	t.Parallel()
	agent := newRESTAgent(t)
	for _, args := range [][]string{
		{"--transport", "grpc"},
		{"--transport", "jsonrpc,JSONRPC"},
		{"--transport", "jsonrpc,auto"},
		{"--transport", "jsonrpc,"},
	} {
		r := a2aCmd(t, append(append([]string{"get"}, args...), agent.URL+"/rest", "task-1")...)
		r.wantCode(t, exitUsage)
		if !strings.Contains(r.stderr, "--transport") {
			t.Errorf("%q: stderr does not name the flag:\n%s", args, r.stderr)
		}
	}
	env := invocation{env: map[string]string{"A2A_TRANSPORT": "soap"}}.run(t, "get", agent.URL+"/rest", "task-1")
	env.wantCode(t, exitUsage)
	if len(agent.requests()) != 0 {
		t.Errorf("requests sent: %q", agent.requests())
	}
}

// TestTransportSelector: --agent-id with --transport http+json is refused
// before anything is sent (HTTP+JSON has no envelope for it); without
// --transport, an agent selector puts the card's JSON-RPC interface first.
func TestTransportSelector(t *testing.T) {
	t.Parallel()
	agent := newRESTAgent(t)
	r := a2aCmd(t, "get", "--transport", "http+json", "--agent-id", "agent-7", agent.URL+"/rest", "task-1")
	r.wantCode(t, exitUsage)
	card := a2aCmd(t, "card", "--agent-id", "agent-7", agent.URL)
	card.wantCode(t, exitOK)
	if want := "* " + agent.URL + "/rpc  JSONRPC 1.0\n"; !strings.Contains(card.stdout, want) {
		t.Errorf("card does not mark %q:\n%s", want, card.stdout)
	}
	if len(agent.requests()) != 0 {
		t.Errorf("requests sent: %q", agent.requests())
	}
}

// requestLines are the requests the agent took but for its card's: "POST
// /a2a/rest/message:send SendMessage".
func requestLines(agent *a2atest.Server) []string {
	var out []string
	for _, r := range agent.Requests() {
		if !strings.Contains(r.Path, "/.well-known/") {
			out = append(out, r.HTTPMethod+" "+r.Path+" "+r.Method)
		}
	}
	return out
}

// TestTransportCardEveryInterface: "a2a card" lists every interface of a
// card in text, as --json does, and marks with * the one the same flags
// would call, once.
func TestTransportCardEveryInterface(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		agent *a2atest.Server
		args  []string
		chose string // the binding marked
		lines []string
	}{
		{"v0.3, HTTP+JSON first", newAgent(t, a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC)), nil, a2a.TransportHTTPJSON,
			[]string{"/a2a/rest  HTTP+JSON 0.3.0\n", "/a2a/jsonrpc  JSONRPC 0.3.0\n"}},
		{"v0.3, --transport jsonrpc", newAgent(t, a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC)), []string{"--transport", "jsonrpc"}, a2a.TransportJSONRPC,
			[]string{"/a2a/rest  HTTP+JSON 0.3.0\n", "/a2a/jsonrpc  JSONRPC 0.3.0\n"}},
		{"v1.0 with a tenant", newAgent(t, a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC), a2atest.V10(), a2atest.RequireTenant("acme")), nil, a2a.TransportHTTPJSON,
			[]string{"/a2a/rest  HTTP+JSON 1.0 tenant acme\n", "/a2a/jsonrpc  JSONRPC 1.0 tenant acme\n"}},
		{"v1.0, JSON-RPC first", newAgent(t, a2atest.Bindings(a2a.TransportJSONRPC, a2a.TransportHTTPJSON), a2atest.V10()), nil, a2a.TransportJSONRPC,
			[]string{"/a2a/jsonrpc  JSONRPC 1.0\n", "/a2a/rest  HTTP+JSON 1.0\n"}},
	} {
		r := a2aCmd(t, append(append([]string{"card"}, tc.args...), tc.agent.BaseURL())...)
		r.wantCode(t, exitOK)
		at := strings.Index(r.stdout, "  endpoints:\n")
		if at < 0 {
			t.Fatalf("%s: no endpoints:\n%s", tc.name, r.stdout)
		}
		listed := r.stdout[at:]
		for _, l := range tc.lines {
			mark := " "
			if strings.Contains(l, tc.chose) {
				mark = "*"
			}
			if want := "   " + mark + " " + tc.agent.BaseURL() + l; strings.Count(listed, want) != 1 {
				t.Errorf("%s: stdout does not list %q once:\n%s", tc.name, want, r.stdout)
			}
		}
		if strings.Count(listed, "   * ") != 1 {
			t.Errorf("%s: not one interface marked:\n%s", tc.name, r.stdout)
		}
	}
}

// TestTransportTasksFollowsCard: "a2a tasks" takes the card's choice like
// every command, among the interfaces that have ListTasks: a v0.3
// HTTP+JSON agent is listed (GET /v1/tasks); at the JSON-RPC URL of a
// v0.3 card that also serves HTTP+JSON, the listing goes there; a v0.3
// JSON-RPC agent gets an error that says, in flags, which bindings list.
func TestTransportTasksFollowsCard(t *testing.T) {
	t.Parallel()
	rest := newAgent(t, a2atest.HTTPJSON())
	startTaskREST(t, rest)
	for _, args := range [][]string{{rest.URL}, {"--transport", "http+json", rest.URL}} {
		r := a2aCmd(t, append([]string{"tasks", "-v"}, args...)...)
		r.wantCode(t, exitOK)
		if !strings.HasPrefix(r.stdout, "task-1  ") || !strings.HasSuffix(r.stdout, "\n1 task\n") {
			t.Errorf("tasks %q: stdout:\n%s\nstderr:\n%s", args, r.stdout, r.stderr)
		}
		if want := "a2a: protocol: v0.3, from the card's interface for " + rest.URL + " (HTTP+JSON)\n"; !strings.Contains(r.stderr, want) {
			t.Errorf("tasks %q: -v does not say %q:\n%s", args, want, r.stderr)
		}
	}
	if diff := cmp.Diff([]string{"POST /a2a/rest/v1/message:send SendMessage", "GET /a2a/rest/v1/tasks ListTasks", "GET /a2a/rest/v1/tasks ListTasks"}, requestLines(rest)); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}

	both := newAgent(t, a2atest.Bindings(a2a.TransportJSONRPC, a2a.TransportHTTPJSON))
	r := a2aCmd(t, "tasks", "-v", both.URL)
	r.wantCode(t, exitOK)
	if want := "a2a: protocol: v0.3, the card's HTTP+JSON interface, at " + both.Endpoint(a2a.TransportHTTPJSON) + " (not " + both.URL + ")\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("-v does not say %q:\n%s", want, r.stderr)
	}
	if diff := cmp.Diff([]string{"GET /a2a/rest/v1/tasks ListTasks"}, requestLines(both)); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}

	rpc := newAgent(t, a2atest.Bindings(a2a.TransportJSONRPC))
	r = a2aCmd(t, "tasks", "-v", "--protocol", "0.3", rpc.URL)
	r.wantCode(t, exitError)
	if want := "a2a tasks: ListTasks is not in A2A v0.3 over JSONRPC, the binding spoken; it is in A2A v1.0 (--protocol 1.0) and in v0.3 over HTTP+JSON (--transport http+json)\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
	}
	auto := a2aCmd(t, "tasks", "-v", rpc.URL)
	auto.wantCode(t, exitError)
	for _, want := range []string{
		"a2a: protocol: v1.0 (no interface of the card lists tasks (A2A v1.0, or v0.3 over HTTP+JSON); JSONRPC)\n",
		"(spoken to in A2A v1.0 over JSONRPC; if the agent speaks v0.3, it lists tasks over HTTP+JSON alone: --protocol 0.3 --transport http+json)\n",
	} {
		if !strings.Contains(auto.stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, auto.stderr)
		}
	}
	if m := goWords.FindString(r.stderr + auto.stderr); m != "" {
		t.Errorf("stderr names %s, a Go name:\n%s%s", m, r.stderr, auto.stderr)
	}
}

// startTaskREST sends a message to a v0.3 HTTP+JSON agent with the SDK.
func startTaskREST(t *testing.T, agent *a2atest.Server) {
	t.Helper()
	c, err := a2a.NewClient(agent.Endpoint(a2a.TransportHTTPJSON), a2a.WithTransports(a2a.TransportHTTPJSON))
	if err != nil {
		t.Fatal(err)
	}
	defer a2a.CloseIdleConnections()
	if _, err := c.SendMessage(t.Context(), a2a.NewTextMessage("本月巡检记录")); err != nil {
		t.Fatal(err)
	}
}

// TestTransportElsewhereOnCard: a --transport the card serves at another
// of its URLs than the one given is spoken there (-v says so), on the
// same origin; on another origin nothing is sent and the error names the
// URL to give.
func TestTransportElsewhereOnCard(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC))
	restURL, rpcURL := agent.Endpoint(a2a.TransportHTTPJSON), agent.Endpoint(a2a.TransportJSONRPC)
	for _, tc := range []struct {
		transport, given, at, call string
	}{
		{"jsonrpc", restURL, rpcURL, "POST /a2a/jsonrpc message/send"},
		{"http+json", rpcURL, restURL, "POST /a2a/rest/v1/message:send SendMessage"},
	} {
		before := len(requestLines(agent))
		r := a2aCmd(t, "send", "-v", "--wait", "--transport", tc.transport, tc.given, "本月巡检记录")
		r.wantCode(t, exitOK)
		if !strings.Contains(r.stdout, "共 2 条记录") {
			t.Errorf("--transport %s: stdout:\n%s", tc.transport, r.stdout)
		}
		if want := "interface, at " + tc.at + " (not " + tc.given + ")\n"; !strings.Contains(r.stderr, want) {
			t.Errorf("--transport %s: -v does not say %q:\n%s", tc.transport, want, r.stderr)
		}
		if got := requestLines(agent)[before]; got != tc.call {
			t.Errorf("--transport %s: first request %q, want %q", tc.transport, got, tc.call)
		}
	}

	// A card whose JSON-RPC interface is on another origin.
	other := newAgent(t)
	mux := http.NewServeMux()
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	sent := 0
	var mu sync.Mutex
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.URL.Path, "/.well-known/") {
			mu.Lock()
			sent++
			mu.Unlock()
			http.NotFound(w, r)
			return
		}
		if r.URL.Path != a2a.AgentCardPath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"name":"split","version":"1","capabilities":{},"supportedInterfaces":[
			{"url":"` + site.URL + `/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"},
			{"url":"` + other.URL + `","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`))
	})
	r := a2aCmd(t, "send", "--api-key", "k-123", "--transport", "jsonrpc", site.URL+"/rest", "你好")
	r.wantCode(t, exitUsage)
	if want := "a2a send: " + site.URL + "/rest is not the agent's JSONRPC v1.0 interface: its card gives " + other.URL + "; give that URL\n"; r.stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if sent != 0 || len(other.Requests()) != 0 {
		t.Errorf("requests sent: %d to the site, %d to the other origin", sent, len(other.Requests()))
	}
}

// TestTransportErrorsSpeakFlags: the package's hints reach the command
// line in flags: a JSON-RPC reply to an HTTP+JSON request, an agent
// selector with --transport http+json, an A2A-Version header.
func TestTransportErrorsSpeakFlags(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"send", "--protocol", "0.3", "--transport", "http+json", agent.URL, "你好"}, exitError,
			"the agent speaks JSON-RPC at this URL; use --transport jsonrpc, or give the URL of the agent's HTTP+JSON interface"},
		{[]string{"get", "--transport", "http+json", "--agent-id", "agent-7", agent.URL, "task-1"}, exitUsage,
			"a2a get: --agent-id and --agent-code put a member in the JSON-RPC request envelope, which HTTP+JSON requests do not have"},
		{[]string{"get", "--header", "A2A-Version=1.0", agent.URL, "task-1"}, exitUsage,
			"use --protocol\n"},
	} {
		r := a2aCmd(t, tc.args...)
		r.wantCode(t, tc.code)
		if !strings.Contains(r.stderr, tc.want) {
			t.Errorf("a2a %q: stderr does not say %q:\n%s", tc.args, tc.want, r.stderr)
		}
		if m := goWords.FindString(r.stderr); m != "" {
			t.Errorf("a2a %q: stderr names %s, a Go name:\n%s", tc.args, m, r.stderr)
		}
	}
}

// TestTransportTrailingSlash: a URL given with a trailing slash is the
// card's interface without it: its binding and tenant are taken, and it
// is called at the card's URL.
func TestTransportTrailingSlash(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.Bindings(a2a.TransportJSONRPC, a2a.TransportHTTPJSON), a2atest.V10(), a2atest.RequireTenant("acme"))
	restURL := agent.Endpoint(a2a.TransportHTTPJSON)
	r := a2aCmd(t, "send", "-v", "--wait", restURL+"/", "本月巡检记录")
	r.wantCode(t, exitOK)
	if want := "a2a: protocol: v1.0, from the card's interface for " + restURL + "/ (HTTP+JSON), at " + restURL + " as the card writes it\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("-v does not say %q:\n%s", want, r.stderr)
	}
	got := requestLines(agent)
	if len(got) == 0 || got[0] != "POST /a2a/rest/acme/message:send SendMessage" {
		t.Errorf("requests: %q", got)
	}
}
