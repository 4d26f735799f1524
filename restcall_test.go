package a2a_test

import (
	"bytes"
	"context"
	"errors"
	"io"
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
