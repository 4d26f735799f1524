package a2a_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The REST call path's replies (restcall.go): success bodies, errors by
// shape, and the fuzz target of the REST readers. The hostile table
// (hostile_rest_test.go) holds the misbehaving replies.

// TestRESTReplies: every 2xx is a success; a ListTasksResponse may lack
// any member; unknown members are ignored; send may answer a Message; a
// create answered 201 and a delete answered 204, with an empty 200 or
// with {} all succeed.
func TestRESTReplies(t *testing.T) {
	ctx := context.Background()
	t.Run("list with members missing", func(t *testing.T) {
		_, url := serveREST(t, answerWith(200, ctA2A, `{"tasks":[`+restTask+`],"future":1}`))
		page, err := restClient(t, url).ListTasksPage(ctx, a2a.ListTasksRequest{})
		if err != nil || len(page.Tasks) != 1 || page.NextPageToken != "" || page.TotalSize != 0 {
			t.Fatalf("page %+v, %v", page, err)
		}
	})
	t.Run("list empty object", func(t *testing.T) {
		_, url := serveREST(t, answerWith(200, ctJSON, `{}`))
		page, err := restClient(t, url).ListTasksPage(ctx, a2a.ListTasksRequest{})
		if err != nil || len(page.Tasks) != 0 {
			t.Fatalf("page %+v, %v", page, err)
		}
	})
	t.Run("send answered with a message, 201", func(t *testing.T) {
		_, url := serveREST(t, answerWith(201, ctJSON, `{"message":{"messageId":"m9","role":"ROLE_AGENT","parts":[{"text":"好"}],"x":1}}`))
		res, err := restClient(t, url).SendMessage(ctx, restMessage())
		m, ok := res.(*a2a.Message)
		if err != nil || !ok || m.Role != a2a.RoleAgent || m.Parts.Text() != "好" {
			t.Fatalf("got %#v, %v", res, err)
		}
	})
	t.Run("create answered 201", func(t *testing.T) {
		_, url := serveREST(t, answerWith(201, ctA2A, restPushConf))
		cfg, err := restClient(t, url).CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: "t1",
			PushNotificationConfig: a2a.PushNotificationConfig{ID: "cfg-1", URL: "https://client.example/hook"}})
		if err != nil || cfg.PushNotificationConfig.ID != "cfg-1" {
			t.Fatalf("got %+v, %v", cfg, err)
		}
	})
	for _, del := range []struct {
		status int
		body   string
	}{{204, ""}, {200, ""}, {200, "{}"}, {202, " \n"}} {
		t.Run("delete answered "+strconv.Itoa(del.status)+" "+strconv.Quote(del.body), func(t *testing.T) {
			_, url := serveREST(t, answerWith(del.status, ctJSON, del.body))
			if err := restClient(t, url).DeleteTaskPushNotificationConfig(ctx, "t1", "cfg-1"); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("extended card", func(t *testing.T) {
		_, url := serveREST(t, answerWith(200, ctJSON, `{"name":"卡","description":"d","version":"1","supportedInterfaces":[{"url":"http://x/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]}`))
		card, err := restClient(t, url).GetExtendedAgentCard(ctx)
		if err != nil || card.Name != "卡" {
			t.Fatalf("got %+v, %v", card, err)
		}
	})
}

// replyFunc is an in-memory transport answering every request with one reply.
type replyFunc func(*http.Request) *http.Response

func (f replyFunc) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	return f(r), nil
}

var (
	restFuzzStatuses = []int{200, 200, 201, 204, 400, 401, 404, 405, 409, 429, 500, 502}
	restFuzzTypes    = []string{ctJSON, ctA2A, ctProblem, ctSSE, "text/html", ""}
	restFuzzCalls    = []string{"get", "send", "list", "delete", "cancel", "stream", "subscribe"}
)

// FuzzRESTReply: whatever an HTTP+JSON agent answers (status, Content-Type,
// body; a body starting "data:" or "event:" as an event stream too), each
// call returns exactly one of a value and a typed error, within its
// context, and a stream yields nothing after its error.
func FuzzRESTReply(f *testing.F) {
	i := 0
	add := func(body string) {
		f.Add([]byte(body), uint8(i), uint8(i/3), uint8(i/5))
		i++
	}
	for _, row := range restHostileRows() {
		if row.serve == nil && len(row.body) <= 4096 {
			add(row.body)
		}
	}
	for _, body := range []string{restTask, `{"task":` + restTask + `}`, `{"tasks":[` + restTask + `],"nextPageToken":"n"}`, restPushConf,
		restSSE(evWorking, evCompleted), "event: error\r\ndata: " + rpcStatus(404, "NOT_FOUND", "x", "TASK_NOT_FOUND") + "\r\n\r\n",
		": ping\rdata: {\"task\":\rdata: " + restTask + "}\r\r", `{"type":"https://a2a-protocol.org/errors/task-not-found","status":404}`,
		`{"error":{"code":"404","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","metadata":{"a":{"b":[1]}}}]}}`} {
		add(body)
	}
	f.Fuzz(func(t *testing.T, body []byte, status, ctype, call uint8) {
		st := restFuzzStatuses[int(status)%len(restFuzzStatuses)]
		ct := restFuzzTypes[int(ctype)%len(restFuzzTypes)]
		if bytes.HasPrefix(body, []byte("data:")) || bytes.HasPrefix(body, []byte("event:")) {
			ct = ctSSE
		}
		rt := replyFunc(func(r *http.Request) *http.Response {
			h := http.Header{}
			if ct != "" {
				h.Set("Content-Type", ct)
			}
			return &http.Response{StatusCode: st, Header: h, Body: io.NopCloser(bytes.NewReader(body)), Request: r, ContentLength: -1}
		})
		c, err := a2a.NewClient("https://agent.example/a2a", a2a.WithHTTPClient(&http.Client{Transport: rt}), a2a.WithMaxRetries(0),
			a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithMaxResponseBytes(1<<20))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		switch name := restFuzzCalls[int(call)%len(restFuzzCalls)]; name {
		case "get":
			task, err := c.GetTask(ctx, "t1")
			oneOf(t, task, err)
		case "send":
			res, err := c.SendMessage(ctx, restMessage())
			oneOf(t, res, err)
		case "list":
			page, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{})
			oneOf(t, page, err)
		case "cancel":
			task, err := c.CancelTask(ctx, "t1")
			oneOf(t, task, err)
		case "delete":
			if err := c.DeleteTaskPushNotificationConfig(ctx, "t1", "c1"); err != nil {
				checkTypedError(t, err)
			}
		default:
			seq := c.SendStreamingMessage(ctx, restMessage())
			if name == "subscribe" {
				seq = c.SubscribeToTask(ctx, "t1")
			}
			ended := false
			for ev, err := range seq {
				if ended {
					t.Fatalf("%v, %v yielded after an error", ev, err)
				}
				if (ev == nil) == (err == nil) {
					t.Fatalf("event %#v with error %v: want exactly one", ev, err)
				}
				if err != nil {
					ended = true
					checkTypedError(t, err)
				}
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("the call did not end: %v", ctx.Err())
		}
	})
}

// TestRESTErrorDetailsReadable: a google.rpc.Status's details reach the
// caller decoded (type, reason, domain, metadata) beside the sentinel, and
// the error's text is short and names the call.
func TestRESTErrorDetailsReadable(t *testing.T) {
	_, url := serveREST(t, answerWith(404, ctA2A, rpcStatus(404, "NOT_FOUND", "Task not found: t1", "TASK_NOT_FOUND")))
	_, err := restClient(t, url).GetTask(context.Background(), "t1")
	e, ok := errors.AsType[*a2a.RPCError](err)
	if !ok || !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("err = %T %v", err, err)
	}
	if e.Error() != "a2a: GetTask: Task not found: t1 (code -32001)" {
		t.Errorf("Error() = %q", e.Error())
	}
	d := e.Details[0]
	if d.Type != "type.googleapis.com/google.rpc.ErrorInfo" || d.Reason != "TASK_NOT_FOUND" || d.Domain != "a2a-protocol.org" || d.Metadata["taskId"] != "t1" {
		t.Errorf("detail %+v", d)
	}
	if !strings.HasPrefix(string(e.Data), `{"code":404`) {
		t.Errorf("Data = %s, want the Status object", e.Data)
	}
}

// restErrorRows are the REST table's replies to unary calls: errors of every
// shape and status, success bodies, retries, redirects, ids and tenants
// (restError, checkRESTReply, the paths of binding_rest.go).
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
		{name: "503 with a Status naming an A2A error on send: not re-sent, the agent answered", call: "send", status: 503,
			body: `{"error":{"code":503,"status":"UNAVAILABLE","message":"overloaded","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"INTERNAL_ERROR","domain":"a2a-protocol.org"}]}}`,
			want: func(t *testing.T, o restOutcome) {
				if !errors.Is(o.err, a2a.ErrInternal) {
					t.Errorf("err = %v, want ErrInternal", o.err)
				}
			}},
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
		{name: "REST error object on 200 to a JSON-RPC request", jsonrpc: true, body: rpcStatus(404, "NOT_FOUND", "gone", "TASK_NOT_FOUND"),
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

// TestRESTLogHasNoRPCID: an HTTP+JSON call's debug records carry no
// JSON-RPC id (it has none; "id=0" misled).
func TestRESTLogHasNoRPCID(t *testing.T) {
	_, url := serveREST(t, answerWith(200, ctA2A, restTask))
	var logs bytes.Buffer
	c := restClient(t, url, a2a.WithLogger(slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if _, err := c.GetTask(context.Background(), "t1"); err != nil {
		t.Fatal(err)
	}
	if logs.Len() == 0 || strings.Contains(logs.String(), `"id":`) {
		t.Errorf("debug log of an HTTP+JSON call:\n%s\nwant records without an \"id\"", logs.String())
	}
}
