package main

import (
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// The A2A CLI specification v0.2's transport, version and default
// requirements (TX_001..004, VER_001, DEFAULT_001).

// specBinding is the binding a request went over, by its path.
func specBinding(r a2atest.Request) string {
	switch {
	case strings.HasPrefix(r.Path, "/a2a/rest"):
		return a2a.TransportHTTPJSON
	case strings.HasPrefix(r.Path, "/a2a/jsonrpc"):
		return a2a.TransportJSONRPC
	}
	return r.Path
}

// specLastBinding is the binding of the agent's last request.
func specLastBinding(t *testing.T, agent *a2atest.Server) string {
	t.Helper()
	got := specCalls(agent)
	if len(got) == 0 {
		t.Fatal("the agent got no call")
	}
	return specBinding(got[len(got)-1])
}

// TestSpecTransportCardOrder: A2ACLI_TX_001. The binding is the card's
// first the tool speaks, in the card's order.
func TestSpecTransportCardOrder(t *testing.T) {
	for _, order := range [][]string{{a2a.TransportHTTPJSON, a2a.TransportJSONRPC}, {a2a.TransportJSONRPC, a2a.TransportHTTPJSON}} {
		agent := specAgent(t, a2atest.Bindings(order...))
		specRun(t, "send", "-a", agent.BaseURL(), "hello").want(t, exitOK)
		if got := specLastBinding(t, agent); got != order[0] {
			t.Errorf("card %v: sent over %s, want %s", order, got, order[0])
		}
	}
}

// TestSpecTransportPreference: A2ACLI_TX_002. Without a preference the
// card's first entry the tool speaks (GRPC is not: skipped);
// --transport is repeatable and ordered; a binding not on the card is
// skipped, and when none matches the card's order decides.
func TestSpecTransportPreference(t *testing.T) {
	l, site := specListener(t)
	grpcFirst := specCard(a2a.AgentCapabilities{},
		a2a.AgentInterface{URL: strings.TrimPrefix(site, "http://"), ProtocolBinding: a2a.TransportGRPC, ProtocolVersion: "1.0"},
		a2a.AgentInterface{URL: site + "/a2a/jsonrpc", ProtocolBinding: a2a.TransportJSONRPC, ProtocolVersion: "1.0"})
	agent := specAgent(t, a2atest.Listener(l), a2atest.WithCard(grpcFirst))
	for _, args := range [][]string{{}, {"--transport", "GRPC"}, {"--transport", "rest", "--transport", "jsonrpc"}} {
		specRun(t, append([]string{"send", "-a", agent.BaseURL(), "hello"}, args...)...).want(t, exitOK)
		if got := specLastBinding(t, agent); got != a2a.TransportJSONRPC {
			t.Errorf("card [GRPC, JSONRPC], %v: sent over %s, want JSONRPC", args, got)
		}
	}

	// Nothing the preference names is on the card: the card's order.
	r := specRun(t, "send", "-a", agent.BaseURL(), "hello", "--transport", "HTTP+JSON")
	r.want(t, exitOK)
	if got := specLastBinding(t, agent); got != a2a.TransportJSONRPC {
		t.Errorf("card [GRPC, JSONRPC], --transport HTTP+JSON: sent over %s, want JSONRPC (the card's order)", got)
	}

	both := specAgent(t, a2atest.Bindings(a2a.TransportJSONRPC, a2a.TransportHTTPJSON))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--transport", "HTTP+JSON"}, a2a.TransportHTTPJSON},
		{[]string{"--transport", "rest", "--transport", "jsonrpc"}, a2a.TransportHTTPJSON},
		{[]string{"--transport", "jsonrpc,rest"}, a2a.TransportJSONRPC},
		{[]string{"--transport", "grpc", "--transport", "rest"}, a2a.TransportHTTPJSON},
	} {
		specRun(t, append([]string{"send", "-a", both.BaseURL(), "hello"}, tc.args...)...).want(t, exitOK)
		if got := specLastBinding(t, both); got != tc.want {
			t.Errorf("card [JSONRPC, HTTP+JSON], %v: sent over %s, want %s", tc.args, got, tc.want)
		}
	}
	w := newSpecWorld(t)
	w.vars["A2ACLI_TRANSPORT"] = "HTTP+JSON,JSONRPC"
	w.run(t, "send", "-a", both.BaseURL(), "hello").want(t, exitOK)
	if got := specLastBinding(t, both); got != a2a.TransportHTTPJSON {
		t.Errorf("A2ACLI_TRANSPORT=HTTP+JSON,JSONRPC: sent over %s", got)
	}
}

// TestSpecTenant: A2ACLI_TX_003. The chosen entry's tenant goes in every
// request exactly as declared: JSON-RPC's params.tenant, HTTP+JSON's path
// prefix; an entry without one sends none.
func TestSpecTenant(t *testing.T) {
	const tenant = "projects/p-1"
	agent := specAgent(t, a2atest.RequireTenant(tenant), a2atest.Bindings(a2a.TransportJSONRPC, a2a.TransportHTTPJSON))
	w := newSpecWorld(t)
	w.vars["A2ACLI_AGENT_CARD"] = agent.BaseURL()
	r := w.run(t, "send", "hello").want(t, exitOK)
	w.run(t, "task", "get", r.field("Task")).want(t, exitOK)
	w.run(t, "send", "--transport", "HTTP+JSON", "hello").want(t, exitOK)
	w.run(t, "task", "get", "--transport", "HTTP+JSON", r.field("Task")).want(t, exitOK)
	for _, req := range specCalls(agent) {
		switch specBinding(req) {
		case a2a.TransportJSONRPC:
			if got := specParams(t, req)["tenant"]; got != tenant {
				t.Errorf("%s over JSON-RPC: tenant %v, want %s", req.Method, got, tenant)
			}
		case a2a.TransportHTTPJSON:
			if !strings.HasPrefix(req.Path, "/a2a/rest/"+tenant+"/") {
				t.Errorf("%s over HTTP+JSON: path %s, want the prefix /%s/", req.Method, req.Path, tenant)
			}
		default:
			t.Errorf("unexpected request %s %s", req.HTTPMethod, req.Path)
		}
	}

	plain := specAgent(t)
	specRun(t, "send", "-a", plain.BaseURL(), "hello").want(t, exitOK)
	if _, ok := specParams(t, specSends(plain)[0])["tenant"]; ok {
		t.Errorf("a tenant was sent to an entry that declares none: %s", specSends(plain)[0].Body)
	}
}

// TestSpecTwoBindings: A2ACLI_TX_004. The same commands over JSON-RPC and
// HTTP+JSON, chosen with --transport, on one agent, with the same output.
func TestSpecTwoBindings(t *testing.T) {
	agent := specAgent(t, a2atest.Bindings(a2a.TransportJSONRPC, a2a.TransportHTTPJSON))
	id := specStartTask(t, agent)
	var outs []string
	for _, binding := range []string{a2a.TransportJSONRPC, a2a.TransportHTTPJSON} {
		w := newSpecWorld(t)
		w.vars["A2ACLI_AGENT_CARD"] = agent.BaseURL()
		r := w.run(t, "task", "get", id, "--transport", binding).want(t, exitOK)
		if got := specLastBinding(t, agent); got != binding {
			t.Errorf("task get --transport %s: went over %s", binding, got)
		}
		outs = append(outs, r.stdout)
		w.run(t, "send", "hello", "--transport", binding).want(t, exitOK)
		if got := specLastBinding(t, agent); got != binding {
			t.Errorf("send --transport %s: went over %s", binding, got)
		}
	}
	if outs[0] != outs[1] {
		t.Errorf("task get printed differently per binding:\n%s\n---\n%s", outs[0], outs[1])
	}
}

// TestSpecVersionHeader: A2ACLI_VER_001. A2A-Version on every request of
// a wait, the polls included, never empty; an agent whose card offers
// only v0.3 is refused (VersionNotSupportedError, nothing sent) unless
// --a2a-version 0.3 (or A2ACLI_A2A_VERSION=0.3) opts in.
func TestSpecVersionHeader(t *testing.T) {
	polled := func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateSubmitted, ""),
			States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted}}
	}
	for _, binding := range []string{a2a.TransportJSONRPC, a2a.TransportHTTPJSON} {
		agent := specAgent(t, a2atest.OnSend(polled), a2atest.Bindings(binding), a2atest.WithCard(specCard(a2a.AgentCapabilities{})))
		r := specRun(t, "send", "-a", agent.BaseURL(), "--poll-interval", "10ms", "hello").want(t, exitOK)
		specRun(t, "task", "get", "-a", agent.BaseURL(), "--wait", "--poll-interval", "10ms", r.field("Task")).want(t, exitOK)
		if n := len(specCallsOf(agent, "GetTask")); n < 3 {
			t.Errorf("%s: %d polls, want at least 3", binding, n)
		}
		for _, req := range specCalls(agent) {
			if got := req.Header.Values("A2A-Version"); len(got) != 1 || got[0] != "1.0" {
				t.Errorf("%s %s %s: A2A-Version %q, want 1.0", binding, req.Method, req.Path, got)
			}
		}
	}

	v03 := a2atest.NewServer(a2atest.OnSend(polled), a2atest.WithCard(&a2a.AgentCard{Name: "v0.3 only", ProtocolVersion: "0.3.0"}))
	t.Cleanup(v03.Close)
	r := specRun(t, "send", "-a", v03.BaseURL(), "hello", "-o", "json").want(t, exitError)
	code, _, hint, _ := r.envelope(t)
	if h, _ := hint.(string); code != "VersionNotSupportedError" || !strings.Contains(h, "--a2a-version 0.3") {
		t.Errorf("v0.3-only card: code %q hint %v, want VersionNotSupportedError and --a2a-version 0.3", code, hint)
	}
	if got := specCalls(v03); len(got) != 0 {
		t.Errorf("v0.3-only card without the opt-in: %d requests sent", len(got))
	}
	specRun(t, "send", "-a", v03.BaseURL(), "--a2a-version", "0.3", "--poll-interval", "10ms", "hello").want(t, exitOK)
	w := newSpecWorld(t)
	w.vars["A2ACLI_A2A_VERSION"] = "0.3"
	w.run(t, "send", "-a", v03.BaseURL(), "--poll-interval", "10ms", "hello").want(t, exitOK)
	for _, req := range specCalls(v03) {
		if got := req.Header.Get("A2A-Version"); got != "0.3" {
			t.Errorf("v0.3 %s: A2A-Version %q, want 0.3", req.Method, got)
		}
	}
}

// TestSpecDefaultsInHelp: A2ACLI_DEFAULT_001. The six defaults of the
// specification's §6.5 (transport: the card's order; completion: wait;
// output: text; detail: concise, --verbose and --debug; version: the
// highest both speak, at least 1.0; TLS: verified, --insecure) are in
// send's --help, each with the flag that overrides it, and the help shows
// the effective value when a setting changes it.
func TestSpecDefaultsInHelp(t *testing.T) {
	r := specRun(t, "send", "--help").want(t, exitOK)
	for _, want := range [][]string{
		{"--transport", "card's order"},
		{"--async", "wait"},
		{"--wait", "default"},
		{"--output", "(text)"},
		{"--verbose", "exchanged"},
		{"--debug", "stderr"},
		{"--a2a-version", "at least 1.0"},
		{"--insecure", "TLS"},
	} {
		if !specHelpSays(r.stdout, want[0], want[1]) {
			t.Errorf("send --help: %s does not say %q:\n%s", want[0], want[1], r.stdout)
		}
	}
	w := newSpecWorld(t)
	for k, v := range map[string]string{"A2ACLI_TRANSPORT": "HTTP+JSON", "A2ACLI_ASYNC": "true", "A2ACLI_OUTPUT": "json",
		"A2ACLI_VERBOSE": "true", "A2ACLI_DEBUG": "true", "A2ACLI_A2A_VERSION": "0.3", "A2ACLI_INSECURE": "true"} {
		w.vars[k] = v
	}
	r = w.run(t, "send", "--help").want(t, exitOK)
	for flag, value := range map[string]string{"--transport": "HTTP+JSON", "--async": "true", "--output": "json",
		"--verbose": "true", "--debug": "true", "--a2a-version": "0.3", "--insecure": "true"} {
		if !specHelpSays(r.stdout, flag, "("+value+", from the environment)") {
			t.Errorf("send --help with A2ACLI_ settings: %s does not show (%s, from the environment):\n%s", flag, value, r.stdout)
		}
	}
}

// specHelpSays reports whether the help entry of flag (its name line and
// the usage line under it) says want.
func specHelpSays(help, flag, want string) bool {
	lines := strings.Split(help, "\n")
	for i, l := range lines {
		if strings.Contains(l, flag+" ") || strings.HasSuffix(l, flag) {
			if strings.Contains(l, want) || i+1 < len(lines) && strings.Contains(lines[i+1], want) {
				return true
			}
		}
	}
	return false
}
