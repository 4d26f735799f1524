package a2a_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The agent's own bytes (Raw) of a Message reply, of every stream event
// and of a ListTasks page, on each binding of each version: an agent
// sending exact bytes, with unknown members and unusual spacing, and a
// data event split over two SSE data lines.

// rawCase is what one kind of agent sends: each object as it is on the
// wire (wrapped, for the proto shapes) beside what Raw must hold (the
// object itself).
type rawCase struct {
	name, version, transport string
	send, sendRaw            string   // the SendMessage reply: a Message
	stream, streamRaw        []string // a stream: task, status, artifact, final status
	msgEvent, msgEventRaw    string   // a stream of one message event
	list, listRaw            string   // a ListTasks page; "" where the binding has none
}

// Inner objects, each with an unknown member and odd spacing; the v1.0
// and v0.3 proto shapes.
const (
	rawMsg10    = `{ "messageId" : "m1",  "role":"ROLE_AGENT","parts":[ {"text":"设备正常"} ] , "futureMember": {"x":[1, 2]} }`
	rawTask10   = `{"id":"t1","contextId":"c1",` + "\n" + `"status":{"state":"TASK_STATE_WORKING"},"futureMember":true}`
	rawStatus10 = `{"taskId":"t1", "contextId":"c1","status":{ "state":"TASK_STATE_WORKING" },"futureMember":null}`
	rawArt10    = `{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","parts":[{"text":"chunk"}]},"append":false,"futureMember":"x"}`
	rawDone10   = `{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}`
	rawPage10   = `{"tasks":[ {"id":"t1","status":{"state":"TASK_STATE_COMPLETED"},"futureMember":1},{"id":"t2","status":{"state":"TASK_STATE_WORKING"}} ],` +
		` "nextPageToken":"p2","pageSize":2, "totalSize":5,"futureMember":[]}`

	rawMsgPB    = `{"messageId":"m1", "role":"ROLE_AGENT","content":[{"text":"设备正常"}],"futureMember":{}}`
	rawTaskPB   = `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"} ,"futureMember":true}`
	rawStatusPB = `{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"},"final":false,` + "\n" + `"futureMember":0}`
	rawArtPB    = `{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","parts":[{"text":"chunk"}]},"futureMember":"x"}`
	rawDonePB   = `{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"},"final":true}`
	rawPagePB   = `{"tasks":[{"id":"t1","status":{"state":"TASK_STATE_COMPLETED"}, "futureMember":1}],"nextPageToken":"","futureMember":[]}`

	rawMsg03    = `{"kind":"message","messageId":"m1","role":"agent","parts":[{"kind":"text","text":"设备正常"}],  "futureMember":{}}`
	rawTask03   = `{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"},"futureMember":true}`
	rawStatus03 = `{"kind":"status-update","taskId":"t1","contextId":"c1",` + "\n" + `"status":{"state":"working"},"final":false,"futureMember":0}`
	rawArt03    = `{"kind":"artifact-update","taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","parts":[{"kind":"text","text":"chunk"}]}, "futureMember":"x"}`
	rawDone03   = `{"kind":"status-update","taskId":"t1","contextId":"c1","status":{"state":"completed"},"final":true}`
)

func rawCases() []rawCase {
	// wrap is the proto shapes' wrapper, with an unknown member of its own.
	wrap := func(member, inner string) string { return `{"futureWrapper":1, "` + member + `": ` + inner + ` }` }
	return []rawCase{
		{name: "v0.3 JSON-RPC", version: a2a.ProtocolV03, transport: a2a.TransportJSONRPC,
			send: rawMsg03, sendRaw: rawMsg03,
			stream:    []string{rawTask03, rawStatus03, rawArt03, rawDone03},
			streamRaw: []string{rawTask03, rawStatus03, rawArt03, rawDone03},
			msgEvent:  rawMsg03, msgEventRaw: rawMsg03},
		{name: "v0.3 HTTP+JSON", version: a2a.ProtocolV03, transport: a2a.TransportHTTPJSON,
			send: wrap("message", rawMsgPB), sendRaw: rawMsgPB,
			stream:    []string{wrap("task", rawTaskPB), wrap("statusUpdate", rawStatusPB), wrap("artifact_update", rawArtPB), wrap("status_update", rawDonePB)},
			streamRaw: []string{rawTaskPB, rawStatusPB, rawArtPB, rawDonePB},
			msgEvent:  wrap("msg", rawMsgPB), msgEventRaw: rawMsgPB,
			list: rawPagePB, listRaw: rawPagePB},
		{name: "v1.0 JSON-RPC", version: a2a.ProtocolV10, transport: a2a.TransportJSONRPC,
			send: wrap("message", rawMsg10), sendRaw: rawMsg10,
			stream:    []string{wrap("task", rawTask10), wrap("statusUpdate", rawStatus10), wrap("artifactUpdate", rawArt10), wrap("statusUpdate", rawDone10)},
			streamRaw: []string{rawTask10, rawStatus10, rawArt10, rawDone10},
			msgEvent:  wrap("message", rawMsg10), msgEventRaw: rawMsg10,
			list: rawPage10, listRaw: rawPage10},
		{name: "v1.0 HTTP+JSON", version: a2a.ProtocolV10, transport: a2a.TransportHTTPJSON,
			send: wrap("message", rawMsg10), sendRaw: rawMsg10,
			stream:    []string{wrap("task", rawTask10), wrap("statusUpdate", rawStatus10), wrap("artifactUpdate", rawArt10), wrap("statusUpdate", rawDone10)},
			streamRaw: []string{rawTask10, rawStatus10, rawArt10, rawDone10},
			msgEvent:  wrap("message", rawMsg10), msgEventRaw: rawMsg10,
			list: rawPage10, listRaw: rawPage10},
	}
}

// rawAgent serves tc's bytes: a JSON-RPC agent at /rpc (the reply's id is
// the request's), an HTTP+JSON one below /rest. A stream call answers
// tc.stream, or tc.msgEvent when the message sent says "one message";
// each object that holds a newline goes over several data lines.
func rawAgent(t *testing.T, tc rawCase) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID     json.RawMessage
			Method string
		}
		json.Unmarshal(body, &req)
		rpc := r.URL.Path == "/rpc"
		op := req.Method
		if !rpc {
			op = r.Method + " " + r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
		}
		one := func(obj string) string {
			if rpc {
				return `{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + obj + `}`
			}
			return obj
		}
		switch op {
		case "message/send", "SendMessage", "POST message:send":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, one(tc.send))
		case "message/stream", "SendStreamingMessage", "POST message:stream":
			events := tc.stream
			if bytes.Contains(body, []byte("one message")) {
				events = []string{tc.msgEvent}
			}
			w.Header().Set("Content-Type", "text/event-stream")
			for _, ev := range events {
				io.WriteString(w, "data: "+strings.ReplaceAll(one(ev), "\n", "\ndata: ")+"\n\n")
			}
		case "ListTasks", "GET tasks":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, one(tc.list))
		default:
			http.Error(w, "not here: "+op, http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	if tc.transport == a2a.TransportJSONRPC {
		return srv.URL + "/rpc"
	}
	return srv.URL + "/rest"
}

// rawClient is a client of tc's agent.
func rawClient(t *testing.T, tc rawCase) *a2a.Client {
	t.Helper()
	c, err := a2a.NewClient(rawAgent(t, tc), a2a.WithProtocolVersion(tc.version),
		a2a.WithTransports(tc.transport), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// rawOf is v's Raw, for each type that has one.
func rawOf(t *testing.T, v any) json.RawMessage {
	t.Helper()
	switch v := v.(type) {
	case *a2a.Task:
		return v.Raw()
	case *a2a.Message:
		return v.Raw()
	case *a2a.TaskStatusUpdateEvent:
		return v.Raw()
	case *a2a.TaskArtifactUpdateEvent:
		return v.Raw()
	case *a2a.ListTasksResponse:
		return v.Raw()
	}
	t.Fatalf("%T has no Raw", v)
	return nil
}

// checkRaw wants v's Raw to be want exactly, its capacity cut at its
// end (an append cannot write into bytes beyond it), and v's encoding to
// be the one of its fields alone (Raw does not change json.Marshal).
func checkRaw(t *testing.T, what string, v any, want string) {
	t.Helper()
	raw := rawOf(t, v)
	if string(raw) != want {
		t.Errorf("%s: Raw = %q, want the agent's bytes %q", what, raw, want)
	}
	if cap(raw) != len(raw) {
		t.Errorf("%s: cap(Raw) = %d, len %d: an append would write past the object", what, cap(raw), len(raw))
	}
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	built, _ := json.Marshal(fieldsOnly(v))
	if !bytes.Equal(got, built) {
		t.Errorf("%s: json.Marshal = %s, want %s (the fields' encoding, not Raw)", what, got, built)
	}
	if bytes.Contains(got, []byte("futureMember")) {
		t.Errorf("%s: json.Marshal = %s keeps an unknown member: it encodes Raw", what, got)
	}
}

// fieldsOnly returns a new value of v's type (a pointer to a struct) with
// v's exported fields alone: what a caller could build in code.
func fieldsOnly(v any) any {
	src := reflect.ValueOf(v).Elem()
	dst := reflect.New(src.Type())
	for i := range src.NumField() {
		if src.Type().Field(i).IsExported() {
			dst.Elem().Field(i).Set(src.Field(i))
		}
	}
	return dst.Interface()
}

// TestRawMessageReply: a SendMessage reply that is a Message keeps the
// agent's bytes of the message (not a v1.0 or proto wrapper).
func TestRawMessageReply(t *testing.T) {
	for _, tc := range rawCases() {
		t.Run(tc.name, func(t *testing.T) {
			res, err := rawClient(t, tc).SendMessage(context.Background(), a2a.NewTextMessage("hi"))
			if err != nil {
				t.Fatal(err)
			}
			m, ok := res.(*a2a.Message)
			if !ok {
				t.Fatalf("result %T, want *Message", res)
			}
			if m.MessageID != "m1" || m.Text() != "设备正常" {
				t.Errorf("message %+v, want m1 saying 设备正常", m)
			}
			checkRaw(t, "message", m, tc.sendRaw)
		})
	}
}

// TestRawStreamEvents: each event of a stream (task, status update,
// artifact update, final status update; a message event) keeps its own
// bytes, an object split over two data lines included.
func TestRawStreamEvents(t *testing.T) {
	for _, tc := range rawCases() {
		t.Run(tc.name, func(t *testing.T) {
			c := rawClient(t, tc)
			var got []a2a.Event
			for ev, err := range c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("events")) {
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, ev)
			}
			wantTypes := []string{"*a2a.Task", "*a2a.TaskStatusUpdateEvent", "*a2a.TaskArtifactUpdateEvent", "*a2a.TaskStatusUpdateEvent"}
			if len(got) != len(wantTypes) {
				t.Fatalf("%d events, want %d", len(got), len(wantTypes))
			}
			for i, ev := range got {
				if typ := reflect.TypeOf(ev).String(); typ != wantTypes[i] {
					t.Fatalf("event %d is %s, want %s", i, typ, wantTypes[i])
				}
				checkRaw(t, wantTypes[i], ev, tc.streamRaw[i])
			}
			if last := got[3].(*a2a.TaskStatusUpdateEvent); !last.Final {
				t.Errorf("the completed status update is not Final")
			}

			var msgs []a2a.Event
			for ev, err := range c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("one message")) {
				if err != nil {
					t.Fatal(err)
				}
				msgs = append(msgs, ev)
			}
			if len(msgs) != 1 {
				t.Fatalf("%d events, want one message", len(msgs))
			}
			if _, ok := msgs[0].(*a2a.Message); !ok {
				t.Fatalf("event %T, want *Message", msgs[0])
			}
			checkRaw(t, "message event", msgs[0], tc.msgEventRaw)
		})
	}
}

// TestRawListTasksPage: a ListTasks page keeps the whole
// ListTasksResponse as sent, and each task its own part of it.
func TestRawListTasksPage(t *testing.T) {
	for _, tc := range rawCases() {
		if tc.list == "" {
			continue // v0.3 JSON-RPC has no ListTasks
		}
		t.Run(tc.name, func(t *testing.T) {
			page, err := rawClient(t, tc).ListTasksPage(context.Background(), a2a.ListTasksRequest{})
			if err != nil {
				t.Fatal(err)
			}
			checkRaw(t, "page", page, tc.listRaw)
			if len(page.Tasks) == 0 || page.Tasks[0].ID != "t1" {
				t.Fatalf("tasks %v, want t1 first", page.Tasks)
			}
			for i, task := range page.Tasks {
				if !bytes.Contains(page.Raw(), task.Raw()) || len(task.Raw()) == 0 {
					t.Errorf("task %d: Raw %q is not within the page's bytes", i, task.Raw())
				}
			}
		})
	}
}

// TestRawUnmarshal: a Message decoded with json.Unmarshal keeps a copy of
// its bytes, in either version's JSON, that later writes to the input do
// not change.
func TestRawUnmarshal(t *testing.T) {
	for _, in := range []string{rawMsg03, rawMsg10} {
		b := []byte(in)
		var m a2a.Message
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		clear(b)
		if string(m.Raw()) != in {
			t.Errorf("Raw = %q, want %q", m.Raw(), in)
		}
		if m.Text() != "设备正常" {
			t.Errorf("%s decodes to %+v", in, m)
		}
	}
	var list []a2a.Message
	if err := json.Unmarshal([]byte("["+rawMsg03+", "+rawMsg10+"]"), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || string(list[0].Raw()) != rawMsg03 || string(list[1].Raw()) != rawMsg10 {
		t.Errorf("messages in a list: Raw %q and %q, want each its own", list[0].Raw(), list[1].Raw())
	}
}

// TestRawNil: values built in code, nil pointers, and messages nested in
// a decoded value have no Raw; a task folded from updates neither.
func TestRawNil(t *testing.T) {
	msg := a2a.NewTextMessage("hi")
	for name, raw := range map[string]json.RawMessage{
		"built message":       msg.Raw(),
		"built status update": (&a2a.TaskStatusUpdateEvent{TaskID: "t1"}).Raw(),
		"built artifact":      (&a2a.TaskArtifactUpdateEvent{TaskID: "t1"}).Raw(),
		"built page":          (&a2a.ListTasksResponse{}).Raw(),
		"nil message":         (*a2a.Message)(nil).Raw(),
		"nil status update":   (*a2a.TaskStatusUpdateEvent)(nil).Raw(),
		"nil artifact update": (*a2a.TaskArtifactUpdateEvent)(nil).Raw(),
		"nil page":            (*a2a.ListTasksResponse)(nil).Raw(),
		"status update by json": func() json.RawMessage {
			var e a2a.TaskStatusUpdateEvent
			json.Unmarshal([]byte(rawStatus03), &e)
			return e.Raw()
		}(),
	} {
		if raw != nil {
			t.Errorf("%s: Raw = %q, want nil", name, raw)
		}
	}

	var task a2a.Task
	if err := json.Unmarshal([]byte(`{"kind":"task","id":"t1","status":{"state":"working","message":`+rawMsg03+`},"history":[`+rawMsg03+`]}`), &task); err != nil {
		t.Fatal(err)
	}
	if task.Status.Message.Raw() != nil || task.History[0].Raw() != nil {
		t.Errorf("nested messages have Raw %q, %q; want nil (the task's Raw holds them)", task.Status.Message.Raw(), task.History[0].Raw())
	}
	var folded a2a.Task
	folded.Apply(&a2a.TaskStatusUpdateEvent{TaskID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}})
	if folded.Raw() != nil {
		t.Errorf("folded task: Raw = %q, want nil", folded.Raw())
	}
}
