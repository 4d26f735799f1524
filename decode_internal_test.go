package a2a

import (
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
