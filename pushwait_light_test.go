package a2a_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"runtime"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"go.uber.org/goleak"
)

// TestPushWaitPendingIsLight: a pending wait costs memory, not
// goroutines: 2,000 waits (half with a ctx that can end, half with
// context.Background) add no goroutine beyond the scheduler's one clock,
// and hold less than 1.5 KiB of heap each (the send's answer, the
// receiver's entry and the fallback time included; about 1 KiB
// measured); Close ends them all and leaves no goroutine.
func TestPushWaitPendingIsLight(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	c := sendAgent(t, nil)
	recv, err := a2a.NewPushReceiver("http://receiver.test/hook")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	msg := a2a.NewTextMessage("go")
	w0, err := recv.SendMessage(ctx, c, msg) // the client's and receiver's lazy state
	if err != nil {
		t.Fatal(err)
	}
	w0.Stop()
	const n = 2000
	waits := make([]*a2a.PushWait, n)
	g0, h0 := runtime.NumGoroutine(), heapNow()
	for i := range waits {
		wctx := ctx
		if i%2 == 1 {
			wctx = context.Background()
		}
		if waits[i], err = recv.SendMessage(wctx, c, msg); err != nil {
			t.Fatal(err)
		}
	}
	h1, g1 := heapNow(), runtime.NumGoroutine()
	if recv.Pending() != n {
		t.Fatalf("pending %d, want %d", recv.Pending(), n)
	}
	if g1-g0 > 1 {
		t.Errorf("%d pending waits added %d goroutines, want at most the scheduler's clock", n, g1-g0)
	}
	if per := float64(h1-h0) / n; per > 1536 {
		t.Errorf("a pending wait holds %.0f B of heap, want at most 1.5 KiB", per)
	}
	recv.Close()
	for _, w := range waits {
		if _, err := w.Result(); err != a2a.ErrReceiverClosed {
			t.Fatalf("after Close: %v, want ErrReceiverClosed", err)
		}
	}
}

// TestPushWaitDoneEitherWay: Done asked for before the end is closed by
// it; asked for after, it is closed already; Wait returns either way.
func TestPushWaitDoneEitherWay(t *testing.T) {
	c := sendAgent(t, nil)
	recv, err := a2a.NewPushReceiver("http://receiver.test/hook")
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	before, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	after, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	done := before.Done()
	select {
	case <-done:
		t.Fatal("Done closed before the wait ended")
	default:
	}
	before.Stop()
	after.Stop()
	for name, ch := range map[string]<-chan struct{}{"asked before": done, "asked after": after.Done()} {
		select {
		case <-ch:
		default:
			t.Errorf("Done %s the end is not closed", name)
		}
	}
	if _, err := after.Wait(context.Background()); err != a2a.ErrWaitStopped {
		t.Errorf("Wait: %v, want ErrWaitStopped", err)
	}
}

// TestPushWaitEndsWithItsCtx: a wait whose ctx ends, pending or while its
// fallback poll runs, ends with the ctx's cause, wrapped, keeping its
// last task; one whose ctx cannot end waits on.
func TestPushWaitEndsWithItsCtx(t *testing.T) {
	before := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, before) }) // after the agent's cleanup

	c := plainAgent(t, &a2a.Task{ID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}, nil)
	for _, fallback := range []time.Duration{time.Hour, time.Millisecond} {
		recv, err := a2a.NewPushReceiver("http://receiver.test/hook", a2a.PushFallbackAfter(fallback))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancelCause(context.Background())
		w, err := recv.SendMessage(ctx, c, a2a.NewTextMessage("go"), a2a.PollInterval(time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		calm, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
		if err != nil {
			t.Fatal(err)
		}
		cause := io.ErrClosedPipe
		cancel(cause)
		res, err := w.Wait(context.Background())
		if !errors.Is(err, cause) || !strings.Contains(err.Error(), "push wait for task task-1 (last state working)") {
			t.Errorf("fallback %v: err = %v, want the ctx's cause wrapped, naming the task and its last state", fallback, err)
		}
		if task, ok := res.(*a2a.Task); !ok || task.ID != "task-1" {
			t.Errorf("fallback %v: result %v, want the last task", fallback, res)
		}
		if _, err := calm.Result(); err != a2a.ErrWaitPending {
			t.Errorf("fallback %v: a wait with context.Background: %v, want pending", fallback, err)
		}
		recv.Close()
	}
}

// TestPushReceiverKeepsIdleConnections: the read timeout bounds a body,
// not the connection after it: an agent that posts a notification
// (plain or gzip), stays idle past the read timeout and posts again
// reuses its connection, and both are taken.
func TestPushReceiverKeepsIdleConnections(t *testing.T) {
	const readTimeout = 100 * time.Millisecond
	recv := newReceiver(t, a2a.PushReadTimeout(readTimeout))
	w, _, url, token := longWait(t, recv, a2a.ProtocolV03)
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	io.WriteString(zw, statusBody(a2a.ProtocolV03, w.TaskID(), "working"))
	zw.Close()
	post := func(body []byte, gzipped bool) (status int, reused bool) {
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("X-A2A-Notification-Token", token)
		if gzipped {
			req.Header.Set("Content-Encoding", "gzip")
		}
		req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
			GotConn: func(info httptrace.GotConnInfo) { reused = info.Reused },
		}))
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, reused
	}
	plain := []byte(statusBody(a2a.ProtocolV03, w.TaskID(), "working"))
	for i, tt := range []struct {
		body    []byte
		gzipped bool
	}{{plain, false}, {plain, false}, {gz.Bytes(), true}, {plain, false}} {
		if i > 0 {
			time.Sleep(3 * readTimeout) // idle past the read timeout
		}
		status, reused := post(tt.body, tt.gzipped)
		if status != http.StatusNoContent {
			t.Fatalf("notification %d: status %d", i, status)
		}
		if i > 0 && !reused {
			t.Errorf("notification %d came on a new connection: the idle one was cut", i)
		}
	}
}

// TestPushReceiverRefusalRedactsToken: a refused notification whose body
// spells the wait's token is answered and logged without it (the
// redactor with the token is made for the refusal).
func TestPushReceiverRefusalRedactsToken(t *testing.T) {
	logger, logged := newJSONLog()
	recv := newReceiver(t, a2a.PushLogger(logger))
	w, _, url, token := longWait(t, recv, a2a.ProtocolV03)
	for _, body := range []string{
		`{"kind":"` + token + `","taskId":"` + w.TaskID() + `"}`,        // a kind it does not know
		`{"kind":"status-update","taskId":"` + token + `","status":{}}`, // another task
	} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("X-A2A-Notification-Token", token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		answer, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusNoContent {
			t.Fatalf("%s: taken", body)
		}
		if strings.Contains(string(answer), token) {
			t.Errorf("answer holds the token: %q", answer)
		}
	}
	recv.Close()
	out := logged()
	if !strings.Contains(out, "refused") {
		t.Fatalf("no refusal logged: %q", out)
	}
	if strings.Contains(out, token) {
		t.Errorf("log holds the token: %q", out)
	}
}
