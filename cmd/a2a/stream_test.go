package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// TestStreamCut: a stream the agent closes before its task ends, in
// either version, for send --stream, task subscribe --stream and task
// subscribe, is followed again (five times at most), then the task is
// polled to its end (the specification's TASK_POLL_004): nothing is lost.
func TestStreamCut(t *testing.T) {
	t.Parallel()
	sse := func(events ...string) a2atest.Raw {
		var b strings.Builder
		for _, e := range events {
			b.WriteString(`data: {"jsonrpc":"2.0","id":{{id}},"result":` + e + "}\n\n")
		}
		return a2atest.Raw{Status: 200, ContentType: "text/event-stream", EchoID: true, Body: b.String()}
	}
	for _, tc := range []struct {
		version       string
		task, update  string // the stream's events
		done          string // GetTask's reply
		stream, again string // the methods
	}{
		{a2a.ProtocolV03, `{"kind":"task","id":"task-1","contextId":"ctx-1","status":{"state":"submitted"}}`,
			`{"kind":"status-update","taskId":"task-1","contextId":"ctx-1","status":{"state":"working"},"final":false}`,
			`{"kind":"task","id":"task-1","contextId":"ctx-1","status":{"state":"completed"}}`, "message/stream", "tasks/resubscribe"},
		{a2a.ProtocolV10, `{"task":{"id":"task-1","contextId":"ctx-1","status":{"state":"TASK_STATE_SUBMITTED"}}}`,
			`{"statusUpdate":{"taskId":"task-1","contextId":"ctx-1","status":{"state":"TASK_STATE_WORKING"}}}`,
			`{"id":"task-1","contextId":"ctx-1","status":{"state":"TASK_STATE_COMPLETED"}}`, "SendStreamingMessage", "SubscribeToTask"},
	} {
		for _, args := range [][]string{{"send", "--stream", "盘点"}, {"task", "subscribe", "--stream", "task-1"}, {"task", "subscribe", "task-1"}} {
			agent := newAgent(t)
			if tc.version == a2a.ProtocolV10 {
				agent = newAgent(t, a2atest.V10())
			}
			first := tc.again
			if args[0] == "send" {
				first = tc.stream
			}
			agent.Enqueue(sse(tc.task, tc.update))
			for range 5 {
				agent.Enqueue(sse()) // closed at once
			}
			agent.Enqueue(rpcResult(tc.done))
			r := a2aCmd(t, append(args, "-e", agent.URL, "--a2a-version", tc.version, "--poll-interval", "10ms")...)
			r.wantCode(t, exitOK)
			if want := "Task: task-1\nContext: ctx-1\nStatus: completed\n"; !strings.HasSuffix(r.stdout, want) {
				t.Errorf("v%s %q: stdout does not end with %q:\n%s", tc.version, args, want, r.stdout)
			}
			poll := "tasks/get"
			if tc.version == a2a.ProtocolV10 {
				poll = "GetTask"
			}
			want := append(append([]string{first}, slices.Repeat([]string{tc.again}, 5)...), poll)
			if got := calls(agent); !slices.Equal(got, want) {
				t.Errorf("v%s %q: calls %q, want %q", tc.version, args, got, want)
			}
		}
	}
}

// TestStreamInterruptedHeldOpen: a v1.0 stream that reaches
// input-required or auth-required is over: the command ends (its code
// with --task-exit-codes: 11) while the agent still holds the connection,
// which it lets go only after the command has returned.
func TestStreamInterruptedHeldOpen(t *testing.T) {
	t.Parallel()
	for _, state := range []string{"TASK_STATE_INPUT_REQUIRED", "TASK_STATE_AUTH_REQUIRED"} {
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			// The request id of the CLI's first call is 1 (-e: no card read).
			io.WriteString(w, `data: {"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}}`+"\n\n"+
				`data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"`+state+`"}}}}`+"\n\n")
			http.NewResponseController(w).Flush()
			<-release
		}))
		r := a2aCmd(t, "send", "--stream", "--task-exit-codes", "-e", srv.URL, "盘点")
		close(release)
		srv.Close()
		r.wantCode(t, exitTaskInterrupted)
		if !strings.Contains(r.stdout, "Resume: a2a send -e "+srv.URL+" --task-id t1 --context-id c1 'ANSWER'\n") {
			t.Errorf("%s: no answer line:\n%s", state, r.stdout)
		}
	}
}

// TestStreamErrorAfterTask: an agent's JSON-RPC error inside a stream
// whose task is known is printed, and so are the task, its context and
// the command that follows it again (text: stdout; -o json: the envelope
// last on stdout, the Resume line on stderr); the command exits 1 (an
// error), not 0.
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
	resume := "a2a task subscribe -e " + srv.URL + " --a2a-version 0.3 t1\n"
	r := a2aCmd(t, "send", "--stream", "-e", srv.URL, "--a2a-version", "0.3", "盘点")
	r.wantCode(t, exitError)
	if want := "a2a send: InternalError: the model fell over"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
	if want := "Task: t1\nContext: c1\nStatus: working\n"; !strings.Contains(r.stdout, want) || !strings.HasSuffix(r.stdout, "Resume: "+resume) {
		t.Errorf("stdout lacks %q or the Resume line:\n%s", want, r.stdout)
	}

	r = a2aCmd(t, "send", "--stream", "-e", srv.URL, "--a2a-version", "0.3", "-o", "json", "盘点")
	r.wantCode(t, exitError)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], `{"kind":"status-update",`) || !strings.HasPrefix(lines[1], `{"error":{"code":"InternalError",`) {
		t.Errorf("-o json: stdout is not the event then the envelope:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "resume: "+resume) {
		t.Errorf("-o json: stderr lacks the resume line:\n%s", r.stderr)
	}
}
