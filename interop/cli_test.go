package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// The built a2a command against one real peer of each protocol version:
// a2a-go v2.4.0's server (A2A v1.0, startV10Peer) and @a2a-js/sdk 0.3.14's
// (A2A v0.3, js/server.js). Each test starts its peer once and runs the
// same commands against it; the peer's own JSON (a JSON-RPC call made
// here, a GET of its card) is what -o json must print.

// cliPeer says how to reach a peer and how it speaks.
type cliPeer struct {
	name     string   // the card's name
	card     string   // the card's URL (A2ACLI_AGENT_CARD)
	endpoint string   // the JSON-RPC endpoint the card names
	version  string   // "1.0" or "0.3"
	flags    []string // given to every command: --a2a-version 0.3 for a v0.3 peer
	env      []string // A2ACLI_* for every command
	getTask  string   // the JSON-RPC method that reads a task
	header   []string // headers of rawRPC: A2A-Version for v1.0
	summary  string   // the text part of the "entity" scenario's artifact
}

// TestCLIGoPeerV10 runs the a2a command against a2a-go v2.4.0's JSON-RPC
// server, which speaks A2A v1.0: the CLI takes v1.0 from the card by
// itself (no --a2a-version).
func TestCLIGoPeerV10(t *testing.T) {
	bin := cliBinary(t)
	p := startV10Peer(t)
	peer := cliPeer{
		name: v10CardName, card: p.base + "/.well-known/agent-card.json", endpoint: p.endpoint, version: "1.0",
		getTask: "GetTask", header: []string{"A2A-Version", "1.0"}, summary: a2atest.EntitySummary,
	}
	peer.env = cliEnv(t, "A2ACLI_AGENT_CARD="+peer.card)
	runPeerCommands(t, bin, peer)

	// EXIT_001: a usage error exits 2 with A2ACLI_ERR_USAGE (the envelope
	// once -o json was read), and nothing is sent.
	t.Run("usage error", func(t *testing.T) {
		before := p.rpcs.Load()
		args := []string{"send", "-o", "json", "--timeout", "soon", "entity"}
		r := runCLI(t, bin, peer.env, args...)
		r.wantExit(t, 2, args...)
		wantEnvelope(t, r, "send", "A2ACLI_ERR_USAGE", nil)
		if n := p.rpcs.Load() - before; n != 0 {
			t.Errorf("the agent got %d requests of a usage error, want none", n)
		}
	})

	// INTERACT_002: a --task-id the agent does not know is refused with
	// the protocol's name, a pointer at --debug, and no new task: one
	// request reached the agent.
	t.Run("send --task-id unknown", func(t *testing.T) {
		before := p.rpcs.Load()
		args := []string{"send", "--task-id", "no-such-task", "-o", "json", "entity"}
		r := runCLI(t, bin, peer.env, args...)
		r.wantExit(t, 1, args...)
		wantEnvelope(t, r, "send", "TaskNotFoundError", -32001)
		if !strings.Contains(r.stderr, "--debug") {
			t.Errorf("the error does not point at --debug:\n%s", r.stderr)
		}
		if n := p.rpcs.Load() - before; n != 1 {
			t.Errorf("the agent got %d requests, want 1 (the send; no new task started)", n)
		}
	})

	// VER_001: every request of every command above (the stream's
	// GetTask included) said "A2A-Version: 1.0".
	if n, all := p.unversioned.Load(), p.rpcs.Load(); n != 0 || all == 0 {
		t.Errorf("%d of %d requests without A2A-Version: 1.0", n, all)
	}
}

// TestCLIJSPeerV03 runs the a2a command against @a2a-js/sdk 0.3.14, which
// speaks A2A v0.3 only: every command needs --a2a-version 0.3, and
// without it nothing is sent (VER_001).
func TestCLIJSPeerV03(t *testing.T) {
	bin := cliBinary(t)
	base := startJSPeer(t)
	peer := cliPeer{
		name: "Interop Peer (JS)", card: base + "/.well-known/agent-card.json", endpoint: base + "/a2a/jsonrpc", version: "0.3",
		flags: []string{"--a2a-version", "0.3"}, getTask: "tasks/get",
		summary: "数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个",
	}
	// The card declares an API key (the peer checks none): without one the
	// CLI would refuse to send (A2ACLI_ERR_CREDENTIALS_MISSING).
	peer.env = cliEnv(t, "A2ACLI_AGENT_CARD="+peer.card, "A2ACLI_API_KEY=interop-key-not-checked")
	runPeerCommands(t, bin, peer)

	// TX_001 with -e: the same peer's v0.3 HTTP+JSON interface (served,
	// not on its card), called directly with --transport HTTP+JSON.
	t.Run("send -e HTTP+JSON", func(t *testing.T) {
		args := []string{"send", "-e", base + "/a2a/rest", "--transport", "HTTP+JSON", "--a2a-version", "0.3", "entity"}
		r := runCLI(t, bin, cliEnv(t), args...)
		r.wantExit(t, 0, args...)
		inOrder(t, "send", r.stdout, "Status: completed\n", "Artifact: entity\n", "Text:\n  "+peer.summary+"\n")
	})

	// VER_001: a v0.3-only card without the opt-in is refused before any
	// request: a counting proxy in front of the peer (its card rewritten
	// to name the proxy) sees the card read and nothing else.
	t.Run("send without --a2a-version 0.3", func(t *testing.T) {
		proxy := startPeerProxy(t, base, nil)
		env := cliEnv(t, "A2ACLI_AGENT_CARD="+proxy.base+"/.well-known/agent-card.json", "A2ACLI_API_KEY=interop-key-not-checked")
		args := []string{"send", "-o", "json", "entity"}
		r := runCLI(t, bin, env, args...)
		r.wantExit(t, 1, args...)
		wantEnvelope(t, r, "send", "VersionNotSupportedError", nil) // refused here, not by the agent: no number
		var e errorEnvelope
		oneDocument(t, r.stdout, &e)
		if e.Error.Hint == nil || !strings.Contains(*e.Error.Hint, "--a2a-version 0.3") {
			t.Errorf("the hint does not name --a2a-version 0.3: %s", r.stdout)
		}
		if methods, _ := proxy.calls(); len(methods) != 0 {
			t.Errorf("the agent got requests besides its card, want none: %v", methods)
		}
		// The same through the proxy with the opt-in reaches the agent:
		// the proxy does count.
		r = runCLI(t, bin, env, "send", "--a2a-version", "0.3", "entity")
		r.wantExit(t, 0, "send", "--a2a-version", "0.3", "entity")
		if methods, _ := proxy.calls(); len(methods) == 0 || methods[0] != "message/stream" { // the card says streaming
			t.Errorf("the proxy saw %v of a send that reached the agent, want message/stream first", methods)
		}
	})
}

// runPeerCommands runs, against peer, card get (text and -o json), send
// (default wait), send --stream -o json, task get -o json, task cancel of
// a finished task and task get of a missing one.
func runPeerCommands(t *testing.T, bin string, peer cliPeer) {
	run := func(t *testing.T, args ...string) (cliResult, []string) {
		args = append(slices.Clone(args), peer.flags...)
		return runCLI(t, bin, peer.env, args...), args
	}

	// CLI_001 / OUT_005: the card as text fields, the chosen interface
	// marked; OUT_002: -o json is the card as the peer served it.
	t.Run("card get", func(t *testing.T) {
		r, args := run(t, "card", "get")
		r.wantExit(t, 0, args...)
		iface := "Interface: " + peer.endpoint + " JSONRPC " + peer.version
		inOrder(t, "card get", r.stdout, "Name: "+peer.name+"\n", iface, " (chosen)\n", "Streaming: true\n", "Push notifications: true\n")
		r, args = run(t, "card", "get", "-o", "json")
		r.wantExit(t, 0, args...)
		if got, want := compact(t, []byte(r.stdout)), compact(t, httpGet(t, peer.card)); got != want {
			t.Errorf("card get -o json is not the peer's card:\n got %s\nwant %s", got, want)
		}
	})

	// SEND_002 / EXIT_002 / OUT_005: the default send waits for the end
	// and prints the task's fields and the artifact's blocks.
	t.Run("send", func(t *testing.T) {
		r, args := run(t, "send", "entity")
		r.wantExit(t, 0, args...)
		inOrder(t, "send", r.stdout, "Task: ", "\nContext: ", "\nStatus: completed\n", "Artifact: entity\n",
			"Data:\n  {\n", `"title": "数控车床-A08-03-06"`, "Text:\n  "+peer.summary+"\n\n")
		if strings.ContainsRune(r.stdout+r.stderr, 0x1b) {
			t.Errorf("an escape sequence in the output off a terminal:\n%q\n%q", r.stdout, r.stderr)
		}
	})

	// EXIT_002: the task's outcome is not the command's: a failed task
	// and one waiting for input exit 0, the outcome named on stderr; the
	// waiting one gets the ids and the command that answers it
	// (INTERACT_004).
	t.Run("send outcomes", func(t *testing.T) {
		r, args := run(t, "send", "fail")
		r.wantExit(t, 0, args...)
		inOrder(t, "send fail", r.stdout, "Status: failed\n", "Message:\n  ")
		if !strings.Contains(r.stderr, "failed") {
			t.Errorf("stderr does not name the failed outcome:\n%s", r.stderr)
		}
		r, args = run(t, "send", "ask")
		r.wantExit(t, 0, args...)
		inOrder(t, "send ask", r.stdout, "Task: ", "\nContext: ", "\nStatus: input-required\n", "Message:\n  ", "Resume: a2a send ")
		if !strings.Contains(r.stderr, "input-required") {
			t.Errorf("stderr does not name the input-required outcome:\n%s", r.stderr)
		}
		// The Resume line, pasted with its ANSWER filled in, answers the
		// task, which completes.
		_, resume, _ := strings.Cut(r.stdout, "Resume: ")
		resume, _, _ = strings.Cut(resume, "\n")
		words := shellWords(t, resume)
		i := slices.Index(words, "ANSWER")
		if len(words) < 2 || words[0] != "a2a" || i < 0 || !slices.Contains(words, "--task-id") {
			t.Fatalf("the Resume line is not an a2a send with --task-id and ANSWER: %q", resume)
		}
		words[i] = "A08"
		r = runCLI(t, bin, peer.env, words[1:]...)
		r.wantExit(t, 0, words...)
		inOrder(t, "the resumed send", r.stdout, "Status: completed\n", "Artifact: entity\n", "A08")
	})

	// OUT_003: each line of --stream -o json is one event, whole, as the
	// peer sent it: a v1.0 StreamResponse ({"task"|"statusUpdate"|…}), a
	// v0.3 event with its kind; the last one is the completed status.
	t.Run("send --stream -o json", func(t *testing.T) {
		r, args := run(t, "send", "--stream", "-o", "json", "stream")
		r.wantExit(t, 0, args...)
		lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
		if len(lines) < 2 {
			t.Fatalf("%d lines, want the task and its updates:\n%s", len(lines), r.stdout)
		}
		var kinds []string
		for i, line := range lines {
			var ev map[string]json.RawMessage
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatalf("line %d does not parse alone: %v\n%s", i+1, err, line)
			}
			if compact(t, []byte(line)) != line {
				t.Errorf("line %d is not compact JSON: %s", i+1, line)
			}
			kinds = append(kinds, eventKind(t, peer.version, ev))
		}
		want := []string{"task", "status-update", "artifact-update", "artifact-update", "status-update"}
		if !slices.Equal(kinds, want) {
			t.Errorf("events %v, want %v", kinds, want)
		}
		last := lines[len(lines)-1]
		if state := map[string]string{"1.0": `"TASK_STATE_COMPLETED"`, "0.3": `"completed"`}[peer.version]; !strings.Contains(last, `"state":`+state) {
			t.Errorf("the last line is not the completed status: %s", last)
		}
	})

	// OUT_002: task get -o json is the task as the peer sends it to its
	// own GetTask (tasks/get), compacted, one document.
	// So is send -o json's task, the last the peer sent whole.
	t.Run("task get -o json", func(t *testing.T) {
		id, sent := sendForID(t, run, peer.version, "entity")
		r, args := run(t, "task", "get", id, "-o", "json")
		r.wantExit(t, 0, args...)
		var doc json.RawMessage
		oneDocument(t, r.stdout, &doc)
		want := compact(t, rawRPC(t, peer.endpoint, peer.getTask, map[string]any{"id": id}, peer.header...))
		if got := compact(t, doc); got != want {
			t.Errorf("task get -o json is not the peer's task:\n got %s\nwant %s", got, want)
		}
		if got := compact(t, sent); got != want {
			t.Errorf("send -o json's task is not the peer's task:\n got %s\nwant %s", got, want)
		}
	})

	// EXIT_001 / errors: cancelling a finished task is the protocol's
	// TaskNotCancelableError (-32002), as the envelope, exit 1.
	t.Run("task cancel finished", func(t *testing.T) {
		id, _ := sendForID(t, run, peer.version, "entity")
		r, args := run(t, "task", "cancel", id, "-o", "json")
		r.wantExit(t, 1, args...)
		wantEnvelope(t, r, "task cancel", "TaskNotCancelableError", -32002)
	})

	// A task the peer does not know: TaskNotFoundError (-32001), the same
	// code whatever the peer's version.
	t.Run("task get missing", func(t *testing.T) {
		r, args := run(t, "task", "get", "no-such-task", "-o", "json")
		r.wantExit(t, 1, args...)
		wantEnvelope(t, r, "task get", "TaskNotFoundError", -32001)
	})
}

// sendForID sends text (waiting for its end) with -o json and returns
// the task's id and the task as printed (v1.0: inside {"task":…}).
func sendForID(t *testing.T, run func(*testing.T, ...string) (cliResult, []string), version, text string) (string, json.RawMessage) {
	t.Helper()
	r, args := run(t, "send", "-o", "json", text)
	r.wantExit(t, 0, args...)
	var doc json.RawMessage
	oneDocument(t, r.stdout, &doc) // OUT_002: one document, though the wait streamed
	raw := doc
	if version == "1.0" {
		var reply map[string]json.RawMessage
		if err := json.Unmarshal(doc, &reply); err != nil || len(reply) != 1 || reply["task"] == nil {
			t.Fatalf("send -o json is not {\"task\":…}: %s", r.stdout)
		}
		raw = reply["task"]
	}
	var task struct{ ID string }
	if err := json.Unmarshal(raw, &task); err != nil || task.ID == "" {
		t.Fatalf("send -o json has no task id (%v): %s", err, r.stdout)
	}
	return task.ID, raw
}

// eventKind names a --stream -o json line's event as v0.3 kinds do: a
// v1.0 line must be a StreamResponse (one of its four keys, alone), a
// v0.3 line an event with its kind.
func eventKind(t *testing.T, version string, ev map[string]json.RawMessage) string {
	t.Helper()
	if version == "0.3" {
		var kind string
		if err := json.Unmarshal(ev["kind"], &kind); err != nil || kind == "" {
			t.Fatalf("a v0.3 line without kind: %v", ev)
		}
		return kind
	}
	if len(ev) != 1 {
		t.Fatalf("a v1.0 line with %d keys, want a StreamResponse (one): %v", len(ev), ev)
	}
	for k := range ev {
		switch k {
		case "task", "message":
			return k
		case "statusUpdate":
			return "status-update"
		case "artifactUpdate":
			return "artifact-update"
		}
		t.Fatalf("a v1.0 line keyed %q, not a StreamResponse", k)
	}
	return ""
}

// peerProxy is a reverse proxy in front of a peer, on a loopback port,
// that serves the peer's card with its URLs rewritten to name the proxy
// (so every call of a client that read the card goes through it) and
// records the JSON-RPC calls.
type peerProxy struct {
	base string // the proxy's base URL
	// onReply, when not nil, is called after each JSON-RPC call's reply
	// was written to the client, with the call's method and its reply
	// body (nil for a stream).
	onReply func(method string, reply []byte)

	mu      sync.Mutex
	methods []string // the JSON-RPC methods called, in order
	bodies  []string // their request bodies
}

// calls returns the methods called so far and their request bodies.
func (p *peerProxy) calls() (methods, bodies []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.methods), slices.Clone(p.bodies)
}

// replyKey carries a call's captured reply from ModifyResponse to the
// proxy's handler.
type replyKey struct{}

// startPeerProxy serves peer (a base URL) through a peerProxy calling
// onReply (nil: nothing) after each reply. It is closed when the test
// ends.
func startPeerProxy(t *testing.T, peer string, onReply func(method string, reply []byte)) *peerProxy {
	t.Helper()
	target, err := url.Parse(peer)
	if err != nil {
		t.Fatal(err)
	}
	transport := &http.Transport{}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.Transport = transport
	srv := httptest.NewUnstartedServer(nil)
	p := &peerProxy{base: "http://" + srv.Listener.Addr().String(), onReply: onReply}
	rp.ModifyResponse = func(resp *http.Response) error {
		card := strings.HasPrefix(resp.Request.URL.Path, "/.well-known/")
		reply, _ := resp.Request.Context().Value(replyKey{}).(*[]byte)
		if !card && (reply == nil || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json")) {
			return nil // a stream passes as it comes
		}
		b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		if err != nil {
			return err
		}
		if card {
			b = bytes.ReplaceAll(b, []byte(peer), []byte(p.base))
			resp.Header.Del("ETag")
		} else {
			*reply = b
		}
		resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		resp.Header.Del("Content-Length")
		return nil
	}
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/.well-known/") {
			rp.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var call struct{ Method string }
		json.Unmarshal(body, &call)
		p.mu.Lock()
		p.methods, p.bodies = append(p.methods, cmpOr(call.Method, r.Method+" "+r.URL.Path)), append(p.bodies, string(body))
		p.mu.Unlock()
		var reply []byte
		rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), replyKey{}, &reply)))
		if p.onReply != nil {
			p.onReply(call.Method, reply)
		}
	})
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		transport.CloseIdleConnections()
	})
	return p
}

// cmpOr is a, or b when a is empty.
func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// TestCLIHelpVersion checks CLI_001 on the built binary: help, a
// command's --help (with its flags' variables and their effective
// defaults: A2ACLI_TIMEOUT=45s is shown) and the version print on stdout,
// nothing on stderr, and exit 0, with no agent configured.
func TestCLIHelpVersion(t *testing.T) {
	bin := cliBinary(t)
	env := cliEnv(t, "A2ACLI_TIMEOUT=45s")
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--help"}, []string{"Usage: a2a COMMAND", "send [TEXT]", "Exit codes:"}},
		{[]string{"help", "task", "get"}, []string{"Usage: a2a task get TASKID"}},
		{[]string{"send", "--help"}, []string{"Usage: a2a send [TEXT]", "--async", "[A2ACLI_ASYNC]", "--timeout", "(45s, from the environment) [A2ACLI_TIMEOUT]"}},
		{[]string{"-v"}, []string{"A2A protocol versions: 0.3, 1.0"}},
		{[]string{"version"}, []string{"A2A protocol versions: 0.3, 1.0", "CLI specification: A2A CLI specification v0.2"}},
	} {
		r := runCLI(t, bin, env, tc.args...)
		r.wantExit(t, 0, tc.args...)
		inOrder(t, "a2a "+strings.Join(tc.args, " "), r.stdout, tc.want...)
		if r.stderr != "" {
			t.Errorf("a2a %s wrote on stderr:\n%s", strings.Join(tc.args, " "), r.stderr)
		}
	}
}

// shellWords splits a command line as a POSIX shell would one made of
// plain words and single-quoted ones (what the CLI's Resume line holds);
// anything else (a double quote, a backslash, a $) fails the test.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			w.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ':
			if inWord {
				words, inWord = append(words, w.String()), false
				w.Reset()
			}
		case strings.ContainsRune("\"\\$`", r):
			t.Fatalf("the command line %q needs more than single quotes to read", line)
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("the command line %q has an open quote", line)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

// TestCLIUnreachable checks EXIT_001's other reserved code on the built
// binary: an agent nobody listens for (a loopback port just closed) is
// A2ACLI_ERR_UNREACHABLE, exit 3, whether its card or its endpoint (-e)
// is asked.
func TestCLIUnreachable(t *testing.T) {
	bin := cliBinary(t)
	ln := httptest.NewUnstartedServer(nil).Listener
	addr := ln.Addr().String()
	ln.Close()
	for _, args := range [][]string{
		{"card", "get", "-o", "json", "-a", "http://" + addr},
		{"task", "get", "-o", "json", "-e", "http://" + addr + "/a2a/jsonrpc", "t1"},
	} {
		r := runCLI(t, bin, cliEnv(t), args...)
		r.wantExit(t, 3, args...)
		wantEnvelope(t, r, strings.Join(args[:2], " "), "A2ACLI_ERR_UNREACHABLE", nil)
	}
}
