package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestTaskWithoutID: a "task" result with no id cannot be polled or
// followed up; it is a protocol error, never an empty task.
func TestTaskWithoutID(t *testing.T) {
	c, _ := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: newEcho(t,
		`{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","status":{"state":"completed"}}}`, 0, false)}))
	_, err := c.SendText(context.Background(), "x")
	if pe, ok := errors.AsType[*a2a.ProtocolError](err); !ok || !strings.Contains(pe.Reason, `no "id"`) {
		t.Errorf("err = %v", err)
	}
}

// resultRows are results of the wrong shape, kind or spelling, and names that repeat or differ in case (the v0.3 binding's result rules).
// mappedState is a row for a task whose state is sent spelled as sent: the
// result carries want, and sent in RawState.
func mappedState(name, sent string, want a2a.TaskState) hostileRow {
	return hostileRow{name: name, body: rpc(taskWith(`{"state":"` + sent + `"}`)),
		want: isTask(wantTask(func(t *a2a.Task) { t.Status = a2a.TaskStatus{State: want, RawState: sent} }))}
}

func resultRows() []hostileRow {
	v1Task := `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}`
	return []hostileRow{
		{name: "task without kind", body: rpc(`{"id":"t1","contextId":"c1","status":{"state":"completed"}}`), want: isTask(wantTask(nil))},
		{name: "task without kind on message/send", call: "send", body: rpc(`{"id":"t1","contextId":"c1","status":{"state":"completed"}}`), want: isTask(wantTask(nil))},
		{name: "message without kind", call: "send", body: rpc(`{"messageId":"m1","role":"agent","parts":[{"kind":"text","text":"hi"}]}`),
			want: isMessage(&a2a.Message{MessageID: "m1", Role: a2a.RoleAgent, Parts: a2a.Parts{a2a.TextPart{Text: "hi"}}})},
		{name: "empty object on tasks/get", body: rpc(`{}`), want: protoErr("not shaped like a Task", nil)},
		{name: "empty object on message/send", call: "send", body: rpc(`{}`), want: protoErr("shaped like neither a Task nor a Message", nil)},
		{name: "kind status-update on message/send", call: "send", body: rpc(`{"kind":"status-update","taskId":"t1","status":{"state":"working"}}`), want: protoErr(`result kind "status-update" is neither`, nil)},
		{name: "kind message on tasks/get", body: rpc(`{"kind":"message","messageId":"m","role":"agent","parts":[]}`), want: protoErr(`result kind "message" where a Task is due`, nil)},
		{name: "kind not a string", body: rpc(`{"kind":5,"id":"t1","status":{"state":"completed"}}`), want: protoErr(`"kind" is not a string`, nil)},
		{name: "result an array", body: rpc(`[` + completedTask + `]`), want: protoErr("result is not a JSON object", nil)},
		{name: "result a string", call: "send", body: rpc(`"completed"`), want: protoErr("result is not a JSON object", nil)},
		{name: "task without id", body: rpc(`{"kind":"task","status":{"state":"completed"}}`), want: protoErr(`task result has no "id"`, nil)},
		{name: "another task on tasks/get", body: rpc(`{"kind":"task","id":"someone-elses-task","status":{"state":"completed"}}`),
			want: protoErr(`result is about task "someone-elses-task", not "t1", the task asked about`, nil)},
		{name: "another task on tasks/cancel", call: "cancel", body: rpc(`{"kind":"task","id":"someone-elses-task","status":{"state":"canceled"}}`),
			want: protoErr(`result is about task "someone-elses-task", not "t1"`, nil)},
		{name: "task on tasks/cancel", call: "cancel", body: rpc(taskWith(`{"state":"canceled"}`)), want: isTask(wantTask(func(t *a2a.Task) { t.Status.State = a2a.TaskStateCanceled }))},
		{name: "v1.0 result wrapped as task", call: "send", body: rpc(`{"task":` + v1Task + `}`), want: protoErr(`wrapped as {"task": …}`, a2a.ErrVersionMismatch)},
		{name: "v1.0 result wrapped as message", call: "send", body: rpc(`{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`), want: protoErr(`wrapped as {"message": …}`, a2a.ErrVersionMismatch)},
		{name: "v1.0 wrapped result on tasks/get", body: rpc(`{"task":` + v1Task + `}`), want: protoErr(`wrapped as {"task": …}`, a2a.ErrVersionMismatch)},
		{name: "v1.0 VersionNotSupportedError", body: rpcError(`{"code":-32009,"message":"Version not supported"}`),
			want: rpcErr(a2a.RPCError{Code: -32009, Message: "Version not supported", StatusCode: 200, Hint: hintV10}, a2a.ErrVersionNotSupported, a2a.ErrVersionMismatch)},
		{name: "v1.0 state completed", body: rpc(v1Task), want: isTask(wantTask(func(t *a2a.Task) { t.Status.RawState = "TASK_STATE_COMPLETED" }))},
		{name: "v1.0 method not found with details", body: rpcError(`{"code":-32601,"message":"method not found","data":[` + errorInfo("METHOD_NOT_FOUND") + `]}`),
			want: rpcErr(a2a.RPCError{Code: -32601, Message: "method not found", StatusCode: 200, Hint: hintV10, Data: json.RawMessage(`[` + errorInfo("METHOD_NOT_FOUND") + `]`),
				Details: []a2a.ErrorDetail{{Type: "type.googleapis.com/google.rpc.ErrorInfo", Reason: "METHOD_NOT_FOUND", Domain: "a2a-protocol.org", Raw: json.RawMessage(errorInfo("METHOD_NOT_FOUND"))}}},
				a2a.ErrMethodNotFound, a2a.ErrVersionMismatch)},
		{name: "v0.3 method not found", body: rpcError(`{"code":-32601,"message":"method not found"}`),
			want: rpcErr(a2a.RPCError{Code: -32601, Message: "method not found", StatusCode: 200}, a2a.ErrMethodNotFound)},
		mappedState("the British cancelled", "cancelled", a2a.TaskStateCanceled),
		mappedState("v0.3 gRPC enum spelling, British", "TASK_STATE_CANCELLED", a2a.TaskStateCanceled),
		mappedState("a state in capitals", "COMPLETED", a2a.TaskStateCompleted),
		mappedState("a state with an underscore", "input_required", a2a.TaskStateInputRequired),
		mappedState("v1.0 state canceled", "TASK_STATE_CANCELED", a2a.TaskStateCanceled),
		mappedState("v1.0 state input required", "TASK_STATE_INPUT_REQUIRED", a2a.TaskStateInputRequired),
		mappedState("v1.0 state unspecified", "TASK_STATE_UNSPECIFIED", a2a.TaskStateUnknown),
		{name: "v1.0-looking state nobody knows", body: rpc(taskWith(`{"state":"TASK_STATE_PAUSED"}`)),
			want: isTask(wantTask(func(t *a2a.Task) { t.Status = a2a.TaskStatus{State: "TASK_STATE_PAUSED"} }))},
		{name: "v1.0 roles", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"failed","message":{"kind":"message","messageId":"m2","role":"ROLE_AGENT","parts":[{"kind":"text","text":"码不存在"}]}},` +
			`"history":[{"kind":"message","messageId":"m1","role":"ROLE_USER","parts":[{"kind":"text","text":"查"}]}]}`),
			want: isTask(wantTask(func(t *a2a.Task) {
				t.Status = a2a.TaskStatus{State: a2a.TaskStateFailed, Message: &a2a.Message{MessageID: "m2", Role: a2a.RoleAgent, RawRole: "ROLE_AGENT", Parts: a2a.Parts{a2a.TextPart{Text: "码不存在"}}}}
				t.History = []a2a.Message{{MessageID: "m1", Role: a2a.RoleUser, RawRole: "ROLE_USER", Parts: a2a.Parts{a2a.TextPart{Text: "查"}}}}
			}))},
		{name: "state nobody knows", body: rpc(taskWith(`{"state":"paused"}`)), want: isTask(wantTask(func(t *a2a.Task) { t.Status.State = "paused" }))},
		{name: "state absent", body: rpc(taskWith(`{}`)), want: isTask(wantTask(func(t *a2a.Task) { t.Status.State = "" }))},
		{name: "state spelled State only", body: rpc(taskWith(`{"State":"completed"}`)), want: protoErr(`member "State" is "state" in another case`, nil)},
		{name: "status beside a Status", body: rpc(`{"kind":"task","id":"t1","status":{"state":"failed"},"Status":{"state":"completed"}}`),
			want: protoErr(`member "Status" is "status" in another case`, nil)},
		{name: "kind beside a Kind", call: "send", body: rpc(`{"kind":"task","Kind":"message","id":"t1","status":{"state":"completed"}}`),
			want: protoErr(`member "Kind" is "kind" in another case`, nil)},
		{name: "an Id beside the id", body: `{"jsonrpc":"2.0","id":99,"Id":{{id}},"result":` + completedTask + `}`,
			want: protoErr(`member "Id" is "id" in another case`, nil)},
		{name: "envelope names in capitals", body: `{"JSONRPC":"2.0","ID":{{id}},"RESULT":` + completedTask + `}`,
			want: protoErr(`member "JSONRPC" is "jsonrpc" in another case`, nil)},
		{name: "an escaped, Unicode-folded state name", body: rpc(taskWith(`{"state":"failed","ſtate":"completed"}`)),
			want: protoErr(`member "ſtate" is "state" in another case`, nil)},
		{name: "result twice", body: `{"jsonrpc":"2.0","id":{{id}},"result":` + completedTask + `,"result":{"kind":"task","id":"t2"}}`,
			want: protoErr(`member "result" appears twice`, nil)},
		{name: "state twice", body: rpc(taskWith(`{"state":"failed","state":"completed"}`)), want: protoErr(`member "state" appears twice`, nil)},
		{name: "case-variant names inside data and metadata", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"metadata":{"Status":1,"status":2},` +
			`"artifacts":[{"artifactId":"a1","name":"entity","parts":[{"kind":"data","data":{"State":"正常","state":"x","Kind":"设备","kind":"y"}}]}]}`),
			want: isTask(wantTask(func(t *a2a.Task) {
				t.Metadata = json.RawMessage(`{"Status":1,"status":2}`)
				t.Artifacts = []a2a.Artifact{{ArtifactID: "a1", Name: "entity", Parts: a2a.Parts{a2a.DataPart{Data: json.RawMessage(`{"State":"正常","state":"x","Kind":"设备","kind":"y"}`)}}}}
			}))},
		{name: "invalid UTF-8 in state and timestamp", body: rpc(taskWith("{\"state\":\"done\xff\",\"timestamp\":\"2025\xfe\"}")),
			want: isTask(wantTask(func(t *a2a.Task) { t.Status = a2a.TaskStatus{State: "done\uFFFD", Timestamp: "2025\uFFFD"} }))},
		{name: "state a number", body: rpc(taskWith(`{"state":3}`)), want: protoErr("task result does not decode: json: cannot unmarshal number into Go struct field Task.status.state", nil)},
		{name: "status a string", body: rpc(`{"kind":"task","id":"t1","status":"completed"}`), want: protoErr("task result does not decode: json: cannot unmarshal string into Go struct field Task.status", nil)},
	}
}

// TestResultFaults runs the result rows of the hostile-server table.
func TestResultFaults(t *testing.T) { runRows(t, resultRows()) }

// hintV10 is the hint of a v0.3 client's error that shows a v1.0 agent.
const hintV10 = "the agent answers as an A2A v1.0 agent: make the client with WithProtocolVersion(ProtocolV10), or from its agent card with NewClientFromCard"

// errorInfo is an A2A v1.0 ErrorInfo detail with reason.
func errorInfo(reason string) string {
	return `{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"` + reason + `","domain":"a2a-protocol.org"}`
}
