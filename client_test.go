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
	"reflect"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// TestFixtures replays every recorded scenario in testdata/ through the
// client and checks the exact value or typed error the caller gets.
func TestFixtures(t *testing.T) {
	type outcome struct {
		state     a2a.TaskState
		taskID    string
		summary   string // Artifact text, when the task has one
		reason    string // StatusText
		rpcCode   int
		httpCode  int
		isMessage bool
	}
	tests := []struct {
		file   string
		call   string // send, get, cancel
		status int
		ctype  string
		want   outcome
	}{
		{file: "send_completed_entity.json", call: "send", want: outcome{
			state: a2a.TaskStateCompleted, taskID: "9332c282-1fa7-4c42-96ac-58e4e2f88f4c",
			summary: "数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个"}},
		{file: "send_failed.json", call: "send", want: outcome{
			state: a2a.TaskStateFailed, taskID: "d091e105-9767-472a-b7e7-5951541cab15", reason: "查询失败:码不存在或无法解析"}},
		{file: "get_task.json", call: "get", want: outcome{
			state: a2a.TaskStateCompleted, taskID: "7d1f0f5e-2b8a-4f4e-9a57-0c3f6d1e2a90"}},
		{file: "input_required.json", call: "send", want: outcome{
			state: a2a.TaskStateInputRequired, taskID: "ir-task-1", reason: "请提供要查询的设备编号"}},
		{file: "canceled.json", call: "cancel", want: outcome{state: a2a.TaskStateCanceled, taskID: "cx-task-1"}},
		{file: "unknown_state.json", call: "get", want: outcome{state: "pending-review", taskID: "un-task-1"}},
		{file: "send_message_reply.json", call: "send", want: outcome{isMessage: true}},
		{file: "error_task_not_found.json", call: "get", want: outcome{rpcCode: -32001}},
		{file: "error_task_not_found.json", call: "get", status: 404, want: outcome{rpcCode: -32001}},
		{file: "error_method_not_found.json", call: "cancel", want: outcome{rpcCode: -32601}},
		{file: "error_method_not_found.json", call: "send", status: 500, want: outcome{rpcCode: -32601}},
		{file: "http_502.html", call: "send", status: 502, ctype: "text/html", want: outcome{httpCode: 502}},
		// A result is believed whatever the HTTP status: failure is decided by
		// result.status.state (seed 000).
		{file: "send_failed.json", call: "send", status: 500, want: outcome{
			state: a2a.TaskStateFailed, taskID: "d091e105-9767-472a-b7e7-5951541cab15", reason: "查询失败:码不存在或无法解析"}},
	}
	for _, tt := range tests {
		name := tt.file + "/" + tt.call
		if tt.status != 0 {
			name += "/" + http.StatusText(tt.status)
		}
		t.Run(name, func(t *testing.T) {
			rep := rpcReply(fixture(t, tt.file))
			if tt.status != 0 {
				rep.status = tt.status
			}
			if tt.ctype != "" {
				rep.ctype = tt.ctype
			}
			c, rec := newMock(t, []mockReply{rep}, a2a.WithMaxRetries(0))
			ctx := context.Background()
			var (
				task *a2a.Task
				msg  *a2a.Message
				err  error
			)
			switch tt.call {
			case "send":
				var res a2a.SendResult
				res, err = c.SendMessage(ctx, a2a.NewTextMessage("这个二维码是什么？"))
				switch r := res.(type) {
				case *a2a.Task:
					task = r
				case *a2a.Message:
					msg = r
				}
			case "get": // asking about the task the reply is about
				task, err = c.GetTask(ctx, stdcmp.Or(tt.want.taskID, "some-task"))
			case "cancel":
				task, err = c.CancelTask(ctx, stdcmp.Or(tt.want.taskID, "some-task"))
			}

			var got outcome
			if rpcErr, ok := errors.AsType[*a2a.RPCError](err); ok {
				got.rpcCode = rpcErr.Code
			} else if httpErr, ok := errors.AsType[*a2a.HTTPError](err); ok {
				got.httpCode = httpErr.StatusCode
				if !strings.Contains(string(httpErr.Body), "502 Bad Gateway") {
					t.Errorf("HTTPError.Body = %q, want the page's start", httpErr.Body)
				}
			} else if err != nil {
				t.Fatalf("unexpected error %T: %v", err, err)
			}
			if task != nil {
				got.state, got.taskID, got.reason = task.Status.State, task.ID, task.StatusText()
				if len(task.Artifacts) > 0 && task.Artifacts[0].Name == "entity" {
					got.summary = task.Artifact("entity").Text()
				}
				// The task keeps the exact bytes of the result it came from.
				var env struct{ Result json.RawMessage }
				if err := json.Unmarshal(rec.lastSent(), &env); err != nil {
					t.Fatal(err)
				}
				if string(task.Raw()) != string(env.Result) {
					t.Errorf("Raw() = %s\nwant %s", task.Raw(), env.Result)
				}
			}
			got.isMessage = msg != nil
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(outcome{})); diff != "" {
				t.Errorf("outcome (-want +got):\n%s", diff)
			}
			if len(rec.got) != 1 {
				t.Errorf("requests sent = %d, want 1", len(rec.got))
			}
		})
	}
}

// TestGatewaySequence polls the recorded submitted → working → completed
// sequence with WaitTask and checks each state was seen in order.
func TestGatewaySequence(t *testing.T) {
	var seq []json.RawMessage
	if err := json.Unmarshal(fixture(t, "gateway_sequence.json"), &seq); err != nil {
		t.Fatal(err)
	}
	var replies []mockReply
	for _, b := range seq {
		replies = append(replies, rpcReply(b))
	}
	c, rec := newMock(t, replies, a2a.WithAgentID("agent-42"))
	var states []a2a.TaskState
	task, err := c.WaitTask(context.Background(), "gw-task-1",
		a2a.PollInterval(1e6), a2a.PollJitter(0),
		a2a.PollProgress(func(a a2a.PollAttempt) { states = append(states, a.Task.Status.State) }))
	if err != nil {
		t.Fatal(err)
	}
	want := []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted}
	if diff := cmp.Diff(want, states); diff != "" {
		t.Errorf("states (-want +got):\n%s", diff)
	}
	type record struct {
		ID     string `json:"id"`
		Result string `json:"result"`
	}
	var recs []record
	if err := task.Artifact("records").DecodeData(&struct {
		Records *[]record `json:"records"`
	}{&recs}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]record{{"r1", "合格"}, {"r2", "不合格"}}, recs); diff != "" {
		t.Errorf("records (-want +got):\n%s", diff)
	}
	for i, r := range rec.got {
		if r.Method != "tasks/get" || r.AgentID == nil || *r.AgentID != "agent-42" {
			t.Errorf("request %d: method %q agent_id %v, want tasks/get with agent-42", i, r.Method, r.AgentID)
		}
	}
}

// TestSendTextMessageReply: SendText cannot drop a Message answer.
func TestSendTextMessageReply(t *testing.T) {
	c, _ := newMock(t, []mockReply{rpcReply(fixture(t, "send_message_reply.json"))})
	task, err := c.SendText(context.Background(), "hi")
	mre, ok := errors.AsType[*a2a.MessageReplyError](err)
	if task != nil || !ok {
		t.Fatalf("SendText = %v, %v; want nil, *MessageReplyError", task, err)
	}
	if got := mre.Message.Text(); got != "你好，请发送二维码链接。" {
		t.Errorf("message text = %q", got)
	}
}

// TestSendFollowUp continues an input-required task with its ids.
func TestSendFollowUp(t *testing.T) {
	// The follow-up's answer is the same task, now completed.
	done := bytes.ReplaceAll(fixture(t, "input_required.json"), []byte(`"input-required"`), []byte(`"completed"`))
	c, rec := newMock(t, []mockReply{rpcReply(fixture(t, "input_required.json")), rpcReply(done)})
	ctx := context.Background()
	task, err := c.SendText(ctx, "查设备")
	if err != nil {
		t.Fatal(err)
	}
	if !task.Status.State.Interrupted() {
		t.Fatalf("state %q, want interrupted", task.Status.State)
	}
	if _, err := c.SendFollowUp(ctx, task, a2a.NewTextMessage("A08-03-06")); err != nil {
		t.Fatal(err)
	}
	var p struct {
		Message struct {
			TaskID    string `json:"taskId"`
			ContextID string `json:"contextId"`
		}
	}
	if err := json.Unmarshal(rec.got[1].Params, &p); err != nil {
		t.Fatal(err)
	}
	if p.Message.TaskID != "ir-task-1" || p.Message.ContextID != "ir-ctx-1" {
		t.Errorf("follow-up carries taskId %q contextId %q", p.Message.TaskID, p.Message.ContextID)
	}
	if _, err := c.SendFollowUp(ctx, nil, a2a.NewTextMessage("x")); err == nil {
		t.Error("SendFollowUp(nil task) gave no error")
	}
	if len(rec.got) != 2 {
		t.Errorf("requests = %d, want 2 (a nil task sends nothing)", len(rec.got))
	}
}

// TestSendMessageCallerFaults: a message without parts or with a part that
// cannot be encoded is refused before anything is sent.
func TestSendMessageCallerFaults(t *testing.T) {
	c, rec := newMock(t, []mockReply{rpcReply(fixture(t, "get_task.json"))})
	ctx := context.Background()
	for name, msg := range map[string]a2a.Message{
		"no parts":      {},
		"bad data":      {Parts: a2a.Parts{a2a.DataPart{Data: json.RawMessage(`{"a":`)}}},
		"empty unknown": {Parts: a2a.Parts{a2a.UnknownPart{PartKind: "x"}}},
	} {
		res, err := c.SendMessage(ctx, msg)
		if err == nil || res != nil {
			t.Errorf("%s: %v, %v", name, res, err)
		}
	}
	if len(rec.got) != 0 {
		t.Errorf("%d requests sent", len(rec.got))
	}
}

// rejectTransport is a stand-in for a replaced http.DefaultTransport.
type rejectTransport struct{}

func (rejectTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("http.DefaultTransport must not be used")
}

// TestReplacedDefaultTransport: NewClient neither panics nor uses
// http.DefaultTransport when a test or tracing library has replaced it.
func TestReplacedDefaultTransport(t *testing.T) {
	saved := http.DefaultTransport
	http.DefaultTransport = rejectTransport{}
	t.Cleanup(func() { http.DefaultTransport = saved })
	srv := a2atest.NewServer()
	defer srv.Close()
	c, err := a2a.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendText(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
}

// redirectRows are redirects; otherURL is another host, which must never see a request (the client's redirect guard).
func redirectRows(otherURL string) []hostileRow {
	return []hostileRow{
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
			http.Redirect(w, r, otherURL+"/steal", http.StatusTemporaryRedirect)
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
	}
}

// TestRedirectFaults runs the redirect rows of the hostile-server table
// and checks that the other host saw no request.
func TestRedirectFaults(t *testing.T) {
	other, trap := serveFake(t, mockReply{})
	runRows(t, redirectRows(other.URL))
	if n := trap.count(); n != 0 {
		t.Errorf("the other host got %d requests", n)
	}
}

// TestSentMessageMatchesMarshal: a message with every field set goes out
// (through the client's one-pass encoding) exactly as Message.MarshalJSON
// writes it, so a field added to Message cannot be dropped on the wire;
// but for v1.0's mediaType and filename on text and data parts, which a
// v0.3 client leaves out (v0.3 has neither).
func TestSentMessageMatchesMarshal(t *testing.T) {
	meta := json.RawMessage(`{"k":1}`)
	msg := a2a.Message{MessageID: "m1", Role: a2a.RoleUser, TaskID: "9332c282-1fa7-4c42-96ac-58e4e2f88f4c", ContextID: "c1", ReferenceTaskIDs: []string{"t0"},
		Extensions: []string{"urn:x"}, Metadata: meta, RawRole: "ROLE_USER",
		Parts: a2a.Parts{a2a.TextPart{Text: "查", MediaType: "text/markdown", Filename: "q.md", Metadata: meta},
			a2a.DataPart{Data: json.RawMessage(`{"a":1}`), MediaType: "application/json", Filename: "d.json"},
			a2a.FilePart{File: a2a.FileContent{Name: "f", MIMEType: "text/plain", Bytes: "aGk=", URI: "https://x/f"}}}}
	allSet(t, reflect.ValueOf(msg), "Message")
	c, f := newMock(t, []mockReply{rpcReply(fixture(t, "send_completed_entity.json"))})
	if _, err := c.SendMessage(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	var params struct{ Message json.RawMessage }
	if err := json.Unmarshal(f.got[0].Params, &params); err != nil {
		t.Fatal(err)
	}
	v03 := msg
	v03.Parts = a2a.Parts{a2a.TextPart{Text: "查", Metadata: meta}, a2a.DataPart{Data: json.RawMessage(`{"a":1}`)}, msg.Parts[2]}
	want, err := json.Marshal(v03)
	if err != nil {
		t.Fatal(err)
	}
	if string(params.Message) != string(want) {
		t.Errorf("sent message:\n%s\nMarshalJSON without v1.0's members:\n%s", params.Message, want)
	}
	// The caller's message is left as it was.
	if p := msg.Parts[0].(a2a.TextPart); p.MediaType != "text/markdown" {
		t.Errorf("the caller's part changed: %+v", p)
	}
}

// TestSendFollowUpOtherTask: the answer to a follow-up must be about the
// task it continues.
func TestSendFollowUpOtherTask(t *testing.T) {
	other := []byte(`{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","id":"someone-elses-task","status":{"state":"completed"}}}`)
	c, _ := newMock(t, []mockReply{{body: other}})
	res, err := c.SendFollowUp(context.Background(), &a2a.Task{ID: "ir-task-1"}, a2a.NewTextMessage("A08"))
	if _, ok := errors.AsType[*a2a.ProtocolError](err); !ok || res != nil {
		t.Errorf("SendFollowUp = %v, %v; want a ProtocolError", res, err)
	}
}

// TestConnectionsReused: clients made and dropped, one per round as a
// discovery loop makes them, share one pool: the agent sees a connection
// or two, not one per client (before: two per round, each left open
// until its idle timeout).
func TestConnectionsReused(t *testing.T) {
	card := `{"name":"a","url":"%s","capabilities":{}}`
	var srvURL string
	srv, _, n := serveFakeConns(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
		if r.Method == http.MethodGet {
			fmt.Fprintf(w, card, srvURL)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"kind":"task","id":"t","status":{"state":"completed"}}}`, id)
	}})
	srvURL = srv.URL
	for range 100 {
		c, err := a2a.ResolveAgentCard(context.Background(), srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		client, err := a2a.NewClientFromCard(c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := client.GetTask(context.Background(), "t"); err != nil {
			t.Fatal(err)
		}
	}
	if got := n.opened.Load(); got > 4 {
		t.Errorf("the agent saw %d connections for 100 dropped clients, want them to share a pool", got)
	}
}

// TestGivingUpKeepsThePool: a call that gives up (a 503 not retried) does
// not close the shared pool's idle connections under the other calls; and
// a2a.CloseIdleConnections closes them when asked.
func TestGivingUpKeepsThePool(t *testing.T) {
	ok := mockReply{body: []byte(`{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","id":"t","status":{"state":"completed"}}}`)}
	busy := mockReply{status: 503, body: []byte("busy")}
	srv, _, n := serveFakeConns(t, ok, busy, ok)
	c, _ := a2a.NewClient(srv.URL, a2a.WithMaxRetries(0))
	ctx := context.Background()
	if _, err := c.GetTask(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTask(ctx, "t"); err == nil {
		t.Fatal("the 503 gave no error")
	}
	if _, err := c.GetTask(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if got := n.opened.Load(); got != 1 {
		t.Errorf("%d connections for three calls, want the one kept across the failure", got)
	}
	a2a.CloseIdleConnections()
	for range 10000 { // the close reaches the server soon after; a hang guard, not a timing check
		if n.closed.Load() == 1 {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Errorf("CloseIdleConnections left the idle connection open")
}
