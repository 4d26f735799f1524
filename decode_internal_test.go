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

// TestFastPathAgreesOnOddBodies: bodies a differential fuzzer found to part
// the two decoding paths now give the same answer on both.
func TestFastPathAgreesOnOddBodies(t *testing.T) {
	c, err := NewClient("http://127.0.0.1:1/")
	if err != nil {
		t.Fatal(err)
	}
	w := func(r string) string { return `{"jsonrpc":"2.0","id":1,"result":` + r + `}` }
	bodies := []string{
		`{"jsonrpc":"2.0","jsonrpc":null,"id":1,"result":{"kind":"task","id":"t"}}`,
		w(`{"kind":"task","id":"t","status":{"state":"working","\u0053tate":"completed"}}`),
		w(`{"kind":"task","id":"t","status":{"state":"working","ſtate":"completed"}}`),
		w(`{"kind":"task","id":"t","status":{"state":"working","Message":{"role":"agent","parts":[]},"TIMESTAMP":"x"}}`),
		w(`{"kind":"task","id":"t","status":{"state":"a","timestamp":"x"},"status":{"state":"b"}}`),
		w(`{"kind":"task","id":"t","status":{"state":"working","state":null}}`),
		w(`{"kind":"message","history":[{"parts":[{"kind":"data"}]}]}`),
	}
	for _, body := range bodies {
		for _, method := range []string{"tasks/get", "message/send"} {
			st := &callState{method: method, id: 1, body: []byte(body)}
			resp := &http.Response{StatusCode: 200}
			var fastTask *Task
			var fastErr error
			if rep := c.fastReply(st, resp); rep != nil {
				fastTask, fastErr = rep.decodeTask()
			} else {
				continue // declined: only the general path answers
			}
			rep, err := c.checkResponse(st, resp)
			var general *Task
			if err == nil {
				general, err = rep.decodeTask()
			}
			if (fastErr == nil) != (err == nil) {
				t.Errorf("%s %s: fast err %v, general err %v", method, body, fastErr, err)
				continue
			}
			if general != nil && fastTask != nil && (general.ID != fastTask.ID || general.Status.State != fastTask.Status.State ||
				general.Status.Timestamp != fastTask.Status.Timestamp || (general.Status.Message == nil) != (fastTask.Status.Message == nil)) {
				t.Errorf("%s %s: fast %+v, general %+v", method, body, fastTask.Status, general.Status)
			}
		}
	}
	// An empty (non-nil) DataPart is left to MarshalJSON, which refuses it.
	if _, ok := (Message{Parts: Parts{DataPart{Data: json.RawMessage{}}}}).wire(); ok {
		t.Error("wire took an empty DataPart")
	}
}
