package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestInsecureWarned (the specification's AUTH_003): --insecure turns
// TLS verification off and says so on stderr every time, loudly when a
// credential goes; without it the agent's self-signed certificate is
// refused (exit 3).
func TestInsecureWarned(t *testing.T) {
	t.Parallel()
	var agent *httptest.Server
	agent = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"name":"tls","description":"d","version":"1","supportedInterfaces":[{"url":"` + agent.URL + `/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`))
	}))
	t.Cleanup(agent.Close)

	a2aCmd(t, "card", "get", "-a", agent.URL, "--retries", "0").wantCode(t, exitUnreachable)

	quiet := a2aCmd(t, "card", "get", "-a", agent.URL, "--insecure")
	quiet.wantCode(t, exitOK)
	if !strings.Contains(quiet.stderr, "--insecure: TLS certificate verification is off") {
		t.Errorf("--insecure without a credential says nothing on stderr:\n%s", quiet.stderr)
	}
	loud := a2aCmd(t, "card", "get", "-a", agent.URL, "--insecure", "--bearer", "s3cret-token")
	loud.wantCode(t, exitOK)
	if !strings.Contains(loud.stderr, "WARNING: --insecure: TLS certificate verification is OFF and a credential") {
		t.Errorf("--insecure with --bearer is not warned about loudly:\n%s", loud.stderr)
	}
	if strings.Contains(loud.stdout+loud.stderr, "s3cret-token") {
		t.Error("the token is printed")
	}
}
