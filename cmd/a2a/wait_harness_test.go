package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"go.uber.org/goleak"
)

// The tests of waiting (the specification's §9: send's wait, task get
// --wait, task subscribe, --push-receiver) run the CLI in process through
// run, against a2atest's fake agent or scriptAgent (below) on loopback,
// with a hermetic environment. They count requests, never time them.

// waitOut is how one command ended.
type waitOut struct {
	args           []string
	code           int
	stdout, stderr string
}

// waitRun is one run of the CLI: its context (default the test's), its
// environment beyond the hermetic HOME and XDG_CONFIG_HOME, and whether
// stderr is a terminal.
type waitRun struct {
	ctx context.Context
	env map[string]string
	tty bool
}

// a2aWait runs "a2a args..." in process with a hermetic environment.
func a2aWait(t *testing.T, args ...string) waitOut {
	t.Helper()
	return waitRun{}.run(t, args...)
}

func (in waitRun) run(t *testing.T, args ...string) waitOut {
	t.Helper()
	ctx := in.ctx
	if ctx == nil {
		ctx = t.Context()
	}
	home := t.TempDir()
	vars := map[string]string{"HOME": home, "XDG_CONFIG_HOME": home + "/.config"}
	for k, v := range in.env {
		vars[k] = v
	}
	var stdout, stderr bytes.Buffer
	code := run(ctx, args, env{
		stdin:  strings.NewReader(""),
		stdout: &stdout, stderr: &stderr,
		getenv:    func(k string) string { return vars[k] },
		stderrTTY: in.tty,
	})
	return waitOut{args: args, code: code, stdout: stdout.String(), stderr: stderr.String()}
}

// want fails the test unless r ended with code, showing its output.
func (r waitOut) want(t *testing.T, code int) {
	t.Helper()
	if r.code != code {
		t.Fatalf("a2a %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(r.args, " "), r.code, code, r.stdout, r.stderr)
	}
}

// has fails the test unless out holds each of want.
func (r waitOut) has(t *testing.T, out string, want ...string) {
	t.Helper()
	text := map[string]string{"stdout": r.stdout, "stderr": r.stderr}[out]
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("a2a %s: %s lacks %q:\n%s", strings.Join(r.args, " "), out, w, text)
		}
	}
}

// field is the value of the first "Label: value" line of stdout, "" when
// none.
func (r waitOut) field(label string) string {
	for line := range strings.SplitSeq(r.stdout, "\n") {
		if v, ok := strings.CutPrefix(line, label+": "); ok {
			return v
		}
	}
	return ""
}

// noLeaks fails the test if it leaves a goroutine behind (the tests of
// this file are not parallel: every goroutine found is theirs).
func noLeaks(t *testing.T) {
	t.Helper()
	opt := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, opt) })
}

// methodCounts counts the requests of agent by method.
func methodCounts(agent *a2atest.Server) map[string]int {
	n := map[string]int{}
	for _, r := range agent.Requests() {
		n[r.Method]++
	}
	return n
}

// bodyOf is the body of agent's first request of method.
func bodyOf(agent *a2atest.Server, method string) string {
	for _, r := range agent.Requests() {
		if r.Method == method {
			return string(r.Body)
		}
	}
	return ""
}

// caoliaoAgent is a2atest's Caoliao agent, v1.0 (else v0.3), with a
// card that says whether it streams, and that it pushes; step, when
// positive, moves its tasks on its own clock (and pushes each state)
// instead of one state on each GetTask.
func caoliaoAgent(t *testing.T, v10, streaming bool, step time.Duration) *a2atest.Server {
	t.Helper()
	card := &a2a.AgentCard{Name: "caoliao", Description: "test", Version: "1.0.0",
		Capabilities:      a2a.AgentCapabilities{Streaming: streaming, PushNotifications: true},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}}
	onSend := func(m a2a.Message) a2atest.Reply {
		r := a2atest.Caoliao(m)
		r.Interval = step
		return r
	}
	opts := []a2atest.Option{a2atest.WithCard(card), a2atest.OnSend(onSend)}
	if v10 {
		opts = append(opts, a2atest.V10())
	}
	agent := a2atest.NewServer(opts...)
	t.Cleanup(agent.Close)
	return agent
}

// versionFlags are the flags that make a command speak the agent's
// version: --a2a-version 0.3 for a v0.3 agent (1.0 is the default).
func versionFlags(v10 bool) []string {
	if v10 {
		return nil
	}
	return []string{"--a2a-version", "0.3"}
}

// scriptAgent is an A2A v1.0 JSON-RPC agent whose every answer the test
// scripts: what GetTask says on each call, what each stream writes and
// whether it then breaks the connection, hooks on each request. It holds
// one task, "t1" in context "c1".
type scriptAgent struct {
	srv *httptest.Server

	// streaming is its card's capabilities.streaming.
	streaming bool
	// sendState is the state of the task SendMessage answers with.
	sendState string
	// states are the states GetTask answers with, one per call, the last
	// repeated.
	states []string
	// stream is what the n-th (from 1) SendStreamingMessage or
	// SubscribeToTask writes: events (results: taskResult,
	// statusResult), then a clean close or, with cut, a broken
	// connection; an error instead (rpcError) when refuse is set.
	stream func(method string, n int) (events []string, cut bool, refuse string)
	// hold keeps every stream open, once its events are written, until
	// the client goes.
	hold bool
	// onGet is called before the n-th GetTask is answered.
	onGet func(n int)

	mu    sync.Mutex
	calls map[string]int
	gets  int
}

// newScriptAgent starts a with its fields as set.
func newScriptAgent(t *testing.T, a *scriptAgent) *scriptAgent {
	t.Helper()
	a.calls = map[string]int{}
	a.srv = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.srv.Close)
	return a
}

// count is how many requests of method the agent has had.
func (a *scriptAgent) count(method string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.calls[method]
}

// taskJSON is the task t1 in state (a TASK_STATE_* name) as v1.0 writes it.
func taskJSON(state string) string {
	return `{"id":"t1","contextId":"c1","status":{"state":"` + state + `"}}`
}

// taskResult and statusResult are StreamResponses: the task, a status
// update.
func taskResult(state string) string { return `{"task":` + taskJSON(state) + `}` }

func statusResult(state string) string {
	return `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"` + state + `"}}}`
}

func (a *scriptAgent) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"name":"script","description":"scripted","version":"1","supportedInterfaces":[{"url":%q,"protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{"streaming":%t},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`,
			a.srv.URL+"/rpc", a.streaming)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	json.Unmarshal(body, &req)
	a.mu.Lock()
	a.calls[req.Method]++
	n := a.calls[req.Method]
	a.mu.Unlock()
	reply := func(result string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	}
	rpcError := func(code int, msg string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q}}`, req.ID, code, msg)
	}
	switch req.Method {
	case "SendMessage":
		reply(taskResult(a.sendState))
	case "GetTask":
		if a.onGet != nil {
			a.onGet(n)
		}
		reply(taskJSON(a.states[min(n, len(a.states))-1]))
	case "CancelTask":
		reply(taskJSON("TASK_STATE_CANCELED"))
	case "SendStreamingMessage", "SubscribeToTask":
		events, cut, refuse := a.stream(req.Method, n)
		if refuse != "" {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, rpcError(-32004, refuse))
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range events {
			fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":%s,\"result\":%s}\n\n", req.ID, ev)
			w.(http.Flusher).Flush()
		}
		if a.hold {
			<-r.Context().Done()
		}
		if cut {
			panic(http.ErrAbortHandler) // the connection breaks
		}
	default:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, rpcError(-32601, "no method "+req.Method))
	}
}

// card is the agent's card URL, for -a.
func (a *scriptAgent) card() string { return a.srv.URL + "/.well-known/agent-card.json" }

// endpoint is its JSON-RPC endpoint, for -e.
func (a *scriptAgent) endpoint() string { return a.srv.URL + "/rpc" }

// shellWords splits line, a command printed for a shell, into its words as
// sh reads them.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", `printf '%s\0' `+line).Output()
	if err != nil {
		t.Fatalf("sh -c printf %s: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}
