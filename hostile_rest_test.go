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
//
// This file holds the table's machinery; its sections live beside the code
// they test:
//
//	restErrorRows    restcall_test.go     (replies and errors by shape, paths)
//	restStreamRows   stream_rest_test.go  (streams, the subscribe verb)

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
