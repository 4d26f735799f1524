package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestExitCodeMatrix: every exit code the usage table documents, reached
// by every subcommand that can end that way.

// stateAgent is an agent whose every task (t1, context c1) is in state,
// for each call that reads or makes one, in v0.3 (ListTasks in v1.0); with
// hang, it holds every request until the client gives up, and reports the
// first on seen.
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
			w.Write([]byte(`{"name":"x","version":"1","protocolVersion":"0.3.0","url":"` + srv.URL + `/a2a","preferredTransport":"JSONRPC","capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}`))
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&req)
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
	all := []int{exitOK, exitError, exitUsage, exitFailed, exitInterrupted, exitUnfinished, exitSignal}
	noTask := []int{exitOK, exitError, exitUsage, exitSignal}
	commands := []struct {
		name  string
		args  func(endpoint, site string) []string
		codes []int
	}{
		{"card", func(_, site string) []string { return []string{"card", site} }, noTask},
		{"send", func(u, _ string) []string { return []string{"send", "--protocol", "0.3", u, "你好"} }, all},
		{"send --wait", func(u, _ string) []string {
			return []string{"send", "--wait", "--max-attempts", "1", "--protocol", "0.3", u, "你好"}
		}, all},
		{"get", func(u, _ string) []string { return []string{"get", "--protocol", "0.3", u, "t1"} }, all},
		{"cancel", func(u, _ string) []string { return []string{"cancel", "--protocol", "0.3", u, "t1"} }, all},
		{"wait", func(u, _ string) []string {
			return []string{"wait", "--max-attempts", "1", "--protocol", "0.3", u, "t1"}
		}, all},
		{"stream", func(u, _ string) []string { return []string{"stream", "--protocol", "0.3", u, "你好"} }, all},
		{"resubscribe", func(u, _ string) []string { return []string{"resubscribe", "--protocol", "0.3", u, "t1"} }, all},
		{"tasks", func(u, _ string) []string { return []string{"tasks", u} }, noTask},
		{"push", func(u, _ string) []string { return []string{"push", "get", "--protocol", "0.3", u, "t1", "c1"} }, noTask},
	}
	// The state that ends a command with each code.
	states := map[int]string{exitOK: "completed", exitFailed: "failed", exitInterrupted: "input-required", exitUnfinished: "working"}
	for _, c := range commands {
		for _, code := range c.codes {
			t.Run(c.name+" "+strconv.Itoa(code), func(t *testing.T) {
				t.Parallel()
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				var endpoint, site string
				switch code {
				case exitError:
					endpoint = closedURL(t)
					site = strings.TrimSuffix(endpoint, "/a2a/jsonrpc")
				case exitUsage:
					endpoint, site = "127.0.0.1:9/a2a", "127.0.0.1:9" // no scheme
				case exitSignal:
					seen := make(chan struct{}, 1)
					srv := stateAgent(t, "", true, seen)
					go func() { // Ctrl-C once the agent is asked
						select {
						case <-seen:
							cancel()
						case <-ctx.Done():
						}
					}()
					endpoint, site = srv.URL+"/a2a", srv.URL
				default:
					state := states[code]
					if c.name == "cancel" && code == exitOK {
						state = "canceled" // what was asked
					}
					srv := stateAgent(t, state, false, nil)
					endpoint, site = srv.URL+"/a2a", srv.URL
				}
				args := append(c.args(endpoint, site), "--retries", "0")
				r := invocation{ctx: ctx}.run(t, args...)
				r.wantCode(t, code)
				switch {
				case code == exitFailed && !strings.Contains(r.stdout, "reason: why"):
					t.Errorf("exit %d without the reason on stdout", code)
				case code != exitOK && code != exitFailed && r.stderr == "":
					t.Errorf("exit %d with nothing on stderr", code)
				}
			})
		}
	}
	// fake-agent: 0 when stopped, 2 for a bad version.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	invocation{ctx: ctx}.run(t, "fake-agent").wantCode(t, exitOK)
	a2aCmd(t, "fake-agent", "--version", "2").wantCode(t, exitUsage)
}
