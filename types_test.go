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
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fixtureResults returns every task or message result in testdata, by
// the name fixtureReplies gives its reply.
func fixtureResults(t *testing.T) map[string]json.RawMessage {
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

// TestUnknownPartKept: a part of a kind this SDK does not know is kept byte
// for byte, the rest of the task decodes, and it re-encodes unchanged.
func TestUnknownPartKept(t *testing.T) {
	raw := fixtureResults(t)["unknown_state.json#0"]
	var task a2a.Task
	if err := json.Unmarshal(raw, &task); err != nil {
		t.Fatal(err)
	}
	parts := task.Artifacts[0].Parts
	if len(parts) != 2 {
		t.Fatalf("parts = %d", len(parts))
	}
	up, ok := parts[1].(a2a.UnknownPart)
	if !ok {
		t.Fatalf("part 1 is %T, want UnknownPart", parts[1])
	}
	wantRaw := `{ "kind": "chart", "chart": { "type": "bar", "values": [1, 2, 3] }, "metadata": { "v": 1 } }`
	if up.Kind() != "chart" || string(up.Raw) != wantRaw {
		t.Errorf("UnknownPart = %q %s", up.Kind(), up.Raw)
	}
	if parts.Text() != "partial" {
		t.Errorf("Text() = %q", parts.Text())
	}
	if task.Status.State.Known() || task.Status.State.Terminal() || task.Status.State.Interrupted() {
		t.Errorf("state %q classified as known/terminal/interrupted", task.Status.State)
	}
}

// TestPartsDecoding covers each part kind, part-less kinds and bad parts.
func TestPartsDecoding(t *testing.T) {
	var ps a2a.Parts
	in := `[{"kind":"text","text":"摘要","metadata":{"lang":"zh"}},{"kind":"data","data":[1,2]},{"kind":"data","data":null},` +
		`{"kind":"file","file":{"bytes":"aGVsbG8=","mimeType":"text/plain"}},{"text":"no kind"},{"raw":"aGk=","mediaType":"text/plain"}]`
	if err := json.Unmarshal([]byte(in), &ps); err != nil {
		t.Fatal(err)
	}
	want := a2a.Parts{
		a2a.TextPart{Text: "摘要", Metadata: json.RawMessage(`{"lang":"zh"}`)},
		a2a.DataPart{Data: json.RawMessage(`[1,2]`)},
		a2a.DataPart{Data: json.RawMessage(`null`)},
		a2a.FilePart{File: a2a.FileContent{Bytes: "aGVsbG8=", MIMEType: "text/plain"}},
		a2a.TextPart{Text: "no kind"},
		a2a.UnknownPart{Raw: json.RawMessage(`{"raw":"aGk=","mediaType":"text/plain"}`)},
	}
	if diff := cmp.Diff(want, ps); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	b, err := ps[3].(a2a.FilePart).File.Decode()
	if err != nil || string(b) != "hello" {
		t.Errorf("File.Decode = %q, %v", b, err)
	}
	if _, err := (a2a.FileContent{Bytes: "!!!"}).Decode(); err == nil {
		t.Error("invalid base64 decoded without error")
	}
	if _, err := (a2a.FileContent{URI: "https://x"}).Decode(); err == nil {
		t.Error("uri-only file decoded without error")
	}
	for _, bad := range []string{`[{"kind":"text"}]`, `[{"kind":"text","text":1}]`, `[{"kind":"data"}]`, `[{"kind":"file"}]`, `{"kind":"text"}`,
		`[{"kind":"file","file":"https://x"}]`} {
		var ps a2a.Parts
		if err := json.Unmarshal([]byte(bad), &ps); err == nil {
			t.Errorf("%s decoded without error: %v", bad, ps)
		}
	}
	// Parts that are not objects are kept, like unknown kinds; a known
	// kind ignores another kind's member of an odd type.
	var odd a2a.Parts
	if err := json.Unmarshal([]byte(`[1,null,[],{"kind":"text","text":"hi","file":"https://x"},{"kind":"data","data":{},"text":{"a":1}}]`), &odd); err != nil {
		t.Fatal(err)
	}
	wantOdd := a2a.Parts{a2a.UnknownPart{Raw: json.RawMessage(`1`)}, a2a.UnknownPart{Raw: json.RawMessage(`null`)}, a2a.UnknownPart{Raw: json.RawMessage(`[]`)},
		a2a.TextPart{Text: "hi"}, a2a.DataPart{Data: json.RawMessage(`{}`)}}
	if diff := cmp.Diff(wantOdd, odd); diff != "" {
		t.Errorf("odd parts (-want +got):\n%s", diff)
	}
}

// TestDecodeData decodes the seed's entity data into a caller's struct.
func TestDecodeData(t *testing.T) {
	var task a2a.Task
	if err := json.Unmarshal(fixtureResults(t)["send_completed_entity.json#0"], &task); err != nil {
		t.Fatal(err)
	}
	type card struct {
		Title       string            `json:"title"`
		Status      map[string]string `json:"status"`
		ActionCount int               `json:"actionCount"`
	}
	dp, ok := task.Artifact("entity").Data()
	if !ok {
		t.Fatal("no data part")
	}
	got, err := a2a.DecodeData[card](dp)
	if err != nil {
		t.Fatal(err)
	}
	want := card{Title: "数控车床-A08-03-06", Status: map[string]string{"设备运行状态": "正常"}, ActionCount: 2}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DecodeData (-want +got):\n%s", diff)
	}
	if _, err := a2a.DecodeData[[]int](dp); err == nil {
		t.Error("object decoded into []int without error")
	}
	var missing *a2a.Artifact = task.Artifact("records")
	if missing != nil || missing.Text() != "" {
		t.Error("Artifact(records) should be nil and safe")
	}
	if err := missing.DecodeData(&struct{}{}); err != a2a.ErrNoData {
		t.Errorf("nil artifact DecodeData = %v, want ErrNoData", err)
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
	// Through the client such a reply is refused outright (names.go): it
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
	var st a2a.TaskStatus
	if err := json.Unmarshal([]byte(`{"state":5}`), &st); err == nil {
		t.Error("a numeric state decoded without error")
	}
}

// TestFastPathMatchesGeneral: the client's one-pass decoding of a reply
// (decode.go) gives exactly the task that json.Unmarshal gives, Raw
// included, for every task fixture; fixtures it cannot take (an unknown
// part kind) fall back to the general path with the same result.
func TestFastPathMatchesGeneral(t *testing.T) {
	for name, raw := range fixtureResults(t) {
		var kind struct{ Kind string }
		json.Unmarshal(raw, &kind)
		if kind.Kind != "task" {
			continue
		}
		body := []byte(`{"jsonrpc":"2.0","id":1,"result":` + string(raw) + `}`)
		c, rec := newMock(t, []mockReply{rpcReply(body)})
		got, err := c.GetTask(context.Background(), "t")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var sent struct{ Result json.RawMessage }
		if err := json.Unmarshal(rec.lastSent(), &sent); err != nil {
			t.Fatal(err)
		}
		var general a2a.Task
		if err := json.Unmarshal(sent.Result, &general); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(&general, got, cmpopts.IgnoreUnexported(a2a.Task{})); diff != "" {
			t.Errorf("%s: client task differs from json.Unmarshal (-general +client):\n%s", name, diff)
		}
		if string(general.Raw()) != string(got.Raw()) {
			t.Errorf("%s: Raw differs:\n%s\n%s", name, general.Raw(), got.Raw())
		}
	}
}
