package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// sseEvents spells a stream's events as one version does: task, working,
// artifact and state(s) are the data of one event each, a JSON-RPC
// response with the request's id.
type sseEvents struct {
	name    string
	version string
	task    func(state string) string
	status  func(state string, final bool) string
	art     string
}

func streamVersions() []sseEvents {
	return []sseEvents{{
		name:    "v0.3",
		version: a2a.ProtocolV03,
		task: func(state string) string {
			return `{"kind":"task","id":"t1","contextId":"c1","status":{"state":"` + state + `"}}`
		},
		status: func(state string, final bool) string {
			return fmt.Sprintf(`{"kind":"status-update","taskId":"t1","contextId":"c1","status":{"state":%q},"final":%v}`, state, final)
		},
		art: `{"kind":"artifact-update","taskId":"t1","contextId":"c1","artifact":{"artifactId":"a","parts":[{"kind":"text","text":"半份"}]}}`,
	}, {
		name:    "v1.0",
		version: a2a.ProtocolV10,
		task: func(state string) string {
			return `{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_` + strings.ToUpper(strings.ReplaceAll(state, "-", "_")) + `"}}}`
		},
		status: func(state string, _ bool) string {
			return `{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_` + strings.ToUpper(strings.ReplaceAll(state, "-", "_")) + `"}}}`
		},
		art: `{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a","parts":[{"text":"半份"}]}}}`,
	}}
}

// sseData is one event of results, answering request id.
func sseData(id string, results ...string) string {
	var b strings.Builder
	for _, r := range results {
		b.WriteString(`data: {"jsonrpc":"2.0","id":` + id + `,"result":` + r + "}\n\n")
	}
	return b.String()
}

// sseAgent is an agent that answers every request with the event stream
// body(id) spells, id being the request's.
func sseAgent(t *testing.T, body func(id string) string) *httptest.Server {
	srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body(id))
	}})
	return srv
}

// drain ranges over a stream's sequence: how many events it yielded, and
// the last error (nil for none).
func drain(seq iter.Seq2[a2a.Event, error]) (events int, last error) {
	for ev, err := range seq {
		if err != nil {
			last = err
		} else if ev != nil {
			events++
		}
	}
	return events, last
}

// TestStreamCut: a stream, of either version, sent or resubscribed to,
// that the agent closes (or whose connection breaks) before its task
// reaches a final state ends with a *StreamCutError matching ErrStreamCut,
// after every event, carrying the folded task and the ids to resubscribe.
func TestStreamCut(t *testing.T) {
	for _, v := range streamVersions() {
		for _, resume := range []bool{false, true} {
			call := "SendStreamingMessage"
			if resume {
				call = "SubscribeToTask"
			}
			cuts := []struct {
				name   string
				events []string
				broken bool          // the connection breaks instead of closing
				state  a2a.TaskState // of the folded task; "" for none
				task   bool          // a task was folded
				ids    bool          // the cut names t1 and c1
			}{
				{"after working", []string{v.task("submitted"), v.status("working", false)}, false, a2a.TaskStateWorking, true, true},
				{"after an artifact", []string{v.art}, false, "", true, true},
				{"after zero events", nil, false, "", false, false},
				{"broken after working", []string{v.status("working", false)}, true, a2a.TaskStateWorking, true, true},
			}
			for _, cut := range cuts {
				t.Run(v.name+" "+call+" "+cut.name, func(t *testing.T) {
					srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
						io.Copy(io.Discard, r.Body)
						body := sseData(id, cut.events...)
						w.Header().Set("Content-Type", "text/event-stream")
						if cut.broken { // promise more than is sent: the client reads an unexpected EOF
							w.Header().Set("Content-Length", fmt.Sprint(len(body)+100))
						}
						io.WriteString(w, body)
					}})
					c, err := a2a.NewClient(srv.URL, a2a.WithProtocolVersion(v.version), a2a.WithMaxRetries(0))
					if err != nil {
						t.Fatal(err)
					}
					seq := c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go"))
					if resume {
						seq = c.SubscribeToTask(context.Background(), "t1")
					}
					var events int
					var last error
					for ev, err := range seq {
						if last != nil {
							t.Fatalf("%v, %v after the error", ev, err)
						}
						if err != nil {
							last = err
							continue
						}
						events++
					}
					if events != len(cut.events) {
						t.Errorf("%d events, want %d", events, len(cut.events))
					}
					ce, ok := errors.AsType[*a2a.StreamCutError](last)
					if !ok || !errors.Is(last, a2a.ErrStreamCut) {
						t.Fatalf("err = %T %v, want a *StreamCutError matching ErrStreamCut", last, last)
					}
					wantTask, wantContext := "", ""
					if cut.ids {
						wantTask, wantContext = "t1", "c1"
					} else if resume {
						wantTask = "t1" // the task asked about
					}
					if ce.TaskID != wantTask || ce.ContextID != wantContext {
						t.Errorf("cut names %q, %q; want %q, %q", ce.TaskID, ce.ContextID, wantTask, wantContext)
					}
					switch {
					case !cut.task && ce.Task != nil:
						t.Errorf("cut carries %+v, want no task", ce.Task)
					case cut.task && (ce.Task == nil || ce.Task.Status.State != cut.state || ce.Task.ID != "t1"):
						t.Errorf("cut carries %+v, want task t1 in state %q", ce.Task, cut.state)
					case cut.task && cut.name == "after an artifact" && (len(ce.Task.Artifacts) != 1 || ce.Task.Artifacts[0].Text() != "半份"):
						t.Errorf("cut's task lacks the artifact: %+v", ce.Task.Artifacts)
					}
					if _, ok := errors.AsType[*a2a.TransportError](last); ok != cut.broken {
						t.Errorf("err = %v: wraps a TransportError %v, want %v", last, ok, cut.broken)
					}
					if !strings.Contains(last.Error(), "the stream ended before") {
						t.Errorf("Error() = %q", last.Error())
					}
				})
			}
		}
	}
}

// TestStreamEndsAtInterrupted: a stream whose task reaches a final state
// (terminal, input-required, auth-required) is over there, in either
// version and whether or not v0.3's final flag is set, even when the agent
// keeps the connection open: the server holds it until the test has seen
// the loop end.
func TestStreamEndsAtInterrupted(t *testing.T) {
	for _, v := range streamVersions() {
		for _, tt := range []struct {
			name   string
			resume bool
			events []string
			state  a2a.TaskState
		}{
			{"input-required status", false, []string{v.task("working"), v.status("input-required", false)}, a2a.TaskStateInputRequired},
			{"auth-required status", false, []string{v.task("working"), v.status("auth-required", false)}, a2a.TaskStateAuthRequired},
			{"auth-required task, resubscribed", true, []string{v.task("auth-required")}, a2a.TaskStateAuthRequired},
			{"completed status", false, []string{v.status("completed", false)}, a2a.TaskStateCompleted},
		} {
			t.Run(v.name+" "+tt.name, func(t *testing.T) {
				release := make(chan struct{})
				srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
					io.Copy(io.Discard, r.Body)
					w.Header().Set("Content-Type", "text/event-stream")
					io.WriteString(w, sseData(id, tt.events...))
					http.NewResponseController(w).Flush()
					<-release // held open until the loop has ended
				}})
				c, err := a2a.NewClient(srv.URL, a2a.WithProtocolVersion(v.version))
				if err != nil {
					t.Fatal(err)
				}
				seq := c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go"))
				if tt.resume {
					seq = c.SubscribeToTask(context.Background(), "t1")
				}
				var task a2a.Task
				var n int
				for ev, err := range seq {
					if err != nil {
						close(release)
						t.Fatalf("after %d events: %v", n, err)
					}
					n++
					task.Apply(ev)
				}
				close(release)
				if n != len(tt.events) || task.Status.State != tt.state {
					t.Errorf("%d events, task %q; want %d, %q", n, task.Status.State, len(tt.events), tt.state)
				}
			})
		}
	}
}

// TestStreamCutErrorText: the error names the method, the task and its
// last state, and the connection's fault, with the agent's text inert.
func TestStreamCutErrorText(t *testing.T) {
	for _, tt := range []struct {
		err  *a2a.StreamCutError
		want string
	}{
		{&a2a.StreamCutError{Method: "message/stream"}, "a2a: message/stream: the stream ended before naming a task"},
		{&a2a.StreamCutError{Method: "tasks/resubscribe", TaskID: "t1"}, `a2a: tasks/resubscribe: the stream ended before task "t1" did`},
		{&a2a.StreamCutError{Method: "SendStreamingMessage", TaskID: "t\x1b[2J", Task: &a2a.Task{Status: a2a.TaskStatus{State: "wo\x07rking"}},
			Err: &a2a.TransportError{Method: "SendStreamingMessage", Attempts: 1, Err: io.ErrUnexpectedEOF}},
			`a2a: SendStreamingMessage: the stream ended before task "t\x1b[2J" did, last state "wo\arking": SendStreamingMessage:`},
	} {
		got := tt.err.Error()
		if !strings.HasPrefix(got, tt.want) || strings.ContainsAny(got, "\x1b\x07") {
			t.Errorf("Error() = %q, want it to start with %q and hold no control character", got, tt.want)
		}
	}
}

// TestStreamCutTaskBounded: the task a stream folds for its cut error is
// bounded by the client's cap (WithMaxResponseBytes) however many small
// chunks the agent appends; every event is still yielded, and the cut
// still names the task and its last state.
func TestStreamCutTaskBounded(t *testing.T) {
	for _, v := range streamVersions() {
		t.Run(v.name, func(t *testing.T) {
			const chunks, limit = 4000, 16 << 10
			appendEv := strings.Replace(v.art, `"artifact":`, `"append":true,"artifact":`, 1)
			events := []string{v.task("working")}
			for range chunks {
				events = append(events, appendEv)
			}
			srv := sseAgent(t, func(id string) string { return sseData(id, events...) })
			c, err := a2a.NewClient(srv.URL, a2a.WithProtocolVersion(v.version), a2a.WithMaxRetries(0),
				a2a.WithMaxResponseBytes(limit))
			if err != nil {
				t.Fatal(err)
			}
			n, last := drain(c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go")))
			if n != len(events) {
				t.Errorf("%d events yielded, want %d", n, len(events))
			}
			ce, ok := errors.AsType[*a2a.StreamCutError](last)
			if !ok || ce.Task == nil {
				t.Fatalf("err = %v, want a *StreamCutError with a task", last)
			}
			if ce.TaskID != "t1" || ce.Task.Status.State != a2a.TaskStateWorking {
				t.Errorf("cut names %q in state %q, want t1, working", ce.TaskID, ce.Task.Status.State)
			}
			var size int
			for _, a := range ce.Task.Artifacts {
				size += len(a.Parts) * (16 + len("半份"))
			}
			if size == 0 || size > limit {
				t.Errorf("the cut's task holds ~%d bytes of parts, want some and at most the cap %d", size, limit)
			}
		})
	}
}

// TestStreamErrorKeepsIDs: however a stream ends once an event has named
// its task (a JSON-RPC error inside the stream, an event over the size
// cap, a malformed event, the caller's ctx), the error carries the ids to
// go on with, in a *StreamCutError, and the error itself stays findable.
func TestStreamErrorKeepsIDs(t *testing.T) {
	v := streamVersions()[0]
	for _, tt := range []struct {
		name  string
		tail  string // what follows the first event
		limit int64
		is    func(error) bool
	}{
		{"rpc error", `data: {"jsonrpc":"2.0","id":ID,"error":{"code":-32001,"message":"gone"}}` + "\n\n", 0,
			func(err error) bool { return errors.Is(err, a2a.ErrTaskNotFound) }},
		{"event over the cap", "data: " + `{"jsonrpc":"2.0","id":ID,"result":` + strings.Repeat(" ", 8<<10) + "{}}\n\n", 4 << 10,
			func(err error) bool { _, ok := errors.AsType[*a2a.BodyTooLargeError](err); return ok }},
		{"malformed event", "data: {\"jsonrpc\":\"2.0\",\"id\":ID,\"result\":{\"kind\":\"status-update\"\n\n", 0,
			func(err error) bool { _, ok := errors.AsType[*a2a.ProtocolError](err); return ok }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := sseAgent(t, func(id string) string {
				return sseData(id, v.status("working", false)) + strings.ReplaceAll(tt.tail, "ID", id)
			})
			opts := []a2a.Option{a2a.WithMaxRetries(0)}
			if tt.limit > 0 {
				opts = append(opts, a2a.WithMaxResponseBytes(tt.limit))
			}
			c, err := a2a.NewClient(srv.URL, opts...)
			if err != nil {
				t.Fatal(err)
			}
			_, last := drain(c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go")))
			ce, ok := errors.AsType[*a2a.StreamCutError](last)
			if !ok || ce.TaskID != "t1" || ce.ContextID != "c1" || !tt.is(last) {
				t.Errorf("err = %T %v; want a *StreamCutError naming t1, c1 around the stream's error", last, last)
			}
		})
	}
	t.Run("ctx", func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, sseData(id, v.status("working", false)))
			w.(http.Flusher).Flush()
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}})
		c, _ := a2a.NewClient(srv.URL, a2a.WithMaxRetries(0))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var last error
		for ev, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("go")) {
			if ev != nil {
				cancel() // the caller gives up after the first event
			}
			if err != nil {
				last = err
			}
		}
		ce, ok := errors.AsType[*a2a.StreamCutError](last)
		if !ok || ce.TaskID != "t1" || !errors.Is(last, context.Canceled) {
			t.Errorf("err = %T %v; want a *StreamCutError naming t1 around context.Canceled", last, last)
		}
	})
}

// TestStreamCutErrorRedacted: a cut stream's error text is redacted of the
// client's secrets, even when the agent echoes one as the task's id.
func TestStreamCutErrorRedacted(t *testing.T) {
	const key = "sk-cut-7Hq2LmZ9pX"
	srv := sseAgent(t, func(id string) string {
		return sseData(id, `{"kind":"status-update","taskId":"`+key+`","contextId":"c1","status":{"state":"working"},"final":false}`)
	})
	c, err := a2a.NewClient(srv.URL, a2a.WithAPIKey(key), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, last := drain(c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go")))
	if ce, ok := errors.AsType[*a2a.StreamCutError](last); !ok || ce.TaskID != key {
		t.Fatalf("err = %v, want a *StreamCutError naming the task as sent", last)
	}
	if strings.Contains(last.Error(), key) {
		t.Errorf("Error() = %q shows the key", last.Error())
	}
}
