package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// The A2A CLI specification v0.2's requirements (a2aproject/a2a-cli
// specification/SPEC.md at 8dd9249e, last updated 2026-08-17), one test
// or more per requirement id that no other test covers; the table in
// docs/cli-compliance.md names each. Every test drives the CLI in process
// through run, with a hermetic environment (HOME and XDG_CONFIG_HOME in a
// temporary directory, a temporary working directory), against a2atest
// agents on loopback. The harness is this file's own (spec…), so that it
// does not depend on the other test files' helpers.

// specWorld is the environment commands run in: a home, a config
// directory and a working directory of their own, and the variables set.
type specWorld struct {
	home, xdg, dir string
	vars           map[string]string
	stdin          string
}

// newSpecWorld makes an empty world in t's temporary directories.
func newSpecWorld(t *testing.T) *specWorld {
	t.Helper()
	root := t.TempDir()
	w := &specWorld{home: filepath.Join(root, "home"), xdg: filepath.Join(root, "xdg"), dir: filepath.Join(root, "work"), vars: map[string]string{}}
	for _, d := range []string{w.home, w.xdg, w.dir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// specResult is how one command ended.
type specResult struct {
	args           []string
	code           int
	stdout, stderr string
}

// getenv is the world's environment: its variables, HOME and
// XDG_CONFIG_HOME.
func (w *specWorld) getenv(k string) string {
	switch k {
	case "HOME":
		return w.home
	case "XDG_CONFIG_HOME":
		return w.xdg
	}
	return w.vars[k]
}

// env is the world as run takes it, writing to stdout and stderr.
func (w *specWorld) env(stdout, stderr io.Writer) env {
	return env{stdin: strings.NewReader(w.stdin), stdout: stdout, stderr: stderr, getenv: w.getenv, dir: w.dir}
}

// runCtx runs "a2a args..." in the world, within ctx.
func (w *specWorld) runCtx(ctx context.Context, args ...string) specResult {
	var stdout, stderr bytes.Buffer
	code := run(ctx, args, w.env(&stdout, &stderr))
	return specResult{args: args, code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// run runs "a2a args..." in the world, within the test's context.
func (w *specWorld) run(t *testing.T, args ...string) specResult {
	t.Helper()
	return w.runCtx(t.Context(), args...)
}

// specRun runs "a2a args..." in a new world.
func specRun(t *testing.T, args ...string) specResult {
	t.Helper()
	return newSpecWorld(t).run(t, args...)
}

// want fails the test unless r ended with code.
func (r specResult) want(t *testing.T, code int) specResult {
	t.Helper()
	if r.code != code {
		t.Fatalf("a2a %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(r.args, " "), r.code, code, r.stdout, r.stderr)
	}
	return r
}

// envelope is the error envelope r printed on stdout (-o json).
func (r specResult) envelope(t *testing.T) (code, message string, hint, a2aCode any) {
	t.Helper()
	var e struct {
		Error map[string]any `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &e); err != nil || e.Error == nil {
		t.Fatalf("a2a %s: stdout is not an error envelope (%v):\n%s", strings.Join(r.args, " "), err, r.stdout)
	}
	code, _ = e.Error["code"].(string)
	message, _ = e.Error["message"].(string)
	return code, message, e.Error["hint"], e.Error["a2aCode"]
}

// oneJSON decodes r's stdout as exactly one JSON document, nothing after.
func (r specResult) oneJSON(t *testing.T) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("a2a %s: stdout is not a JSON object: %v\n%s", strings.Join(r.args, " "), err, r.stdout)
	}
	var more json.RawMessage
	if err := dec.Decode(&more); err != io.EOF {
		t.Fatalf("a2a %s: stdout holds more than one JSON document (%v):\n%s", strings.Join(r.args, " "), err, r.stdout)
	}
	return v
}

// field is the value of r's first "Label: value" line on stdout, or "".
func (r specResult) field(label string) string {
	for line := range strings.SplitSeq(r.stdout, "\n") {
		if v, ok := strings.CutPrefix(line, label+": "); ok {
			return v
		}
	}
	return ""
}

// specAgent starts an A2A v1.0 a2atest agent (JSON-RPC unless opts say
// otherwise), closed with the test.
func specAgent(t *testing.T, opts ...a2atest.Option) *a2atest.Server {
	t.Helper()
	agent := a2atest.NewServer(append([]a2atest.Option{a2atest.V10()}, opts...)...)
	t.Cleanup(agent.Close)
	agent.Requests() // orders NewServer's writes before any request, for the race detector
	return agent
}

// specListener is a loopback listener, for an agent whose card must name
// its own URL before it starts (a2atest.Listener), and the site it is.
func specListener(t *testing.T) (net.Listener, string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l, "http://" + l.Addr().String()
}

// specCard is a minimal valid v1.0 card with interfaces ins.
func specCard(caps a2a.AgentCapabilities, ins ...a2a.AgentInterface) *a2a.AgentCard {
	return &a2a.AgentCard{Name: "spec agent", Description: "an agent for the specification's tests", Version: "1.0.0",
		SupportedInterfaces: ins, Capabilities: caps, DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []a2a.AgentSkill{{ID: "echo", Name: "echo", Description: "echoes", Tags: []string{"echo"}}}}
}

// specCalls are the agent's requests but its card GETs.
func specCalls(agent *a2atest.Server) []a2atest.Request {
	var out []a2atest.Request
	for _, r := range agent.Requests() {
		if !specIsCardGET(r) {
			out = append(out, r)
		}
	}
	return out
}

// specIsCardGET reports whether r is a GET of a card (the public one).
func specIsCardGET(r a2atest.Request) bool {
	return r.HTTPMethod == http.MethodGet && strings.HasSuffix(r.Path, ".json")
}

// specCallsOf are the agent's requests of the A2A method.
func specCallsOf(agent *a2atest.Server, method string) []a2atest.Request {
	var out []a2atest.Request
	for _, r := range agent.Requests() {
		if r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

// specParams is a JSON-RPC request's params, or an HTTP+JSON request's body.
func specParams(t *testing.T, r a2atest.Request) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("%s %s: body is not JSON: %v", r.HTTPMethod, r.Path, err)
	}
	if p, ok := v["params"].(map[string]any); ok && v["jsonrpc"] != nil {
		return p
	}
	return v
}

// specSentMessage is the message of a SendMessage (or streaming) request.
func specSentMessage(t *testing.T, r a2atest.Request) map[string]any {
	t.Helper()
	m, ok := specParams(t, r)["message"].(map[string]any)
	if !ok {
		t.Fatalf("%s: no message in %s", r.Method, r.Body)
	}
	return m
}

// specSends are the agent's SendMessage and SendStreamingMessage requests.
func specSends(agent *a2atest.Server) []a2atest.Request {
	return slices.Concat(specCallsOf(agent, "SendMessage"), specCallsOf(agent, "SendStreamingMessage"))
}

// specBuffer is a bytes.Buffer safe for a command writing while the test
// reads.
type specBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *specBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *specBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// specTree lists every file under dir with its content, for "nothing was
// written" checks.
func specTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			out[p] = "(dir)"
			return nil
		}
		b, err := os.ReadFile(p)
		out[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
