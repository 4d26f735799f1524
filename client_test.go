package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// TestFixtures replays every recorded scenario in testdata/ through the
// client and checks the exact value or typed error the caller gets.
func TestFixtures(t *testing.T) {
	type outcome struct {
		state     a2a.TaskState
		taskID    string
		summary   string // Artifact text, when the task has one
		reason    string // StatusText
		rpcCode   int
		httpCode  int
		isMessage bool
	}
	tests := []struct {
		file   string
		call   string // send, get, cancel
		status int
		ctype  string
		want   outcome
	}{
		{file: "send_completed_entity.json", call: "send", want: outcome{
			state: a2a.TaskStateCompleted, taskID: "9332c282-1fa7-4c42-96ac-58e4e2f88f4c",
			summary: "数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个"}},
		{file: "send_failed.json", call: "send", want: outcome{
			state: a2a.TaskStateFailed, taskID: "d091e105-9767-472a-b7e7-5951541cab15", reason: "查询失败:码不存在或无法解析"}},
		{file: "get_task.json", call: "get", want: outcome{
			state: a2a.TaskStateCompleted, taskID: "7d1f0f5e-2b8a-4f4e-9a57-0c3f6d1e2a90"}},
		{file: "input_required.json", call: "send", want: outcome{
			state: a2a.TaskStateInputRequired, taskID: "ir-task-1", reason: "请提供要查询的设备编号"}},
		{file: "canceled.json", call: "cancel", want: outcome{state: a2a.TaskStateCanceled, taskID: "cx-task-1"}},
		{file: "unknown_state.json", call: "get", want: outcome{state: "pending-review", taskID: "un-task-1"}},
		{file: "send_message_reply.json", call: "send", want: outcome{isMessage: true}},
		{file: "error_task_not_found.json", call: "get", want: outcome{rpcCode: -32001}},
		{file: "error_task_not_found.json", call: "get", status: 404, want: outcome{rpcCode: -32001}},
		{file: "error_method_not_found.json", call: "cancel", want: outcome{rpcCode: -32601}},
		{file: "error_method_not_found.json", call: "send", status: 500, want: outcome{rpcCode: -32601}},
		{file: "http_502.html", call: "send", status: 502, ctype: "text/html", want: outcome{httpCode: 502}},
		// A result is believed whatever the HTTP status: failure is decided by
		// result.status.state (seed 000).
		{file: "send_failed.json", call: "send", status: 500, want: outcome{
			state: a2a.TaskStateFailed, taskID: "d091e105-9767-472a-b7e7-5951541cab15", reason: "查询失败:码不存在或无法解析"}},
	}
	for _, tt := range tests {
		name := tt.file + "/" + tt.call
		if tt.status != 0 {
			name += "/" + http.StatusText(tt.status)
		}
		t.Run(name, func(t *testing.T) {
			rep := rpcReply(fixture(t, tt.file))
			if tt.status != 0 {
				rep.status = tt.status
			}
			if tt.ctype != "" {
				rep.ctype = tt.ctype
			}
			c, rec := newMock(t, []mockReply{rep}, a2a.WithMaxRetries(0))
			ctx := context.Background()
			var (
				task *a2a.Task
				msg  *a2a.Message
				err  error
			)
			switch tt.call {
			case "send":
				var res a2a.SendResult
				res, err = c.SendMessage(ctx, a2a.NewTextMessage("这个二维码是什么？"))
				switch r := res.(type) {
				case *a2a.Task:
					task = r
				case *a2a.Message:
					msg = r
				}
			case "get":
				task, err = c.GetTask(ctx, "some-task")
			case "cancel":
				task, err = c.CancelTask(ctx, "some-task")
			}

			var got outcome
			if rpcErr, ok := errors.AsType[*a2a.RPCError](err); ok {
				got.rpcCode = rpcErr.Code
			} else if httpErr, ok := errors.AsType[*a2a.HTTPError](err); ok {
				got.httpCode = httpErr.StatusCode
				if !strings.Contains(string(httpErr.Body), "502 Bad Gateway") {
					t.Errorf("HTTPError.Body = %q, want the page's start", httpErr.Body)
				}
			} else if err != nil {
				t.Fatalf("unexpected error %T: %v", err, err)
			}
			if task != nil {
				got.state, got.taskID, got.reason = task.Status.State, task.ID, task.StatusText()
				if len(task.Artifacts) > 0 && task.Artifacts[0].Name == "entity" {
					got.summary = task.Artifact("entity").Text()
				}
				// The task keeps the exact bytes of the result it came from.
				var env struct{ Result json.RawMessage }
				if err := json.Unmarshal(rec.lastSent(), &env); err != nil {
					t.Fatal(err)
				}
				if string(task.Raw()) != string(env.Result) {
					t.Errorf("Raw() = %s\nwant %s", task.Raw(), env.Result)
				}
			}
			got.isMessage = msg != nil
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(outcome{})); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
			if len(rec.got) != 1 {
				t.Errorf("requests sent = %d, want 1", len(rec.got))
			}
		})
	}
}

// TestGatewaySequence polls the recorded submitted → working → completed
// sequence with WaitTask and checks each state was seen in order.
func TestGatewaySequence(t *testing.T) {
	var seq []json.RawMessage
	if err := json.Unmarshal(fixture(t, "gateway_sequence.json"), &seq); err != nil {
		t.Fatal(err)
	}
	var replies []mockReply
	for _, b := range seq {
		replies = append(replies, rpcReply(b))
	}
	c, rec := newMock(t, replies, a2a.WithAgentID("agent-42"))
	var states []a2a.TaskState
	task, err := c.WaitTask(context.Background(), "gw-task-1",
		a2a.PollInterval(1e6), a2a.PollJitter(0),
		a2a.PollProgress(func(a a2a.PollAttempt) { states = append(states, a.Task.Status.State) }))
	if err != nil {
		t.Fatal(err)
	}
	want := []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted}
	if diff := cmp.Diff(want, states); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	type record struct {
		ID     string `json:"id"`
		Result string `json:"result"`
	}
	var recs []record
	if err := task.Artifact("records").DecodeData(&struct {
		Records *[]record `json:"records"`
	}{&recs}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]record{{"r1", "合格"}, {"r2", "不合格"}}, recs); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	for i, r := range rec.got {
		if r.Method != "tasks/get" || r.AgentID == nil || *r.AgentID != "agent-42" {
			t.Errorf("request %d: method %q agent_id %v, want tasks/get with agent-42", i, r.Method, r.AgentID)
		}
	}
}

// TestRequestEnvelope checks what goes on the wire for each method: the
// JSON-RPC envelope, a fresh id per request, headers, the agent selector on
// every body, blocking sent explicitly, historyLength only when set.
func TestRequestEnvelope(t *testing.T) {
	ok := rpcReply(fixture(t, "get_task.json"))
	c, rec := newMock(t, []mockReply{ok},
		a2a.WithAPIKey("key-123456"), a2a.WithWorkspace("ws-9"), a2a.WithBearerToken("tok-abcdef"),
		a2a.WithHeader("X-Trace", "t1"), a2a.WithAgentCode("inspector"), a2a.WithUserAgent("demo/1"))
	ctx := context.Background()
	if _, err := c.SendText(ctx, "hi"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendText(ctx, "hi", a2a.Blocking(false), a2a.HistoryLength(0), a2a.AcceptedOutputModes("text/plain")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTask(ctx, "t-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTask(ctx, "t-1", a2a.HistoryLength(3)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CancelTask(ctx, "t-1"); err != nil {
		t.Fatal(err)
	}
	wantParams := []string{
		`{"message":{"kind":"message","messageId":"*","role":"user","parts":[{"kind":"text","text":"hi"}]},"configuration":{"blocking":true}}`,
		`{"message":{"kind":"message","messageId":"*","role":"user","parts":[{"kind":"text","text":"hi"}]},"configuration":{"acceptedOutputModes":["text/plain"],"historyLength":0,"blocking":false}}`,
		`{"id":"t-1"}`,
		`{"id":"t-1","historyLength":3}`,
		`{"id":"t-1"}`,
	}
	wantMethods := []string{"message/send", "message/send", "tasks/get", "tasks/get", "tasks/cancel"}
	ids := map[string]bool{}
	msgIDs := map[string]bool{}
	for i, r := range rec.got {
		if r.JSONRPC != "2.0" || r.Method != wantMethods[i] {
			t.Errorf("request %d: jsonrpc %q method %q", i, r.JSONRPC, r.Method)
		}
		if ids[string(r.ID)] {
			t.Errorf("request %d reuses id %s", i, r.ID)
		}
		ids[string(r.ID)] = true
		if r.AgentCode == nil || *r.AgentCode != "inspector" || r.AgentID != nil {
			t.Errorf("request %d: agent selector agent_code=%v agent_id=%v", i, r.AgentCode, r.AgentID)
		}
		params := string(r.Params)
		if r.Method == "message/send" {
			var p struct {
				Message struct{ MessageID string }
			}
			json.Unmarshal(r.Params, &p)
			if len(p.Message.MessageID) != 36 || msgIDs[p.Message.MessageID] {
				t.Errorf("request %d: messageId %q is not a fresh UUID", i, p.Message.MessageID)
			}
			msgIDs[p.Message.MessageID] = true
			params = strings.Replace(params, p.Message.MessageID, "*", 1)
		}
		if params != wantParams[i] {
			t.Errorf("request %d params:\n got %s\nwant %s", i, params, wantParams[i])
		}
		wantHeader := map[string]string{
			"Content-Type": "application/json", "X-Api-Key": "key-123456", "X-Workspace-Id": "ws-9",
			"Authorization": "Bearer tok-abcdef", "X-Trace": "t1", "User-Agent": "demo/1",
		}
		for k, v := range wantHeader {
			if got := r.header.Get(k); got != v {
				t.Errorf("request %d header %s = %q, want %q", i, k, got, v)
			}
		}
	}
}

// TestSendTextMessageReply: SendText cannot drop a Message answer.
func TestSendTextMessageReply(t *testing.T) {
	c, _ := newMock(t, []mockReply{rpcReply(fixture(t, "send_message_reply.json"))})
	task, err := c.SendText(context.Background(), "hi")
	mre, ok := errors.AsType[*a2a.MessageReplyError](err)
	if task != nil || !ok {
		t.Fatalf("SendText = %v, %v; want nil, *MessageReplyError", task, err)
	}
	if got := mre.Message.Text(); got != "你好，请发送二维码链接。" {
		t.Errorf("message text = %q", got)
	}
}

// TestSendFollowUp continues an input-required task with its ids.
func TestSendFollowUp(t *testing.T) {
	c, rec := newMock(t, []mockReply{rpcReply(fixture(t, "input_required.json")), rpcReply(fixture(t, "get_task.json"))})
	ctx := context.Background()
	task, err := c.SendText(ctx, "查设备")
	if err != nil {
		t.Fatal(err)
	}
	if !task.Status.State.Interrupted() {
		t.Fatalf("state %q, want interrupted", task.Status.State)
	}
	if _, err := c.SendFollowUp(ctx, task, a2a.NewTextMessage("A08-03-06")); err != nil {
		t.Fatal(err)
	}
	var p struct {
		Message struct {
			TaskID    string `json:"taskId"`
			ContextID string `json:"contextId"`
		}
	}
	if err := json.Unmarshal(rec.got[1].Params, &p); err != nil {
		t.Fatal(err)
	}
	if p.Message.TaskID != "ir-task-1" || p.Message.ContextID != "ir-ctx-1" {
		t.Errorf("follow-up carries taskId %q contextId %q", p.Message.TaskID, p.Message.ContextID)
	}
	if _, err := c.SendFollowUp(ctx, nil, a2a.NewTextMessage("x")); err == nil {
		t.Error("SendFollowUp(nil task) gave no error")
	}
	if len(rec.got) != 2 {
		t.Errorf("requests = %d, want 2 (a nil task sends nothing)", len(rec.got))
	}
}

// TestBodyTooLarge: a reply over the cap is refused with a typed error, with
// and without a Content-Length.
func TestBodyTooLarge(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"completed"},"metadata":{"pad":"` + strings.Repeat("x", 5000) + `"}}}`
	for _, chunked := range []bool{false, true} {
		tr := newEchoTransport(big)
		tr.chunked = chunked
		c, _ := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: tr}), a2a.WithMaxResponseBytes(4096))
		_, err := c.GetTask(context.Background(), "t")
		tl, ok := errors.AsType[*a2a.BodyTooLargeError](err)
		if !ok || tl.Limit != 4096 {
			t.Fatalf("chunked=%v: err = %v, want *BodyTooLargeError with limit 4096", chunked, err)
		}
		// The same body fits under a larger cap.
		c, _ = a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: tr}), a2a.WithMaxResponseBytes(8192))
		if _, err := c.GetTask(context.Background(), "t"); err != nil {
			t.Fatalf("chunked=%v: under the cap: %v", chunked, err)
		}
	}
}

// TestNewClientValidation: options reject bad input with an error, never a
// panic, and NewClient does no I/O.
func TestNewClientValidation(t *testing.T) {
	bad := map[string]struct {
		endpoint string
		opts     []a2a.Option
	}{
		"relative url":     {"/a2a", nil},
		"ftp url":          {"ftp://x/y", nil},
		"no host":          {"http://", nil},
		"empty api key":    {mockURL, []a2a.Option{a2a.WithAPIKey("")}},
		"api key newline":  {mockURL, []a2a.Option{a2a.WithAPIKey("a\nb")}},
		"empty workspace":  {mockURL, []a2a.Option{a2a.WithWorkspace("")}},
		"empty bearer":     {mockURL, []a2a.Option{a2a.WithBearerToken("")}},
		"bad header name":  {mockURL, []a2a.Option{a2a.WithHeader("Bad Name", "v")}},
		"reserved header":  {mockURL, []a2a.Option{a2a.WithHeader("content-type", "text/plain")}},
		"header value CR":  {mockURL, []a2a.Option{a2a.WithHeader("X-A", "a\rb")}},
		"both selectors":   {mockURL, []a2a.Option{a2a.WithAgentID("a"), a2a.WithAgentCode("b")}},
		"empty agent id":   {mockURL, []a2a.Option{a2a.WithAgentID("")}},
		"empty agent code": {mockURL, []a2a.Option{a2a.WithAgentCode("")}},
		"nil http client":  {mockURL, []a2a.Option{a2a.WithHTTPClient(nil)}},
		"negative retries": {mockURL, []a2a.Option{a2a.WithMaxRetries(-1)}},
		"retry wait order": {mockURL, []a2a.Option{a2a.WithRetryWait(2e9, 1e9)}},
		"zero retry wait":  {mockURL, []a2a.Option{a2a.WithRetryWait(0, 1e9)}},
		"zero max bytes":   {mockURL, []a2a.Option{a2a.WithMaxResponseBytes(0)}},
		"empty ua":         {mockURL, []a2a.Option{a2a.WithUserAgent("")}},
		"nil logger":       {mockURL, []a2a.Option{a2a.WithLogger(nil)}},
		"nil option":       {mockURL, []a2a.Option{nil}},
	}
	for name, tt := range bad {
		c, err := a2a.NewClient(tt.endpoint, tt.opts...)
		if err == nil || c != nil {
			t.Errorf("%s: NewClient = %v, %v; want nil and an error", name, c, err)
		}
	}
	c, _ := newMock(t, []mockReply{rpcReply(fixture(t, "get_task.json"))})
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"empty get id":      func() error { _, err := c.GetTask(ctx, ""); return err },
		"empty cancel id":   func() error { _, err := c.CancelTask(ctx, ""); return err },
		"negative history":  func() error { _, err := c.GetTask(ctx, "t", a2a.HistoryLength(-1)); return err },
		"nil call option":   func() error { _, err := c.SendText(ctx, "x", nil); return err },
		"empty wait id":     func() error { _, err := c.WaitTask(ctx, ""); return err },
		"bad poll interval": func() error { _, err := c.WaitTask(ctx, "t", a2a.PollInterval(0)); return err },
		"bad multiplier":    func() error { _, err := c.WaitTask(ctx, "t", a2a.PollMultiplier(0.5)); return err },
		"bad jitter":        func() error { _, err := c.WaitTask(ctx, "t", a2a.PollJitter(1)); return err },
		"bad attempts":      func() error { _, err := c.WaitTask(ctx, "t", a2a.PollMaxAttempts(0)); return err },
		"bad timeout":       func() error { _, err := c.WaitTask(ctx, "t", a2a.PollTimeout(-1)); return err },
		"bad max interval":  func() error { _, err := c.WaitTask(ctx, "t", a2a.PollMaxInterval(0)); return err },
		"nil progress":      func() error { _, err := c.WaitTask(ctx, "t", a2a.PollProgress(nil)); return err },
		"bad poll call opt": func() error { _, err := c.WaitTask(ctx, "t", a2a.PollCallOptions(a2a.HistoryLength(-2))); return err },
	} {
		if err := call(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestLaxEnvelopes: a null member beside the other one is taken as absent,
// in either order. (That no error comes with a typed nil result is checked
// by every row of the hostile table.)
func TestLaxEnvelopes(t *testing.T) {
	task := `{"kind":"task","id":"t","contextId":"c","status":{"state":"failed"}}`
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":{{id}},"result":` + task + `,"error":null}`,
		`{"jsonrpc":"2.0","error":null,"id":{{id}},"result":` + task + `}`,
	} {
		c, _ := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: newEchoTransport(body)}))
		got, err := c.SendText(context.Background(), "x")
		if err != nil || got.Status.State != a2a.TaskStateFailed {
			t.Errorf("%s: %v, %v", body, got, err)
		}
	}
	c, _ := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: newEchoTransport(
		`{"jsonrpc":"2.0","id":{{id}},"result":null,"error":{"code":-32603,"message":"boom"}}`)}))
	if _, err := c.GetTask(context.Background(), "t"); !errors.Is(err, a2a.ErrInternal) {
		t.Errorf("null result beside an error: %v", err)
	}
}

// TestNonRPCJSONOnErrorStatus: a gateway's own JSON error body on a 401 or
// 429 is an *HTTPError (with Retry-After), not a JSON-RPC error.
func TestNonRPCJSONOnErrorStatus(t *testing.T) {
	for _, status := range []int{401, 403, 429} {
		rep := mockReply{status: status, ctype: "application/json", body: []byte(`{"error":{"code":"UNAUTHORIZED","message":"bad key"}}`),
			header: http.Header{"Retry-After": {"3600"}, "Www-Authenticate": {`Bearer realm="gw"`}}}
		c, _ := newMock(t, []mockReply{rep})
		_, err := c.GetTask(context.Background(), "t")
		he, ok := errors.AsType[*a2a.HTTPError](err)
		if !ok || he.StatusCode != status || he.RetryAfter != time.Hour {
			t.Errorf("%d: err = %v, want *HTTPError with RetryAfter 1h", status, err)
		}
	}
}

// TestSendMessageCallerFaults: a message without parts or with a part that
// cannot be encoded is refused before anything is sent.
func TestSendMessageCallerFaults(t *testing.T) {
	c, rec := newMock(t, []mockReply{rpcReply(fixture(t, "get_task.json"))})
	ctx := context.Background()
	for name, msg := range map[string]a2a.Message{
		"no parts":      {},
		"bad data":      {Parts: a2a.Parts{a2a.DataPart{Data: json.RawMessage(`{"a":`)}}},
		"empty unknown": {Parts: a2a.Parts{a2a.UnknownPart{PartKind: "x"}}},
	} {
		res, err := c.SendMessage(ctx, msg)
		if err == nil || res != nil {
			t.Errorf("%s: %v, %v", name, res, err)
		}
	}
	if len(rec.got) != 0 {
		t.Errorf("%d requests sent", len(rec.got))
	}
}
