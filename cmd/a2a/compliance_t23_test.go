package main

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// Tier 1 task commands, and Tier 2 and 3 requirements of the A2A CLI
// specification v0.2 that no other test covers.

// TestSpecArtifactsRendered: A2ACLI_SEND_004. An artifact's text, data and
// file parts are all shown: text as text, data as indented JSON, a file
// by name, media type and size (or URI); none dropped.
func TestSpecArtifactsRendered(t *testing.T) {
	task := a2atest.CompletedTask("report", map[string]any{"count": 2}, "two records")
	task.Artifacts[0].Parts = append(task.Artifacts[0].Parts,
		a2a.FilePart{File: a2a.FileContent{Name: "scan.pdf", MIMEType: "application/pdf", Bytes: base64.StdEncoding.EncodeToString([]byte("%PDF-1.7 ..."))}},
		a2a.FilePart{File: a2a.FileContent{Name: "big.bin", MIMEType: "application/octet-stream", URI: "https://files.example/big.bin"}})
	agent := specAgent(t, a2atest.OnSend(func(a2a.Message) a2atest.Reply { return a2atest.Reply{Task: task} }))
	r := specRun(t, "send", "-a", agent.BaseURL(), "hello").want(t, exitOK)
	for _, want := range []string{"Artifact: report", "Text:\n  two records\n\n", "Data:\n", `  "count": 2`, "scan.pdf", "application/pdf", "big.bin", "https://files.example/big.bin"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("send: %q not shown:\n%s", want, r.stdout)
		}
	}
	if n := strings.Count(r.stdout, "File: "); n != 2 {
		t.Errorf("send: %d File: lines, want 2:\n%s", n, r.stdout)
	}
}

// TestSpecTaskGet: A2ACLI_TASK_GET_001. task get asks for --history N as
// historyLength, shows the state and the artifacts, and -o json is the
// agent's Task with its artifacts and history.
func TestSpecTaskGet(t *testing.T) {
	agent := specAgent(t)
	id := specStartTask(t, agent)
	r := specRun(t, "task", "get", "-a", agent.BaseURL(), id, "--history", "1").want(t, exitOK)
	if r.field("Status") != "completed" || !strings.Contains(r.stdout, "Artifact: ") {
		t.Errorf("task get: no state or artifact:\n%s", r.stdout)
	}
	gets := specCallsOf(agent, "GetTask")
	if got := specParams(t, gets[len(gets)-1])["historyLength"]; got != float64(1) {
		t.Errorf("task get --history 1: historyLength %v", got)
	}
	r = specRun(t, "task", "get", "-a", agent.BaseURL(), id, "-o", "json").want(t, exitOK)
	doc := r.oneJSON(t)
	if doc["id"] != id || len(doc["artifacts"].([]any)) == 0 || len(doc["history"].([]any)) == 0 {
		t.Errorf("task get -o json: not the whole Task:\n%s", r.stdout)
	}
}

// TestSpecTaskCancel: A2ACLI_TASK_CANCEL_001. task cancel cancels and
// prints the resulting state; cancelling again is the agent's
// TaskNotCancelableError, surfaced with its name.
func TestSpecTaskCancel(t *testing.T) {
	agent := specAgent(t, a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateWorking, ""), States: []a2a.TaskState{a2a.TaskStateWorking}}
	}))
	w := newSpecWorld(t)
	w.vars["A2ACLI_AGENT_CARD"] = agent.BaseURL()
	id := w.run(t, "send", "--async", "hello").want(t, exitOK).field("Task")
	r := w.run(t, "task", "cancel", id).want(t, exitOK)
	if r.field("Task") != id || r.field("Status") != "canceled" {
		t.Errorf("task cancel: want Task: %s and Status: canceled:\n%s", id, r.stdout)
	}
	r = w.run(t, "task", "cancel", id, "-o", "json").want(t, exitError)
	if code, _, _, a2aCode := r.envelope(t); code != "TaskNotCancelableError" || a2aCode != float64(-32002) {
		t.Errorf("second cancel: code %q a2aCode %v, want TaskNotCancelableError -32002", code, a2aCode)
	}
	// In text, the refusal still reports the state that made it (MUST
	// report the resulting state).
	r = w.run(t, "task", "cancel", id).want(t, exitError)
	if r.field("Task") != id || r.field("Status") != "canceled" || !strings.Contains(r.stderr, "TaskNotCancelableError") {
		t.Errorf("second cancel in text: want Task: %s, Status: canceled and the error:\n%s\n%s", id, r.stdout, r.stderr)
	}
}

// TestSpecTaskList: A2ACLI_TASK_LIST_001. task list sends its filters
// (contextId, status) and cursor (pageSize, pageToken); -o json is the
// ListTasksResponse, one page; the text names the next page's command.
func TestSpecTaskList(t *testing.T) {
	agent := specAgent(t, a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		task := a2atest.CompletedTask("echo", map[string]any{}, "done")
		task.ContextID = m.ContextID // the context asked for, else a new one
		return a2atest.Reply{Task: task}
	}))
	w := newSpecWorld(t)
	w.vars["A2ACLI_AGENT_CARD"] = agent.BaseURL()
	ctxID := w.run(t, "send", "one").want(t, exitOK).field("Context")
	for range 2 {
		w.run(t, "send", "--context-id", ctxID, "more").want(t, exitOK)
	}
	r := w.run(t, "task", "list", "--context-id", ctxID, "--status", "completed", "--page-size", "2", "-o", "json").want(t, exitOK)
	page := r.oneJSON(t)
	token, _ := page["nextPageToken"].(string)
	if len(page["tasks"].([]any)) != 2 || token == "" {
		t.Fatalf("task list --page-size 2 of 3: not one page of 2 with a next page:\n%s", r.stdout)
	}
	r = w.run(t, "task", "list", "--context-id", ctxID, "--status", "completed", "--page-size", "2", "--page-token", token).want(t, exitOK)
	if r.field("Tasks") != "1" || r.field("Next page") != "" {
		t.Errorf("the second page: want Tasks: 1 and no Next page:\n%s", r.stdout)
	}
	lists := specCallsOf(agent, "ListTasks")
	p := specParams(t, lists[len(lists)-1])
	if p["contextId"] != ctxID || p["status"] != "TASK_STATE_COMPLETED" || p["pageSize"] != float64(2) || p["pageToken"] != token {
		t.Errorf("ListTasks params %v: want contextId, status, pageSize and pageToken", p)
	}
	r = w.run(t, "task", "list", "--page-size", "1").want(t, exitOK)
	if next := r.field("Next page"); !strings.HasPrefix(next, "a2a task list") || !strings.Contains(next, "--page-token") {
		t.Errorf("task list: Next page %q is not the command for the next page", next)
	}
}

// TestSpecCapabilityChecked: A2ACLI_VER_003. A card that does not declare
// push notifications: the push-config commands fail before anything is
// sent to the agent (the extended card: TestSpecExtendedCardNeedsScheme;
// streaming: the SDK's capability check, as for push).
func TestSpecCapabilityChecked(t *testing.T) {
	agent := specAgent(t, a2atest.WithCard(specCard(a2a.AgentCapabilities{})))
	id := specStartTask(t, agent)
	before := len(specCalls(agent))
	w := newSpecWorld(t)
	w.vars["A2ACLI_AGENT_CARD"] = agent.BaseURL()
	for _, args := range [][]string{
		{"task", "push-config", "create", id, "https://hooks.example/a2a"},
		{"task", "push-config", "list", id},
		{"task", "push-config", "get", id, "c1"},
		{"task", "push-config", "delete", id, "c1"},
	} {
		r := w.run(t, append(args, "-o", "json")...).want(t, exitError)
		if code, msg, _, _ := r.envelope(t); code != "PushNotificationNotSupportedError" || !strings.Contains(msg, "pushNotifications") {
			t.Errorf("a2a %s: %s: %s, want PushNotificationNotSupportedError naming the card's capability", strings.Join(args, " "), code, msg)
		}
	}
	if got := specCalls(agent)[before:]; len(got) != 0 {
		t.Errorf("%d requests reached the agent: %v", len(got), got)
	}
}

// TestSpecPushConfigRoundTrip: A2ACLI_PUSH_001. task push-config create,
// get, list and delete round-trip one config; its token is never shown.
func TestSpecPushConfigRoundTrip(t *testing.T) {
	agent := specAgent(t)
	id := specStartTask(t, agent)
	w := newSpecWorld(t)
	w.vars["A2ACLI_AGENT_CARD"] = agent.BaseURL()
	hook := "https://hooks.example/a2a"
	r := w.run(t, "task", "push-config", "create", id, hook, "--config-id", "c1", "--token", "hook-secret-9").want(t, exitOK)
	if r.field("Config") != "c1" || r.field("Task") != id || r.field("URL") != hook {
		t.Errorf("create: want Config: c1, Task: %s, URL: %s:\n%s", id, hook, r.stdout)
	}
	r = w.run(t, "task", "push-config", "get", id, "c1", "-o", "json").want(t, exitOK)
	if doc := r.oneJSON(t); !strings.Contains(r.stdout, hook) || !strings.Contains(r.stdout, `"c1"`) || doc == nil {
		t.Errorf("get -o json: not the config:\n%s", r.stdout)
	}
	r = w.run(t, "task", "push-config", "list", id).want(t, exitOK)
	if r.field("Configs") != "1" || r.field("Config") != "c1" {
		t.Errorf("list: want the one config:\n%s", r.stdout)
	}
	r = w.run(t, "task", "push-config", "delete", id, "c1").want(t, exitOK)
	if r.field("Deleted") != "c1" {
		t.Errorf("delete: no Deleted: c1:\n%s", r.stdout)
	}
	r = w.run(t, "task", "push-config", "list", id, "-o", "json").want(t, exitOK)
	var list struct {
		Configs []json.RawMessage `json:"configs"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list.Configs) != 0 {
		t.Errorf("list after delete: want none: %s (%v)", r.stdout, err)
	}
	for _, m := range []string{"CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig", "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig"} {
		if len(specCallsOf(agent, m)) == 0 {
			t.Errorf("no %s request", m)
		}
	}
}

// TestSpecCardValidate: A2ACLI_CARD_GET_002, through the command line.
// card get --validate passes a valid card and refuses one that breaks the
// schema with A2ACLI_ERR_CARD_INVALID, exit 1, naming the place.
func TestSpecCardValidate(t *testing.T) {
	agent := specAgent(t, a2atest.WithCard(specCard(a2a.AgentCapabilities{})))
	specRun(t, "card", "get", "-a", agent.BaseURL(), "--validate").want(t, exitOK)

	w := newSpecWorld(t)
	card := specCard(a2a.AgentCapabilities{}, a2a.AgentInterface{URL: agent.URL, ProtocolBinding: a2a.TransportJSONRPC, ProtocolVersion: "1.0"})
	b, err := json.Marshal(card)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "name")
	b, _ = json.Marshal(m)
	path := filepath.Join(w.dir, "broken.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	r := w.run(t, "card", "get", "-a", path, "--validate", "-o", "json").want(t, exitError)
	if code, msg, _, _ := r.envelope(t); code != cliErrCardInvalid || !strings.Contains(msg, "name") {
		t.Errorf("card without a name: %s: %s, want %s naming it", code, msg, cliErrCardInvalid)
	}
}

// TestSpecTaskDownload: A2ACLI_DOWNLOAD_001, through the command line.
// task download saves a task's file parts under their names in --dir.
func TestSpecTaskDownload(t *testing.T) {
	task := a2atest.CompletedTask("scan", map[string]any{"ok": true}, "one file")
	task.Artifacts[0].Parts = append(task.Artifacts[0].Parts,
		a2a.FilePart{File: a2a.FileContent{Name: "scan.txt", MIMEType: "text/plain", Bytes: base64.StdEncoding.EncodeToString([]byte("scanned\n"))}})
	agent := specAgent(t, a2atest.OnSend(func(a2a.Message) a2atest.Reply { return a2atest.Reply{Task: task} }))
	w := newSpecWorld(t)
	w.vars["A2ACLI_AGENT_CARD"] = agent.BaseURL()
	id := w.run(t, "send", "hello").want(t, exitOK).field("Task")
	dir := filepath.Join(w.dir, "out")
	r := w.run(t, "task", "download", id, "--dir", dir).want(t, exitOK)
	b, err := os.ReadFile(filepath.Join(dir, "scan.txt"))
	if err != nil || string(b) != "scanned\n" {
		t.Errorf("scan.txt: %q, %v\nstdout:\n%s", b, err, r.stdout)
	}
	if !strings.Contains(r.stdout, "Saved: ") || r.field("Task") != id {
		t.Errorf("task download: want Saved: and Task: lines:\n%s", r.stdout)
	}
}
