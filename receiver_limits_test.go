package a2a_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// gzipJSON is a v0.3 task notification about task-1 whose metadata pads
// it to about n bytes with filler (repeated), gzipped: kilobytes on the
// wire that inflate to n.
func gzipJSON(t *testing.T, n int, filler string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	fmt.Fprintf(zw, `{"kind":"task","id":"task-1","contextId":"ctx-1","status":{"state":"working"},"metadata":{"pad":[`)
	for written := 0; written < n; written += len(filler) + 1 {
		if written > 0 {
			zw.Write([]byte(","))
		}
		zw.Write([]byte(filler))
	}
	zw.Write([]byte("]}}"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// heapObjects is the bytes of heap objects, live or not yet swept.
func heapObjects() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestPushReceiverBoundsMemory: 64 token holders posting at once bodies
// that inflate (gzip bombs over the cap, bombs of small JSON values under
// it, plain bodies of megabytes) cost the receiver no more than its
// in-flight budget (64 MiB by default) and their connections; the peak of
// the heap is measured while they post. Each gets one of the receiver's
// answers (503 with Retry-After among them), and an honest notification
// is taken after the storm.
func TestPushReceiverBoundsMemory(t *testing.T) {
	recv := newReceiver(t)
	w, _, url, token := longWait(t, recv, a2a.ProtocolV03)
	var plain bytes.Buffer
	fmt.Fprintf(&plain, `{"kind":"task","id":"task-1","contextId":"ctx-1","status":{"state":"working"},"metadata":{"pad":"%s"}}`, strings.Repeat("z", 3<<20))
	bodies := []struct {
		gzip bool
		data []byte
	}{
		{true, gzipJSON(t, 9<<20, `"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"`)}, // over the cap (and under the client's)
		{true, gzipJSON(t, 4<<20-1<<10, `{}`)},                         // under the cap: a million objects to decode
		{false, plain.Bytes()},
		{true, gzipJSON(t, 3<<20, `"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"`)},
	}

	const senders, rounds = 64, 2
	const budget = 64 << 20
	// The bound: twice (the collector lets garbage grow as large as the
	// live heap before it runs) what the budget lets the receiver hold
	// and each connection's own buffers (both ends), and 32 MiB for the
	// rest of the process.
	runtime.GC()
	base := heapObjects()
	bound := base + 2*(budget+senders*(256<<10)) + 32<<20

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var peak atomic.Uint64
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for ctx.Err() == nil {
			n := heapObjects()
			if n > peak.Load() {
				peak.Store(n)
			}
			if n > bound {
				cancel() // over already: stop the storm rather than grow
			}
			time.Sleep(200 * time.Microsecond)
		}
	}()

	tr := &http.Transport{MaxIdleConnsPerHost: senders}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var mu sync.Mutex
	statuses := map[int]int{}
	var noRetryAfter atomic.Int32
	var wg sync.WaitGroup
	for i := range senders {
		wg.Go(func() {
			for j := range rounds {
				b := bodies[(i+j)%len(bodies)]
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b.data))
				req.Header.Set("X-A2A-Notification-Token", token)
				if b.gzip {
					req.Header.Set("Content-Encoding", "gzip")
				}
				resp, err := client.Do(req)
				if err != nil {
					return // the storm was stopped
				}
				resp.Body.Close()
				if resp.StatusCode == http.StatusServiceUnavailable && resp.Header.Get("Retry-After") == "" {
					noRetryAfter.Add(1)
				}
				mu.Lock()
				statuses[resp.StatusCode]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	stopped := ctx.Err() != nil
	cancel()
	<-sampled
	t.Logf("heap objects: %d MiB before, peak %d MiB, bound %d MiB; answers %v",
		base>>20, peak.Load()>>20, bound>>20, statuses)
	if stopped || peak.Load() > bound {
		t.Fatalf("heap peaked over %d MiB (the bound) with %d senders", bound>>20, senders)
	}
	for status := range statuses {
		switch status {
		case http.StatusNoContent, http.StatusRequestEntityTooLarge, http.StatusServiceUnavailable, http.StatusBadRequest:
		default:
			t.Errorf("answer %d", status)
		}
	}
	if statuses[http.StatusRequestEntityTooLarge] == 0 {
		t.Errorf("no bomb was answered 413: %v", statuses)
	}
	if n := noRetryAfter.Load(); n > 0 {
		t.Errorf("%d answers 503 without Retry-After", n)
	}

	// After the storm, the budget is whole again: an honest notification
	// is taken.
	if st := notify(t, url, "X-A2A-Notification-Token", token, taskBody(a2a.ProtocolV03, "task-1", "completed")); st != http.StatusNoContent {
		t.Fatalf("honest notification after the storm: status %d", st)
	}
	if res, err := w.Wait(context.Background()); err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
		t.Fatalf("%v %v", res, err)
	}
}

// TestPushReceiverBudgetFull: with the budget held by notifications
// still arriving, another token holder is answered 503 with Retry-After
// at once, its body unread; once they are done, notifications are taken.
func TestPushReceiverBudgetFull(t *testing.T) {
	// The least budget a cap of 1 KiB allows: 7 KiB + 2 MiB + 68 KiB.
	const budget = 7<<10 + 2<<20 + 68<<10
	recv := newReceiver(t, a2a.PushMaxBytes(1<<10), a2a.PushMaxInflightBytes(budget), a2a.PushReadTimeout(time.Minute))
	w, _, url, token := longWait(t, recv, a2a.ProtocolV03)
	addr := strings.TrimPrefix(strings.TrimSuffix(url, "/push"), "http://")

	// Holders fill the budget: their headers are read, their bodies are
	// not all there (each is charged 64 KiB and a buffer).
	var holders []net.Conn
	closeHolders := func() {
		for _, c := range holders {
			c.Close()
		}
	}
	defer closeHolders()
	for range budget/(64<<10) + 1 {
		hold, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		holders = append(holders, hold)
		fmt.Fprintf(hold, "POST /push HTTP/1.1\r\nHost: x\r\nX-A2A-Notification-Token: %s\r\nContent-Length: 1000\r\n\r\n{", token)
	}
	// Another arrives while they hold, until their admissions show.
	post := func(state a2a.TaskState) *http.Response {
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write([]byte(taskBody(a2a.ProtocolV03, "task-1", state)))
		zw.Close()
		req, _ := http.NewRequest(http.MethodPost, url, &gz)
		req.Header.Set("X-A2A-Notification-Token", token)
		req.Header.Set("Content-Encoding", "gzip") // no length once decoded: read in chunks
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	resp := eventually(t, func() *http.Response { return post(a2a.TaskStateWorking) }, http.StatusServiceUnavailable)
	if resp.Header.Get("Retry-After") != "1" {
		t.Errorf("503 with Retry-After %q, want 1", resp.Header.Get("Retry-After"))
	}
	// The holders' charges are given back when their reads end, and a
	// notification of the cap fits the least budget alone.
	closeHolders()
	eventually(t, func() *http.Response { return post(a2a.TaskStateCompleted) }, http.StatusNoContent)
	if res, err := w.Wait(context.Background()); err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
		t.Fatalf("%v %v", res, err)
	}
}

// eventually calls post until it answers want, while it answers 204 or
// 503 (the state it waits for may take the server a moment), for at most
// 5 seconds, a guard against a hang rather than a measure.
func eventually(t *testing.T, post func() *http.Response, want int) *http.Response {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		resp := post()
		switch resp.StatusCode {
		case want:
			return resp
		case http.StatusNoContent, http.StatusServiceUnavailable:
		default:
			t.Fatalf("status %d, want %d", resp.StatusCode, want)
		}
	}
	t.Fatalf("no %d in 5 s", want)
	return nil
}

// TestPushReceiverReadTimeout: a token holder whose body trickles, or
// stops, is answered 408 once the read timeout has passed, by a server
// that set no ReadTimeout; also when the ResponseWriter cannot set a
// read deadline (a wrapper), for the sender that trickles. A sender
// refused before its body is read is not held either: the connection is
// closed after the answer.
func TestPushReceiverReadTimeout(t *testing.T) {
	for _, tt := range []struct {
		name    string
		wrap    bool
		trickle bool
		token   bool
		want    int
	}{
		{"silent", false, false, true, http.StatusRequestTimeout},
		{"trickling", false, true, true, http.StatusRequestTimeout},
		{"trickling, behind a wrapper", true, true, true, http.StatusRequestTimeout},
		// Refused before its body is read: the connection is closed,
		// not held while net/http reads the rest.
		{"no token, trickling", false, true, false, http.StatusUnauthorized},
		{"no token, silent", false, false, false, http.StatusUnauthorized},
	} {
		t.Run(tt.name, func(t *testing.T) {
			recv, err := a2a.NewPushReceiver("http://127.0.0.1:1/push", a2a.PushReadTimeout(100*time.Millisecond))
			if err != nil {
				t.Fatal(err)
			}
			defer recv.Close()
			var h http.Handler = recv
			if tt.wrap {
				// No Unwrap: http.ResponseController cannot reach the connection.
				h = http.HandlerFunc(func(rw http.ResponseWriter, req *http.Request) {
					recv.ServeHTTP(struct{ http.ResponseWriter }{rw}, req)
				})
			}
			ts := httptest.NewServer(h) // no ReadTimeout
			defer ts.Close()
			token := "no-such-token"
			if tt.token {
				_, _, _, token = longWait(t, recv, a2a.ProtocolV03) // its URL is not served: only the token counts
			}

			conn, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			fmt.Fprintf(conn, "POST /push HTTP/1.1\r\nHost: x\r\nX-A2A-Notification-Token: %s\r\nContent-Length: 100000\r\n\r\n{", token)
			done := make(chan struct{})
			var wg sync.WaitGroup
			defer wg.Wait()
			defer close(done)
			if tt.trickle {
				wg.Go(func() {
					tick := time.NewTicker(10 * time.Millisecond)
					defer tick.Stop()
					for {
						select {
						case <-done:
							return
						case <-tick.C:
							if _, err := conn.Write([]byte(" ")); err != nil {
								return
							}
						}
					}
				})
			}
			// A guard, so that a receiver that waits for ever fails the
			// test instead of hanging it.
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			br := bufio.NewReader(conn)
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.want)
			}
			// Then the receiver's side closes the connection (behind the
			// wrapper net/http reads on, up to 256 KiB: only the server's
			// ReadTimeout bounds that).
			if tt.wrap {
				return
			}
			// A reset is a close too (the server closed with bytes unread).
			if n, err := io.Copy(io.Discard, br); err != nil && !errors.Is(err, syscall.ECONNRESET) {
				t.Fatalf("connection not closed (%d bytes more): %v", n, err)
			}
		})
	}
}

// TestPushReceiverLogsRefusalsAtABoundedRate: ten thousand POSTs without
// a valid token produce a bounded number of log records, and a summary
// counts those not logged, so that every refusal is accounted for.
func TestPushReceiverLogsRefusalsAtABoundedRate(t *testing.T) {
	log, lines := newCapture()
	recv, err := a2a.NewPushReceiver("http://127.0.0.1:1/push", a2a.PushLogger(log))
	if err != nil {
		t.Fatal(err)
	}
	const n = 10000
	for i := range n {
		req := httptest.NewRequest(http.MethodPost, "/push", strings.NewReader("{}"))
		if i%2 == 0 {
			req.Header.Set("X-A2A-Notification-Token", fmt.Sprintf("guess-%d", i))
		}
		rec := httptest.NewRecorder()
		recv.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized {
			t.Fatalf("status %d", rec.Code)
		}
	}
	recv.Close() // logs the count not logged yet
	logged, counted := 0, 0
	records := lines()
	for _, l := range records {
		switch {
		case strings.HasPrefix(l, "a2a push notification refused "):
			logged++
		case strings.HasPrefix(l, "a2a push notifications refused and not logged "):
			var c int
			if _, err := fmt.Sscanf(l[strings.Index(l, "count="):], "count=%d", &c); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			counted += c
		default:
			t.Errorf("record %q", l)
		}
	}
	if len(records) > 50 {
		t.Errorf("%d records for %d refusals", len(records), n)
	}
	if logged+counted != n {
		t.Errorf("%d refusals logged and %d counted, want %d in all", logged, counted, n)
	}
}

// TestPushReceiverHoldsChargeThroughHook: a notification's charge against
// the in-flight budget is held while PushOnNotification runs (the decoded
// event is alive until then), so with a budget that fits one notification,
// a second one is answered 503 while a slow hook holds the first.
func TestPushReceiverHoldsChargeThroughHook(t *testing.T) {
	const budget = 7<<10 + 2<<20 + 68<<10 // the least for a 1 KiB cap
	entered, release := make(chan struct{}, 1), make(chan struct{})
	recv := newReceiver(t, a2a.PushMaxBytes(1<<10), a2a.PushMaxInflightBytes(budget),
		a2a.PushOnNotification(func(_ context.Context, n *a2a.PushNotification) error {
			if e, ok := n.Event.(*a2a.TaskStatusUpdateEvent); ok && e.Status.Message != nil && e.Status.Message.Text() == "hold" {
				entered <- struct{}{}
				<-release
			}
			return nil
		}))
	w, _, url, token := longWait(t, recv, a2a.ProtocolV03)
	post := func(text string) *http.Response {
		body := `{"kind":"status-update","taskId":"` + w.TaskID() + `","contextId":"ctx-1","final":false,"status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"m","parts":[{"kind":"text","text":"` + text + `"}]}}}`
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		req.Header.Set("X-A2A-Notification-Token", token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return nil
		}
		resp.Body.Close()
		return resp
	}
	first := make(chan *http.Response, 1)
	for held := false; !held; {
		go func() { first <- post("hold") }()
		select {
		case <-entered:
			held = true
		case resp := <-first: // the agent's own notification held the budget: again
			if resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
				t.Fatalf("held notification answered %v before its hook ran", resp)
			}
		}
	}
	if resp := post("second"); resp == nil || resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("second notification while the hook holds the first: %v, want 503 with Retry-After", resp)
	}
	close(release)
	if resp := <-first; resp == nil || resp.StatusCode != http.StatusNoContent {
		t.Errorf("held notification: %v, want 204", resp)
	}
	if resp := post("after"); resp == nil || resp.StatusCode != http.StatusNoContent {
		t.Errorf("notification after the hook returned: %v, want 204 (the charge was given back)", resp)
	}
}

// TestPushReceiverRetiredTokenClosesUnread: a notification for a wait
// that has ended is answered 204 without reading its body, and the
// connection is closed, so that net/http does not read the rest of a body
// that may never come.
func TestPushReceiverRetiredTokenClosesUnread(t *testing.T) {
	recv := newReceiver(t)
	w, _, url, token := longWait(t, recv, a2a.ProtocolV03)
	w.Stop()
	<-w.Done()
	u, _ := neturl.Parse(url)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nX-A2A-Notification-Token: %s\r\nContent-Length: 100000\r\n\r\n{", u.Path, token)
	conn.SetReadDeadline(time.Now().Add(5 * time.Second)) // a guard against a hang, not a measure
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusNoContent || !resp.Close {
		t.Errorf("status %d, Connection close %v; want 204 closing the connection", resp.StatusCode, resp.Close)
	}
}

// TestPushReceiverLogIsInert: a refusal's record holds the sender's task
// id and reason with their control, C1 and bidi characters escaped, even
// through a handler that writes strings as they are (slog.JSONHandler
// leaves C1 and bidi characters raw).
func TestPushReceiverLogIsInert(t *testing.T) {
	logger, logged := newJSONLog()
	recv := newReceiver(t, a2a.PushLogger(logger))
	_, _, url, token := longWait(t, recv, a2a.ProtocolV03)
	evil := "other\u202egnp.exe\u009b31m\u200b\x1b]8;;http://x\x07"
	body := `{"kind":"status-update","taskId":"` + strings.ReplaceAll(strings.ReplaceAll(evil, "\x1b", `\u001b`), "\x07", `\u0007`) + `","contextId":"c","final":false,"status":{"state":"working"}}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("X-A2A-Notification-Token", token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("status %d, want 403 (another task)", resp.StatusCode)
	}
	recv.Close()
	out := logged()
	if !strings.Contains(out, "another") && !strings.Contains(out, "task") {
		t.Fatalf("no refusal logged: %q", out)
	}
	for _, raw := range []string{"\u202e", "\u009b", "\u200b", "\x1b", "\x07"} {
		if strings.Contains(out, raw) {
			t.Errorf("log holds %q raw: %q", raw, out)
		}
	}
}

// newJSONLog returns a logger writing JSON records at debug level and up
// (as slog.JSONHandler does for users), and the func that reads what it
// wrote so far.
func newJSONLog() (*slog.Logger, func() string) {
	var buf bytes.Buffer
	mu := new(sync.Mutex)
	h := slog.NewJSONHandler(&lockedWriter{w: &buf, mu: mu}, &slog.HandlerOptions{Level: slog.LevelDebug})
	return slog.New(h), func() string {
		mu.Lock()
		defer mu.Unlock()
		return buf.String()
	}
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestCloseEndsHookContexts: a PushOnNotification hook that waits on its
// context (as a database write would) while the sender keeps its
// connection open does not hold Close: Close ends the hook's context,
// with ErrReceiverClosed as its cause, and returns once the hook has.
func TestCloseEndsHookContexts(t *testing.T) {
	entered, cause := make(chan struct{}, 1), make(chan error, 1)
	recv, err := a2a.NewPushReceiver("http://127.0.0.1:1/push", a2a.PushOnNotification(func(ctx context.Context, n *a2a.PushNotification) error {
		if e, ok := n.Event.(*a2a.TaskStatusUpdateEvent); !ok || e.Status.Message == nil || e.Status.Message.Text() != "hold" {
			return nil
		}
		entered <- struct{}{}
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return ctx.Err()
	}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(recv)
	defer srv.Close()
	w, _, _, token := longWait(t, recv, a2a.ProtocolV03)
	body := `{"kind":"status-update","taskId":"` + w.TaskID() + `","contextId":"ctx-1","final":false,"status":{"state":"working","message":{"kind":"message","role":"agent","messageId":"m","parts":[{"kind":"text","text":"hold"}]}}}`
	go func() {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		req.Header.Set("X-A2A-Notification-Token", token)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-entered
	closed := make(chan struct{})
	go func() { recv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second): // a guard against a hang, not a measure
		t.Fatal("Close is held by a hook waiting on its context")
	}
	if err := <-cause; !errors.Is(err, a2a.ErrReceiverClosed) {
		t.Errorf("the hook's context ended with %v, want ErrReceiverClosed", err)
	}
}
