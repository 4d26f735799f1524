package a2a_test

import (
	"bytes"
	stdcmp "cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The hostile-server suite: one row per way a server, gateway or network
// can misbehave, each run against a loopback httptest server and each with
// the exact value or typed error the caller must get. Every row's server
// also counts the requests it received, so a row says how often the client
// may send. README "When the server misbehaves" summarises this table.

// hostileRow is one misbehaviour.
type hostileRow struct {
	name string
	// call is "get" (GetTask, the default), "send" (SendMessage) or
	// "cancel" (CancelTask).
	call string
	// The reply: status (default 200), headers and body, whose {{id}} is
	// replaced by the request's JSON-RPC id. serve, when set, replaces
	// them; its id argument is the request id as raw JSON.
	status int
	header map[string]string
	body   string
	serve  func(w http.ResponseWriter, r *http.Request, id string)
	// opts are added to the client's options (fast retries by default).
	opts []a2a.Option
	// timeout bounds the call's ctx (default 10 s).
	timeout time.Duration
	// reqs is how many requests the server must see (0 means 1).
	reqs int
	// want checks what the call returned.
	want expect
}

// outcome is what a call returned and what the server saw.
type outcome struct {
	res      any // *a2a.Task, *a2a.Message or nil
	err      error
	bodies   []string    // request bodies in arrival order
	arrivals []time.Time // when each arrived
	reply    string      // the last reply body, for rows without a serve func
}

type expect func(t *testing.T, o outcome)

// ignoreTaskInternals lets cmp compare decoded tasks by their fields.
var ignoreTaskInternals = cmpopts.IgnoreUnexported(a2a.Task{})

// isTask wants exactly this task and no error.
func isTask(want *a2a.Task) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		if o.err != nil {
			t.Fatalf("err = %v, want a task", o.err)
		}
		if diff := cmp.Diff(want, o.res, ignoreTaskInternals); diff != "" {
			t.Errorf("task (-want +got):\n%s", diff)
		}
	}
}

// taskThen wants a task, then runs more checks on it.
func taskThen(check func(t *testing.T, task *a2a.Task)) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		task, ok := o.res.(*a2a.Task)
		if o.err != nil || !ok {
			t.Fatalf("got %#v, %v; want a task", o.res, o.err)
		}
		check(t, task)
	}
}

// isMessage wants exactly this message and no error.
func isMessage(want *a2a.Message) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		if o.err != nil {
			t.Fatalf("err = %v, want a message", o.err)
		}
		if diff := cmp.Diff(want, o.res); diff != "" {
			t.Errorf("message (-want +got):\n%s", diff)
		}
	}
}

// protoErr wants a *ProtocolError whose text (Reason, then the decoding
// error) contains reason, matching
// is too when is is not nil, and carrying the reply body whole.
func protoErr(reason string, is error) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		noResult(t, o)
		pe, ok := errors.AsType[*a2a.ProtocolError](o.err)
		if !ok {
			t.Fatalf("err = %T %v, want *ProtocolError", o.err, o.err)
		}
		if !strings.Contains(pe.Error(), reason) {
			t.Errorf("Error() = %q, want it to contain %q", pe.Error(), reason)
		}
		if is != nil && !errors.Is(o.err, is) {
			t.Errorf("errors.Is(%v, %v) = false", o.err, is)
		}
		if o.reply != "" && string(pe.Body) != o.reply {
			t.Errorf("ProtocolError.Body = %q, want the reply whole: %q", pe.Body, o.reply)
		}
	}
}

// rpcErr wants this *RPCError (Method is not compared).
func rpcErr(want a2a.RPCError, is ...error) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		noResult(t, o)
		re, ok := errors.AsType[*a2a.RPCError](o.err)
		if !ok {
			t.Fatalf("err = %T %v, want *RPCError", o.err, o.err)
		}
		if diff := cmp.Diff(want, *re, cmpopts.IgnoreFields(a2a.RPCError{}, "Method")); diff != "" {
			t.Errorf("RPCError (-want +got):\n%s", diff)
		}
		for _, target := range is {
			if !errors.Is(o.err, target) {
				t.Errorf("errors.Is(%v, %v) = false", o.err, target)
			}
		}
	}
}

// httpErr wants this *HTTPError (Method and Body are not compared; Body
// must start with bodyPrefix).
func httpErr(want a2a.HTTPError, bodyPrefix string) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		noResult(t, o)
		he, ok := errors.AsType[*a2a.HTTPError](o.err)
		if !ok {
			t.Fatalf("err = %T %v, want *HTTPError", o.err, o.err)
		}
		if diff := cmp.Diff(want, *he, cmpopts.IgnoreFields(a2a.HTTPError{}, "Method", "Body")); diff != "" {
			t.Errorf("HTTPError (-want +got):\n%s", diff)
		}
		if !strings.HasPrefix(string(he.Body), bodyPrefix) {
			t.Errorf("Body = %q, want prefix %q", he.Body, bodyPrefix)
		}
	}
}

// transportErr wants a *TransportError after attempts attempts.
func transportErr(attempts int) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		noResult(t, o)
		te, ok := errors.AsType[*a2a.TransportError](o.err)
		if !ok {
			t.Fatalf("err = %T %v, want *TransportError", o.err, o.err)
		}
		if te.Attempts != attempts {
			t.Errorf("Attempts = %d, want %d", te.Attempts, attempts)
		}
	}
}

// tooLarge wants a *BodyTooLargeError for the given cap.
func tooLarge(limit int64) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		noResult(t, o)
		be, ok := errors.AsType[*a2a.BodyTooLargeError](o.err)
		if !ok || be.Limit != limit {
			t.Fatalf("err = %T %v, want *BodyTooLargeError with limit %d", o.err, o.err, limit)
		}
	}
}

// deadline wants the call to end with its ctx's deadline, not as a server
// failure.
func deadline() expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		noResult(t, o)
		if !errors.Is(o.err, context.DeadlineExceeded) {
			t.Fatalf("err = %T %v, want one matching context.DeadlineExceeded", o.err, o.err)
		}
		for _, typed := range []any{new(*a2a.HTTPError), new(*a2a.RPCError), new(*a2a.ProtocolError)} {
			if errors.As(o.err, typed) {
				t.Errorf("a client timeout reported as %T: %v", typed, o.err)
			}
		}
	}
}

// all runs several checks.
func all(checks ...expect) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		for _, c := range checks {
			c(t, o)
		}
	}
}

// sameBodies wants every request the server saw to be byte-identical (a
// retry or a followed redirect re-sends the same request, messageId and all).
func sameBodies(t *testing.T, o outcome) {
	t.Helper()
	for i, b := range o.bodies[1:] {
		if b != o.bodies[0] {
			t.Errorf("request %d differs from the first:\n%s\n%s", i+2, b, o.bodies[0])
		}
	}
}

// waited wants the second request to come at least d after the first: the
// client slept as the server's Retry-After asked. (A lower bound only: a
// slow machine can only make the gap longer.)
func waited(d time.Duration) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		if len(o.arrivals) < 2 {
			t.Fatalf("%d requests, want a retry", len(o.arrivals))
		}
		if gap := o.arrivals[1].Sub(o.arrivals[0]); gap < d {
			t.Errorf("retried %s after the first request, want at least %s", gap, d)
		}
	}
}

func noResult(t *testing.T, o outcome) {
	t.Helper()
	if o.res != nil {
		t.Errorf("got a result %#v beside the error", o.res)
	}
}

// rpc wraps a result in a JSON-RPC response answering the request.
func rpc(result string) string {
	return `{"jsonrpc":"2.0","id":{{id}},"result":` + result + `}`
}

// rpcError wraps an error object in a JSON-RPC response.
func rpcError(e string) string {
	return `{"jsonrpc":"2.0","id":{{id}},"error":` + e + `}`
}

// taskWith is the seed-style completed task with its status replaced.
func taskWith(status string) string {
	return `{"kind":"task","id":"t1","contextId":"c1","status":` + status + `}`
}

const completedTask = `{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"}}`

// wantTask is the task completedTask decodes to, changed by fn.
func wantTask(fn func(*a2a.Task)) *a2a.Task {
	t := &a2a.Task{ID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}
	if fn != nil {
		fn(t)
	}
	return t
}

// withArtifact is completedTask with one artifact holding parts.
func withArtifact(parts string) string {
	return `{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"artifacts":[{"artifactId":"a1","name":"entity","parts":` + parts + `}]}`
}

func artifactOf(parts ...a2a.Part) *a2a.Task {
	return wantTask(func(t *a2a.Task) {
		t.Artifacts = []a2a.Artifact{{ArtifactID: "a1", Name: "entity", Parts: a2a.Parts(parts)}}
	})
}

// firstPart returns the only part of the task's only artifact.
func firstPart(t *testing.T, task *a2a.Task) a2a.Part {
	t.Helper()
	if len(task.Artifacts) != 1 || len(task.Artifacts[0].Parts) != 1 {
		t.Fatalf("artifacts = %#v, want one artifact with one part", task.Artifacts)
	}
	return task.Artifacts[0].Parts[0]
}

// fileDecode checks what FileContent.Decode says about the only part.
func fileDecode(want string, wantErr string) expect {
	return taskThen(func(t *testing.T, task *a2a.Task) {
		fp, ok := firstPart(t, task).(a2a.FilePart)
		if !ok {
			t.Fatalf("part is %T, want FilePart", firstPart(t, task))
		}
		b, err := fp.File.Decode()
		switch {
		case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
			t.Errorf("Decode() = %q, %v; want error containing %q", b, err, wantErr)
		case wantErr == "" && (err != nil || string(b) != want):
			t.Errorf("Decode() = %q, %v; want %q", b, err, want)
		}
	})
}

// stamp checks a status timestamp as kept and as parsed (zero want: Time
// must fail).
func stamp(raw string, want time.Time) expect {
	return taskThen(func(t *testing.T, task *a2a.Task) {
		if got := task.Status.Timestamp; string(got) != raw {
			t.Errorf("Timestamp = %q, want %q (kept as sent)", got, raw)
		}
		tm, err := task.Status.Timestamp.Time()
		switch {
		case want.IsZero() && err == nil:
			t.Errorf("Time() = %v, want an error", tm)
		case !want.IsZero() && (err != nil || !tm.Equal(want)):
			t.Errorf("Time() = %v, %v; want %v", tm, err, want)
		}
	})
}

// gzipBytes compresses s.
func gzipBytes(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

// noCompression is a caller's transport with compression off: the client
// must read gzip the same way through it.
func noCompression() []a2a.Option {
	return []a2a.Option{a2a.WithHTTPClient(&http.Client{Transport: &http.Transport{DisableCompression: true}})}
}

// gzipBomb is 4 MiB of spaces in about 4 KiB of gzip, made once.
var gzipBomb = sync.OnceValue(func() []byte { return gzipBytes(strings.Repeat(" ", 4<<20)) })

// hijack takes over the connection and writes raw bytes to it; with reset
// it closes with an RST (SO_LINGER 0), else with a FIN.
func hijack(w http.ResponseWriter, raw string, reset bool) {
	conn, buf, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	buf.WriteString(raw)
	buf.Flush()
	if tc, ok := conn.(*net.TCPConn); ok && reset {
		tc.SetLinger(0)
	}
	conn.Close()
}

// trickle sends headers, then one byte of body per 50 ms until the client
// goes away or 10 s have passed.
func trickle(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", "1000")
	w.WriteHeader(200)
	rc := http.NewResponseController(w)
	end := time.After(10 * time.Second)
	for {
		if _, err := w.Write([]byte(" ")); err != nil || rc.Flush() != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-end:
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func hostileRows(other *httptest.Server) []hostileRow {
	v1Task := `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}`
	utc := func(s string) time.Time { tm, _ := time.Parse(time.RFC3339Nano, s); return tm }
	return []hostileRow{
		// --- Envelope ---
		{name: "jsonrpc missing", body: `{"id":{{id}},"result":` + completedTask + `}`, want: protoErr(`"jsonrpc" member is missing`, nil)},
		{name: "jsonrpc 1.0", body: `{"jsonrpc":"1.0","id":{{id}},"result":` + completedTask + `}`, want: protoErr(`"jsonrpc" is "1.0"`, nil)},
		{name: "jsonrpc a number", body: `{"jsonrpc":2.0,"id":{{id}},"result":` + completedTask + `}`, want: protoErr("not a JSON-RPC response object", nil)},
		{name: "id of another request", body: `{"jsonrpc":"2.0","id":99,"result":` + completedTask + `}`, want: protoErr("response id 99 does not match request id 1", nil)},
		{name: "id a string of equal value", body: `{"jsonrpc":"2.0","id":"1","result":` + completedTask + `}`, want: protoErr(`response id "1" does not match`, nil)},
		{name: "id a fraction of equal value", body: `{"jsonrpc":"2.0","id":1.0,"result":` + completedTask + `}`, want: protoErr(`response id 1.0 does not match`, nil)},
		{name: "id absent beside a result", body: `{"jsonrpc":"2.0","result":` + completedTask + `}`, want: protoErr("response id absent does not match", nil)},
		{name: "id null beside a result", body: `{"jsonrpc":"2.0","id":null,"result":` + completedTask + `}`, want: protoErr("response id null does not match", nil)},
		{name: "id an object", body: `{"jsonrpc":"2.0","id":{"n":1},"result":` + completedTask + `}`, want: protoErr(`response id {"n":1} does not match`, nil)},
		{name: "id null beside an error", body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
			want: rpcErr(a2a.RPCError{Code: -32700, Message: "Parse error", StatusCode: 200}, a2a.ErrParse)},
		{name: "id of another request beside an error", body: `{"jsonrpc":"2.0","id":7,"error":{"code":-32001,"message":"x"}}`, want: protoErr("response id 7 does not match", nil)},
		{name: "both result and error", body: `{"jsonrpc":"2.0","id":{{id}},"result":` + completedTask + `,"error":{"code":-32603,"message":"x"}}`, want: protoErr("both result and error", nil)},
		{name: "neither result nor error", body: `{"jsonrpc":"2.0","id":{{id}}}`, want: protoErr("neither result nor error", nil)},
		{name: "result null on tasks/get", body: rpc(`null`), want: protoErr("result is null where a Task is due", nil)},
		{name: "result null on message/send", call: "send", body: rpc(`null`), want: protoErr("result is null where a Task or Message is due", nil)},
		{name: "error null beside a result", body: `{"jsonrpc":"2.0","id":{{id}},"result":` + completedTask + `,"error":null}`, want: isTask(wantTask(nil))},
		{name: "result and error both null", body: `{"jsonrpc":"2.0","id":{{id}},"result":null,"error":null}`, want: protoErr("result is null where a Task is due", nil)},
		{name: "result null beside an error", body: `{"jsonrpc":"2.0","id":{{id}},"result":null,"error":{"code":-32001,"message":"gone"}}`,
			want: rpcErr(a2a.RPCError{Code: -32001, Message: "gone", StatusCode: 200}, a2a.ErrTaskNotFound)},
		{name: "error a bare string", body: rpcError(`"boom"`), want: protoErr("not a JSON-RPC error object", nil)},
		{name: "error with a string code", body: rpcError(`{"code":"-32001","message":"x"}`), want: protoErr("not a JSON-RPC error object", nil)},
		{name: "error with a fractional code", body: rpcError(`{"code":-32001.5,"message":"x"}`), want: protoErr("not a JSON-RPC error object", nil)},
		{name: "error without code", body: rpcError(`{"message":"x"}`), want: protoErr("not a JSON-RPC error object", nil)},
		{name: "error without message", body: rpcError(`{"code":-32001}`),
			want: rpcErr(a2a.RPCError{Code: -32001, StatusCode: 200}, a2a.ErrTaskNotFound)},
		{name: "error with an unknown code", body: rpcError(`{"code":12345,"message":"odd"}`), want: rpcErr(a2a.RPCError{Code: 12345, Message: "odd", StatusCode: 200})},
		{name: "error data an object", body: rpcError(`{"code":-32603,"message":"m","data":{"trace":"x"}}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: "m", Data: json.RawMessage(`{"trace":"x"}`), StatusCode: 200})},
		{name: "error data an array", body: rpcError(`{"code":-32603,"message":"m","data":[1,"two"]}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: "m", Data: json.RawMessage(`[1,"two"]`), StatusCode: 200})},
		{name: "error data a string", body: rpcError(`{"code":-32603,"message":"m","data":"why"}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: "m", Data: json.RawMessage(`"why"`), StatusCode: 200})},
		{name: "error data a number", body: rpcError(`{"code":-32603,"message":"m","data":-1.5e3}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: "m", Data: json.RawMessage(`-1.5e3`), StatusCode: 200})},
		{name: "error data a boolean", body: rpcError(`{"code":-32603,"message":"m","data":false}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: "m", Data: json.RawMessage(`false`), StatusCode: 200})},
		{name: "error data null", body: rpcError(`{"code":-32603,"message":"m","data":null}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: "m", Data: json.RawMessage(`null`), StatusCode: 200})},
		{name: "error with HTTP 500", status: 500, body: rpcError(`{"code":-32603,"message":"internal"}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: "internal", StatusCode: 500}, a2a.ErrInternal)},
		{name: "extra top-level members", body: `{"jsonrpc":"2.0","id":{{id}},"agent_id":"x","meta":{"a":1},"result":` + completedTask + `}`, want: isTask(wantTask(nil))},
		{name: "a batch array", body: `[` + rpc(completedTask) + `]`, want: protoErr("not a JSON-RPC response object", nil)},
		{name: "a bare JSON string", body: `"ok"`, want: protoErr("not a JSON-RPC response object", nil)},

		// --- Result shape ---
		{name: "task without kind", body: rpc(`{"id":"t1","contextId":"c1","status":{"state":"completed"}}`), want: isTask(wantTask(nil))},
		{name: "task without kind on message/send", call: "send", body: rpc(`{"id":"t1","contextId":"c1","status":{"state":"completed"}}`), want: isTask(wantTask(nil))},
		{name: "message without kind", call: "send", body: rpc(`{"messageId":"m1","role":"agent","parts":[{"kind":"text","text":"hi"}]}`),
			want: isMessage(&a2a.Message{MessageID: "m1", Role: a2a.RoleAgent, Parts: a2a.Parts{a2a.TextPart{Text: "hi"}}})},
		{name: "empty object on tasks/get", body: rpc(`{}`), want: protoErr("not shaped like a Task", nil)},
		{name: "empty object on message/send", call: "send", body: rpc(`{}`), want: protoErr("shaped like neither a Task nor a Message", nil)},
		{name: "kind status-update on message/send", call: "send", body: rpc(`{"kind":"status-update","taskId":"t1","status":{"state":"working"}}`), want: protoErr(`result kind "status-update" is neither`, nil)},
		{name: "kind message on tasks/get", body: rpc(`{"kind":"message","messageId":"m","role":"agent","parts":[]}`), want: protoErr(`result kind "message" where a Task is due`, nil)},
		{name: "kind not a string", body: rpc(`{"kind":5,"id":"t1","status":{"state":"completed"}}`), want: protoErr(`"kind" is not a string`, nil)},
		{name: "result an array", body: rpc(`[` + completedTask + `]`), want: protoErr("result is not a JSON object", nil)},
		{name: "result a string", call: "send", body: rpc(`"completed"`), want: protoErr("result is not a JSON object", nil)},
		{name: "task without id", body: rpc(`{"kind":"task","status":{"state":"completed"}}`), want: protoErr(`task result has no "id"`, nil)},
		{name: "task on tasks/cancel", call: "cancel", body: rpc(taskWith(`{"state":"canceled"}`)), want: isTask(wantTask(func(t *a2a.Task) { t.Status.State = a2a.TaskStateCanceled }))},
		{name: "v1.0 result wrapped as task", call: "send", body: rpc(`{"task":` + v1Task + `}`), want: protoErr(`wrapped as {"task": …}`, a2a.ErrVersionMismatch)},
		{name: "v1.0 result wrapped as message", call: "send", body: rpc(`{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`), want: protoErr(`wrapped as {"message": …}`, a2a.ErrVersionMismatch)},
		{name: "v1.0 wrapped result on tasks/get", body: rpc(`{"task":` + v1Task + `}`), want: protoErr(`wrapped as {"task": …}`, a2a.ErrVersionMismatch)},
		{name: "v1.0 VersionNotSupportedError", body: rpcError(`{"code":-32009,"message":"Version not supported"}`),
			want: rpcErr(a2a.RPCError{Code: -32009, Message: "Version not supported", StatusCode: 200}, a2a.ErrVersionNotSupported, a2a.ErrVersionMismatch)},
		{name: "v1.0 state completed", body: rpc(v1Task), want: isTask(wantTask(func(t *a2a.Task) { t.Status.RawState = "TASK_STATE_COMPLETED" }))},
		{name: "v1.0 state canceled", body: rpc(taskWith(`{"state":"TASK_STATE_CANCELED"}`)),
			want: isTask(wantTask(func(t *a2a.Task) {
				t.Status = a2a.TaskStatus{State: a2a.TaskStateCanceled, RawState: "TASK_STATE_CANCELED"}
			}))},
		{name: "v1.0 state input required", body: rpc(taskWith(`{"state":"TASK_STATE_INPUT_REQUIRED"}`)),
			want: isTask(wantTask(func(t *a2a.Task) {
				t.Status = a2a.TaskStatus{State: a2a.TaskStateInputRequired, RawState: "TASK_STATE_INPUT_REQUIRED"}
			}))},
		{name: "v1.0 state unspecified", body: rpc(taskWith(`{"state":"TASK_STATE_UNSPECIFIED"}`)),
			want: isTask(wantTask(func(t *a2a.Task) {
				t.Status = a2a.TaskStatus{State: a2a.TaskStateUnknown, RawState: "TASK_STATE_UNSPECIFIED"}
			}))},
		{name: "v1.0-looking state nobody knows", body: rpc(taskWith(`{"state":"TASK_STATE_PAUSED"}`)),
			want: isTask(wantTask(func(t *a2a.Task) { t.Status = a2a.TaskStatus{State: "TASK_STATE_PAUSED"} }))},
		{name: "v1.0 roles", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"failed","message":{"kind":"message","messageId":"m2","role":"ROLE_AGENT","parts":[{"kind":"text","text":"码不存在"}]}},` +
			`"history":[{"kind":"message","messageId":"m1","role":"ROLE_USER","parts":[{"kind":"text","text":"查"}]}]}`),
			want: isTask(wantTask(func(t *a2a.Task) {
				t.Status = a2a.TaskStatus{State: a2a.TaskStateFailed, Message: &a2a.Message{MessageID: "m2", Role: a2a.RoleAgent, RawRole: "ROLE_AGENT", Parts: a2a.Parts{a2a.TextPart{Text: "码不存在"}}}}
				t.History = []a2a.Message{{MessageID: "m1", Role: a2a.RoleUser, RawRole: "ROLE_USER", Parts: a2a.Parts{a2a.TextPart{Text: "查"}}}}
			}))},
		{name: "state nobody knows", body: rpc(taskWith(`{"state":"paused"}`)), want: isTask(wantTask(func(t *a2a.Task) { t.Status.State = "paused" }))},
		{name: "state absent", body: rpc(taskWith(`{}`)), want: isTask(wantTask(func(t *a2a.Task) { t.Status.State = "" }))},
		{name: "state spelled State only", body: rpc(taskWith(`{"State":"completed"}`)), want: protoErr(`member "State" is "state" in another case`, nil)},
		{name: "status beside a Status", body: rpc(`{"kind":"task","id":"t1","status":{"state":"failed"},"Status":{"state":"completed"}}`),
			want: protoErr(`member "Status" is "status" in another case`, nil)},
		{name: "kind beside a Kind", call: "send", body: rpc(`{"kind":"task","Kind":"message","id":"t1","status":{"state":"completed"}}`),
			want: protoErr(`member "Kind" is "kind" in another case`, nil)},
		{name: "an Id beside the id", body: `{"jsonrpc":"2.0","id":99,"Id":{{id}},"result":` + completedTask + `}`,
			want: protoErr(`member "Id" is "id" in another case`, nil)},
		{name: "envelope names in capitals", body: `{"JSONRPC":"2.0","ID":{{id}},"RESULT":` + completedTask + `}`,
			want: protoErr(`member "JSONRPC" is "jsonrpc" in another case`, nil)},
		{name: "an escaped, Unicode-folded state name", body: rpc(taskWith(`{"state":"failed","ſtate":"completed"}`)),
			want: protoErr(`member "ſtate" is "state" in another case`, nil)},
		{name: "result twice", body: `{"jsonrpc":"2.0","id":{{id}},"result":` + completedTask + `,"result":{"kind":"task","id":"t2"}}`,
			want: protoErr(`member "result" appears twice`, nil)},
		{name: "state twice", body: rpc(taskWith(`{"state":"failed","state":"completed"}`)), want: protoErr(`member "state" appears twice`, nil)},
		{name: "case-variant names inside data and metadata", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"metadata":{"Status":1,"status":2},` +
			`"artifacts":[{"artifactId":"a1","name":"entity","parts":[{"kind":"data","data":{"State":"正常","state":"x","Kind":"设备","kind":"y"}}]}]}`),
			want: isTask(wantTask(func(t *a2a.Task) {
				t.Metadata = json.RawMessage(`{"Status":1,"status":2}`)
				t.Artifacts = []a2a.Artifact{{ArtifactID: "a1", Name: "entity", Parts: a2a.Parts{a2a.DataPart{Data: json.RawMessage(`{"State":"正常","state":"x","Kind":"设备","kind":"y"}`)}}}}
			}))},
		{name: "invalid UTF-8 in state and timestamp", body: rpc(taskWith("{\"state\":\"done\xff\",\"timestamp\":\"2025\xfe\"}")),
			want: isTask(wantTask(func(t *a2a.Task) { t.Status = a2a.TaskStatus{State: "done\uFFFD", Timestamp: "2025\uFFFD"} }))},
		{name: "state a number", body: rpc(taskWith(`{"state":3}`)), want: protoErr("task result does not decode: status.state: ", nil)},
		{name: "status a string", body: rpc(`{"kind":"task","id":"t1","status":"completed"}`), want: protoErr("task result does not decode: status: a string where an object is due", nil)},

		// --- Parts and artifacts ---
		{name: "artifacts and history null", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"artifacts":null,"history":null}`), want: isTask(wantTask(nil))},
		{name: "artifacts and history empty", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"artifacts":[],"history":[]}`),
			want: isTask(wantTask(func(t *a2a.Task) { t.Artifacts, t.History = []a2a.Artifact{}, []a2a.Message{} }))},
		{name: "parts null", body: rpc(withArtifact(`null`)), want: isTask(artifactOf())},
		{name: "parts empty", body: rpc(withArtifact(`[]`)), want: isTask(wantTask(func(t *a2a.Task) {
			t.Artifacts = []a2a.Artifact{{ArtifactID: "a1", Name: "entity", Parts: a2a.Parts{}}}
		}))},
		{name: "artifact without parts", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"artifacts":[{"artifactId":"a1","name":"entity"}]}`), want: isTask(artifactOf())},
		{name: "artifact not an object", body: rpc(`{"kind":"task","id":"t1","status":{"state":"completed"},"artifacts":["entity"]}`), want: protoErr("task result does not decode: artifacts[0]: a string where an object is due", nil)},
		{name: "data an array", body: rpc(withArtifact(`[{"kind":"data","data":[1,2]}]`)), want: isTask(artifactOf(a2a.DataPart{Data: json.RawMessage(`[1,2]`)}))},
		{name: "data a number", body: rpc(withArtifact(`[{"kind":"data","data":42}]`)), want: isTask(artifactOf(a2a.DataPart{Data: json.RawMessage(`42`)}))},
		{name: "data a string", body: rpc(withArtifact(`[{"kind":"data","data":"设备"}]`)), want: isTask(artifactOf(a2a.DataPart{Data: json.RawMessage(`"设备"`)}))},
		{name: "data null", body: rpc(withArtifact(`[{"kind":"data","data":null}]`)), want: isTask(artifactOf(a2a.DataPart{Data: json.RawMessage(`null`)}))},
		{name: "data absent", body: rpc(withArtifact(`[{"kind":"data"}]`)), want: protoErr(`task result does not decode: artifacts[0].parts[0]: data part has no "data"`, nil)},
		{name: "file with bytes and uri", body: rpc(withArtifact(`[{"kind":"file","file":{"bytes":"aGk=","uri":"https://files.example/x"}}]`)),
			want: all(isTask(artifactOf(a2a.FilePart{File: a2a.FileContent{Bytes: "aGk=", URI: "https://files.example/x"}})), fileDecode("hi", ""))},
		{name: "file with neither bytes nor uri", body: rpc(withArtifact(`[{"kind":"file","file":{"name":"x.txt"}}]`)),
			want: all(isTask(artifactOf(a2a.FilePart{File: a2a.FileContent{Name: "x.txt"}})), fileDecode("", "neither bytes nor uri"))},
		{name: "file with invalid base64", body: rpc(withArtifact(`[{"kind":"file","file":{"bytes":"!!not base64"}}]`)),
			want: all(isTask(artifactOf(a2a.FilePart{File: a2a.FileContent{Bytes: "!!not base64"}})), fileDecode("", "not valid base64"))},
		{name: "file by uri only", body: rpc(withArtifact(`[{"kind":"file","file":{"uri":"https://files.example/x","mimeType":"image/png"}}]`)),
			want: all(isTask(artifactOf(a2a.FilePart{File: a2a.FileContent{URI: "https://files.example/x", MIMEType: "image/png"}})), fileDecode("", "given by uri"))},
		{name: "very large text part", body: rpc(withArtifact(`[{"kind":"text","text":"` + strings.Repeat("数", 2<<20) + `"}]`)),
			want: isTask(artifactOf(a2a.TextPart{Text: strings.Repeat("数", 2<<20)}))},
		{name: "text part with a number", body: rpc(withArtifact(`[{"kind":"text","text":5}]`)), want: protoErr("task result does not decode: artifacts[0].parts[0].text: a number where a string is due", nil)},
		{name: "part kind nobody knows", body: rpc(withArtifact(`[{"kind":"video","url":"x"},{"kind":"text","text":"摘要"}]`)),
			want: isTask(artifactOf(a2a.UnknownPart{PartKind: "video", Raw: json.RawMessage(`{"kind":"video","url":"x"}`)}, a2a.TextPart{Text: "摘要"}))},
		{name: "unknown or absent kinds with odd-typed known members", body: rpc(withArtifact(`[{"kind":"image","file":"https://x/y.png"},{"text":{"rich":true}},{"text":"hi","data":null}]`)),
			want: isTask(artifactOf(a2a.UnknownPart{PartKind: "image", Raw: json.RawMessage(`{"kind":"image","file":"https://x/y.png"}`)},
				a2a.UnknownPart{Raw: json.RawMessage(`{"text":{"rich":true}}`)}, a2a.TextPart{Text: "hi"}))},
		{name: "parts without kind", body: rpc(withArtifact(`[{"text":"摘要"},{"data":{"a":1}},{"raw":"aGk=","mediaType":"text/plain"}]`)),
			want: isTask(artifactOf(a2a.TextPart{Text: "摘要"}, a2a.DataPart{Data: json.RawMessage(`{"a":1}`)},
				a2a.UnknownPart{Raw: json.RawMessage(`{"raw":"aGk=","mediaType":"text/plain"}`)}))},
		{name: "unknown members everywhere", body: rpc(`{"kind":"task","id":"t1","contextId":"c1","x":1,"status":{"state":"completed","y":[2]},` +
			`"artifacts":[{"artifactId":"a1","name":"entity","z":{},"parts":[{"kind":"text","text":"s","w":null}]}],"v":"end"}`),
			want: all(isTask(artifactOf(a2a.TextPart{Text: "s"})), taskThen(func(t *testing.T, task *a2a.Task) {
				if !bytes.Contains(task.Raw(), []byte(`"v":"end"`)) {
					t.Errorf("Raw() lost unknown members: %s", task.Raw())
				}
			}))},

		// --- HTTP ---
		{name: "HTML on 200", header: map[string]string{"Content-Type": "text/html"}, body: `<html><body>OK</body></html>`, want: protoErr("response is not JSON", nil)},
		{name: "plain text on 200", header: map[string]string{"Content-Type": "text/plain"}, body: `all good`, want: protoErr("response is not JSON", nil)},
		{name: "HTML on 500", status: 500, header: map[string]string{"Content-Type": "text/html"}, body: `<html>Internal Server Error</html>`,
			want: httpErr(a2a.HTTPError{StatusCode: 500, ContentType: "text/html"}, "<html>Internal")},
		{name: "plain text 503 on tasks/get, retried", status: 503, header: map[string]string{"Content-Type": "text/plain"}, body: `busy`, reqs: 4,
			want: all(httpErr(a2a.HTTPError{StatusCode: 503, ContentType: "text/plain"}, "busy"), sameBodies)},
		{name: "HTML 502 on message/send, not retried", call: "send", status: 502, header: map[string]string{"Content-Type": "text/html"}, body: `<html>Bad Gateway</html>`,
			want: httpErr(a2a.HTTPError{StatusCode: 502, ContentType: "text/html"}, "<html>Bad")},
		{name: "HTML 502 on tasks/get, retried", status: 502, header: map[string]string{"Content-Type": "text/html"}, body: `<html>Bad Gateway</html>`, reqs: 4,
			want: httpErr(a2a.HTTPError{StatusCode: 502, ContentType: "text/html"}, "<html>Bad")},
		{name: "204 No Content", status: 204, want: protoErr("empty body with HTTP 204", nil)},
		{name: "empty 200", header: map[string]string{"Content-Type": "application/json"}, want: protoErr("empty body with HTTP 200", nil)},
		{name: "whitespace-only 200", body: " \r\n\t ", want: protoErr("empty body with HTTP 200", nil)},
		{name: "JSON-RPC body labelled text/html", header: map[string]string{"Content-Type": "text/html"}, body: rpc(completedTask), want: isTask(wantTask(nil))},
		{name: "application/json; charset=utf-8", header: map[string]string{"Content-Type": "application/json; charset=utf-8"}, body: rpc(completedTask), want: isTask(wantTask(nil))},
		{name: "no Content-Type", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			w.Header()["Content-Type"] = nil // no sniffing either
			io.WriteString(w, strings.ReplaceAll(rpc(completedTask), "{{id}}", id))
		}, want: isTask(wantTask(nil))},
		{name: "gzip, decoded by the client", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gzipBytes(strings.ReplaceAll(rpc(completedTask), "{{id}}", id)))
		}, want: isTask(wantTask(nil))},
		{name: "unrequested gzip", opts: []a2a.Option{a2a.WithHeader("Accept-Encoding", "identity")},
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				if r.Header.Get("Accept-Encoding") != "identity" {
					http.Error(w, "asked for "+r.Header.Get("Accept-Encoding"), 400)
					return
				}
				w.Header().Set("Content-Encoding", "gzip")
				w.Write(gzipBytes(strings.ReplaceAll(rpc(completedTask), "{{id}}", id)))
			}, want: isTask(wantTask(nil))},
		{name: "corrupt gzip",
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				w.Header().Set("Content-Encoding", "gzip")
				z := gzipBytes(strings.ReplaceAll(rpc(completedTask), "{{id}}", id))
				z[len(z)-6] ^= 0xff // break the CRC
				w.Write(z)
			}, want: protoErr("body cannot be read", nil)},
		{name: "gzip bomb past the cap", opts: append(noCompression(), a2a.WithMaxResponseBytes(1<<20)),
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				w.Header().Set("Content-Encoding", "gzip")
				w.Write(gzipBomb())
			}, want: tooLarge(1 << 20)},
		{name: "gzip cut short inside a whole body",
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				w.Header().Set("Content-Encoding", "gzip")
				z := gzipBytes(strings.ReplaceAll(rpc(completedTask), "{{id}}", id))
				w.Write(z[:len(z)/2])
			}, want: protoErr("body cannot be read", nil)},
		{name: "503 with a result but no jsonrpc on message/send, not retried", call: "send", status: 503, body: `{"id":{{id}},"result":` + completedTask + `}`,
			want: httpErr(a2a.HTTPError{StatusCode: 503, ContentType: "text/plain; charset=utf-8"}, `{"id":`)},
		{name: "429 with a BOM and JSON-RPC on message/send, not retried", call: "send", status: 429, body: "\ufeff" + rpcError(`{"code":-32603,"message":"x"}`),
			want: httpErr(a2a.HTTPError{StatusCode: 429, ContentType: "text/plain; charset=utf-8"}, "\ufeff")},
		{name: "503 with a JSON-RPC batch on message/send, not retried", call: "send", status: 503, body: `[` + rpc(completedTask) + `]`,
			want: httpErr(a2a.HTTPError{StatusCode: 503, ContentType: "text/plain; charset=utf-8"}, `[{"jsonrpc"`)},
		{name: "503 with a gateway's JSON error on message/send, retried", call: "send", status: 503, reqs: 4, body: `{"error":{"code":"UNAVAILABLE"}}`,
			want: all(httpErr(a2a.HTTPError{StatusCode: 503, ContentType: "text/plain; charset=utf-8"}, `{"error"`), sameBodies)},
		{name: "empty 200 labelled gzip", opts: noCompression(), header: map[string]string{"Content-Encoding": "gzip"},
			want: protoErr("empty body with HTTP 200", nil)},
		{name: "204 labelled gzip", opts: noCompression(), status: 204, header: map[string]string{"Content-Encoding": "gzip"},
			want: protoErr("empty body with HTTP 204", nil)},
		{name: "empty gzip members past the cap", opts: []a2a.Option{a2a.WithMaxResponseBytes(4096)},
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				w.Header().Set("Content-Encoding", "gzip")
				empty := gzipBytes("")
				for range 1000 {
					w.Write(empty)
				}
				w.Write(gzipBytes(strings.ReplaceAll(rpc(completedTask), "{{id}}", id)))
			}, want: tooLarge(4096)},
		{name: "JSON-RPC body labelled br on a 500", status: 500, header: map[string]string{"Content-Encoding": "br"}, body: rpcError(`{"code":-32603,"message":"x"}`),
			want: httpErr(a2a.HTTPError{StatusCode: 500}, `{"jsonrpc"`)},
		{name: "503 cut off mid JSON-RPC on message/send, not retried", call: "send", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":"+id+",\"result\":{\"kind\":\"ta", true)
		}, want: transportErr(1)},
		{name: "503 over the cap on message/send, not retried", call: "send", status: 503, opts: []a2a.Option{a2a.WithMaxResponseBytes(4096)},
			body: rpcError(`{"code":-32603,"message":"` + strings.Repeat("x", 5000) + `"}`), want: tooLarge(4096)},
		{name: "Content-Encoding br", header: map[string]string{"Content-Encoding": "br"}, body: "\x0b\x02\x80{}\x03",
			want: all(protoErr("body cannot be read", nil), func(t *testing.T, o outcome) {
				if pe, _ := errors.AsType[*a2a.ProtocolError](o.err); pe == nil || string(pe.Body) != "\x0b\x02\x80{}\x03" || !strings.Contains(pe.Error(), `Content-Encoding "br" is not supported`) {
					t.Errorf("err = %v, want the raw body kept and the encoding named", o.err)
				}
			})},
		{name: "401 with WWW-Authenticate", status: 401, header: map[string]string{"WWW-Authenticate": `Bearer realm="a2a", error="invalid_token"`, "Content-Type": "application/json"},
			body: `{"error":{"code":"UNAUTHORIZED","message":"bad key"}}`,
			want: httpErr(a2a.HTTPError{StatusCode: 401, ContentType: "application/json", Challenge: `Bearer realm="a2a", error="invalid_token"`}, `{"error":{"code":"UNAUTHORIZED"`)},
		{name: "401 echoing the credentials", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="`+r.Header.Get("Authorization")+`"`)
			w.WriteHeader(401)
			fmt.Fprintf(w, "<pre>%s %s\n", r.Method, r.URL.RequestURI())
			r.Header.Write(w)
		}, want: httpErr(a2a.HTTPError{StatusCode: 401, ContentType: "text/plain; charset=utf-8", Challenge: `Bearer realm="Bearer [REDACTED]"`}, "<pre>POST /a2a?sig=[REDACTED]")},
		{name: "JSON-RPC error echoing the credentials", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			var hdr strings.Builder
			r.Header.Write(&hdr)
			msg, _ := json.Marshal("bad key " + r.Header.Get("X-API-Key") + " for " + r.URL.RequestURI())
			data, _ := json.Marshal(hdr.String())
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":%s,"data":%s}}`, id, msg, data)
		}, want: func(t *testing.T, o outcome) {
			re, ok := errors.AsType[*a2a.RPCError](o.err)
			if !ok || re.Message != "bad key [REDACTED] for /a2a?sig=[REDACTED]" || !strings.Contains(string(re.Data), "[REDACTED]") {
				t.Errorf("err = %#v, want the echoed credentials redacted", o.err)
			}
		}},
		{name: "407 with Proxy-Authenticate", status: 407, header: map[string]string{"Proxy-Authenticate": `Basic realm="corp"`},
			want: httpErr(a2a.HTTPError{StatusCode: 407, ContentType: "", Challenge: `Basic realm="corp"`}, "")},
		{name: "403 from a gateway", call: "send", status: 403, header: map[string]string{"Content-Type": "application/json"}, body: `{"code":403,"msg":"workspace denied"}`,
			want: httpErr(a2a.HTTPError{StatusCode: 403, ContentType: "application/json"}, `{"code":403`)},
		{name: "307 on POST, same host", reqs: 2, serve: func(w http.ResponseWriter, r *http.Request, id string) {
			if r.URL.Path != "/moved" {
				http.Redirect(w, r, "/moved", http.StatusTemporaryRedirect)
				return
			}
			io.WriteString(w, strings.ReplaceAll(rpc(completedTask), "{{id}}", id))
		}, want: all(isTask(wantTask(nil)), sameBodies)},
		{name: "308 on message/send, same host", call: "send", reqs: 2, serve: func(w http.ResponseWriter, r *http.Request, id string) {
			if r.URL.Path != "/moved" {
				http.Redirect(w, r, "/moved", http.StatusPermanentRedirect)
				return
			}
			io.WriteString(w, strings.ReplaceAll(rpc(completedTask), "{{id}}", id))
		}, want: all(isTask(wantTask(nil)), sameBodies)},
		{name: "307 to another host", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
		}, want: httpErr(a2a.HTTPError{StatusCode: 307}, "")},
		{name: "301 on POST", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			http.Redirect(w, r, "/moved", http.StatusMovedPermanently)
		}, want: httpErr(a2a.HTTPError{StatusCode: 301}, "")},
		{name: "302 on POST", call: "send", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			http.Redirect(w, r, "/moved", http.StatusFound)
		}, want: httpErr(a2a.HTTPError{StatusCode: 302}, "")},
		{name: "303 on POST", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			http.Redirect(w, r, "/moved", http.StatusSeeOther)
		}, want: httpErr(a2a.HTTPError{StatusCode: 303}, "")},
		{name: "307 loop", reqs: 4, serve: func(w http.ResponseWriter, r *http.Request, id string) {
			http.Redirect(w, r, r.URL.Path+"x", http.StatusTemporaryRedirect)
		}, want: all(httpErr(a2a.HTTPError{StatusCode: 307}, ""), sameBodies)},
		{name: "Retry-After in seconds under the cap", reqs: 2, opts: []a2a.Option{a2a.WithRetryWait(time.Millisecond, 2*time.Second)},
			serve: retryOnce(func() string { return "1" }), want: all(isTask(wantTask(nil)), sameBodies, waited(900*time.Millisecond))},
		{name: "Retry-After an HTTP date ahead, under the cap", reqs: 2, opts: []a2a.Option{a2a.WithRetryWait(time.Millisecond, 4*time.Second)},
			serve: retryOnce(func() string { return time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat) }),
			want:  all(isTask(wantTask(nil)), waited(500*time.Millisecond))},
		{name: "Retry-After 0", reqs: 2, serve: retryOnce(func() string { return "0" }), want: isTask(wantTask(nil))},
		{name: "Retry-After an HTTP date in the past", reqs: 2, serve: retryOnce(func() string { return "Wed, 21 Oct 2015 07:28:00 GMT" }), want: isTask(wantTask(nil))},
		{name: "Retry-After an HTTP date an hour ahead, over the cap", status: 503, header: map[string]string{"Retry-After": time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)},
			want: func(t *testing.T, o outcome) {
				he, ok := errors.AsType[*a2a.HTTPError](o.err)
				if !ok || he.StatusCode != 503 || he.RetryAfter < 59*time.Minute || he.RetryAfter > time.Hour {
					t.Errorf("err = %#v, want HTTPError 503 with RetryAfter about 1h", o.err)
				}
			}},
		{name: "Retry-After negative, ignored", reqs: 2, serve: retryOnce(func() string { return "-5" }), want: isTask(wantTask(nil))},
		{name: "Retry-After garbage, ignored", reqs: 2, serve: retryOnce(func() string { return "soon, maybe" }), want: isTask(wantTask(nil))},
		{name: "Retry-After absurdly large, not retried", status: 429, header: map[string]string{"Retry-After": "99999999999999999999999"},
			want: httpErr(a2a.HTTPError{StatusCode: 429, RetryAfter: 24 * time.Hour}, "")},
		{name: "Retry-After an hour, not retried", call: "send", status: 503, header: map[string]string{"Retry-After": "3600"},
			want: httpErr(a2a.HTTPError{StatusCode: 503, RetryAfter: time.Hour}, "")},
		{name: "429 without body on message/send, retried", call: "send", reqs: 2, serve: retryOnce(func() string { return "" }), want: all(isTask(wantTask(nil)), sameBodies)},
		{name: "429 with a JSON-RPC body on message/send, not retried", call: "send", status: 429, body: rpcError(`{"code":-32603,"message":"slow down"}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: "slow down", StatusCode: 429})},
		{name: "body cut off mid-JSON on tasks/get, retried", reqs: 4, serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":"+id+",\"res", false)
		}, want: all(transportErr(4), func(t *testing.T, o outcome) {
			if !errors.Is(o.err, io.ErrUnexpectedEOF) {
				t.Errorf("err = %v, want it to wrap io.ErrUnexpectedEOF", o.err)
			}
		})},
		{name: "body cut off mid-JSON on message/send, not retried", call: "send", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":"+id+",\"res", false)
		}, want: transportErr(1)},
		{name: "truncated JSON with a matching length", body: `{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","id":"t1"`, want: protoErr("response is not JSON", nil)},
		{name: "connection reset mid-body", reqs: 4, serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "HTTP/1.1 200 OK\r\nContent-Length: 400\r\n\r\n{\"jsonrpc\":\"2.0\",", true)
		}, want: transportErr(4)},
		{name: "connection reset before a reply on message/send", call: "send", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "", true)
		}, want: transportErr(1)},
		{name: "body trickled slower than the per-attempt timeout", opts: []a2a.Option{a2a.WithHTTPClient(&http.Client{Timeout: 300 * time.Millisecond}), a2a.WithMaxRetries(0)},
			serve: func(w http.ResponseWriter, r *http.Request, id string) { trickle(w, r) },
			want:  all(transportErr(1), deadline())},
		{name: "body trickled past the caller's deadline", timeout: 300 * time.Millisecond,
			serve: func(w http.ResponseWriter, r *http.Request, id string) { trickle(w, r) }, want: deadline()},
		{name: "headers never sent before the caller's deadline", call: "send", timeout: 300 * time.Millisecond,
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				select {
				case <-r.Context().Done():
				case <-time.After(10 * time.Second):
				}
			}, want: deadline()},
		{name: "body over the cap with a Content-Length", opts: []a2a.Option{a2a.WithMaxResponseBytes(4096)}, body: rpc(withArtifact(`[{"kind":"text","text":"` + strings.Repeat("x", 5000) + `"}]`)),
			want: tooLarge(4096)},
		{name: "body over the cap, chunked", opts: []a2a.Option{a2a.WithMaxResponseBytes(4096)}, serve: func(w http.ResponseWriter, r *http.Request, id string) {
			for range 10 {
				io.WriteString(w, strings.Repeat(" ", 1000))
				http.NewResponseController(w).Flush()
			}
		}, want: tooLarge(4096)},
		{name: "Content-Length far over the cap", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\n\r\n{", false)
		}, want: tooLarge(a2a.DefaultMaxResponseBytes)},

		// --- Time ---
		{name: "timestamp without zone", body: rpc(taskWith(`{"state":"completed","timestamp":"2025-04-02T16:59:25.331844"}`)),
			want: stamp("2025-04-02T16:59:25.331844", utc("2025-04-02T16:59:25.331844Z"))},
		{name: "timestamp with an offset", body: rpc(taskWith(`{"state":"completed","timestamp":"2025-04-02T16:59:25+08:00"}`)),
			want: stamp("2025-04-02T16:59:25+08:00", utc("2025-04-02T08:59:25Z"))},
		{name: "timestamp with nanoseconds", body: rpc(taskWith(`{"state":"completed","timestamp":"2025-04-02T16:59:25.123456789Z"}`)),
			want: stamp("2025-04-02T16:59:25.123456789Z", utc("2025-04-02T16:59:25.123456789Z"))},
		{name: "timestamp garbage", body: rpc(taskWith(`{"state":"completed","timestamp":"yesterday-ish"}`)), want: stamp("yesterday-ish", time.Time{})},
		{name: "timestamp a number", body: rpc(taskWith(`{"state":"completed","timestamp":1743612000}`)), want: stamp("1743612000", time.Time{})},
		{name: "timestamp null", body: rpc(taskWith(`{"state":"completed","timestamp":null}`)), want: stamp("", time.Time{})},
	}
}

// retryOnce answers the first request with 429 (with the Retry-After
// retryAfter returns then, unless empty) and the next with the completed
// task.
func retryOnce(retryAfter func() string) func(w http.ResponseWriter, r *http.Request, id string) {
	var mu sync.Mutex
	n := 0
	return func(w http.ResponseWriter, r *http.Request, id string) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			if ra := retryAfter(); ra != "" {
				w.Header().Set("Retry-After", ra)
			}
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, strings.ReplaceAll(rpc(completedTask), "{{id}}", id))
	}
}

// TestHostileServers runs every row against its own loopback server.
func TestHostileServers(t *testing.T) {
	var otherHits sync.Map
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherHits.Store(r.URL.Path, r.Header.Clone())
	}))
	defer other.Close()

	rows := hostileRows(other)
	seen := map[string]bool{}
	for _, row := range rows {
		if seen[row.name] {
			t.Fatalf("row %q is there twice", row.name)
		}
		seen[row.name] = true
	}
	t.Logf("%d rows", len(rows))
	if len(rows) < 60 {
		t.Errorf("only %d rows; the suite promises at least 60", len(rows))
	}
	t.Run("rows", func(t *testing.T) {
		for _, row := range rows {
			t.Run(row.name, func(t *testing.T) {
				t.Parallel()
				runHostile(t, row)
			})
		}
	})
	otherHits.Range(func(k, v any) bool {
		t.Errorf("the other host got a request for %v with headers %v", k, v)
		return true
	})
}

func runHostile(t *testing.T, row hostileRow) {
	var mu sync.Mutex
	var bodies []string
	var arrivals []time.Time
	var lastReply string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var req struct{ ID json.RawMessage }
		json.Unmarshal(raw, &req)
		mu.Lock()
		bodies, arrivals = append(bodies, string(raw)), append(arrivals, time.Now())
		mu.Unlock()
		id := string(req.ID)
		if row.serve != nil {
			row.serve(w, r, id)
			return
		}
		for k, v := range row.header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(stdcmp.Or(row.status, 200))
		reply := strings.ReplaceAll(row.body, "{{id}}", id)
		mu.Lock()
		lastReply = reply
		mu.Unlock()
		io.WriteString(w, reply)
	}))
	defer srv.Close()

	// Every credential the client can carry, and a logger taking every
	// record at debug level: none may show in an error or a record,
	// whatever the fault.
	secrets := []string{"sk-hostile-key", "bearer-hostile-tok", "url-hostile-pass", "query-hostile-sig", "hdr-hostile-token"}
	logger, records := newCapture()
	opts := append([]a2a.Option{a2a.WithRetryWait(time.Millisecond, 2*time.Millisecond), a2a.WithAPIKey(secrets[0]),
		a2a.WithBearerToken(secrets[1]), a2a.WithHeader("X-Custom-Token", secrets[4]), a2a.WithWorkspace("ws-1"), a2a.WithLogger(logger)}, row.opts...)
	endpoint := strings.Replace(srv.URL, "http://", "http://caller:"+secrets[2]+"@", 1) + "/a2a?sig=" + secrets[3]
	c, err := a2a.NewClient(endpoint, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), stdcmp.Or(row.timeout, 10*time.Second))
	defer cancel()
	var o outcome
	switch row.call {
	case "", "get":
		var task *a2a.Task
		task, o.err = c.GetTask(ctx, "t1")
		if task != nil {
			o.res = task
		}
	case "cancel":
		var task *a2a.Task
		task, o.err = c.CancelTask(ctx, "t1")
		if task != nil {
			o.res = task
		}
	case "send":
		var res a2a.SendResult
		res, o.err = c.SendMessage(ctx, a2a.NewTextMessage("查询设备"))
		if res != nil {
			o.res = res
		}
	default:
		t.Fatalf("unknown call %q", row.call)
	}
	mu.Lock()
	o.bodies, o.arrivals, o.reply = bodies, arrivals, lastReply
	mu.Unlock()
	if want := stdcmp.Or(row.reqs, 1); len(o.bodies) != want {
		t.Errorf("server saw %d requests, want %d", len(o.bodies), want)
	}
	recs := records()
	if len(recs) < 2 {
		t.Errorf("only %d log records; the secret check would see nothing", len(recs))
	}
	noSecrets(t, append(errorTexts(o.err), recs...), secrets...)
	row.want(t, o)
}
