package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// Which version the CLI speaks (--a2a-version, the card), the tenant, and
// the A2ACLI_ environment variables.

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

// rpcError is a JSON-RPC error reply to any request.
func rpcError(code int, message string) a2atest.Raw {
	return a2atest.Raw{ContentType: "application/json", EchoID: true,
		Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":` + strconv.Itoa(code) + `,"message":"` + message + `"}}`}
}

// TestVersionFromCard: without --a2a-version the card's v1.0 interface is
// spoken (the specification's VER_002: the highest both speak).
func TestVersionFromCard(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.V10())
	r := a2aCmd(t, "send", "--debug", "--async", "-a", agent.URL, "这个二维码是什么？"+a2atest.SeedQRCode)
	r.wantCode(t, exitOK)
	if diff := cmp.Diff([]string{"SendMessage"}, calls(agent)); diff != "" {
		t.Errorf("JSON-RPC calls (-want +got):\n%s", diff)
	}
	reqs := agent.Requests()
	if v := reqs[len(reqs)-1].Header.Get("A2A-Version"); v != "1.0" {
		t.Errorf("A2A-Version = %q, want 1.0", v)
	}
	if want := "a2a: protocol: v1.0 over JSONRPC, the card's interface for " + agent.URL + "\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("--debug does not say %q:\n%s", want, r.stderr)
	}
}

// TestVersionV03OptIn: a card that offers A2A v0.3 alone is refused
// without --a2a-version 0.3 (VersionNotSupportedError, a hint in flags,
// nothing sent but the card's GET: the specification's VER_001); with
// it, or A2ACLI_A2A_VERSION=0.3 in the environment or a .env file, v0.3
// is spoken.
func TestVersionV03OptIn(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.Bindings(a2a.TransportJSONRPC)) // a v0.3 card
	for _, mode := range []string{"text", "json"} {
		r := a2aCmd(t, "send", "-a", agent.URL, "-o", mode, "你好")
		r.wantCode(t, exitError)
		for _, want := range []string{"a2a send: VersionNotSupportedError: the agent's card offers A2A v0.3 only (JSONRPC v0.3.0), and a2a speaks v0.3 only when asked\n",
			"hint: add --a2a-version 0.3 (or A2ACLI_A2A_VERSION=0.3 in .env)\n"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%s: stderr does not say %q:\n%s", mode, want, r.stderr)
			}
		}
		if want := `{"error":{"code":"VersionNotSupportedError","message":"the agent's card offers A2A v0.3 only (JSONRPC v0.3.0), and a2a speaks v0.3 only when asked","hint":"add --a2a-version 0.3 (or A2ACLI_A2A_VERSION=0.3 in .env)","a2aCode":null}}` + "\n"; mode == "json" && r.stdout != want {
			t.Errorf("-o json: stdout:\n%s\nwant:\n%s", r.stdout, want)
		}
	}
	if got := calls(agent); len(got) != 0 {
		t.Fatalf("sent without --a2a-version 0.3: %q", got)
	}

	dotenv := filepath.Join(t.TempDir(), "agent.env")
	if err := os.WriteFile(dotenv, []byte("A2ACLI_A2A_VERSION=0.3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   invocation
		args []string
	}{
		{"--a2a-version 0.3", invocation{}, []string{"--a2a-version", "0.3"}},
		{"A2ACLI_A2A_VERSION", invocation{env: map[string]string{"A2ACLI_A2A_VERSION": "0.3"}}, nil},
		{"--config", invocation{}, []string{"--config", dotenv}},
	} {
		before := len(calls(agent))
		r := tc.in.run(t, append([]string{"send", "--async", "-a", agent.URL, "你好"}, tc.args...)...)
		r.wantCode(t, exitOK)
		if got := calls(agent)[before:]; !slices.Equal(got, []string{"message/send"}) {
			t.Errorf("%s: calls %q, want one v0.3 message/send", tc.name, got)
		}
	}
}

// TestVersionHighestOnCard: a card that offers both versions is spoken to
// in v1.0, unless --a2a-version says 0.3 (VER_002).
func TestVersionHighestOnCard(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	site := httptest.NewServer(mux)
	t.Cleanup(site.Close)
	mux.HandleFunc("GET "+a2a.AgentCardPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"name":"both","version":"1","capabilities":{},"supportedInterfaces":[
			{"url":"` + site.URL + `/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3.0"},
			{"url":"` + site.URL + `/v10","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`))
	})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "Interface: " + site.URL + "/v10 JSONRPC 1.0 (chosen)\n"},
		{[]string{"--a2a-version", "1.0"}, "Interface: " + site.URL + "/v10 JSONRPC 1.0 (chosen)\n"},
		{[]string{"--a2a-version", "0.3"}, "Interface: " + site.URL + "/v03 JSONRPC 0.3.0 (chosen)\n"},
	} {
		r := a2aCmd(t, append([]string{"card", "get", "-a", site.URL}, tc.args...)...)
		r.wantCode(t, exitOK)
		if !strings.Contains(r.stdout, tc.want) || strings.Count(r.stdout, "(chosen)") != 1 {
			t.Errorf("%q: stdout does not mark %q once:\n%s", tc.args, tc.want, r.stdout)
		}
	}
	bad := a2aCmd(t, "card", "get", "-a", site.URL, "--a2a-version", "0.2")
	bad.wantCode(t, exitUsage)
}

// TestVersionEndpoint: -e reads no card and speaks --a2a-version's
// version, 1.0 by default; a v0.3 agent so spoken to gets a hint that
// names --a2a-version 0.3.
func TestVersionEndpoint(t *testing.T) {
	t.Parallel()
	v03 := newAgent(t)
	r := a2aCmd(t, "task", "get", "-e", v03.URL, "task-1")
	r.wantCode(t, exitError)
	if want := "hint: if the agent speaks another A2A version: --a2a-version 0.3\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not hold %q:\n%s", want, r.stderr)
	}
	reqs := v03.Requests()
	if len(reqs) != 1 || reqs[0].Header.Get("A2A-Version") != "1.0" || !strings.Contains(string(reqs[0].Body), `"GetTask"`) {
		t.Errorf("want one v1.0 GetTask, no card read; got %d requests", len(reqs))
	}
	id := startTask(t, v03, a2a.ProtocolV03, "这个二维码是什么？"+a2atest.SeedQRCode)
	r = a2aCmd(t, "task", "get", "-e", v03.URL, "--a2a-version", "0.3", id)
	r.wantCode(t, exitOK)
	if got := calls(v03); !slices.Equal(got, []string{"GetTask", "message/send", "tasks/get"}) {
		t.Errorf("calls = %q", got)
	}
}

// TestVersionMismatchIsPrinted: an agent that refuses the version its
// card names is printed with its error, never a silent exit 1, and no
// second version is tried.
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
	v10.Enqueue(a2atest.Raw{ContentType: "application/json", Body: string(card)}, rpcError(-32009, "version 1.0 not supported"))
	r := a2aCmd(t, "task", "get", "-a", siteOfAgent(v10), "task-1")
	r.wantCode(t, exitError)
	if want := "a2a task get: VersionNotSupportedError: version 1.0 not supported\nhint: --a2a-version 0.3\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr does not hold %q:\n%s", want, r.stderr)
	}
	if got := calls(v10); !slices.Equal(got, []string{"GetTask"}) {
		t.Errorf("JSON-RPC calls = %q, want one GetTask", got)
	}
	// -e: the same.
	v10.Enqueue(rpcError(-32009, "version 1.0 not supported"))
	r = a2aCmd(t, "task", "get", "-e", v10.URL, "-o", "json", "task-1")
	r.wantCode(t, exitError)
	if !strings.HasPrefix(r.stdout, `{"error":{"code":"VersionNotSupportedError",`) || !strings.Contains(r.stdout, `"a2aCode":-32009}}`) {
		t.Errorf("-o json: stdout:\n%s", r.stdout)
	}

	// A v1.0-shaped result to a v0.3 send: the agent has acted, so the CLI
	// must not send again, but must say why it failed.
	v03 := newAgent(t)
	v03.Enqueue(a2atest.Raw{ContentType: "application/json", EchoID: true,
		Body: `{"jsonrpc":"2.0","id":{{id}},"result":{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}}`})
	r = a2aCmd(t, "send", "-e", v03.URL, "--a2a-version", "0.3", "你好")
	r.wantCode(t, exitError)
	if !strings.Contains(r.stderr, "a2a send: ") {
		t.Errorf("stderr does not say why send failed:\n%s", r.stderr)
	}
	if got := calls(v03); !slices.Equal(got, []string{"message/send"}) {
		t.Errorf("JSON-RPC calls = %q, want one message/send", got)
	}
}

// TestTenant: --tenant (or A2ACLI_TENANT) is sent; with a card, the
// card's interface's tenant is sent as declared; -e without --tenant
// sends none (and this agent refuses); --tenant needs v1.0.
func TestTenant(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.V10(), a2atest.RequireTenant("acme"))
	// bodies are the JSON-RPC bodies the agent took since call before.
	bodies := func(before int) []string {
		var out []string
		for _, req := range agent.Requests()[before:] {
			if req.Method != "" {
				out = append(out, string(req.Body))
			}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		in     invocation
		args   []string
		code   int
		tenant bool
	}{
		{"--tenant with -e", invocation{}, []string{"send", "--tenant", "acme", "-e", agent.URL, "这个二维码是什么？" + a2atest.SeedQRCode}, exitOK, true},
		{"A2ACLI_TENANT with -e", invocation{env: map[string]string{"A2ACLI_TENANT": "acme"}}, []string{"task", "get", "-e", agent.URL, "task-1"}, exitOK, true},
		{"no tenant with -e", invocation{}, []string{"task", "get", "-e", agent.URL, "task-1"}, exitError, false},
		{"the card's tenant", invocation{}, []string{"task", "get", "-a", agent.URL, "task-1"}, exitOK, true},
		{"--tenant over the card's", invocation{}, []string{"task", "get", "--tenant", "other", "-a", agent.URL, "task-1"}, exitError, false},
	} {
		before := len(agent.Requests())
		r := tc.in.run(t, tc.args...)
		r.wantCode(t, tc.code)
		got := bodies(before)
		if len(got) == 0 {
			t.Fatalf("%s: nothing sent", tc.name)
		}
		for _, b := range got {
			if strings.Contains(b, `"tenant":"acme"`) != tc.tenant {
				t.Errorf("%s: tenant acme sent: %v, want %v: %s", tc.name, !tc.tenant, tc.tenant, b)
			}
		}
		if tc.code == exitError && !strings.Contains(r.stderr, "InvalidParamsError") {
			t.Errorf("%s: stderr does not show the agent's refusal:\n%s", tc.name, r.stderr)
		}
	}
	r := a2aCmd(t, "task", "get", "--tenant", "acme", "-e", agent.URL, "--a2a-version", "0.3", "task-1")
	r.wantCode(t, exitUsage)
}

// TestEnvironment: every flag has its A2ACLI_ variable; a flag wins over
// it; the old A2A_ variables are not read.
func TestEnvironment(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.RequireAPIKey("k-env"), a2atest.RequireAgentID("agent-7"))
	env := map[string]string{"A2ACLI_API_KEY": "k-env", "A2ACLI_AGENT_ID": "agent-7", "A2ACLI_SVC_PARAM": "X-Trace:abc;X-Team=qa",
		"A2ACLI_A2A_VERSION": "0.3", "A2ACLI_ENDPOINT": agent.URL}
	r := invocation{env: env}.run(t, "send", "这个二维码是什么？"+a2atest.SeedQRCode)
	r.wantCode(t, exitOK)
	reqs := agent.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want one message/send (A2ACLI_ENDPOINT: no card read)", len(reqs))
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
	wrong := invocation{env: env}.run(t, "task", "get", "task-1", "--api-key", "k-flag")
	wrong.wantCode(t, exitAuth)
	if got := agent.Requests()[1].Header.Get("X-Api-Key"); got != "k-flag" {
		t.Errorf("X-Api-Key = %q, want the flag's k-flag", got)
	}

	// The old variables are not read: no key is sent.
	old := invocation{env: map[string]string{"A2A_API_KEY": "k-env", "A2A_AGENT_ID": "agent-7", "A2A_PROTOCOL": "0.3"}}.run(t, "task", "get", "-e", agent.URL, "--a2a-version", "0.3", "task-1")
	old.wantCode(t, exitAuth)
	if got := agent.Requests()[2].Header.Get("X-Api-Key"); got != "" {
		t.Errorf("A2A_API_KEY was read: X-Api-Key %q", got)
	}

	// A2ACLI_A2A_VERSION=1.0: v1.0 at once, no card read.
	v10 := newAgent(t, a2atest.V10())
	r = invocation{env: map[string]string{"A2ACLI_A2A_VERSION": "1.0"}}.run(t, "send", "-e", v10.URL, "你好")
	r.wantCode(t, exitOK)
	if diff := cmp.Diff([]string{"SendMessage"}, methods(v10)); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}

	// A2ACLI_TIMEOUT bounds a wait: it ends with A2ACLI_ERR_TIMEOUT (exit
	// 5), the task's ids and the command that waits again.
	slow := workingAgent(t)
	id := startTask(t, slow, a2a.ProtocolV03, "盘点")
	r = invocation{env: map[string]string{"A2ACLI_TIMEOUT": "200ms", "A2ACLI_A2A_VERSION": "0.3"}}.run(t, "task", "get", "--wait", "-e", slow.URL, id)
	r.wantCode(t, exitTimeout)
	for _, want := range []string{"A2ACLI_ERR_TIMEOUT", "hint: give it longer than --timeout 200ms"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr does not hold %q:\n%s", want, r.stderr)
		}
	}
	if want := "Resume: a2a task get --wait -e " + slow.URL + " " + id + "\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("stdout does not hold %q:\n%s", want, r.stdout)
	}
}

// TestVersionHeaderEveryRequest: every request carries A2A-Version,
// never empty, the version spoken on every call, polls included (VER_001).
func TestVersionHeaderEveryRequest(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		version string
		agent   *a2atest.Server
		args    []string
	}{
		{"1.0", newAgent(t, a2atest.V10()), nil},
		{"0.3", newAgent(t, a2atest.Bindings(a2a.TransportJSONRPC)), []string{"--a2a-version", "0.3"}},
		{"0.3", newAgent(t, a2atest.Bindings(a2a.TransportHTTPJSON)), []string{"--a2a-version", "0.3"}},
	} {
		for _, cmd := range [][]string{{"send", "本月巡检记录"}, {"send", "--async", "本月巡检记录"}, {"task", "get", "--wait", "task-2"}, {"card", "get"}} {
			r := a2aCmd(t, append(append(cmd, "-a", siteOfAgent(tc.agent), "--poll-interval", "10ms"), tc.args...)...)
			r.wantCode(t, exitOK)
		}
		calls := 0
		for _, req := range tc.agent.Requests() {
			v := req.Header.Get("A2A-Version")
			switch {
			case v == "":
				t.Errorf("v%s: %s %s without A2A-Version", tc.version, req.HTTPMethod, req.Path)
			case !strings.Contains(req.Path, "/.well-known/"):
				calls++
				if v != tc.version {
					t.Errorf("v%s: %s %s: A2A-Version %q", tc.version, req.HTTPMethod, req.Path, v)
				}
			}
		}
		if calls < 4 {
			t.Errorf("v%s: %d calls: the wait did not poll", tc.version, calls)
		}
	}
}
