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

// TestTransportFromCard: an endpoint URL given as -a is looked up on its
// card, and the binding of the card's interface for that URL is spoken:
// HTTP+JSON v1.0 here (the specification's TX_001).
func TestTransportFromCard(t *testing.T) {
	t.Parallel()
	agent := newRESTAgent(t)
	r := a2aCmd(t, "task", "get", "--debug", "-a", agent.URL+"/rest", "task-1")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "Task: task-1\n") || !strings.Contains(r.stdout, "Status: completed\n") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	if want := "a2a: protocol: v1.0 over HTTP+JSON, the card's interface for " + agent.URL + "/rest\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("--debug does not say %q:\n%s", want, r.stderr)
	}
	// task list, which only v1.0 has (and v0.3 over HTTP+JSON), reads the card too.
	list := a2aCmd(t, "task", "list", "-a", agent.URL+"/rest")
	list.wantCode(t, exitOK)
	if !strings.Contains(list.stdout, "Tasks: 1\n") {
		t.Errorf("task list: stdout:\n%s", list.stdout)
	}
	if diff := cmp.Diff([]string{"GET /rest/tasks/task-1 1.0", "GET /rest/tasks 1.0"}, agent.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestTransportResume: a Resume line carries --transport when it was
// typed, so it reaches the agent the same way; not when it came from the
// environment (it will come from there again).
func TestTransportResume(t *testing.T) {
	t.Parallel()
	agent := newRESTAgent(t)
	r := a2aCmd(t, "send", "--async", "--transport", "http+json", "-a", agent.URL+"/rest", "你好")
	r.wantCode(t, exitOK)
	if want := "Resume: a2a task get --wait -a " + agent.URL + "/rest --transport HTTP+JSON task-1\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("stdout does not hold %q:\n%s", want, r.stdout)
	}
	if diff := cmp.Diff([]string{"POST /rest/message:send 1.0"}, agent.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	for _, in := range []invocation{{}, {env: map[string]string{"A2ACLI_TRANSPORT": "http+json"}}} {
		auto := in.run(t, "send", "--async", "-a", agent.URL+"/rest", "你好")
		auto.wantCode(t, exitOK)
		if !strings.Contains(auto.stdout, "Resume: a2a task get --wait -a "+agent.URL+"/rest task-1\n") {
			t.Errorf("%v: the Resume line names a transport, or is missing:\n%s", in.env, auto.stdout)
		}
	}
}

// TestTransportCard: "a2a card get" marks "(chosen)" the interface the
// same flags would call: the card's first, or the first of --transport's
// (repeated or comma-separated, from A2ACLI_TRANSPORT too, the flag over
// the variable) on the card (the specification's TX_001, TX_002).
func TestTransportCard(t *testing.T) {
	t.Parallel()
	agent := newRESTAgent(t)
	rest, rpc := "Interface: "+agent.URL+"/rest HTTP+JSON 1.0 (chosen)\n", "Interface: "+agent.URL+"/rpc JSONRPC 1.0 (chosen)\n"
	for _, tc := range []struct {
		name string
		in   invocation
		args []string
		want string
	}{
		{"the card's order", invocation{}, nil, rest},
		{"--transport jsonrpc", invocation{}, []string{"--transport", "jsonrpc"}, rpc},
		{"--transport rest", invocation{}, []string{"--transport", "rest"}, rest},
		{"repeated, most wanted first", invocation{}, []string{"--transport", "JSONRPC", "--transport", "http+json"}, rpc},
		{"GRPC skipped", invocation{}, []string{"--transport", "grpc", "--transport", "jsonrpc"}, rpc},
		{"GRPC alone: the card's order", invocation{}, []string{"--transport", "GRPC"}, rest},
		{"A2ACLI_TRANSPORT", invocation{env: map[string]string{"A2ACLI_TRANSPORT": "jsonrpc,http+json"}}, nil, rpc},
		{"the flag over A2ACLI_TRANSPORT", invocation{env: map[string]string{"A2ACLI_TRANSPORT": "jsonrpc"}}, []string{"--transport", "http+json"}, rest},
		{"none fits", invocation{}, []string{"--a2a-version", "0.3"}, ""},
	} {
		r := tc.in.run(t, append(append([]string{"card", "get"}, tc.args...), "-a", agent.URL)...)
		r.wantCode(t, exitOK)
		if tc.want == "" {
			if strings.Contains(r.stdout, "(chosen)") || !strings.Contains(r.stderr, "no interface of the card fits --a2a-version and --transport") {
				t.Errorf("%s: an interface chosen, or no word why not:\nstdout:\n%s\nstderr:\n%s", tc.name, r.stdout, r.stderr)
			}
			continue
		}
		if !strings.Contains(r.stdout, tc.want) || strings.Count(r.stdout, "(chosen)") != 1 {
			t.Errorf("%s: stdout does not mark %q once:\n%s", tc.name, tc.want, r.stdout)
		}
	}
	if len(agent.requests()) != 0 {
		t.Errorf("requests sent: %q", agent.requests())
	}
}

// TestTransportFlagErrors: a --transport (or A2ACLI_TRANSPORT) that names
// no binding is a usage error; nothing is sent.
func TestTransportFlagErrors(t *testing.T) {
	t.Parallel()
	agent := newRESTAgent(t)
	for _, args := range [][]string{
		{"--transport", "soap"},
		{"--transport", "jsonrpc,auto"},
		{"--transport", "jsonrpc,"},
	} {
		r := a2aCmd(t, append(append([]string{"task", "get"}, args...), "-a", agent.URL+"/rest", "task-1")...)
		r.wantCode(t, exitUsage)
		if !strings.Contains(r.stderr, "--transport") {
			t.Errorf("%q: stderr does not name the flag:\n%s", args, r.stderr)
		}
	}
	env := invocation{env: map[string]string{"A2ACLI_TRANSPORT": "soap"}}.run(t, "task", "get", "-a", agent.URL+"/rest", "task-1")
	env.wantCode(t, exitUsage)
	if !strings.Contains(env.stderr, "A2ACLI_TRANSPORT") && !strings.Contains(env.stderr, "--transport") {
		t.Errorf("A2ACLI_TRANSPORT=soap: stderr does not name the setting:\n%s", env.stderr)
	}
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
	r := a2aCmd(t, "task", "get", "--transport", "http+json", "--agent-id", "agent-7", "-a", agent.URL+"/rest", "task-1")
	r.wantCode(t, exitUsage)
	if want := "--agent-id and --agent-code put a member in the JSON-RPC request envelope"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
	}
	card := a2aCmd(t, "card", "get", "--agent-id", "agent-7", "-a", agent.URL)
	card.wantCode(t, exitOK)
	if want := "Interface: " + agent.URL + "/rpc JSONRPC 1.0 (chosen)\n"; !strings.Contains(card.stdout, want) {
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

// TestTransportCardEveryInterface: "a2a card get" lists every interface
// of a card, and marks "(chosen)" the one the same flags would call, once.
func TestTransportCardEveryInterface(t *testing.T) {
	t.Parallel()
	v03 := []string{"--a2a-version", "0.3"}
	for _, tc := range []struct {
		name  string
		agent *a2atest.Server
		args  []string
		chose string // the binding marked
		lines []string
	}{
		{"v0.3, HTTP+JSON first", newAgent(t, a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC)), v03, a2a.TransportHTTPJSON,
			[]string{"/a2a/rest HTTP+JSON 0.3.0", "/a2a/jsonrpc JSONRPC 0.3.0"}},
		{"v0.3, --transport jsonrpc", newAgent(t, a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC)), append([]string{"--transport", "jsonrpc"}, v03...), a2a.TransportJSONRPC,
			[]string{"/a2a/rest HTTP+JSON 0.3.0", "/a2a/jsonrpc JSONRPC 0.3.0"}},
		{"v1.0 with a tenant", newAgent(t, a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC), a2atest.V10(), a2atest.RequireTenant("acme")), nil, a2a.TransportHTTPJSON,
			[]string{"/a2a/rest HTTP+JSON 1.0 tenant acme", "/a2a/jsonrpc JSONRPC 1.0 tenant acme"}},
		{"v1.0, JSON-RPC first", newAgent(t, a2atest.Bindings(a2a.TransportJSONRPC, a2a.TransportHTTPJSON), a2atest.V10()), nil, a2a.TransportJSONRPC,
			[]string{"/a2a/jsonrpc JSONRPC 1.0", "/a2a/rest HTTP+JSON 1.0"}},
	} {
		r := a2aCmd(t, append(append([]string{"card", "get"}, tc.args...), "-a", tc.agent.BaseURL())...)
		r.wantCode(t, exitOK)
		for _, l := range tc.lines {
			want := "Interface: " + tc.agent.BaseURL() + l
			if strings.Contains(l, tc.chose) {
				want += " (chosen)"
			}
			if strings.Count(r.stdout, want+"\n") != 1 {
				t.Errorf("%s: stdout does not list %q once:\n%s", tc.name, want, r.stdout)
			}
		}
		if strings.Count(r.stdout, "(chosen)") != 1 {
			t.Errorf("%s: not one interface marked:\n%s", tc.name, r.stdout)
		}
	}
}

// TestTransportTasksFollowsCard: "a2a task list" takes the card's choice
// like every command, among the interfaces that have ListTasks: a v0.3
// HTTP+JSON agent is listed (GET /v1/tasks); at the JSON-RPC URL of a
// v0.3 card that also serves HTTP+JSON, the listing goes there; a v0.3
// JSON-RPC agent gets an error that says which bindings list, in flags.
func TestTransportTasksFollowsCard(t *testing.T) {
	t.Parallel()
	rest := newAgent(t, a2atest.HTTPJSON())
	startTaskREST(t, rest)
	for _, args := range [][]string{{"-a", rest.URL}, {"--transport", "http+json", "-a", rest.URL}} {
		r := a2aCmd(t, append([]string{"task", "list", "--debug", "--a2a-version", "0.3"}, args...)...)
		r.wantCode(t, exitOK)
		if !strings.HasPrefix(r.stdout, "Task: task-1\n") || !strings.HasSuffix(r.stdout, "\nTasks: 1\n") {
			t.Errorf("task list %q: stdout:\n%s\nstderr:\n%s", args, r.stdout, r.stderr)
		}
		if want := "a2a: protocol: v0.3 over HTTP+JSON, the card's interface for " + rest.URL + "\n"; !strings.Contains(r.stderr, want) {
			t.Errorf("task list %q: --debug does not say %q:\n%s", args, want, r.stderr)
		}
	}
	if diff := cmp.Diff([]string{"POST /a2a/rest/v1/message:send SendMessage", "GET /a2a/rest/v1/tasks ListTasks", "GET /a2a/rest/v1/tasks ListTasks"}, requestLines(rest)); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}

	both := newAgent(t, a2atest.Bindings(a2a.TransportJSONRPC, a2a.TransportHTTPJSON))
	r := a2aCmd(t, "task", "list", "--debug", "--a2a-version", "0.3", "-a", both.URL)
	r.wantCode(t, exitOK)
	if want := "a2a: protocol: v0.3 over HTTP+JSON, the card's interface at " + both.Endpoint(a2a.TransportHTTPJSON) + " (not " + both.URL + ")\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("--debug does not say %q:\n%s", want, r.stderr)
	}
	if diff := cmp.Diff([]string{"GET /a2a/rest/v1/tasks ListTasks"}, requestLines(both)); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}

	rpc := newAgent(t, a2atest.Bindings(a2a.TransportJSONRPC))
	r = a2aCmd(t, "task", "list", "--a2a-version", "0.3", "-a", rpc.URL)
	r.wantCode(t, exitError)
	if want := "a2a task list: UnsupportedOperationError: no interface of the card lists tasks (A2A v1.0, or v0.3 over HTTP+JSON) (the card offers JSONRPC v0.3.0)\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, r.stderr)
	}
	direct := a2aCmd(t, "task", "list", "--a2a-version", "0.3", "-e", rpc.URL)
	direct.wantCode(t, exitUsage)
	if want := "task list is not in A2A v0.3 over JSONRPC; it is in v1.0 (--a2a-version 1.0) and in v0.3 over HTTP+JSON (--transport HTTP+JSON)"; !strings.Contains(direct.stderr, want) {
		t.Errorf("-e: stderr does not say %q:\n%s", want, direct.stderr)
	}
	if m := goWords.FindString(r.stderr + direct.stderr); m != "" {
		t.Errorf("stderr names %s, a Go name:\n%s%s", m, r.stderr, direct.stderr)
	}
	if got := requestLines(rpc); len(got) != 0 {
		t.Errorf("requests sent: %q", got)
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
// of its URLs than the one given is spoken there (--debug says so), on
// the same origin; on another origin nothing is sent and the error names
// the URL to give (credentials go to no origin but the one given).
func TestTransportElsewhereOnCard(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC))
	restURL, rpcURL := agent.Endpoint(a2a.TransportHTTPJSON), agent.Endpoint(a2a.TransportJSONRPC)
	for _, tc := range []struct {
		transport, given, at, call string
	}{
		{"jsonrpc", restURL, rpcURL, "POST /a2a/jsonrpc message/stream"},
		{"http+json", rpcURL, restURL, "POST /a2a/rest/v1/message:stream SendStreamingMessage"},
	} {
		before := len(requestLines(agent))
		r := a2aCmd(t, "send", "--debug", "--a2a-version", "0.3", "--transport", tc.transport, "-a", tc.given, "本月巡检记录")
		r.wantCode(t, exitOK)
		if !strings.Contains(r.stdout, "共 2 条记录") {
			t.Errorf("--transport %s: stdout:\n%s", tc.transport, r.stdout)
		}
		if want := "the card's interface at " + tc.at + " (not " + tc.given + ")\n"; !strings.Contains(r.stderr, want) {
			t.Errorf("--transport %s: --debug does not say %q:\n%s", tc.transport, want, r.stderr)
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
	r := a2aCmd(t, "send", "--api-key", "k-123", "--transport", "jsonrpc", "-a", site.URL+"/rest", "你好")
	r.wantCode(t, exitUsage)
	if want := "a2a send: A2ACLI_ERR_USAGE: " + site.URL + "/rest is not the agent's JSONRPC v1.0 interface: its card gives " + other.URL + "; give that URL\n"; !strings.HasPrefix(r.stderr, want) {
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
// selector with --transport http+json, an A2A-Version service parameter.
func TestTransportErrorsSpeakFlags(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"send", "--a2a-version", "0.3", "--transport", "http+json", "-e", agent.URL, "你好"}, exitError,
			"the agent speaks JSON-RPC at this URL\nhint: --transport JSONRPC"},
		{[]string{"task", "get", "--transport", "http+json", "--agent-id", "agent-7", "-e", agent.URL, "task-1"}, exitUsage,
			"a2a task get: A2ACLI_ERR_USAGE: --agent-id and --agent-code put a member in the JSON-RPC request envelope, which HTTP+JSON requests do not have"},
		{[]string{"task", "get", "--svc-param", "A2A-Version=1.0", "-e", agent.URL, "task-1"}, exitUsage,
			"use --a2a-version\n"},
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
	r := a2aCmd(t, "send", "--debug", "-a", restURL+"/", "本月巡检记录")
	r.wantCode(t, exitOK)
	if want := "a2a: protocol: v1.0 over HTTP+JSON, the card's interface for " + restURL + "/\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("--debug does not say %q:\n%s", want, r.stderr)
	}
	got := requestLines(agent)
	if len(got) == 0 || !strings.HasPrefix(got[0], "POST /a2a/rest/acme/message:") {
		t.Errorf("requests: %q", got)
	}
}

// TestTransportSkipsUnspoken: a binding the card lists that a2a does not
// speak (GRPC) is skipped for the next (TX_002); a --transport the card
// does not list is skipped too, for the next that it does.
func TestTransportSkipsUnspoken(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	mux.HandleFunc("GET "+a2a.AgentCardPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"name":"grpc first","version":"1","capabilities":{},"supportedInterfaces":[
			{"url":"` + site.URL + `/grpc","protocolBinding":"GRPC","protocolVersion":"1.0"},
			{"url":"` + site.URL + `/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`))
	})
	for _, args := range [][]string{nil, {"--transport", "rest", "--transport", "jsonrpc"}, {"--transport", "grpc"}} {
		r := a2aCmd(t, append([]string{"card", "get", "-a", site.URL}, args...)...)
		r.wantCode(t, exitOK)
		if want := "Interface: " + site.URL + "/rpc JSONRPC 1.0 (chosen)\n"; !strings.Contains(r.stdout, want) || strings.Count(r.stdout, "(chosen)") != 1 {
			t.Errorf("%q: stdout does not mark %q once:\n%s", args, want, r.stdout)
		}
		if want := "Interface: " + site.URL + "/grpc GRPC 1.0\n"; !strings.Contains(r.stdout, want) {
			t.Errorf("%q: stdout does not list %q:\n%s", args, want, r.stdout)
		}
	}
}

// TestCapabilitiesChecked: a call the card says the agent cannot take
// (a push config without pushNotifications, a subscription without
// streaming) fails before it is sent, with A2A's name for it (VER_003);
// send --stream to such an agent sends without a stream and says so
// (SEND_003).
func TestCapabilitiesChecked(t *testing.T) {
	t.Parallel()
	agent := newRESTAgent(t) // capabilities: {}
	for _, tc := range []struct {
		args []string
		code string
	}{
		{[]string{"task", "push-config", "create", "task-1", "https://hooks.example.com/a2a"}, "PushNotificationNotSupportedError"},
		{[]string{"task", "subscribe", "task-1"}, "UnsupportedOperationError"},
	} {
		r := a2aCmd(t, append(tc.args, "-a", agent.URL)...)
		r.wantCode(t, exitError)
		if !strings.Contains(r.stderr, ": "+tc.code+": ") || !strings.Contains(r.stderr, "hint: ") {
			t.Errorf("%q: stderr does not name %s with a hint:\n%s", tc.args, tc.code, r.stderr)
		}
	}
	if got := agent.requests(); len(got) != 0 {
		t.Errorf("requests sent: %q", got)
	}
	r := a2aCmd(t, "send", "--stream", "-a", agent.URL, "你好")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stderr, "does not stream") {
		t.Errorf("send --stream: stderr does not say the agent does not stream:\n%s", r.stderr)
	}
	if got := agent.requests(); len(got) == 0 || got[0] != "POST /rest/message:send 1.0" {
		t.Errorf("send --stream: requests %q, want message:send", got)
	}
}
