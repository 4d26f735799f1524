package a2a

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// Server-Sent Events framing, for message/stream and tasks/resubscribe.

// eventStream reads the events of an open text/event-stream body, decoded
// per its Content-Encoding as a reply body is (body.go), each event at
// most max bytes.
type eventStream struct {
	sse     *sseReader
	wire    *wireReader
	decoded bool       // a gzip reader of the client's sits between wire and sse
	idle    *idleTimer // nil: no idle bound
}

// openEvents starts reading resp's events. With idle > 0, next waits at
// most idle for an event or a comment line (a keep-alive), then closes the
// stream and fails with a timeoutError. fault says why the body cannot be
// decoded (an unknown Content-Encoding, bad gzip data); err is a failure
// of the connection. close releases what it holds, not the body.
func openEvents(resp *http.Response, max int64, red *redact.Redactor, idle time.Duration) (events *eventStream, close func(), fault, err error) {
	wire := &wireReader{r: resp.Body, left: -1} // each event is capped instead
	body, fault, err := contentReader(resp, wire, red)
	if fault != nil || err != nil {
		return nil, nil, fault, err
	}
	events = &eventStream{sse: newSSEReader(body, max), wire: wire, decoded: body != resp.Body}
	close = func() {}
	if idle > 0 {
		events.idle = newIdleTimer(idle, func() { resp.Body.Close() })
		events.sse.keepAlive = events.idle.arm
		close = events.idle.stop
	}
	return events, close, nil, nil
}

// idleTimer runs only while a stream is waited on: armed when the wait
// starts and at each keep-alive, stopped when an event arrives, so the
// time the caller spends on an event does not count, nor can bytes that
// never make an event keep the stream open. When it fires it runs expire
// (which closes the stream) and records that it did.
type idleTimer struct {
	d     time.Duration
	t     *time.Timer
	fired atomic.Bool
}

func newIdleTimer(d time.Duration, expire func()) *idleTimer {
	it := &idleTimer{d: d}
	it.t = time.AfterFunc(d, func() { it.fired.Store(true); expire() })
	it.t.Stop()
	return it
}

func (it *idleTimer) arm()  { it.t.Reset(it.d) }
func (it *idleTimer) stop() { it.t.Stop() }

// next returns the data of the next event. Its errors: io.EOF at the end
// of the stream; errEventTooLarge; a *badStreamData for gzip data that is
// bad; a timeoutError when the idle bound ran out; any other error is the
// connection's.
func (e *eventStream) next() ([]byte, error) {
	if e.idle != nil {
		e.idle.arm()
	}
	data, err := e.sse.next()
	if e.idle != nil {
		e.idle.stop()
		if err != nil && e.idle.fired.Load() {
			return nil, timeoutError{"no event", e.idle.d}
		}
	}
	switch {
	case err == nil || err == io.EOF:
		return data, err
	case errors.Is(err, bufio.ErrTooLong):
		return nil, errEventTooLarge
	case e.wire.badData(e.decoded, err):
		return nil, &badStreamData{gzipFault(err)}
	}
	return nil, err
}

// badStreamData is a stream whose data cannot be decoded.
type badStreamData struct{ err error }

func (b *badStreamData) Error() string { return b.err.Error() }

// errEventTooLarge is an SSE event whose data lines add up past the cap.
var errEventTooLarge = errors.New("event exceeds the size cap")

// sseReader reads Server-Sent Events (the WHATWG HTML "event stream"
// format): lines end in CRLF, LF or CR; "data:" lines of one event are
// joined with "\n"; a blank line dispatches; comments (":") and the
// "event", "id" and "retry" fields are ignored, as A2A gives them no
// meaning. Lines and events are bounded by max bytes.
type sseReader struct {
	sc        *bufio.Scanner
	max       int64
	started   bool
	lines     sseLines
	keepAlive func() // called at each comment line; may be nil
}

func newSSEReader(r io.Reader, max int64) *sseReader {
	sc := bufio.NewScanner(r)
	limit := 1<<31 - 1
	if max < int64(limit)-2 {
		limit = int(max) + 2 // the line, and room for its CRLF
	}
	sc.Buffer(make([]byte, 0, 64<<10), limit)
	s := &sseReader{sc: sc, max: max}
	sc.Split(s.lines.split)
	return s
}

// next returns the data of the next event, or io.EOF at the end of the
// stream.
func (s *sseReader) next() ([]byte, error) {
	var data []byte
	has := false
	for s.sc.Scan() {
		line := s.sc.Bytes()
		if !s.started { // the format allows one leading byte-order mark
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
			s.started = true
		}
		if len(line) == 0 {
			if has {
				return data, nil
			}
			continue
		}
		if line[0] == ':' {
			if s.keepAlive != nil {
				s.keepAlive()
			}
			continue
		}
		field, value, found := bytes.Cut(line, []byte(":"))
		if !found {
			value = nil
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if string(field) != "data" {
			continue
		}
		if has {
			data = append(data, '\n')
		}
		data = append(data, value...)
		has = true
		if int64(len(data)) > s.max {
			return nil, errEventTooLarge
		}
	}
	if err := s.sc.Err(); err != nil {
		return nil, err
	}
	// An event the stream ended before its blank line is not dispatched
	// (the WHATWG rules): it may be cut short.
	return nil, io.EOF
}

// sseLines splits a stream into lines ended by CRLF, LF or CR. A CR ends
// its line at once, so an event whose last line ends in CR is dispatched
// without waiting for more bytes; an LF right after it, read later, is
// then the rest of that CRLF and is skipped.
type sseLines struct {
	afterCR bool // the last line ended with a CR
}

// split is the bufio.SplitFunc. The LF of a CRLF split across reads is
// skipped within the same call as the line after it: a bufio.Scanner
// given an advance without a token reads more before it calls split
// again, so returning the skip alone would leave a whole line (the blank
// one that dispatches an event) waiting for bytes that may never come.
func (l *sseLines) split(data []byte, atEOF bool) (int, []byte, error) {
	skip := 0
	if l.afterCR && len(data) > 0 {
		l.afterCR = false
		if data[0] == '\n' {
			skip, data = 1, data[1:]
		}
	}
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0:
		if atEOF && len(data) > 0 {
			return skip + len(data), data, nil
		}
		return skip, nil, nil
	case data[i] == '\n':
		return skip + i + 1, data[:i], nil
	case i+1 < len(data) && data[i+1] == '\n':
		return skip + i + 2, data[:i], nil
	default:
		l.afterCR = i+1 == len(data)
		return skip + i + 1, data[:i], nil
	}
}
