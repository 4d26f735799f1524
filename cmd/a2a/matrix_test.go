package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestExitCodeMatrix: every exit code the usage table documents, reached
// by every command that can end that way.

// stateAgent is an A2A v0.3 agent (its card at the site's root) whose
// every task (t1, context c1) is in state, for each call that reads or
// makes one, and that lists no task to a v1.0 ListTasks. State "error"
// answers every call with TaskNotFoundError (-32001), "401" with HTTP
// 401. With hang, it holds every request until the client gives up, and
// reports the first on seen.
func stateAgent(t *testing.T, state string, hang bool, seen chan<- struct{}) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang {
			// Read the body: only then does the server watch the
			// connection, and end r's context when the client leaves.
			io.Copy(io.Discard, r.Body)
			select {
			case seen <- struct{}{}:
			default:
			}
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet {
			w.Write([]byte(`{"name":"x","version":"1","protocolVersion":"0.3.0","url":"` + srv.URL + `/a2a","preferredTransport":"JSONRPC","capabilities":{"streaming":true,"pushNotifications":true},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}`))
			return
		}
		if state == "401" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if state == "error" {
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"error":{"code":-32001,"message":"task not found"}}`))
			return
		}
		task := `{"kind":"task","id":"t1","contextId":"c1","status":{"state":"` + state + `","message":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"why"}]}}}`
		config := `{"taskId":"t1","pushNotificationConfig":{"id":"c1","url":"https://hooks.example.com/a2a"}}`
		result := map[string]string{
			"message/send": task, "tasks/get": task, "tasks/cancel": task,
			"tasks/pushNotificationConfig/get": config, "ListTasks": `{"tasks":[],"nextPageToken":"","pageSize":0,"totalSize":0}`,
		}[req.Method]
		if req.Method == "message/stream" || req.Method == "tasks/resubscribe" {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Write([]byte(`data: {"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + task + "}\n\n"))
			return
		}
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + `}`))
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(a2a.CloseIdleConnections)
	return srv
}

func TestExitCodeMatrix(t *testing.T) {
	t.Parallel()
	// What every command can end with, and the task's outcomes with
	// --task-exit-codes.
	common := []int{exitOK, exitError, exitUsage, exitUnreachable, exitAuth, exitTimeout, exitSignal}
	waits := append(common[:len(common):len(common)], exitTaskFailed, exitTaskInterrupted)
	all := append(waits[:len(waits):len(waits)], exitTaskUnfinished)
	badCard := filepath.Join(t.TempDir(), "card.json")
	if err := os.WriteFile(badCard, []byte(`{"name": `), 0o644); err != nil {
		t.Fatal(err)
	}
	v03 := []string{"--a2a-version", "0.3"}
	commands := []struct {
		name  string
		args  func(site string) []string
		codes []int
	}{
		{"card get", func(site string) []string { return []string{"card", "get", "-a", site} }, common},
		{"send", func(site string) []string { return cmdArgs("send -a "+site, v03, "你好") }, waits},
		{"send --async", func(site string) []string { return cmdArgs("send --async -a "+site, v03, "你好") }, all},
		{"send --stream", func(site string) []string { return cmdArgs("send --stream -a "+site, v03, "你好") }, waits},
		{"task get", func(site string) []string { return cmdArgs("task get -a "+site, v03, "t1") }, all},
		{"task get --wait", func(site string) []string { return cmdArgs("task get --wait --poll-interval 10ms -a "+site, v03, "t1") }, waits},
		{"task cancel", func(site string) []string { return cmdArgs("task cancel -a "+site, v03, "t1") }, all},
		{"task subscribe", func(site string) []string { return cmdArgs("task subscribe -a "+site, v03, "t1") }, waits},
		{"task subscribe --stream", func(site string) []string { return cmdArgs("task subscribe --stream -a "+site, v03, "t1") }, waits},
		{"task push-config get", func(site string) []string { return cmdArgs("task push-config get -a "+site, v03, "t1", "c1") }, common},
		// task list: A2A v1.0's, at the endpoint.
		{"task list", func(site string) []string { return []string{"task", "list", "-e", site + "/a2a"} }, common},
	}
	// The state that ends a command with each code, with --task-exit-codes.
	states := map[int]string{exitOK: "completed", exitError: "error", exitAuth: "401", exitTaskFailed: "failed", exitTaskInterrupted: "input-required", exitTaskUnfinished: "working"}
	for _, c := range commands {
		for _, code := range c.codes {
			t.Run(c.name+" "+strconv.Itoa(code), func(t *testing.T) {
				t.Parallel()
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				var site string
				var extra []string
				switch code {
				case exitUsage:
					site, extra = stateAgent(t, "completed", false, nil).URL, []string{"--output", "yaml"}
				case exitUnreachable:
					site = strings.TrimSuffix(closedURL(t), "/a2a/jsonrpc")
					if c.name == "task list" && !classified() {
						t.Skip("TODO(classify): an endpoint that does not answer is exit 3 by the error classification; zz_stubs.go stands in for it")
					}
				case exitTimeout:
					if !classified() {
						t.Skip("TODO(classify): an expired --timeout is exit 5 by the error classification; zz_stubs.go stands in for it")
					}
					site, extra = stateAgent(t, "", true, make(chan struct{}, 1)).URL, []string{"--timeout", "300ms"}
				case exitSignal:
					seen := make(chan struct{}, 1)
					site = stateAgent(t, "", true, seen).URL
					go func() { // Ctrl-C once the agent is asked
						select {
						case <-seen:
							cancel()
						case <-ctx.Done():
						}
					}()
				case exitAuth:
					if !classified() {
						t.Skip("TODO(classify): HTTP 401 without credentials is exit 4 (A2ACLI_ERR_CREDENTIALS_MISSING) by the error classification; zz_stubs.go stands in for it")
					}
					site = stateAgent(t, "401", false, nil).URL
					if c.name == "card get" { // a card is read without credentials: one behind them
						locked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
							w.Header().Set("WWW-Authenticate", "Bearer")
							w.WriteHeader(http.StatusUnauthorized)
						}))
						t.Cleanup(locked.Close)
						site = locked.URL
					}
				default:
					state := states[code]
					if c.name == "task cancel" && code == exitOK {
						state = "canceled" // what was asked
					}
					if code == exitError && c.name == "card get" {
						site = badCard // a card that is not one
					} else {
						site = stateAgent(t, state, false, nil).URL
					}
				}
				args := append(c.args(site), "--retries", "0")
				if code >= exitTaskFailed {
					args = append(args, "--task-exit-codes")
				}
				r := invocation{ctx: ctx}.run(t, append(args, extra...)...)
				r.wantCode(t, code)
				switch {
				case code == exitTaskFailed && !strings.Contains(r.stdout, "\n  why\n"):
					t.Errorf("exit %d without the reason on stdout:\n%s", code, r.stdout)
				case code != exitOK && r.stderr == "":
					t.Errorf("exit %d with nothing on stderr", code)
				case code != exitOK && code < exitTaskFailed && code != exitSignal && !strings.Contains(r.stderr, "a2a "+strings.Fields(c.name)[0]):
					t.Errorf("exit %d: stderr does not name the command:\n%s", code, r.stderr)
				}
			})
		}
	}
	// The task's outcome is not the exit code without --task-exit-codes.
	for state, code := range map[string]int{"failed": exitTaskFailed, "input-required": exitTaskInterrupted, "working": exitTaskUnfinished} {
		site := stateAgent(t, state, false, nil).URL
		a2aCmd(t, "task", "get", "-a", site, "--a2a-version", "0.3", "t1").wantCode(t, exitOK)
		a2aCmd(t, "task", "get", "-a", site, "--a2a-version", "0.3", "t1", "--task-exit-codes").wantCode(t, code)
		a2aCmd(t, "task", "get", "-a", site, "--a2a-version", "0.3", "t1", "--task-exit-codes=false").wantCode(t, exitOK)
		invocation{env: map[string]string{"A2ACLI_TASK_EXIT_CODES": "true"}}.run(t, "task", "get", "-a", site, "--a2a-version", "0.3", "t1").wantCode(t, code)
	}
	// demo-server: 0 when stopped, 2 for a bad version.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	invocation{ctx: ctx}.run(t, "demo-server").wantCode(t, exitOK)
	a2aCmd(t, "demo-server", "--a2a-version", "2").wantCode(t, exitUsage)
	// The commands that need no agent.
	a2aCmd(t, "version").wantCode(t, exitOK)
	a2aCmd(t, "--version").wantCode(t, exitOK)
	a2aCmd(t, "help", "task", "get").wantCode(t, exitOK)
	a2aCmd(t, "help", "frobnicate").wantCode(t, exitUsage)
	a2aCmd(t, "completion").wantCode(t, exitUsage)
}
