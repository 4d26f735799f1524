package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// fixtureResults returns every task or message result in testdata, by
// the name fixtureReplies gives its reply.
func fixtureResults(t testing.TB) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	for name, reply := range fixtureReplies(t) {
		var env struct{ Result json.RawMessage }
		if err := json.Unmarshal(reply, &env); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if env.Result != nil {
			out[name] = env.Result
		}
	}
	return out
}

// TestRoundTrip: decode → encode of every fixture result gives equivalent
// JSON, and every object sent carries its "kind".
func TestRoundTrip(t *testing.T) {
	for name, raw := range fixtureResults(t) {
		t.Run(name, func(t *testing.T) {
			var kind struct{ Kind string }
			json.Unmarshal(raw, &kind)
			var v any
			switch kind.Kind {
			case "task":
				var task a2a.Task
				if err := json.Unmarshal(raw, &task); err != nil {
					t.Fatal(err)
				}
				v = task
			case "message":
				var m a2a.Message
				if err := json.Unmarshal(raw, &m); err != nil {
					t.Fatal(err)
				}
				v = m
			default:
				t.Fatalf("fixture kind %q", kind.Kind)
			}
			out, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			json.Unmarshal(raw, &want)
			json.Unmarshal(out, &got)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("re-encoded JSON differs (-fixture +encoded):\n%s", diff)
			}
		})
	}
}

// TestEncodeKinds: values built in code encode with "kind" everywhere.
func TestEncodeKinds(t *testing.T) {
	dp, err := a2a.NewDataPart(map[string]int{"n": 1})
	if err != nil {
		t.Fatal(err)
	}
	task := a2a.Task{
		ID: "t", ContextID: "c",
		Status: a2a.TaskStatus{State: a2a.TaskStateWorking, Message: &a2a.Message{MessageID: "s", Role: a2a.RoleAgent, Parts: a2a.Parts{a2a.TextPart{Text: "wait"}}}},
		Artifacts: []a2a.Artifact{{ArtifactID: "a", Parts: a2a.Parts{
			dp, a2a.DataPart{}, a2a.NewFileBytes("f.txt", "text/plain", []byte("hi")),
			a2a.FilePart{File: a2a.FileContent{URI: "https://files.example/r.pdf"}},
		}}},
		History: []a2a.Message{{MessageID: "m", Role: a2a.RoleUser}},
	}
	out, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"task","id":"t","contextId":"c","status":{"state":"working","message":{"kind":"message","messageId":"s","role":"agent","parts":[{"kind":"text","text":"wait"}]}},` +
		`"history":[{"kind":"message","messageId":"m","role":"user","parts":[]}],` +
		`"artifacts":[{"artifactId":"a","parts":[{"kind":"data","data":{"n":1}},{"kind":"data","data":{}},` +
		`{"kind":"file","file":{"name":"f.txt","mimeType":"text/plain","bytes":"aGk="}},{"kind":"file","file":{"uri":"https://files.example/r.pdf"}}]}]}`
	if string(out) != want {
		t.Errorf("encoded:\n got %s\nwant %s", out, want)
	}
}

func TestTaskStateClasses(t *testing.T) {
	tests := []struct {
		s                              a2a.TaskState
		terminal, interrupted, isKnown bool
	}{
		{a2a.TaskStateSubmitted, false, false, true},
		{a2a.TaskStateWorking, false, false, true},
		{a2a.TaskStateInputRequired, false, true, true},
		{a2a.TaskStateAuthRequired, false, true, true},
		{a2a.TaskStateCompleted, true, false, true},
		{a2a.TaskStateCanceled, true, false, true},
		{a2a.TaskStateFailed, true, false, true},
		{a2a.TaskStateRejected, true, false, true},
		{a2a.TaskStateUnknown, false, false, true},
		{"", false, false, false},
		{"cancelled", false, false, false},
		{"TASK_STATE_COMPLETED", false, false, false},
		{"paused", false, false, false},
	}
	for _, tt := range tests {
		if tt.s.Terminal() != tt.terminal || tt.s.Interrupted() != tt.interrupted || tt.s.Known() != tt.isKnown {
			t.Errorf("%q: terminal %v interrupted %v known %v", tt.s, tt.s.Terminal(), tt.s.Interrupted(), tt.s.Known())
		}
	}
}

func TestTimestamp(t *testing.T) {
	utc := func(s string) time.Time {
		tm, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tests := []struct {
		in   a2a.Timestamp
		want time.Time
		ok   bool
	}{
		{"2026-08-12T17:14:13.272Z", utc("2026-08-12T17:14:13.272Z"), true},
		{"2026-08-12T17:30:01.5+08:00", utc("2026-08-12T09:30:01.5Z"), true},
		{"2025-04-02T16:59:25.331844", utc("2025-04-02T16:59:25.331844Z"), true},
		{"2026-08-12T17:30:00.123456789Z", utc("2026-08-12T17:30:00.123456789Z"), true},
		{"2026-08-12 17:30:00", utc("2026-08-12T17:30:00Z"), true},
		{"yesterday", time.Time{}, false},
		{"", time.Time{}, false},
	}
	for _, tt := range tests {
		got, err := tt.in.Time()
		if (err == nil) != tt.ok || !got.Equal(tt.want) {
			t.Errorf("Timestamp(%q).Time() = %v, %v; want %v ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
	// An odd timestamp never fails decoding: the text is kept.
	for in, want := range map[string]a2a.Timestamp{
		`"soon"`: "soon", `1723482853`: "1723482853", `null`: "", `{"s":1}`: `{"s":1}`, `true`: "true",
	} {
		var st a2a.TaskStatus
		err := json.Unmarshal([]byte(`{"state":"working","timestamp":`+in+`}`), &st)
		if err != nil || st.Timestamp != want {
			t.Errorf("decode timestamp %s: %v %q, want %q", in, err, st.Timestamp, want)
		}
	}
}

// TestUnknownFieldsIgnored: fields this SDK does not know never fail decoding.
func TestUnknownFieldsIgnored(t *testing.T) {
	in := `{"kind":"task","id":"t","contextId":"c","future":{"x":[1]},"status":{"state":"completed","extra":true},` +
		`"artifacts":[{"artifactId":"a","new":1,"parts":[{"kind":"text","text":"ok","more":"x"}]}]}`
	var task a2a.Task
	if err := json.Unmarshal([]byte(in), &task); err != nil {
		t.Fatal(err)
	}
	if task.Artifacts[0].Text() != "ok" || string(task.Raw()) != in {
		t.Errorf("task = %+v (Raw must keep every unknown member)", task)
	}
}

// TestStatusExactKeys: only the exact member "state" decides the state; a
// differently cased duplicate cannot turn a failure into a success.
func TestStatusExactKeys(t *testing.T) {
	for _, in := range []string{
		`{"kind":"task","id":"t","status":{"state":"failed","STATE":"completed","State":"completed"}}`,
		`{"kind":"task","id":"t","status":{"State":"completed","state":"failed"}}`,
	} {
		var task a2a.Task
		if err := json.Unmarshal([]byte(in), &task); err != nil {
			t.Fatal(err)
		}
		if task.Status.State != a2a.TaskStateFailed {
			t.Errorf("%s: state %q, want failed", in, task.Status.State)
		}
	}
	// Through the client such a reply is refused outright (the name check): it
	// never comes back as a task in either state.
	for _, result := range []string{
		`{"kind":"task","id":"t","status":{"state":"failed","STATE":"completed"}}`,
		`{"kind":"task","id":"t","status":{"State":"completed","state":"failed"}}`,
	} {
		c, _ := newMock(t, []mockReply{rpcReply([]byte(`{"jsonrpc":"2.0","id":1,"result":` + result + `}`))})
		task, err := c.GetTask(context.Background(), "t")
		if pe, ok := errors.AsType[*a2a.ProtocolError](err); !ok || task != nil || !strings.Contains(pe.Reason, "in another case") {
			t.Errorf("client, %s: %v, %v; want a ProtocolError naming the case", result, task, err)
		}
	}
	// A number is an A2A v1.0 enum value (5 is TASK_STATE_CANCELED).
	var st a2a.TaskStatus
	if err := json.Unmarshal([]byte(`{"state":5}`), &st); err != nil || st.State != a2a.TaskStateCanceled || st.RawState != "5" {
		t.Errorf("numeric state: %+v, %v; want canceled from \"5\"", st, err)
	}
}

// stamp checks a status timestamp as kept and as parsed (zero want: Time
// must fail).
func stamp(raw string, want time.Time) expect {
	return taskThen(func(t *testing.T, task *a2a.Task) {
		if got := task.Status.Timestamp; string(got) != raw {
			t.Errorf("Timestamp = %q, want %q (kept as sent)", got, raw)
		}
		tm, err := task.Status.Timestamp.Time()
		switch {
		case want.IsZero() && err == nil:
			t.Errorf("Time() = %v, want an error", tm)
		case !want.IsZero() && (err != nil || !tm.Equal(want)):
			t.Errorf("Time() = %v, %v; want %v", tm, err, want)
		}
	})
}

// timeRows are odd timestamps, kept as sent (Timestamp).
func timeRows() []hostileRow {
	utc := func(s string) time.Time { tm, _ := time.Parse(time.RFC3339Nano, s); return tm }
	return []hostileRow{
		{name: "timestamp without zone", body: rpc(taskWith(`{"state":"completed","timestamp":"2025-04-02T16:59:25.331844"}`)),
			want: stamp("2025-04-02T16:59:25.331844", utc("2025-04-02T16:59:25.331844Z"))},
		{name: "timestamp with an offset", body: rpc(taskWith(`{"state":"completed","timestamp":"2025-04-02T16:59:25+08:00"}`)),
			want: stamp("2025-04-02T16:59:25+08:00", utc("2025-04-02T08:59:25Z"))},
		{name: "timestamp with nanoseconds", body: rpc(taskWith(`{"state":"completed","timestamp":"2025-04-02T16:59:25.123456789Z"}`)),
			want: stamp("2025-04-02T16:59:25.123456789Z", utc("2025-04-02T16:59:25.123456789Z"))},
		{name: "timestamp garbage", body: rpc(taskWith(`{"state":"completed","timestamp":"yesterday-ish"}`)), want: stamp("yesterday-ish", time.Time{})},
		{name: "timestamp a number", body: rpc(taskWith(`{"state":"completed","timestamp":1743612000}`)), want: stamp("1743612000", time.Time{})},
		{name: "timestamp null", body: rpc(taskWith(`{"state":"completed","timestamp":null}`)), want: stamp("", time.Time{})},
	}
}

// TestTimestampFaults runs the timestamp rows of the hostile-server table.
func TestTimestampFaults(t *testing.T) { runRows(t, timeRows()) }

// TestUnmarshalErrors: UnmarshalJSON reports what encoding/json would (a
// *json.SyntaxError, a *json.UnmarshalTypeError naming the field), leaves
// its receiver as it was when it fails, and of a repeated member keeps
// the last whole, never a merge of the two.
func TestUnmarshalErrors(t *testing.T) {
	keep := a2a.Task{ID: "keep"}
	got := keep
	err := got.UnmarshalJSON([]byte(`{"id":"new","status":{"state":"completed"},"history":[{"parts":[{"kind":"text","text":5}]}]}`))
	if _, ok := errors.AsType[*json.UnmarshalTypeError](err); !ok || !strings.Contains(err.Error(), "Task.history[0].parts[0].text") {
		t.Errorf("mistyped text: %v, want a *json.UnmarshalTypeError naming Task.history[0].parts[0].text", err)
	}
	if got.ID != "keep" || got.Status.State != "" {
		t.Errorf("receiver after a failed UnmarshalJSON: %+v", got)
	}
	if err := got.UnmarshalJSON([]byte(`{"id":`)); !errors.As(err, new(*json.SyntaxError)) {
		t.Errorf("truncated JSON: %v, want a *json.SyntaxError", err)
	}
	var ps a2a.Parts
	if err := json.Unmarshal([]byte(`[{"kind":"data"}]`), &ps); err == nil || ps != nil {
		t.Errorf("Parts after a failed UnmarshalJSON: %#v, %v", ps, err)
	}
	var twice a2a.Task
	if err := json.Unmarshal([]byte(`{"id":"t","status":{"state":"failed","message":{"role":"agent","parts":[{"kind":"text","text":"boom"}]}},"status":{"state":"completed"}}`), &twice); err != nil {
		t.Fatal(err)
	}
	if twice.Status.State != a2a.TaskStateCompleted || twice.Status.Message != nil {
		t.Errorf("repeated status: %+v, want the last one whole", twice.Status)
	}
}
