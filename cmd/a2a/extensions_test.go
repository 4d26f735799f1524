package main

import (
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

const extCitations = "https://example.com/ext/citations/v1"

// TestExtensionFlag: --extension activates an extension on the command's
// requests; without it, an agent whose card requires one gets a warning
// on stderr naming it, then refuses the call, the error naming the flag.
func TestExtensionFlag(t *testing.T) {
	agent := newAgent(t, a2atest.V10(), a2atest.RequireExtension(extCitations))

	r := a2aCmd(t, "send", "-a", agent.URL, "hello")
	r.wantCode(t, exitError)
	if !strings.Contains(r.stderr, "a2a: warning: the agent's card marks extensions required that --extension does not request") ||
		!strings.Contains(r.stderr, extCitations) {
		t.Errorf("stderr without a warning naming %s:\n%s", extCitations, r.stderr)
	}
	if !strings.Contains(r.stderr, "extension support required") || !strings.Contains(r.stderr, "--extension") {
		t.Errorf("stderr without the refusal in flags:\n%s", r.stderr)
	}

	before := len(agent.Requests())
	r = a2aCmd(t, "send", "--extension", extCitations, "--extension", "urn:example:other", "-a", agent.URL, "hello")
	r.wantCode(t, exitOK) // the Caoliao scenario's answer to this text: the agent took the call
	if strings.Contains(r.stderr, "warning") {
		t.Errorf("a warning with the extension requested:\n%s", r.stderr)
	}
	id := ""
	for _, req := range agent.Requests()[before:] {
		if req.Method == "" {
			continue
		}
		if got := req.Header.Get("A2A-Extensions"); got != extCitations+",urn:example:other" {
			t.Errorf("%s: A2A-Extensions %q", req.Method, got)
		}
		id = "seen"
	}
	if id == "" {
		t.Fatal("no operation reached the agent")
	}

	r = a2aCmd(t, "card", "get", "-a", siteOfAgent(agent))
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "Extension: "+extCitations+" (required)\n") {
		t.Errorf("card output without its extensions:\n%s", r.stdout)
	}
}

// TestExtensionHint: an agent refusing a call for want of extensions
// (-32008) gets the --extension flags naming each URI it requires, never
// the hint of a version refusal (the card was read: the version is the
// card's); with the flags given, the call goes through.
func TestExtensionHint(t *testing.T) {
	agent := newAgent(t, a2atest.V10(), a2atest.RequireExtension(extCitations), a2atest.RequireExtension("urn:example:b"))
	for _, endpoint := range []string{agent.URL, siteOfAgent(agent)} {
		r := a2aCmd(t, "send", "--bearer", "T", "-a", endpoint, "hello")
		r.wantCode(t, exitError)
		want := "a2a send: ExtensionSupportRequiredError: extension support required: " + extCitations + ",urn:example:b\nhint: add --extension " + extCitations + " --extension urn:example:b\n"
		if !strings.Contains(r.stderr, want) {
			t.Errorf("%s: stderr without %q:\n%s", endpoint, want, r.stderr)
		}
		if strings.Contains(r.stderr, "--a2a-version") || strings.Contains(r.stderr, "another A2A version") {
			t.Errorf("%s: a version hint for an extension refusal:\n%s", endpoint, r.stderr)
		}
	}
	r := a2aCmd(t, "send", "--extension", extCitations, "--extension", "urn:example:b", "-a", agent.URL, "hello")
	r.wantCode(t, exitOK) // the Caoliao scenario's answer to this text: the agent took the call
}

// TestExtensionFlagChecked: a URI the header cannot carry is a usage
// error, nothing sent; a comma separates URIs (A2ACLI_EXTENSION's list).
func TestExtensionFlagChecked(t *testing.T) {
	agent := newAgent(t, a2atest.V10())
	for _, uri := range []string{"a,b", "urn:x y", "not-a-uri", "urn:ok,not-a-uri"} {
		r := a2aCmd(t, "task", "get", "--extension", uri, "-a", agent.URL, "task-1")
		r.wantCode(t, exitUsage)
		if !strings.Contains(r.stderr, "extension URI") {
			t.Errorf("--extension %q: stderr %q", uri, r.stderr)
		}
	}
	if n := len(agent.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	r := invocation{env: map[string]string{"A2ACLI_EXTENSION": "urn:a, urn:b"}}.run(t, "task", "get", "--extension", "urn:c", "-e", agent.URL, "task-1")
	r.wantCode(t, exitError) // no such task: the agent took the call
	if reqs := agent.Requests(); len(reqs) != 1 || reqs[0].Header.Get("A2A-Extensions") != "urn:c" {
		t.Errorf("the flag does not win over A2ACLI_EXTENSION: %d requests", len(reqs))
	}
	r = invocation{env: map[string]string{"A2ACLI_EXTENSION": "urn:a, urn:b"}}.run(t, "task", "get", "-e", agent.URL, "task-1")
	r.wantCode(t, exitError)
	if reqs := agent.Requests(); len(reqs) != 2 || reqs[1].Header.Get("A2A-Extensions") != "urn:a,urn:b" {
		t.Errorf("A2ACLI_EXTENSION's list not sent: %d requests", len(reqs))
	}
}

// TestExtensionWarningInert: a card's required URI is printed inert.
func TestExtensionWarningInert(t *testing.T) {
	card := &a2a.AgentCard{Name: "x", Description: "x", Version: "1",
		Capabilities: a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{URI: "urn:x\x1b[31m\u202e", Required: true}}}}
	agent := newAgent(t, a2atest.V10(), a2atest.WithCard(card))
	r := a2aCmd(t, "task", "get", "-a", agent.URL, "task-1")
	if !strings.Contains(r.stderr, `urn:x\x1b[31m\u202e`) || strings.ContainsAny(r.stderr, "\x1b\u202e") {
		t.Errorf("stderr not inert: %q", r.stderr)
	}
}
