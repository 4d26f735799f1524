// Package httpbody reads HTTP bodies for the client: a reply's (or a push
// notification's) whole body, at most a cap of bytes, gzip decoded by the
// client itself, with faults of the data told apart from faults of the
// connection; and an event stream's body, event by event (internal/sse's
// framing), with a bound on the wait for each event.
package httpbody

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// Reading whole bodies: at most a cap of bytes, gzip decoded by the client
// itself (it asks for gzip, so net/http leaves the body encoded and cannot
// decode a bomb out of sight), and faults of the data told apart from
// faults of the connection.

// Result is a body as [Read] read it.
type Result struct {
	// Body is the body, decoded, whole; nil when it was not read whole.
	Body []byte
	// TooLarge: the body (compressed or not) is over the cap; reading
	// stopped there.
	TooLarge bool
	// OverBudget: the charge func given to [ReadRequest] refused the
	// memory the next bytes needed; reading stopped there.
	OverBudget bool
	// Fault says why a body that arrived whole cannot be read: gzip data
	// that is corrupt or cut short (Body is then nil), or a
	// Content-Encoding the client does not read (Body holds the bytes as
	// received; the header's value in the text is redacted).
	Fault error
	// Err is a failure of the connection while the body was read.
	Err error
}

// Read reads resp's body, at most limit bytes, decoding gzip; red redacts
// the fault it may report. It does not close the body. A 1xx reply is not read: a 101 hands over the raw
// connection as its body, and reading it would wait for the peer, not for
// the caller's context. A reply's Content-Length is taken at its word for
// up to replyAllowance bytes at once.
func Read(resp *http.Response, limit int64, red *redact.Redactor) Result {
	return read(resp, limit, red, replyAllowance, nil)
}

// replyAllowance is how much of a reply's Content-Length Read allocates
// before the bytes are there, in bytes: 4 MiB, within a call's bound of
// eight times the reply and 4 MiB. A reply is one per call, to a request
// the caller chose to make, so a lie costs that call alone; reading
// honest replies into one buffer of their size saves the join of chunks
// (one reply's size more allocated). A request, which anyone may send to
// a receiver many times at once, gets no allowance (ReadRequest).
const replyAllowance = 4 << 20

// ReadRequest reads a request's body as Read reads a reply's: at most
// limit bytes, gzip decoded (a push notification), except that no buffer
// is sized from its Content-Length: each is at most the bytes read so
// far, and 4 KiB. charge, unless nil, is asked for each buffer's bytes
// before it is allocated; when it returns false reading stops with
// OverBudget. It does not close the body.
func ReadRequest(req *http.Request, limit int64, red *redact.Redactor, charge func(n int64) bool) Result {
	resp := &http.Response{StatusCode: http.StatusOK, Header: req.Header, Body: req.Body, ContentLength: req.ContentLength}
	return read(resp, limit, red, 0, charge)
}

// read is Read with the allowance of readAll and an optional charge func
// (see ReadRequest).
func read(resp *http.Response, limit int64, red *redact.Redactor, allowance int64, charge func(int64) bool) Result {
	if resp.StatusCode < 200 {
		return Result{}
	}
	wire := &wireReader{r: resp.Body, left: capPlusOne(limit)}
	src, fault, err := contentReader(resp, wire, red)
	switch {
	case errors.Is(err, errWireTooLarge):
		return Result{TooLarge: true}
	case err != nil:
		return Result{Err: err}
	case fault != nil && src == nil:
		return Result{Fault: fault}
	}
	if src == resp.Body && resp.ContentLength > limit {
		return Result{TooLarge: true}
	}
	announced := int64(-1)
	if src == resp.Body {
		announced = resp.ContentLength
	}
	body, err := readAll(io.LimitReader(src, capPlusOne(limit)), announced, allowance, charge)
	switch {
	case errors.Is(err, errWireTooLarge) || int64(len(body)) > limit:
		return Result{TooLarge: true}
	case errors.Is(err, errOverBudget):
		return Result{OverBudget: true}
	case wire.badData(src != resp.Body, err):
		return Result{Fault: gzipFault(err)}
	case err != nil:
		return Result{Err: err}
	}
	// fault set here: an unsupported encoding, its body kept as received
	// for the error to carry.
	return Result{Body: body, Fault: fault}
}

// errOverBudget is a charge func's refusal.
var errOverBudget = errors.New("body exceeds the memory budget")

// firstChunk is the first buffer readAll reads into, in bytes.
const firstChunk = 4 << 10

// readAll reads r to its end, into chunks that grow with the bytes
// actually read: each is at most the size of those before it together
// (4 KiB first), and at most maxChunk. The length announced (-1 when not)
// is taken at its word for up to allowance bytes at once: with it a
// chunk may be that large, though no larger than the rest announced (and
// one byte to see the end), so an honest body within the allowance is
// read into one buffer of its size. Without an allowance memory grows
// with the bytes that arrive, never on the sender's word, and an honest
// body wastes nothing but the join. The chunks are joined once at the
// end: reading allocates at most about twice the body and a chunk (and
// the allowance), never the four times a doubling buffer can. charge,
// unless nil, is asked for each allocation first (the join included);
// its refusal ends the read with errOverBudget.
func readAll(r io.Reader, announced, allowance int64, charge func(int64) bool) ([]byte, error) {
	alloc := func(n int64) ([]byte, error) {
		if charge != nil && !charge(n) {
			return nil, errOverBudget
		}
		return make([]byte, 0, n), nil
	}
	// next is the size of the chunk after total bytes.
	next := func(total int64) int64 {
		n := max(min(total, maxChunk), firstChunk)
		if announced >= total {
			// The body has lived up to its word so far.
			n = min(max(n, allowance), announced-total+1)
		}
		return n
	}
	var full [][]byte // chunks filled, in order
	total := int64(0) // their bytes
	buf, err := alloc(next(0))
	for err == nil {
		if len(buf) == cap(buf) {
			full, total = append(full, buf), total+int64(len(buf))
			if buf, err = alloc(next(total)); err != nil {
				break
			}
		}
		var n int
		n, err = r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
	}
	if err == io.EOF {
		err = nil
	}
	if err != nil || len(full) == 0 {
		return buf, err
	}
	out, err := alloc(total + int64(len(buf)))
	if err != nil {
		return nil, err
	}
	for _, c := range full {
		out = append(out, c...)
	}
	return append(out, buf...), nil
}

// maxChunk is the largest chunk readAll reads a body of unknown length
// into.
const maxChunk = 1 << 20

// capPlusOne is limit+1, the read that tells "exactly limit" from "more".
func capPlusOne(limit int64) int64 {
	if limit >= math.MaxInt64-1 {
		return math.MaxInt64
	}
	return limit + 1
}

// wireReader reads a body as it came off the connection, for a
// decompressor: it stops past a cap of compressed bytes and remembers
// whether the body ended cleanly, so a decompressor's "unexpected EOF" can
// be told apart from a connection that broke.
type wireReader struct {
	r     io.Reader
	left  int64 // bytes that may still be read; < 0: no cap
	ended bool  // r returned io.EOF
}

// errWireTooLarge is a compressed body longer than the cap.
var errWireTooLarge = errors.New("compressed body exceeds the size cap")

func (w *wireReader) Read(p []byte) (int, error) {
	if w.left == 0 {
		return 0, errWireTooLarge
	}
	if w.left > 0 && int64(len(p)) > w.left {
		p = p[:w.left]
	}
	n, err := w.r.Read(p)
	if w.left > 0 {
		w.left -= int64(n)
	}
	w.ended = w.ended || err == io.EOF
	return n, err
}

// contentReader returns resp's body decoded per its Content-Encoding: the
// body itself, or a gzip reader over wire (which reads resp.Body). An empty
// gzip body reads as empty. fault says why the body cannot be decoded: an
// encoding this client does not read (rd is then resp.Body, to keep the
// bytes as received) or gzip data that is corrupt or cut short inside a
// complete body (rd nil). err is a failure of the connection. A gzip
// reader holds nothing to release.
func contentReader(resp *http.Response, wire *wireReader, red *redact.Redactor) (rd io.Reader, fault, err error) {
	raw := resp.Header.Get("Content-Encoding")
	enc := strings.ToLower(strings.TrimSpace(raw))
	switch {
	case enc == "" || enc == "identity" || resp.Uncompressed:
		return resp.Body, nil, nil
	case enc == "gzip" || enc == "x-gzip":
		zr, err := gzip.NewReader(wire)
		switch {
		case err == nil:
			return zr, nil, nil
		case err == io.EOF && wire.ended:
			return bytes.NewReader(nil), nil, nil
		case wire.gzipFault(err):
			return nil, gzipFault(err), nil
		default:
			return nil, nil, err
		}
	}
	return resp.Body, fmt.Errorf("Content-Encoding %s is not supported", red.Quote(raw)), nil
}

// gzipFault reports whether err, from a gzip reader over w, says the gzip
// data is bad rather than the connection: corrupt data, or data cut short
// although the body itself ended cleanly.
func (w *wireReader) gzipFault(err error) bool {
	return isGzipFault(err) || w.ended && (errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF)
}

// badData reports whether err, from reading a body through w (decoded
// says a gzip reader of the client's sits in between), says the data is
// bad rather than the connection. A caller's transport that decodes gzip
// itself gives gzip's own errors.
func (w *wireReader) badData(decoded bool, err error) bool {
	return decoded && w.gzipFault(err) || isGzipFault(err)
}

// gzipFault is the fault of a body whose gzip data is bad.
func gzipFault(err error) error {
	return fmt.Errorf("gzip body does not decompress: %w", err)
}

// isGzipFault reports whether err says the gzip data itself is bad (as
// opposed to the connection failing while it was read).
func isGzipFault(err error) bool {
	var ce flate.CorruptInputError
	return errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &ce)
}

// Is2xx reports whether an HTTP status is a success (200–299).
func Is2xx(code int) bool { return code >= 200 && code <= 299 }

// IsEventStream reports whether resp is a 2xx Server-Sent Events reply.
func IsEventStream(resp *http.Response) bool {
	if !Is2xx(resp.StatusCode) {
		return false
	}
	mt, _, _ := strings.Cut(resp.Header.Get("Content-Type"), ";")
	return strings.EqualFold(strings.TrimSpace(mt), "text/event-stream")
}
