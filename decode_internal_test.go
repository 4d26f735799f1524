package a2a

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"
)

// TestFastReplyTaken: ordinary replies take the one-pass path; a part of an
// unknown kind sends the reply to the general path, which keeps its bytes.
func TestFastReplyTaken(t *testing.T) {
	c, err := NewClient("http://127.0.0.1:1/")
	if err != nil {
		t.Fatal(err)
	}
	for file, fast := range map[string]bool{
		"send_completed_entity.json": true, "send_failed.json": true, "input_required.json": true,
		"send_message_reply.json": true, "unknown_state.json": false, "error_task_not_found.json": false,
	} {
		body, err := os.ReadFile("testdata/" + file)
		if err != nil {
			t.Fatal(err)
		}
		st := &callState{method: "message/send", id: 1, body: body}
		rep := c.fastReply(st, &http.Response{StatusCode: 200})
		if (rep != nil) != fast {
			t.Errorf("%s: fast path taken = %v, want %v", file, rep != nil, fast)
		}
	}
}

func TestHasOddStateKey(t *testing.T) {
	for in, want := range map[string]bool{
		`{"status":{"state":"failed"}}`:             false,
		`{"status":{"state":"failed","STATE":"x"}}`: true,
		`{"State":1}`:                   true,
		`{"text":"the \"State\" word"}`: false,
		`{"a":"b"}`:                     false,
		`"`:                             false,
		`{"x":"sTaTe"}`:                 true,
		``:                              false,
		`{"stateful":"STATEFUL"}`:       false,
		`{"state":"ok"}"`:               false,
	} {
		if got := hasOddStateKey([]byte(in)); got != want {
			t.Errorf("hasOddStateKey(%s) = %v, want %v", in, got, want)
		}
	}
}

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
