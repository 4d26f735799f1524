package a2a

import (
	"encoding/json"
	"testing"
)

// TestMessageWireMatchesMarshal: the one-pass form of an outgoing message
// encodes to the same bytes as Message.MarshalJSON.
func TestMessageWireMatchesMarshal(t *testing.T) {
	dp, _ := NewDataPart(map[string]any{"code": "okDISU", "n": 1})
	msgs := []Message{
		NewTextMessage("这个二维码是什么？"),
		{MessageID: "m1", Role: RoleUser, Parts: Parts{TextPart{Text: "a", Metadata: json.RawMessage(`{"k":1}`)}, dp, DataPart{},
			NewFileBytes("f.txt", "text/plain", []byte("hi")), FilePart{File: FileContent{URI: "https://x/y"}}},
			TaskID: "t", ContextID: "c", ReferenceTaskIDs: []string{"r"}, Extensions: []string{}, Metadata: json.RawMessage(`{"a":[1]}`)},
		{Role: RoleUser, Parts: Parts{}},
	}
	for _, m := range msgs {
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		out, ok := m.wire()
		if !ok {
			t.Fatalf("wire refused %+v", m)
		}
		got, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("wire form:\n got %s\nwant %s", got, want)
		}
	}
	if _, ok := (Message{Parts: Parts{UnknownPart{PartKind: "x", Raw: json.RawMessage(`{"kind":"x"}`)}}}).wire(); ok {
		t.Error("wire took an UnknownPart")
	}
}

// TestMessageWireRefusals: a part only MarshalJSON can encode sends the
// message down that path.
func TestMessageWireRefusals(t *testing.T) {
	// An empty (non-nil) DataPart is left to MarshalJSON, which refuses it.
	if _, ok := (Message{Parts: Parts{DataPart{Data: json.RawMessage{}}}}).wire(); ok {
		t.Error("wire took an empty DataPart")
	}
}
