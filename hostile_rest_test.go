package a2a_test

import (
	stdcmp "cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The hostile-server table of the HTTP+JSON (REST) binding: error bodies
// of every shape and status, HTML and empty bodies, redirects, ids and
// tenants that try to leave their path segment, streams that end early or
// fail mid-way, JSON-RPC replies to REST requests and the reverse. Each
// row runs against its own loopback server with a client carrying every
// kind of credential; a row says what the caller gets (errors.Is/As and
// the error's fields), how many requests the server saw, and no credential
// may show in the error or the debug log. goleak (TestMain) checks that
// nothing is left running. docs/misbehaving-servers.md summarises it.

// restRow is one misbehaviour of an HTTP+JSON agent.
type restRow struct {
	name string
	// call is "get" (GetTask, the default), "send", "send-retry"
	// (SendMessage with RetrySend), "cancel", "stream"
	// (SendStreamingMessage), "subscribe" (SubscribeToTask) or "delete"
	// (DeleteTaskPushNotificationConfig).
	call string
	// The reply: status (default 200), headers and body; serve, when
	// set, answers instead (n counts the requests, from 1).
	status int
	header map[string]string
	body   string
	serve  func(w http.ResponseWriter, r *http.Request, n int)
	// id is the task id asked about (default "t1").
	id string
	// opts are added to the client's options.
	opts []a2a.Option
	// jsonrpc: the client speaks JSON-RPC (v1.0), for the rows of a REST
	// reply to a JSON-RPC request.
	jsonrpc bool
	// reqs is how many requests the server must see (0 means 1, -1 none).
	reqs int
	want func(t *testing.T, o restOutcome)
}

// restOutcome is what a row's call returned and what the server saw.
type restOutcome struct {
	res    any         // the call's value; for streams the events before the error
	events []a2a.Event // a stream's events
	err    error
	seen   []restSeen
}

// The credentials every row's client carries; the fault bodies of some
// rows echo them, and none may reach the caller or the log.
var restSecrets = []string{"sk-rest-key", "bearer-rest-tok", "url-rest-pass", "query-rest-sig", "hdr-rest-token"}

func runRESTRow(t *testing.T, row restRow) {
	serve := row.serve
	if serve == nil {
		serve = func(w http.ResponseWriter, _ *http.Request, _ int) {
			for k, v := range row.header {
				w.Header().Set(k, v)
			}
			w.WriteHeader(stdcmp.Or(row.status, http.StatusOK))
			io.WriteString(w, row.body)
		}
	}
	srv, url := serveREST(t, serve)
	logger, records := newCapture()
	opts := []a2a.Option{a2a.WithRetryWait(time.Millisecond, 2*time.Millisecond), a2a.WithAPIKey(restSecrets[0]),
		a2a.WithBearerToken(restSecrets[1]), a2a.WithHeader("X-Custom-Token", restSecrets[4]), a2a.WithLogger(logger),
		a2a.WithProtocolVersion(a2a.ProtocolV10)}
	if !row.jsonrpc {
		opts = append(opts, a2a.WithTransports(a2a.TransportHTTPJSON))
	}
	endpoint := strings.Replace(url, "http://", "http://caller:"+restSecrets[2]+"@", 1) + "/a2a?sig=" + restSecrets[3]
	c, err := a2a.NewClient(endpoint, append(opts, row.opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	id := stdcmp.Or(row.id, "t1")
	var o restOutcome
	switch row.call {
	case "", "get":
		var task *a2a.Task
		if task, o.err = c.GetTask(ctx, id); task != nil {
			o.res = task
		}
	case "cancel":
		var task *a2a.Task
		if task, o.err = c.CancelTask(ctx, id); task != nil {
			o.res = task
		}
	case "send", "send-retry":
		var copts []a2a.CallOption
		if row.call == "send-retry" {
			copts = append(copts, a2a.RetrySend())
		}
		var res a2a.SendResult
		if res, o.err = c.SendMessage(ctx, restMessage(), copts...); res != nil {
			o.res = res
		}
	case "delete":
		o.err = c.DeleteTaskPushNotificationConfig(ctx, id, "cfg-1")
	case "stream", "subscribe":
		seq := c.SendStreamingMessage(ctx, restMessage())
		if row.call == "subscribe" {
			seq = c.SubscribeToTask(ctx, id)
		}
		for ev, err := range seq {
			if err != nil {
				o.err = err
				break
			}
			o.events = append(o.events, ev)
		}
	default:
		t.Fatalf("unknown call %q", row.call)
	}
	o.seen = srv.requests()
	want := stdcmp.Or(row.reqs, 1)
	if want < 0 {
		want = 0
	}
	if len(o.seen) != want {
		t.Errorf("server saw %d requests, want %d: %+v", len(o.seen), want, o.seen)
	}
	noSecrets(t, append(errorTexts(o.err), records()...), restSecrets...)
	row.want(t, o)
}

// restA2AErr wants an *RPCError with this code (a sentinel it matches),
// HTTP status, Status and reason, and more checks on it.
func restA2AErr(sentinel error, code, status int, statusName, reason string, more ...func(t *testing.T, e *a2a.RPCError)) func(*testing.T, restOutcome) {
	return func(t *testing.T, o restOutcome) {
		t.Helper()
		if o.res != nil {
			t.Errorf("result %#v beside the error", o.res)
		}
		e, ok := errors.AsType[*a2a.RPCError](o.err)
		if !ok {
			t.Fatalf("err = %T %v, want *RPCError", o.err, o.err)
		}
		if sentinel != nil && !errors.Is(o.err, sentinel) {
			t.Errorf("errors.Is(%v, %v) = false", o.err, sentinel)
		}
		if e.Code != code || e.StatusCode != status || e.Status != statusName || e.Reason() != reason {
			t.Errorf("RPCError code %d, HTTP %d, status %q, reason %q; want %d, %d, %q, %q", e.Code, e.StatusCode, e.Status, e.Reason(), code, status, statusName, reason)
		}
		for _, m := range more {
			m(t, e)
		}
	}
}

// restHTTPErr wants an *HTTPError with this status, matching no A2A
// sentinel, and more checks on it.
func restHTTPErr(status int, more ...func(t *testing.T, e *a2a.HTTPError)) func(*testing.T, restOutcome) {
	return func(t *testing.T, o restOutcome) {
		t.Helper()
		e, ok := errors.AsType[*a2a.HTTPError](o.err)
		if !ok {
			t.Fatalf("err = %T %v, want *HTTPError", o.err, o.err)
		}
		if e.StatusCode != status {
			t.Errorf("StatusCode = %d, want %d", e.StatusCode, status)
		}
		if errors.Is(o.err, a2a.ErrTaskNotFound) || errors.As(o.err, new(*a2a.RPCError)) {
			t.Errorf("an HTTP failure read as an A2A error: %v", o.err)
		}
		for _, m := range more {
			m(t, e)
		}
	}
}

// restProtoErr wants a *ProtocolError whose text holds reason and that
// matches is (when not nil).
func restProtoErr(reason string, is error) func(*testing.T, restOutcome) {
	return func(t *testing.T, o restOutcome) {
		t.Helper()
		e, ok := errors.AsType[*a2a.ProtocolError](o.err)
		if !ok {
			t.Fatalf("err = %T %v, want *ProtocolError", o.err, o.err)
		}
		if !strings.Contains(e.Error(), reason) {
			t.Errorf("Error() = %q, want it to hold %q", e.Error(), reason)
		}
		if is != nil && !errors.Is(o.err, is) {
			t.Errorf("errors.Is(%v, %v) = false", o.err, is)
		}
	}
}

// restTaskIs wants a task in state and no error.
func restTaskIs(state a2a.TaskState) func(*testing.T, restOutcome) {
	return func(t *testing.T, o restOutcome) {
		t.Helper()
		task, ok := o.res.(*a2a.Task)
		if o.err != nil || !ok || task.Status.State != state {
			t.Fatalf("got %#v, %v; want a task in state %s", o.res, o.err, state)
		}
	}
}

// restEvents wants n events, then err matching check (nil: no error).
func restEvents(n int, check func(*testing.T, restOutcome)) func(*testing.T, restOutcome) {
	return func(t *testing.T, o restOutcome) {
		t.Helper()
		if len(o.events) != n {
			t.Errorf("%d events %v, want %d", len(o.events), o.events, n)
		}
		switch {
		case check != nil:
			check(t, o)
		case o.err != nil:
			t.Errorf("err = %v, want none", o.err)
		}
	}
}

// restCut wants a *StreamCutError carrying the task folded to state,
// wrapping an error matching is, a sentinel or a pointer to an error type
// for errors.As (nil: the agent closed the stream).
func restCut(state a2a.TaskState, is any) func(*testing.T, restOutcome) {
	return func(t *testing.T, o restOutcome) {
		t.Helper()
		ce, ok := errors.AsType[*a2a.StreamCutError](o.err)
		if !ok || ce.TaskID != "t1" || ce.Task == nil || ce.Task.Status.State != state {
			t.Fatalf("err = %T %+v, want *StreamCutError for t1 in state %s", o.err, o.err, state)
		}
		switch is := is.(type) {
		case error:
			if !errors.Is(o.err, is) {
				t.Errorf("errors.Is(%v, %v) = false", o.err, is)
			}
		case nil:
		default:
			if !errors.As(o.err, is) {
				t.Errorf("errors.As(%v, %T) = false", o.err, is)
			}
		}
		if is == nil && ce.Err != nil {
			t.Errorf("cut wraps %v, want nothing (the agent closed the stream)", ce.Err)
		}
	}
}

// restAll runs several checks.
func restAll(checks ...func(*testing.T, restOutcome)) func(*testing.T, restOutcome) {
	return func(t *testing.T, o restOutcome) {
		t.Helper()
		for _, c := range checks {
			c(t, o)
		}
	}
}

// restSameRequests wants every request identical to the first (a retry or
// a followed redirect re-sends the same bytes).
func restSameRequests(t *testing.T, o restOutcome) {
	t.Helper()
	for i, s := range o.seen[1:] {
		if s.Body != o.seen[0].Body || s.Method != o.seen[0].Method {
			t.Errorf("request %d differs from the first: %+v, %+v", i+2, s, o.seen[0])
		}
	}
}

// Bodies the rows use.
const (
	ctJSON    = "application/json"
	ctA2A     = "application/a2a+json; charset=utf-8"
	ctProblem = "application/problem+json"
	ctSSE     = "text/event-stream"
)

// rpcStatus is a google.rpc.Status body with one A2A ErrorInfo of reason
// (none when reason is "").
func rpcStatus(code int, status, message, reason string) string {
	details := ""
	if reason != "" {
		details = `,"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"` + reason + `","domain":"a2a-protocol.org","metadata":{"taskId":"t1"}}]`
	}
	return fmt.Sprintf(`{"error":{"code":%d,"status":%q,"message":%q%s}}`, code, status, message, details)
}

// restSSE is an event stream of data events, each a line of JSON, with LF
// line ends.
func restSSE(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		b.WriteString("data: " + e + "\n\n")
	}
	return b.String()
}

const (
	evWorking   = `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}`
	evCompleted = `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}`
)

// sseReply answers with a 200 event stream holding raw.
func sseReply(raw string) func(http.ResponseWriter, *http.Request, int) {
	return answerWith(http.StatusOK, ctSSE, raw)
}

func restErrorRows() []restRow {
	secretStatus := `{"error":{"code":404,"status":"NOT_FOUND ` + restSecrets[4] + `","message":"no task for key ` + restSecrets[0] + `",` +
		`"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org",` +
		`"metadata":{"auth":"Bearer ` + restSecrets[1] + `","url":"http://caller:` + restSecrets[2] + `@x/?sig=` + restSecrets[3] + `"}}]}}`
	return []restRow{
		{name: "Status 404 TASK_NOT_FOUND, application/json", status: 404, header: map[string]string{"Content-Type": ctJSON},
			body: rpcStatus(404, "NOT_FOUND", "Task not found: t1", "TASK_NOT_FOUND"),
			want: restA2AErr(a2a.ErrTaskNotFound, -32001, 404, "NOT_FOUND", "TASK_NOT_FOUND", func(t *testing.T, e *a2a.RPCError) {
				if e.Message != "Task not found: t1" || e.Details[0].Metadata["taskId"] != "t1" || e.Details[0].Domain != "a2a-protocol.org" {
					t.Errorf("message %q, details %+v", e.Message, e.Details)
				}
			})},
		{name: "Status 400 TASK_NOT_CANCELABLE, application/a2a+json with charset", call: "cancel", status: 400, header: map[string]string{"Content-Type": ctA2A},
			body: rpcStatus(400, "FAILED_PRECONDITION", "already done", "TASK_NOT_CANCELABLE"),
			want: restA2AErr(a2a.ErrTaskNotCancelable, -32002, 400, "FAILED_PRECONDITION", "TASK_NOT_CANCELABLE")},
		{name: "Status labelled application/problem+json (a2a-go v0.3 compat)", status: 404, header: map[string]string{"Content-Type": ctProblem},
			body: rpcStatus(404, "NOT_FOUND", "gone", "TASK_NOT_FOUND"),
			want: restA2AErr(a2a.ErrTaskNotFound, -32001, 404, "NOT_FOUND", "TASK_NOT_FOUND")},
		{name: "Status labelled text/plain", status: 400, header: map[string]string{"Content-Type": "text/plain"},
			body: rpcStatus(400, "FAILED_PRECONDITION", "no push", "PUSH_NOTIFICATION_NOT_SUPPORTED"),
			want: restA2AErr(a2a.ErrPushNotificationNotSupported, -32003, 400, "FAILED_PRECONDITION", "PUSH_NOTIFICATION_NOT_SUPPORTED")},
		{name: "ErrorInfo metadata not strings (a2a-python)", status: 400, header: map[string]string{"Content-Type": ctJSON},
			body: `{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"bad","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INVALID_PARAMS","domain":"a2a-protocol.org","metadata":{"fields":["a","b"],"n":3,"nil":null}}]}}`,
			want: restA2AErr(a2a.ErrInvalidParams, -32602, 400, "INVALID_ARGUMENT", "INVALID_PARAMS", func(t *testing.T, e *a2a.RPCError) {
				if m := e.Details[0].Metadata; m["fields"] != `["a","b"]` || m["n"] != "3" || m["nil"] != "null" {
					t.Errorf("metadata %v", m)
				}
			})},
		{name: "unknown reason on 400: code 0, details kept", status: 400,
			body: rpcStatus(400, "FAILED_PRECONDITION", "new thing", "SOMETHING_NEW"),
			want: restA2AErr(nil, 0, 400, "FAILED_PRECONDITION", "SOMETHING_NEW")},
		{name: "unknown reason on 404: task not found by status", status: 404,
			body: rpcStatus(404, "NOT_FOUND", "nope", "SOMETHING_NEW"),
			want: restA2AErr(a2a.ErrTaskNotFound, -32001, 404, "NOT_FOUND", "SOMETHING_NEW")},
		{name: "foreign domain first, the A2A ErrorInfo wins", call: "cancel", status: 400,
			body: `{"error":{"code":400,"status":"FAILED_PRECONDITION","message":"x","details":[` +
				`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INVALID_PARAMS","domain":"other.example"},` +
				`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_CANCELABLE","domain":"a2a-protocol.org"}]}}`,
			want: restA2AErr(a2a.ErrTaskNotCancelable, -32002, 400, "FAILED_PRECONDITION", "INVALID_PARAMS")},
		{name: "foreign domain only, known reason", status: 404,
			body: `{"error":{"code":404,"message":"x","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"example.com"}]}}`,
			want: restA2AErr(a2a.ErrTaskNotFound, -32001, 404, "", "TASK_NOT_FOUND")},
		{name: "several details: BadRequest, ErrorInfo, DebugInfo", status: 400,
			body: `{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"bad","details":[` +
				`{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.parts","description":"empty"}]},` +
				`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INVALID_PARAMS","domain":"a2a-protocol.org"},` +
				`{"@type":"type.googleapis.com/google.rpc.DebugInfo","detail":"stack"}]}}`,
			want: restA2AErr(a2a.ErrInvalidParams, -32602, 400, "INVALID_ARGUMENT", "INVALID_PARAMS", func(t *testing.T, e *a2a.RPCError) {
				if len(e.Details) != 3 || !strings.Contains(string(e.Details[0].Raw), "fieldViolations") {
					t.Errorf("details %+v, want all three, raw kept", e.Details)
				}
			})},
		{name: "Status without details on 500 (a2a-js internal)", status: 500,
			body: `{"error":{"code":500,"status":"INTERNAL","message":"boom","details":[]}}`, reqs: 1,
			want: restA2AErr(a2a.ErrInternal, -32603, 500, "INTERNAL", "")},
		{name: "Status without details on 409 (v1.0.0's not cancelable)", call: "cancel", status: 409,
			body: `{"error":{"code":409,"status":"FAILED_PRECONDITION","message":"done"}}`,
			want: restA2AErr(a2a.ErrTaskNotCancelable, -32002, 409, "FAILED_PRECONDITION", "")},
		{name: "Status VERSION_NOT_SUPPORTED matches the version mismatch", status: 400,
			body: rpcStatus(400, "FAILED_PRECONDITION", "requested 0.3", "VERSION_NOT_SUPPORTED"),
			want: restAll(restA2AErr(a2a.ErrVersionNotSupported, -32009, 400, "FAILED_PRECONDITION", "VERSION_NOT_SUPPORTED"),
				func(t *testing.T, o restOutcome) {
					if !errors.Is(o.err, a2a.ErrVersionMismatch) {
						t.Errorf("%v does not match ErrVersionMismatch", o.err)
					}
				})},
		{name: "Status 401 UNAUTHENTICATED without an A2A reason: HTTP error with the challenge", status: 401,
			header: map[string]string{"WWW-Authenticate": `Bearer realm="a2a"`},
			body:   `{"error":{"code":401,"status":"UNAUTHENTICATED","message":"login"}}`,
			want: restHTTPErr(401, func(t *testing.T, e *a2a.HTTPError) {
				if e.Challenge != `Bearer realm="a2a"` || !strings.Contains(string(e.Body), "UNAUTHENTICATED") {
					t.Errorf("challenge %q, body %q", e.Challenge, e.Body)
				}
			})},
		{name: "Status with every kind of secret, redacted everywhere", status: 404, body: secretStatus,
			want: restA2AErr(a2a.ErrTaskNotFound, -32001, 404, "NOT_FOUND [REDACTED]", "TASK_NOT_FOUND", func(t *testing.T, e *a2a.RPCError) {
				if !strings.Contains(e.Message, "[REDACTED]") || !strings.Contains(e.Details[0].Metadata["auth"], "[REDACTED]") {
					t.Errorf("message %q, metadata %v: want the secrets replaced", e.Message, e.Details[0].Metadata)
				}
			})},
		{name: "RFC 9457 with an A2A type and extension members", status: 400, header: map[string]string{"Content-Type": ctProblem},
			body: `{"type":"https://a2a-protocol.org/errors/version-not-supported","title":"Version not supported","status":400,"detail":"0.3 is not served","supportedVersions":["1.0"]}`,
			want: restA2AErr(a2a.ErrVersionNotSupported, -32009, 400, "https://a2a-protocol.org/errors/version-not-supported", "", func(t *testing.T, e *a2a.RPCError) {
				if e.Message != "0.3 is not served" || !strings.Contains(string(e.Data), `"supportedVersions":["1.0"]`) {
					t.Errorf("message %q, data %s", e.Message, e.Data)
				}
			})},
		{name: "RFC 9457 type task-not-cancelable on 409", call: "cancel", status: 409, header: map[string]string{"Content-Type": ctProblem},
			body: `{"type":"https://a2a-protocol.org/errors/task-not-cancelable","title":"Task not cancelable","status":409}`,
			want: restA2AErr(a2a.ErrTaskNotCancelable, -32002, 409, "https://a2a-protocol.org/errors/task-not-cancelable", "")},
		{name: "RFC 9457 about:blank: the status decides", status: 404, header: map[string]string{"Content-Type": ctProblem},
			body: `{"type":"about:blank","title":"Not Found","status":404}`,
			want: restA2AErr(a2a.ErrTaskNotFound, -32001, 404, "about:blank", "")},
		{name: "v0.3 a2a-js shape: JSON-RPC code and message", status: 404,
			body: `{"code":-32001,"message":"Task not found: t1","data":{"taskId":"t1"}}`,
			want: restA2AErr(a2a.ErrTaskNotFound, -32001, 404, "", "")},
		{name: "v0.3 a2a-python shape: message alone", call: "cancel", status: 409, body: `{"message":"Task cannot be canceled"}`,
			want: restA2AErr(a2a.ErrTaskNotCancelable, -32002, 409, "", "")},
		{name: "v0.3 a2a-java shape: class and message", status: 404,
			body: `{"error":"io.a2a.spec.TaskNotFoundError","message":"Task not found"}`,
			want: restA2AErr(a2a.ErrTaskNotFound, -32001, 404, "", "")},
		{name: "an HTTP status in code is not a JSON-RPC code", status: 501, body: `{"code":501,"message":"not implemented"}`,
			want: restA2AErr(a2a.ErrUnsupportedOperation, -32004, 501, "", "")},
		{name: "a bare string error is no A2A error", status: 404, body: `{"error":"Not Found"}`, want: restHTTPErr(404)},
		{name: "HTML 404 from a wrong path is not task not found", status: 404, header: map[string]string{"Content-Type": "text/html"},
			body: "<!DOCTYPE html><html><body>Cannot GET /a2a/tasks/t1</body></html>",
			want: restHTTPErr(404, func(t *testing.T, e *a2a.HTTPError) {
				if e.ContentType != "text/html" || !strings.HasPrefix(string(e.Body), "<!DOCTYPE") {
					t.Errorf("content type %q, body %q", e.ContentType, e.Body)
				}
			})},
		{name: "text 405 with Allow", call: "cancel", status: 405, header: map[string]string{"Allow": "GET", "Content-Type": "text/plain"},
			body: "Method Not Allowed", want: restHTTPErr(405)},
		{name: "empty 401 with WWW-Authenticate", status: 401, header: map[string]string{"WWW-Authenticate": `Bearer error="invalid_token"`},
			want: restHTTPErr(401, func(t *testing.T, e *a2a.HTTPError) {
				if e.Challenge != `Bearer error="invalid_token"` {
					t.Errorf("challenge %q", e.Challenge)
				}
			})},
		{name: "502 from a proxy, GET retried then given up", status: 502, header: map[string]string{"Content-Type": "text/html"},
			body: "<html>Bad Gateway</html>", reqs: 4, want: restHTTPErr(502)},
		{name: "502 on send not retried", call: "send", status: 502, body: "<html>Bad Gateway</html>", want: restHTTPErr(502)},
		{name: "502 on send retried with RetrySend, same bytes", call: "send-retry", reqs: 2,
			serve: func(w http.ResponseWriter, _ *http.Request, n int) {
				if n == 1 {
					w.WriteHeader(http.StatusBadGateway)
					return
				}
				io.WriteString(w, `{"task":`+restTask+`}`)
			},
			want: restAll(restTaskIs(a2a.TaskStateCompleted), restSameRequests)},
		{name: "429 with Retry-After on GET, retried", reqs: 2,
			serve: func(w http.ResponseWriter, _ *http.Request, n int) {
				if n == 1 {
					w.Header().Set("Retry-After", "0")
					w.WriteHeader(http.StatusTooManyRequests)
					io.WriteString(w, `{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","message":"slow down"}}`)
					return
				}
				io.WriteString(w, restTask)
			},
			want: restAll(restTaskIs(a2a.TaskStateCompleted), restSameRequests)},
		{name: "429 with a Status on send: retried, the agent did not act", call: "send", reqs: 2,
			serve: func(w http.ResponseWriter, _ *http.Request, n int) {
				if n == 1 {
					w.WriteHeader(http.StatusTooManyRequests)
					io.WriteString(w, `{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","message":"slow down"}}`)
					return
				}
				io.WriteString(w, `{"task":`+restTask+`}`)
			},
			want: restAll(restTaskIs(a2a.TaskStateCompleted), restSameRequests)},
		{name: "429 with a task on send: not re-sent, the agent may have acted", call: "send", status: 429,
			body: `{"task":` + restTask + `}`, want: restHTTPErr(429)},
		{name: "429 with a long Retry-After: given back", status: 429, header: map[string]string{"Retry-After": "3600"},
			body: `{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","message":"quota"}}`,
			want: restHTTPErr(429, func(t *testing.T, e *a2a.HTTPError) {
				if e.RetryAfter != time.Hour {
					t.Errorf("RetryAfter = %s", e.RetryAfter)
				}
			})},
		{name: "error body over the size cap", status: 500, opts: []a2a.Option{a2a.WithMaxResponseBytes(1 << 20)},
			body: `{"error":{"code":500,"message":"` + strings.Repeat("x", 3<<20) + `"}}`,
			want: func(t *testing.T, o restOutcome) {
				if !errors.As(o.err, new(*a2a.BodyTooLargeError)) {
					t.Errorf("err = %T %v, want *BodyTooLargeError", o.err, o.err)
				}
			}},
		{name: "4 MiB HTML error: an excerpt", status: 500, body: "<html>" + strings.Repeat("y", 4<<20),
			want: restHTTPErr(500, func(t *testing.T, e *a2a.HTTPError) {
				if len(e.Body) > 512+len("…") { // the excerpt, and the mark of its cut
					t.Errorf("excerpt of %d bytes", len(e.Body))
				}
			})},
		{name: "deeply nested error body", status: 400, body: `{"error":` + strings.Repeat(`{"a":`, 100000) + `1` + strings.Repeat(`}`, 100000) + `}`,
			want: restHTTPErr(400)},
		{name: "member repeated in an error body", status: 404, body: `{"message":"a","message":"b"}`, want: restHTTPErr(404)},
		{name: "JSON-RPC reply to a REST request", body: `{"jsonrpc":"2.0","id":1,"result":` + restTask + `}`,
			want: restProtoErr("WithTransports(TransportJSONRPC)", a2a.ErrTransportMismatch)},
		{name: "JSON-RPC error on 404 to a REST request", status: 404, body: `{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}`,
			want: restProtoErr("reply is a JSON-RPC response", a2a.ErrTransportMismatch)},
		{name: "REST reply to a JSON-RPC request", jsonrpc: true, body: `{"task":` + restTask + `}`,
			want: restProtoErr("WithTransports(TransportHTTPJSON)", a2a.ErrTransportMismatch)},
		{name: "REST Status to a JSON-RPC request", jsonrpc: true, status: 404, body: rpcStatus(404, "NOT_FOUND", "no route", "METHOD_NOT_FOUND"),
			want: restProtoErr("HTTP+JSON (REST) reply", a2a.ErrTransportMismatch)},
		{name: "a gateway's own Status to a JSON-RPC request stays an HTTP error", jsonrpc: true, status: 403,
			body: `{"error":{"code":403,"status":"PERMISSION_DENIED","message":"denied"}}`, want: restHTTPErr(403)},
		{name: "200 HTML where a task is due", header: map[string]string{"Content-Type": "text/html"}, body: "<html>login</html>",
			want: restProtoErr("response is not JSON", nil)},
		{name: "200 empty body where a task is due", want: restProtoErr("empty body with HTTP 200", nil)},
		{name: "200 with an error object: the error", body: rpcStatus(404, "NOT_FOUND", "gone", "TASK_NOT_FOUND"),
			want: restA2AErr(a2a.ErrTaskNotFound, -32001, 200, "NOT_FOUND", "TASK_NOT_FOUND")},
		{name: "201 and unknown members: the task", status: 201, body: `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"generation":"7","future":{}}`,
			want: restTaskIs(a2a.TaskStateCompleted)},
		{name: "a task about another task", body: `{"id":"t2","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}`,
			want: restProtoErr(`result is about task "t2", not "t1"`, nil)},
		{name: "delete answered 204", call: "delete", status: 204, want: func(t *testing.T, o restOutcome) {
			if o.err != nil {
				t.Errorf("err = %v", o.err)
			}
		}},
		{name: "delete answered with an empty 200", call: "delete", want: func(t *testing.T, o restOutcome) {
			if o.err != nil {
				t.Errorf("err = %v", o.err)
			}
		}},
		{name: "redirect to another path on the same host, GET followed", reqs: 2,
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				if n == 1 {
					http.Redirect(w, r, "/moved/tasks/t1", http.StatusTemporaryRedirect)
					return
				}
				io.WriteString(w, restTask)
			},
			want: restTaskIs(a2a.TaskStateCompleted)},
		{name: "308 on send, followed with the same body", call: "send", reqs: 2,
			serve: func(w http.ResponseWriter, r *http.Request, n int) {
				if n == 1 {
					http.Redirect(w, r, "/moved/message:send", http.StatusPermanentRedirect)
					return
				}
				io.WriteString(w, `{"message":{"messageId":"m9","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`)
			},
			want: restAll(restSameRequests, func(t *testing.T, o restOutcome) {
				if _, ok := o.res.(*a2a.Message); !ok || o.err != nil {
					t.Errorf("got %#v, %v; want the message", o.res, o.err)
				}
			})},
		{name: "303 turning a send into a GET is not followed", call: "send",
			serve: func(w http.ResponseWriter, r *http.Request, _ int) {
				http.Redirect(w, r, "/elsewhere", http.StatusSeeOther)
			},
			want: restHTTPErr(303)},
		{name: "id trying to leave its segment", id: "../../admin?x=1#f",
			serve: func(w http.ResponseWriter, r *http.Request, _ int) {
				if r.RequestURI != "/a2a/tasks/..%2F..%2Fadmin%3Fx%3D1%23f?sig="+restSecrets[3] {
					w.WriteHeader(http.StatusTeapot)
					return
				}
				io.WriteString(w, `{"id":"../../admin?x=1#f","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}`)
			},
			want: restTaskIs(a2a.TaskStateWorking)},
		{name: "id .. refused before sending", id: "..", reqs: -1,
			want: func(t *testing.T, o restOutcome) {
				if o.err == nil || !strings.Contains(o.err.Error(), "cannot be sent as a URL path segment") {
					t.Errorf("err = %v", o.err)
				}
			}},
		{name: "tenant with path tricks stays in its segments", opts: []a2a.Option{a2a.WithTenant("p/a%2F..?b#c")},
			serve: func(w http.ResponseWriter, r *http.Request, _ int) {
				if r.RequestURI != "/a2a/p/a%252F..%3Fb%23c/tasks/t1?sig="+restSecrets[3] {
					w.WriteHeader(http.StatusTeapot)
					return
				}
				io.WriteString(w, restTask)
			},
			want: restTaskIs(a2a.TaskStateCompleted)},
	}
}

func restStreamRows() []restRow {
	return []restRow{
		{name: "stream: CRLF, comments, id and retry fields, data over two lines", call: "stream",
			serve: sseReply(": keep-alive\r\nid: 1\r\nretry: 10\r\ndata: {\"task\":\r\ndata: {\"id\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\r\n\r\n" +
				"id: 2\r\ndata: " + evCompleted + "\r\n\r\n"),
			want: restEvents(2, nil)},
		{name: "stream: CR line ends", call: "stream", serve: sseReply("data: " + evWorking + "\r\rdata: " + evCompleted + "\r\r"),
			want: restEvents(2, nil)},
		{name: "stream: event: error with a Status mid-way", call: "stream",
			serve: sseReply(restSSE(evWorking) + "event: error\ndata: " + rpcStatus(500, "INTERNAL", "agent crashed", "INTERNAL_ERROR") + "\n\n"),
			want:  restEvents(1, restCut(a2a.TaskStateWorking, a2a.ErrInternal))},
		{name: "stream: plain data error object mid-way", call: "stream",
			serve: sseReply(restSSE(evWorking, rpcStatus(404, "NOT_FOUND", "no active execution", "TASK_NOT_FOUND"))),
			want:  restEvents(1, restCut(a2a.TaskStateWorking, a2a.ErrTaskNotFound))},
		{name: "stream: event: error that is no error", call: "stream",
			serve: sseReply("event: error\ndata: oops\n\n"),
			want:  restEvents(0, restProtoErr("error event is not a JSON object", nil))},
		{name: "stream: an event of unknown members only", call: "stream", serve: sseReply(restSSE(evWorking, `{"futureThing":{}}`)),
			want: restEvents(1, restAll(restCut(a2a.TaskStateWorking, new(*a2a.ProtocolError)), restProtoErr("event holds none of task", nil)))},
		{name: "stream: a JSON-RPC envelope in the data", call: "stream",
			serve: sseReply(restSSE(`{"jsonrpc":"2.0","id":1,"result":` + evWorking + `}`)),
			want:  restEvents(0, restProtoErr("reply is a JSON-RPC response", a2a.ErrTransportMismatch))},
		{name: "stream: EOF in the middle of an event", call: "stream", serve: sseReply(restSSE(evWorking) + `data: {"statusUpdate":{"taskId":"t1"`),
			want: restEvents(1, restCut(a2a.TaskStateWorking, nil))},
		{name: "stream: ends after WORKING", call: "stream", serve: sseReply(restSSE(evWorking)),
			want: restEvents(1, restCut(a2a.TaskStateWorking, nil))},
		{name: "stream: 200 application/json with a task: one event", call: "stream",
			serve: answerWith(200, ctJSON, `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}`),
			want:  restEvents(1, nil)},
		{name: "stream: 200 application/json with a Status error", call: "stream",
			serve: answerWith(200, ctJSON, rpcStatus(400, "FAILED_PRECONDITION", "finished", "UNSUPPORTED_OPERATION")),
			want:  restEvents(0, restA2AErr(a2a.ErrUnsupportedOperation, -32004, 200, "FAILED_PRECONDITION", "UNSUPPORTED_OPERATION"))},
		{name: "subscribe: 404 Status before the stream", call: "subscribe",
			serve: answerWith(404, ctA2A, rpcStatus(404, "NOT_FOUND", "Task not found: t1", "TASK_NOT_FOUND")),
			want:  restEvents(0, restA2AErr(a2a.ErrTaskNotFound, -32001, 404, "NOT_FOUND", "TASK_NOT_FOUND"))},
		{name: "stream: an event over the cap", call: "stream", opts: []a2a.Option{a2a.WithMaxResponseBytes(64 << 10)},
			serve: sseReply(restSSE(evWorking, `{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a","parts":[{"text":"`+strings.Repeat("z", 100<<10)+`"}]}}}`)),
			want: restEvents(1, func(t *testing.T, o restOutcome) {
				if !errors.As(o.err, new(*a2a.BodyTooLargeError)) {
					t.Errorf("err = %T %v, want *BodyTooLargeError", o.err, o.err)
				}
			})},
		{name: "subscribe: 405 to POST, GET once", call: "subscribe", reqs: 2,
			serve: func(w http.ResponseWriter, r *http.Request, _ int) {
				if r.Method != http.MethodGet {
					w.Header().Set("Allow", "GET")
					w.WriteHeader(http.StatusMethodNotAllowed)
					return
				}
				sseReply(restSSE(evWorking, evCompleted))(w, r, 0)
			},
			want: restAll(restEvents(2, nil), func(t *testing.T, o restOutcome) {
				if o.seen[0].Method != "POST" || o.seen[1].Method != "GET" {
					t.Errorf("verbs %s, %s", o.seen[0].Method, o.seen[1].Method)
				}
			})},
		{name: "subscribe: every verb refused, tried twice, no loop", call: "subscribe", reqs: 2,
			serve: answerWith(405, "text/plain", "Method Not Allowed"),
			want:  restEvents(0, restHTTPErr(405))},
		{name: "subscribe: a 404 naming <id>:subscribe, GET once", call: "subscribe", reqs: 2,
			serve: func(w http.ResponseWriter, r *http.Request, _ int) {
				if r.Method != http.MethodGet {
					answerWith(404, ctJSON, `{"code":-32001,"message":"Task not found: t1:subscribe"}`)(w, r, 0)
					return
				}
				sseReply(restSSE(evWorking, evCompleted))(w, r, 0)
			},
			want: restEvents(2, nil)},
		{name: "subscribe: a 404 naming another :subscribe path is the answer", call: "subscribe",
			serve: answerWith(404, ctJSON, rpcStatus(404, "NOT_FOUND", "no route: POST /a2a/tasks/{id}:subscribe", "TASK_NOT_FOUND")),
			want:  restEvents(0, restA2AErr(a2a.ErrTaskNotFound, -32001, 404, "NOT_FOUND", "TASK_NOT_FOUND"))},
	}
}

// restHostileRows is the whole REST table.
func restHostileRows() []restRow { return slices.Concat(restErrorRows(), restStreamRows()) }

// TestHostileREST runs the REST table, each row in parallel on its own
// loopback server; the table keeps at least 40 rows with unique names.
func TestHostileREST(t *testing.T) {
	rows := restHostileRows()
	if len(rows) < 40 {
		t.Errorf("only %d rows; the suite promises at least 40", len(rows))
	}
	seen := map[string]bool{}
	for _, row := range rows {
		if seen[row.name] {
			t.Errorf("row %q is there twice", row.name)
		}
		seen[row.name] = true
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			runRESTRow(t, row)
		})
	}
}

// TestRESTCrossHostRedirect: a redirect to another host is not followed,
// so the client's credentials never reach it.
func TestRESTCrossHostRedirect(t *testing.T) {
	other, otherURL := serveREST(t, answerWith(200, ctJSON, restTask))
	_, url := serveREST(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		http.Redirect(w, r, otherURL+"/tasks/t1", http.StatusTemporaryRedirect)
	})
	c := restClient(t, url, a2a.WithAPIKey(restSecrets[0]))
	_, err := c.GetTask(context.Background(), "t1")
	if e, ok := errors.AsType[*a2a.HTTPError](err); !ok || e.StatusCode != http.StatusTemporaryRedirect {
		t.Errorf("err = %T %v, want the 307 as an *HTTPError", err, err)
	}
	if n := len(other.requests()); n != 0 {
		t.Errorf("the other host got %d requests", n)
	}
}

// TestRESTSubscribeVerbRemembered: the verb a subscribe fell back to is
// where the client's next subscribe starts, in both directions: POST
// refused → GET, remembered; then GET refused → POST, remembered.
func TestRESTSubscribeVerbRemembered(t *testing.T) {
	var accept atomic.Value
	accept.Store(http.MethodGet)
	srv, url := serveREST(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		if r.Method != accept.Load() {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		sseReply(restSSE(evWorking, evCompleted))(w, r, 0)
	})
	c := restClient(t, url)
	subscribe := func() {
		t.Helper()
		for _, err := range c.SubscribeToTask(context.Background(), "t1") {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	subscribe() // POST, GET
	subscribe() // GET
	accept.Store(http.MethodPost)
	subscribe() // GET, POST
	subscribe() // POST
	var verbs []string
	for _, s := range srv.requests() {
		verbs = append(verbs, s.Method)
	}
	if want := []string{"POST", "GET", "GET", "GET", "POST", "POST"}; !slices.Equal(verbs, want) {
		t.Errorf("verbs %v, want %v", verbs, want)
	}
}
