package main

import (
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// Which version the CLI speaks (--protocol, the card, the v1.0 retry),
// the tenant, and the environment variables.

// calls are the JSON-RPC methods the agent was called with, GETs left out.
func calls(agent *a2atest.Server) []string {
	var out []string
	for _, m := range methods(agent) {
		if m != "" {
			out = append(out, m)
		}
	}
	return out
}

// notFound is the reply of a site without a card.
var notFound = a2atest.Raw{Status: http.StatusNotFound, ContentType: "text/plain", Body: "404 page not found\n"}

// rpcError is a JSON-RPC error reply to any request.
func rpcError(code int, message string) a2atest.Raw {
	return a2atest.Raw{ContentType: "application/json", EchoID: true,
		Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":` + strconv.Itoa(code) + `,"message":"` + message + `"}}`}
}

func TestProtocolAutoFromCard(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.V10())
	r := invocation{}.run(t, "send", "-v", agent.URL, "这个二维码是什么？"+a2atest.SeedQRCode)
	r.wantCode(t, exitOK)
	if diff := cmp.Diff([]string{"SendMessage"}, calls(agent)); diff != "" {
		t.Errorf("JSON-RPC calls (-want +got):\n%s", diff)
	}
	reqs := agent.Requests()
	if v := reqs[len(reqs)-1].Header.Get("A2A-Version"); v != "1.0" {
		t.Errorf("A2A-Version = %q, want 1.0", v)
	}
	if want := "a2a: protocol: v1.0, from the card's interface for " + agent.URL; !strings.Contains(r.stderr, want) {
		t.Errorf("-v does not say %q:\n%s", want, r.stderr)
	}
}

// TestProtocolSwitch: without a card, the CLI speaks v0.3; a v1.0 agent
// refuses it with -32009, and the CLI asks again in v1.0, once, saying so.
func TestProtocolSwitch(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.V10())
	// A v1.0 fake serves a card of its own at its site: these 404s hide it
	// from the card paths under the endpoint, its prefix and the site (the
	// two legacy paths have none).
	agent.Enqueue(notFound, notFound, notFound)
	r := a2aCmd(t, "send", agent.URL, "这个二维码是什么？"+a2atest.SeedQRCode)
	r.wantCode(t, exitOK)
	golden(t, "protocol_switch", r)
	if diff := cmp.Diff([]string{"", "", "", "", "", "message/send", "SendMessage"}, methods(agent)); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}

	// Once: an agent that refuses v1.0 too ends the command with its error.
	twice := newAgent(t, a2atest.V10())
	twice.Enqueue(notFound, notFound, notFound, notFound, notFound, rpcError(-32009, "version 0.3 not supported"), rpcError(-32009, "version 1.0 not supported"))
	r = a2aCmd(t, "get", twice.URL, "task-1")
	r.wantCode(t, exitError)
	if diff := cmp.Diff([]string{"", "", "", "", "", "tasks/get", "GetTask"}, methods(twice)); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	for _, want := range []string{"asking again in v1.0", "version 1.0 not supported (code -32009)", "(asked in A2A v0.3, then in v1.0: the agent took neither)\n"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not hold %q:\n%s", want, r.stderr)
		}
	}
}

// TestVersionMismatchIsPrinted: a version fault the CLI does not answer
// by asking again in v1.0 is printed, never a silent exit 1.
func TestVersionMismatchIsPrinted(t *testing.T) {
	t.Parallel()
	// The card says v1.0, and the agent refuses v1.0.
	v10 := newAgent(t, a2atest.V10())
	resp, err := http.Get(siteOfAgent(v10) + a2a.AgentCardPath)
	if err != nil {
		t.Fatal(err)
	}
	card, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	v10.Enqueue(notFound, notFound, a2atest.Raw{ContentType: "application/json", Body: string(card)}, rpcError(-32009, "version 1.0 not supported"))
	r := a2aCmd(t, "get", v10.URL, "task-1")
	r.wantCode(t, exitError)
	if want := "a2a get: GetTask: version 1.0 not supported (code -32009)"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not hold %q:\n%s", want, r.stderr)
	}
	if got := calls(v10); !slices.Equal(got, []string{"GetTask"}) {
		t.Errorf("JSON-RPC calls = %q, want one GetTask", got)
	}
	// The card was read (--protocol auto): the hint does not offer it.
	if want := "(spoken to in A2A v1.0, as the agent's card says; if the agent speaks v0.3 nonetheless, add --protocol 0.3)\n"; !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "--protocol auto") {
		t.Errorf("stderr does not hold %q alone:\n%s", want, r.stderr)
	}
	// Given --protocol 1.0, the card is not read: --protocol auto would.
	v10.Enqueue(rpcError(-32009, "version 1.0 not supported"))
	r = a2aCmd(t, "get", "--protocol", "1.0", v10.URL, "task-1")
	r.wantCode(t, exitError)
	if want := "(spoken to in A2A v1.0; the agent may speak v0.3: add --protocol 0.3, or --protocol auto to read its card)\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not hold %q:\n%s", want, r.stderr)
	}

	// No card, and a v1.0-shaped result to the v0.3 send: the agent has
	// acted, so the CLI must not send again, but must say why it failed.
	v03 := newAgent(t)
	v03.Enqueue(notFound, notFound, notFound, notFound, notFound, a2atest.Raw{ContentType: "application/json", EchoID: true,
		Body: `{"jsonrpc":"2.0","id":{{id}},"result":{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}}`})
	r = a2aCmd(t, "send", v03.URL, "你好")
	r.wantCode(t, exitError)
	if !strings.Contains(r.stderr, "a2a send: ") {
		t.Errorf("stderr does not say why send failed:\n%s", r.stderr)
	}
	if got := calls(v03); !slices.Equal(got, []string{"message/send"}) {
		t.Errorf("JSON-RPC calls = %q, want one message/send", got)
	}
}

func TestTenant(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.V10(), a2atest.RequireTenant("acme"))
	r := a2aCmd(t, "send", "--tenant", "acme", agent.URL, "这个二维码是什么？"+a2atest.SeedQRCode)
	r.wantCode(t, exitOK)
	env := invocation{env: map[string]string{"A2A_TENANT": "acme"}}.run(t, "get", agent.URL, "task-1")
	env.wantCode(t, exitOK)
	// --protocol 1.0 reads no card: no tenant, and the agent refuses.
	none := a2aCmd(t, "get", "--protocol", "1.0", agent.URL, "task-1")
	none.wantCode(t, exitError)
	if !strings.Contains(none.stderr, "(code -32602)") {
		t.Errorf("stderr does not show the agent's refusal:\n%s", none.stderr)
	}
	// --protocol auto sends the tenant of the card's interface (A2A v1.0
	// §8.3.2).
	fromCard := a2aCmd(t, "get", agent.URL, "task-1")
	fromCard.wantCode(t, exitOK)
	if got := calls(agent); !slices.Equal(got, []string{"SendMessage", "GetTask", "GetTask", "GetTask"}) {
		t.Fatalf("JSON-RPC calls = %q", got)
	}
	var bodies []string
	for _, req := range agent.Requests() {
		if req.Method != "" {
			bodies = append(bodies, string(req.Body))
		}
	}
	for i, want := range []bool{true, true, false, true} {
		if got := strings.Contains(bodies[i], `"tenant":"acme"`); got != want {
			t.Errorf("call %d has the tenant: %v, want %v: %s", i+1, got, want, bodies[i])
		}
	}
}

func TestEnvironment(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.RequireAPIKey("k-env"), a2atest.RequireAgentID("agent-7"))
	env := map[string]string{"A2A_API_KEY": "k-env", "A2A_AGENT_ID": "agent-7", "A2A_HEADERS": "X-Trace=abc; X-Team=qa", "A2A_PROTOCOL": "0.3"}
	r := invocation{env: env}.run(t, "send", agent.URL, "这个二维码是什么？"+a2atest.SeedQRCode)
	r.wantCode(t, exitOK)
	reqs := agent.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want one message/send (A2A_PROTOCOL=0.3: no card lookup)", len(reqs))
	}
	h := reqs[0].Header
	for k, want := range map[string]string{"X-Api-Key": "k-env", "X-Trace": "abc", "X-Team": "qa"} {
		if got := h.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	if !strings.Contains(string(reqs[0].Body), `"agent_id":"agent-7"`) {
		t.Errorf("the body has no agent_id: %s", reqs[0].Body)
	}

	// A flag wins over its variable.
	wrong := invocation{env: env}.run(t, "get", agent.URL, "task-1", "--api-key", "k-flag")
	wrong.wantCode(t, exitError)
	if got := agent.Requests()[1].Header.Get("X-Api-Key"); got != "k-flag" {
		t.Errorf("X-Api-Key = %q, want the flag's k-flag", got)
	}

	// A2A_PROTOCOL=1.0: v1.0 at once, no card read.
	v10 := newAgent(t, a2atest.V10())
	r = invocation{env: map[string]string{"A2A_PROTOCOL": "1.0"}}.run(t, "send", v10.URL, "你好")
	r.wantCode(t, exitFailed)
	if diff := cmp.Diff([]string{"SendMessage"}, methods(v10)); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}

	// A2A_TIMEOUT bounds a wait: it ends as not finished, with the command
	// that waits again.
	slow := workingAgent(t)
	id := startTask(t, slow, a2a.ProtocolV03, "盘点")
	r = invocation{env: map[string]string{"A2A_TIMEOUT": "200ms", "A2A_PROTOCOL": "0.3"}}.run(t, "wait", slow.URL, id)
	r.wantCode(t, exitUnfinished)
	if want := "--timeout 200ms reached"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not hold %q:\n%s", want, r.stderr)
	}
}
