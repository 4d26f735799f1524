package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The A2A v1.0 rows of the hostile-server table: the same machinery
// (hostile_test.go) with the client made by
// WithProtocolVersion(ProtocolV10) (hostileRow.v10). This file holds the
// binding's rows (results and their wrappers, streams, push configs,
// ListTasks, errors, the requests themselves); wire_v10_test.go holds the
// decoder's (parts, enums, nulls, member names). The other direction, a
// v1.0 reply to a v0.3 client, is in resultRows (binding_v03_test.go):
// "v1.0 result wrapped as task", "v1.0 result wrapped as message",
// "v1.0 wrapped result on tasks/get", "v1.0 VersionNotSupportedError",
// "v1.0 method not found with details".

// v10Rows is every A2A v1.0 row of the table.
func v10Rows() []hostileRow {
	return slices.Concat(v10ResultRows(), v10StreamRows(), v10PushRows(), v10ListRows(), v10ErrorRows(), v10RequestRows(),
		v10PartRows(), v10EnumRows(), v10NameRows())
}

// TestV10HostileTable: the v1.0 rows are at least 30, and every one of
// them runs a client that speaks v1.0 but the rows about what a v0.3
// client refuses.
func TestV10HostileTable(t *testing.T) {
	rows := v10Rows()
	t.Logf("%d rows", len(rows))
	if len(rows) < 30 {
		t.Errorf("only %d A2A v1.0 rows; the brief asks for at least 30", len(rows))
	}
	for _, row := range rows {
		if !row.v10 && !strings.Contains(row.name, "v0.3 client") {
			t.Errorf("row %q runs a v0.3 client without saying so in its name", row.name)
		}
	}
}

// TestV10Results runs the rows about result wrappers and shapes.
func TestV10Results(t *testing.T) { runRows(t, v10ResultRows()) }

// TestV10Streams runs the stream rows.
func TestV10Streams(t *testing.T) { runRows(t, v10StreamRows()) }

// TestV10PushConfigs runs the push config rows.
func TestV10PushConfigs(t *testing.T) { runRows(t, v10PushRows()) }

// TestV10ListTasks runs the ListTasks rows.
func TestV10ListTasks(t *testing.T) { runRows(t, v10ListRows()) }

// TestV10Errors runs the JSON-RPC error rows.
func TestV10Errors(t *testing.T) { runRows(t, v10ErrorRows()) }

// TestV10Requests runs the rows about what the client sends.
func TestV10Requests(t *testing.T) { runRows(t, v10RequestRows()) }

// v10Task is a completed v1.0 task about t1, as GetTask returns it.
const v10Task = `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}`

// v10TaskWith is v10Task with its status replaced.
func v10TaskWith(status string) string {
	return `{"id":"t1","contextId":"c1","status":` + status + `}`
}

// wantV10Task is the task v10Task decodes to, changed by fn.
func wantV10Task(fn func(*a2a.Task)) *a2a.Task {
	return wantTask(func(t *a2a.Task) {
		t.Status.RawState = "TASK_STATE_COMPLETED"
		if fn != nil {
			fn(t)
		}
	})
}

// v10Message is an agent message of v1.0, and what it decodes to.
const v10Message = `{"messageId":"m1","role":"ROLE_AGENT","parts":[{"text":"设备正常"}]}`

var wantV10Message = &a2a.Message{MessageID: "m1", Role: a2a.RoleAgent, RawRole: "ROLE_AGENT", Parts: a2a.Parts{a2a.TextPart{Text: "设备正常"}}}

// hintV03 and hintMayV03 are the hints of a v1.0 client's errors: an
// agent that refuses v1.0, and one that may speak v0.3.
const (
	hintV03    = "the agent refuses A2A v1.0: if it speaks v0.3, make the client with WithProtocolVersion(ProtocolV03), or from its agent card with NewClientFromCard"
	hintMayV03 = "if the agent speaks A2A v0.3, make the client with WithProtocolVersion(ProtocolV03), or from its agent card with NewClientFromCard"
)

// notIs wants the error not to match any of targets.
func notIs(targets ...error) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		for _, target := range targets {
			if errors.Is(o.err, target) {
				t.Errorf("errors.Is(%v, %v) = true, want false", o.err, target)
			}
		}
	}
}

// noError wants a call that returns only an error (delete) to succeed.
func noError(t *testing.T, o outcome) {
	t.Helper()
	if o.err != nil {
		t.Fatalf("err = %v, want none", o.err)
	}
}

// is wants exactly want as the call's value (a page, a config, a list)
// and no error.
func is(want any) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		if o.err != nil {
			t.Fatalf("err = %v, want %T", o.err, want)
		}
		if diff := cmp.Diff(want, o.res, ignoreTaskInternals); diff != "" {
			t.Errorf("result (-want +got):\n%s", diff)
		}
	}
}

// refused wants an error containing text, of type E, returned before
// anything was sent (the row's reqs is -1).
func refused[E error](text string) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		noResult(t, o)
		if _, ok := errors.AsType[E](o.err); !ok {
			var want E
			t.Fatalf("err = %T %v, want %T", o.err, o.err, want)
		}
		if !strings.Contains(o.err.Error(), text) {
			t.Errorf("err = %q, want it to contain %q", o.err, text)
		}
	}
}

// uuidRE finds a messageId the client filled in.
var uuidRE = regexp.MustCompile(`"messageId":"[0-9a-f-]{36}"`)

// sentAt wants request i (from 0) to be a v1.0 request of method with
// exactly these params (a filled-in messageId written "*"): its header
// A2A-Version: 1.0, Content-Type application/json, and Accept
// text/event-stream on a stream, application/json otherwise.
func sentAt(i int, method, params string) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		if len(o.bodies) <= i {
			t.Fatalf("%d requests, want request %d", len(o.bodies), i)
		}
		var req struct {
			JSONRPC string          `json:"jsonrpc"`
			Method  string          `json:"method"`
			Params  json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal([]byte(o.bodies[i]), &req); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if req.JSONRPC != "2.0" || req.Method != method {
			t.Errorf("request %d: jsonrpc %q method %q, want %q", i, req.JSONRPC, req.Method, method)
		}
		if got := uuidRE.ReplaceAllString(string(req.Params), `"messageId":"*"`); got != params {
			t.Errorf("request %d params:\n got %s\nwant %s", i, got, params)
		}
		accept := "application/json"
		if method == "SendStreamingMessage" || method == "SubscribeToTask" {
			accept = "text/event-stream"
		}
		h := o.headers[i]
		for k, v := range map[string]string{"A2A-Version": a2a.ProtocolV10, "Content-Type": "application/json", "Accept": accept} {
			if got := h.Values(k); len(got) != 1 || got[0] != v {
				t.Errorf("request %d header %s = %q, want %q", i, k, got, v)
			}
		}
	}
}

// sent is sentAt for the first request.
func sent(method, params string) expect { return sentAt(0, method, params) }

// sse is an event stream body of one event per result, each a JSON-RPC
// response answering the request.
func sse(results ...string) string {
	var b strings.Builder
	for _, r := range results {
		b.WriteString("data: " + rpc(r) + "\n\n")
	}
	return b.String()
}

var sseHeader = map[string]string{"Content-Type": "text/event-stream"}

// collectEvents runs a stream to its end: the events it yielded (nil for
// none) and the error it ended with.
func collectEvents(seq iter.Seq2[a2a.Event, error]) (any, error) {
	var evs []a2a.Event
	var err error
	for ev, e := range seq {
		if e != nil {
			err = e
			break
		}
		evs = append(evs, ev)
	}
	if evs == nil {
		return nil, err
	}
	return evs, err
}

// stream is SendStreamingMessage as a row's call.
func stream(ctx context.Context, c *a2a.Client) (any, error) {
	return collectEvents(c.SendStreamingMessage(ctx, a2a.NewTextMessage("查询设备")))
}

// streamed wants these events, then end's checks on how the stream
// ended (end nil: it ended without an error).
func streamed(want []a2a.Event, end expect) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		got, _ := o.res.([]a2a.Event)
		if diff := cmp.Diff(want, got, ignoreTaskInternals, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		// What ended the stream: an error about one event, whose body is
		// that event's data, not the whole stream.
		o.res, o.reply = nil, ""
		if end == nil {
			if o.err != nil {
				t.Errorf("stream ended with %v, want a clean end", o.err)
			}
			return
		}
		end(t, o)
	}
}

// statusEvent is a v1.0 statusUpdate about t1 in state.
func statusEvent(state string) string {
	return `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"` + state + `"}}}`
}

// wantStatus is the event statusEvent decodes to.
func wantStatus(state a2a.TaskState, raw string, final bool) *a2a.TaskStatusUpdateEvent {
	return &a2a.TaskStatusUpdateEvent{TaskID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: state, RawState: raw}, Final: final}
}

// working is a v1.0 task t1 in state working, and what it decodes to.
const working = `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}`

var wantWorking = &a2a.Task{ID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking, RawState: "TASK_STATE_WORKING"}}

func v10ResultRows() []hostileRow {
	return []hostileRow{
		{name: "v1.0 SendMessage result wrapped as task", v10: true, call: "send", body: rpc(`{"task":` + v10Task + `}`), want: isTask(wantV10Task(nil))},
		{name: "v1.0 SendMessage result wrapped as message", v10: true, call: "send", body: rpc(`{"message":` + v10Message + `}`), want: isMessage(wantV10Message)},
		{name: "v1.0 SendMessage result with both task and message", v10: true, call: "send", body: rpc(`{"task":` + v10Task + `,"message":` + v10Message + `}`),
			want: protoErr(`result has both "task" and "message"; the proto allows one`, nil)},
		{name: "v1.0 SendMessage result with neither task nor message", v10: true, call: "send", body: rpc(`{}`), want: protoErr(`result has neither "task" nor "message"`, nil)},
		{name: "v1.0 SendMessage result with a null task beside a message", v10: true, call: "send", body: rpc(`{"task":null,"message":` + v10Message + `}`), want: isMessage(wantV10Message)},
		{name: "v1.0 SendMessage result with only a null task", v10: true, call: "send", body: rpc(`{"task":null}`), want: protoErr(`result has neither "task" nor "message"`, nil)},
		{name: "v1.0 SendMessage result with an unknown wrapper", v10: true, call: "send", body: rpc(`{"statusUpdate":{"taskId":"t1","status":{}}}`), want: protoErr(`result has neither "task" nor "message"`, nil)},
		{name: "v1.0 SendMessage result null", v10: true, call: "send", body: rpc(`null`), want: protoErr("result is null", nil)},
		{name: "v1.0 SendMessage result an array", v10: true, call: "send", body: rpc(`[{"task":` + v10Task + `}]`), want: protoErr("result is not a JSON object", nil)},
		{name: "v1.0 SendMessage wrapped task without id", v10: true, call: "send", body: rpc(`{"task":{"status":{"state":"TASK_STATE_COMPLETED"}}}`), want: protoErr(`task result has no "id"`, nil)},
		{name: "v1.0 SendMessage wrapped task not an object", v10: true, call: "send", body: rpc(`{"task":"t1"}`), want: protoErr("task result does not decode", nil)},
		{name: "v0.3 bare task to a v1.0 SendMessage", v10: true, call: "send", body: rpc(completedTask),
			want: protoErr(`result has "kind", A2A v0.3 JSON-RPC's shape`, a2a.ErrVersionMismatch)},
		{name: "v0.3 bare message to a v1.0 SendMessage", v10: true, call: "send", body: rpc(`{"kind":"message","messageId":"m1","role":"agent","parts":[{"kind":"text","text":"hi"}]}`),
			want: protoErr(`result has "kind", A2A v0.3 JSON-RPC's shape`, a2a.ErrVersionMismatch)},
		{name: "v0.3 bare task to a v1.0 GetTask", v10: true, body: rpc(completedTask), want: protoErr(`result has "kind", A2A v0.3 JSON-RPC's shape`, a2a.ErrVersionMismatch)},
		{name: "v1.0 GetTask result bare", v10: true, body: rpc(v10Task), want: isTask(wantV10Task(nil))},
		{name: "v1.0 GetTask result wrapped as task", v10: true, body: rpc(`{"task":` + v10Task + `}`),
			want: all(protoErr(`result is wrapped as {"task": …} where a bare Task is due`, nil), notIs(a2a.ErrVersionMismatch))},
		{name: "v1.0 GetTask result about another task", v10: true, body: rpc(`{"id":"t2","status":{"state":"TASK_STATE_COMPLETED"}}`),
			want: protoErr(`result is about task "t2", not "t1"`, nil)},
		{name: "v1.0 GetTask result without id", v10: true, body: rpc(`{"contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}`), want: protoErr(`task result has no "id"`, nil)},
		{name: "v1.0 CancelTask result bare", v10: true, call: "cancel", body: rpc(v10TaskWith(`{"state":"TASK_STATE_CANCELED"}`)),
			want: isTask(wantTask(func(t *a2a.Task) {
				t.Status = a2a.TaskStatus{State: a2a.TaskStateCanceled, RawState: "TASK_STATE_CANCELED"}
			}))},
		{name: "v1.0 SendMessage message naming its task", v10: true, call: "send", body: rpc(`{"message":{"messageId":"m1","role":"ROLE_AGENT","taskId":"t9","parts":[]}}`),
			want: isMessage(&a2a.Message{MessageID: "m1", Role: a2a.RoleAgent, RawRole: "ROLE_AGENT", TaskID: "t9", Parts: a2a.Parts{}})},
	}
}

func v10StreamRows() []hostileRow {
	artifact := `{"artifactUpdate":{"task_id":"t1","context_id":"c1","append":true,"last_chunk":true,"artifact":{"artifactId":"a1","name":"entity","parts":[{"text":"设备"}]}}}`
	wantArtifact := &a2a.TaskArtifactUpdateEvent{TaskID: "t1", ContextID: "c1", Append: true, LastChunk: true,
		Artifact: a2a.Artifact{ArtifactID: "a1", Name: "entity", Parts: a2a.Parts{a2a.TextPart{Text: "设备"}}}}
	row := func(name string, events []string, want expect) hostileRow {
		return hostileRow{name: name, v10: true, do: stream, header: sseHeader, body: sse(events...), want: want}
	}
	return []hostileRow{
		row("v1.0 stream of task, artifactUpdate, statusUpdate", []string{working, artifact, statusEvent("TASK_STATE_COMPLETED")},
			all(streamed([]a2a.Event{wantWorking, wantArtifact, wantStatus(a2a.TaskStateCompleted, "TASK_STATE_COMPLETED", true)}, nil),
				sent("SendStreamingMessage", `{"message":{"messageId":"*","role":"ROLE_USER","parts":[{"text":"查询设备"}]}}`))),
		row("v1.0 stream of one message, the rest unread", []string{`{"message":` + v10Message + `}`, working},
			streamed([]a2a.Event{wantV10Message}, nil)),
		row("v1.0 stream event with two members", []string{working, `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{}},"artifactUpdate":{"taskId":"t1","artifact":{}}}`},
			streamed([]a2a.Event{wantWorking}, protoErr(`result has both "statusUpdate" and "artifactUpdate"`, nil))),
		row("v1.0 stream event with statusUpdate and status_update", []string{`{"statusUpdate":{"taskId":"t1","status":{}},"status_update":{"taskId":"t1","status":{}}}`},
			streamed(nil, protoErr(`result has both "statusUpdate" and "status_update"`, nil))),
		row("v1.0 stream event with no member", []string{working, `{}`},
			streamed([]a2a.Event{wantWorking}, protoErr("event holds none of task, message, statusUpdate, artifactUpdate", nil))),
		row("v1.0 stream event of a v0.3 status-update", []string{working, `{"kind":"status-update","taskId":"t1","contextId":"c1","status":{"state":"completed"},"final":true}`},
			streamed([]a2a.Event{wantWorking}, protoErr(`result has "kind", A2A v0.3 JSON-RPC's shape`, a2a.ErrVersionMismatch))),
		row("v1.0 stream ends at completed without final", []string{working, statusEvent("TASK_STATE_COMPLETED"), statusEvent("TASK_STATE_WORKING")},
			streamed([]a2a.Event{wantWorking, wantStatus(a2a.TaskStateCompleted, "TASK_STATE_COMPLETED", true)}, nil)),
		row("v1.0 stream ends at input-required without final", []string{working, statusEvent("TASK_STATE_INPUT_REQUIRED"), statusEvent("TASK_STATE_WORKING")},
			streamed([]a2a.Event{wantWorking, wantStatus(a2a.TaskStateInputRequired, "TASK_STATE_INPUT_REQUIRED", true)}, nil)),
		row("v1.0 stream ends at a state number 4", []string{working, `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":4}}}`, statusEvent("TASK_STATE_WORKING")},
			streamed([]a2a.Event{wantWorking, wantStatus(a2a.TaskStateFailed, "4", true)}, nil)),
		row("v1.0 stream ends at auth-required without final", []string{working, statusEvent("TASK_STATE_AUTH_REQUIRED"), statusEvent("TASK_STATE_COMPLETED")},
			streamed([]a2a.Event{wantWorking, wantStatus(a2a.TaskStateAuthRequired, "TASK_STATE_AUTH_REQUIRED", true)}, nil)),
		row("v1.0 stream ignores a v0.3 final at working", []string{working, `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"},"final":true}}`, statusEvent("TASK_STATE_COMPLETED")},
			streamed([]a2a.Event{wantWorking, wantStatus(a2a.TaskStateWorking, "TASK_STATE_WORKING", false), wantStatus(a2a.TaskStateCompleted, "TASK_STATE_COMPLETED", true)}, nil)),
		row("v1.0 stream closed after working", []string{working, statusEvent("TASK_STATE_WORKING")},
			streamed([]a2a.Event{wantWorking, wantStatus(a2a.TaskStateWorking, "TASK_STATE_WORKING", false)}, cutErr("t1", "c1", a2a.TaskStateWorking))),
		row("v1.0 stream never ends at an unknown state", []string{working, statusEvent("TASK_STATE_PAUSED"), statusEvent("TASK_STATE_UNSPECIFIED")},
			streamed([]a2a.Event{wantWorking, wantStatus("TASK_STATE_PAUSED", "", false), wantStatus(a2a.TaskStateUnknown, "TASK_STATE_UNSPECIFIED", false)},
				cutErr("t1", "c1", a2a.TaskStateUnknown))),
		row("v1.0 stream event about another task", []string{working, `{"statusUpdate":{"taskId":"t2","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}`},
			streamed([]a2a.Event{wantWorking}, protoErr(`result is about task "t2", not "t1"`, nil))),
		row("v1.0 stream artifactUpdate without a task id", []string{working, `{"artifactUpdate":{"contextId":"c1","artifact":{"artifactId":"a1"}}}`},
			streamed([]a2a.Event{wantWorking}, protoErr(`result names no task, where task "t1" was asked about`, nil))),
		row("v1.0 stream event null", []string{working, `null`}, streamed([]a2a.Event{wantWorking}, protoErr("result is null where stream event is due", nil))),
		{name: "v1.0 SubscribeToTask stream", v10: true, header: sseHeader, body: sse(working, statusEvent("TASK_STATE_COMPLETED")),
			do: func(ctx context.Context, c *a2a.Client) (any, error) {
				return collectEvents(c.SubscribeToTask(ctx, "t1"))
			},
			want: all(streamed([]a2a.Event{wantWorking, wantStatus(a2a.TaskStateCompleted, "TASK_STATE_COMPLETED", true)}, nil),
				sent("SubscribeToTask", `{"id":"t1"}`))},
		{name: "v1.0 SubscribeToTask stream of another task", v10: true, header: sseHeader, body: sse(`{"task":{"id":"t2","status":{"state":"TASK_STATE_WORKING"}}}`),
			do: func(ctx context.Context, c *a2a.Client) (any, error) {
				return collectEvents(c.SubscribeToTask(ctx, "t1"))
			},
			want: streamed(nil, protoErr(`result is about task "t2", not "t1"`, nil))},
	}
}

// getPush, listPush and deletePush are the push config calls about task
// t1 and config c1, as a row's call.
func getPush(ctx context.Context, c *a2a.Client) (any, error) {
	cfg, err := c.GetTaskPushNotificationConfig(ctx, "t1", "c1")
	if cfg == nil {
		return nil, err
	}
	return cfg, err
}

func listPush(ctx context.Context, c *a2a.Client) (any, error) {
	list, err := c.ListTaskPushNotificationConfigs(ctx, "t1")
	if list == nil {
		return nil, err
	}
	return list, err
}

func deletePush(ctx context.Context, c *a2a.Client) (any, error) {
	return nil, c.DeleteTaskPushNotificationConfig(ctx, "t1", "c1")
}

// pages answers a paged call by the pageToken of its request: results
// holds the result for each token.
func pages(results map[string]string) func(w http.ResponseWriter, r *http.Request, id string) {
	return func(w http.ResponseWriter, r *http.Request, id string) {
		var req struct {
			Params struct {
				PageToken string `json:"pageToken"`
			} `json:"params"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, strings.ReplaceAll(rpc(results[req.Params.PageToken]), "{{id}}", id))
	}
}

// pushFlat is a v1.0 push config of task t1, and what it reads as.
func pushFlat(id string) string {
	return `{"taskId":"t1","id":"` + id + `","url":"https://hooks.example/` + id + `","token":"tok-` + id + `","authentication":{"scheme":"Bearer","credentials":"cred-` + id + `"}}`
}

func wantPush(id string) a2a.TaskPushNotificationConfig {
	return a2a.TaskPushNotificationConfig{TaskID: "t1", PushNotificationConfig: a2a.PushNotificationConfig{ID: id, URL: "https://hooks.example/" + id, Token: "tok-" + id,
		Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: "cred-" + id}}}
}

func v10PushRows() []hostileRow {
	return []hostileRow{
		{name: "v1.0 push config flat", v10: true, do: getPush, body: rpc(pushFlat("c1")), want: is(ptr(wantPush("c1")))},
		{name: "v1.0 push config without authentication", v10: true, do: getPush, body: rpc(`{"taskId":"t1","id":"c1","url":"https://hooks.example/c1"}`),
			want: is(&a2a.TaskPushNotificationConfig{TaskID: "t1", PushNotificationConfig: a2a.PushNotificationConfig{ID: "c1", URL: "https://hooks.example/c1"}})},
		{name: "v1.0 push config in the v0.3 nested shape", v10: true, do: getPush,
			body: rpc(`{"taskId":"t1","pushNotificationConfig":{"id":"c1","url":"https://hooks.example/c1"}}`), want: protoErr(`push config has no "url"`, nil)},
		{name: "v1.0 push config about another task", v10: true, do: getPush, body: rpc(`{"taskId":"t2","id":"c1","url":"https://evil.example/"}`),
			want: protoErr(`result is about task "t2", not "t1"`, nil)},
		{name: "v1.0 push config null", v10: true, do: getPush, body: rpc(`null`), want: protoErr("result is null", nil)},
		{name: "v1.0 push config list in pages", v10: true, do: listPush, reqs: 2,
			serve: pages(map[string]string{"": `{"configs":[` + pushFlat("c1") + `],"nextPageToken":"p2"}`, "p2": `{"configs":[` + pushFlat("c2") + `]}`}),
			want: all(is([]a2a.TaskPushNotificationConfig{wantPush("c1"), wantPush("c2")}),
				sentAt(0, "ListTaskPushNotificationConfigs", `{"taskId":"t1"}`), sentAt(1, "ListTaskPushNotificationConfigs", `{"taskId":"t1","pageToken":"p2"}`))},
		{name: "v1.0 push config list whose nextPageToken repeats", v10: true, do: listPush, reqs: 2,
			serve: pages(map[string]string{"": `{"configs":[` + pushFlat("c1") + `],"nextPageToken":"p2"}`, "p2": `{"configs":[],"nextPageToken":"p2"}`}),
			want:  protoErr("nextPageToken repeats a page already read", nil)},
		{name: "v1.0 push config list {}", v10: true, do: listPush, body: rpc(`{}`), want: is([]a2a.TaskPushNotificationConfig{})},
		{name: "v1.0 push config list null", v10: true, do: listPush, body: rpc(`null`), want: is([]a2a.TaskPushNotificationConfig{})},
		{name: "v1.0 push config list as v0.3's bare array", v10: true, do: listPush, body: rpc(`[` + pushFlat("c1") + `]`), want: protoErr("result does not decode", nil)},
		{name: "v1.0 push config list with a config of another task", v10: true, do: listPush,
			body: rpc(`{"configs":[` + pushFlat("c1") + `,{"taskId":"t2","url":"https://evil.example/"}]}`), want: protoErr(`result is about task "t2", not "t1"`, nil)},
		{name: "v1.0 push delete answered null", v10: true, do: deletePush, body: rpc(`null`),
			want: all(noError, sent("DeleteTaskPushNotificationConfig", `{"taskId":"t1","id":"c1"}`))},
		{name: "v1.0 push delete answered {}", v10: true, do: deletePush, body: rpc(`{}`), want: noError},
		{name: "v1.0 push delete answered with no result", v10: true, do: deletePush, body: `{"jsonrpc":"2.0","id":{{id}}}`, want: noError},
		{name: "v1.0 push get answered with no result", v10: true, do: getPush, body: `{"jsonrpc":"2.0","id":{{id}}}`, want: protoErr("neither result nor error is present", nil)},
	}
}

// listPage is ListTasksPage with no filters, as a row's call.
func listPage(ctx context.Context, c *a2a.Client) (any, error) {
	page, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{})
	if page == nil {
		return nil, err
	}
	return page, err
}

// listAll is ListTasks with no filters, as a row's call: every task of
// every page.
func listAll(ctx context.Context, c *a2a.Client) (any, error) {
	var tasks []*a2a.Task
	for task, err := range c.ListTasks(ctx, a2a.ListTasksRequest{}) {
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, task)
	}
	return tasks, nil
}

// listed is a v1.0 task with id in state working.
func listed(id string) string {
	return `{"id":"` + id + `","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}`
}

func wantListed(id string) *a2a.Task {
	return &a2a.Task{ID: id, ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking, RawState: "TASK_STATE_WORKING"}}
}

// rawIs wants each listed task's Raw to be its own bytes.
func rawIs(raws ...string) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		var tasks []*a2a.Task
		switch r := o.res.(type) {
		case *a2a.ListTasksResponse:
			tasks = r.Tasks
		case []*a2a.Task:
			tasks = r
		}
		var got []string
		for _, task := range tasks {
			got = append(got, string(task.Raw()))
		}
		if diff := cmp.Diff(raws, got); diff != "" {
			t.Errorf("Raw of each task (-want +got):\n%s", diff)
		}
	}
}

func v10ListRows() []hostileRow {
	return []hostileRow{
		{name: "v1.0 ListTasks page", v10: true, do: listPage, body: rpc(`{"tasks":[` + listed("t1") + `,` + listed("t2") + `],"nextPageToken":"p2","pageSize":2,"totalSize":7}`),
			want: all(is(&a2a.ListTasksResponse{Tasks: []*a2a.Task{wantListed("t1"), wantListed("t2")}, NextPageToken: "p2", PageSize: 2, TotalSize: 7}),
				rawIs(listed("t1"), listed("t2")), sent("ListTasks", `{}`))},
		{name: "v1.0 ListTasks int32 members as strings", v10: true, do: listPage, body: rpc(`{"tasks":[],"nextPageToken":"","pageSize":"20","totalSize":" 7"}`),
			want: is(&a2a.ListTasksResponse{Tasks: []*a2a.Task{}, PageSize: 20, TotalSize: 7})},
		{name: "v1.0 ListTasks pageSize garbage", v10: true, do: listPage, body: rpc(`{"tasks":[],"pageSize":"twenty"}`),
			want: protoErr(`ListTasks result does not decode: pageSize: "twenty" is not an int32`, nil)},
		{name: "v1.0 ListTasks totalSize a bool", v10: true, do: listPage, body: rpc(`{"tasks":[],"totalSize":true}`),
			want: protoErr("ListTasks result does not decode: json: cannot unmarshal bool into Go struct field ListTasksResponse.totalSize of type int32", nil)},
		{name: "v1.0 ListTasks totalSize past int32", v10: true, do: listPage, body: rpc(`{"tasks":[],"totalSize":2147483648}`),
			want: protoErr(`ListTasks result does not decode: totalSize: "2147483648" is not an int32`, nil)},
		{name: "v1.0 ListTasks totalSize a fraction", v10: true, do: listPage, body: rpc(`{"tasks":[],"totalSize":1.5}`),
			want: protoErr(`ListTasks result does not decode: totalSize: "1.5" is not an int32`, nil)},
		{name: "v1.0 ListTasks int32 members whole with an exponent or fraction", v10: true, do: listPage, body: rpc(`{"tasks":[],"pageSize":1e1,"totalSize":"7.0"}`),
			want: is(&a2a.ListTasksResponse{Tasks: []*a2a.Task{}, PageSize: 10, TotalSize: 7})},
		{name: "v1.0 ListTasks without tasks and nextPageToken", v10: true, do: listPage, body: rpc(`{"pageSize":50,"totalSize":0}`),
			want: is(&a2a.ListTasksResponse{Tasks: []*a2a.Task{}, PageSize: 50})},
		{name: "v1.0 ListTasks tasks null", v10: true, do: listPage, body: rpc(`{"tasks":null}`), want: is(&a2a.ListTasksResponse{Tasks: []*a2a.Task{}})},
		{name: "v1.0 ListTasks result null", v10: true, do: listPage, body: rpc(`null`), want: protoErr("result is null where a ListTasksResponse is due", nil)},
		{name: "v1.0 ListTasks a task without id", v10: true, do: listPage, body: rpc(`{"tasks":[` + listed("t1") + `,{"status":{"state":"TASK_STATE_WORKING"}}]}`),
			want: protoErr(`a task in the ListTasks result has no "id"`, nil)},
		{name: "v1.0 ListTasks a task not an object", v10: true, do: listPage, body: rpc(`{"tasks":["t1"]}`), want: protoErr("ListTasks result does not decode", nil)},
		{name: "v1.0 ListTasks followed over pages", v10: true, do: listAll, reqs: 2,
			serve: pages(map[string]string{"": `{"tasks":[` + listed("t1") + `],"nextPageToken":"p2"}`, "p2": `{"tasks":[` + listed("t2") + `,` + listed("t3") + `]}`}),
			want: all(is([]*a2a.Task{wantListed("t1"), wantListed("t2"), wantListed("t3")}), rawIs(listed("t1"), listed("t2"), listed("t3")),
				sentAt(1, "ListTasks", `{"pageToken":"p2"}`))},
		{name: "v1.0 ListTasks whose nextPageToken repeats", v10: true, do: listAll, reqs: 3,
			serve: pages(map[string]string{"": `{"tasks":[` + listed("t1") + `],"nextPageToken":"p2"}`, "p2": `{"tasks":[],"nextPageToken":"p3"}`, "p3": `{"tasks":[],"nextPageToken":"p2"}`}),
			want:  protoErr("nextPageToken repeats a page already read", nil)},
	}
}

// errorInfoWith is an ErrorInfo detail with reason and metadata (a JSON
// object).
func errorInfoWith(reason, metadata string) string {
	return `{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"` + reason + `","domain":"a2a-protocol.org","metadata":` + metadata + `}`
}

func v10ErrorRows() []hostileRow {
	versionInfo := errorInfo("VERSION_NOT_SUPPORTED")
	notFound := errorInfoWith("TASK_NOT_FOUND", `{"taskId":"t1","attempt":3,"when":{"s":1}}`)
	nullMeta := errorInfoWith("TASK_NOT_FOUND", `{"taskId":null}`)
	badRequest := `{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"id","description":"empty"}]}`
	infoDetail := func(raw, reason string, metadata map[string]string) a2a.ErrorDetail {
		return a2a.ErrorDetail{Type: "type.googleapis.com/google.rpc.ErrorInfo", Reason: reason, Domain: "a2a-protocol.org", Metadata: metadata, Raw: json.RawMessage(raw)}
	}
	return []hostileRow{
		{name: "v1.0 -32009 with ErrorInfo details", v10: true, body: rpcError(`{"code":-32009,"message":"A2A version '1.0' is not supported","data":[` + versionInfo + `]}`),
			want: rpcErr(a2a.RPCError{Code: -32009, Message: "A2A version '1.0' is not supported", StatusCode: 200, Hint: hintV03, Data: json.RawMessage(`[` + versionInfo + `]`),
				Details: []a2a.ErrorDetail{infoDetail(versionInfo, "VERSION_NOT_SUPPORTED", nil)}}, a2a.ErrVersionNotSupported, a2a.ErrVersionMismatch)},
		{name: "v1.0 -32009 with HTTP 500", v10: true, status: 500, body: rpcError(`{"code":-32009,"message":"A2A version '1.0' is not supported"}`),
			want: rpcErr(a2a.RPCError{Code: -32009, Message: "A2A version '1.0' is not supported", StatusCode: 500, Hint: hintV03}, a2a.ErrVersionNotSupported, a2a.ErrVersionMismatch)},
		{name: "v1.0 -32601 without data", v10: true, body: rpcError(`{"code":-32601,"message":"Method not found"}`),
			want: all(rpcErr(a2a.RPCError{Code: -32601, Message: "Method not found", StatusCode: 200, Hint: hintMayV03}, a2a.ErrMethodNotFound), notIs(a2a.ErrVersionMismatch))},
		{name: "v1.0 -32601 with details", v10: true, body: rpcError(`{"code":-32601,"message":"method not found","data":[` + errorInfo("METHOD_NOT_FOUND") + `]}`),
			want: all(rpcErr(a2a.RPCError{Code: -32601, Message: "method not found", StatusCode: 200, Data: json.RawMessage(`[` + errorInfo("METHOD_NOT_FOUND") + `]`),
				Details: []a2a.ErrorDetail{infoDetail(errorInfo("METHOD_NOT_FOUND"), "METHOD_NOT_FOUND", nil)}}, a2a.ErrMethodNotFound), notIs(a2a.ErrVersionMismatch))},
		{name: "v1.0 -32001 with ErrorInfo and BadRequest details", v10: true, body: rpcError(`{"code":-32001,"message":"Task not found","data":[` + notFound + `,` + badRequest + `]}`),
			want: all(rpcErr(a2a.RPCError{Code: -32001, Message: "Task not found", StatusCode: 200, Data: json.RawMessage(`[` + notFound + `,` + badRequest + `]`),
				Details: []a2a.ErrorDetail{
					infoDetail(notFound, "TASK_NOT_FOUND", map[string]string{"taskId": "t1", "attempt": "3", "when": `{"s":1}`}),
					{Type: "type.googleapis.com/google.rpc.BadRequest", Raw: json.RawMessage(badRequest)},
				}}, a2a.ErrTaskNotFound), reasonIs("TASK_NOT_FOUND"))},
		{name: "v1.0 ErrorInfo metadata value null", v10: true, body: rpcError(`{"code":-32001,"message":"Task not found","data":[` + nullMeta + `]}`),
			want: rpcErr(a2a.RPCError{Code: -32001, Message: "Task not found", StatusCode: 200, Data: json.RawMessage(`[` + nullMeta + `]`),
				Details: []a2a.ErrorDetail{infoDetail(nullMeta, "TASK_NOT_FOUND", map[string]string{"taskId": "null"})}}, a2a.ErrTaskNotFound)},
		{name: "v1.0 error data a string", v10: true, body: rpcError(`{"code":-32602,"message":"Invalid params","data":"unknown field kind"}`),
			want: all(rpcErr(a2a.RPCError{Code: -32602, Message: "Invalid params", StatusCode: 200, Data: json.RawMessage(`"unknown field kind"`)}, a2a.ErrInvalidParams), reasonIs(""))},
		{name: "v1.0 error data an object", v10: true, body: rpcError(`{"code":-32603,"message":"boom","data":{"error":"x","@type":"y"}}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: "boom", StatusCode: 200, Data: json.RawMessage(`{"error":"x","@type":"y"}`)}, a2a.ErrInternal)},
		{name: "v1.0 error data an array of non-objects", v10: true, body: rpcError(`{"code":-32603,"message":"boom","data":[1,"x",null,[{"@type":"z"}],{"reason":"no type"}]}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: "boom", StatusCode: 200, Data: json.RawMessage(`[1,"x",null,[{"@type":"z"}],{"reason":"no type"}]`)}, a2a.ErrInternal)},
		{name: "v1.0 -32008 extension support required", v10: true, body: rpcError(`{"code":-32008,"message":"Extension required"}`),
			want: rpcErr(a2a.RPCError{Code: -32008, Message: "Extension required", StatusCode: 200,
				Hint: "the agent named no extension; its card's capabilities.extensions lists those it requires"}, a2a.ErrExtensionSupportRequired)},
		{name: "v1.0 -32007 extended card not configured", v10: true, body: rpcError(`{"code":-32007,"message":"no extended card"}`),
			want: rpcErr(a2a.RPCError{Code: -32007, Message: "no extended card", StatusCode: 200}, a2a.ErrExtendedAgentCardNotConfigured)},
		{name: "v1.0 error with HTTP 400", v10: true, status: 400, body: rpcError(`{"code":-32700,"message":"Parse error"}`),
			want: rpcErr(a2a.RPCError{Code: -32700, Message: "Parse error", StatusCode: 400}, a2a.ErrParse)},
		{name: "v1.0 error with HTTP 500", v10: true, status: 500, body: rpcError(`{"code":-32603,"message":"Internal error","data":[` + errorInfo("INTERNAL_ERROR") + `]}`),
			want: all(rpcErr(a2a.RPCError{Code: -32603, Message: "Internal error", StatusCode: 500, Data: json.RawMessage(`[` + errorInfo("INTERNAL_ERROR") + `]`),
				Details: []a2a.ErrorDetail{infoDetail(errorInfo("INTERNAL_ERROR"), "INTERNAL_ERROR", nil)}}, a2a.ErrInternal), reasonIs("INTERNAL_ERROR"))},
		{name: "v1.0 a2a-go's -31401", v10: true, body: rpcError(`{"code":-31401,"message":"unauthenticated","data":[` + errorInfo("UNAUTHENTICATED") + `]}`),
			want: rpcErr(a2a.RPCError{Code: -31401, Message: "unauthenticated", StatusCode: 200, Data: json.RawMessage(`[` + errorInfo("UNAUTHENTICATED") + `]`),
				Details: []a2a.ErrorDetail{infoDetail(errorInfo("UNAUTHENTICATED"), "UNAUTHENTICATED", nil)}})},
	}
}

// reasonIs wants the *RPCError's Reason() to be reason.
func reasonIs(reason string) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		re, ok := errors.AsType[*a2a.RPCError](o.err)
		if !ok {
			t.Fatalf("err = %v, want *RPCError", o.err)
		}
		if got := re.Reason(); got != reason {
			t.Errorf("Reason() = %q, want %q", got, reason)
		}
	}
}

// sendMsg sends msg with opts, as a row's call.
func sendMsg(msg a2a.Message, opts ...a2a.CallOption) func(ctx context.Context, c *a2a.Client) (any, error) {
	return func(ctx context.Context, c *a2a.Client) (any, error) {
		res, err := c.SendMessage(ctx, msg, opts...)
		if res == nil {
			return nil, err
		}
		return res, err
	}
}

// getTask gets task t1 with opts, as a row's call.
func getTask(opts ...a2a.CallOption) func(ctx context.Context, c *a2a.Client) (any, error) {
	return func(ctx context.Context, c *a2a.Client) (any, error) {
		task, err := c.GetTask(ctx, "t1", opts...)
		if task == nil {
			return nil, err
		}
		return task, err
	}
}

func v10RequestRows() []hostileRow {
	send := `{"task":` + v10Task + `}`
	sendMessage := `{"message":{"messageId":"*","role":"ROLE_USER","parts":[{"text":"查询设备"}]}`
	every := a2a.Message{MessageID: "m-1", TaskID: "t1", ContextID: "c1", ReferenceTaskIDs: []string{"t0"}, Extensions: []string{"urn:x"}, Metadata: json.RawMessage(`{"k":1}`),
		Parts: a2a.Parts{
			a2a.TextPart{Text: "看图", MediaType: "text/plain", Filename: "q.txt", Metadata: json.RawMessage(`{"p":1}`)},
			a2a.DataPart{Data: json.RawMessage(`[1,2]`), MediaType: "application/json"},
			a2a.NewFileBytes("qr.png", "image/png", []byte("hi")),
			a2a.FilePart{File: a2a.FileContent{URI: "https://files.example/qr.png", Name: "qr.png", MIMEType: "image/png"}},
			a2a.UnknownPart{Raw: json.RawMessage(`{"video":"v"}`)},
		}}
	pushCfg := a2a.TaskPushNotificationConfig{TaskID: "t1", PushNotificationConfig: a2a.PushNotificationConfig{ID: "c1", URL: "https://hooks.example/c1", Token: "tok-c1",
		Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: "cred-c1"}}}
	withTenant := []a2a.Option{a2a.WithTenant("acme")}
	card := `{"name":"agent","description":"d","version":"1","capabilities":{"streaming":true}}`
	return []hostileRow{
		{name: "v1.0 SendMessage request, blocking by default", v10: true, call: "send", body: rpc(send), want: all(isTask(wantV10Task(nil)), sent("SendMessage", sendMessage+`}`))},
		{name: "v1.0 SendMessage request with Blocking(false)", v10: true, do: sendMsg(a2a.NewTextMessage("查询设备"), a2a.Blocking(false)), body: rpc(send),
			want: sent("SendMessage", sendMessage+`,"configuration":{"returnImmediately":true}}`)},
		{name: "v1.0 SendMessage request with Blocking(true) and HistoryLength(0)", v10: true, do: sendMsg(a2a.NewTextMessage("查询设备"), a2a.Blocking(true), a2a.HistoryLength(0), a2a.AcceptedOutputModes("text/plain")),
			body: rpc(send), want: sent("SendMessage", sendMessage+`,"configuration":{"acceptedOutputModes":["text/plain"],"historyLength":0}}`)},
		{name: "v1.0 SendMessage request with Webhook", v10: true, do: sendMsg(a2a.NewTextMessage("查询设备"), a2a.Webhook(pushCfg.PushNotificationConfig)), body: rpc(send),
			want: sent("SendMessage", sendMessage+`,"configuration":{"taskPushNotificationConfig":{"id":"c1","url":"https://hooks.example/c1","token":"tok-c1","authentication":{"scheme":"Bearer","credentials":"cred-c1"}}}}`)},
		{name: "v1.0 SendMessage request with Webhook of two schemes", v10: true, reqs: -1, body: rpc(send),
			do: sendMsg(a2a.NewTextMessage("查询设备"), a2a.Webhook(a2a.PushNotificationConfig{URL: "https://hooks.example/c1",
				Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer", "Basic"}}})),
			want: refused[error]("exactly one authentication scheme per push config")},
		{name: "v1.0 SendMessage request with every part and member", v10: true, do: sendMsg(every, a2a.Tenant("acme")), body: rpc(send),
			want: sent("SendMessage", `{"tenant":"acme","message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"看图","mediaType":"text/plain","filename":"q.txt","metadata":{"p":1}},`+
				`{"data":[1,2],"mediaType":"application/json"},{"raw":"aGk=","mediaType":"image/png","filename":"qr.png"},{"url":"https://files.example/qr.png","mediaType":"image/png","filename":"qr.png"},{"video":"v"}],`+
				`"taskId":"t1","contextId":"c1","referenceTaskIds":["t0"],"extensions":["urn:x"],"metadata":{"k":1}}}`)},
		{name: "v1.0 SendMessage request with an agent role", v10: true, do: sendMsg(a2a.Message{Role: a2a.RoleAgent, Parts: a2a.Parts{a2a.DataPart{Data: json.RawMessage(`null`)}}}), body: rpc(send),
			want: sent("SendMessage", `{"message":{"messageId":"*","role":"ROLE_AGENT","parts":[{"data":null}]}}`)},
		{name: "v1.0 GetTask request with HistoryLength(0)", v10: true, do: getTask(a2a.HistoryLength(0)), body: rpc(v10Task), want: sent("GetTask", `{"id":"t1","historyLength":0}`)},
		{name: "v1.0 GetTask request with WithTenant", v10: true, opts: withTenant, body: rpc(v10Task), want: all(isTask(wantV10Task(nil)), sent("GetTask", `{"tenant":"acme","id":"t1"}`))},
		{name: "v1.0 GetTask request with a Tenant call option over WithTenant", v10: true, opts: withTenant, do: getTask(a2a.Tenant("other")), body: rpc(v10Task),
			want: sent("GetTask", `{"tenant":"other","id":"t1"}`)},
		{name: "v1.0 GetTask request with an empty Tenant call option", v10: true, opts: withTenant, do: getTask(a2a.Tenant("")), body: rpc(v10Task), want: sent("GetTask", `{"id":"t1"}`)},
		{name: "v1.0 CancelTask request", v10: true, opts: withTenant, call: "cancel", body: rpc(v10Task), want: sent("CancelTask", `{"tenant":"acme","id":"t1"}`)},
		{name: "v1.0 SendStreamingMessage request with a tenant", v10: true, opts: withTenant, do: stream, header: sseHeader, body: sse(working, statusEvent("TASK_STATE_COMPLETED")),
			want: sent("SendStreamingMessage", `{"tenant":"acme",`+sendMessage[1:]+`}`)},
		{name: "v1.0 GetExtendedAgentCard request", v10: true, body: rpc(card),
			do: func(ctx context.Context, c *a2a.Client) (any, error) {
				card, err := c.GetExtendedAgentCard(ctx)
				if card == nil {
					return nil, err
				}
				return card.Name, err
			},
			want: all(is("agent"), sent("GetExtendedAgentCard", `{}`))},
		{name: "v1.0 GetExtendedAgentCard request with a tenant", v10: true, opts: withTenant, body: rpc(card),
			do: func(ctx context.Context, c *a2a.Client) (any, error) {
				_, err := c.GetExtendedAgentCard(ctx)
				return nil, err
			},
			want: sent("GetExtendedAgentCard", `{"tenant":"acme"}`)},
		{name: "v1.0 CreateTaskPushNotificationConfig request", v10: true, opts: withTenant, body: rpc(pushFlat("c1")),
			do: func(ctx context.Context, c *a2a.Client) (any, error) {
				cfg, err := c.CreateTaskPushNotificationConfig(ctx, pushCfg)
				if cfg == nil {
					return nil, err
				}
				return cfg, err
			},
			want: all(is(ptr(wantPush("c1"))), sent("CreateTaskPushNotificationConfig",
				`{"tenant":"acme","id":"c1","taskId":"t1","url":"https://hooks.example/c1","token":"tok-c1","authentication":{"scheme":"Bearer","credentials":"cred-c1"}}`))},
		{name: "v1.0 GetTaskPushNotificationConfig request", v10: true, do: getPush, body: rpc(pushFlat("c1")), want: sent("GetTaskPushNotificationConfig", `{"taskId":"t1","id":"c1"}`)},
		{name: "v1.0 ListTaskPushNotificationConfigs request", v10: true, opts: withTenant, do: listPush, body: rpc(`{"configs":[]}`),
			want: sent("ListTaskPushNotificationConfigs", `{"tenant":"acme","taskId":"t1"}`)},
		{name: "v1.0 ListTasks request with every filter", v10: true, body: rpc(`{"tasks":[]}`),
			do: func(ctx context.Context, c *a2a.Client) (any, error) {
				_, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{ContextID: "c1", Status: a2a.TaskStateInputRequired, PageSize: 20, PageToken: "p1",
					StatusTimestampAfter: time.Date(2026, 5, 1, 18, 0, 0, 123456789, time.FixedZone("CST", 8*3600)), IncludeArtifacts: true}, a2a.HistoryLength(0))
				return nil, err
			},
			want: sent("ListTasks", `{"contextId":"c1","status":"TASK_STATE_INPUT_REQUIRED","pageSize":20,"pageToken":"p1","historyLength":0,"statusTimestampAfter":"2026-05-01T10:00:00.123Z","includeArtifacts":true}`)},
		// Refused before anything is sent.
		{name: "Tenant on a v0.3 client's call", reqs: -1, do: getTask(a2a.Tenant("acme")), body: rpc(completedTask), want: refused[error]("A2A v1.0")},
		{name: "ListTasks on a v0.3 client", reqs: -1, do: listPage, body: rpc(`{}`),
			want: all(refused[*a2a.UnsupportedByVersionError]("ListTasks is not in A2A v0.3"), func(t *testing.T, o outcome) {
				if !errors.Is(o.err, a2a.ErrUnsupportedOperation) {
					t.Errorf("errors.Is(%v, ErrUnsupportedOperation) = false", o.err)
				}
			})},
		{name: "ListTasks pages on a v0.3 client", reqs: -1, do: listAll, body: rpc(`{}`), want: refused[*a2a.UnsupportedByVersionError]("ListTasks")},
		{name: "v1.0 FilePart with both bytes and uri", v10: true, reqs: -1, body: rpc(send),
			do:   sendMsg(a2a.Message{Parts: a2a.Parts{a2a.TextPart{Text: "x"}, a2a.FilePart{File: a2a.FileContent{Bytes: "aGk=", URI: "https://files.example/x"}}}}),
			want: refused[error]("part 1: a file needs exactly one of bytes and uri")},
		{name: "v1.0 FilePart with neither bytes nor uri", v10: true, reqs: -1, body: rpc(send),
			do: sendMsg(a2a.Message{Parts: a2a.Parts{a2a.FilePart{File: a2a.FileContent{Name: "x"}}}}), want: refused[error]("part 0: a file needs exactly one of bytes and uri")},
		{name: "v1.0 UnknownPart of a v0.3 kind", v10: true, reqs: -1, body: rpc(send),
			do: sendMsg(a2a.Message{Parts: a2a.Parts{a2a.UnknownPart{PartKind: "video", Raw: json.RawMessage(`{"kind":"video"}`)}}}), want: refused[error](`UnknownPart of kind "video" cannot be sent`)},
		pushSchemesRow("v1.0 push config with two schemes", pushCfg, "Bearer", "Basic"),
		pushSchemesRow("v1.0 push config with credentials and no scheme", pushCfg),
		pushSchemesRow("v1.0 push config with an empty scheme", pushCfg, ""),
		{name: "v1.0 GetTaskPushNotificationConfig without a config id", v10: true, reqs: -1, body: rpc(pushFlat("c1")),
			do: func(ctx context.Context, c *a2a.Client) (any, error) {
				_, err := c.GetTaskPushNotificationConfig(ctx, "t1", "")
				return nil, err
			},
			want: refused[error]("A2A v1.0 needs the config id")},
		{name: "v1.0 ListTasks page size over 100", v10: true, reqs: -1, body: rpc(`{}`),
			do: func(ctx context.Context, c *a2a.Client) (any, error) {
				_, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{PageSize: 101})
				return nil, err
			},
			want: refused[error]("page size 101 out of range 0..100")},
		{name: "v1.0 ListTasks state with no v1.0 name", v10: true, reqs: -1, body: rpc(`{}`),
			do: func(ctx context.Context, c *a2a.Client) (any, error) {
				_, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{Status: "paused"})
				return nil, err
			},
			want: refused[error](`state "paused" has no A2A v1.0 name`)},
	}
}

// TestV10TenantNeedsV10Client: WithTenant makes no v0.3 client; with
// WithProtocolVersion(ProtocolV10) it makes one that speaks v1.0.
func TestV10TenantNeedsV10Client(t *testing.T) {
	if _, err := a2a.NewClient(mockURL, a2a.WithTenant("acme")); err == nil || !strings.Contains(err.Error(), "v1.0") {
		t.Errorf("WithTenant on a v0.3 client: %v, want an error naming v1.0", err)
	}
	c, err := a2a.NewClient(mockURL, a2a.WithTenant("acme"), a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil || c.ProtocolVersion() != a2a.ProtocolV10 {
		t.Errorf("WithTenant on a v1.0 client: %v, %v", c.ProtocolVersion(), err)
	}
}

// TestV10PushAndCardNames: v1.0 push configs and extended cards pass the
// name check: a member repeated or in another case, at any depth the
// client reads, is a *ProtocolError naming it, never a second reading of
// the webhook or the card.
func TestV10PushAndCardNames(t *testing.T) {
	ctx := context.Background()
	card := func(c *a2a.Client) error { _, err := c.GetExtendedAgentCard(ctx); return err }
	get := func(c *a2a.Client) error { _, err := c.GetTaskPushNotificationConfig(ctx, "t1", "c1"); return err }
	list := func(c *a2a.Client) error { _, err := c.ListTaskPushNotificationConfigs(ctx, "t1"); return err }
	set := func(c *a2a.Client) error {
		_, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: "t1", PushNotificationConfig: a2a.PushNotificationConfig{URL: "https://good.example/hook"}})
		return err
	}
	for _, tt := range []struct {
		name, result string
		call         func(*a2a.Client) error
		want         string
	}{
		{"push config URL beside url", `{"taskId":"t1","id":"c1","url":"https://good.example/hook","URL":"https://evil.example/hook"}`, get, `member "URL" is "url" in another case`},
		{"push config url twice", `{"taskId":"t1","id":"c1","url":"https://good.example/hook","url":"https://evil.example/hook"}`, get, `member "url" appears twice`},
		{"push config TaskId beside taskId", `{"taskId":"t1","TaskId":"t2","url":"https://good.example/hook"}`, set, `member "TaskId" is "taskId" in another case`},
		{"push config Scheme beside scheme", `{"taskId":"t1","url":"https://good.example/hook","authentication":{"scheme":"Bearer","Scheme":"Basic"}}`, get, `member "Scheme" is "scheme" in another case`},
		{"push config credentials twice", `{"taskId":"t1","url":"https://good.example/hook","authentication":{"scheme":"Bearer","credentials":"a","credentials":"b"}}`, get, `member "credentials" appears twice`},
		{"push list Configs beside configs", `{"configs":[],"Configs":[{"taskId":"t1","url":"https://evil.example/hook"}]}`, list, `member "Configs" is "configs" in another case`},
		{"push list nextPageToken twice", `{"configs":[],"nextPageToken":"","nextPageToken":"p2"}`, list, `member "nextPageToken" appears twice`},
		{"push list a config with url twice", `{"configs":[{"taskId":"t1","url":"https://good.example/hook","url":"https://evil.example/hook"}]}`, list, `member "url" appears twice`},
		{"card Streaming beside streaming", `{"name":"a","capabilities":{"streaming":false,"Streaming":true}}`, card, `member "Streaming" is "streaming" in another case`},
		{"card name twice", `{"name":"a","name":"b"}`, card, `member "name" appears twice`},
		{"card skill id twice", `{"name":"a","skills":[{"id":"s1","id":"s2"}]}`, card, `member "id" appears twice`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newMock(t, []mockReply{rpcReply([]byte(`{"jsonrpc":"2.0","id":1,"result":` + tt.result + `}`))}, a2a.WithProtocolVersion(a2a.ProtocolV10))
			err := tt.call(c)
			if pe, ok := errors.AsType[*a2a.ProtocolError](err); !ok || !strings.Contains(pe.Reason, tt.want) {
				t.Errorf("err = %v, want a *ProtocolError saying %q", err, tt.want)
			}
		})
	}
	// Keys of the agent's choosing may differ in case freely.
	c, _ := newMock(t, []mockReply{rpcReply([]byte(`{"jsonrpc":"2.0","id":1,"result":{"name":"a","securitySchemes":{"Bearer":{"type":"http"},"bearer":{"type":"http"}}}}`))},
		a2a.WithProtocolVersion(a2a.ProtocolV10))
	if got, err := c.GetExtendedAgentCard(ctx); err != nil || len(got.SecuritySchemes) != 2 {
		t.Errorf("card with two scheme names in different cases: %v, %v", got, err)
	}
}

// pushSchemesRow: a push config whose authentication has schemes other
// than exactly one is refused on v1.0 before sending (AuthenticationInfo
// has one required scheme).
func pushSchemesRow(name string, cfg a2a.TaskPushNotificationConfig, schemes ...string) hostileRow {
	return hostileRow{name: name, v10: true, reqs: -1, body: rpc(pushFlat("c1")),
		do: func(ctx context.Context, c *a2a.Client) (any, error) {
			cfg.PushNotificationConfig.Authentication = &a2a.PushNotificationAuthenticationInfo{Schemes: schemes, Credentials: "secret"}
			_, err := c.CreateTaskPushNotificationConfig(ctx, cfg)
			return nil, err
		},
		want: refused[error]("exactly one authentication scheme per push config")}
}

// TestV10TaskWithKind: a task with v0.3's "kind" inside a v1.0 reply (a
// send's wrapper, a stream event, a ListTasks page) is refused as GetTask
// refuses a bare one: its stored bytes would read back as v0.3.
func TestV10TaskWithKind(t *testing.T) {
	task := `{"id":"t1","kind":"task","status":{"state":3}}`
	for _, tc := range []struct {
		name, result string
		call         func(ctx context.Context, c *a2a.Client) error
	}{
		{"send", `{"task":` + task + `}`, func(ctx context.Context, c *a2a.Client) error { _, err := c.SendText(ctx, "hi"); return err }},
		{"get", task, func(ctx context.Context, c *a2a.Client) error { _, err := c.GetTask(ctx, "t1"); return err }},
		{"list", `{"tasks":[` + task + `]}`, func(ctx context.Context, c *a2a.Client) error {
			_, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{})
			return err
		}},
	} {
		c, _ := newMock(t, []mockReply{rpcReply([]byte(`{"jsonrpc":"2.0","id":1,"result":` + tc.result + `}`))}, a2a.WithProtocolVersion(a2a.ProtocolV10))
		err := tc.call(context.Background(), c)
		if _, ok := err.(*a2a.ProtocolError); !ok || !errors.Is(err, a2a.ErrVersionMismatch) {
			t.Errorf("%s: %v; want a *ProtocolError matching ErrVersionMismatch", tc.name, err)
		}
	}
}
