package httpbody

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

func gzipped(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

// brokenReader gives its bytes, then fails as a connection that breaks.
type brokenReader struct{ r io.Reader }

var errBroken = errors.New("connection reset")

func (b *brokenReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		return n, errBroken
	}
	return n, err
}

func reply(status int, encoding string, body io.Reader, length int64) *http.Response {
	h := http.Header{}
	if encoding != "" {
		h.Set("Content-Encoding", encoding)
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(body), ContentLength: length}
}

// TestRead: the cap (announced or not, compressed or not), gzip decoded,
// data faults told from a broken connection, and a 1xx reply not read.
func TestRead(t *testing.T) {
	red := redact.New(&url.URL{Scheme: "https", Host: "h"}, "sk-secret-key-123", "", nil)
	const limit = 64
	small, big := `{"ok":true}`, strings.Repeat("x", limit+1)
	zipped := gzipped(small)
	for _, tc := range []struct {
		name string
		resp *http.Response
		want Result
	}{
		{"plain", reply(200, "", strings.NewReader(small), -1), Result{Body: []byte(small)}},
		{"plain, announced", reply(200, "", strings.NewReader(small), int64(len(small))), Result{Body: []byte(small)}},
		{"exactly the cap", reply(200, "", strings.NewReader(big[:limit]), -1), Result{Body: []byte(big[:limit])}},
		{"over the cap", reply(200, "", strings.NewReader(big), -1), Result{TooLarge: true}},
		{"announced over the cap", reply(200, "", strings.NewReader(small), limit+1), Result{TooLarge: true}},
		{"gzip", reply(200, "gzip", bytes.NewReader(zipped), -1), Result{Body: []byte(small)}},
		{"gzip over the cap decoded", reply(200, "gzip", bytes.NewReader(gzipped(big)), -1), Result{TooLarge: true}},
		{"empty gzip body", reply(200, "gzip", strings.NewReader(""), 0), Result{Body: []byte{}}},
		{"1xx", reply(101, "", &brokenReader{strings.NewReader("")}, -1), Result{}},
	} {
		got := Read(tc.resp, limit, red)
		if !bytes.Equal(got.Body, tc.want.Body) || got.TooLarge != tc.want.TooLarge || got.Fault != nil || got.Err != nil {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}

	got := Read(reply(200, "gzip", bytes.NewReader(zipped[:len(zipped)-4]), -1), limit, red)
	if got.Fault == nil || got.Body != nil || got.Err != nil {
		t.Errorf("gzip cut short in a whole body: got %+v, want a fault", got)
	}
	got = Read(reply(200, "gzip", &brokenReader{bytes.NewReader(zipped[:len(zipped)-4])}, -1), limit, red)
	if !errors.Is(got.Err, errBroken) || got.Fault != nil {
		t.Errorf("gzip cut short by the connection: got %+v, want its error", got)
	}
	got = Read(reply(200, "", &brokenReader{strings.NewReader(small)}, -1), limit, red)
	if !errors.Is(got.Err, errBroken) {
		t.Errorf("plain body cut short by the connection: got %+v, want its error", got)
	}
	got = Read(reply(200, "br; sk-secret-key-123", strings.NewReader(small), -1), limit, red)
	if got.Fault == nil || string(got.Body) != small || strings.Contains(got.Fault.Error(), "sk-secret") {
		t.Errorf("unknown encoding: got %+v, want a redacted fault and the body as received", got)
	}
}

func TestReadRequest(t *testing.T) {
	req, _ := http.NewRequest(http.MethodPost, "http://h/", bytes.NewReader(gzipped("note")))
	req.Header.Set("Content-Encoding", "gzip")
	red := redact.New(&url.URL{Scheme: "http", Host: "h"}, "", "", nil)
	if got := ReadRequest(req, 64, red, nil); string(got.Body) != "note" || got.Fault != nil || got.Err != nil {
		t.Errorf("got %+v", got)
	}
}

// TestReadGrowsWithBytesRead: a request announcing megabytes costs
// memory only for the bytes it sends, however it ends (cut short, or
// whole), and the charge func is asked for every buffer first; a reply's
// length is taken at its word up to the allowance, no further.
func TestReadGrowsWithBytesRead(t *testing.T) {
	red := redact.New(&url.URL{Scheme: "http", Host: "h"}, "", "", nil)
	const limit = 10 << 20
	allocated := func(f func()) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, tc := range []struct {
		name      string
		announced int64
		sent      int
		whole     bool
	}{
		{"8 MiB announced, nothing sent", 8 << 20, 0, false},
		{"8 MiB announced, 100 bytes sent", 8 << 20, 100, false},
		{"8 MiB announced, 64 KiB sent", 8 << 20, 64 << 10, false},
		{"8 MiB announced, 5 MiB sent", 8 << 20, 5 << 20, false},
		{"3 MiB announced and sent", 3 << 20, 3 << 20, true},
		{"unannounced, 3 MiB sent", -1, 3 << 20, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := bytes.Repeat([]byte("x"), tc.sent)
			request := func() *http.Request {
				var body io.Reader = &brokenReader{bytes.NewReader(data)}
				if tc.whole {
					body = bytes.NewReader(data)
				}
				return &http.Request{Header: http.Header{}, Body: io.NopCloser(body), ContentLength: tc.announced}
			}
			// At most twice the bytes sent (chunks, then their join) and
			// a chunk (no larger than the bytes before it); 64 KiB for the
			// rest of the call.
			bound := uint64(2*tc.sent + max(min(tc.sent, maxChunk), firstChunk) + 64<<10)
			var got Result
			n := allocated(func() { got = ReadRequest(request(), limit, red, nil) })
			if tc.whole != (got.Err == nil && len(got.Body) == tc.sent) {
				t.Fatalf("got %d bytes, err %v", len(got.Body), got.Err)
			}
			if n > bound {
				t.Errorf("reading %d bytes allocated %d, want at most %d", tc.sent, n, bound)
			}

			// The charge func sees every buffer, and stops the read.
			var charged int64
			got = ReadRequest(request(), limit, red, func(n int64) bool { charged += n; return true })
			if charged > int64(bound) || charged < int64(tc.sent) {
				t.Errorf("%d bytes read, %d charged, want %d..%d", len(got.Body), charged, tc.sent, bound)
			}
			got = ReadRequest(request(), limit, red, func(n int64) bool { return false })
			if !got.OverBudget || got.Body != nil {
				t.Errorf("refused: got %+v, want OverBudget", got)
			}

			// A reply: the length taken at its word up to the allowance,
			// an honest one read into one buffer.
			n = allocated(func() {
				req := request()
				got = Read(reply(200, "", req.Body, tc.announced), limit, red)
			})
			want := bound + replyAllowance
			if tc.whole && tc.announced >= 0 {
				want = uint64(tc.sent) + 64<<10
			}
			if n > want {
				t.Errorf("Read: reading %d bytes allocated %d, want at most %d", tc.sent, n, want)
			}
		})
	}
}

func TestIsEventStream(t *testing.T) {
	for ct, want := range map[string]bool{"text/event-stream": true, " Text/Event-Stream ; charset=utf-8": true, "application/json": false} {
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {ct}}}
		if got := IsEventStream(resp); got != want {
			t.Errorf("%q: %v, want %v", ct, got, want)
		}
	}
	if IsEventStream(&http.Response{StatusCode: 500, Header: http.Header{"Content-Type": {"text/event-stream"}}}) {
		t.Error("a 500 is an event stream")
	}
}
