package httpbody

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/redact"
	"github.com/caoliao-a2a/a2a-go/internal/sse"
)

// heldBody gives its bytes, then holds the stream open, as an agent does
// between events, until it is closed.
type heldBody struct {
	r      io.Reader
	closed chan struct{}
}

func (h *heldBody) Read(p []byte) (int, error) {
	if n, _ := h.r.Read(p); n > 0 {
		return n, nil
	}
	<-h.closed
	return 0, errors.New("read on closed body")
}

func (h *heldBody) Close() error {
	select {
	case <-h.closed:
	default:
		close(h.closed)
	}
	return nil
}

func stream(encoding string, b []byte) (*http.Response, *heldBody) {
	body := &heldBody{r: bytes.NewReader(b), closed: make(chan struct{})}
	h := http.Header{"Content-Type": {"text/event-stream"}}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	return &http.Response{StatusCode: 200, Header: h, Body: body}, body
}

var noSecrets = redact.New(&url.URL{Scheme: "http", Host: "h"}, "", "", nil)

// TestEventsIdle: gzip'ed events are read as they come; with nothing more
// coming, Next gives up after the idle bound with a TimeoutError that is
// a deadline, having closed the body.
func TestEventsIdle(t *testing.T) {
	resp, body := stream("gzip", gzipped("data: one\n\n: keep-alive\n\ndata: two\n\n"))
	events, closeEvents, fault, err := OpenEvents(resp, 1<<20, noSecrets, 50*time.Millisecond)
	if fault != nil || err != nil {
		t.Fatal(fault, err)
	}
	defer closeEvents()
	for _, want := range []string{"one", "two"} {
		if data, err := events.Next(); string(data) != want || err != nil {
			t.Fatalf("got %q, %v; want %q", data, err, want)
		}
	}
	_, err = events.Next()
	var te TimeoutError
	if !errors.As(err, &te) || te.What != "no event" || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v; want the idle bound's TimeoutError", err)
	}
	select {
	case <-body.closed:
	default:
		t.Error("the body was left open")
	}
}

// TestEventsFaults: an event over the cap, gzip data that is bad, and an
// encoding the client does not read.
func TestEventsFaults(t *testing.T) {
	resp, body := stream("", []byte("data: 0123456789\n\n"))
	events, closeEvents, _, _ := OpenEvents(resp, 4, noSecrets, 0)
	if _, err := events.Next(); !errors.Is(err, sse.ErrTooLarge) {
		t.Errorf("over the cap: got %v", err)
	}
	closeEvents()
	body.Close()

	zipped := gzipped("data: one\n\n")
	zipped[len(zipped)-5] ^= 0xff // the checksum
	resp, body = stream("gzip", append(zipped, 0))
	events, closeEvents, _, _ = OpenEvents(resp, 1<<20, noSecrets, 0)
	var bad *BadStreamData
	for range 2 {
		if _, err := events.Next(); errors.As(err, &bad) {
			break
		}
	}
	if bad == nil {
		t.Error("bad gzip data: no *BadStreamData")
	}
	closeEvents()
	body.Close()

	resp, body = stream("compress", []byte("data: one\n\n"))
	if _, _, fault, err := OpenEvents(resp, 1<<20, noSecrets, 0); fault == nil || err != nil {
		t.Errorf("unknown encoding: fault %v, err %v", fault, err)
	}
	body.Close()
}
