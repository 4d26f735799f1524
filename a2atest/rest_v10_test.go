package a2atest_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// sseData is the data of each event of an event stream, in order.
func sseData(body string) []string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

// pick is the value at path (member names and array indexes, dot
// separated) of the JSON document raw: a string as it is, another value
// as JSON ("null" for null), "<none>" where there is nothing.
func pick(t *testing.T, raw, path string) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	for _, name := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[name]; !ok {
				return "<none>"
			}
		case []any:
			i := 0
			json.Unmarshal([]byte(name), &i)
			if i >= len(x) {
				return "<none>"
			}
			v = x[i]
		default:
			return "<none>"
		}
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// TestRESTV10Operations drives every v1.0 HTTP+JSON operation with plain
// net/http: paths, verbs, bare results (no envelope), SSE events of bare
// StreamResponses.
func TestRESTV10Operations(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.HTTPJSON(), a2atest.OnSend(a2atest.Caoliao),
		a2atest.WithExtendedCard(&a2a.AgentCard{Name: "extended"}))
	defer srv.Close()
	msg := func(text string) string {
		return `{"message":{"messageId":"m-` + text + `","role":"ROLE_USER","parts":[{"text":"` + text + `"}]},"configuration":{"historyLength":1}}`
	}
	steps := []struct {
		verb, path, body string
		checks           map[string]string // path in the reply → value
		events           []string          // for a stream: each event's member and state
	}{
		{"POST", "/message:send", msg(a2atest.SeedQRCode), map[string]string{"task.id": "task-1", "task.status.state": "TASK_STATE_COMPLETED",
			"task.artifacts.0.parts.1.text": a2atest.EntitySummary, "task.history.0.parts.0.text": a2atest.SeedQRCode}, nil},
		{"GET", "/tasks/task-1?historyLength=0", "", map[string]string{"id": "task-1", "history": "<none>", "kind": "<none>"}, nil},
		{"POST", "/message:send", msg("records"), map[string]string{"task.id": "task-2", "task.status.state": "TASK_STATE_SUBMITTED"}, nil},
		{"GET", "/tasks/task-2", "", map[string]string{"status.state": "TASK_STATE_WORKING"}, nil},
		{"GET", "/tasks?status=TASK_STATE_WORKING&includeArtifacts=false&pageSize=1", "", map[string]string{"tasks.0.id": "task-2", "totalSize": "1", "pageSize": "1", "nextPageToken": ""}, nil},
		{"GET", "/tasks?pageSize=1", "", map[string]string{"tasks.0.id": "task-2", "totalSize": "2", "nextPageToken": "offset-1"}, nil},
		{"GET", "/tasks?pageSize=1&pageToken=offset-1&contextId=ctx-1", "", map[string]string{"totalSize": "1", "tasks": "[]"}, nil},
		{"POST", "/tasks/task-2/pushNotificationConfigs", `{"taskId":"task-2","url":"http://127.0.0.1:1/hook","token":"tok","authentication":{"scheme":"Bearer","credentials":"c"}}`,
			map[string]string{"id": "cfg-1", "taskId": "task-2", "url": "http://127.0.0.1:1/hook", "authentication.scheme": "Bearer"}, nil},
		{"POST", "/tasks/task-2/pushNotificationConfigs", `{"id":"mine","url":"http://127.0.0.1:1/other"}`, map[string]string{"id": "mine", "taskId": "task-2"}, nil},
		{"GET", "/tasks/task-2/pushNotificationConfigs/mine", "", map[string]string{"url": "http://127.0.0.1:1/other"}, nil},
		{"GET", "/tasks/task-2/pushNotificationConfigs?pageSize=1", "", map[string]string{"configs.0.id": "cfg-1", "nextPageToken": "offset-1"}, nil},
		{"DELETE", "/tasks/task-2/pushNotificationConfigs/mine", "", map[string]string{"": "{}"}, nil},
		{"DELETE", "/tasks/task-2/pushNotificationConfigs/cfg-1", "", map[string]string{"": "{}"}, nil},
		{"GET", "/tasks/task-2/pushNotificationConfigs", "", map[string]string{"configs": "[]"}, nil},
		{"POST", "/tasks/task-2:subscribe", "", nil, []string{"task TASK_STATE_WORKING", "statusUpdate TASK_STATE_WORKING", "artifactUpdate ", "statusUpdate TASK_STATE_COMPLETED"}},
		{"POST", "/message:stream", msg("records"), nil, []string{"task TASK_STATE_SUBMITTED", "statusUpdate TASK_STATE_WORKING", "statusUpdate TASK_STATE_WORKING", "artifactUpdate ", "statusUpdate TASK_STATE_COMPLETED"}},
		{"POST", "/message:send", msg("设备"), map[string]string{"task.id": "task-4", "task.status.state": "TASK_STATE_INPUT_REQUIRED"}, nil},
		{"GET", "/tasks/task-4:subscribe", "", nil, []string{"task TASK_STATE_INPUT_REQUIRED"}},
		{"POST", "/tasks/task-4:cancel", `{"metadata":{"why":"test"}}`, map[string]string{"id": "task-4", "status.state": "TASK_STATE_CANCELED"}, nil},
		{"GET", "/extendedAgentCard", "", map[string]string{"name": "extended", "supportedInterfaces.0.protocolBinding": "HTTP+JSON",
			"supportedInterfaces.0.url": srv.URL}, nil},
	}
	for _, st := range steps {
		got := restDo(t, st.verb, srv.URL+st.path, st.body, v10REST)
		if got.status != 200 {
			t.Fatalf("%s %s: %d %s", st.verb, st.path, got.status, got.body)
		}
		if st.events != nil {
			var events []string
			for _, d := range sseData(got.body) {
				var ev map[string]json.RawMessage
				json.Unmarshal([]byte(d), &ev)
				for name, v := range ev {
					events = append(events, name+" "+pick(t, string(v), "status.state"))
				}
			}
			for i := range events {
				events[i] = strings.TrimSuffix(events[i], "<none>")
			}
			if diff := cmp.Diff(st.events, events); diff != "" || got.header.Get("Content-Type") != "text/event-stream" {
				t.Errorf("%s %s: %s (-want +got):\n%s", st.verb, st.path, got.header.Get("Content-Type"), diff)
			}
			continue
		}
		for path, want := range st.checks {
			v := strings.TrimSpace(got.body)
			if path != "" {
				v = pick(t, got.body, path)
			}
			if v != want {
				t.Errorf("%s %s: %s = %q, want %q in %s", st.verb, st.path, path, v, want, got.body)
			}
		}
	}
}

// TestRESTV10Client: the SDK's own HTTP+JSON v1.0 client against the
// fake agent, every operation, and the typed errors of a strict server.
func TestRESTV10Client(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.HTTPJSON(), a2atest.OnSend(a2atest.Caoliao),
		a2atest.WithExtendedCard(&a2a.AgentCard{Name: "extended"}))
	defer srv.Close()
	c, err := a2a.NewClient(srv.URL, a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		t.Fatal(err)
	}
	defer a2a.CloseIdleConnections()
	ctx := context.Background()

	task, err := c.SendText(ctx, "这个二维码是什么？"+a2atest.SeedQRCode)
	if err != nil || task.Status.State != a2a.TaskStateCompleted || task.Artifact("entity").Text() != a2atest.EntitySummary {
		t.Fatalf("SendText: %v, %v", task, err)
	}
	if got, err := c.GetTask(ctx, task.ID, a2a.HistoryLength(0)); err != nil || got.ID != task.ID || len(got.History) != 0 {
		t.Errorf("GetTask: %v, %v", got, err)
	}
	if _, err := c.GetTask(ctx, "a/b?c#d"); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("GetTask of an id with path characters: %v", err)
	}
	if _, err := c.CancelTask(ctx, task.ID); !errors.Is(err, a2a.ErrTaskNotCancelable) {
		t.Errorf("CancelTask of a completed task: %v", err)
	}
	failed, err := c.SendText(ctx, "nothing")
	if err != nil || failed.Status.State != a2a.TaskStateFailed {
		t.Errorf("failed is a value: %v, %v", failed, err)
	}
	got, err := collect(t, c.SendStreamingMessage(ctx, a2a.NewTextMessage("本月巡检记录")))
	want := []string{"task submitted", "status working", "status working", "artifact records", "status completed"}
	if diff := cmp.Diff(want, got); err != nil || diff != "" {
		t.Errorf("SendStreamingMessage: %v (-want +got):\n%s", err, diff)
	}
	slow, err := c.SendText(ctx, "more records")
	if err != nil {
		t.Fatal(err)
	}
	got, err = collect(t, c.SubscribeToTask(ctx, slow.ID))
	if want := []string{"task submitted", "status working", "status working", "artifact records", "status completed"}; err != nil || !cmp.Equal(want, got) {
		t.Errorf("SubscribeToTask: %v, %v", got, err)
	}
	var ids []string
	for tk, err := range c.ListTasks(ctx, a2a.ListTasksRequest{PageSize: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tk.ID)
	}
	if len(ids) != 4 {
		t.Errorf("ListTasks: %v", ids)
	}
	cfg, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: slow.ID, PushNotificationConfig: a2a.PushNotificationConfig{URL: "http://127.0.0.1:1/hook"}})
	if err != nil || cfg.PushNotificationConfig.ID == "" {
		t.Fatalf("CreateTaskPushNotificationConfig: %v, %v", cfg, err)
	}
	if got, err := c.GetTaskPushNotificationConfig(ctx, slow.ID, cfg.PushNotificationConfig.ID); err != nil || got.PushNotificationConfig.URL != "http://127.0.0.1:1/hook" {
		t.Errorf("GetTaskPushNotificationConfig: %v, %v", got, err)
	}
	if err := c.DeleteTaskPushNotificationConfig(ctx, slow.ID, cfg.PushNotificationConfig.ID); err != nil {
		t.Errorf("DeleteTaskPushNotificationConfig: %v", err)
	}
	if card, err := c.GetExtendedAgentCard(ctx); err != nil || card.Name != "extended" {
		t.Errorf("GetExtendedAgentCard: %v, %v", card, err)
	}
	for _, r := range srv.Requests() {
		if r.Method == "" || r.HTTPMethod == "" || strings.Contains(r.Path, "jsonrpc") {
			t.Errorf("request %+v: not an HTTP+JSON operation", r)
		}
	}
}

// TestRESTPush: a webhook given with an HTTP+JSON send, or created at
// .../pushNotificationConfigs, gets the task's states as the version's
// JSON-RPC server posts them (v1.0: {"task": …} ProtoJSON; v0.3: the task
// with "kind"), with its token.
func TestRESTPush(t *testing.T) {
	for _, pv := range pushVersions {
		t.Run(pv.name, func(t *testing.T) {
			hook := newWebhook(t, 200)
			srv := pv.server(a2atest.HTTPJSON(), a2atest.OnSend(scriptOf(a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted)))
			defer srv.Close()
			prefix, header, tokenHeader := "/v1", map[string]string(nil), "X-A2A-Notification-Token"
			body := `{"message":{"messageId":"m1","role":"ROLE_USER","content":[{"text":"hi"}]},"configuration":{"pushNotification":{"url":"` + hook.URL + `","token":"tok"}}}`
			if pv.v10 {
				prefix, header, tokenHeader = "", v10REST, "A2A-Notification-Token"
				body = `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]},"configuration":{"taskPushNotificationConfig":{"url":"` + hook.URL + `","token":"tok"}}}`
			}
			if got := restDo(t, "POST", srv.URL+prefix+"/message:send", body, header); got.status != 200 {
				t.Fatalf("send: %d %s", got.status, got.body)
			}
			second := `{"name":"tasks/task-1/pushNotificationConfigs/c2","pushNotificationConfig":{"url":"` + hook.URL + `","token":"two"}}`
			if pv.v10 {
				second = `{"id":"c2","url":"` + hook.URL + `","token":"two"}`
			}
			if got := restDo(t, "POST", srv.URL+prefix+"/tasks/task-1/pushNotificationConfigs", second, header); got.status != 200 {
				t.Fatalf("create: %d %s", got.status, got.body)
			}
			for range 2 {
				restDo(t, "GET", srv.URL+prefix+"/tasks/task-1", "", header)
			}
			var got []string
			for range 5 { // submitted to the first; working and completed to both
				r := hook.next(t)
				got = append(got, string(pv.readPush(t, r.body).Status.State)+" "+r.header.Get(tokenHeader))
			}
			want := []string{pv.state(a2a.TaskStateSubmitted) + " tok", pv.state(a2a.TaskStateWorking) + " tok", pv.state(a2a.TaskStateWorking) + " two",
				pv.state(a2a.TaskStateCompleted) + " tok", pv.state(a2a.TaskStateCompleted) + " two"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("notifications (-want +got):\n%s", diff)
			}
			waitDeliveries(t, srv, 5)
		})
	}
}

// TestRESTV10ClientTenant: the SDK's HTTP+JSON client with a
// multi-segment tenant and task ids holding path characters reaches the
// right resources: the tenant split into segments, each id one segment.
func TestRESTV10ClientTenant(t *testing.T) {
	const tenant = "projects/p 1/locations/l"
	srv := a2atest.NewServer(a2atest.V10(), a2atest.HTTPJSON(), a2atest.RequireTenant(tenant), a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		task := a2atest.StatusTask(a2a.TaskStateWorking, "")
		task.ID = m.Parts.Text()
		return a2atest.Reply{Task: task}
	}))
	defer srv.Close()
	c, err := a2a.NewClient(srv.URL, a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTenant(tenant))
	if err != nil {
		t.Fatal(err)
	}
	defer a2a.CloseIdleConnections()
	ctx := context.Background()
	for _, id := range []string{"a/b", "a?b=1", "a#b", "a%2Fb", "a:cancel", "a b", "tasks"} {
		if _, err := c.SendText(ctx, id); err != nil {
			t.Fatalf("send %q: %v", id, err)
		}
		got, err := c.GetTask(ctx, id)
		if err != nil || got.ID != id {
			t.Errorf("GetTask(%q): %v, %v", id, got, err)
		}
		canceled, err := c.CancelTask(ctx, id)
		if err != nil || canceled.ID != id || canceled.Status.State != a2a.TaskStateCanceled {
			t.Errorf("CancelTask(%q): %v, %v", id, canceled, err)
		}
	}
	if _, err := c.GetTask(ctx, ".."); err == nil {
		t.Error(`GetTask(".."): no error`)
	}
	var paths []string
	for _, r := range srv.Requests()[:3] {
		paths = append(paths, r.HTTPMethod+" "+strings.TrimPrefix(r.Path, "/a2a/rest"))
	}
	want := []string{"POST /projects/p%201/locations/l/message:send", "GET /projects/p%201/locations/l/tasks/a%2Fb", "POST /projects/p%201/locations/l/tasks/a%2Fb:cancel"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("paths (-want +got):\n%s", diff)
	}
}

// TestRESTCannedAndClock: canned replies serve HTTP+JSON requests too (a
// 204 to a delete, as a2a-js servers answer), and a clock-driven script
// moves on by itself over HTTP+JSON as over JSON-RPC.
func TestRESTCannedAndClock(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.HTTPJSON(), a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.CompletedTask("r", map[string]int{"n": 1}, "done"),
			States: []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateCompleted}, Interval: time.Millisecond}
	}))
	defer srv.Close()
	c, err := a2a.NewClient(srv.URL, a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		t.Fatal(err)
	}
	defer a2a.CloseIdleConnections()
	ctx := context.Background()
	task, err := c.SendText(ctx, "hi")
	if err != nil {
		t.Fatal(err)
	}
	done, err := c.WaitTask(ctx, task.ID, a2a.PollInterval(time.Millisecond), a2a.PollJitter(0))
	if err != nil || done.Status.State != a2a.TaskStateCompleted || done.Artifact("r").Text() != "done" {
		t.Errorf("WaitTask on the clock: %v, %v", done, err)
	}
	srv.Enqueue(a2atest.Raw{Status: 204})
	if err := c.DeleteTaskPushNotificationConfig(ctx, task.ID, "any"); err != nil {
		t.Errorf("a canned 204 to a delete: %v", err)
	}
	reqs := srv.Requests()
	if last := reqs[len(reqs)-1]; last.Method != "DeleteTaskPushNotificationConfig" || last.HTTPMethod != "DELETE" {
		t.Errorf("the canned request recorded as %+v", last)
	}
}
