package a2a_test

import (
	"bytes"
	stdcmp "cmp"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The A2A v1.0 decoder's rows of the hostile-server table (wire_v10.go):
// flat parts, enums as names and numbers, null and snake_case members,
// member names that repeat or differ in case; then the round trip of
// stored v1.0 bytes and the v1.0 reply fuzzer.

// TestV10Parts runs the part rows.
func TestV10Parts(t *testing.T) { runRows(t, v10PartRows()) }

// TestV10Enums runs the enum rows.
func TestV10Enums(t *testing.T) { runRows(t, v10EnumRows()) }

// TestV10Names runs the member-name rows.
func TestV10Names(t *testing.T) { runRows(t, v10NameRows()) }

// v10Artifact is v10Task with one artifact holding parts.
func v10Artifact(parts string) string {
	return `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a1","name":"entity","parts":` + parts + `}]}`
}

// v10ArtifactOf is the task v10Artifact decodes to.
func v10ArtifactOf(parts ...a2a.Part) *a2a.Task {
	return wantV10Task(func(t *a2a.Task) {
		t.Artifacts = []a2a.Artifact{{ArtifactID: "a1", Name: "entity", Parts: a2a.Parts(parts)}}
	})
}

func v10PartRows() []hostileRow {
	row := func(name, parts string, want expect) hostileRow {
		return hostileRow{name: name, v10: true, body: rpc(v10Artifact(parts)), want: want}
	}
	return []hostileRow{
		row("v1.0 data parts of every JSON type", `[{"data":"设备"},{"data":{"a":1}},{"data":[1,2]},{"data":42},{"data":null},{"data":true}]`,
			isTask(v10ArtifactOf(a2a.DataPart{Data: json.RawMessage(`"设备"`)}, a2a.DataPart{Data: json.RawMessage(`{"a":1}`)}, a2a.DataPart{Data: json.RawMessage(`[1,2]`)},
				a2a.DataPart{Data: json.RawMessage(`42`)}, a2a.DataPart{Data: json.RawMessage(`null`)}, a2a.DataPart{Data: json.RawMessage(`true`)}))),
		row("v1.0 part with text and data", `[{"text":"a","data":{"b":1}}]`,
			protoErr("task result does not decode: artifacts[0].parts[0]: part has text and data; A2A v1.0 allows one content member", nil)),
		row("v1.0 part with raw and url", `[{"raw":"aGk=","url":"https://files.example/x"}]`, protoErr("part has raw and url; A2A v1.0 allows one content member", nil)),
		row("v1.0 part with text and a null data", `[{"text":"a","data":null}]`, protoErr("part has text and data", nil)),
		row("v1.0 part with text and a null url", `[{"text":"a","url":null,"raw":null}]`, isTask(v10ArtifactOf(a2a.TextPart{Text: "a"}))),
		row("v1.0 part with no content member", `[{"video":"https://x/v.mp4","mediaType":"video/mp4"},{"text":"摘要"}]`,
			isTask(v10ArtifactOf(a2a.UnknownPart{Raw: json.RawMessage(`{"video":"https://x/v.mp4","mediaType":"video/mp4"}`)}, a2a.TextPart{Text: "摘要"}))),
		row("v1.0 part of only null content members", `[{"text":null}]`, isTask(v10ArtifactOf(a2a.UnknownPart{Raw: json.RawMessage(`{"text":null}`)}))),
		row("v1.0 parts that are not objects", `["x",7]`, isTask(v10ArtifactOf(a2a.UnknownPart{Raw: json.RawMessage(`"x"`)}, a2a.UnknownPart{Raw: json.RawMessage(`7`)}))),
		row("v1.0 raw in URL-safe base64 without padding", `[{"raw":"aGn7_w","mediaType":"application/octet-stream","filename":"b.bin"}]`,
			all(isTask(v10ArtifactOf(a2a.FilePart{File: a2a.FileContent{Bytes: "aGn7_w", MIMEType: "application/octet-stream", Name: "b.bin"}})), fileDecode("hi\xfb\xff", ""))),
		row("v1.0 raw in standard base64", `[{"raw":"aGn7/w=="}]`, all(isTask(v10ArtifactOf(a2a.FilePart{File: a2a.FileContent{Bytes: "aGn7/w=="}})), fileDecode("hi\xfb\xff", ""))),
		row("v1.0 raw empty", `[{"raw":""}]`, all(isTask(v10ArtifactOf(a2a.FilePart{})), fileDecode("", "neither bytes nor uri"))),
		row("v1.0 url part with filename and mediaType", `[{"url":"https://files.example/r.pdf","mediaType":"application/pdf","filename":"r.pdf","metadata":{"pages":3}}]`,
			all(isTask(v10ArtifactOf(a2a.FilePart{File: a2a.FileContent{URI: "https://files.example/r.pdf", MIMEType: "application/pdf", Name: "r.pdf"}, Metadata: json.RawMessage(`{"pages":3}`)})),
				fileDecode("", "given by uri"))),
		row("v1.0 text part with mediaType and filename", `[{"text":"# 报告","mediaType":"text/markdown","filename":"r.md"}]`,
			isTask(v10ArtifactOf(a2a.TextPart{Text: "# 报告", MediaType: "text/markdown", Filename: "r.md"}))),
		row("v1.0 data part with mediaType and filename", `[{"data":{"a":1},"media_type":"application/json","filename":"d.json"}]`,
			isTask(v10ArtifactOf(a2a.DataPart{Data: json.RawMessage(`{"a":1}`), MediaType: "application/json", Filename: "d.json"}))),
		row("v1.0 empty text", `[{"text":""}]`, isTask(v10ArtifactOf(a2a.TextPart{}))),
		row("v1.0 text a number", `[{"text":5}]`, protoErr("task result does not decode: json: cannot unmarshal number into Go struct field Task.artifacts[0].parts[0].text of type string", nil)),
		row("v1.0 url an object", `[{"url":{"href":"x"}}]`, protoErr("task result does not decode: json: cannot unmarshal object into Go struct field Task.artifacts[0].parts[0].url of type string", nil)),
		row("v1.0 mediaType a number", `[{"text":"x","mediaType":1}]`, protoErr("task result does not decode", nil)),
		row("v1.0 parts null", `null`, isTask(v10ArtifactOf())),
		row("v1.0 parts empty", `[]`, isTask(v10ArtifactOf([]a2a.Part{}...))),
		row("v1.0 parts an object", `{"text":"x"}`, protoErr("task result does not decode", nil)),
		row("v1.0 a part with a kind and a v1.0 content member", `[{"kind":"file","url":"https://files.example/x"}]`,
			isTask(v10ArtifactOf(a2a.FilePart{File: a2a.FileContent{URI: "https://files.example/x"}}))),
		row("v1.0 a part in v0.3's file shape", `[{"kind":"file","file":{"uri":"https://files.example/x","mimeType":"image/png"}}]`,
			isTask(v10ArtifactOf(a2a.FilePart{File: a2a.FileContent{URI: "https://files.example/x", MIMEType: "image/png"}}))),
		row("v1.0 a part of a kind nobody knows", `[{"kind":"video","src":"x"}]`,
			isTask(v10ArtifactOf(a2a.UnknownPart{PartKind: "video", Raw: json.RawMessage(`{"kind":"video","src":"x"}`)}))),
		row("v1.0 a part of kind text without text", `[{"kind":"text"}]`, protoErr(`task result does not decode: artifacts[0].parts[0]: text part has no "text" string`, nil)),
		{name: "v1.0 snake_case members", v10: true, body: rpc(`{"id":"t1","context_id":"c1","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-05-01T10:00:00.000Z"},` +
			`"artifacts":[{"artifact_id":"a1","name":"entity","parts":[{"text":"s","media_type":"text/plain"}]}],` +
			`"history":[{"message_id":"m1","role":"ROLE_USER","task_id":"t1","context_id":"c1","reference_task_ids":["t0"],"parts":[{"raw":"aGk=","media_type":"text/plain","filename":"a.txt"}]}]}`),
			want: isTask(wantV10Task(func(t *a2a.Task) {
				t.Status.Timestamp = "2026-05-01T10:00:00.000Z"
				t.Artifacts = []a2a.Artifact{{ArtifactID: "a1", Name: "entity", Parts: a2a.Parts{a2a.TextPart{Text: "s", MediaType: "text/plain"}}}}
				t.History = []a2a.Message{{MessageID: "m1", Role: a2a.RoleUser, RawRole: "ROLE_USER", TaskID: "t1", ContextID: "c1", ReferenceTaskIDs: []string{"t0"},
					Parts: a2a.Parts{a2a.FilePart{File: a2a.FileContent{Bytes: "aGk=", MIMEType: "text/plain", Name: "a.txt"}}}}}
			}))},
		{name: "v1.0 history, artifacts and metadata null", v10: true, body: rpc(`{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"history":null,"artifacts":null}`),
			want: isTask(wantV10Task(nil))},
		{name: "v1.0 status null", v10: true, body: rpc(`{"id":"t1","contextId":"c1","status":null}`),
			want: all(isTask(wantTask(func(t *a2a.Task) { t.Status = a2a.TaskStatus{} })), notDone)},
		{name: "v1.0 status absent", v10: true, body: rpc(`{"id":"t1","contextId":"c1"}`), want: all(isTask(wantTask(func(t *a2a.Task) { t.Status = a2a.TaskStatus{} })), notDone)},
		{name: "v1.0 status message and its parts null", v10: true, call: "send",
			body: rpc(`{"task":{"id":"t1","status":{"state":"TASK_STATE_FAILED","message":{"messageId":"m2","role":"ROLE_AGENT","parts":null}}}}`),
			want: isTask(&a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateFailed, RawState: "TASK_STATE_FAILED",
				Message: &a2a.Message{MessageID: "m2", Role: a2a.RoleAgent, RawRole: "ROLE_AGENT"}}})},
		{name: "v1.0 message with parts null", v10: true, call: "send", body: rpc(`{"message":{"messageId":"m1","role":"ROLE_AGENT","parts":null,"metadata":null}}`),
			want: isMessage(&a2a.Message{MessageID: "m1", Role: a2a.RoleAgent, RawRole: "ROLE_AGENT", Metadata: json.RawMessage(`null`)})},
	}
}

// notDone wants the task's state to be neither terminal nor interrupted:
// a poller goes on.
func notDone(t *testing.T, o outcome) {
	t.Helper()
	task, ok := o.res.(*a2a.Task)
	if !ok {
		t.Fatalf("got %#v, want a task", o.res)
	}
	if s := task.Status.State; s.Terminal() || s.Interrupted() {
		t.Errorf("state %q is terminal or interrupted", s)
	}
}

// stateRow is a row for a v1.0 task whose status is sent as status: the
// result carries state, and raw in RawState.
func stateRow(name, status string, state a2a.TaskState, raw string) hostileRow {
	want := isTask(wantTask(func(t *a2a.Task) { t.Status = a2a.TaskStatus{State: state, RawState: raw} }))
	if !state.Terminal() && !state.Interrupted() {
		want = all(want, notDone)
	}
	return hostileRow{name: name, v10: true, body: rpc(v10TaskWith(status)), want: want}
}

// waitTask is WaitTask on t1 for at most three polls, as a row's call.
func waitTask(ctx context.Context, c *a2a.Client) (any, error) {
	task, err := c.WaitTask(ctx, "t1", a2a.PollInterval(time.Millisecond), a2a.PollMaxInterval(time.Millisecond), a2a.PollMaxAttempts(3))
	if task == nil {
		return nil, err
	}
	return task, err
}

// pollsOut wants WaitTask to have run out of attempts, returning the
// last task, in state.
func pollsOut(state a2a.TaskState) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		pe, ok := errors.AsType[*a2a.PollError](o.err)
		if !ok {
			t.Fatalf("err = %T %v, want *PollError", o.err, o.err)
		}
		if pe.Limit != a2a.PollLimitAttempts || pe.Attempts != 3 || pe.LastState != state {
			t.Errorf("PollError %+v, want 3 attempts, limit attempts, last state %q", pe, state)
		}
		if task, ok := o.res.(*a2a.Task); !ok || task.Status.State != state {
			t.Errorf("last task %#v, want one in state %q", o.res, state)
		}
	}
}

func v10EnumRows() []hostileRow {
	roles := `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"messageId":"m2","role":2,"parts":[{"text":"哪台设备?"}]}},` +
		`"history":[{"messageId":"m1","role":1,"parts":[{"text":"查询"}]},{"messageId":"m3","role":0,"parts":[]},{"messageId":"m4","role":7,"parts":[]},{"messageId":"m5","role":"ROLE_SYSTEM","parts":[]}]}`
	return []hostileRow{
		stateRow("v1.0 state as the number 3", `{"state":3}`, a2a.TaskStateCompleted, "3"),
		stateRow("v1.0 state as the number 6", `{"state":6}`, a2a.TaskStateInputRequired, "6"),
		stateRow("v1.0 state as the number 0", `{"state":0}`, a2a.TaskStateUnknown, "0"),
		stateRow("v1.0 state number nobody knows", `{"state":99}`, "99", ""),
		stateRow("v1.0 state a negative number", `{"state":-1}`, "-1", ""),
		stateRow("v1.0 state name nobody knows", `{"state":"TASK_STATE_PAUSED"}`, "TASK_STATE_PAUSED", ""),
		stateRow("v1.0 state TASK_STATE_UNSPECIFIED", `{"state":"TASK_STATE_UNSPECIFIED"}`, a2a.TaskStateUnknown, "TASK_STATE_UNSPECIFIED"),
		// Absent, ProtoJSON's TASK_STATE_UNSPECIFIED: kept as "", as v0.3
		// keeps an absent state; neither is ever done.
		stateRow("v1.0 state absent: TASK_STATE_UNSPECIFIED, left out by ProtoJSON", `{}`, a2a.TaskStateUnknown, ""),
		stateRow("v1.0 state null", `{"state":null}`, a2a.TaskStateUnknown, ""),
		stateRow("v1.0 state auth required", `{"state":"TASK_STATE_AUTH_REQUIRED"}`, a2a.TaskStateAuthRequired, "TASK_STATE_AUTH_REQUIRED"),
		{name: "v1.0 state a bool", v10: true, body: rpc(v10TaskWith(`{"state":true}`)),
			want: protoErr("task result does not decode: json: cannot unmarshal bool into Go struct field Task.status.state of type string", nil)},
		{name: "v1.0 state an object", v10: true, body: rpc(v10TaskWith(`{"state":{"name":"TASK_STATE_COMPLETED"}}`)), want: protoErr("task result does not decode", nil)},
		{name: "v1.0 roles as numbers and names", v10: true, body: rpc(roles), want: isTask(wantTask(func(t *a2a.Task) {
			t.Status = a2a.TaskStatus{State: a2a.TaskStateInputRequired, RawState: "TASK_STATE_INPUT_REQUIRED",
				Message: &a2a.Message{MessageID: "m2", Role: a2a.RoleAgent, RawRole: "2", Parts: a2a.Parts{a2a.TextPart{Text: "哪台设备?"}}}}
			t.History = []a2a.Message{
				{MessageID: "m1", Role: a2a.RoleUser, RawRole: "1", Parts: a2a.Parts{a2a.TextPart{Text: "查询"}}},
				{MessageID: "m3", Role: "ROLE_UNSPECIFIED", RawRole: "0", Parts: a2a.Parts{}},
				{MessageID: "m4", Role: "7", Parts: a2a.Parts{}},
				{MessageID: "m5", Role: "ROLE_SYSTEM", Parts: a2a.Parts{}},
			}
		}))},
		{name: "v1.0 WaitTask polls TASK_STATE_UNSPECIFIED", v10: true, do: waitTask, reqs: 3, body: rpc(v10TaskWith(`{"state":"TASK_STATE_UNSPECIFIED"}`)),
			want: all(pollsOut(a2a.TaskStateUnknown), sent("GetTask", `{"id":"t1"}`))},
		{name: "v1.0 WaitTask polls a state number nobody knows", v10: true, do: waitTask, reqs: 3, body: rpc(v10TaskWith(`{"state":99}`)), want: pollsOut("99")},
		{name: "v1.0 WaitTask polls a state name nobody knows", v10: true, do: waitTask, reqs: 3, body: rpc(v10TaskWith(`{"state":"TASK_STATE_PAUSED"}`)), want: pollsOut("TASK_STATE_PAUSED")},
		{name: "v1.0 WaitTask polls an absent state", v10: true, do: waitTask, reqs: 3, body: rpc(v10TaskWith(`{}`)), want: pollsOut(a2a.TaskStateUnknown)},
		{name: "v1.0 WaitTask stops at the state number 4", v10: true, do: waitTask, body: rpc(v10TaskWith(`{"state":4}`)),
			want: isTask(wantTask(func(t *a2a.Task) { t.Status = a2a.TaskStatus{State: a2a.TaskStateFailed, RawState: "4"} }))},
	}
}

func v10NameRows() []hostileRow {
	return []hostileRow{
		{name: "v1.0 Task beside task", v10: true, call: "send", body: rpc(`{"task":` + v10Task + `,"Task":{"id":"t1","status":{"state":"TASK_STATE_FAILED"}}}`),
			want: protoErr(`member "Task" is "task" in another case`, nil)},
		{name: "v1.0 task twice", v10: true, call: "send", body: rpc(`{"task":` + v10Task + `,"task":{"id":"t1","status":{"state":"TASK_STATE_FAILED"}}}`),
			want: protoErr(`member "task" appears twice`, nil)},
		{name: "v1.0 MESSAGE beside message", v10: true, call: "send", body: rpc(`{"message":` + v10Message + `,"MESSAGE":null}`),
			want: protoErr(`member "MESSAGE" is "message" in another case`, nil)},
		{name: "v1.0 state twice in a wrapped task", v10: true, call: "send", body: rpc(`{"task":` + v10TaskWith(`{"state":"TASK_STATE_FAILED","state":"TASK_STATE_COMPLETED"}`) + `}`),
			want: protoErr(`member "state" appears twice`, nil)},
		{name: "v1.0 Status beside status in a bare task", v10: true, body: rpc(`{"id":"t1","status":{"state":"TASK_STATE_FAILED"},"Status":{"state":"TASK_STATE_COMPLETED"}}`),
			want: protoErr(`member "Status" is "status" in another case`, nil)},
		{name: "v1.0 ID beside id in a bare task", v10: true, body: rpc(`{"id":"t1","ID":"t2","status":{"state":"TASK_STATE_COMPLETED"}}`),
			want: protoErr(`member "ID" is "id" in another case`, nil)},
		{name: "v1.0 contextId beside context_id", v10: true, body: rpc(`{"id":"t1","contextId":"c1","context_id":"c2","status":{"state":"TASK_STATE_COMPLETED"}}`),
			want: protoErr(`member "context_id" appears twice in one object, as "contextId" and "context_id"`, nil)},
		{name: "v1.0 mediaType beside media_type", v10: true, body: rpc(v10Artifact(`[{"text":"x","mediaType":"text/plain","media_type":"text/html"}]`)),
			want: protoErr(`member "media_type" appears twice in one object, as "mediaType" and "media_type"`, nil)},
		{name: "v1.0 lastChunk beside last_chunk", v10: true, do: stream, header: sseHeader,
			body: sse(working, `{"artifactUpdate":{"taskId":"t1","lastChunk":false,"last_chunk":true,"artifact":{"artifactId":"a1"}}}`),
			want: streamed([]a2a.Event{wantWorking}, protoErr(`member "last_chunk" appears twice in one object, as "lastChunk" and "last_chunk"`, nil))},
		{name: "v1.0 case-variant names inside data and metadata", v10: true, body: rpc(`{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"Status":1,"status":2},` +
			`"artifacts":[{"artifactId":"a1","name":"entity","parts":[{"data":{"Text":"正常","text":"x","Raw":1,"raw":2}}]}]}`),
			want: isTask(wantV10Task(func(t *a2a.Task) {
				t.Metadata = json.RawMessage(`{"Status":1,"status":2}`)
				t.Artifacts = []a2a.Artifact{{ArtifactID: "a1", Name: "entity", Parts: a2a.Parts{a2a.DataPart{Data: json.RawMessage(`{"Text":"正常","text":"x","Raw":1,"raw":2}`)}}}}
			}))},
	}
}

// v10StoredResults are v1.0 results, each as GetTask's bare Task, that cover
// what the v1.0 decoder reads: enums as names and numbers, names and
// numbers nobody knows, snake_case members, every kind of part, nulls.
var v10StoredResults = map[string]string{
	"every member": `{"id":"t1","contextId":"c1","metadata":{"k":[1,"二"]},"status":{"state":"TASK_STATE_INPUT_REQUIRED","timestamp":"2026-05-01T10:00:00.000Z",` +
		`"message":{"messageId":"m2","role":"ROLE_AGENT","taskId":"t1","contextId":"c1","parts":[{"text":"哪台设备?","mediaType":"text/plain","filename":"q.txt","metadata":{"p":1}}]}},` +
		`"history":[{"messageId":"m1","role":"ROLE_USER","referenceTaskIds":["t0"],"extensions":["urn:x"],"metadata":{"m":true},"parts":[{"raw":"aGn7_w","mediaType":"image/png","filename":"qr.png"},` +
		`{"url":"https://files.example/qr.png"},{"data":null},{"data":[1,{"a":"b"}]},{"video":"v"}]}],` +
		`"artifacts":[{"artifactId":"a1","name":"entity","description":"d","extensions":["urn:y"],"metadata":{"n":1},"parts":[{"data":{"设备":"正常"},"mediaType":"application/json"},{"text":""}]}]}`,
	"numbers":                 `{"id":"t1","status":{"state":3,"message":{"messageId":"m","role":2,"parts":[{"text":"ok"}]}},"history":[{"messageId":"m0","role":1,"parts":[]}]}`,
	"numbers nobody knows":    `{"id":"t1","status":{"state":99,"message":{"messageId":"m","role":7,"parts":[]}}}`,
	"names nobody knows":      `{"id":"t1","status":{"state":"TASK_STATE_PAUSED","message":{"messageId":"m","role":"ROLE_SYSTEM","parts":[]}}}`,
	"unspecified":             `{"id":"t1","status":{"state":"TASK_STATE_UNSPECIFIED","message":{"messageId":"m","role":"ROLE_UNSPECIFIED","parts":[]}}}`,
	"snake_case":              `{"id":"t1","context_id":"c1","status":{"state":"TASK_STATE_WORKING"},"history":[{"message_id":"m1","role":"ROLE_USER","task_id":"t1","context_id":"c1","reference_task_ids":["t0"],"parts":[{"text":"s","media_type":"text/plain"}]}],"artifacts":[{"artifact_id":"a1","parts":[{"raw":"aGk=","media_type":"text/plain"}]}]}`,
	"no state":                `{"id":"t1","status":{"timestamp":"2026-05-01T10:00:00Z"}}`,
	"no status":               `{"id":"t1","contextId":"c1"}`,
	"nulls":                   `{"id":"t1","contextId":null,"status":{"state":null,"message":null},"history":null,"artifacts":[{"artifactId":"a1","parts":null}],"metadata":null}`,
	"a message without role":  `{"id":"t1","status":{"state":"TASK_STATE_SUBMITTED"},"history":[{"messageId":"m1","parts":[{"text":"x"}]}]}`,
	"v0.3 parts inside v1.0":  `{"id":"t1","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a1","parts":[{"kind":"file","file":{"uri":"https://x/y"}},{"kind":"video"},{"kind":"text","text":"t"}]}]}`,
	"an unknown state string": `{"id":"t1","status":{"state":"paused"},"artifacts":[{"artifactId":"a1","parts":[{"url":"https://x/y","filename":"y"},{"data":1}]}]}`,
	// Found by FuzzReplyV10 (testdata/fuzz/FuzzReplyV10/cc55d4382f8b5ab5):
	// a state spelled as v0.3's gRPC enum beside a role number.
	"a v0.3 gRPC state spelling": `{"id":"t1","status":{"state":"INPUT_REQUIRED"},"history":[{"role":0},{"messageId":"m","role":2,"parts":[{"raw":"aGk="}]}]}`,
}

// v10StoredOdd are v1.0 results that look partly like v0.3 (a v0.3 state
// spelling, a "kind" in the status's message) but have no "kind" at their
// top: their stored bytes are read as v1.0, as the client read them.
var v10StoredOdd = map[string]string{
	"a v0.3 state spelling":          `{"id":"t1","status":{"state":"completed"},"history":[{"messageId":"m","role":2,"parts":[{"raw":"aGk="}]}]}`,
	"a kind in the status's message": `{"id":"t1","status":{"state":"TASK_STATE_FAILED","message":{"kind":"message","messageId":"m","role":2,"parts":[]}}}`,
}

// TestV03KindlessStoredAgree: a v0.3 task that lacks its own "kind" (an
// agent the v0.3 client reads by shape) decodes from its Raw bytes to the
// task the v0.3 client returned, though such bytes go to the v1.0
// decoder: its messages and parts carry their kinds, and the v1.0 decoder
// reads them as v0.3 does.
func TestV03KindlessStoredAgree(t *testing.T) {
	result := `{"id":"t1","contextId":"c1","status":{"state":"completed","message":{"messageId":"m2","role":"agent","parts":[{"kind":"text","text":"ok"}]}},` +
		`"history":[{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"q","mediaType":"text/plain"}]}],` +
		`"artifacts":[{"artifactId":"a1","parts":[{"kind":"file","file":{"uri":"https://x/y","name":"y"}},{"kind":"data","data":null},{"kind":"video","src":"v"},{"kind":"file","file":{"bytes":"aGk="},"text":"caption"}]}]}`
	c, _ := newMock(t, []mockReply{{body: []byte(rpc(result))}})
	live, err := c.GetTask(context.Background(), "t1")
	if err != nil {
		t.Fatal(err)
	}
	var stored a2a.Task
	if err := json.Unmarshal(live.Raw(), &stored); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(live, &stored, ignoreTaskInternals); diff != "" {
		t.Errorf("stored bytes decode to another task (-live +stored):\n%s", diff)
	}
}

// TestV10StoredRoundTrip: a task decoded from a v1.0 reply decodes again
// from its own Raw bytes with json.Unmarshal to the same task (Raw
// included), and its status and messages from their bytes alike; encoded
// with json.Marshal (A2A v0.3 JSON, which leaves out RawState and RawRole,
// the spellings that were mapped) and decoded again it is the same task
// but for those.
func TestV10StoredRoundTrip(t *testing.T) {
	unmapped := cmpopts.IgnoreFields(a2a.TaskStatus{}, "RawState")
	unmappedRole := cmpopts.IgnoreFields(a2a.Message{}, "RawRole")
	results := maps.Clone(v10StoredResults)
	maps.Copy(results, v10StoredOdd)
	for name, result := range results {
		t.Run(name, func(t *testing.T) {
			c, _ := newMock(t, []mockReply{{body: []byte(rpc(result))}}, a2a.WithProtocolVersion(a2a.ProtocolV10))
			live, err := c.GetTask(context.Background(), "t1")
			if err != nil {
				t.Fatal(err)
			}
			if string(live.Raw()) != result {
				t.Fatalf("Raw() = %s, want the result's bytes", live.Raw())
			}
			var stored a2a.Task
			if err := json.Unmarshal(live.Raw(), &stored); err != nil {
				t.Fatalf("json.Unmarshal(Raw()): %v", err)
			}
			if diff := cmp.Diff(live, &stored, ignoreTaskInternals); diff != "" {
				t.Errorf("stored bytes decode to another task (-live +stored):\n%s", diff)
			}
			if !bytes.Equal(stored.Raw(), live.Raw()) {
				t.Errorf("stored Raw() = %s", stored.Raw())
			}

			// The status and each message, from their own bytes.
			var parts struct {
				Status  json.RawMessage
				History []json.RawMessage
			}
			json.Unmarshal([]byte(result), &parts)
			if parts.Status != nil && string(parts.Status) != "null" {
				var s a2a.TaskStatus
				if err := json.Unmarshal(parts.Status, &s); err != nil {
					t.Fatalf("status: %v", err)
				}
				if diff := cmp.Diff(live.Status, s, ignoreTaskInternals); diff != "" {
					t.Errorf("status from its bytes (-live +stored):\n%s", diff)
				}
			}
			for i, raw := range parts.History {
				var m a2a.Message
				if err := json.Unmarshal(raw, &m); err != nil {
					t.Fatalf("history[%d]: %v", i, err)
				}
				if diff := cmp.Diff(live.History[i], m, ignoreTaskInternals); diff != "" {
					t.Errorf("history[%d] from its bytes (-live +stored):\n%s", i, diff)
				}
			}

			// Encoded and decoded again.
			b, err := json.Marshal(live)
			if err != nil {
				t.Fatal(err)
			}
			var again a2a.Task
			if err := json.Unmarshal(b, &again); err != nil {
				t.Fatalf("json.Unmarshal(json.Marshal(task)): %v\n%s", err, b)
			}
			if diff := cmp.Diff(live, &again, ignoreTaskInternals, unmapped, unmappedRole, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("encoded and decoded again (-live +again):\n%s\n%s", diff, b)
			}
			if b2, _ := json.Marshal(&again); !bytes.Equal(b, b2) {
				t.Errorf("encoding is not stable:\n%s\n%s", b, b2)
			}
		})
	}
}

// TestV10MessageRoundTrip: a message decoded from a v1.0 reply decodes to
// the same message from its bytes, and after json.Marshal too (but for
// RawRole, which is not encoded).
func TestV10MessageRoundTrip(t *testing.T) {
	for _, msg := range []string{
		v10Message,
		`{"messageId":"m1","role":2,"taskId":"t1","context_id":"c1","parts":[{"raw":"aGk="},{"url":"u","filename":"f"},{"data":null},{"x":1}],"metadata":{"a":1}}`,
		`{"messageId":"m1","role":"ROLE_SYSTEM","parts":null}`,
		`{"messageId":"m1","role":7,"parts":[{"text":"","media_type":"text/plain"}]}`,
	} {
		c, _ := newMock(t, []mockReply{{body: []byte(rpc(`{"message":` + msg + `}`))}}, a2a.WithProtocolVersion(a2a.ProtocolV10))
		res, err := c.SendMessage(context.Background(), a2a.NewTextMessage("x"))
		live, ok := res.(*a2a.Message)
		if err != nil || !ok {
			t.Fatalf("%s: %#v, %v", msg, res, err)
		}
		var stored a2a.Message
		if err := json.Unmarshal([]byte(msg), &stored); err != nil {
			t.Fatalf("%s: %v", msg, err)
		}
		if diff := cmp.Diff(live, &stored, ignoreTaskInternals); diff != "" {
			t.Errorf("%s: stored bytes decode to another message (-live +stored):\n%s", msg, diff)
		}
		b, err := json.Marshal(live)
		if err != nil {
			t.Fatal(err)
		}
		var again a2a.Message
		if err := json.Unmarshal(b, &again); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if diff := cmp.Diff(live, &again, ignoreTaskInternals, cmpopts.IgnoreFields(a2a.Message{}, "RawRole"), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: encoded and decoded again (-live +again):\n%s", b, diff)
		}
	}
}

// v10FuzzCalls are the calls FuzzReplyV10 makes of a v1.0 client.
var v10FuzzCalls = []string{"get", "send", "list", "stream"}

// FuzzReplyV10 feeds any reply body, with one of several statuses, to a
// client that speaks A2A v1.0: GetTask, SendMessage, ListTasksPage, and
// SendStreamingMessage (a body starting "data:" is served as an event
// stream). Each call must end, with a result or a typed error and never
// both or neither (a stream: events, then at most one typed error); and
// every task it returns must decode from its own Raw bytes to itself, and
// with every message and event be stable: encoded, decoded and encoded
// again it gives the same bytes.
func FuzzReplyV10(f *testing.F) {
	var seeds []string
	for _, row := range v10Rows() {
		if row.serve == nil && len(row.body) <= maxSeed {
			seeds = append(seeds, strings.ReplaceAll(row.body, "{{id}}", "1"))
		}
	}
	for _, result := range v10StoredResults {
		seeds = append(seeds, strings.ReplaceAll(rpc(result), "{{id}}", "1"), strings.ReplaceAll(rpc(`{"task":`+result+`}`), "{{id}}", "1"))
	}
	seeds = append(seeds, strings.ReplaceAll(rpc(`{"tasks":[`+v10StoredResults["numbers"]+`,`+v10StoredResults["snake_case"]+`],"nextPageToken":"","pageSize":"2","totalSize":2}`), "{{id}}", "1"))
	for i, seed := range seeds {
		f.Add([]byte(seed), uint8(i%len(fuzzStatuses)), uint8(i%len(v10FuzzCalls)))
	}
	f.Fuzz(func(t *testing.T, body []byte, status, call uint8) {
		ctype := "application/json"
		if bytes.HasPrefix(body, []byte("data:")) {
			ctype = "text/event-stream"
		}
		fk := &fake{t: t, replies: []mockReply{{status: fuzzStatuses[int(status)%len(fuzzStatuses)], ctype: ctype, body: body}}}
		c, err := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: fk.transport()}), a2a.WithMaxRetries(0),
			a2a.WithProtocolVersion(a2a.ProtocolV10))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var results []any
		switch v10FuzzCalls[int(call)%len(v10FuzzCalls)] {
		case "get":
			// Ask about the task the body is about, so a reply about
			// another task (refused) does not hide every decoding path.
			var probe struct{ Result struct{ ID any } }
			json.Unmarshal(body, &probe)
			id, _ := probe.Result.ID.(string)
			task, err := c.GetTask(ctx, stdcmp.Or(id, "t1"))
			results = oneOf(t, task, err)
		case "send":
			res, err := c.SendMessage(ctx, a2a.NewTextMessage("x"))
			results = oneOf(t, res, err)
		case "list":
			page, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{})
			if page != nil {
				for _, task := range page.Tasks {
					if task == nil {
						t.Fatal("a nil task in a page")
					}
					results = append(results, task)
				}
			}
			oneOf(t, page, err)
		default:
			for ev, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("x")) {
				if (ev == nil) == (err == nil) {
					t.Fatalf("event %#v with error %v: want exactly one", ev, err)
				}
				if err != nil {
					checkTypedError(t, err)
					continue
				}
				results = append(results, ev)
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("the call did not end: %v", ctx.Err())
		}
		for _, res := range results {
			stableV10(t, res)
		}
	})
}

// oneOf fails t unless exactly one of res (a typed nil counts as none) and
// err is set, err being typed; it returns res as the results to check.
func oneOf[T any](t *testing.T, res T, err error) []any {
	t.Helper()
	var v any = res
	switch r := v.(type) {
	case *a2a.Task:
		if r == nil {
			v = nil
		}
	case *a2a.ListTasksResponse:
		if r == nil {
			v = nil
		}
	}
	if (v == nil) == (err == nil) {
		t.Fatalf("result %#v with error %v: want exactly one", v, err)
	}
	if err != nil {
		checkTypedError(t, err)
		return nil
	}
	if _, isPage := v.(*a2a.ListTasksResponse); isPage {
		return nil
	}
	return []any{v}
}

// stableV10 checks one decoded value: a task decodes from its Raw bytes to
// itself; any value, encoded, decoded and encoded again, gives the same
// bytes.
func stableV10(t *testing.T, res any) {
	t.Helper()
	if task, ok := res.(*a2a.Task); ok {
		var stored a2a.Task
		if err := json.Unmarshal(task.Raw(), &stored); err != nil {
			t.Fatalf("a task does not decode from its Raw bytes: %v\n%s", err, task.Raw())
		}
		if diff := cmp.Diff(task, &stored, ignoreTaskInternals); diff != "" {
			t.Fatalf("a task's Raw bytes decode to another task (-live +stored):\n%s\n%s", diff, task.Raw())
		}
	}
	first, err := json.Marshal(res)
	if err != nil {
		t.Fatalf("a decoded %T does not encode: %v", res, err)
	}
	again := newOfType(res)
	if err := json.Unmarshal(first, again); err != nil {
		t.Fatalf("a re-encoded %T does not decode: %v\n%s", res, err, first)
	}
	second, err := json.Marshal(again)
	if err != nil || !bytes.Equal(first, second) {
		t.Fatalf("decode/encode of a %T is not stable (%v):\n%s\n%s", res, err, first, second)
	}
}

// newOfType returns a new zero value of the type res points to.
func newOfType(res any) any {
	switch res.(type) {
	case *a2a.Task:
		return new(a2a.Task)
	case *a2a.Message:
		return new(a2a.Message)
	case *a2a.TaskStatusUpdateEvent:
		return new(a2a.TaskStatusUpdateEvent)
	case *a2a.TaskArtifactUpdateEvent:
		return new(a2a.TaskArtifactUpdateEvent)
	}
	panic("a result of an unknown type")
}
