package a2a_test

import (
	"bytes"
	stdcmp "cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestRequestEnvelope checks what goes on the wire for each method: the
// JSON-RPC envelope, a fresh id per request, headers, the agent selector on
// every body, blocking sent explicitly, historyLength only when set.
func TestRequestEnvelope(t *testing.T) {
	ok := rpcReply(bytes.ReplaceAll(fixture(t, "get_task.json"), []byte("7d1f0f5e-2b8a-4f4e-9a57-0c3f6d1e2a90"), []byte("t-1")))
	c, rec := newMock(t, []mockReply{ok},
		a2a.WithAPIKey("key-123456"), a2a.WithWorkspace("ws-9"), a2a.WithBearerToken("tok-abcdef"),
		a2a.WithHeader("X-Trace", "t1"), a2a.WithAgentCode("inspector"), a2a.WithUserAgent("demo/1"))
	ctx := context.Background()
	if _, err := c.SendText(ctx, "hi"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendText(ctx, "hi", a2a.Blocking(false), a2a.HistoryLength(0), a2a.AcceptedOutputModes("text/plain")); err != nil {
		t.Fatal(err)
	}
	hook := a2a.PushNotificationConfig{URL: "https://hooks.example/a2a", Token: "tok-1",
		Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: "cred-1"}}
	if _, err := c.SendText(ctx, "hi", a2a.Webhook(hook)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTask(ctx, "t-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTask(ctx, "t-1", a2a.HistoryLength(3)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CancelTask(ctx, "t-1"); err != nil {
		t.Fatal(err)
	}
	wantParams := []string{
		`{"message":{"kind":"message","messageId":"*","role":"user","parts":[{"kind":"text","text":"hi"}]},"configuration":{"blocking":true}}`,
		`{"message":{"kind":"message","messageId":"*","role":"user","parts":[{"kind":"text","text":"hi"}]},"configuration":{"acceptedOutputModes":["text/plain"],"historyLength":0,"blocking":false}}`,
		`{"message":{"kind":"message","messageId":"*","role":"user","parts":[{"kind":"text","text":"hi"}]},"configuration":{"blocking":true,` +
			`"pushNotificationConfig":{"url":"https://hooks.example/a2a","token":"tok-1","authentication":{"schemes":["Bearer"],"credentials":"cred-1"}}}}`,
		`{"id":"t-1"}`,
		`{"id":"t-1","historyLength":3}`,
		`{"id":"t-1"}`,
	}
	wantMethods := []string{"message/send", "message/send", "message/send", "tasks/get", "tasks/get", "tasks/cancel"}
	ids := map[string]bool{}
	msgIDs := map[string]bool{}
	for i, r := range rec.got {
		if r.JSONRPC != "2.0" || r.Method != wantMethods[i] {
			t.Errorf("request %d: jsonrpc %q method %q", i, r.JSONRPC, r.Method)
		}
		if ids[string(r.ID)] {
			t.Errorf("request %d reuses id %s", i, r.ID)
		}
		ids[string(r.ID)] = true
		if r.AgentCode == nil || *r.AgentCode != "inspector" || r.AgentID != nil {
			t.Errorf("request %d: agent selector agent_code=%v agent_id=%v", i, r.AgentCode, r.AgentID)
		}
		params := string(r.Params)
		if r.Method == "message/send" {
			var p struct {
				Message struct{ MessageID string }
			}
			json.Unmarshal(r.Params, &p)
			if len(p.Message.MessageID) != 36 || msgIDs[p.Message.MessageID] {
				t.Errorf("request %d: messageId %q is not a fresh UUID", i, p.Message.MessageID)
			}
			msgIDs[p.Message.MessageID] = true
			params = strings.Replace(params, p.Message.MessageID, "*", 1)
		}
		if params != wantParams[i] {
			t.Errorf("request %d params:\n got %s\nwant %s", i, params, wantParams[i])
		}
		wantHeader := map[string]string{
			"Content-Type": "application/json", "X-Api-Key": "key-123456", "X-Workspace-Id": "ws-9",
			"Authorization": "Bearer tok-abcdef", "X-Trace": "t1", "User-Agent": "demo/1",
		}
		for k, v := range wantHeader {
			if got := r.header.Get(k); got != v {
				t.Errorf("request %d header %s = %q, want %q", i, k, got, v)
			}
		}
	}
}

// TestLaxEnvelopes: a null member beside the other one is taken as absent,
// in either order. (That no error comes with a typed nil result is checked
// by every row of the hostile table.)
func TestLaxEnvelopes(t *testing.T) {
	task := `{"kind":"task","id":"t","contextId":"c","status":{"state":"failed"}}`
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":{{id}},"result":` + task + `,"error":null}`,
		`{"jsonrpc":"2.0","error":null,"id":{{id}},"result":` + task + `}`,
	} {
		c, _ := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: newEcho(t, body, 0, false)}))
		got, err := c.SendText(context.Background(), "x")
		if err != nil || got.Status.State != a2a.TaskStateFailed {
			t.Errorf("%s: %v, %v", body, got, err)
		}
	}
	c, _ := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: newEcho(t,
		`{"jsonrpc":"2.0","id":{{id}},"result":null,"error":{"code":-32603,"message":"boom"}}`, 0, false)}))
	if _, err := c.GetTask(context.Background(), "t"); !errors.Is(err, a2a.ErrInternal) {
		t.Errorf("null result beside an error: %v", err)
	}
}

// TestNonRPCJSONOnErrorStatus: a gateway's own JSON error body on a 401 or
// 429 is an *HTTPError (with Retry-After), not a JSON-RPC error.
func TestNonRPCJSONOnErrorStatus(t *testing.T) {
	for _, status := range []int{401, 403, 429} {
		rep := mockReply{status: status, ctype: "application/json", body: []byte(`{"error":{"code":"UNAUTHORIZED","message":"bad key"}}`),
			header: http.Header{"Retry-After": {"3600"}, "Www-Authenticate": {`Bearer realm="gw"`}}}
		c, _ := newMock(t, []mockReply{rep})
		_, err := c.GetTask(context.Background(), "t")
		he, ok := errors.AsType[*a2a.HTTPError](err)
		if !ok || he.StatusCode != status || he.RetryAfter != time.Hour {
			t.Errorf("%d: err = %v, want *HTTPError with RetryAfter 1h", status, err)
		}
	}
}

// Fuzz targets for what a server sends. Seeds come from testdata and from
// the hostile-server table; inputs the fuzzer finds failing are saved by
// `go test -fuzz` under testdata/fuzz/<Target>/ and run as regression cases
// by every plain `go test`. .ci/run fuzzes each target for a short fixed time.

// replyClient is a fresh client (its first request has id 1) whose every
// call gets status and body, from an in-memory httpmock transport: the
// fuzzers run a whole client call per input without sockets.
func replyClient(t *testing.T, status int, body []byte) *a2a.Client {
	tr := newEcho(t, string(body), status, false)
	c, err := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: tr}), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// maxSeed leaves out the table's multi-megabyte bodies: mutating them
// would slow the fuzzer to a crawl without reaching new code.
const maxSeed = 64 << 10

// fuzzStatuses are the HTTP statuses a fuzzed reply comes with.
var fuzzStatuses = []int{200, 200, 200, 201, 204, 400, 401, 429, 500, 502}

// replySeeds returns reply bodies answering request id 1: every JSON file
// in testdata (each element of an array file) and every fixed body of the
// hostile-server table.
func replySeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	for _, reply := range fixtureReplies(f) {
		seeds = append(seeds, withID(reply, json.RawMessage("1")))
	}
	for _, row := range hostileRows("") {
		if row.serve == nil && len(row.body) <= maxSeed {
			seeds = append(seeds, []byte(strings.ReplaceAll(row.body, "{{id}}", "1")))
		}
	}
	return seeds
}

// FuzzReply feeds any reply body, with one of several statuses, to
// tasks/get and message/send. Each call must give a result or a typed
// error, never both or neither; and a decoded Task or Message must be
// stable: encoded, decoded again and encoded again it gives the same bytes.
func FuzzReply(f *testing.F) {
	for i, seed := range replySeeds(f) {
		f.Add(seed, uint8(i%len(fuzzStatuses)), i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, body []byte, status uint8, send bool) {
		code := fuzzStatuses[int(status)%len(fuzzStatuses)]
		c := replyClient(t, code, body)
		var res any
		var err error
		if send {
			var r a2a.SendResult
			r, err = c.SendMessage(context.Background(), a2a.NewTextMessage("x"))
			if r != nil {
				res = r
			}
		} else {
			// Ask about the task the body is about, so a reply for another
			// task (refused) does not hide every decoding path.
			var probe struct{ Result struct{ ID any } }
			json.Unmarshal(body, &probe)
			id, _ := probe.Result.ID.(string)
			var task *a2a.Task
			task, err = c.GetTask(context.Background(), stdcmp.Or(id, "t"))
			if task != nil {
				res = task
			}
		}
		if (res == nil) == (err == nil) {
			t.Fatalf("result %#v with error %v: want exactly one", res, err)
		}
		if err != nil {
			checkTypedError(t, err)
			return
		}
		first, err := json.Marshal(res)
		if err != nil {
			t.Fatalf("a decoded %T does not encode: %v", res, err)
		}
		again := replyClient(t, 200, []byte(`{"jsonrpc":"2.0","id":1,"result":`+string(first)+`}`))
		var res2 any
		switch r := res.(type) {
		case *a2a.Task:
			res2, err = again.GetTask(context.Background(), r.ID)
		case *a2a.Message:
			res2, err = again.SendMessage(context.Background(), a2a.NewTextMessage("x"))
		default:
			t.Fatalf("result of type %T", res)
		}
		if err != nil {
			t.Fatalf("re-encoded %T does not decode: %v\n%s", res, err, first)
		}
		second, err := json.Marshal(res2)
		if err != nil || !bytes.Equal(first, second) {
			t.Fatalf("decode/encode is not stable (%v):\n%s\n%s", err, first, second)
		}
	})
}

// checkTypedError fails unless err is one of the typed errors a reply can
// produce.
func checkTypedError(t *testing.T, err error) {
	t.Helper()
	var (
		pe *a2a.ProtocolError
		re *a2a.RPCError
		he *a2a.HTTPError
		be *a2a.BodyTooLargeError
		ce *a2a.StreamCutError
	)
	if !errors.As(err, &pe) && !errors.As(err, &re) && !errors.As(err, &he) && !errors.As(err, &be) && !errors.As(err, &ce) {
		t.Fatalf("untyped error %T: %v", err, err)
	}
	if err.Error() == "" {
		t.Fatal("empty error text")
	}
}

// envelopeRows are the replies whose JSON-RPC envelope is at fault: jsonrpc, the id, result and error (checkReply).
func envelopeRows() []hostileRow {
	return []hostileRow{
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
		{name: "error a bare string", body: rpcError(`"boom"`), want: rpcErr(a2a.RPCError{Message: "boom", StatusCode: 200})},
		{name: "error with a string code", body: rpcError(`{"code":"-32001","message":"x"}`),
			want: rpcErr(a2a.RPCError{Code: -32001, Message: "x", StatusCode: 200}, a2a.ErrTaskNotFound)},
		{name: "error with a code written as a float", body: rpcError(`{"code":-32001.0,"message":"x"}`),
			want: rpcErr(a2a.RPCError{Code: -32001, Message: "x", StatusCode: 200}, a2a.ErrTaskNotFound)},
		{name: "error with a fractional code", body: rpcError(`{"code":-32001.5,"message":"x"}`), want: rpcErr(a2a.RPCError{Message: "x", StatusCode: 200})},
		{name: "error without code", body: rpcError(`{"message":"x"}`), want: rpcErr(a2a.RPCError{Message: "x", StatusCode: 200})},
		{name: "error with a message that is not a string", body: rpcError(`{"code":-32603,"message":{"why":"db"}}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: `{"why":"db"}`, StatusCode: 200})},
		{name: "error a number", body: rpcError(`42`), want: rpcErr(a2a.RPCError{Message: "42", Data: json.RawMessage(`42`), StatusCode: 200})},
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
	}
}

// TestEnvelopeFaults runs the envelope rows of the hostile-server table.
func TestEnvelopeFaults(t *testing.T) { runRows(t, envelopeRows()) }

// replyRows are replies that are not JSON-RPC at all, or come with odd HTTP statuses and headers: checkReply tells an *HTTPError from a *ProtocolError by the status, and believes a JSON-RPC body whatever the status.
func replyRows() []hostileRow {
	return []hostileRow{
		{name: "HTML on 200", header: map[string]string{"Content-Type": "text/html"}, body: `<html><body>OK</body></html>`, want: protoErr("response is not JSON", nil)},
		{name: "plain text on 200", header: map[string]string{"Content-Type": "text/plain"}, body: `all good`, want: protoErr("response is not JSON", nil)},
		{name: "HTML on 500", status: 500, header: map[string]string{"Content-Type": "text/html"}, body: `<html>Internal Server Error</html>`,
			want: httpErr(a2a.HTTPError{StatusCode: 500, ContentType: "text/html"}, "<html>Internal")},
		{name: "204 No Content", status: 204, want: protoErr("empty body with HTTP 204", nil)},
		{name: "empty 200", header: map[string]string{"Content-Type": "application/json"}, want: protoErr("empty body with HTTP 200", nil)},
		{name: "whitespace-only 200", body: " \r\n\t ", want: protoErr("empty body with HTTP 200", nil)},
		{name: "JSON-RPC body labelled text/html", header: map[string]string{"Content-Type": "text/html"}, body: rpc(completedTask), want: isTask(wantTask(nil))},
		{name: "application/json; charset=utf-8", header: map[string]string{"Content-Type": "application/json; charset=utf-8"}, body: rpc(completedTask), want: isTask(wantTask(nil))},
		{name: "no Content-Type", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			w.Header()["Content-Type"] = nil // no sniffing either
			io.WriteString(w, strings.ReplaceAll(rpc(completedTask), "{{id}}", id))
		}, want: isTask(wantTask(nil))},
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
		{name: "truncated JSON with a matching length", body: `{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","id":"t1"`, want: protoErr("response is not JSON", nil)},
	}
}

// TestReplyCheckFaults runs the reply-check rows of the hostile-server table.
func TestReplyCheckFaults(t *testing.T) { runRows(t, replyRows()) }

// TestDecodeErrorTypes: a *ProtocolError's Err is encoding/json's error
// type for a body that is not JSON and for a mistyped member.
func TestDecodeErrorTypes(t *testing.T) {
	c, _ := newMock(t, []mockReply{{body: []byte(`{not json`)}})
	_, err := c.GetTask(context.Background(), "t")
	if pe, ok := errors.AsType[*a2a.ProtocolError](err); !ok || !errors.As(err, new(*json.SyntaxError)) {
		t.Errorf("not JSON: %#v, want a ProtocolError wrapping *json.SyntaxError", pe)
	}
	c, _ = newMock(t, []mockReply{{body: []byte(`{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","id":5,"status":{}}}`)}})
	_, err = c.GetTask(context.Background(), "t")
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); !ok || te.Field != "id" || te.Value != "number" {
		t.Errorf("mistyped id: %v, want a *json.UnmarshalTypeError for id", err)
	}
}

// TestNotJSONSaysWhatCame: a 2xx reply that is not JSON (a proxy's login
// page) gives an error naming its Content-Type and first bytes, redacted.
func TestNotJSONSaysWhatCame(t *testing.T) {
	page := mockReply{ctype: "text/html; charset=utf-8", body: []byte(`<html><title>Sign in</title><p>key sk-page-secret-123</p>`)}
	c, _ := newMock(t, []mockReply{page}, a2a.WithAPIKey("sk-page-secret-123"))
	_, err := c.GetTask(context.Background(), "t")
	pe, ok := errors.AsType[*a2a.ProtocolError](err)
	if !ok || !strings.Contains(pe.Error(), `Content-Type "text/html; charset=utf-8", starting "<html><title>Sign in</title><p>key [RED`) {
		t.Errorf("err = %v, want the Content-Type and the page's first bytes", err)
	}
	noSecrets(t, errorTexts(err), "sk-page-secret-123")
}
