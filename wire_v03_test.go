package a2a_test

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// TestClientAndUnmarshalAgree: for every task fixture, the task the client
// decodes from a reply and the one json.Unmarshal decodes from the same
// result bytes are equal, Raw included: the one decoder, read strictly for
// a reply and by exact names for stored bytes, gives one answer.
func TestClientAndUnmarshalAgree(t *testing.T) {
	for name, raw := range fixtureResults(t) {
		var kind struct{ Kind, ID string }
		json.Unmarshal(raw, &kind)
		if kind.Kind != "task" {
			continue
		}
		body := []byte(`{"jsonrpc":"2.0","id":1,"result":` + string(raw) + `}`)
		c, rec := newMock(t, []mockReply{rpcReply(body)})
		got, err := c.GetTask(context.Background(), kind.ID)
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
		if diff := cmp.Diff(&general, got, ignoreTaskInternals); diff != "" {
			t.Errorf("%s: client task differs from json.Unmarshal (-general +client):\n%s", name, diff)
		}
		if string(general.Raw()) != string(got.Raw()) {
			t.Errorf("%s: Raw differs:\n%s\n%s", name, general.Raw(), got.Raw())
		}
	}
}

// withArtifact is completedTask with one artifact holding parts.
func withArtifact(parts string) string {
	return `{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"artifacts":[{"artifactId":"a1","name":"entity","parts":` + parts + `}]}`
}

func artifactOf(parts ...a2a.Part) *a2a.Task {
	return wantTask(func(t *a2a.Task) {
		t.Artifacts = []a2a.Artifact{{ArtifactID: "a1", Name: "entity", Parts: a2a.Parts(parts)}}
	})
}

// firstPart returns the only part of the task's only artifact.
func firstPart(t *testing.T, task *a2a.Task) a2a.Part {
	t.Helper()
	if len(task.Artifacts) != 1 || len(task.Artifacts[0].Parts) != 1 {
		t.Fatalf("artifacts = %#v, want one artifact with one part", task.Artifacts)
	}
	return task.Artifacts[0].Parts[0]
}

// fileDecode checks what FileContent.Decode says about the only part.
func fileDecode(want string, wantErr string) expect {
	return taskThen(func(t *testing.T, task *a2a.Task) {
		fp, ok := firstPart(t, task).(a2a.FilePart)
		if !ok {
			t.Fatalf("part is %T, want FilePart", firstPart(t, task))
		}
		b, err := fp.File.Decode()
		switch {
		case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
			t.Errorf("Decode() = %q, %v; want error containing %q", b, err, wantErr)
		case wantErr == "" && (err != nil || string(b) != want):
			t.Errorf("Decode() = %q, %v; want %q", b, err, want)
		}
	})
}

// partRows are odd parts and artifacts (the v0.3 part decoder).
func partRows() []hostileRow {
	return []hostileRow{
		{name: "artifacts and history null", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"artifacts":null,"history":null}`), want: isTask(wantTask(nil))},
		{name: "artifacts and history empty", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"artifacts":[],"history":[]}`),
			want: isTask(wantTask(func(t *a2a.Task) { t.Artifacts, t.History = []a2a.Artifact{}, []a2a.Message{} }))},
		{name: "parts null", body: rpc(withArtifact(`null`)), want: isTask(artifactOf())},
		{name: "parts empty", body: rpc(withArtifact(`[]`)), want: isTask(wantTask(func(t *a2a.Task) {
			t.Artifacts = []a2a.Artifact{{ArtifactID: "a1", Name: "entity", Parts: a2a.Parts{}}}
		}))},
		{name: "artifact without parts", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"artifacts":[{"artifactId":"a1","name":"entity"}]}`), want: isTask(artifactOf())},
		{name: "artifact not an object", body: rpc(`{"kind":"task","id":"t1","status":{"state":"completed"},"artifacts":["entity"]}`), want: protoErr("task result does not decode: json: cannot unmarshal string into Go struct field Task.artifacts[0]", nil)},
		{name: "data an array", body: rpc(withArtifact(`[{"kind":"data","data":[1,2]}]`)), want: isTask(artifactOf(a2a.DataPart{Data: json.RawMessage(`[1,2]`)}))},
		{name: "data a number", body: rpc(withArtifact(`[{"kind":"data","data":42}]`)), want: isTask(artifactOf(a2a.DataPart{Data: json.RawMessage(`42`)}))},
		{name: "data a string", body: rpc(withArtifact(`[{"kind":"data","data":"设备"}]`)), want: isTask(artifactOf(a2a.DataPart{Data: json.RawMessage(`"设备"`)}))},
		{name: "data null", body: rpc(withArtifact(`[{"kind":"data","data":null}]`)), want: isTask(artifactOf(a2a.DataPart{Data: json.RawMessage(`null`)}))},
		// The envelope's pass validates the whole body: the later passes,
		// which only find the end of a raw value, never see this.
		{name: "data not JSON within", body: rpc(withArtifact(`[{"kind":"data","data":{"a":tru,"b":[1 2]}}]`)),
			want: protoErr("response is not JSON", nil)},
		{name: "data absent", body: rpc(withArtifact(`[{"kind":"data"}]`)), want: protoErr(`task result does not decode: artifacts[0].parts[0]: data part has no "data"`, nil)},
		{name: "file with bytes and uri", body: rpc(withArtifact(`[{"kind":"file","file":{"bytes":"aGk=","uri":"https://files.example/x"}}]`)),
			want: all(isTask(artifactOf(a2a.FilePart{File: a2a.FileContent{Bytes: "aGk=", URI: "https://files.example/x"}})), fileDecode("", "both bytes and uri"))},
		{name: "file with neither bytes nor uri", body: rpc(withArtifact(`[{"kind":"file","file":{"name":"x.txt"}}]`)),
			want: all(isTask(artifactOf(a2a.FilePart{File: a2a.FileContent{Name: "x.txt"}})), fileDecode("", "neither bytes nor uri"))},
		{name: "file with invalid base64", body: rpc(withArtifact(`[{"kind":"file","file":{"bytes":"!!not base64"}}]`)),
			want: all(isTask(artifactOf(a2a.FilePart{File: a2a.FileContent{Bytes: "!!not base64"}})), fileDecode("", "not valid base64"))},
		{name: "file by uri only", body: rpc(withArtifact(`[{"kind":"file","file":{"uri":"https://files.example/x","mimeType":"image/png"}}]`)),
			want: all(isTask(artifactOf(a2a.FilePart{File: a2a.FileContent{URI: "https://files.example/x", MIMEType: "image/png"}})), fileDecode("", "given by uri"))},
		{name: "very large text part", body: rpc(withArtifact(`[{"kind":"text","text":"` + strings.Repeat("数", 2<<20) + `"}]`)),
			want: isTask(artifactOf(a2a.TextPart{Text: strings.Repeat("数", 2<<20)}))},
		{name: "text part with a number", body: rpc(withArtifact(`[{"kind":"text","text":5}]`)), want: protoErr("task result does not decode: json: cannot unmarshal number into Go struct field Task.artifacts[0].parts[0].text", nil)},
		{name: "part kind nobody knows", body: rpc(withArtifact(`[{"kind":"video","url":"x"},{"kind":"text","text":"摘要"}]`)),
			want: isTask(artifactOf(a2a.UnknownPart{PartKind: "video", Raw: json.RawMessage(`{"kind":"video","url":"x"}`)}, a2a.TextPart{Text: "摘要"}))},
		{name: "unknown or absent kinds with odd-typed known members", body: rpc(withArtifact(`[{"kind":"image","file":"https://x/y.png"},{"text":{"rich":true}},{"text":"hi","data":null}]`)),
			want: isTask(artifactOf(a2a.UnknownPart{PartKind: "image", Raw: json.RawMessage(`{"kind":"image","file":"https://x/y.png"}`)},
				a2a.UnknownPart{Raw: json.RawMessage(`{"text":{"rich":true}}`)}, a2a.TextPart{Text: "hi"}))},
		{name: "parts without kind", body: rpc(withArtifact(`[{"text":"摘要"},{"data":{"a":1}},{"raw":"aGk=","mediaType":"text/plain"}]`)),
			want: isTask(artifactOf(a2a.TextPart{Text: "摘要"}, a2a.DataPart{Data: json.RawMessage(`{"a":1}`)},
				a2a.UnknownPart{Raw: json.RawMessage(`{"raw":"aGk=","mediaType":"text/plain"}`)}))},
		{name: "unknown members everywhere", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","x":1,"status":{"state":"completed","y":[2]},` +
			`"artifacts":[{"artifactId":"a1","name":"entity","z":{},"parts":[{"kind":"text","text":"s","w":null}]}],"v":"end"}`),
			want: all(isTask(artifactOf(a2a.TextPart{Text: "s"})), taskThen(func(t *testing.T, task *a2a.Task) {
				if !bytes.Contains(task.Raw(), []byte(`"v":"end"`)) {
					t.Errorf("Raw() lost unknown members: %s", task.Raw())
				}
			}))},
	}
}

// TestPartFaults runs the part rows of the hostile-server table.
func TestPartFaults(t *testing.T) { runRows(t, partRows()) }

// TestDecoderReadsEveryField: a task and both events with every exported
// field set (checked by reflection, so a field added to a type fails here
// until this value sets it) survive encoding and decoding unchanged. A
// field the decoder's tables do not read would come back empty.
func TestDecoderReadsEveryField(t *testing.T) {
	meta := json.RawMessage(`{"k":[1,"二"]}`)
	msg := func(id string, role a2a.Role) a2a.Message {
		return a2a.Message{MessageID: id, Role: role, TaskID: "t1", ContextID: "c1", ReferenceTaskIDs: []string{"t0"},
			Extensions: []string{"urn:x"}, Metadata: meta, RawRole: "ROLE_AGENT",
			Parts: a2a.Parts{
				a2a.TextPart{Text: "摘要", MediaType: "text/plain", Filename: "s.txt", Metadata: meta},
				a2a.DataPart{Data: json.RawMessage(`{"a":1}`), MediaType: "application/json", Filename: "d.json", Metadata: meta},
				a2a.FilePart{File: a2a.FileContent{Name: "f.png", MIMEType: "image/png", Bytes: "aGk=", URI: "https://x/f.png"}, Metadata: meta},
				a2a.UnknownPart{PartKind: "video", Raw: json.RawMessage(`{"kind":"video","url":"x"}`)},
			}}
	}
	art := a2a.Artifact{ArtifactID: "a1", Name: "entity", Description: "d", Parts: msg("m", a2a.RoleAgent).Parts, Metadata: meta, Extensions: []string{"urn:y"}}
	status := a2a.TaskStatus{State: a2a.TaskStateCompleted, RawState: "TASK_STATE_COMPLETED", Timestamp: "2026-01-02T03:04:05Z", Message: ptr(msg("m2", a2a.RoleAgent))}
	values := []any{
		&a2a.Task{ID: "t1", ContextID: "c1", Status: status, History: []a2a.Message{msg("m1", a2a.RoleUser)}, Artifacts: []a2a.Artifact{art}, Metadata: meta},
		&a2a.TaskStatusUpdateEvent{TaskID: "t1", ContextID: "c1", Status: status, Final: true, Metadata: meta},
		&a2a.TaskArtifactUpdateEvent{TaskID: "t1", ContextID: "c1", Artifact: art, Append: true, LastChunk: true, Metadata: meta},
	}
	for _, v := range values {
		allSet(t, reflect.ValueOf(v).Elem(), reflect.TypeOf(v).Elem().Name())
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		// The raw spellings are not encoded; they come back from the v1.0
		// spellings a v1.0 agent sends.
		b = bytes.ReplaceAll(b, []byte(`"state":"completed"`), []byte(`"state":"TASK_STATE_COMPLETED"`))
		b = bytes.ReplaceAll(b, []byte(`"role":"agent"`), []byte(`"role":"ROLE_AGENT"`))
		got := reflect.New(reflect.TypeOf(v).Elem()).Interface()
		if err := json.Unmarshal(b, got); err != nil {
			t.Fatalf("%T: %v\n%s", v, err, b)
		}
		if task, ok := v.(*a2a.Task); ok {
			task.History[0].RawRole = "" // sent as "user": nothing was mapped
		}
		if diff := cmp.Diff(v, got, ignoreTaskInternals); diff != "" {
			t.Errorf("%T after a round trip (-want +got):\n%s", v, diff)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// allSet fails t for every exported field under v that holds its zero
// value (the first element of a slice stands for all).
func allSet(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			t.Errorf("%s is nil", path)
			return
		}
		allSet(t, v.Elem(), path)
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				allSet(t, v.Field(i), path+"."+f.Name)
			}
		}
	case reflect.Slice:
		if v.Len() == 0 {
			t.Errorf("%s is empty", path)
			return
		}
		if v.Type().Elem().Kind() != reflect.Uint8 {
			allSet(t, v.Index(0), path+"[0]")
		}
	default:
		if v.IsZero() {
			t.Errorf("%s is zero", path)
		}
	}
}

// TestRawValuesOwnTheirEnds: appending to a raw value of a decoded task
// (DataPart.Data, metadata, Raw) copies it, and never writes over the
// bytes after it, which other values share.
func TestRawValuesOwnTheirEnds(t *testing.T) {
	result := `{"kind":"task","id":"t","status":{"state":"completed"},"artifacts":[{"artifactId":"a","parts":[{"kind":"data","data":{"n":1},"metadata":{"m":2}},{"kind":"video"}]}]}`
	c, _ := newMock(t, []mockReply{{body: []byte(`{"jsonrpc":"2.0","id":{{id}},"result":` + result + `}`)}})
	live, err := c.GetTask(context.Background(), "t")
	if err != nil {
		t.Fatal(err)
	}
	var stored a2a.Task
	if err := json.Unmarshal([]byte(result), &stored); err != nil {
		t.Fatal(err)
	}
	for _, task := range []*a2a.Task{live, &stored} {
		parts := task.Artifacts[0].Parts
		dp := parts[0].(a2a.DataPart)
		_ = append(dp.Data, "XXXXXXXX"...)
		_ = append(dp.Metadata, "XXXXXXXX"...)
		_ = append(parts[1].(a2a.UnknownPart).Raw, "XXXXXXXX"...)
		_ = append(task.Raw(), "XXXXXXXX"...)
		if string(dp.Metadata) != `{"m":2}` || string(task.Raw()) != result || string(parts[1].(a2a.UnknownPart).Raw) != `{"kind":"video"}` {
			t.Errorf("after appends: metadata %s, raw %s", dp.Metadata, task.Raw())
		}
	}
}
