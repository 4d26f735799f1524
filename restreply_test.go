package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestRESTReplyShapes: a 2xx HTTP+JSON reply is checked in one validating
// pass over its top level (restcall.go) before the decoder's: a body that
// breaks JSON anywhere, nested or after the value, is a *ProtocolError
// with the syntax error, before anything its members say (a "jsonrpc" or
// an "error" member ahead of the break); a whole object is read by its
// members.
func TestRESTReplyShapes(t *testing.T) {
	const task = `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}`
	rows := []struct {
		name, body string
		want       string // "task", "syntax", "jsonrpc" or "rpc"
	}{
		{"task", task, "task"},
		{"task with spaces around", " \n" + task + "\n ", "task"},
		{"truncated", `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}`, "syntax"},
		{"nested break", `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED","message":{"parts":[1,]}}}`, "syntax"},
		{"trailing bytes", task + ` x`, "syntax"},
		{"two values", task + task, "syntax"},
		{"jsonrpc then a break", `{"jsonrpc":"2.0","id":1,"result":{"id":"t1"`, "syntax"},
		{"error then a break", `{"error":{"code":404,"status":"NOT_FOUND"},"x":[}`, "syntax"},
		{"array break", `[1,`, "syntax"},
		{"jsonrpc reply", `{"jsonrpc":"2.0","id":1,"result":` + task + `}`, "jsonrpc"},
		{"status error", `{"error":{"code":404,"status":"NOT_FOUND","message":"no task t1"}}`, "rpc"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodGet || r.URL.Path != "/a2a/tasks/t1" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(row.body))
			}))
			defer srv.Close()
			c, err := a2a.NewClient(srv.URL+"/a2a", a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithMaxRetries(0))
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.GetTask(context.Background(), "t1")
			var pe *a2a.ProtocolError
			var se *json.SyntaxError
			var re *a2a.RPCError
			switch row.want {
			case "task":
				if err != nil || got.ID != "t1" || got.Status.State != a2a.TaskStateCompleted {
					t.Fatalf("got %+v, %v; want task t1 completed", got, err)
				}
			case "syntax":
				if !errors.As(err, &pe) || !errors.As(err, &se) || !strings.Contains(pe.Reason, "not JSON") {
					t.Fatalf("err = %v (%T); want a *ProtocolError with a *json.SyntaxError", err, err)
				}
				if string(pe.Body) != row.body {
					t.Errorf("ProtocolError.Body = %q; want the body as sent", pe.Body)
				}
			case "jsonrpc":
				if !errors.As(err, &pe) || !strings.Contains(pe.Reason, "JSON-RPC response") {
					t.Fatalf("err = %v (%T); want a *ProtocolError naming the JSON-RPC reply", err, err)
				}
			case "rpc":
				if !errors.As(err, &re) || !errors.Is(err, a2a.ErrTaskNotFound) {
					t.Fatalf("err = %v (%T); want an *RPCError matching ErrTaskNotFound", err, err)
				}
			}
		})
	}
}
