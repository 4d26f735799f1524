package a2a

import "testing"

// TestV10Stored: the version of stored bytes, told from the top of the
// object (and the status message) only.
func TestV10Stored(t *testing.T) {
	task := func(b string) bool { return v10Stored([]byte(b), "status", "state") }
	msg := func(b string) bool { return v10Stored([]byte(b), "role") }
	status := func(b string) bool { return v10Stored([]byte(b), "state") }
	for _, tc := range []struct {
		name string
		got  bool
		want bool
	}{
		{"v0.3 task, kind first", task(`{"kind":"task","id":"t","status":{"state":"completed"}}`), false},
		{"v0.3 task, kind last", task(`{"id":"t","status":{"state":"TASK_STATE_COMPLETED"},"kind":"task"}`), false},
		{"v0.3 task without kind", task(`{"id":"t","status":{"state":"completed"}}`), false},
		{"v1.0 task", task(`{"id":"t","artifacts":[{"parts":[{"text":"}\"{"}]}],"status":{"state":"TASK_STATE_COMPLETED"}}`), true},
		{"v1.0 task, numeric state", task(` { "id" : "t" , "status" : { "state" : 3 } } `), true},
		{"v1.0 task, no state", task(`{"id":"t","status":{}}`), true},
		{"v1.0 task, no status", task(`{"id":"t"}`), true},
		{"v1.0 task, status null", task(`{"id":"t","status":null}`), true},
		{"v1.0 state, v0.3 status message", task(`{"id":"t","status":{"state":"TASK_STATE_FAILED","message":{"kind":"message","role":"agent"}}}`), false},
		{"v1.0 state and message", task(`{"id":"t","status":{"message":{"role":"ROLE_AGENT","parts":[{"text":"x"}]},"state":"TASK_STATE_FAILED"}}`), true},
		{"kind inside data is not the task's", task(`{"id":"t","artifacts":[{"parts":[{"data":{"kind":"x"}}]}],"status":{"state":"TASK_STATE_COMPLETED"}}`), true},
		{"not an object", task(`[1]`), false},
		{"kindless, a state nobody knows", task(`{"id":"t","status":{"state":"paused"}}`), true},
		{"truncated", task(`{"id":"t","status":{"state":"TASK_STATE_COMPL`), false},
		{"v0.3 message", msg(`{"kind":"message","role":"user","parts":[]}`), false},
		{"v1.0 message", msg(`{"role":"ROLE_USER","parts":[{"text":"hi"}]}`), true},
		{"v1.0 message, role 2", msg(`{"role":2}`), true},
		{"kindless v0.3 message", msg(`{"role":"agent"}`), false},
		{"v0.3 status", status(`{"state":"completed","message":{"kind":"message"}}`), false},
		{"v1.0 status", status(`{"state":"TASK_STATE_WORKING"}`), true},
		{"v1.0 status, number", status(`{"state":5}`), true},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: v1.0 %v; want %v", tc.name, tc.got, tc.want)
		}
	}
}
