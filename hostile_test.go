package a2a_test

import (
	"bytes"
	stdcmp "cmp"
	"compress/gzip"
	"context"
	"errors"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The hostile-server table: one row per way a server, gateway or network
// can misbehave, each run against the fake on a loopback server and each
// with the exact value or typed error the caller must get. Every row's
// server also counts the requests it received, so a row says how often the
// client may send. docs/misbehaving-servers.md summarises the table.
//
// This file holds the table's machinery; its sections live beside the code
// they test, each with its own Test function:
//
//	envelopeRows, replyRows   rpc_test.go         (checkReply)
//	resultRows                binding_v03_test.go (results by kind and shape)
//	partRows                  wire_v03_test.go    (parts and artifacts)
//	bodyRows                  body_test.go        (gzip, caps, cut bodies)
//	retryRows                 retry_test.go       (the retry policy)
//	redirectRows              client_test.go      (the redirect guard)
//	timeRows                  task_test.go        (timestamps)
//	v10ResultRows, v10StreamRows, v10PushRows, v10ListRows, v10ErrorRows,
//	v10RequestRows            binding_v10_test.go (the A2A v1.0 binding)
//	v10PartRows, v10EnumRows,
//	v10NameRows               wire_v10_test.go    (the A2A v1.0 decoder)

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
	// reqs is how many requests the server must see (0 means 1, -1
	// none: the call is refused before sending).
	reqs int
	// want checks what the call returned.
	want expect
	// v10: the client speaks A2A v1.0 (WithProtocolVersion(ProtocolV10)).
	v10 bool
	// do, when set, is the call instead of call: its value (nil beside
	// an error, or when there is none) and error are the outcome's.
	do func(ctx context.Context, c *a2a.Client) (any, error)
}

// outcome is what a call returned and what the server saw.
type outcome struct {
	res      any // *a2a.Task, *a2a.Message, what a row's do returned, or nil
	err      error
	bodies   []string      // request bodies in arrival order
	headers  []http.Header // their headers
	arrivals []time.Time   // when each arrived
	reply    string        // the last reply body, for rows without a serve func
}

type expect func(t *testing.T, o outcome)

// ignoreTaskInternals lets cmp compare decoded values by their fields:
// their Raw bytes and a task's fold state are not compared.
var ignoreTaskInternals = cmpopts.IgnoreUnexported(a2a.Task{}, a2a.Message{},
	a2a.TaskStatusUpdateEvent{}, a2a.TaskArtifactUpdateEvent{}, a2a.ListTasksResponse{})

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
		if diff := cmp.Diff(want, o.res, ignoreTaskInternals); diff != "" {
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

// cutErr wants a *StreamCutError, matching ErrStreamCut, that names the
// task and context to resubscribe to and carries the task folded to
// state (no task when state is "").
func cutErr(task, context string, state a2a.TaskState) expect {
	return func(t *testing.T, o outcome) {
		t.Helper()
		noResult(t, o)
		ce, ok := errors.AsType[*a2a.StreamCutError](o.err)
		if !ok || !errors.Is(o.err, a2a.ErrStreamCut) {
			t.Fatalf("err = %T %v, want *StreamCutError matching ErrStreamCut", o.err, o.err)
		}
		if ce.TaskID != task || ce.ContextID != context {
			t.Errorf("cut names task %q, context %q; want %q, %q", ce.TaskID, ce.ContextID, task, context)
		}
		switch {
		case state == "" && ce.Task != nil:
			t.Errorf("cut carries task %+v, want none", ce.Task)
		case state != "" && (ce.Task == nil || ce.Task.Status.State != state):
			t.Errorf("cut carries task %+v, want one in state %q", ce.Task, state)
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

// gzipBytes compresses s.
func gzipBytes(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

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

// hostileRows is the whole table, for the fuzzers' seeds and the table's
// own check; otherURL is the host the redirect rows point to.
func hostileRows(otherURL string) []hostileRow {
	return slices.Concat(envelopeRows(), replyRows(), resultRows(), partRows(), bodyRows(), retryRows(), redirectRows(otherURL), timeRows(),
		v10Rows())
}

// TestHostileTable: row names are unique across every section, and the
// table keeps its size (at least 60 rows).
func TestHostileTable(t *testing.T) {
	rows := hostileRows("http://other.invalid")
	seen := map[string]bool{}
	for _, row := range rows {
		if seen[row.name] {
			t.Errorf("row %q is there twice", row.name)
		}
		seen[row.name] = true
	}
	t.Logf("%d rows", len(rows))
	if len(rows) < 60 {
		t.Errorf("only %d rows; the suite promises at least 60", len(rows))
	}
}

// runRows runs each row in parallel against its own loopback server.
func runRows(t *testing.T, rows []hostileRow) {
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			runHostile(t, row)
		})
	}
}

func runHostile(t *testing.T, row hostileRow) {
	rep := mockReply{status: row.status, header: http.Header{}, body: []byte(row.body), serve: row.serve}
	for k, v := range row.header {
		rep.header.Set(k, v)
	}
	srv, f := serveFake(t, rep)

	// Every credential the client can carry, and a logger taking every
	// record at debug level: none may show in an error or a record,
	// whatever the fault.
	secrets := []string{"sk-hostile-key", "bearer-hostile-tok", "url-hostile-pass", "query-hostile-sig", "hdr-hostile-token"}
	logger, records := newCapture()
	opts := append([]a2a.Option{a2a.WithRetryWait(time.Millisecond, 2*time.Millisecond), a2a.WithAPIKey(secrets[0]),
		a2a.WithBearerToken(secrets[1]), a2a.WithHeader("X-Custom-Token", secrets[4]), a2a.WithWorkspace("ws-1"), a2a.WithLogger(logger)}, row.opts...)
	if row.v10 {
		opts = append(opts, a2a.WithProtocolVersion(a2a.ProtocolV10))
	}
	endpoint := strings.Replace(srv.URL, "http://", "http://caller:"+secrets[2]+"@", 1) + "/a2a?sig=" + secrets[3]
	c, err := a2a.NewClient(endpoint, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), stdcmp.Or(row.timeout, 10*time.Second))
	defer cancel()
	var o outcome
	switch {
	case row.do != nil:
		o.res, o.err = row.do(ctx, c)
	case row.call == "", row.call == "get":
		var task *a2a.Task
		task, o.err = c.GetTask(ctx, "t1")
		if task != nil {
			o.res = task
		}
	case row.call == "cancel":
		var task *a2a.Task
		task, o.err = c.CancelTask(ctx, "t1")
		if task != nil {
			o.res = task
		}
	case row.call == "send":
		var res a2a.SendResult
		res, o.err = c.SendMessage(ctx, a2a.NewTextMessage("查询设备"))
		if res != nil {
			o.res = res
		}
	default:
		t.Fatalf("unknown call %q", row.call)
	}
	f.mu.Lock()
	for _, r := range f.got {
		o.bodies, o.arrivals = append(o.bodies, string(r.raw)), append(o.arrivals, r.at)
		o.headers = append(o.headers, r.header)
	}
	f.mu.Unlock()
	if len(o.bodies) > 0 {
		o.reply = string(f.lastSent())
	}
	want := stdcmp.Or(row.reqs, 1)
	if want < 0 {
		want = 0
	}
	if len(o.bodies) != want {
		t.Errorf("server saw %d requests, want %d", len(o.bodies), want)
	}
	recs := records()
	if len(recs) < 2 && want > 0 {
		t.Errorf("only %d log records; the secret check would see nothing", len(recs))
	}
	noSecrets(t, append(errorTexts(o.err), recs...), secrets...)
	row.want(t, o)
}
