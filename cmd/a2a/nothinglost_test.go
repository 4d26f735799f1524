package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// Nothing lost to Ctrl-C, a deadline or an error (DESIGN.md behaviour 9):
// once a task's id is known, however the command ends before the task
// does, it prints the id, the context and the exact command that resumes
// (on stdout; with -o json the command on stderr, the error envelope on
// stdout).

// wantResume fails the test unless r's stdout holds the task's id, its
// context and the command that resumes (resume: "task get --wait -e
// ENDPOINT --a2a-version 0.3", the flags that reach the same agent); with
// -o json, unless its stderr holds that command.
func wantResume(t *testing.T, r result, resume, id, contextID string) {
	t.Helper()
	out, wants := r.stdout, []string{"Task: " + id + "\nContext: " + contextID + "\n", "\nResume: a2a " + resume + " " + id + "\n"}
	if slices.Contains(r.args, "json") {
		out, wants = "\n"+r.stderr, []string{"\nresume: a2a " + resume + " " + id + "\n"}
	}
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("a2a %s does not print %q:\n%s", strings.Join(r.args, " "), want, r.transcript())
		}
	}
}

// timeoutExit is the exit code of an expired --timeout: 5.
//
// TODO(classify): exitTimeout alone once the error classification merges;
// zz_stubs.go's stand-in calls it A2ACLI_ERR_INTERNAL, exit 1.
func timeoutExit() int {
	if classified() {
		return exitTimeout
	}
	return exitError
}

// pollingAgent answers message/send with task-7 (context ctx-7) in state
// sent, and every tasks/get with poll, a reply of its own.
func pollingAgent(t *testing.T, sent a2a.TaskState, poll func(w http.ResponseWriter, id string)) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if req.Method == "tasks/get" {
			poll(w, string(req.ID))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"kind":"task","id":"task-7","contextId":"ctx-7","status":{"state":"` + string(sent) + `"}}}`))
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(a2a.CloseIdleConnections)
	return srv
}

func TestNothingLost(t *testing.T) {
	t.Parallel()
	stillWorking := func(w http.ResponseWriter, id string) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{"kind":"task","id":"task-7","contextId":"ctx-7","status":{"state":"working"}}}`))
	}
	for _, tc := range []struct {
		name  string
		poll  func(w http.ResponseWriter, id string)
		args  []string // after "send -e URL --a2a-version 0.3 你好"
		ctrlC bool     // Ctrl-C once the agent is polled
		code  int
	}{
		{name: "Ctrl-C", poll: stillWorking, ctrlC: true, code: exitSignal},
		{name: "--timeout", poll: stillWorking, args: []string{"--timeout", "1s"}, code: timeoutExit()},
		{name: "--timeout -o json", poll: stillWorking, args: []string{"--timeout", "1s", "-o", "json"}, code: timeoutExit()},
		{name: "HTTP error after the send", poll: func(w http.ResponseWriter, id string) { http.Error(w, "<html>oops</html>", 500) }, code: exitError},
		{name: "JSON-RPC error after the send", poll: func(w http.ResponseWriter, id string) {
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32603,"message":"db down"}}`))
		}, code: exitError},
		{name: "Retry-After beyond --timeout", poll: func(w http.ResponseWriter, id string) {
			w.Header().Set("Retry-After", "3600")
			http.Error(w, "busy", 503)
		}, args: []string{"--timeout", "2s"}, code: timeoutExit()},
		{name: "JSON-RPC error after the send -o json", poll: func(w http.ResponseWriter, id string) {
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32603,"message":"db down"}}`))
		}, args: []string{"-o", "json"}, code: exitError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			polled := make(chan struct{}, 1)
			agent := pollingAgent(t, a2a.TaskStateWorking, func(w http.ResponseWriter, id string) {
				select {
				case polled <- struct{}{}:
				default:
				}
				tc.poll(w, id)
			})
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			if tc.ctrlC {
				go func() {
					select {
					case <-polled:
						cancel()
					case <-ctx.Done():
					}
				}()
			}
			r := invocation{ctx: ctx}.run(t, append([]string{"send", "-e", agent.URL, "--a2a-version", "0.3", "--poll-interval", "10ms", "你好"}, tc.args...)...)
			r.wantCode(t, tc.code)
			wantResume(t, r, "task get --wait -e "+agent.URL+" --a2a-version 0.3", "task-7", "ctx-7")
			if slices.Contains(tc.args, "json") {
				if v := wantJSONDoc(t, r); v["error"] == nil {
					t.Errorf("-o json: stdout is not the error envelope:\n%s", r.stdout)
				}
			}
		})
	}
}

// TestWaitStopSays: when a wait after a send stops with no task read (the
// agent answers every poll with 429/503), stderr says why, with the
// agent's answer and its Retry-After when that is what stopped the wait,
// and the state the send answered with as the last state.
func TestWaitStopSays(t *testing.T) {
	t.Parallel()
	busy := func(retryAfter string) func(w http.ResponseWriter, id string) {
		return func(w http.ResponseWriter, id string) {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			http.Error(w, "busy", 503)
		}
	}
	for _, tc := range []struct {
		name  string
		poll  func(w http.ResponseWriter, id string)
		args  []string // after "send -e URL --a2a-version 0.3 你好"
		wants []string // in stderr
	}{
		{"Retry-After far past --timeout", busy("999999999"), []string{"--timeout", "20s"},
			[]string{"the agent answered HTTP 503 and asked to retry after 24h or more" /* the SDK's cap */, "more than the", "left of --timeout 20s", `last state "submitted"`}},
		{"Retry-After past --timeout", busy("3600"), []string{"--timeout", "20s"},
			[]string{"the agent answered HTTP 503 and asked to retry after 1h0m0s", `last state "submitted"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			agent := pollingAgent(t, a2a.TaskStateSubmitted, tc.poll)
			r := a2aCmd(t, append([]string{"send", "-e", agent.URL, "--a2a-version", "0.3", "--retries", "0", "你好"}, tc.args...)...)
			r.wantCode(t, timeoutExit())
			for _, want := range tc.wants {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr does not hold %q:\n%s", want, r.stderr)
				}
			}
			if strings.Contains(r.stderr, `last state ""`) || strings.Contains(r.stderr, "a2a: a2a:") {
				t.Errorf("stderr names no last state, or repeats the package's prefix:\n%s", r.stderr)
			}
			wantResume(t, r, "task get --wait -e "+agent.URL+" --a2a-version 0.3", "task-7", "ctx-7")
		})
	}
}

// TestStreamNothingLost: a stream stopped by Ctrl-C or --timeout after its
// first event says how to follow the task again.
func TestStreamNothingLost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		ctrlC bool
		code  int
	}{
		{"Ctrl-C", true, exitSignal},
		{"--timeout", false, timeoutExit()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sent := make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var req struct {
					ID json.RawMessage `json:"id"`
				}
				json.NewDecoder(r.Body).Decode(&req)
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write([]byte(`data: {"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"kind":"task","id":"task-9","contextId":"ctx-9","status":{"state":"working"}}}` + "\n\n"))
				w.(http.Flusher).Flush()
				close(sent)
				<-r.Context().Done() // the stream stays open
			}))
			defer srv.Close()
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var stdout, stderr syncBuffer
			args := []string{"send", "--stream", "-e", srv.URL, "--a2a-version", "0.3", "你好"}
			if tc.ctrlC {
				go func() { // Ctrl-C once the event is printed
					select {
					case <-sent:
					case <-ctx.Done():
						return
					}
					for !strings.Contains(stdout.String(), "Event: task\n") && ctx.Err() == nil {
						time.Sleep(time.Millisecond)
					}
					cancel()
				}()
			} else {
				args = append(args, "--timeout", "1s")
			}
			code := run(ctx, args, env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: hermetic(t, nil)})
			r := result{args: args, code: code, stdout: stdout.String(), stderr: stderr.String()}
			r.wantCode(t, tc.code)
			wantResume(t, r, "task subscribe -e "+srv.URL+" --a2a-version 0.3", "task-9", "ctx-9")
			a2a.CloseIdleConnections()
		})
	}
}
