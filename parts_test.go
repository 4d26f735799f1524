package a2a_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// FuzzParts decodes any JSON as a list of parts. Decoding either fails or
// gives parts whose encoding is stable, and the helpers on them (Text,
// Data, File.Decode, DataPart.Decode) do not panic.
func FuzzParts(f *testing.F) {
	for _, row := range hostileRows("") {
		if strings.Contains(row.body, `"parts":`) && len(row.body) <= maxSeed {
			var v struct {
				Result struct {
					Artifacts []struct{ Parts json.RawMessage }
				}
			}
			if json.Unmarshal([]byte(strings.ReplaceAll(row.body, "{{id}}", "1")), &v) == nil {
				for _, a := range v.Result.Artifacts {
					f.Add([]byte(a.Parts))
				}
			}
		}
	}
	f.Add([]byte(`[{"kind":"text","text":"摘要"},{"kind":"data","data":{"a":[1,{"b":null}]}},{"kind":"file","file":{"bytes":"aGk=","name":"a.txt"}}]`))
	f.Add([]byte(`[{"text":"x","data":1},{"kind":"","raw":"aGk="},null,{"kind":"file","file":null}]`))
	f.Fuzz(func(t *testing.T, in []byte) {
		var ps a2a.Parts
		if json.Unmarshal(in, &ps) != nil {
			return
		}
		_ = ps.Text()
		if d, ok := ps.Data(); ok {
			_ = d.Decode(new(map[string]any))
		}
		for _, p := range ps {
			if p == nil {
				t.Fatal("a nil Part in decoded Parts")
			}
			_ = p.Kind()
			if fp, ok := p.(a2a.FilePart); ok {
				_, _ = fp.File.Decode()
			}
		}
		first, err := json.Marshal(ps)
		if err != nil {
			t.Fatalf("decoded parts do not encode: %v", err)
		}
		var ps2 a2a.Parts
		if err := json.Unmarshal(first, &ps2); err != nil {
			t.Fatalf("encoded parts do not decode: %v\n%s", err, first)
		}
		second, err := json.Marshal(ps2)
		if err != nil || !bytes.Equal(first, second) {
			t.Fatalf("decode/encode is not stable (%v):\n%s\n%s", err, first, second)
		}
	})
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
	var got card
	if err := dp.Decode(&got); err != nil {
		t.Fatal(err)
	}
	want := card{Title: "数控车床-A08-03-06", Status: map[string]string{"设备运行状态": "正常"}, ActionCount: 2}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DecodeData (-want +got):\n%s", diff)
	}
	if err := dp.Decode(new([]int)); err == nil {
		t.Error("object decoded into []int without error")
	}
	var missing *a2a.Artifact = task.Artifact("records")
	if missing != nil || missing.Text() != "" {
		t.Error("Artifact(records) should be nil and safe")
	}
	if err := missing.DecodeData(&struct{}{}); err != a2a.ErrNoData {
		t.Errorf("nil artifact DecodeData = %v, want ErrNoData", err)
	}
	if err := (a2a.DataPart{}).Decode(&struct{}{}); err != a2a.ErrNoData {
		t.Errorf("empty DataPart.Decode = %v, want ErrNoData", err)
	}
}

// TestRepeatedPartMembers: in bytes decoded by exact names, the last of a
// repeated member decides, null included.
func TestRepeatedPartMembers(t *testing.T) {
	var ps a2a.Parts
	if err := json.Unmarshal([]byte(`[{"kind":"file","file":{"uri":"http://evil"},"file":null}]`), &ps); err == nil {
		t.Errorf("a file part whose last file is null: %#v, want an error", ps)
	}
	if err := json.Unmarshal([]byte(`[{"file":{"uri":"u"},"text":"hi","file":null}]`), &ps); err != nil || len(ps) != 1 || !cmp.Equal(ps[0], a2a.Part(a2a.TextPart{Text: "hi"})) {
		t.Errorf("a kind-less part whose last file is null: %#v, %v; want a TextPart", ps, err)
	}
}

// TestArtifactDecodeData: one step from an artifact (nil-safe) to a typed
// value.
func TestArtifactDecodeData(t *testing.T) {
	task := a2atest.CompletedTask("records", map[string]int{"count": 2}, "两条")
	var got struct{ Count int }
	if err := task.Artifact("records").DecodeData(&got); err != nil || got.Count != 2 {
		t.Errorf("got %+v, %v", got, err)
	}
	if err := task.Artifact("absent").DecodeData(&struct{}{}); !errors.Is(err, a2a.ErrNoData) {
		t.Errorf("absent artifact: %v; want ErrNoData", err)
	}
}
