package main

import (
	"bytes"
	"context"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

// The tests run the CLI in process through run, against a2atest's fake
// agent on loopback, and compare what it prints with the transcripts in
// testdata/ ("go test ./cmd/a2a -update" rewrites them).

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata/")

// TestMain fails the run if a command leaves a goroutine behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// result is how one command ended.
type result struct {
	args           []string
	code           int
	stdout, stderr string
	// output is stdout and stderr as a terminal shows them: in the order
	// they were written (set by invocation.run only).
	output string
}

// invocation is what a command runs with besides its arguments.
type invocation struct {
	ctx   context.Context // default: the test's context
	stdin string          // the command's standard input
	// env is its environment: nothing else is set, but for HOME and
	// XDG_CONFIG_HOME, a new empty directory each unless env sets them,
	// so that no developer's ~/.config/a2a-cli/.env or kept token is read.
	env map[string]string
	tty bool // stderr is a terminal
}

// a2aCmd runs "a2a args..." in process with an empty environment (but
// for a HOME and XDG_CONFIG_HOME of its own: invocation.env).
func a2aCmd(t *testing.T, args ...string) result {
	t.Helper()
	return invocation{}.run(t, args...)
}

func (in invocation) run(t *testing.T, args ...string) result {
	t.Helper()
	ctx := in.ctx
	if ctx == nil {
		ctx = t.Context()
	}
	var stdout, stderr, output bytes.Buffer
	code := run(ctx, args, env{
		stdin:  strings.NewReader(in.stdin),
		stdout: io.MultiWriter(&stdout, &output), stderr: io.MultiWriter(&stderr, &output),
		getenv:    hermetic(t, in.env),
		stderrTTY: in.tty,
	})
	return result{args: args, code: code, stdout: stdout.String(), stderr: stderr.String(), output: output.String()}
}

// hermetic is the getenv of a command run with the variables vars alone,
// and HOME, XDG_CONFIG_HOME and XDG_CACHE_HOME each an empty directory
// of the test's unless vars sets them (to "" too): the developer's
// configuration, kept tokens and cached cards are never read, and a
// command's are gone with the test.
func hermetic(t *testing.T, vars map[string]string) func(string) string {
	t.Helper()
	all := map[string]string{}
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"} {
		if _, ok := vars[k]; !ok {
			all[k] = t.TempDir()
		}
	}
	for k, v := range vars {
		all[k] = v
	}
	return func(k string) string { return all[k] }
}

// wantCode fails the test when r did not end with code, showing its output.
func (r result) wantCode(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("a2a %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(r.args, " "), r.code, code, r.stdout, r.stderr)
	}
}

// replace returns r with old replaced by new in its arguments and output,
// for text that only the test knows, such as a temporary directory.
func (r result) replace(old, new string) result {
	args := make([]string, len(r.args))
	for i, a := range r.args {
		args[i] = strings.ReplaceAll(a, old, new)
	}
	r.args = args
	r.stdout, r.stderr = strings.ReplaceAll(r.stdout, old, new), strings.ReplaceAll(r.stderr, old, new)
	return r
}

// Nondeterministic text in output, and its stable placeholder.
var placeholders = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`127\.0\.0\.1:\d+`), "127.0.0.1:PORT"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`), "TIMESTAMP"},
	{regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), "UUID"},
	{regexp.MustCompile(` in \d[0-9.hmsµn]*, last state`), " in ELAPSED, last state"},
	{regexp.MustCompile(`a2a-go/[^ )"]+`), "a2a-go/VERSION"},
}

// stable replaces the nondeterministic parts of s.
func stable(s string) string {
	for _, p := range placeholders {
		s = p.re.ReplaceAllString(s, p.with)
	}
	return s
}

// transcript is r as a shell session shows it: the command, its stdout,
// its stderr after "--- stderr", and its exit code, made stable.
func (r result) transcript() string {
	var b strings.Builder
	words := make([]string, len(r.args))
	for i, a := range r.args {
		words[i] = quote(a)
	}
	b.WriteString("$ a2a " + strings.Join(words, " ") + "\n")
	b.WriteString(r.stdout)
	if r.stderr != "" {
		b.WriteString("--- stderr\n" + r.stderr)
	}
	b.WriteString("--- exit " + strconv.Itoa(r.code) + "\n")
	return stable(b.String())
}

// golden compares the transcripts of results with testdata/name.txt, or
// writes it with -update.
func golden(t *testing.T, name string, results ...result) {
	t.Helper()
	var got strings.Builder
	for i, r := range results {
		if i > 0 {
			got.WriteString("\n")
		}
		got.WriteString(r.transcript())
	}
	goldenText(t, name, got.String())
}

// goldenText compares got with testdata/name.txt, or writes it with
// -update.
func goldenText(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/a2a -update to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// newAgent starts a fake agent answering like Caoliao, closed with the test.
func newAgent(t *testing.T, opts ...a2atest.Option) *a2atest.Server {
	t.Helper()
	agent := a2atest.NewServer(append([]a2atest.Option{a2atest.OnSend(a2atest.Caoliao)}, opts...)...)
	t.Cleanup(agent.Close)
	// NewServer sets its URL and its card's after the server starts, with
	// no lock its handlers see; taking its lock here (as every handler
	// does) orders those writes before any request, for the race detector.
	agent.Requests()
	return agent
}

// siteOfAgent is the agent's site, where its card is.
func siteOfAgent(agent *a2atest.Server) string {
	return strings.TrimSuffix(agent.URL, "/a2a/jsonrpc")
}

// methods are the JSON-RPC methods the agent was called with, in order
// ("" for a GET).
func methods(agent *a2atest.Server) []string {
	var out []string
	for _, r := range agent.Requests() {
		out = append(out, r.Method)
	}
	return out
}

// startTask sends text with the SDK, so a test of get, cancel, wait or
// push has a task the agent holds, and returns its id.
func startTask(t *testing.T, agent *a2atest.Server, version, text string) string {
	t.Helper()
	c, err := a2a.NewClient(agent.URL, a2a.WithProtocolVersion(version))
	if err != nil {
		t.Fatal(err)
	}
	defer a2a.CloseIdleConnections()
	res, err := c.SendMessage(t.Context(), a2a.NewTextMessage(text))
	if err != nil {
		t.Fatal(err)
	}
	return res.(*a2a.Task).ID
}

// workingAgent answers every message with a task that stays working, for
// cancel, wait and Ctrl-C.
func workingAgent(t *testing.T, opts ...a2atest.Option) *a2atest.Server {
	return newAgent(t, append([]a2atest.Option{a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateWorking, ""), States: []a2a.TaskState{a2a.TaskStateWorking}}
	})}, opts...)...)
}
