package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// Every exit code of the table in usage, each from a command that ends
// that way.

// closedURL is a JSON-RPC endpoint on a loopback port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/a2a/jsonrpc"
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	slow := workingAgent(t)
	entity := startTask(t, agent, a2a.ProtocolV03, "这个二维码是什么？"+a2atest.SeedQRCode)
	working := startTask(t, slow, a2a.ProtocolV03, "盘点")
	html := newAgent(t)
	html.Enqueue(a2atest.Raw{Status: 502, ContentType: "text/html", Body: "<html><body><h1>502 Bad Gateway</h1></body></html>"})

	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string // a line stderr holds
	}{
		{"completed", []string{"send", agent.URL, "这个二维码是什么？" + a2atest.SeedQRCode}, exitOK, ""},
		{"read", []string{"get", agent.URL, entity}, exitOK, ""},
		{"html 502", []string{"get", "--protocol", "0.3", "--retries", "0", html.URL, entity}, exitError, "502"},
		{"json-rpc error", []string{"get", agent.URL, "no-such-task"}, exitError, "task not found: no-such-task (code -32001)"},
		{"connection refused", []string{"send", "--retries", "0", closedURL(t), "你好"}, exitError, "a2a send: "},
		{"failed", []string{"send", agent.URL, "你好"}, exitFailed, ""},
		{"input-required", []string{"send", agent.URL, "查一台设备"}, exitInterrupted, "the agent waits for you; answer with:"},
		{"submitted", []string{"send", agent.URL, "本月巡检记录"}, exitUnfinished, "a2a wait "},
		{"poll ran out", []string{"wait", "--max-attempts", "1", slow.URL, working}, exitUnfinished, "a2a wait "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := a2aCmd(t, tc.args...)
			r.wantCode(t, tc.code)
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr does not hold %q:\n%s", tc.stderr, r.stderr)
			}
		})
	}
}

// TestUsageErrors: a bad command line exits 2 and sends nothing.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"code": `), 0o644); err != nil {
		t.Fatal(err)
	}
	u := agent.URL
	hostPort := strings.TrimPrefix(u, "http://")
	for _, tc := range []struct {
		name   string
		args   []string
		env    map[string]string
		stdin  string
		stderr string // stderr holds this
	}{
		{"URL without a scheme", []string{"send", hostPort, "你好"}, nil, "", "is not an http:// or https:// URL"},
		{"URL with another scheme", []string{"get", "ftp://" + hostPort, "t1"}, nil, "", "is not an http:// or https:// URL"},
		{"card URL without a scheme", []string{"card", "localhost/agent"}, nil, "", "is not an http:// or https:// URL"},
		{"unknown flag", []string{"send", "--bogus", u, "你好"}, nil, "", "flag provided but not defined: -bogus"},
		{"unknown command", []string{"frobnicate", u}, nil, "", `unknown command "frobnicate"`},
		{"too few arguments", []string{"send", u}, nil, "", "URL TEXT (run"},
		{"too many arguments", []string{"get", u, "t1", "t2"}, nil, "", "URL TASKID (run"},
		{"unreadable --data", []string{"send", u, "你好", "--data", filepath.Join(dir, "absent.json")}, nil, "", "--data: open "},
		{"invalid JSON in --data", []string{"send", u, "你好", "--data", bad}, nil, "", "is not valid JSON"},
		{"invalid JSON on stdin", []string{"stream", u, "你好", "--data", "-"}, nil, "{oops", "--data: stdin is not valid JSON"},
		{"control character in --header", []string{"send", u, "你好", "--header", "X-Trace=a\x01b"}, nil, "", "control character"},
		{"--header not K=V", []string{"send", u, "你好", "--header", "X-Trace"}, nil, "", "is not K=V"},
		{"negative --timeout", []string{"send", u, "你好", "--timeout", "-1s"}, nil, "", "--timeout (or A2A_TIMEOUT) must be a positive duration"},
		{"bad A2A_TIMEOUT", []string{"send", u, "你好"}, map[string]string{"A2A_TIMEOUT": "soon"}, "", "--timeout (or A2A_TIMEOUT)"},
		{"--protocol 2.0", []string{"send", u, "你好", "--protocol", "2.0"}, nil, "", `--protocol "2.0": want auto, 0.3 or 1.0`},
		{"A2A_PROTOCOL 2.0", []string{"send", u, "你好"}, map[string]string{"A2A_PROTOCOL": "2.0"}, "", `--protocol "2.0"`},
		{"--agent-id with --agent-code", []string{"send", u, "你好", "--agent-id", "a1", "--agent-code", "c1"}, nil, "", "--agent-id and --agent-code are exclusive"},
		{"--retries 21", []string{"get", u, "t1", "--retries", "21"}, nil, "", "--retries (or A2A_RETRIES) must be 0..20"},
		{"bad A2A_HEADERS", []string{"get", u, "t1"}, map[string]string{"A2A_HEADERS": "X-A=1;nope"}, "", "A2A_HEADERS"},
		{"--tenant on v0.3", []string{"get", u, "t1", "--tenant", "acme", "--protocol", "0.3"}, nil, "", "--tenant needs an A2A v1.0 endpoint"},
		{"--max-attempts 0", []string{"send", "--wait", u, "本月巡检记录", "--max-attempts", "0"}, nil, "", "--max-attempts must be at least 1"},
		{"--page-size 101", []string{"tasks", u, "--page-size", "101"}, nil, "", "--page-size must be 0..100"},
		{"--status bogus", []string{"tasks", u, "--status", "bogus"}, nil, "", `--status "bogus": want`},
		{"--status unknown", []string{"tasks", u, "--status", "unknown"}, nil, "", `--status "unknown": want`},
		{"push with a bad op", []string{"push", "show", u, "t1"}, nil, "", `push "show": want set, get, list or delete`},
		{"push set without webhook", []string{"push", "set", u, "t1"}, nil, "", "push set needs the webhook URL"},
		{"push set with a bad webhook", []string{"push", "set", u, "t1", "hooks.example.com"}, nil, "", "webhook: "},
		{"push delete without id", []string{"push", "delete", u, "t1"}, nil, "", "push delete needs the config id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(agent.Requests())
			r := invocation{env: tc.env, stdin: tc.stdin}.run(t, tc.args...)
			r.wantCode(t, exitUsage)
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr does not hold %q:\n%s", tc.stderr, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout is not empty:\n%s", r.stdout)
			}
			if n := len(agent.Requests()) - before; n != 0 {
				t.Errorf("a usage error sent %d requests", n)
			}
		})
	}
}

// cancelWhenSeen returns a context that is cancelled, as Ctrl-C cancels
// main's, once agent has received a request for method, and a func that
// stops watching.
func cancelWhenSeen(t *testing.T, agent *a2atest.Server, method string) (context.Context, func()) {
	ctx, cancel := context.WithCancel(t.Context())
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for !slices.Contains(methods(agent), method) {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
		cancel()
	}()
	return ctx, func() {
		close(stop)
		<-done
		cancel()
	}
}

// TestInterrupt: Ctrl-C during wait exits 130; with --cancel-on-interrupt
// the task is cancelled first.
func TestInterrupt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		version string
		flags   []string
		want    []string // the methods of the command, after its card lookups
		stderr  string
	}{
		// The context is known once a poll has answered.
		{"v0.3", a2a.ProtocolV03, nil, []string{"tasks/get"}, "a2a wait: stopped\nthe task is not finished (task task-1, context CTX); wait for it with:\n  a2a wait --protocol 0.3 URL task-1\n"},
		{"v1.0 cancel-on-interrupt", a2a.ProtocolV10, []string{"--cancel-on-interrupt"}, []string{"GetTask", "CancelTask"}, "a2a wait: task task-1 is canceled\na2a wait: stopped\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var agent *a2atest.Server
			if tc.version == a2a.ProtocolV10 {
				agent = workingAgent(t, a2atest.V10())
			} else {
				agent = workingAgent(t)
			}
			id := startTask(t, agent, tc.version, "盘点")
			ctx, stop := cancelWhenSeen(t, agent, tc.want[0])
			defer stop()
			r := invocation{ctx: ctx}.run(t, append([]string{"wait", "--protocol", tc.version, agent.URL, id}, tc.flags...)...)
			r.wantCode(t, exitSignal)
			r.stderr = strings.ReplaceAll(r.stderr, agent.URL, "URL")
			r.stderr = regexp.MustCompile(`context (ctx-1|not known)\)`).ReplaceAllString(r.stderr, "context CTX)")
			if r.stderr != tc.stderr {
				t.Errorf("stderr = %q, want %q", r.stderr, tc.stderr)
			}
			got := slices.Compact(methods(agent)[1:]) // after the SDK's send; a slow watcher may see two polls
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}
