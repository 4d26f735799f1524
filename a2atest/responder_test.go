package a2atest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

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
