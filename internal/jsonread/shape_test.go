package jsonread

import "testing"

// TestV10Stored: stored bytes are read as v0.3 when they have a "kind" at
// their top, else as v1.0 (the root package's v10Stored), told from member
// names alone.
func TestV10Stored(t *testing.T) {
	top := func(b string) bool { return LacksMember([]byte(b), "kind") }
	for _, tc := range []struct {
		name string
		got  bool
		want bool
	}{
		{"v0.3 task, kind first", top(`{"kind":"task","id":"t","status":{"state":"completed"}}`), false},
		{"v0.3 task, kind last", top(`{"id":"t","status":{"state":"TASK_STATE_COMPLETED"},"kind":"task"}`), false},
		{"v0.3 task without kind", top(`{"id":"t","status":{"state":"completed"}}`), true},
		{"v1.0 task", top(`{"id":"t","artifacts":[{"parts":[{"text":"}\"{\\\\"}]}],"status":{"state":"TASK_STATE_COMPLETED"}}`), true},
		{"v1.0 task with space", top(` { "id" : "t" , "status" : { "state" : 3 } , "x" : [ true , null , -1.5e3 ] } `), true},
		{"kind inside the status is not the task's", top(`{"id":"t","status":{"kind":"x","state":"TASK_STATE_FAILED"}}`), true},
		{"kind inside data is not the task's", top(`{"id":"t","artifacts":[{"parts":[{"data":{"kind":"x"}}]}]}`), true},
		{"kind as a string value", top(`{"id":"kind","note":"\"kind\":1"}`), true},
		// Without the text "kind" the bytes go to the v1.0 reader, which
		// reports malformed input as the v0.3 one does.
		{"not an object, no kind", top(`[1]`), true},
		{"not an object", top(`["kind"]`), false},
		{"truncated", top(`{"id":"t","status":{"state":"TASK_STATE_COMPL`), true},
		{"truncated after a kind inside", top(`{"id":"t","status":{"message":{"kind":"message"`), false},
		{"a key without a colon", top(`{"id" "t","x":"kind"}`), false},
		{"v0.3 message", top(`{"kind":"message","role":"user","parts":[]}`), false},
		{"v1.0 message", top(`{"role":"ROLE_USER","parts":[{"text":"hi"}]}`), true},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: v1.0 %v; want %v", tc.name, tc.got, tc.want)
		}
	}
}
