package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// TestStreamCut: a stream the agent closes before its task is final, in
// either version, for stream and resubscribe, exits "not finished" and
// prints the task, its context and the command that follows it again.
func TestStreamCut(t *testing.T) {
	t.Parallel()
	dropping := func(version string) *a2atest.Server {
		opts := []a2atest.Option{a2atest.OnSend(func(a2a.Message) a2atest.Reply {
			return a2atest.Reply{
				Task:   a2atest.StatusTask(a2a.TaskStateWorking, ""),
				States: []a2a.TaskState{a2a.TaskStateWorking},
				Events: []a2a.Event{
					&a2a.Task{ID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateSubmitted}},
					&a2a.TaskStatusUpdateEvent{TaskID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}},
				},
			}
		})}
		if version == a2a.ProtocolV10 {
			opts = append(opts, a2atest.V10())
		}
		return newAgent(t, opts...)
	}
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		agent := dropping(version)
		r := a2aCmd(t, "stream", "--protocol", version, agent.URL, "盘点")
		r.wantCode(t, exitUnfinished)
		for _, want := range []string{"task task-1, context ctx-1", "a2a resubscribe --protocol " + version + " " + agent.URL + " task-1"} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%s stream: stderr lacks %q:\n%s", version, want, r.stderr)
			}
		}
		// Resubscribed: the agent's stream of a working task closes at once.
		r = a2aCmd(t, "resubscribe", "--protocol", version, agent.URL, "task-1")
		r.wantCode(t, exitUnfinished)
		if !strings.Contains(r.stderr, "a2a resubscribe --protocol "+version+" "+agent.URL+" task-1") {
			t.Errorf("%s resubscribe: stderr lacks the resume command:\n%s", version, r.stderr)
		}
	}
}

// TestStreamInterruptedHeldOpen: a v1.0 stream that reaches
// input-required or auth-required is over: the command ends with the
// "waits for you" code while the agent still holds the connection, which
// it lets go only after the command has returned.
func TestStreamInterruptedHeldOpen(t *testing.T) {
	t.Parallel()
	for _, state := range []string{"TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"} {
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			// The request id of the CLI's first call is 1.
			io.WriteString(w, `data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}}`+"\n\n"+
				`data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"`+state+`"}}}}`+"\n\n")
			http.NewResponseController(w).Flush()
			<-release
		}))
		r := a2aCmd(t, "stream", "--protocol", "1.0", srv.URL, "盘点")
		close(release)
		srv.Close()
		r.wantCode(t, exitInterrupted)
	}
}

// TestStreamErrorAfterTask: an agent's JSON-RPC error inside a stream
// whose task is known is printed, and so are the task, its context and
// the command that follows it again; the command exits 1 (an error), not
// "not finished".
func TestStreamErrorAfterTask(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		// The request id of the CLI's first call is 1.
		io.WriteString(w, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"t1","contextId":"c1","status":{"state":"working"},"final":false}}`+"\n\n"+
			`data: {"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"the model fell over"}}`+"\n\n")
	}))
	defer srv.Close()
	r := a2aCmd(t, "stream", srv.URL, "盘点")
	r.wantCode(t, exitError)
	for _, want := range []string{"the model fell over", "task t1, context c1", "a2a resubscribe " + srv.URL + " t1"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}
