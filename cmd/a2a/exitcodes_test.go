package main

import (
	"context"
	"net"
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
// that way: the specification's (0 whatever the task's outcome, 1, 2, 3,
// 4, 5, 130) and --task-exit-codes' (10, 11, 12).

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

// classified reports whether the error classification is the real one:
// zz_stubs.go's stand-in calls every error but a usage error
// A2ACLI_ERR_INTERNAL, exit 1, an expired --timeout included.
//
// TODO(classify): delete it, and the skips it makes, once the error
// classification merges (the exits 3 of an unreachable endpoint, 4 and 5
// are its to give).
func classified() bool { return classify(context.DeadlineExceeded, false).Exit == exitTimeout }

func TestExitCodes(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	slow := workingAgent(t, a2atest.V10(), a2atest.WithCard(demoCard()))
	entity := startTask(t, agent, a2a.ProtocolV10, "这个二维码是什么？"+a2atest.SeedQRCode)
	working := startTask(t, slow, a2a.ProtocolV10, "盘点")
	stays := startTask(t, slow, a2a.ProtocolV10, "盘点") // not canceled
	html := newAgent(t)
	html.Enqueue(a2atest.Raw{Status: 502, ContentType: "text/html", Body: "<html><body><h1>502 Bad Gateway</h1></body></html>"})
	noCard := newAgent(t)
	keyed := demoAgent(t, a2a.ProtocolV10, a2atest.RequireAPIKey("right-key"))
	a, s := siteOfAgent(agent), siteOfAgent(slow)

	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		stderr   string // a line stderr holds
		classify bool   // the code is the error classification's to give
	}{
		{"completed", []string{"send", "-a", a, "这个二维码是什么？" + a2atest.SeedQRCode}, exitOK, "", false},
		{"read", []string{"task", "get", "-a", a, entity}, exitOK, "", false},
		{"failed", []string{"send", "-a", a, "你好"}, exitOK, "a2a: the task failed\n", false},
		{"failed --task-exit-codes", []string{"send", "-a", a, "你好", "--task-exit-codes"}, exitTaskFailed, "a2a: the task failed\n", false},
		{"input-required", []string{"send", "-a", a, "查一台设备"}, exitOK, "a2a: the task waits for you (input-required)", false},
		{"input-required --task-exit-codes", []string{"send", "-a", a, "查一台设备", "--task-exit-codes"}, exitTaskInterrupted, "a2a: the task waits for you", false},
		{"--async", []string{"send", "--async", "-a", a, "本月巡检记录"}, exitOK, "a2a: the task is not finished (submitted)\n", false},
		{"--async --task-exit-codes", []string{"send", "--async", "-a", a, "本月巡检记录", "--task-exit-codes"}, exitTaskUnfinished, "a2a: the task is not finished (submitted)\n", false},
		{"canceled by task cancel", []string{"task", "cancel", "-a", s, working, "--task-exit-codes"}, exitOK, "", false},
		{"html 502", []string{"task", "get", "-e", html.URL, "--a2a-version", "0.3", "--retries", "0", entity}, exitUnreachable, "502", false}, // a gateway that cannot reach its agent
		{"json-rpc error", []string{"task", "get", "-a", a, "no-such-task"}, exitError, "TaskNotFoundError: task not found: no-such-task", false},
		{"no card", []string{"card", "get", "-a", siteOfAgent(noCard)}, exitUnreachable, "a2a card get: A2ACLI_ERR_CARD_NOT_FOUND: ", false},
		{"no card to send to", []string{"send", "-a", siteOfAgent(noCard), "你好"}, exitUnreachable, "a2a send: A2ACLI_ERR_CARD_NOT_FOUND: ", false},
		{"connection refused", []string{"send", "--retries", "0", "-e", closedURL(t), "你好"}, exitUnreachable, "a2a send: A2ACLI_ERR_UNREACHABLE: ", true},
		{"no credentials", []string{"send", "-a", siteOfAgent(keyed), "你好"}, exitAuth, "A2ACLI_ERR_CREDENTIALS_MISSING", true},
		{"credentials refused", []string{"send", "-a", siteOfAgent(keyed), "--api-key", "wrong-key", "你好"}, exitAuth, "A2ACLI_ERR_AUTH_FAILED", true},
		{"--timeout", []string{"task", "get", "--wait", "-a", s, "--poll-interval", "10ms", "--timeout", "200ms", stays}, exitTimeout, "A2ACLI_ERR_TIMEOUT", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.classify && !classified() {
				t.Skipf("TODO(classify): exit %d is the error classification's to give; zz_stubs.go stands in for it", tc.code)
			}
			r := a2aCmd(t, tc.args...)
			r.wantCode(t, tc.code)
			if !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("stderr does not hold %q:\n%s", tc.stderr, r.stderr)
			}
		})
	}
	// The key was refused, and never printed.
	for _, r := range keyed.Requests() {
		if r.Method != "" && r.Header.Get("X-API-Key") == "right-key" {
			t.Errorf("%s was sent the right key, which no command was given", r.Method)
		}
	}
}

// TestUsageErrors: a bad command line exits 2, says why in one line on
// stderr and sends nothing.
func TestUsageErrors(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	a := siteOfAgent(agent)
	hostPort := strings.TrimPrefix(agent.URL, "http://")
	for _, tc := range []struct {
		name   string
		args   []string
		env    map[string]string
		stderr string // stderr holds this
	}{
		{"no command", []string{"-a", a}, nil, "no command given before the flags"},
		{"unknown command", []string{"frobnicate", a}, nil, `unknown command "frobnicate"`},
		{"misspelt command", []string{"sends", "-a", a, "你好"}, nil, `unknown command "sends"; did you mean "a2a send"?`},
		{"misspelt subcommand", []string{"task", "gett", "-a", a, "t1"}, nil, `unknown command "task gett"; did you mean "a2a task get"?`},
		{"unknown subcommand", []string{"task", "frob", "-a", a, "t1"}, nil, `unknown command "task frob": "task" takes get, cancel, list, subscribe, download, push-config`},
		{"group alone", []string{"task", "-a", a}, nil, `"task" needs a subcommand: get, cancel, list, subscribe, download, push-config`},
		{"renamed command", []string{"get", a, "t1"}, nil, `"get" is now "a2a task get"`},
		{"unknown flag", []string{"send", "--bogus", "-a", a, "你好"}, nil, "unknown flag --bogus"},
		{"misspelt flag", []string{"send", "--agent-crad", a, "你好"}, nil, "unknown flag --agent-crad; did you mean --agent-card?"},
		{"flag without value", []string{"send", "你好", "-a"}, nil, "--agent-card needs a value"},
		{"too many arguments", []string{"task", "get", "-a", a, "t1", "t2"}, nil, "want: a2a task get TASKID (a2a task get --help)"},
		{"too few arguments", []string{"task", "push-config", "get", "-a", a, "t1"}, nil, "want: a2a task push-config get TASKID CONFIGID"},
		{"no agent", []string{"send", "你好"}, nil, "which agent? give -a/--agent-card"},
		{"-a with -e", []string{"send", "-a", a, "-e", agent.URL, "你好"}, nil, "--agent-card and --endpoint are exclusive"},
		{"-e without a scheme", []string{"send", "-e", hostPort, "你好"}, nil, "is not an http:// or https:// URL"},
		{"-e with another scheme", []string{"task", "get", "-e", "ftp://" + hostPort, "t1"}, nil, "is not an http:// or https:// URL"},
		{"-a with another scheme", []string{"card", "get", "-a", "ftp://" + hostPort}, nil, "want a host, an http:// or https:// URL, or a file"},
		{"card get -e", []string{"card", "get", "-e", agent.URL}, nil, "card get reads a card: give -a/--agent-card, not --endpoint"},
		{"bad --output", []string{"send", "-a", a, "你好", "-o", "yaml"}, nil, "--output yaml: want text or json"},
		{"negative --timeout", []string{"send", "-a", a, "你好", "--timeout", "-1s"}, nil, "--timeout must be a positive duration"},
		{"bad --timeout", []string{"send", "-a", a, "你好", "--timeout", "soon"}, nil, "--timeout: "},
		{"bad A2ACLI_TIMEOUT", []string{"send", "-a", a, "你好"}, map[string]string{"A2ACLI_TIMEOUT": "soon"}, "A2ACLI_TIMEOUT (from the environment)"},
		{"--poll-interval 0", []string{"task", "get", "--wait", "-a", a, "t1", "--poll-interval", "0s"}, nil, "--poll-interval must be a positive duration"},
		{"--a2a-version 2.0", []string{"send", "-a", a, "你好", "--a2a-version", "2.0"}, nil, "--a2a-version 2.0: want 1.0 or 0.3"},
		{"A2ACLI_A2A_VERSION 2.0", []string{"send", "-a", a, "你好"}, map[string]string{"A2ACLI_A2A_VERSION": "2.0"}, "--a2a-version 2.0: want 1.0 or 0.3"},
		{"bad --transport", []string{"send", "-a", a, "你好", "--transport", "carrier-pigeon"}, nil, "--transport: carrier-pigeon: want JSONRPC or HTTP+JSON"},
		{"--agent-id with --agent-code", []string{"send", "-a", a, "你好", "--agent-id", "a1", "--agent-code", "c1"}, nil, "--agent-id and --agent-code are exclusive"},
		{"--retries 21", []string{"task", "get", "-a", a, "t1", "--retries", "21"}, nil, "--retries must be 0..20"},
		{"--max-bytes 0", []string{"task", "get", "-a", a, "t1", "--max-bytes", "0"}, nil, "--max-bytes must be positive"},
		{"--svc-param not K:V", []string{"task", "get", "-a", a, "t1", "--svc-param", "X-Secret-9"}, nil, "is not K:V or K=V; it is not shown here"},
		{"--cert without --key", []string{"task", "get", "-a", a, "t1", "--cert", "c.pem"}, nil, "--cert and --key go together"},
		{"--tenant on v0.3", []string{"task", "get", "-e", agent.URL, "t1", "--tenant", "acme", "--a2a-version", "0.3"}, nil, "--tenant needs A2A v1.0"},
		{"--async with --wait", []string{"send", "-a", a, "你好", "--async", "--wait"}, nil, "--async and --wait contradict each other"},
		{"--async with --stream", []string{"send", "-a", a, "你好", "--async", "--stream"}, nil, "--async and --stream contradict each other"},
		{"--push-url alone", []string{"send", "-a", a, "你好", "--push-url", "https://example.com/hook"}, nil, "--push-url goes with --push-receiver"},
		{"--page-size 101", []string{"task", "list", "-a", a, "--page-size", "101"}, nil, "--page-size must be 0..100"},
		{"--status bogus", []string{"task", "list", "-a", a, "--status", "bogus"}, nil, "--status bogus: want submitted, working"},
		{"--status unknown", []string{"task", "list", "-a", a, "--status", "unknown"}, nil, "--status unknown: want"},
		{"push-config create with a bad webhook", []string{"task", "push-config", "create", "-a", a, "t1", "hooks.example.com"}, nil, "the webhook hooks.example.com is not an http:// or https:// URL"},
		{"--tenant on v0.3 env", []string{"task", "list", "-e", agent.URL, "--tenant", "acme"}, map[string]string{"A2ACLI_A2A_VERSION": "0.3"}, "task list is not in A2A v0.3 over JSONRPC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(agent.Requests())
			r := invocation{env: tc.env}.run(t, tc.args...)
			r.wantCode(t, exitUsage)
			if !strings.Contains(r.stderr, tc.stderr) || !strings.Contains(r.stderr, ": A2ACLI_ERR_USAGE: ") {
				t.Errorf("stderr does not hold %q:\n%s", tc.stderr, r.stderr)
			}
			if strings.Count(r.stderr, "\n") > 2 {
				t.Errorf("more than the error and a hint on stderr:\n%s", r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout is not empty:\n%s", r.stdout)
			}
			if strings.Contains(r.stderr, "X-Secret-9") {
				t.Errorf("stderr shows the --svc-param's text:\n%s", r.stderr)
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

// TestInterrupt: Ctrl-C during task get --wait exits 130 and prints the
// task's ids and the command that resumes; with --cancel-on-interrupt the
// task is cancelled first, and there is nothing to resume.
func TestInterrupt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		version string
		flags   []string
		want    []string // the methods of the command, after its card lookups
		stdout  string
		stderr  string
	}{
		// The context is known once a poll has answered.
		{"v0.3", a2a.ProtocolV03, []string{"--a2a-version", "0.3"}, []string{"tasks/get"},
			"Task: task-1\nContext: CTX\nStatus: STATE\nResume: a2a task get --wait -a SITE --a2a-version 0.3 task-1\n", "a2a task get: stopped\n"},
		{"v1.0 cancel-on-interrupt", a2a.ProtocolV10, []string{"--cancel-on-interrupt"}, []string{"GetTask", "CancelTask"},
			"Task: task-1\nContext: CTX\nStatus: canceled\n", "a2a task get: task task-1 is canceled\na2a task get: stopped\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opts := []a2atest.Option{a2atest.WithCard(demoCard())}
			if tc.version == a2a.ProtocolV10 {
				opts = append(opts, a2atest.V10())
			}
			agent := workingAgent(t, opts...)
			id := startTask(t, agent, tc.version, "盘点")
			ctx, stop := cancelWhenSeen(t, agent, tc.want[0])
			defer stop()
			r := invocation{ctx: ctx}.run(t, append([]string{"task", "get", "--wait", "-a", siteOfAgent(agent), "--poll-interval", "10ms", id}, tc.flags...)...)
			r.wantCode(t, exitSignal)
			r.stdout = strings.ReplaceAll(r.stdout, siteOfAgent(agent), "SITE")
			r.stdout = regexp.MustCompile(`Context: (ctx-1|\(not known\))\n`).ReplaceAllString(r.stdout, "Context: CTX\n")
			r.stdout = regexp.MustCompile(`Status: (working|\(no state\))\n`).ReplaceAllString(r.stdout, "Status: STATE\n")
			if r.stdout != tc.stdout || r.stderr != tc.stderr {
				t.Errorf("stdout = %q, want %q\nstderr = %q, want %q", r.stdout, tc.stdout, r.stderr, tc.stderr)
			}
			got := slices.Compact(methods(agent)[1:]) // after the SDK's send
			if got[0] == "" {
				got = got[1:] // the card's GET
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}
