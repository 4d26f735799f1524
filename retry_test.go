package a2a_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestRetryPolicy counts the POSTs each method makes against each fault
// (DESIGN.md behaviour 4): tasks/get and tasks/cancel retry 429/502/503/504;
// message/send only 429/503 unless RetrySend; nothing retries 500.
func TestRetryPolicy(t *testing.T) {
	const attempts = 4 // 1 + defaultMaxRetries
	tests := []struct {
		status     int
		retryAfter string
		method     string
		retrySend  bool
		wantPOSTs  int
		wantAfter  time.Duration
	}{
		{502, "", "get", false, attempts, 0},
		{502, "", "cancel", false, attempts, 0},
		{502, "", "send", false, 1, 0},
		{502, "", "send", true, attempts, 0},
		{503, "", "get", false, attempts, 0},
		{503, "", "send", false, attempts, 0},
		{504, "", "get", false, attempts, 0},
		{504, "", "send", false, 1, 0},
		{500, "", "get", false, 1, 0},
		{500, "", "send", true, 1, 0},
		{429, "0", "get", false, attempts, 0},
		{429, "0", "send", false, attempts, 0},
		// A Retry-After beyond the wait cap (2 ms here) is not waited for:
		// the caller gets it in HTTPError.RetryAfter after one POST.
		{429, "3600", "get", false, 1, time.Hour},
		{503, "120", "send", false, 1, 2 * time.Minute},
		{429, "Wed, 21 Oct 2015 07:28:00 GMT", "get", false, attempts, 0}, // a date in the past: retry now
	}
	for _, tt := range tests {
		name := http.StatusText(tt.status) + "/" + tt.method + "/" + tt.retryAfter
		if tt.retrySend {
			name += "/RetrySend"
		}
		t.Run(name, func(t *testing.T) {
			rep := mockReply{status: tt.status, ctype: "text/plain", body: []byte("busy")}
			if tt.retryAfter != "" {
				rep.header = http.Header{"Retry-After": {tt.retryAfter}}
			}
			c, rec := newMock(t, []mockReply{rep})
			ctx := context.Background()
			var err error
			switch tt.method {
			case "get":
				_, err = c.GetTask(ctx, "t")
			case "cancel":
				_, err = c.CancelTask(ctx, "t")
			case "send":
				var opts []a2a.CallOption
				if tt.retrySend {
					opts = append(opts, a2a.RetrySend())
				}
				_, err = c.SendText(ctx, "hi", opts...)
			}
			he, ok := errors.AsType[*a2a.HTTPError](err)
			if !ok || he.StatusCode != tt.status || he.RetryAfter != tt.wantAfter || string(he.Body) != "busy" {
				t.Fatalf("err = %#v, want HTTPError %d retry-after %s", err, tt.status, tt.wantAfter)
			}
			if len(rec.got) != tt.wantPOSTs {
				t.Errorf("POSTs = %d, want %d", len(rec.got), tt.wantPOSTs)
			}
			for i := 1; i < len(rec.got); i++ {
				if !bytes.Equal(rec.got[i].raw, rec.got[0].raw) {
					t.Errorf("retry %d sent different bytes:\n%s\n%s", i, rec.got[i].raw, rec.got[0].raw)
				}
			}
		})
	}
}

// TestRetryThenSuccess: a transient 503 followed by a result gives the result.
func TestRetryThenSuccess(t *testing.T) {
	busy := mockReply{status: 503, body: []byte("busy")}
	c, rec := newMock(t, []mockReply{busy, busy, rpcReply(fixture(t, "send_completed_entity.json"))})
	task, err := c.SendText(context.Background(), "这个二维码是什么？")
	if err != nil || task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("SendText = %v, %v", task, err)
	}
	if len(rec.got) != 3 || !bytes.Equal(rec.got[0].raw, rec.got[2].raw) {
		t.Errorf("POSTs = %d; identical bodies: %v", len(rec.got), bytes.Equal(rec.got[0].raw, rec.got[2].raw))
	}
}

// countingTransport counts round trips over a real transport.
type countingTransport struct {
	n  atomic.Int32
	rt http.RoundTripper
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.rt.RoundTrip(r)
}

// closedPortURL returns a loopback URL on which nothing listens.
func closedPortURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/a2a/jsonrpc"
}

// TestConnectionRefused: every method retries a refused connection (the
// agent cannot have acted), and the final error is a *TransportError
// wrapping ECONNREFUSED.
func TestConnectionRefused(t *testing.T) {
	url := closedPortURL(t)
	for _, method := range []string{"send", "get", "cancel"} {
		ct := &countingTransport{rt: http.DefaultTransport.(*http.Transport).Clone()}
		c, err := a2a.NewClient(url, a2a.WithHTTPClient(&http.Client{Transport: ct}), a2a.WithRetryWait(time.Millisecond, 2*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		switch method {
		case "send":
			_, err = c.SendText(ctx, "hi")
		case "get":
			_, err = c.GetTask(ctx, "t")
		case "cancel":
			_, err = c.CancelTask(ctx, "t")
		}
		te, ok := errors.AsType[*a2a.TransportError](err)
		if !ok || !errors.Is(err, syscall.ECONNREFUSED) {
			t.Fatalf("%s: err = %v, want *TransportError wrapping ECONNREFUSED", method, err)
		}
		if got := ct.n.Load(); got != 4 || te.Attempts != 4 {
			t.Errorf("%s: round trips %d, Attempts %d; want 4", method, got, te.Attempts)
		}
	}
}

// TestResetAfterRequest: when the connection drops after the agent read the
// request, tasks/get retries but message/send does not (the agent may have
// acted) unless RetrySend is given, and neither does creating a push config.
func TestResetAfterRequest(t *testing.T) {
	var hits atomic.Int32
	srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, _ string) {
		hits.Add(1)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.(*net.TCPConn).SetLinger(0)
			conn.Close()
		}
	}})
	for _, tt := range []struct {
		method string
		opts   []a2a.CallOption
		want   int32
	}{{"get", nil, 4}, {"send", nil, 1}, {"send", []a2a.CallOption{a2a.RetrySend()}, 4}, {"create push config", nil, 1}} {
		hits.Store(0)
		c, _ := a2a.NewClient(srv.URL, a2a.WithRetryWait(time.Millisecond, 2*time.Millisecond))
		var err error
		switch tt.method {
		case "get":
			_, err = c.GetTask(context.Background(), "t")
		case "create push config":
			// A second create after the agent may have acted could
			// register the webhook twice: sent once, as a send is.
			_, err = c.CreateTaskPushNotificationConfig(context.Background(), a2a.TaskPushNotificationConfig{TaskID: "t",
				PushNotificationConfig: a2a.PushNotificationConfig{URL: "https://hook.example/a2a"}})
		default:
			_, err = c.SendText(context.Background(), "hi", tt.opts...)
		}
		if _, ok := errors.AsType[*a2a.TransportError](err); !ok {
			t.Errorf("%s: err = %v, want *TransportError", tt.method, err)
		}
		if got := hits.Load(); got != tt.want {
			t.Errorf("%s %d opts: server saw %d requests, want %d", tt.method, len(tt.opts), got, tt.want)
		}
	}
}

// TestContextCancelDuringRetryWait: a cancelled ctx ends the call during a
// backoff wait with ctx's error, not the transport's. The server asks for
// an hour, within the cap, so returning at all (the minute below only
// catches a hang) shows the wait was cut short.
func TestContextCancelDuringRetryWait(t *testing.T) {
	busy := mockReply{status: 503, body: []byte("busy"), header: http.Header{"Retry-After": {"3600"}}}
	c, rec := newMock(t, []mockReply{busy}, a2a.WithRetryWait(time.Millisecond, time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.GetTask(ctx, "t")
		done <- err
	}()
	for rec.count() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("GetTask still waiting a minute after its ctx was cancelled")
	}
	if n := rec.count(); n != 1 {
		t.Errorf("%d requests, want 1 (no retry after the cancellation)", n)
	}
}

// TestSendNotRetriedWhenAgentAnswered: a 429 or 503 whose body is a JSON-RPC
// response came from the agent; message/send is not sent again and the body
// is believed (a failed task stays a value).
func TestSendNotRetriedWhenAgentAnswered(t *testing.T) {
	failed := fixture(t, "send_failed.json")
	rpcErr := []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"overloaded"}}`)
	for _, status := range []int{429, 503} {
		rep := rpcReply(failed)
		rep.status = status
		c, rec := newMock(t, []mockReply{rep})
		task, err := c.SendText(context.Background(), "hi")
		if err != nil || task.Status.State != a2a.TaskStateFailed {
			t.Errorf("%d with a result: %v, %v", status, task, err)
		}
		if len(rec.got) != 1 {
			t.Errorf("%d with a result: %d POSTs, want 1", status, len(rec.got))
		}
		rep = rpcReply(rpcErr)
		rep.status = status
		c, rec = newMock(t, []mockReply{rep})
		if _, err := c.SendText(context.Background(), "hi"); !errors.Is(err, a2a.ErrInternal) || len(rec.got) != 1 {
			t.Errorf("%d with an error: %v after %d POSTs, want ErrInternal after 1", status, err, len(rec.got))
		}
	}
}

// retryOnce answers the first request with 429 (with the Retry-After
// retryAfter returns then, unless empty) and the next with the completed
// task.
func retryOnce(retryAfter func() string) func(w http.ResponseWriter, r *http.Request, id string) {
	var mu sync.Mutex
	n := 0
	return func(w http.ResponseWriter, r *http.Request, id string) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			if ra := retryAfter(); ra != "" {
				w.Header().Set("Retry-After", ra)
			}
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, strings.ReplaceAll(rpc(completedTask), "{{id}}", id))
	}
}

// retryRows are replies a call may or may not send again after: 429, 502, 503, 504, Retry-After, broken connections (the retry policy).
func retryRows() []hostileRow {
	return []hostileRow{
		{name: "plain text 503 on tasks/get, retried", status: 503, header: map[string]string{"Content-Type": "text/plain"}, body: `busy`, reqs: 4,
			want: all(httpErr(a2a.HTTPError{StatusCode: 503, ContentType: "text/plain"}, "busy"), sameBodies)},
		{name: "HTML 502 on message/send, not retried", call: "send", status: 502, header: map[string]string{"Content-Type": "text/html"}, body: `<html>Bad Gateway</html>`,
			want: httpErr(a2a.HTTPError{StatusCode: 502, ContentType: "text/html"}, "<html>Bad")},
		{name: "HTML 502 on tasks/get, retried", status: 502, header: map[string]string{"Content-Type": "text/html"}, body: `<html>Bad Gateway</html>`, reqs: 4,
			want: httpErr(a2a.HTTPError{StatusCode: 502, ContentType: "text/html"}, "<html>Bad")},
		{name: "503 with a result but no jsonrpc on message/send, not retried", call: "send", status: 503, body: `{"id":{{id}},"result":` + completedTask + `}`,
			want: httpErr(a2a.HTTPError{StatusCode: 503, ContentType: "text/plain; charset=utf-8"}, `{"id":`)},
		{name: "429 with a BOM and JSON-RPC on message/send, not retried", call: "send", status: 429, body: "\ufeff" + rpcError(`{"code":-32603,"message":"x"}`),
			want: httpErr(a2a.HTTPError{StatusCode: 429, ContentType: "text/plain; charset=utf-8"}, "\ufeff")},
		{name: "503 with a JSON-RPC batch on message/send, not retried", call: "send", status: 503, body: `[` + rpc(completedTask) + `]`,
			want: httpErr(a2a.HTTPError{StatusCode: 503, ContentType: "text/plain; charset=utf-8"}, `[{"jsonrpc"`)},
		{name: "503 with a gateway's JSON error on message/send, retried", call: "send", status: 503, reqs: 4, body: `{"error":{"code":"UNAVAILABLE"}}`,
			want: all(httpErr(a2a.HTTPError{StatusCode: 503, ContentType: "text/plain; charset=utf-8"}, `{"error"`), sameBodies)},
		{name: "503 cut off mid JSON-RPC on message/send, not retried", call: "send", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":"+id+",\"result\":{\"kind\":\"ta", true)
		}, want: transportErr(1)},
		{name: "Retry-After in seconds under the cap", reqs: 2, opts: []a2a.Option{a2a.WithRetryWait(time.Millisecond, 2*time.Second)},
			serve: retryOnce(func() string { return "1" }), want: all(isTask(wantTask(nil)), sameBodies, waited(900*time.Millisecond))},
		{name: "Retry-After an HTTP date ahead, under the cap", reqs: 2, opts: []a2a.Option{a2a.WithRetryWait(time.Millisecond, 4*time.Second)},
			serve: retryOnce(func() string { return time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat) }),
			want:  all(isTask(wantTask(nil)), waited(500*time.Millisecond))},
		{name: "Retry-After 0", reqs: 2, serve: retryOnce(func() string { return "0" }), want: isTask(wantTask(nil))},
		{name: "Retry-After 0 still waits the minimum", reqs: 2, opts: []a2a.Option{a2a.WithRetryWait(200*time.Millisecond, time.Second)},
			serve: retryOnce(func() string { return "0" }), want: all(isTask(wantTask(nil)), waited(200*time.Millisecond))},
		{name: "Retry-After an HTTP date in the past", reqs: 2, serve: retryOnce(func() string { return "Wed, 21 Oct 2015 07:28:00 GMT" }), want: isTask(wantTask(nil))},
		{name: "Retry-After an HTTP date an hour ahead, over the cap", status: 503, header: map[string]string{"Retry-After": time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)},
			want: func(t *testing.T, o outcome) {
				he, ok := errors.AsType[*a2a.HTTPError](o.err)
				if !ok || he.StatusCode != 503 || he.RetryAfter < 59*time.Minute || he.RetryAfter > time.Hour {
					t.Errorf("err = %#v, want HTTPError 503 with RetryAfter about 1h", o.err)
				}
			}},
		{name: "Retry-After negative, ignored", reqs: 2, serve: retryOnce(func() string { return "-5" }), want: isTask(wantTask(nil))},
		{name: "Retry-After garbage, ignored", reqs: 2, serve: retryOnce(func() string { return "soon, maybe" }), want: isTask(wantTask(nil))},
		{name: "Retry-After absurdly large, not retried", status: 429, header: map[string]string{"Retry-After": "99999999999999999999999"},
			want: httpErr(a2a.HTTPError{StatusCode: 429, RetryAfter: 24 * time.Hour}, "")},
		{name: "Retry-After an hour, not retried", call: "send", status: 503, header: map[string]string{"Retry-After": "3600"},
			want: httpErr(a2a.HTTPError{StatusCode: 503, RetryAfter: time.Hour}, "")},
		{name: "429 without body on message/send, retried", call: "send", reqs: 2, serve: retryOnce(func() string { return "" }), want: all(isTask(wantTask(nil)), sameBodies)},
		{name: "429 with a JSON-RPC body on message/send, not retried", call: "send", status: 429, body: rpcError(`{"code":-32603,"message":"slow down"}`),
			want: rpcErr(a2a.RPCError{Code: -32603, Message: "slow down", StatusCode: 429})},
		{name: "body cut off mid-JSON on tasks/get, retried", reqs: 4, serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":"+id+",\"res", false)
		}, want: all(transportErr(4), func(t *testing.T, o outcome) {
			if !errors.Is(o.err, io.ErrUnexpectedEOF) {
				t.Errorf("err = %v, want it to wrap io.ErrUnexpectedEOF", o.err)
			}
		})},
		{name: "body cut off mid-JSON on message/send, not retried", call: "send", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":"+id+",\"res", false)
		}, want: transportErr(1)},
		{name: "connection reset mid-body", reqs: 4, serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "HTTP/1.1 200 OK\r\nContent-Length: 400\r\n\r\n{\"jsonrpc\":\"2.0\",", true)
		}, want: transportErr(4)},
		{name: "connection reset before a reply on message/send", call: "send", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "", true)
		}, want: transportErr(1)},
	}
}

// TestRetryFaults runs the retry rows of the hostile-server table.
func TestRetryFaults(t *testing.T) { runRows(t, retryRows()) }

// TestNoSuchHostNotRetried: a host name that does not resolve fails at
// once, without the retries a passing fault gets.
func TestNoSuchHostNotRetried(t *testing.T) {
	calls := 0
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		calls++
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "agent.invalid", IsNotFound: true}}
	})
	c, err := a2a.NewClient("https://agent.invalid/a2a", a2a.WithHTTPClient(&http.Client{Transport: rt}), a2a.WithRetryWait(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	for _, call := range []func() error{
		func() error { _, err := c.GetTask(context.Background(), "t1"); return err },
		func() error { _, err := c.SendText(context.Background(), "hi"); return err },
	} {
		calls = 0
		var te *a2a.TransportError
		if err := call(); !errors.As(err, &te) || calls != 1 || te.Attempts != 1 {
			t.Errorf("%v after %d attempts; want a TransportError after 1", err, calls)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
