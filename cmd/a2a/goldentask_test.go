package main

import (
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// The task commands against demo-server's agent, in each output mode,
// compared with the transcripts in testdata/ (golden_test.go).

// TestTaskGet: task get prints a task; -o json the agent's own bytes;
// a task not finished is named, with the command that waits for it.
func TestTaskGet(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	id := startTask(t, agent, a2a.ProtocolV10, "这个二维码是什么？"+a2atest.SeedQRCode)
	text := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), id)
	text.wantCode(t, exitOK)
	js := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), id, "-o", "json")
	js.wantCode(t, exitOK)
	running := startTask(t, agent, a2a.ProtocolV10, "本月巡检记录")
	unfinished := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), running)
	unfinished.wantCode(t, exitOK)
	codes := a2aCmd(t, "task", "get", "-a", siteOfAgent(agent), running, "--task-exit-codes")
	codes.wantCode(t, exitTaskUnfinished)
	golden(t, "task_get", text, js, unfinished)

	c, err := a2a.NewClient(agent.URL, a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		t.Fatal(err)
	}
	defer a2a.CloseIdleConnections()
	task, err := c.GetTask(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(compact(task.Raw()))+"\n", js.stdout); diff != "" {
		t.Errorf("task get -o json (-agent's bytes +printed):\n%s", diff)
	}
	if js.stderr != "" {
		t.Errorf("task get -o json wrote to stderr: %s", js.stderr)
	}
}

// TestTaskGetWait: task get --wait polls until the task ends and prints
// it; -o json the last task the agent sent.
func TestTaskGetWait(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	var results []result
	for _, out := range []string{"text", "json"} {
		id := startTask(t, agent, a2a.ProtocolV10, "本月巡检记录")
		r := a2aCmd(t, "task", "get", "--wait", "-a", siteOfAgent(agent), "--poll-interval", "10ms", "-o", out, id)
		r.wantCode(t, exitOK)
		results = append(results, r)
	}
	golden(t, "task_get_wait", results...)
	if v := wantJSONDoc(t, results[1]); v["id"] != "task-2" {
		t.Errorf("task get --wait -o json is not the task: %s", results[1].stdout)
	}

	// On a terminal, stderr shows a progress line, rewritten in place and
	// cleared at the end; stdout is the same as without one.
	id := startTask(t, agent, a2a.ProtocolV10, "本月巡检记录")
	tty := invocation{tty: true}.run(t, "task", "get", "--wait", "-a", siteOfAgent(agent), "--poll-interval", "10ms", id)
	tty.wantCode(t, exitOK)
	if want := "\r\x1b[Kpoll 1: working, "; !strings.HasPrefix(tty.stderr, want) || !strings.HasSuffix(tty.stderr, "\r\x1b[K") {
		t.Errorf("stderr on a terminal: %q, want progress lines starting %q and cleared", tty.stderr, want)
	}
	if strings.NewReplacer("task-3", "task-1", "ctx-3", "ctx-1").Replace(tty.stdout) != results[0].stdout || id != "task-3" {
		t.Errorf("stdout on a terminal differs:\n%s", tty.stdout)
	}
}

func TestTaskCancel(t *testing.T) {
	t.Parallel()
	agent := workingAgent(t, a2atest.V10(), a2atest.WithCard(demoCard()))
	var results []result
	for _, out := range []string{"text", "json"} {
		id := startTask(t, agent, a2a.ProtocolV10, "盘点")
		r := a2aCmd(t, "task", "cancel", "-a", siteOfAgent(agent), "-o", out, "--task-exit-codes", id)
		r.wantCode(t, exitOK) // it did what was asked: the task is canceled
		results = append(results, r)
	}
	golden(t, "task_cancel", results...)
}

// TestTaskList: task list prints one page and the command that reads the
// next; that command reads it. v0.3's JSON-RPC has no ListTasks: refused
// before anything is sent.
func TestTaskList(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	for _, text := range []string{"这个二维码是什么？" + a2atest.SeedQRCode, "你好", "查一台设备"} {
		startTask(t, agent, a2a.ProtocolV10, text)
	}
	text := a2aCmd(t, "task", "list", "-a", siteOfAgent(agent))
	text.wantCode(t, exitOK)
	js := a2aCmd(t, "task", "list", "-a", siteOfAgent(agent), "-o", "json")
	js.wantCode(t, exitOK)
	page := a2aCmd(t, "task", "list", "-a", siteOfAgent(agent), "--page-size", "2")
	page.wantCode(t, exitOK)
	_, next, ok := strings.Cut(page.stdout, "Next page: ")
	if !ok {
		t.Fatalf("no Next page line:\n%s", page.stdout)
	}
	words := strings.Fields(next)
	want := []string{"a2a", "task", "list", "-a", siteOfAgent(agent), "--page-size", "2", "--page-token"}
	if len(words) != len(want)+1 || !cmp.Equal(words[:len(want)], want) {
		t.Fatalf("Next page: %q, want %q TOKEN", next, want)
	}
	rest := a2aCmd(t, append(words[1:len(words)-1], strings.Trim(words[len(words)-1], "'"))...)
	rest.wantCode(t, exitOK)
	if !strings.HasSuffix(rest.stdout, "Tasks: 1\n") {
		t.Errorf("the next page:\n%s", rest.stdout)
	}
	v03 := demoAgent(t, a2a.ProtocolV03)
	old := a2aCmd(t, "task", "list", "-a", siteOfAgent(v03), "--a2a-version", "0.3")
	old.wantCode(t, exitError)
	golden(t, "task_list", text, js, page, old)
	if m := methods(v03); len(m) != 1 || m[0] != "" {
		t.Errorf("task list on a v0.3 JSON-RPC agent sent %q, want its card's GET alone", m)
	}
	if v := wantJSONDoc(t, js); v["tasks"] == nil {
		t.Errorf("task list -o json is not the agent's ListTasksResponse: %s", js.stdout)
	}
}

// TestTaskSubscribe: task subscribe follows a running task to its end
// and prints it (-o json: the task the agent then gives GetTask); with
// --stream each event as it comes.
func TestTaskSubscribe(t *testing.T) {
	t.Parallel()
	var results []result
	for _, version := range []string{a2a.ProtocolV10, a2a.ProtocolV03} {
		agent := demoAgent(t, version)
		for _, flags := range []string{"", "-o json", "--stream", "--stream -o json"} {
			id := startTask(t, agent, version, "本月巡检记录")
			r := a2aCmd(t, cmdArgs("task subscribe "+flags, demoArgs(agent, version), id)...)
			r.wantCode(t, exitOK)
			results = append(results, r)
		}
	}
	golden(t, "task_subscribe", results...)
}

const (
	pushToken = "tok-9f8e7d"
	pushCreds = "cred-5a4b3c"
)

// TestPushConfig: task push-config create, get, list and delete, in text
// and -o json; the token and the credentials reach the agent and are
// never printed, nor the webhook's query.
func TestPushConfig(t *testing.T) {
	t.Parallel()
	agent := demoAgent(t, a2a.ProtocolV10)
	id := startTask(t, agent, a2a.ProtocolV10, "这个二维码是什么？"+a2atest.SeedQRCode)
	a := []string{"-a", siteOfAgent(agent)}
	var results []result
	for _, out := range []string{"text", "json"} {
		o := []string{"-o", out}
		for _, args := range [][]string{
			cmdArgs("task push-config create", a, append(o, id, "https://hooks.example.com/a2a?sig=abc", "--config-id", "cfg-"+out,
				"--token", pushToken, "--scheme", "Bearer", "--credentials", pushCreds)...),
			cmdArgs("task push-config get", a, append(o, id, "cfg-"+out)...),
			cmdArgs("task push-config list", a, append(o, id)...),
			cmdArgs("task push-config delete", a, append(o, id, "cfg-"+out)...),
			cmdArgs("task push-config list", a, append(o, id)...),
		} {
			r := a2aCmd(t, args...)
			r.wantCode(t, exitOK)
			results = append(results, r)
		}
	}
	golden(t, "task_push_config", results...)

	var sent string
	for _, r := range agent.Requests() {
		if r.Method == "CreateTaskPushNotificationConfig" {
			sent = string(r.Body)
		}
	}
	if !strings.Contains(sent, pushToken) || !strings.Contains(sent, pushCreds) {
		t.Errorf("push-config create did not send the token and credentials: %s", sent)
	}
	for _, r := range results {
		for _, secret := range []string{pushToken, pushCreds, "sig=abc"} {
			if strings.Contains(r.stdout+r.stderr, secret) {
				t.Errorf("a2a %s shows %q:\n%s", strings.Join(r.args, " "), secret, r.transcript())
			}
		}
	}
}
