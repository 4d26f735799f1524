package a2atest_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"

	"github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// TestResponder: each request is answered under its own id, numbers and
// strings alike; a body that is not a JSON-RPC request gets -32700 with a
// null id.
func TestResponder(t *testing.T) {
	respond := a2atest.Responder(map[string]string{"ok": "是"})
	for _, tc := range []struct{ body, want string }{
		{`{"jsonrpc":"2.0","id":7,"method":"tasks/get"}`, `{"jsonrpc":"2.0","id":7,"result":{"ok":"是"}}`},
		{`{"jsonrpc":"2.0","id":"r-1","method":"GetTask"}`, `{"jsonrpc":"2.0","id":"r-1","result":{"ok":"是"}}`},
		{`not json`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"not a JSON-RPC request"}}`},
	} {
		req, _ := http.NewRequest("POST", "http://x/", strings.NewReader(tc.body))
		resp, err := respond(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		if string(got) != tc.want || resp.StatusCode != 200 {
			t.Errorf("%s: %d %s, want %s", tc.body, resp.StatusCode, got, tc.want)
		}
	}
	if _, err := a2atest.Responder(make(chan int))(&http.Request{}); err == nil {
		t.Error("a result that cannot be encoded: no error")
	}
}

// TestResponderNamesTask: a task made without an id (FailedTask) is
// answered with one, so the client takes it; the task given is untouched.
func TestResponderNamesTask(t *testing.T) {
	failed := a2atest.FailedTask("查询失败")
	mock := httpmock.NewMockTransport()
	mock.RegisterResponder("POST", "http://agent.test/a2a", a2atest.Responder(failed))
	c, err := a2a.NewClient("http://agent.test/a2a", a2a.WithHTTPClient(&http.Client{Transport: mock}))
	if err != nil {
		t.Fatal(err)
	}
	task, err := c.SendText(context.Background(), "hi")
	if err != nil || task.ID != "task-1" || task.ContextID != "context-1" || task.StatusText() != "查询失败" {
		t.Errorf("got %+v, %v; want the failed task as task-1", task, err)
	}
	if failed.ID != "" {
		t.Errorf("the task given was modified: id %q", failed.ID)
	}
}
