package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// collect runs a stream to its end and returns a line per event and the
// error it ended with.
func collect(seq func(func(a2a.Event, error) bool)) ([]string, error) {
	var out []string
	for ev, err := range seq {
		if err != nil {
			return out, err
		}
		switch e := ev.(type) {
		case *a2a.Task:
			out = append(out, "task "+string(e.Status.State))
		case *a2a.Message:
			out = append(out, "message "+e.Text())
		case *a2a.TaskStatusUpdateEvent:
			out = append(out, fmt.Sprintf("status %s final=%v", e.Status.State, e.Final))
		case *a2a.TaskArtifactUpdateEvent:
			out = append(out, fmt.Sprintf("artifact %s %q append=%v last=%v", e.Artifact.ArtifactID, e.Artifact.Text(), e.Append, e.LastChunk))
		}
	}
	return out, nil
}

// TestStreamScripted: the a2atest agent streams a scripted task; the events
// arrive in order and fold into the final task.
func TestStreamScripted(t *testing.T) {
	srv := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer srv.Close()
	c, _ := a2a.NewClient(srv.URL)
	var task a2a.Task
	var lines []string
	for ev, err := range c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("本月巡检记录")) {
		if err != nil {
			t.Fatal(err)
		}
		task.Apply(ev)
		lines = append(lines, fmt.Sprintf("%T", ev))
	}
	want := []string{"*a2a.Task", "*a2a.TaskStatusUpdateEvent", "*a2a.TaskStatusUpdateEvent", "*a2a.TaskArtifactUpdateEvent", "*a2a.TaskStatusUpdateEvent"}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if task.ID != "task-1" || task.Status.State != a2a.TaskStateCompleted || task.Artifact("records").Text() != a2atest.RecordsSummary {
		t.Errorf("folded task: %s %s %q", task.ID, task.Status.State, task.Artifact("records").Text())
	}

	// Resubscribing to a task at its end gives one final status update.
	got, err := collect(c.SubscribeToTask(context.Background(), "task-1"))
	if err != nil || len(got) != 1 || got[0] != "status completed final=true" {
		t.Errorf("resubscribe: %v, %v", got, err)
	}
	if _, err := collect(c.SubscribeToTask(context.Background(), "nope")); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("resubscribe unknown: %v", err)
	}
}

// TestStreamFaults: replies that are not a stream, oversized events,
// malformed events and a stream cut short each end with the right error.
func TestStreamFaults(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/json-error", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"streaming is not supported"}}`)
	})
	mux.HandleFunc("/charset", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		fmt.Fprint(w, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"message","role":"agent","messageId":"m","parts":[{"kind":"text","text":"你好"}]}}`+"\n\n")
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: "+strings.Repeat("x", 5000)+"\n\n")
	})
	mux.HandleFunc("/many-lines", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, strings.Repeat("data: xxxxxxxx\n", 1000)+"\n")
	})
	mux.HandleFunc("/bad-kind", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"progress"}}`+"\n\n")
	})
	mux.HandleFunc("/wrong-id", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"jsonrpc":"2.0","id":99,"result":{"kind":"message","role":"agent","messageId":"m","parts":[]}}`+"\n\n")
	})
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(502)
		fmt.Fprint(w, "<html>502</html>")
	})
	srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, _ string) { mux.ServeHTTP(w, r) }})
	tests := []struct {
		path  string
		check func(error) bool
		want  []string
	}{
		{"/json-error", func(err error) bool { return errors.Is(err, a2a.ErrUnsupportedOperation) }, nil},
		{"/charset", func(err error) bool { return err == nil }, []string{"message 你好"}},
		{"/big", func(err error) bool { _, ok := errors.AsType[*a2a.BodyTooLargeError](err); return ok }, nil},
		{"/many-lines", func(err error) bool { _, ok := errors.AsType[*a2a.BodyTooLargeError](err); return ok }, nil},
		{"/bad-kind", func(err error) bool { _, ok := errors.AsType[*a2a.ProtocolError](err); return ok }, nil},
		{"/wrong-id", func(err error) bool { _, ok := errors.AsType[*a2a.ProtocolError](err); return ok }, nil},
		{"/html", func(err error) bool { he, ok := errors.AsType[*a2a.HTTPError](err); return ok && he.StatusCode == 502 }, nil},
	}
	for _, tt := range tests {
		c, _ := a2a.NewClient(srv.URL+tt.path, a2a.WithMaxResponseBytes(4096), a2a.WithMaxRetries(0))
		got, err := collect(c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go")))
		if !tt.check(err) {
			t.Errorf("%s: err = %v", tt.path, err)
		}
		if diff := cmp.Diff(tt.want, got, ignoreTaskInternals); diff != "" {
			t.Errorf("%s: events (-want +got):\n%s", tt.path, diff)
		}
	}
}

// TestStreamBreakReleases: leaving the loop closes the connection at once:
// the server sees its request end while it still holds the stream open.
func TestStreamBreakReleases(t *testing.T) {
	released := make(chan struct{})
	srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, _ string) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"working"}}}`+"\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done() // would wait forever if the client kept the stream
		close(released)
	}})
	c, _ := a2a.NewClient(srv.URL)
	for ev, err := range c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go")) {
		if err != nil || ev == nil {
			t.Fatal(err)
		}
		break
	}
	select {
	case <-released:
	case <-time.After(10 * time.Second): // a hang guard, not a timing check
		t.Fatal("the server still holds the stream after the loop was left")
	}
}

// TestStreamContext: a cancelled ctx ends a stream that sends nothing.
func TestStreamContext(t *testing.T) {
	srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, _ string) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}})
	c, _ := a2a.NewClient(srv.URL)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err := collect(c.SendStreamingMessage(ctx, a2a.NewTextMessage("go")))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestStreamEdges: a leading BOM, an uncapped client with a large event, a
// stream-only script, and a Message ending the stream.
func TestStreamEdges(t *testing.T) {
	msg := `{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"message","role":"agent","messageId":"m","parts":[{"kind":"text","text":"你好"}]}}`
	big := `{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"message","role":"agent","messageId":"m","parts":[{"kind":"text","text":"` + strings.Repeat("x", 100_000) + `"}]}}`
	for name, tt := range map[string]struct {
		raw  string
		opts []a2a.Option
		want int // events
	}{
		"BOM":                 {"\ufeffdata: " + msg + "\n\n", nil, 1},
		"huge cap":            {"data: " + big + "\n\n", []a2a.Option{a2a.WithMaxResponseBytes(math.MaxInt64)}, 1},
		"message ends stream": {"data: " + msg + "\n\ndata: garbage\n\n", nil, 1},
	} {
		srv := a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply { return a2atest.Reply{StreamRaw: tt.raw} }))
		c, _ := a2a.NewClient(srv.URL, tt.opts...)
		got, err := collect(c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go")))
		srv.Close()
		if err != nil || len(got) != tt.want {
			t.Errorf("%s: %d events %q, %v", name, len(got), got, err)
		}
	}
	srv := a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Events: []a2a.Event{&a2a.Message{Role: a2a.RoleAgent, MessageID: "m", Parts: a2a.Parts{a2a.TextPart{Text: "only"}}}}}
	}))
	defer srv.Close()
	c, _ := a2a.NewClient(srv.URL)
	if got, err := collect(c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go"))); err != nil || len(got) != 1 || got[0] != "message only" {
		t.Errorf("events-only reply: %q, %v", got, err)
	}
}

// TestStreamContentEncoding: a gzip event stream the transport left
// encoded is decompressed; corrupt gzip and an unknown encoding end the
// stream with a *ProtocolError, not a transport fault.
func TestStreamContentEncoding(t *testing.T) {
	const sse = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"kind\":\"status-update\",\"taskId\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"completed\"},\"final\":true}}\n\n"
	// Not final, so the stream is read to its end, where gzip checks its CRC.
	corrupt := gzipBytes(strings.Replace(sse, `"state":"completed"},"final":true`, `"state":"working"},"final":false`, 1))
	corrupt[len(corrupt)-6] ^= 0xff
	for name, tt := range map[string]struct {
		enc  string
		body []byte
		want string // "" for one completed status event
	}{
		"gzip":         {"gzip", gzipBytes(sse), ""},
		"corrupt gzip": {"gzip", corrupt, "stream cannot be read"},
		"br":           {"br", []byte(sse), `Content-Encoding "br" is not supported`},
	} {
		t.Run(name, func(t *testing.T) {
			srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, _ string) {
				io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				w.Header().Set("Content-Encoding", tt.enc)
				w.Write(tt.body)
			}})
			tr := &http.Transport{DisableCompression: true}
			defer tr.CloseIdleConnections()
			c, err := a2a.NewClient(srv.URL, a2a.WithHTTPClient(&http.Client{Transport: tr}))
			if err != nil {
				t.Fatal(err)
			}
			var states []a2a.TaskState
			var last error
			for ev, err := range c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("hi")) {
				if err != nil {
					last = err
					break
				}
				if su, ok := ev.(*a2a.TaskStatusUpdateEvent); ok {
					states = append(states, su.Status.State)
				}
			}
			if tt.want == "" {
				if last != nil || len(states) != 1 || states[0] != a2a.TaskStateCompleted {
					t.Fatalf("states %v, err %v; want one completed event", states, last)
				}
				return
			}
			pe, ok := errors.AsType[*a2a.ProtocolError](last)
			if !ok || !strings.Contains(pe.Error(), tt.want) {
				t.Fatalf("err = %T %v, want a ProtocolError saying %q", last, last, tt.want)
			}
		})
	}
}

// TestStreamOtherTask: a stream's events are about one task, the one
// resubscribed to or the first one an event names; an event about another
// ends the stream with a *ProtocolError naming both.
func TestStreamOtherTask(t *testing.T) {
	ev := func(task string) string {
		return `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"` + task + `","contextId":"c","status":{"state":"working"}}}` + "\n\n"
	}
	noTask := `data: {"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","contextId":"c","artifact":{"artifactId":"a","parts":[]}}}` + "\n\n"
	for name, tt := range map[string]struct {
		body   string
		resume bool
		want   int    // events before the error
		reason string // in the error
	}{
		"resubscribed to t1, told of t2":          {ev("t2"), true, 0, `"t2", not "t1"`},
		"a stream that moves to t2":               {ev("t1") + ev("t2"), false, 1, `"t2", not "t1"`},
		"resubscribed to t1, an event of no task": {noTask, true, 0, `names no task, where task "t1"`},
		"a stream whose second event names none":  {ev("t1") + noTask, false, 1, `names no task, where task "t1"`},
	} {
		t.Run(name, func(t *testing.T) {
			srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, _ string) {
				w.Header().Set("Content-Type", "text/event-stream")
				io.WriteString(w, tt.body)
			}})
			c, _ := a2a.NewClient(srv.URL)
			seq := c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go"))
			if tt.resume {
				seq = c.SubscribeToTask(context.Background(), "t1")
			}
			got, err := collect(seq)
			if pe, ok := errors.AsType[*a2a.ProtocolError](err); !ok || len(got) != tt.want || !strings.Contains(pe.Reason, tt.reason) {
				t.Errorf("events %v, err %v; want %d events then a ProtocolError saying %s", got, err, tt.want, tt.reason)
			}
		})
	}
}

// TestStreamTimeouts: a stream cannot wait forever, even with a ctx that
// has no deadline: an attempt whose reply does not start within the
// attempt bound fails as a timeout (and SubscribeToTask tries again, as
// tasks/get would), a plain reply trickled past it likewise, and with an
// idle bound a stream that goes quiet ends.
func TestStreamTimeouts(t *testing.T) {
	const event = `data: {"jsonrpc":"2.0","id":%s,"result":{"kind":"status-update","taskId":"t1","contextId":"c","status":{"state":"working"}}}` + "\n\n"
	hang := func(w http.ResponseWriter, r *http.Request, id string) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second): // a hang guard
		}
	}
	open := func(quietAfter bool) func(w http.ResponseWriter, r *http.Request, id string) {
		return func(w http.ResponseWriter, r *http.Request, id string) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, event, id)
			http.NewResponseController(w).Flush()
			if quietAfter {
				hang(w, r, id)
			}
		}
	}
	trickle := func(w http.ResponseWriter, r *http.Request, id string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		for range 200 {
			if _, err := io.WriteString(w, " "); err != nil || http.NewResponseController(w).Flush() != nil {
				return
			}
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	tests := []struct {
		name    string
		replies []mockReply
		resume  bool
		opts    []a2a.Option
		events  int
		reqs    int
	}{
		{"message/stream, no headers", []mockReply{{serve: hang}}, false, []a2a.Option{a2a.WithAttemptTimeout(200 * time.Millisecond)}, 0, 1},
		{"resubscribe, no headers, then a stream", []mockReply{{serve: hang}, {serve: open(false)}}, true,
			[]a2a.Option{a2a.WithAttemptTimeout(200 * time.Millisecond), a2a.WithRetryWait(time.Millisecond, 2*time.Millisecond)}, 1, 2},
		{"a plain reply trickled", []mockReply{{serve: trickle}}, false, []a2a.Option{a2a.WithAttemptTimeout(200 * time.Millisecond)}, 0, 1},
		{"a stream gone quiet", []mockReply{{serve: open(true)}}, false, []a2a.Option{a2a.WithStreamIdleTimeout(200 * time.Millisecond)}, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, f := serveFake(t, tt.replies...)
			c, err := a2a.NewClient(srv.URL, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			seq := c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go"))
			if tt.resume {
				seq = c.SubscribeToTask(context.Background(), "t1")
			}
			got, err := collect(seq)
			if tt.resume { // the stream opened, sent working and closed
				if !errors.Is(err, a2a.ErrStreamCut) || len(got) != tt.events {
					t.Errorf("events %v, err %v; want %d events after a retry, then ErrStreamCut", got, err, tt.events)
				}
			} else if _, ok := errors.AsType[*a2a.TransportError](err); !ok || !errors.Is(err, context.DeadlineExceeded) || len(got) != tt.events {
				t.Errorf("events %v, err %v; want %d events, then a TransportError matching context.DeadlineExceeded", got, err, tt.events)
			}
			if n := f.count(); n != tt.reqs {
				t.Errorf("%d requests, want %d", n, tt.reqs)
			}
		})
	}
}

// TestAttemptBound: the attempt bound holds for a unary call whatever its
// reply's Content-Type (a tasks/get answered with event-stream headers,
// then nothing), and WithAttemptTimeout(0) sets none: a slow reply that
// does finish is read whole.
func TestAttemptBound(t *testing.T) {
	fakeStream := func(w http.ResponseWriter, r *http.Request, id string) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		http.NewResponseController(w).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second): // a hang guard
		}
	}
	slow := func(w http.ResponseWriter, r *http.Request, id string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		for range 8 {
			io.WriteString(w, " ")
			http.NewResponseController(w).Flush()
			time.Sleep(50 * time.Millisecond)
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"kind":"task","id":"t1","status":{"state":"completed"}}}`, id)
	}
	tests := []struct {
		name  string
		serve func(http.ResponseWriter, *http.Request, string)
		opt   a2a.Option
		ok    bool
	}{
		{"tasks/get answered with event-stream headers", fakeStream, a2a.WithAttemptTimeout(200 * time.Millisecond), false},
		{"a slow reply, bounded", slow, a2a.WithAttemptTimeout(200 * time.Millisecond), false},
		{"a slow reply, no bound", slow, a2a.WithAttemptTimeout(0), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := serveFake(t, mockReply{serve: tt.serve})
			c, _ := a2a.NewClient(srv.URL, tt.opt, a2a.WithMaxRetries(0))
			task, err := c.GetTask(context.Background(), "t1")
			if tt.ok {
				if err != nil || task.Status.State != a2a.TaskStateCompleted {
					t.Errorf("GetTask = %v, %v; want the completed task", task, err)
				}
				return
			}
			if _, ok := errors.AsType[*a2a.TransportError](err); !ok || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("GetTask = %v, %v; want a TransportError matching context.DeadlineExceeded", task, err)
			}
		})
	}
}

// TestStreamIdleSlowReader: the idle bound counts only the time the
// client waits for the server; a caller that spends longer than the bound
// on each event still gets every event.
func TestStreamIdleSlowReader(t *testing.T) {
	up := `data: {"jsonrpc":"2.0","id":%s,"result":{"kind":"status-update","taskId":"t1","contextId":"c","status":{"state":"%s"},"final":%v}}` + "\n\n"
	srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 4 {
			fmt.Fprintf(w, up, id, "working", false)
			http.NewResponseController(w).Flush()
			if i < 3 {
				time.Sleep(20 * time.Millisecond)
			}
		}
		fmt.Fprintf(w, up, id, "completed", true)
	}})
	c, _ := a2a.NewClient(srv.URL, a2a.WithStreamIdleTimeout(150*time.Millisecond))
	n := 0
	for _, err := range c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go")) {
		if err != nil {
			t.Fatalf("after %d events: %v", n, err)
		}
		n++
		time.Sleep(300 * time.Millisecond) // a caller slower than the bound
	}
	if n != 5 {
		t.Errorf("%d events, want 5", n)
	}
}

// TestStreamIdleTrickle: bytes that never make an event do not keep a
// stream open past the idle bound; keep-alive comments do, until the
// event they precede.
func TestStreamIdleTrickle(t *testing.T) {
	const final = `data: {"jsonrpc":"2.0","id":%s,"result":{"kind":"status-update","taskId":"t1","contextId":"c","status":{"state":"completed"},"final":true}}` + "\n\n"
	drip := func(piece string, n int, then string) func(w http.ResponseWriter, r *http.Request, id string) {
		return func(w http.ResponseWriter, r *http.Request, id string) {
			w.Header().Set("Content-Type", "text/event-stream")
			for range n {
				if _, err := io.WriteString(w, piece); err != nil || http.NewResponseController(w).Flush() != nil {
					return
				}
				select {
				case <-r.Context().Done():
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
			fmt.Fprintf(w, then, id)
		}
	}
	t.Run("a byte at a time", func(t *testing.T) {
		srv, _ := serveFake(t, mockReply{serve: drip("d", 200, "")})
		c, _ := a2a.NewClient(srv.URL, a2a.WithStreamIdleTimeout(200*time.Millisecond))
		got, err := collect(c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go")))
		if _, ok := errors.AsType[*a2a.TransportError](err); !ok || !errors.Is(err, context.DeadlineExceeded) || len(got) != 0 {
			t.Errorf("events %v, err %v; want a TransportError matching context.DeadlineExceeded", got, err)
		}
	})
	t.Run("keep-alive comments", func(t *testing.T) {
		srv, _ := serveFake(t, mockReply{serve: drip(": ping\n", 10, final)})
		c, _ := a2a.NewClient(srv.URL, a2a.WithStreamIdleTimeout(200*time.Millisecond))
		got, err := collect(c.SendStreamingMessage(context.Background(), a2a.NewTextMessage("go")))
		if err != nil || len(got) != 1 {
			t.Errorf("events %v, err %v; want the final event", got, err)
		}
	})
}
