package a2a_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The REST table's streams (stream.go's HTTP+JSON branch): framing, error
// events by name and by shape, streams cut short, plain replies to a
// stream call, the subscribe verb.

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
		{name: "stream: a REST stream to a JSON-RPC client", call: "stream", jsonrpc: true, serve: sseReply(restSSE(evWorking)),
			want: restEvents(0, restProtoErr("HTTP+JSON (REST) reply", a2a.ErrTransportMismatch))},
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
