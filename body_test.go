package a2a_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestBodyTooLarge: a reply over the cap is refused with a typed error, with
// and without a Content-Length.
func TestBodyTooLarge(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","id":"t","contextId":"c","status":{"state":"completed"},"metadata":{"pad":"` + strings.Repeat("x", 5000) + `"}}}`
	for _, chunked := range []bool{false, true} {
		tr := newEcho(t, big, 0, chunked)
		c, _ := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: tr}), a2a.WithMaxResponseBytes(4096))
		_, err := c.GetTask(context.Background(), "t")
		tl, ok := errors.AsType[*a2a.BodyTooLargeError](err)
		if !ok || tl.Limit != 4096 {
			t.Fatalf("chunked=%v: err = %v, want *BodyTooLargeError with limit 4096", chunked, err)
		}
		// The same body fits under a larger cap.
		c, _ = a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: tr}), a2a.WithMaxResponseBytes(8192))
		if _, err := c.GetTask(context.Background(), "t"); err != nil {
			t.Fatalf("chunked=%v: under the cap: %v", chunked, err)
		}
	}
}

// TestSwitchingProtocols: a 101 reply hands over a raw connection; the call
// must end with an *HTTPError at once, not wait for the peer to close.
func TestSwitchingProtocols(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	conns := make(chan net.Conn, 1)
	go func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		req, err := http.ReadRequest(bufio.NewReader(conn))
		if err == nil {
			req.Body.Close()
			conn.Write([]byte("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n"))
		}
		conns <- conn // held open until the test ends
	}()
	c, _ := a2a.NewClient("http://"+l.Addr().String()+"/a2a", a2a.WithMaxRetries(0))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = c.GetTask(ctx, "t")
	if he, ok := errors.AsType[*a2a.HTTPError](err); !ok || he.StatusCode != 101 {
		t.Errorf("err = %v, want *HTTPError 101", err)
	}
	(<-conns).Close()
}

// TestHugeCaps: a cap near MaxInt64 and a lying Content-Length neither
// overflow nor panic.
func TestHugeCaps(t *testing.T) {
	lying := mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
		w.Header().Set("Content-Length", strconv.FormatInt(math.MaxInt64/2, 10))
		w.Write(withID(fixture(t, "get_task.json"), json.RawMessage(id)))
	}}
	for _, limit := range []int64{math.MaxInt64, math.MaxInt64 / 2, 1 << 62} {
		c, _ := newMock(t, []mockReply{lying}, a2a.WithMaxResponseBytes(limit))
		if task, err := c.GetTask(context.Background(), "7d1f0f5e-2b8a-4f4e-9a57-0c3f6d1e2a90"); err != nil || task.ID == "" {
			t.Errorf("cap %d: %v, %v", limit, task, err)
		}
	}
}

// noCompression is a caller's transport with compression off: the client
// must read gzip the same way through it.
func noCompression() []a2a.Option {
	return []a2a.Option{a2a.WithHTTPClient(&http.Client{Transport: &http.Transport{DisableCompression: true}})}
}

// gzipBomb is 4 MiB of spaces in about 4 KiB of gzip, made once.
var gzipBomb = sync.OnceValue(func() []byte { return gzipBytes(strings.Repeat(" ", 4<<20)) })

// trickle sends headers, then one byte of body per 50 ms until the client
// goes away or 10 s have passed.
func trickle(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", "1000")
	w.WriteHeader(200)
	rc := http.NewResponseController(w)
	end := time.After(10 * time.Second)
	for {
		if _, err := w.Write([]byte(" ")); err != nil || rc.Flush() != nil {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-end:
			return
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// bodyRows are bodies that cannot be read as sent: gzip, other encodings, bodies over the cap, cut off or trickled (internal/httpbody, and the call path's handling of a broken connection).
func bodyRows() []hostileRow {
	return []hostileRow{
		{name: "gzip, decoded by the client", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gzipBytes(strings.ReplaceAll(rpc(completedTask), "{{id}}", id)))
		}, want: isTask(wantTask(nil))},
		{name: "unrequested gzip", opts: []a2a.Option{a2a.WithHeader("Accept-Encoding", "identity")},
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				if r.Header.Get("Accept-Encoding") != "identity" {
					http.Error(w, "asked for "+r.Header.Get("Accept-Encoding"), 400)
					return
				}
				w.Header().Set("Content-Encoding", "gzip")
				w.Write(gzipBytes(strings.ReplaceAll(rpc(completedTask), "{{id}}", id)))
			}, want: isTask(wantTask(nil))},
		{name: "corrupt gzip",
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				w.Header().Set("Content-Encoding", "gzip")
				z := gzipBytes(strings.ReplaceAll(rpc(completedTask), "{{id}}", id))
				z[len(z)-6] ^= 0xff // break the CRC
				w.Write(z)
			}, want: protoErr("body cannot be read", nil)},
		{name: "gzip bomb past the cap", opts: append(noCompression(), a2a.WithMaxResponseBytes(1<<20)),
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				w.Header().Set("Content-Encoding", "gzip")
				w.Write(gzipBomb())
			}, want: tooLarge(1 << 20)},
		{name: "gzip cut short inside a whole body",
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				w.Header().Set("Content-Encoding", "gzip")
				z := gzipBytes(strings.ReplaceAll(rpc(completedTask), "{{id}}", id))
				w.Write(z[:len(z)/2])
			}, want: protoErr("body cannot be read", nil)},
		{name: "empty 200 labelled gzip", opts: noCompression(), header: map[string]string{"Content-Encoding": "gzip"},
			want: protoErr("empty body with HTTP 200", nil)},
		{name: "204 labelled gzip", opts: noCompression(), status: 204, header: map[string]string{"Content-Encoding": "gzip"},
			want: protoErr("empty body with HTTP 204", nil)},
		{name: "empty gzip members past the cap", opts: []a2a.Option{a2a.WithMaxResponseBytes(4096)},
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				w.Header().Set("Content-Encoding", "gzip")
				empty := gzipBytes("")
				for range 1000 {
					w.Write(empty)
				}
				w.Write(gzipBytes(strings.ReplaceAll(rpc(completedTask), "{{id}}", id)))
			}, want: tooLarge(4096)},
		{name: "JSON-RPC body labelled br on a 500", status: 500, header: map[string]string{"Content-Encoding": "br"}, body: rpcError(`{"code":-32603,"message":"x"}`),
			want: httpErr(a2a.HTTPError{StatusCode: 500}, `{"jsonrpc"`)},
		{name: "503 over the cap on message/send, not retried", call: "send", status: 503, opts: []a2a.Option{a2a.WithMaxResponseBytes(4096)},
			body: rpcError(`{"code":-32603,"message":"` + strings.Repeat("x", 5000) + `"}`), want: tooLarge(4096)},
		{name: "Content-Encoding br", header: map[string]string{"Content-Encoding": "br"}, body: "\x0b\x02\x80{}\x03",
			want: all(protoErr("body cannot be read", nil), func(t *testing.T, o outcome) {
				if pe, _ := errors.AsType[*a2a.ProtocolError](o.err); pe == nil || string(pe.Body) != "\x0b\x02\x80{}\x03" || !strings.Contains(pe.Error(), `Content-Encoding "br" is not supported`) {
					t.Errorf("err = %v, want the raw body kept and the encoding named", o.err)
				}
			})},
		{name: "body trickled slower than the per-attempt timeout", opts: []a2a.Option{a2a.WithHTTPClient(&http.Client{Timeout: 300 * time.Millisecond}), a2a.WithMaxRetries(0)},
			serve: func(w http.ResponseWriter, r *http.Request, id string) { trickle(w, r) },
			want:  all(transportErr(1), deadline())},
		{name: "body trickled past the caller's deadline", timeout: 300 * time.Millisecond,
			serve: func(w http.ResponseWriter, r *http.Request, id string) { trickle(w, r) }, want: deadline()},
		{name: "headers never sent before the caller's deadline", call: "send", timeout: 300 * time.Millisecond,
			serve: func(w http.ResponseWriter, r *http.Request, id string) {
				select {
				case <-r.Context().Done():
				case <-time.After(10 * time.Second):
				}
			}, want: deadline()},
		{name: "body over the cap with a Content-Length", opts: []a2a.Option{a2a.WithMaxResponseBytes(4096)}, body: rpc(withArtifact(`[{"kind":"text","text":"` + strings.Repeat("x", 5000) + `"}]`)),
			want: tooLarge(4096)},
		{name: "body over the cap, chunked", opts: []a2a.Option{a2a.WithMaxResponseBytes(4096)}, serve: func(w http.ResponseWriter, r *http.Request, id string) {
			for range 10 {
				io.WriteString(w, strings.Repeat(" ", 1000))
				http.NewResponseController(w).Flush()
			}
		}, want: tooLarge(4096)},
		{name: "Content-Length far over the cap", serve: func(w http.ResponseWriter, r *http.Request, id string) {
			hijack(w, "HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\n\r\n{", false)
		}, want: tooLarge(a2a.DefaultMaxResponseBytes)},
	}
}

// TestBodyFaults runs the body rows of the hostile-server table.
func TestBodyFaults(t *testing.T) { runRows(t, bodyRows()) }
