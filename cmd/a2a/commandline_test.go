package main

import (
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// The command line itself: errors and their envelope, help, the names
// of old releases, flags, variables, and the commands printed to paste.

// TestErrorEnvelope: a failed command says why on stderr, and with
// -o json prints the error envelope as its one document on stdout.
//
// TODO(classify): the code of a missing task is A2ACLI_ERR_INTERNAL
// while zz_stubs.go stands in for the error classification; once it
// merges it is TaskNotFoundError with a2aCode -32001: regenerate
// testdata/error.txt with -update and review it.
func TestErrorEnvelope(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	missing := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), "-o", "json", "no-such-task")
	missing.wantCode(t, exitError)
	text := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), "no-such-task")
	text.wantCode(t, exitError)
	usage := a2aCmd(t, "task", "list", "-a", siteOfAgent(agent), "-o", "json", "--page-size", "101")
	usage.wantCode(t, exitUsage)
	golden(t, "error", missing, text, usage)
	for _, r := range []result{missing, usage} {
		v := wantJSONDoc(t, r)
		e, ok := v["error"].(map[string]any)
		if !ok || len(v) != 1 {
			t.Fatalf("not an error envelope: %s", r.stdout)
		}
		for _, k := range []string{"code", "message", "hint", "a2aCode"} {
			if _, ok := e[k]; !ok {
				t.Errorf("the envelope has no %q: %s", k, r.stdout)
			}
		}
		if !strings.HasPrefix(r.stderr, "a2a task ") || !strings.Contains(r.stderr, ": "+e["code"].(string)+": ") {
			t.Errorf("stderr does not say the error as the envelope does:\n%s", r.stderr)
		}
	}
	if e := wantJSONDoc(t, usage)["error"].(map[string]any); e["code"] != "A2ACLI_ERR_USAGE" || e["a2aCode"] != nil {
		t.Errorf("a usage error's envelope: %s", usage.stdout)
	}
}

// TestHelp: --help, -h and help print the tool's usage on stdout and
// exit 0 (no arguments: usage, exit 2); a command's --help (or "help
// COMMAND") lists its flags with their effective defaults.
func TestHelp(t *testing.T) {
	t.Parallel()
	help := a2aCmd(t, "--help")
	help.wantCode(t, exitOK)
	send := a2aCmd(t, "send", "--help")
	send.wantCode(t, exitOK)
	golden(t, "help", help, send)
	for _, args := range [][]string{{}, {"-h"}, {"help"}} {
		r := a2aCmd(t, args...)
		if want := map[bool]int{true: exitUsage, false: exitOK}[len(args) == 0]; r.code != want {
			t.Errorf("a2a %v: exit %d, want %d", args, r.code, want)
		}
		if r.stdout != help.stdout {
			t.Errorf("a2a %v does not print the help", args)
		}
	}
	// A group's help lists its commands.
	for _, args := range [][]string{{"task", "--help"}, {"help", "task"}} {
		r := a2aCmd(t, args...)
		r.wantCode(t, exitOK)
		if !strings.Contains(r.stdout, "Usage: a2a task COMMAND") || !strings.Contains(r.stdout, "task push-config create TASKID WEBHOOK") {
			t.Errorf("a2a %v does not list the task commands:\n%s", args, r.stdout)
		}
	}
	for _, args := range [][]string{{"help", "send"}, {"send", "-h"}} {
		r := a2aCmd(t, args...)
		r.wantCode(t, exitOK)
		if r.stdout != send.stdout {
			t.Errorf("a2a %v is not send's help:\n%s", args, r.stdout)
		}
	}
	// --help after other flags: the help, with the values they give.
	r := a2aCmd(t, "send", "-a", "example.com", "--help")
	r.wantCode(t, exitOK)
	if !strings.HasPrefix(r.stdout, "Usage: a2a send ") || !strings.Contains(r.stdout, " (example.com") {
		t.Errorf("a2a send -a example.com --help:\n%s", r.stdout)
	}
	// The effective default, and where it came from.
	r = invocation{env: map[string]string{"A2ACLI_TIMEOUT": "30s"}}.run(t, "task", "get", "--help")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "(30s, from the environment) [A2ACLI_TIMEOUT]") {
		t.Errorf("task get --help does not show A2ACLI_TIMEOUT's value:\n%s", r.stdout)
	}
}

// TestRenamed: a command or flag of the releases before the A2A CLI
// specification is a usage error that names what replaced it.
func TestRenamed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"get", "t1"}, `"get" is now "a2a task get"`},
		{[]string{"wait", "t1"}, `"wait" is now "a2a task get --wait"`},
		{[]string{"tasks"}, `"tasks" is now "a2a task list"`},
		{[]string{"stream", "hi"}, `"stream" is now "a2a send --stream"`},
		{[]string{"resubscribe", "t1"}, `"resubscribe" is now "a2a task subscribe"`},
		{[]string{"push", "list", "t1"}, `"push" is now "a2a task push-config"`},
		{[]string{"fake-agent"}, `"fake-agent" is now "a2a demo-server"`},
		{[]string{"card", "-a", "example.com"}, `"card" needs a subcommand: get`},
		{[]string{"send", "--json", "hi"}, "--json is now -o json"},
		{[]string{"send", "--protocol", "0.3", "hi"}, "--protocol is now --a2a-version"},
		{[]string{"send", "--no-block", "hi"}, "--no-block is now --async"},
	} {
		r := a2aCmd(t, tc.args...)
		r.wantCode(t, exitUsage)
		if !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
			t.Errorf("a2a %s: stderr does not hold %q (or stdout is not empty):\n%s", strings.Join(tc.args, " "), tc.want, r.transcript())
		}
	}
}

// TestResumeReachesTheSameAgent: the printed Resume lines carry the
// flags that reach the agent as the command did (the card, the version,
// the agent selector, the workspace), so that pasted they ask the same
// agent; a secret is never among them, nor a flag that came from the
// environment (it comes from there again).
func TestResumeReachesTheSameAgent(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	raw := func(task string) a2atest.Raw {
		return a2atest.Raw{Status: 200, ContentType: "application/json", EchoID: true, Body: `{"jsonrpc":"2.0","id":{{id}},"result":` + task + `}`}
	}
	agent.Enqueue(raw(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}`),
		raw(`{"kind":"task","id":"t2","contextId":"c2","status":{"state":"input-required"}}`))
	const key = "key-7c6b5a"
	flags := []string{"-e", agent.URL, "--a2a-version", "0.3", "--agent-id", "AG1", "--workspace", "ws-9", "--api-key", key}
	same := " -e " + agent.URL + " --a2a-version 0.3 --agent-id AG1 --workspace ws-9"
	r := a2aCmd(t, append([]string{"send", "--async", "你好"}, flags...)...)
	r.wantCode(t, exitOK)
	if want := "\nResume: a2a task get --wait" + same + " t1\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("the Resume line lacks the agent's flags, want %q:\n%s", want, r.stdout)
	}
	r = invocation{env: map[string]string{"A2ACLI_API_KEY": key, "A2ACLI_WORKSPACE": "ws-9"}}.run(t, append([]string{"send", "你好"}, flags[:6]...)...)
	r.wantCode(t, exitOK)
	if want := "\nResume: a2a send -e " + agent.URL + " --a2a-version 0.3 --agent-id AG1 --task-id t2 --context-id c2 'ANSWER'\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("the Resume line, want %q:\n%s", want, r.stdout)
	}
	for _, req := range agent.Requests() {
		if req.Header.Get("X-API-Key") != key || req.Header.Get("X-Workspace-ID") != "ws-9" {
			t.Errorf("%s was sent without the key or the workspace: %v", req.Method, req.Header)
		}
	}
	if strings.Contains(r.stdout+r.stderr, key) {
		t.Errorf("a line shows the key:\n%s", r.transcript())
	}
}

// TestCardFromEndpoint: card get given the agent's JSON-RPC endpoint
// finds the card at the site's root, and --debug names each URL tried
// with its status, without the URL's secrets; without a card, the error
// names every URL tried and exits 3.
func TestCardFromEndpoint(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.WithCard(caoliaoCard()))
	site := a2aCmd(t, "card", "get", "-a", siteOfAgent(agent))
	site.wantCode(t, exitOK)
	r := a2aCmd(t, "card", "get", "--debug", "-a", agent.URL+"?key=q-secret-value")
	r.wantCode(t, exitOK)
	if r.stdout != site.stdout {
		t.Errorf("card of the endpoint:\n%s\nwant the site's:\n%s", r.stdout, site.stdout)
	}
	if strings.Contains(r.stderr, "secret") {
		t.Errorf("--debug shows the URL's secret:\n%s", r.stderr)
	}
	for _, want := range []string{
		"url=" + agent.URL + a2a.AgentCardPath + " status=404",
		"url=" + siteOfAgent(agent) + "/a2a" + a2a.AgentCardPath + " status=404",
		"url=" + siteOfAgent(agent) + a2a.AgentCardPath + " status=200",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("--debug does not say %q:\n%s", want, r.stderr)
		}
	}

	none := newAgent(t)
	r = a2aCmd(t, "card", "get", "-a", none.URL)
	r.wantCode(t, exitUnreachable)
	for _, p := range []string{none.URL + a2a.AgentCardPath, siteOfAgent(none) + "/a2a" + a2a.AgentCardPath, siteOfAgent(none) + a2a.AgentCardPath,
		none.URL + a2a.LegacyAgentCardPath, siteOfAgent(none) + a2a.LegacyAgentCardPath} {
		if !strings.Contains(r.stderr, " "+p+" (HTTP 404)") {
			t.Errorf("the error does not name %s:\n%s", p, r.stderr)
		}
	}
	if !strings.Contains(r.stderr, "A2ACLI_ERR_CARD_NOT_FOUND") || !strings.Contains(r.stderr, "hint: ") {
		t.Errorf("not A2ACLI_ERR_CARD_NOT_FOUND with a hint:\n%s", r.stderr)
	}
}

// TestCommandLine: flags go before or after the positional arguments,
// "--" ends them (a text that starts with "-" is sent as it is), each
// flag reads its A2ACLI_ variable when not given, and the flag wins over
// the variable; --stream is never read from the environment.
func TestCommandLine(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	site := siteOfAgent(agent)
	dash := a2aCmd(t, "send", "-a", site, "--", "-o")
	dash.wantCode(t, exitOK)
	if !strings.HasPrefix(dash.stdout, "Task: task-1\n") {
		t.Errorf("a2a send -a SITE -- -o: not text output:\n%s", dash.stdout)
	}
	if body := string(agent.Requests()[len(agent.Requests())-2].Body); !strings.Contains(body, `"text":"-o"`) {
		t.Errorf("the text after -- was not sent as it is: %s", body)
	}
	after := a2aCmd(t, "task", "get", "task-1", "-a", site, "-o", "json")
	after.wantCode(t, exitOK)
	if v := wantJSONDoc(t, after); v["id"] != "task-1" {
		t.Errorf("flags after the task id: %s", after.stdout)
	}
	vars := map[string]string{"A2ACLI_AGENT_CARD": site, "A2ACLI_OUTPUT": "json", "A2ACLI_STREAM": "true", "A2ACLI_TASK_EXIT_CODES": "true"}
	fromEnv := invocation{env: vars}.run(t, "task", "get", "task-1")
	fromEnv.wantCode(t, exitTaskFailed) // A2ACLI_TASK_EXIT_CODES: task-1 failed
	if fromEnv.stdout != after.stdout {
		t.Errorf("A2ACLI_AGENT_CARD and A2ACLI_OUTPUT: got\n%s\nwant\n%s", fromEnv.stdout, after.stdout)
	}
	flagWins := invocation{env: vars}.run(t, "task", "get", "task-1", "-o", "text")
	flagWins.wantCode(t, exitTaskFailed)
	if !strings.HasPrefix(flagWins.stdout, "Task: task-1\n") {
		t.Errorf("-o text does not win over A2ACLI_OUTPUT=json:\n%s", flagWins.stdout)
	}
	send := invocation{env: vars}.run(t, "send", "你好")
	send.wantCode(t, exitTaskFailed)
	if strings.Count(send.stdout, "\n") != 1 || strings.Contains(send.stdout, "statusUpdate") {
		t.Errorf("A2ACLI_STREAM was read: want one document, not JSON Lines:\n%s", send.stdout)
	}
	// A --svc-param with a control character is refused before anything
	// is sent.
	before := len(agent.Requests())
	bad := a2aCmd(t, "task", "get", "-a", site, "task-1", "--svc-param", "X-Trace:a\x01b")
	bad.wantCode(t, exitUsage)
	if n := len(agent.Requests()) - before; n != 0 || !strings.Contains(bad.stderr, "control character") {
		t.Errorf("--svc-param with a control character: %d requests sent\n%s", n, bad.stderr)
	}
}
