package httpbody

import (
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/redact"
	"github.com/caoliao-a2a/a2a-go/internal/sse"
)

// Events reads the events of an open text/event-stream body, decoded per
// its Content-Encoding as a whole body is (Read), each event at most max
// bytes.
type Events struct {
	sse     *sse.Reader
	wire    *wireReader
	decoded bool       // a gzip reader of the client's sits between wire and sse
	idle    *idleTimer // nil: no idle bound
}

// OpenEvents starts reading resp's events, each at most max bytes. With
// idle > 0, Next waits at most idle for an event or a comment line (a
// keep-alive), then closes the stream and fails with a TimeoutError. fault
// says why the body cannot be decoded (an unknown Content-Encoding, its
// value redacted by red; bad gzip data); err is a failure of the
// connection. close releases what it holds, not the body, which the caller
// closes.
func OpenEvents(resp *http.Response, max int64, red *redact.Redactor, idle time.Duration) (events *Events, close func(), fault, err error) {
	wire := &wireReader{r: resp.Body, left: -1} // each event is capped instead
	body, fault, err := contentReader(resp, wire, red)
	if fault != nil || err != nil {
		return nil, nil, fault, err
	}
	events = &Events{sse: sse.NewReader(body, max), wire: wire, decoded: body != resp.Body}
	close = func() {}
	if idle > 0 {
		events.idle = newIdleTimer(idle, func() { resp.Body.Close() })
		events.sse.KeepAlive = events.idle.arm
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

// ErrEventTooLarge is the error of an event (or one of its lines) over the
// stream's cap: the framing's own, so callers need not know the framing.
var ErrEventTooLarge = sse.ErrTooLarge

// Next returns the data of the next event. Its errors: io.EOF at the end
// of the stream; ErrEventTooLarge; a *BadStreamData for gzip data that is
// bad; a TimeoutError when the idle bound ran out; any other error is the
// connection's.
func (e *Events) Next() ([]byte, error) {
	if e.idle != nil {
		e.idle.arm()
	}
	data, err := e.sse.Next()
	if e.idle != nil {
		e.idle.stop()
		if err != nil && e.idle.fired.Load() {
			return nil, TimeoutError{"no event", e.idle.d}
		}
	}
	switch {
	case err == nil || err == io.EOF:
		return data, err
	case errors.Is(err, ErrEventTooLarge):
		return nil, err
	case e.wire.badData(e.decoded, err):
		return nil, &BadStreamData{gzipFault(err)}
	}
	return nil, err
}

// Name returns the type of the event Next returned last ("" for none
// named).
func (e *Events) Name() string { return e.sse.Name() }

// BadStreamData is a stream whose data cannot be decoded: Err says why.
type BadStreamData struct{ Err error }

func (b *BadStreamData) Error() string { return b.Err.Error() }
