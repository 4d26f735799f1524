package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// Nothing lost to Ctrl-C, a deadline or an error (DESIGN.md behaviour 9):
// once a task's id is known, however the command ends before the task
// does, it prints the id, the context and the exact command that resumes.

// wantResume fails the test unless r's stderr holds the task's id, its
// context and the command that resumes (verb: wait or resubscribe, and the flags that reach the same agent).
func wantResume(t *testing.T, r result, endpoint, verb, id, contextID string) {
	t.Helper()
	for _, want := range []string{"task " + id + ", context " + contextID + ")", "\n  a2a " + verb + " " + endpoint + " " + id + "\n"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("a2a %s: stderr does not hold %q:\n%s", strings.Join(r.args, " "), want, r.stderr)
		}
	}
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
		args  []string // after "send --wait URL 你好"
		ctrlC bool     // Ctrl-C once the agent is polled
		code  int
	}{
		{name: "Ctrl-C", poll: stillWorking, ctrlC: true, code: exitSignal},
		{name: "--timeout", poll: stillWorking, args: []string{"--timeout", "1s"}, code: exitUnfinished},
		{name: "HTTP error after the send", poll: func(w http.ResponseWriter, id string) { http.Error(w, "<html>oops</html>", 500) }, code: exitError},
		{name: "JSON-RPC error after the send", poll: func(w http.ResponseWriter, id string) {
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32603,"message":"db down"}}`))
		}, code: exitError},
		{name: "Retry-After beyond --timeout", poll: func(w http.ResponseWriter, id string) {
			w.Header().Set("Retry-After", "3600")
			http.Error(w, "busy", 503)
		}, args: []string{"--timeout", "2s"}, code: exitUnfinished},
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
			r := invocation{ctx: ctx}.run(t, append([]string{"send", "--wait", "--protocol", "0.3", agent.URL, "你好"}, tc.args...)...)
			r.wantCode(t, tc.code)
			wantResume(t, r, agent.URL, "wait --protocol 0.3", "task-7", "ctx-7")
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
		args  []string // after "send --wait URL 你好"
		wants []string // in stderr
	}{
		{"Retry-After far past --timeout", busy("999999999"), []string{"--timeout", "20s"},
			[]string{"the agent answered HTTP 503 and asked to retry after 24h or more" /* the SDK's cap */, "more than the", "left of --timeout 20s", `last state "submitted"`}},
		{"Retry-After past --timeout", busy("3600"), []string{"--timeout", "20s", "--max-attempts", "5"},
			[]string{"the agent answered HTTP 503 and asked to retry after 1h0m0s", `last state "submitted"`}},
		{"out of attempts", busy(""), []string{"--max-attempts", "1"},
			[]string{"--max-attempts 1 reached after 1 attempt", "the last attempt got tasks/get: HTTP 503", `last state "submitted"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			agent := pollingAgent(t, a2a.TaskStateSubmitted, tc.poll)
			r := a2aCmd(t, append([]string{"send", "--wait", "--protocol", "0.3", "--retries", "0", agent.URL, "你好"}, tc.args...)...)
			r.wantCode(t, exitUnfinished)
			for _, want := range tc.wants {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr does not hold %q:\n%s", want, r.stderr)
				}
			}
			if strings.Contains(r.stderr, `last state ""`) || strings.Contains(r.stderr, "a2a: a2a:") {
				t.Errorf("stderr names no last state, or repeats the package's prefix:\n%s", r.stderr)
			}
			wantResume(t, r, agent.URL, "wait --protocol 0.3", "task-7", "ctx-7")
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
		{"--timeout", false, exitUnfinished},
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
			args := []string{"stream", "--protocol", "0.3", srv.URL, "你好"}
			if tc.ctrlC {
				go func() { // Ctrl-C once the event is printed
					select {
					case <-sent:
					case <-ctx.Done():
						return
					}
					for !strings.Contains(stdout.String(), "event: task") && ctx.Err() == nil {
						time.Sleep(time.Millisecond)
					}
					cancel()
				}()
			} else {
				args = append(args, "--timeout", "1s")
			}
			code := run(ctx, args, env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }})
			r := result{args: args, code: code, stdout: stdout.String(), stderr: stderr.String()}
			r.wantCode(t, tc.code)
			wantResume(t, r, srv.URL, "resubscribe --protocol 0.3", "task-9", "ctx-9")
			a2a.CloseIdleConnections()
		})
	}
}
