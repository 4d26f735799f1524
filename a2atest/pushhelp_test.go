package a2atest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// waitLimit bounds every wait of these tests: far more than a delivery
// takes, so passing it means something is wrong.
const waitLimit = 10 * time.Second

// pushVersion is what differs between a v0.3 and a v1.0 server's pushes.
type pushVersion struct {
	name string
	v10  bool
}

var pushVersions = []pushVersion{{"v0.3", false}, {"v1.0", true}}

func (pv pushVersion) server(opts ...a2atest.Option) *a2atest.Server {
	if pv.v10 {
		opts = append(opts, a2atest.V10())
	}
	return a2atest.NewServer(opts...)
}

func (pv pushVersion) client(t *testing.T, url string) *a2a.Client {
	t.Helper()
	var opts []a2a.Option
	if pv.v10 {
		opts = append(opts, a2a.WithProtocolVersion(a2a.ProtocolV10))
	}
	c, err := a2a.NewClient(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a2a.CloseIdleConnections)
	return c
}

// state is a state as the version writes it.
func (pv pushVersion) state(s a2a.TaskState) string {
	if !pv.v10 {
		return string(s)
	}
	return "TASK_STATE_" + strings.ToUpper(strings.ReplaceAll(string(s), "-", "_"))
}

func (pv pushVersion) header() map[string]string {
	if pv.v10 {
		return map[string]string{"A2A-Version": "1.0"}
	}
	return nil
}

// sendBody is a send request registering a webhook with url and token in
// its configuration ("" for none); taskID, when set, makes it a
// follow-up.
func (pv pushVersion) sendBody(url, token, taskID string) string {
	cfg := map[string]any{"url": url}
	if token != "" {
		cfg["token"] = token
	}
	msg := map[string]any{"kind": "message", "role": "user", "messageId": fmt.Sprint("m-", rand.Uint64()), "parts": []any{map[string]any{"kind": "text", "text": "hi"}}}
	method, conf := "message/send", map[string]any{"pushNotificationConfig": cfg}
	if pv.v10 {
		msg = map[string]any{"role": "ROLE_USER", "messageId": msg["messageId"], "parts": []any{map[string]any{"text": "hi"}}}
		method, conf = "SendMessage", map[string]any{"taskPushNotificationConfig": cfg}
	}
	if taskID != "" {
		msg["taskId"] = taskID
	}
	params := map[string]any{"message": msg}
	if url != "" {
		params["configuration"] = conf
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	return string(b)
}

// send posts a send request with a webhook and returns the task's id.
func (pv pushVersion) send(t *testing.T, srvURL, hookURL, token, taskID string) string {
	t.Helper()
	r := postRPC(t, srvURL, pv.sendBody(hookURL, token, taskID), pv.header())
	if r.Error != nil {
		t.Fatalf("send: error %d %s", r.Error.Code, r.Error.Message)
	}
	result := r.Result
	if pv.v10 {
		var w struct{ Task json.RawMessage }
		json.Unmarshal(result, &w)
		result = w.Task
	}
	var task struct{ ID string }
	if err := json.Unmarshal(result, &task); err != nil || task.ID == "" {
		t.Fatalf("send: result %s is not a task", r.Result)
	}
	return task.ID
}

// pushed is a task as a notification carried it.
type pushed struct {
	ID     string
	Status struct{ State string }
	Kind   *string
	// Artifacts counts the task's artifacts.
	Artifacts []json.RawMessage
}

// readPush reads a notification body in the version's shape: the task
// with "kind":"task" (v0.3), or a StreamResponse holding only "task" whose
// task has no "kind" (v1.0).
func (pv pushVersion) readPush(t *testing.T, body []byte) pushed {
	t.Helper()
	p, err := pv.decodePush(body)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// decodePush is readPush for a webhook's goroutine.
func (pv pushVersion) decodePush(body []byte) (pushed, error) {
	var p pushed
	if pv.v10 {
		var w map[string]json.RawMessage
		if err := json.Unmarshal(body, &w); err != nil || len(w) != 1 || w["task"] == nil {
			return p, fmt.Errorf("v1.0 notification %s is not a StreamResponse {\"task\": …}", body)
		}
		body = w["task"]
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return p, fmt.Errorf("notification %s: %v", body, err)
	}
	if pv.v10 && p.Kind != nil || !pv.v10 && (p.Kind == nil || *p.Kind != "task") {
		return p, fmt.Errorf("%s notification %s: wrong kind", pv.name, body)
	}
	return p, nil
}

// received is a request a webhook got.
type received struct {
	header http.Header
	body   []byte
}

// webhook is a test webhook answering every POST with status.
type webhook struct {
	URL string
	got chan received
}

func newWebhook(t *testing.T, status int) *webhook {
	h := &webhook{got: make(chan received, 1024)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.got <- received{r.Header.Clone(), body}
		w.WriteHeader(status)
	}))
	t.Cleanup(srv.Close)
	h.URL = srv.URL + "/hook"
	return h
}

// next returns the next notification, failing the test if none comes.
func (h *webhook) next(t *testing.T) received {
	t.Helper()
	select {
	case r := <-h.got:
		return r
	case <-time.After(waitLimit):
		t.Fatalf("no notification within %v", waitLimit)
		return received{}
	}
}

// waitDeliveries waits until the server has recorded n deliveries.
func waitDeliveries(t *testing.T, srv *a2atest.Server, n int) []a2atest.Delivery {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		d := srv.Deliveries()
		if len(d) >= n {
			return d
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries recorded within %v, want %d: %+v", len(d), waitLimit, n, d)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// stateOf is a task's state, "" for nil.
func stateOf(t *a2a.Task) a2a.TaskState {
	if t == nil {
		return ""
	}
	return t.Status.State
}

// scriptOf is an OnSend handler answering every message with a completed
// task (artifact "result") scripted through states.
func scriptOf(states ...a2a.TaskState) func(a2a.Message) a2atest.Reply {
	return func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.CompletedTask("result", map[string]int{"n": 1}, "done"), States: states}
	}
}
