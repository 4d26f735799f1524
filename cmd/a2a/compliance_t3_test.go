package main

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// Tier 3 (Advanced) requirements of the A2A CLI specification v0.2 that
// no other test covers.

// specSecuredCard is a v1.0 card declaring a bearer scheme, required.
func specSecuredCard(caps a2a.AgentCapabilities) *a2a.AgentCard {
	card := specCard(caps)
	card.SecuritySchemes = map[string]a2a.SecurityScheme{"bearer": {Type: "http", Scheme: "Bearer"}}
	card.Security = []map[string][]string{{"bearer": {}}}
	return card
}

// TestSpecExtendedCardNeedsScheme: A2ACLI_CARD_GET_003 (and VER_003's
// extended card). card get --extended reads the extended card with the
// credential the public card's scheme takes; a card that declares no
// scheme, or no extended card, is refused before any credential is sent.
func TestSpecExtendedCardNeedsScheme(t *testing.T) {
	extended := specCard(a2a.AgentCapabilities{ExtendedAgentCard: true})
	extended.Name = "the extended card"
	agent := specAgent(t, a2atest.WithCard(specSecuredCard(a2a.AgentCapabilities{ExtendedAgentCard: true})), a2atest.WithExtendedCard(extended))
	r := specRun(t, "card", "get", "-a", agent.BaseURL(), "--extended", "--bearer", "ext-token-7").want(t, exitOK)
	if r.field("Name") != "the extended card" {
		t.Errorf("card get --extended: not the extended card:\n%s", r.stdout)
	}
	got := specCallsOf(agent, "GetExtendedAgentCard")
	if len(got) != 1 || got[0].Header.Get("Authorization") != "Bearer ext-token-7" {
		t.Errorf("GetExtendedAgentCard requests %v: want one with the bearer token", got)
	}

	for name, card := range map[string]*a2a.AgentCard{
		"no scheme":        specCard(a2a.AgentCapabilities{ExtendedAgentCard: true}),
		"no extended card": specSecuredCard(a2a.AgentCapabilities{}),
	} {
		agent := specAgent(t, a2atest.WithCard(card), a2atest.WithExtendedCard(extended))
		r := specRun(t, "card", "get", "-a", agent.BaseURL(), "--extended", "--bearer", "ext-token-7", "-o", "json").want(t, exitUsage)
		if code, _, _, _ := r.envelope(t); code != cliErrUsage {
			t.Errorf("%s: code %q", name, code)
		}
		for _, req := range agent.Requests() {
			if !specIsCardGET(req) || req.Header.Get("Authorization") != "" {
				t.Errorf("%s: %s %s sent (Authorization %q): want the public card's GET alone, without it", name, req.HTTPMethod, req.Path, req.Header.Get("Authorization"))
			}
		}
	}
}

// TestSpecNoCredentialOnCardGET: A2ACLI_AUTH_008. The public card's GET
// carries none of the credentials, service parameters or selectors
// given; the calls the card's scheme covers carry the credential, and a
// credential no scheme of the card takes is not sent at all.
func TestSpecNoCredentialOnCardGET(t *testing.T) {
	agent := specAgent(t, a2atest.WithCard(specSecuredCard(a2a.AgentCapabilities{})))
	for _, args := range [][]string{
		{"send", "hello", "--bearer", "card-secret-1"},
		{"send", "hello", "--svc-param", "X-Trace:card-secret-1", "--bearer", "card-secret-1"},
		{"card", "get", "--bearer", "card-secret-1", "--svc-param", "X-Trace:card-secret-1", "--workspace", "card-secret-1"},
	} {
		specRun(t, append(args, "-a", agent.BaseURL())...).want(t, exitOK)
	}
	cardGETs := 0
	for _, req := range agent.Requests() {
		if !specIsCardGET(req) {
			if req.Header.Get("Authorization") != "Bearer card-secret-1" {
				t.Errorf("%s: Authorization %q, want the bearer token", req.Method, req.Header.Get("Authorization"))
			}
			continue
		}
		cardGETs++
		for k, vs := range req.Header {
			if strings.Contains(strings.Join(vs, " "), "card-secret-1") {
				t.Errorf("card GET carried the secret in %s", k)
			}
		}
		if strings.Contains(req.Query, "card-secret-1") {
			t.Errorf("card GET carried the secret in its query")
		}
	}
	if cardGETs != 3 {
		t.Errorf("%d card GETs, want 3", cardGETs)
	}

	// A key the card has no scheme for goes nowhere: refused, nothing but
	// the card's GET sent.
	before := len(agent.Requests())
	r := specRun(t, "send", "hello", "--api-key", "card-secret-1", "-a", agent.BaseURL()).want(t, exitUsage)
	if !strings.Contains(r.stderr, "no API key scheme") || strings.Contains(r.stdout+r.stderr, "card-secret-1") {
		t.Errorf("--api-key against a bearer-only card:\n%s", r.stderr)
	}
	for _, req := range agent.Requests()[before:] {
		if !specIsCardGET(req) {
			t.Errorf("%s sent with a key the card does not take", req.Method)
		}
	}
}

// TestSpecRequiredExtension: A2ACLI_VER_002. A card that marks an
// extension required: without --extension the command warns that the
// agent may refuse (and it does, ExtensionSupportRequiredError); with
// --extension the request declares it in A2A-Extensions.
func TestSpecRequiredExtension(t *testing.T) {
	const uri = "https://extensions.example/required/v1"
	agent := specAgent(t, a2atest.RequireExtension(uri))
	w := newSpecWorld(t)
	w.vars["A2ACLI_AGENT_CARD"] = agent.BaseURL()
	r := w.run(t, "send", "hello", "-o", "json").want(t, exitError)
	if !strings.Contains(r.stderr, "warning") || !strings.Contains(r.stderr, uri) {
		t.Errorf("no warning naming the required extension:\n%s", r.stderr)
	}
	if code, _, _, _ := r.envelope(t); code != "ExtensionSupportRequiredError" {
		t.Errorf("code %q, want ExtensionSupportRequiredError", code)
	}
	r = w.run(t, "send", "hello", "--extension", uri).want(t, exitOK)
	if strings.Contains(r.stderr, "warning") {
		t.Errorf("a warning with the extension requested:\n%s", r.stderr)
	}
	got := specSends(agent)
	if h := got[len(got)-1].Header.Get("A2A-Extensions"); !strings.Contains(h, uri) {
		t.Errorf("A2A-Extensions %q, want %s", h, uri)
	}
}

// TestSpecDemoServer: A2ACLI_DEMO_SERVER_001. demo-server serves an agent
// the Tier 1 flows run against: its ready line names its card; card get,
// send (waiting), the input-required turn and its resume, task get, task
// list, -o json; Ctrl-C stops it, exit 0.
func TestSpecDemoServer(t *testing.T) {
	for _, version := range []string{"1.0", "0.3"} {
		t.Run("v"+version, func(t *testing.T) {
			ctx, stop := context.WithCancel(t.Context())
			defer stop()
			pr, pw := io.Pipe()
			var stderr specBuffer
			w := newSpecWorld(t)
			done := make(chan int, 1)
			go func() {
				code := run(ctx, []string{"demo-server", "--a2a-version", version, "--transport", "JSONRPC,HTTP+JSON", "--step", "5ms"}, w.env(pw, &stderr))
				pw.Close()
				done <- code
			}()
			ready := make(chan string, 1)
			go func() {
				line, _ := bufio.NewReader(pr).ReadString('\n')
				ready <- line
				io.Copy(io.Discard, pr)
			}()
			var line string
			select {
			case line = <-ready:
			case <-time.After(10 * time.Second):
				t.Fatalf("demo-server printed no ready line; stderr:\n%s", stderr.String())
			}
			for word := range strings.FieldsSeq(line) {
				if k, v, ok := strings.Cut(word, "="); ok {
					w.vars[k] = v
				}
			}
			if !strings.HasSuffix(w.vars["A2ACLI_AGENT_CARD"], a2a.AgentCardPath) {
				t.Fatalf("ready line %q names no card", line)
			}
			if version == "0.3" {
				w.vars["A2ACLI_A2A_VERSION"] = "0.3"
			}
			specDemoFlow(t, w)
			stop()
			select {
			case code := <-done:
				if code != exitOK {
					t.Errorf("demo-server stopped with exit %d; stderr:\n%s", code, stderr.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("demo-server did not stop on Ctrl-C")
			}
		})
	}
}

// specDemoFlow runs the Tier 1 flows against the demo agent w's
// A2ACLI_AGENT_CARD names.
func specDemoFlow(t *testing.T, w *specWorld) {
	r := w.run(t, "card", "get").want(t, exitOK)
	if r.field("Name") == "" || r.field("Streaming") != "true" {
		t.Errorf("card get:\n%s", r.stdout)
	}
	r = w.run(t, "send", "本月巡检记录", "--poll-interval", "10ms").want(t, exitOK)
	if r.field("Status") != "completed" || !strings.Contains(r.stdout, a2atest.RecordsSummary) {
		t.Errorf("send: not completed with the records:\n%s", r.stdout)
	}
	id := r.field("Task")
	r = w.run(t, "send", "查一台设备").want(t, exitOK)
	if r.field("Status") != "input-required" || !strings.Contains(r.stdout, "Resume: a2a send") || !strings.Contains(r.stderr, "input-required") {
		t.Errorf("send: not input-required with a Resume line:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
	w.run(t, "send", "--task-id", r.field("Task"), "--context-id", r.field("Context"), "A08-03-06").want(t, exitOK)
	r = w.run(t, "task", "get", id, "-o", "json").want(t, exitOK)
	if doc := r.oneJSON(t); doc["id"] != id {
		t.Errorf("task get -o json: not task %s:\n%s", id, r.stdout)
	}
	w.run(t, "send", "--stream", "本月巡检记录").want(t, exitOK)
	w.run(t, "send", "--async", "本月巡检记录", "-o", "json").want(t, exitOK)
	w.run(t, "send", "--transport", "HTTP+JSON", "这个二维码是什么？"+a2atest.SeedQRCode).want(t, exitOK)
	if w.vars["A2ACLI_A2A_VERSION"] == "" {
		w.run(t, "task", "list", "--page-size", "2").want(t, exitOK)
	}
	r = w.run(t, "task", "get", "no-such-task", "-o", "json").want(t, exitError)
	if code, _, _, _ := r.envelope(t); code != "TaskNotFoundError" {
		t.Errorf("task get of a missing task: %s", code)
	}
}
