package a2a

import (
	"errors"
	"testing"
)

// TestReadNotificationDialects: a notification is read in the dialect the
// agent wrote it in, whatever the binding of the client that waits, so a
// failed task's reason and a file's bytes are never read with another
// dialect's rules and lost (outside attack, round 2).
func TestReadNotificationDialects(t *testing.T) {
	const (
		protoFailed = `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_FAILED","update":{"messageId":"m1","role":"ROLE_AGENT","content":[{"text":"quota exceeded"}]}}}`
		protoFile   = `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a1","parts":[{"file":{"fileWithBytes":"aGVsbG8=","mimeType":"text/plain"}}]}]}}`
		rpcFailed   = `{"kind":"task","id":"t1","contextId":"c1","status":{"state":"failed","message":{"kind":"message","messageId":"m1","role":"agent","parts":[{"kind":"text","text":"quota exceeded"}]}}}`
		v10Failed   = `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_FAILED","message":{"messageId":"m1","role":"ROLE_AGENT","parts":[{"text":"quota exceeded"}]}}}}`
	)
	reasonIs := func(t *testing.T, ev Event) {
		task, ok := ev.(*Task)
		if !ok || task.Status.State != TaskStateFailed || task.StatusText() != "quota exceeded" {
			t.Errorf("event = %#v, want the failed task with its reason", ev)
		}
	}
	fileIs := func(t *testing.T, ev Event) {
		task, ok := ev.(*Task)
		if !ok || len(task.Artifacts) != 1 || len(task.Artifacts[0].Parts) != 1 {
			t.Fatalf("event = %#v, want a task with one file part", ev)
		}
		f, ok := task.Artifacts[0].Parts[0].(FilePart)
		if b, err := f.File.Decode(); !ok || err != nil || string(b) != "hello" {
			t.Errorf("part = %#v (%v), want the file's bytes", task.Artifacts[0].Parts[0], err)
		}
	}
	for _, tc := range []struct {
		name  string
		first binding
		body  string
		want  func(*testing.T, Event)
	}{
		{"v0.3 proto task to a v0.3 HTTP+JSON client", rest03{}, protoFailed, reasonIs},
		{"v0.3 proto file to a v0.3 HTTP+JSON client", rest03{}, protoFile, fileIs},
		{"v0.3 JSON-RPC task to a v0.3 HTTP+JSON client", rest03{}, rpcFailed, reasonIs},
		{"v1.0 StreamResponse to a v0.3 HTTP+JSON client", rest03{}, v10Failed, reasonIs},
		{"v0.3 proto task to a v1.0 client", v10{}, `{"task":` + protoFailed + `}`, reasonIs},
		{"v0.3 proto file to a v1.0 HTTP+JSON client", rest10{}, protoFile, fileIs},
		{"v0.3 JSON-RPC task to a v1.0 client", v10{}, rpcFailed, reasonIs},
		{"v0.3 JSON-RPC task to a v0.3 JSON-RPC client", v03{}, rpcFailed, reasonIs},
		{"v1.0 StreamResponse to a v0.3 JSON-RPC client", v03{}, v10Failed, reasonIs},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev, perr := readNotification(tc.first, []byte(tc.body), asked{method: "push notification"})
			if perr != nil {
				t.Fatalf("error %v", perr)
			}
			tc.want(t, ev)
		})
	}
}

// TestV10RefusesProtoV03Shapes: a v1.0 client given the v0.3 proto's
// status ("update") or file ("fileWithBytes") says the agent speaks the
// other version instead of returning the task without its reason or bytes.
func TestV10RefusesProtoV03Shapes(t *testing.T) {
	for _, body := range []string{
		`{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_FAILED","update":{"messageId":"m1","role":"ROLE_AGENT","content":[{"text":"quota exceeded"}]}}}`,
		`{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a1","parts":[{"file":{"fileWithUri":"https://x/y","mimeType":"text/plain"}}]}]}`,
	} {
		task, err := v10{}.task(&reply{asked: asked{method: "GetTask"}, result: []byte(body)})
		if task != nil || !errors.Is(err, ErrVersionMismatch) {
			t.Errorf("%s\n= %#v, %v; want ErrVersionMismatch", body, task, err)
		}
	}
}
