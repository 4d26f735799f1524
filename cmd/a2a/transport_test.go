package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
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
