package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// TestSSEFraming: comments, event/id/retry fields, multi-line data, CRLF
// and CR line ends, a charset parameter and events far over 64 KiB all
// parse; a JSON-RPC error inside the stream is a typed error, and a stream
// that closes before a final state ends with ErrStreamCut.
func TestSSEFraming(t *testing.T) {
	big := strings.Repeat("长", 100_000) // 300 KB of UTF-8 on one line
	task := `{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}`
	up := func(state string, final bool) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"status-update","taskId":"t1","contextId":"c1","status":{"state":"%s"},"final":%v}}`, state, final)
	}
	tests := []struct {
		name string
		body string
		want []string
		err  error
	}{
		{"comments and fields", ": keep-alive\nevent: message\nid: 7\nretry: 100\ndata: {\"jsonrpc\":\"2.0\",\"id\":{{id}},\"result\":" + task + "}\n\n" +
			"data: " + up("completed", true) + "\n\n", []string{"task working", "status completed final=true"}, nil},
		{"multi-line data", "data: {\"jsonrpc\":\"2.0\",\ndata: \"id\":{{id}},\ndata: \"result\":" + task + "}\n\n", []string{"task working"}, a2a.ErrStreamCut},
		{"CRLF", "data: " + up("working", false) + "\r\n\r\ndata: " + up("completed", true) + "\r\n\r\n", []string{"status working final=false", "status completed final=true"}, nil},
		{"CR", "data: " + up("working", false) + "\r\rdata: " + up("failed", true) + "\r\r", []string{"status working final=false", "status failed final=true"}, nil},
		{"no space after colon", "data:" + up("completed", true) + "\n\n", []string{"status completed final=true"}, nil},
		// The WHATWG rules: an event the stream ends before its blank line
		// may be cut short, and is not dispatched.
		{"no final blank line", "data: " + up("working", false) + "\n\ndata: " + up("completed", true), []string{"status working final=false"}, a2a.ErrStreamCut},
		{"big event", `data: {"jsonrpc":"2.0","id":{{id}},"result":{"kind":"artifact-update","taskId":"t1","contextId":"c1","artifact":{"artifactId":"a","parts":[{"kind":"text","text":"` + big + `"}]},"lastChunk":true}}` + "\n\n",
			[]string{fmt.Sprintf("artifact a %q append=false last=true", big)}, a2a.ErrStreamCut},
		{"error inside the stream", "data: " + up("working", false) + "\n\nevent: error\ndata: {\"jsonrpc\":\"2.0\",\"id\":{{id}},\"error\":{\"code\":-32603,\"message\":\"boom\"}}\n\n", []string{"status working final=false"}, a2a.ErrInternal},
		{"events after final are not read", "data: " + up("completed", true) + "\n\ndata: garbage\n\n", []string{"status completed final=true"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
				return a2atest.Reply{Task: a2atest.StatusTask("working", ""), StreamRaw: tt.body}
			}))
			defer srv.Close()
			c, _ := a2a.NewClient(srv.URL)
			got, err := collect(c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go")))
			if tt.err == nil && err != nil || tt.err != nil && !errors.Is(err, tt.err) {
				t.Fatalf("err = %v, want %v", err, tt.err)
			}
			if diff := cmp.Diff(tt.want, got, ignoreTaskInternals); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSSECarriageReturnEndsAnEvent: an event whose lines end in CR alone is
// delivered as soon as its blank line arrives, with the stream held open,
// not when more bytes come; CRLF split across reads is one line end.
func TestSSECarriageReturnEndsAnEvent(t *testing.T) {
	for name, ends := range map[string][]string{"CR": {"\r", "\r"}, "CRLF split": {"\r", "\n\r\n"}} {
		t.Run(name, func(t *testing.T) {
			srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
				w.Header().Set("Content-Type", "text/event-stream")
				fc := http.NewResponseController(w)
				fmt.Fprintf(w, `data: {"jsonrpc":"2.0","id":%s,"result":{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"completed"},"final":true}}`+ends[0], id)
				fc.Flush()
				io.WriteString(w, ends[1])
				fc.Flush()
				<-r.Context().Done() // hold the stream open until the client leaves
			}})
			c, _ := a2a.NewClient(srv.URL)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard, not a timing check
			defer cancel()
			got, err := collect(c.SendStreamingMessage(ctx, a2a.NewTextMessage("go")))
			if err != nil || len(got) != 1 {
				t.Errorf("events %v, err %v; want the final status update", got, err)
			}
		})
	}
}

// TestStreamRangedOnce: a SendStreamingMessage sequence sends its message when it
// is ranged over, once; a second range yields an error and sends nothing.
func TestStreamRangedOnce(t *testing.T) {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	seq := c.SendStreamingMessage(context.Background(), a2a.NewTextMessage(a2atest.SeedQRCode))
	if _, err := collect(seq); err != nil {
		t.Fatal(err)
	}
	sent := len(agent.Requests())
	if got, err := collect(seq); err == nil || len(got) != 0 || len(agent.Requests()) != sent {
		t.Errorf("second range: %v, %v, %d requests; want an error and nothing sent", got, err, len(agent.Requests())-sent)
	}
}

// TestNotMadeClient: the methods of a nil or zero Client return an error,
// never panic.
func TestNotMadeClient(t *testing.T) {
	ctx := context.Background()
	for _, c := range []*a2a.Client{nil, {}} {
		if _, err := c.GetTask(ctx, "t"); err == nil {
			t.Error("GetTask: no error")
		}
		if _, err := c.SendText(ctx, "x"); err == nil {
			t.Error("SendText: no error")
		}
		if _, err := c.WaitTask(ctx, "t"); err == nil {
			t.Error("WaitTask: no error")
		}
		if _, err := collect(c.SubscribeToTask(ctx, "t")); err == nil {
			t.Error("SubscribeToTask: no error")
		}
		if err := c.DeleteTaskPushNotificationConfig(ctx, "t", "c"); err == nil {
			t.Error("DeleteTaskPushNotificationConfig: no error")
		}
		if c.Card() != nil {
			t.Error("Card: not nil")
		}
	}
}

// FuzzStream feeds any bytes, as an event stream, to SendStreamingMessage. The
// sequence yields events and then at most one typed error, which ends it;
// folding the events into a task with Task.Apply never panics, and a
// terminal state, once reached, stays.
func FuzzStream(f *testing.F) {
	ev := func(result string) string {
		return `data: {"jsonrpc":"2.0","id":{{id}},"result":` + result + "}\n\n"
	}
	for _, s := range []string{
		ev(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}`) +
			ev(`{"kind":"artifact-update","taskId":"t1","contextId":"c1","artifact":{"artifactId":"a","parts":[{"kind":"text","text":"摘要"}]},"append":true}`) +
			ev(`{"kind":"status-update","taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"final":true}`),
		": keep-alive\r\rdata: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":{{id}},\"result\":{\"kind\":\"message\",\"messageId\":\"m\",\"parts\":[]}}\r\n\r\n",
		ev(`{"kind":"status-update","taskId":"t1","status":{"state":"completed"}}`) + ev(`{"kind":"status-update","taskId":"t1","status":{"state":"working"}}`),
		ev(`{"kind":"task","id":"t1","status":{"state":"completed"}}`) + ev(`{"kind":"task","id":"t1","status":{"state":"working"}}`),
		ev(`{"kind":"status-update","taskId":"t2","status":{"state":"working"}}`) + ev(`{"kind":"task","id":"t3","status":{"state":"working"}}`),
		"event: error\ndata: {\"jsonrpc\":\"2.0\",\"id\":{{id}},\"error\":{\"code\":\"-32001\",\"message\":\"gone\\u001b[2J\"}}\n\n",
		"data: {\"jsonrpc\":\"2.0\",\"id\":{{id}},\"result\":{\"kind\":\"task\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		fk := &fake{t: t, replies: []mockReply{{status: 200, ctype: "text/event-stream", body: body}}}
		c, err := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: fk.transport()}), a2a.WithMaxRetries(0))
		if err != nil {
			t.Fatal(err)
		}
		var task a2a.Task
		ended := false
		for ev, err := range c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("x")) {
			if ended {
				t.Fatalf("%v, %v yielded after an error", ev, err)
			}
			if err != nil {
				ended = true
				checkTypedError(t, err)
				continue
			}
			if ev == nil {
				t.Fatal("a nil event with a nil error")
			}
			before := task.Status.State
			task.Apply(ev)
			if before.Terminal() && task.Status.State != before {
				t.Fatalf("Apply moved a %s task to %s", before, task.Status.State)
			}
		}
	})
}
