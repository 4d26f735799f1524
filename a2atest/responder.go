package a2atest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/caoliao-a2a/a2a-go"
)

// Responder returns an HTTP responder, for tests that mock the transport
// instead of running a [Server] (with github.com/jarcoal/httpmock, say),
// that answers every JSON-RPC request with result (encoded with
// encoding/json: a *a2a.Task as A2A v0.3 JSON) under the request's own
// JSON-RPC id. A canned body with a fixed id answers one call and then
// fails the next with "response id 1 does not match request id 2": the
// client numbers its requests and checks the answer's id. The responder
// is a plain func, so this package needs no mocking library; httpmock
// takes it as an httpmock.Responder. A request whose body is not a
// JSON-RPC request gets a JSON-RPC error -32700 with a null id.
//
// A *a2a.Task without an id (as [CompletedTask], [FailedTask] and
// [StatusTask] make them: a [Server] gives each task its own) is answered
// with the id "task-1" and, when it has none, the context id "context-1",
// since the client refuses a task without an id; the task given is not
// modified.
func Responder(result any) func(*http.Request) (*http.Response, error) {
	if t, ok := result.(*a2a.Task); ok && t != nil && t.ID == "" {
		named := *t
		named.ID = "task-1"
		if named.ContextID == "" {
			named.ContextID = "context-1"
		}
		result = &named
	}
	res, err := json.Marshal(result)
	return func(r *http.Request) (*http.Response, error) {
		if err != nil {
			return nil, err
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		out := []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"not a JSON-RPC request"}}`)
		if json.Unmarshal(body, &req) == nil && len(req.ID) > 0 {
			out = append(append(append([]byte(`{"jsonrpc":"2.0","id":`), req.ID...), `,"result":`...), res...)
			out = append(out, '}')
		}
		return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Content-Type": {"application/json"}, "Content-Length": {strconv.Itoa(len(out))}},
			Body:   io.NopCloser(bytes.NewReader(out)), ContentLength: int64(len(out)), Request: r}, nil
	}
}
