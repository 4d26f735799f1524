package a2atest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// v10Client returns a client that speaks A2A v1.0 to url.
func v10Client(t *testing.T, url string, opts ...a2a.Option) *a2a.Client {
	t.Helper()
	c, err := a2a.NewClient(url, append([]a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// v10Header is the header of a v1.0 request sent with post.
var v10Header = map[string]string{"A2A-Version": "1.0"}

// rpcReply is a JSON-RPC response as a test reads it.
type rpcReply struct {
	Result json.RawMessage
	Error  *struct {
		Code    int
		Message string
		Data    json.RawMessage
	}
}

func postRPC(t *testing.T, url, body string, header map[string]string) rpcReply {
	t.Helper()
	_, got := post(t, url, body, header)
	var r rpcReply
	if err := json.Unmarshal([]byte(got), &r); err != nil {
		t.Fatalf("%s: reply %q: %v", body, got, err)
	}
	return r
}

// summary is one line per stream event, for comparing streams.
func summary(ev a2a.Event) string {
	switch e := ev.(type) {
	case *a2a.Task:
		return "task " + string(e.Status.State)
	case *a2a.Message:
		return "message " + e.Text()
	case *a2a.TaskStatusUpdateEvent:
		return "status " + string(e.Status.State)
	case *a2a.TaskArtifactUpdateEvent:
		return "artifact " + e.Artifact.Name
	}
	return fmt.Sprintf("%T", ev)
}

func collect(t *testing.T, events func(func(a2a.Event, error) bool)) (got []string, err error) {
	t.Helper()
	for ev, e := range events {
		if e != nil {
			return got, e
		}
		got = append(got, summary(ev))
	}
	return got, nil
}

// TestV10Methods drives every v1.0 method through the real client.
func TestV10Methods(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.OnSend(a2atest.Caoliao), a2atest.WithExtendedCard(&a2a.AgentCard{Name: "extended"}))
	defer srv.Close()
	c := v10Client(t, srv.URL)
	ctx := context.Background()

	task, err := c.SendText(ctx, "这个二维码是什么？"+a2atest.SeedQRCode) // task-1
	if err != nil || task.Status.State != a2a.TaskStateCompleted || task.Artifact("entity").Text() != a2atest.EntitySummary {
		t.Fatalf("SendMessage: %v, %v", task, err)
	}
	if got, err := c.GetTask(ctx, task.ID, a2a.HistoryLength(0)); err != nil || got.ID != task.ID || len(got.History) != 0 {
		t.Errorf("GetTask historyLength 0: %v, %v", got, err)
	}
	if _, err := c.CancelTask(ctx, task.ID); !errors.Is(err, a2a.ErrTaskNotCancelable) {
		t.Errorf("CancelTask on a completed task: %v", err)
	}
	if _, err := c.GetTask(ctx, "nope"); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("GetTask of an unknown task: %v", err)
	} else if e := (*a2a.RPCError)(nil); errors.As(err, &e) && e.Reason() != "TASK_NOT_FOUND" {
		t.Errorf("GetTask of an unknown task: reason %q, want TASK_NOT_FOUND", e.Reason())
	}

	ask, err := c.SendText(ctx, "查一台设备") // task-2
	if err != nil || ask.Status.State != a2a.TaskStateInputRequired || ask.StatusText() != a2atest.DeviceQuestion {
		t.Fatalf("input-required: %v, %v", ask, err)
	}
	res, err := c.SendFollowUp(ctx, ask, a2a.NewTextMessage("A08-03-06"))
	if answered, ok := res.(*a2a.Task); err != nil || !ok || answered.ID != ask.ID || answered.Status.State != a2a.TaskStateCompleted || len(answered.History) != 2 {
		t.Errorf("follow-up: %v, %v", res, err)
	}
	if _, err := c.SendFollowUp(ctx, ask, a2a.NewTextMessage("again")); !errors.Is(err, a2a.ErrUnsupportedOperation) {
		t.Errorf("follow-up on a terminal task: %v, want -32004", err)
	}

	got, err := collect(t, c.SendStreamingMessage(ctx, a2a.NewTextMessage("本月巡检记录"))) // task-3
	want := []string{"task submitted", "status working", "status working", "artifact records", "status completed"}
	if diff := cmp.Diff(want, got); err != nil || diff != "" {
		t.Errorf("SendStreamingMessage: %v (-want +got):\n%s", err, diff)
	}

	slow, err := c.SendText(ctx, "more records") // task-4, submitted
	if err != nil {
		t.Fatal(err)
	}
	got, err = collect(t, c.SubscribeToTask(ctx, slow.ID))
	if diff := cmp.Diff(want, got); err != nil || diff != "" {
		t.Errorf("SubscribeToTask: %v (-want +got):\n%s", err, diff)
	}
	if _, err := collect(t, c.SubscribeToTask(ctx, slow.ID)); !errors.Is(err, a2a.ErrUnsupportedOperation) {
		t.Errorf("SubscribeToTask on a terminal task: %v, want -32004", err)
	}
	working, err := c.SendText(ctx, "records again") // task-5
	if err != nil {
		t.Fatal(err)
	}
	if canceled, err := c.CancelTask(ctx, working.ID); err != nil || canceled.Status.State != a2a.TaskStateCanceled {
		t.Errorf("CancelTask: %v, %v", canceled, err)
	}

	var ids []string
	for task, err := range c.ListTasks(ctx, a2a.ListTasksRequest{PageSize: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, task.ID)
	}
	if diff := cmp.Diff([]string{"task-5", "task-4", "task-3", "task-2", "task-1"}, ids); diff != "" {
		t.Errorf("ListTasks (-want +got):\n%s", diff)
	}

	cfg := a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: a2a.PushNotificationConfig{
		URL: "https://client.example/hook", Token: "tok-1",
		Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: "s3cr3t"}}}
	set, err := c.CreateTaskPushNotificationConfig(ctx, cfg)
	if err != nil || set.PushNotificationConfig.ID != "cfg-1" {
		t.Fatalf("CreateTaskPushNotificationConfig: %+v, %v", set, err)
	}
	cfg.PushNotificationConfig.ID = "cfg-1"
	if got, err := c.GetTaskPushNotificationConfig(ctx, task.ID, "cfg-1"); err != nil || !cmp.Equal(&cfg, got) {
		t.Errorf("GetTaskPushNotificationConfig: %v (-want +got):\n%s", err, cmp.Diff(&cfg, got))
	}
	if _, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: task.ID,
		PushNotificationConfig: a2a.PushNotificationConfig{ID: "second", URL: "https://client.example/2"}}); err != nil {
		t.Fatal(err)
	}
	if list, err := c.ListTaskPushNotificationConfigs(ctx, task.ID); err != nil || len(list) != 2 || list[1].PushNotificationConfig.ID != "second" {
		t.Errorf("ListTaskPushNotificationConfigs: %+v, %v", list, err)
	}
	if err := c.DeleteTaskPushNotificationConfig(ctx, task.ID, "cfg-1"); err != nil {
		t.Errorf("DeleteTaskPushNotificationConfig: %v", err)
	}
	if _, err := c.GetTaskPushNotificationConfig(ctx, task.ID, "cfg-1"); !errors.Is(err, a2a.ErrInvalidParams) {
		t.Errorf("GetTaskPushNotificationConfig after delete: %v", err)
	}

	if card, err := c.GetExtendedAgentCard(ctx); err != nil || card.Name != "extended" {
		t.Errorf("GetExtendedAgentCard: %v, %v", card, err)
	}

	for _, r := range srv.Requests() {
		if v := r.Header.Get("A2A-Version"); v != "1.0" || strings.Contains(r.Method, "/") {
			t.Errorf("request %s with A2A-Version %q", r.Method, v)
		}
	}
}

// TestV10PushPages: ListTaskPushNotificationConfigs pages with pageSize
// and pageToken; the client follows the pages.
func TestV10PushPages(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10())
	defer srv.Close()
	c := v10Client(t, srv.URL)
	ctx := context.Background()
	task, err := c.SendText(ctx, "hi")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		hook := a2a.PushNotificationConfig{URL: fmt.Sprintf("https://client.example/%d", i)}
		if _, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: hook}); err != nil {
			t.Fatal(err)
		}
	}
	r := postRPC(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"ListTaskPushNotificationConfigs","params":{"taskId":"task-1","pageSize":2}}`, v10Header)
	var page struct {
		Configs       []struct{ ID string }
		NextPageToken string
	}
	if err := json.Unmarshal(r.Result, &page); err != nil || len(page.Configs) != 2 || page.NextPageToken != "offset-2" {
		t.Fatalf("first page: %s, %v", r.Result, err)
	}
	r = postRPC(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"ListTaskPushNotificationConfigs","params":{"taskId":"task-1","pageSize":2,"pageToken":"offset-2"}}`, v10Header)
	if want := `{"configs":[{"id":"cfg-3","taskId":"task-1","url":"https://client.example/2"}]}`; string(r.Result) != want {
		t.Errorf("last page: %s, want %s", r.Result, want)
	}
	if list, err := c.ListTaskPushNotificationConfigs(ctx, task.ID); err != nil || len(list) != 3 {
		t.Errorf("the client's list: %+v, %v", list, err)
	}
}

// TestV10VersionRefusals: the A2A-Version header and the v0.3 method names
// are refused as a2a-python and a2a-go refuse them.
func TestV10VersionRefusals(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10())
	defer srv.Close()
	const (
		getTask     = `{"jsonrpc":"2.0","id":"r7","method":"GetTask","params":{"id":"x"}}`
		versionData = `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"VERSION_NOT_SUPPORTED","domain":"a2a-protocol.org"}]`
		methodData  = `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"METHOD_NOT_FOUND","domain":"a2a-protocol.org"}]`
	)
	tests := []struct {
		name, body, version string
		code                int
		message, data       string
	}{
		{"no header", getTask, "", -32009, "A2A version '0.3' is not supported", versionData},
		{"0.3", getTask, "0.3", -32009, "A2A version '0.3' is not supported", versionData},
		{"2.0", getTask, "2.0", -32009, "A2A version '2.0' is not supported", versionData},
		{"v0.3 name", `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}`, "1.0", -32601,
			"method not found: tasks/get is an A2A v0.3 method; this agent speaks v1.0", methodData},
		{"unknown name", `{"jsonrpc":"2.0","id":1,"method":"GetTasks","params":{}}`, "1.0", -32601, "method not found: GetTasks", methodData},
	}
	for _, tt := range tests {
		h := map[string]string{}
		if tt.version != "" {
			h["A2A-Version"] = tt.version
		}
		r := postRPC(t, srv.URL, tt.body, h)
		if r.Error == nil || r.Error.Code != tt.code || r.Error.Message != tt.message || string(r.Error.Data) != tt.data {
			t.Errorf("%s: error %+v, want %d %q %s", tt.name, r.Error, tt.code, tt.message, tt.data)
		}
	}

	// A client that speaks v0.3 learns that the agent speaks v1.0.
	c03, _ := a2a.NewClient(srv.URL)
	if _, err := c03.SendText(context.Background(), "hi"); !errors.Is(err, a2a.ErrVersionNotSupported) || !errors.Is(err, a2a.ErrVersionMismatch) {
		t.Errorf("a v0.3 client: %v", err)
	}
	// A v0.3 server stays as it was: it reads no header and does not know
	// the v1.0 names.
	old := a2atest.NewServer()
	defer old.Close()
	if _, err := v10Client(t, old.URL).GetTask(context.Background(), "x"); !errors.Is(err, a2a.ErrMethodNotFound) {
		t.Errorf("a v1.0 client to a v0.3 server: %v", err)
	}
}

// TestV10StrictParams: a request a strict v1.0 server refuses gets
// -32602 saying why; the ProtoJSON forms it must take are taken.
func TestV10StrictParams(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10())
	defer srv.Close()
	send := func(message, config string) string {
		if config != "" {
			config = `,"configuration":` + config
		}
		return `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":` + message + config + `}}`
	}
	msg := func(parts string) string {
		return `{"messageId":"m1","role":"ROLE_USER","parts":` + parts + `}`
	}
	call := func(method, params string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
	}
	postRPC(t, srv.URL, send(msg(`[{"text":"hi"}]`), ""), v10Header) // task-1
	tests := []struct {
		body string
		want string // in the error message; "" for a result
	}{
		{send(`{"kind":"message","messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}`, ""), `unknown field "kind"`},
		{send(`{"messageId":"m1","role":"user","parts":[{"text":"hi"}]}`, ""), `message.role must be "ROLE_USER"`},
		{send(`{"messageId":"m1","role":1,"parts":[{"text":"hi"}]}`, ""), ""},
		{send(`{"role":"ROLE_USER","parts":[{"text":"hi"}]}`, ""), "message.messageId is missing"},
		{send(msg(`[]`), ""), "message.parts is empty"},
		{send(msg(`[{"kind":"text","text":"hi"}]`), ""), `unknown field "kind"`},
		{send(msg(`[{"text":"a","data":{}}]`), ""), "message.parts[0] has 2 content members [text data]"},
		{send(msg(`[{"mediaType":"text/plain"}]`), ""), "message.parts[0] has 0 content members"},
		{send(msg(`[{"text":"a"},{"raw":"not base64!"}]`), ""), "message.parts[1] has raw bytes that are not base64"},
		{send(msg(`[{"raw":"aGk","filename":"a.txt"},{"url":"https://x/y","mediaType":"application/pdf"},{"data":null}]`), ""), ""},
		{send(msg(`[{"text":"hi"}]`), `{"blocking":true}`), `unknown field "blocking"`},
		{send(msg(`[{"text":"hi"}]`), `{"historyLength":-1}`), "configuration.historyLength is negative"},
		{send(msg(`[{"text":"hi"}]`), `{"taskPushNotificationConfig":{"token":"t"}}`), "taskPushNotificationConfig.url is missing"},
		{call("CreateTaskPushNotificationConfig", `{"taskId":"task-1","url":"https://x","authentication":{"credentials":"c"}}`), "params.authentication.scheme is missing"},
		{send(msg(`[{"text":"hi"}]`), `{"historyLength":"0","returnImmediately":true,"acceptedOutputModes":["text/plain"]}`), ""},
		{call("GetTask", `{"id":"task-1","metadata":{}}`), `unknown field "metadata"`},
		{call("GetTask", `{}`), "GetTask: params.id is missing"},
		{call("SubscribeToTask", `{}`), "SubscribeToTask: params.id is missing"},
		{call("GetTask", `{"id":"task-1","historyLength":-2}`), "historyLength is negative"},
		{call("GetTask", `{"id":"task-1","historyLength":"1"}`), ""},
		{`{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard"}`, `"params" must be an object`},
		{call("CreateTaskPushNotificationConfig", `{"taskId":"task-1","pushNotificationConfig":{"url":"https://x"}}`), `unknown field "pushNotificationConfig"`},
		{call("CreateTaskPushNotificationConfig", `{"taskId":"task-1","url":"https://x","authentication":{"schemes":["Bearer"]}}`), `unknown field "schemes"`},
		{call("GetTaskPushNotificationConfig", `{"taskId":"task-1"}`), "params.id is missing"},
		{call("ListTasks", `{"pageSize":0}`), "pageSize 0 is not in 1..100"},
		{call("ListTasks", `{"pageSize":101}`), "pageSize 101 is not in 1..100"},
		{call("ListTasks", `{"pageToken":"next"}`), `pageToken "next" is not one this server gave`},
		{call("ListTasks", `{"status":"TASK_STATE_DONE"}`), `status "TASK_STATE_DONE" is not a TaskState`},
		{call("ListTasks", `{"statusTimestampAfter":"yesterday"}`), "statusTimestampAfter is not an RFC 3339 time"},
		{call("ListTasks", `{"status":3,"pageSize":"100","statusTimestampAfter":"2020-01-01T00:00:00Z"}`), ""},
	}
	for _, tt := range tests {
		r := postRPC(t, srv.URL, tt.body, v10Header)
		switch {
		case tt.want == "" && r.Error != nil:
			t.Errorf("%s\n got error %+v", tt.body, r.Error)
		case tt.want != "" && (r.Error == nil || r.Error.Code != -32602 || !strings.Contains(r.Error.Message, tt.want)):
			t.Errorf("%s\n got %+v %s\nwant -32602 with %q", tt.body, r.Error, r.Result, tt.want)
		}
	}
}

// TestV10Tenant: RequireTenant refuses requests without the tenant and
// names it in the card; the client's WithTenant and Tenant carry it.
func TestV10Tenant(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.RequireTenant("t1"))
	defer srv.Close()
	ctx := context.Background()

	if _, err := v10Client(t, srv.URL).SendText(ctx, "hi"); !errors.Is(err, a2a.ErrInvalidParams) || !strings.Contains(err.Error(), "tenant missing or wrong on SendMessage") {
		t.Errorf("without a tenant: %v", err)
	}
	c := v10Client(t, srv.URL, a2a.WithTenant("t1"))
	task, err := c.SendText(ctx, "hi")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTask(ctx, task.ID); err != nil {
		t.Errorf("GetTask with the tenant: %v", err)
	}
	if _, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{}); err != nil {
		t.Errorf("ListTasks with the tenant: %v", err)
	}
	if _, err := c.GetTask(ctx, task.ID, a2a.Tenant("t2")); !errors.Is(err, a2a.ErrInvalidParams) {
		t.Errorf("GetTask with another tenant: %v", err)
	}
	for _, r := range srv.Requests()[1:3] {
		if !strings.Contains(string(r.Body), `"tenant":"t1"`) {
			t.Errorf("%s without the tenant: %s", r.Method, r.Body)
		}
	}

	var card struct {
		SupportedInterfaces []map[string]string
	}
	if err := json.Unmarshal([]byte(getCard(t, srv)), &card); err != nil {
		t.Fatal(err)
	}
	want := []map[string]string{{"url": srv.URL, "protocolBinding": "JSONRPC", "protocolVersion": "1.0", "tenant": "t1"}}
	if diff := cmp.Diff(want, card.SupportedInterfaces); diff != "" {
		t.Errorf("card interfaces (-want +got):\n%s", diff)
	}

	defer func() {
		if recover() == nil {
			t.Error("RequireTenant without V10 did not panic")
		}
	}()
	a2atest.NewServer(a2atest.RequireTenant("t1")).Close()
}

// getCard GETs the server's card at the well-known path.
func getCard(t *testing.T, srv *a2atest.Server) string {
	t.Helper()
	resp, err := http.Get(srv.BaseURL() + a2a.AgentCardPath)
	if err != nil {
		t.Fatal(err)
	}
	defer http.DefaultClient.CloseIdleConnections()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || err != nil {
		t.Fatalf("card: HTTP %d, %v", resp.StatusCode, err)
	}
	return string(b)
}

// TestV10ListTasks: ListTasks filters by context and state, pages with
// pageSize and pageToken, counts totalSize, and leaves artifacts out
// unless asked.
func TestV10ListTasks(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		if m.Parts.Text() == "slow" {
			return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateWorking, ""), States: []a2a.TaskState{a2a.TaskStateWorking}}
		}
		return a2atest.Reply{Task: a2atest.CompletedTask("echo", map[string]int{"n": 1}, m.Parts.Text())}
	}))
	defer srv.Close()
	c := v10Client(t, srv.URL)
	ctx := context.Background()
	for _, text := range []string{"a", "slow", "b", "c", "slow", "d", "e"} { // task-1 … task-7
		if _, err := c.SendText(ctx, text); err != nil {
			t.Fatal(err)
		}
	}

	type page struct {
		IDs             []string
		Next            string
		Size, Total     int
		Artifacts, Hist int
	}
	read := func(req a2a.ListTasksRequest, opts ...a2a.CallOption) page {
		t.Helper()
		l, err := c.ListTasksPage(ctx, req, opts...)
		if err != nil {
			t.Fatal(err)
		}
		p := page{Next: l.NextPageToken, Size: l.PageSize, Total: l.TotalSize}
		for _, task := range l.Tasks {
			p.IDs = append(p.IDs, task.ID)
			p.Artifacts += len(task.Artifacts)
			p.Hist += len(task.History)
		}
		return p
	}
	tests := []struct {
		name string
		req  a2a.ListTasksRequest
		opts []a2a.CallOption
		want page
	}{
		{"first page", a2a.ListTasksRequest{PageSize: 3}, nil,
			page{IDs: []string{"task-7", "task-6", "task-5"}, Next: "offset-3", Size: 3, Total: 7, Hist: 3}},
		{"second page", a2a.ListTasksRequest{PageSize: 3, PageToken: "offset-3"}, nil,
			page{IDs: []string{"task-4", "task-3", "task-2"}, Next: "offset-6", Size: 3, Total: 7, Hist: 3}},
		{"last page", a2a.ListTasksRequest{PageSize: 3, PageToken: "offset-6"}, nil,
			page{IDs: []string{"task-1"}, Size: 3, Total: 7, Hist: 1}},
		{"default size", a2a.ListTasksRequest{}, []a2a.CallOption{a2a.HistoryLength(0)},
			page{IDs: []string{"task-7", "task-6", "task-5", "task-4", "task-3", "task-2", "task-1"}, Size: 50, Total: 7}},
		{"by state", a2a.ListTasksRequest{Status: a2a.TaskStateWorking, IncludeArtifacts: true}, nil,
			page{IDs: []string{"task-5", "task-2"}, Size: 50, Total: 2, Hist: 2}},
		{"by context, with artifacts", a2a.ListTasksRequest{ContextID: "ctx-3", IncludeArtifacts: true}, nil,
			page{IDs: []string{"task-3"}, Size: 50, Total: 1, Artifacts: 1, Hist: 1}},
		{"after a time to come", a2a.ListTasksRequest{StatusTimestampAfter: time.Now().Add(time.Hour)}, nil,
			page{Size: 50}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, read(tt.req, tt.opts...)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	// ListTasks shows a scripted task as it stands; it does not move it on.
	if task, err := c.GetTask(ctx, "task-2"); err != nil || task.Status.State != a2a.TaskStateWorking {
		t.Errorf("task-2 after listing: %v, %v", task, err)
	}
}
