package a2a_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// pollAgent is a loopback JSON-RPC agent that answers only tasks/get, for
// the tests of many polling waits: each task goes through its script, one
// state per tasks/get (the last repeating; default "working" then
// "completed"), and the agent counts requests, tasks/get in flight (and
// their peak) and the connections it accepted.
type pollAgent struct {
	URL string

	mu      sync.Mutex
	scripts map[string][]a2a.TaskState
	calls   map[string]int // tasks/get per task id

	requests, inFlight, peak, opened atomic.Int64
	// hold, when set, is called before answering (in the handler's
	// goroutine); it may block on the request's context.
	hold func(r *http.Request, taskID string)
}

// newPollAgent starts a pollAgent, closed at the test's end.
func newPollAgent(t testing.TB, scripts map[string][]a2a.TaskState) *pollAgent {
	t.Helper()
	a := &pollAgent{scripts: scripts, calls: map[string]int{}}
	srv := httptest.NewUnstartedServer(a)
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			a.opened.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	a.URL = srv.URL
	return a
}

func (a *pollAgent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.requests.Add(1)
	n := a.inFlight.Add(1)
	defer a.inFlight.Add(-1)
	for {
		p := a.peak.Load()
		if n <= p || a.peak.CompareAndSwap(p, n) {
			break
		}
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			ID string `json:"id"`
		} `json:"params"`
	}
	if json.Unmarshal(body, &req) != nil || req.Method != "tasks/get" {
		http.Error(w, "tasks/get only", http.StatusBadRequest)
		return
	}
	if a.hold != nil {
		a.hold(r, req.Params.ID)
	}
	a.mu.Lock()
	script, ok := a.scripts[req.Params.ID]
	if !ok {
		script = []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateCompleted}
	}
	i := a.calls[req.Params.ID]
	a.calls[req.Params.ID] = i + 1
	a.mu.Unlock()
	state := script[min(i, len(script)-1)]
	var out bytes.Buffer
	out.WriteString(`{"jsonrpc":"2.0","id":`)
	out.Write(req.ID)
	out.WriteString(`,"result":{"kind":"task","id":`)
	out.WriteString(strconv.Quote(req.Params.ID))
	out.WriteString(`,"contextId":"ctx","status":{"state":`)
	out.WriteString(strconv.Quote(string(state)))
	out.WriteString(`}}}`)
	w.Header().Set("Content-Type", "application/json")
	w.Write(out.Bytes())
}

// gets returns the number of tasks/get each task id got.
func (a *pollAgent) gets() map[string]int {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make(map[string]int, len(a.calls))
	for k, v := range a.calls {
		out[k] = v
	}
	return out
}
