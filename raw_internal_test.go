package a2a

import (
	"encoding/json"
	"testing"
)

// TestRawNotification: an event read from a push notification keeps the
// agent's bytes of the object, as a stream event does: the v0.3 JSON-RPC
// event with its kind, the value inside a v1.0 or v0.3 proto
// StreamResponse.
func TestRawNotification(t *testing.T) {
	const (
		v03Status = `{"kind":"status-update","taskId":"t1","contextId":"c1","status":{"state":"working"},"final":false, "x":1}`
		v10Status = `{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"},"x":1}`
		v10Art    = `{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a","parts":[{"text":"t"}]} }`
		v10Msg    = `{"messageId":"m1","role":"ROLE_AGENT","parts":[{"text":"hi"}]}`
		pbStatus  = `{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"},"final":false}`
	)
	for _, tc := range []struct {
		name      string
		first     binding
		body, raw string
	}{
		{"v0.3 JSON-RPC status update", v03{}, "\n" + v03Status + " \n", v03Status},
		{"v1.0 statusUpdate", v10{}, `{"statusUpdate": ` + v10Status + `}`, v10Status},
		{"v1.0 artifactUpdate", rest10{}, `{"artifactUpdate":` + v10Art + `}`, v10Art},
		{"v1.0 message", v10{}, `{"message":` + v10Msg + `}`, v10Msg},
		{"v0.3 proto status_update", rest03{}, `{"status_update":` + pbStatus + `}`, pbStatus},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, perr := readNotification(tc.first, []byte(tc.body), asked{method: "push notification"})
			if perr != nil {
				t.Fatalf("error %v", perr)
			}
			var raw json.RawMessage
			switch e := ev.(type) {
			case *TaskStatusUpdateEvent:
				raw = e.Raw()
			case *TaskArtifactUpdateEvent:
				raw = e.Raw()
			case *Message:
				raw = e.Raw()
			default:
				t.Fatalf("event %T", ev)
			}
			if string(raw) != tc.raw {
				t.Errorf("Raw = %q, want %q", raw, tc.raw)
			}
		})
	}
}
