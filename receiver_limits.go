package a2a

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/httpbody"
	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// What a PushReceiver lets a sender cost (receiver.go): the bytes of one
// notification, the memory of all those being read at once, and the time
// one may take to arrive.

const (
	// defaultPushMaxBytes is a notification's default cap, in bytes after
	// gzip decoding: 4 MiB, gRPC's default message limit, which agents
	// speaking A2A's gRPC binding already keep their tasks and events
	// under. A notification only says what happened (the wait reads a
	// final task again with GetTask), so it needs less room than the
	// replies DefaultMaxResponseBytes is sized for.
	defaultPushMaxBytes = 4 << 20

	// defaultPushMaxInflightBytes is the default bound on the memory of
	// the notifications a receiver reads and decodes at once, in bytes:
	// 64 MiB (see PushMaxInflightBytes).
	defaultPushMaxInflightBytes = 64 << 20

	// defaultPushReadTimeout is how long a notification's body may take
	// to arrive, by default (see PushReadTimeout): 10 seconds, for a body
	// of at most defaultPushMaxBytes that the agent has at hand.
	defaultPushReadTimeout = 10 * time.Second
)

// What a notification is charged against the in-flight budget: a fixed
// part when it is admitted (requestCharge: the connection's buffers, a
// gzip reader's window and tables, the goroutine's stack), then each
// buffer the body is read into as it is allocated (httpbody.ReadRequest:
// at most about three times the body), then, once PushVerify passed it,
// what decoding it may allocate (jsonread.DecodeBudget: four times the
// body, and 2 MiB). It is given back once the notification is decoded.
const requestCharge = 64 << 10

// maxRequestCharge is the most one notification of at most limit bytes
// can be charged: a budget smaller than that could never admit it. Its
// buffers take at most three times limit and a first chunk of 4 KiB.
func maxRequestCharge(limit int64) int64 {
	return requestCharge + 4<<10 + 3*limit + jsonread.DecodeBudget(int(limit))
}

// pushRetryAfter is the Retry-After of a 503 answered when the budget is
// spent, in seconds: the notifications being read take milliseconds.
const pushRetryAfter = "1"

// inflight is a receiver's budget of bytes for the notifications being
// read and decoded at once.
type inflight struct {
	max  int64
	used atomic.Int64
}

// take charges n bytes, or reports false (and charges nothing) when they
// would put the receiver over its budget.
func (b *inflight) take(n int64) bool {
	if b.used.Add(n) > b.max {
		b.used.Add(-n)
		return false
	}
	return true
}

// charge is what one notification holds of a receiver's budget.
type charge struct {
	b    *inflight
	held int64
}

// admit charges a notification's fixed part; ok is false when the budget
// has no room for it.
func (b *inflight) admit() (c *charge, ok bool) {
	if !b.take(requestCharge) {
		return nil, false
	}
	return &charge{b: b, held: requestCharge}, true
}

// take charges n bytes more to the notification.
func (c *charge) take(n int64) bool {
	if !c.b.take(n) {
		return false
	}
	c.held += n
	return true
}

// release gives back all the notification holds, once it is done with.
func (c *charge) release() {
	c.b.used.Add(-c.held)
	c.held = 0
}

// overBudget is the answer when the in-flight budget is spent.
var overBudget = refused(http.StatusServiceUnavailable, "too many notifications being read at once")

// readEvent reads a notification's body, has PushVerify check it and
// decodes it, its memory charged to ch, within the read timeout; out is
// the refusal when ev is nil.
func (r *PushReceiver) readEvent(dl bodyDeadline, req *http.Request, w *PushWait, ch *charge) (ev Event, out outcome) {
	// The faults are redacted of the client's secrets as they are made,
	// and of the wait's token here, a refusal being rare (a redactor with
	// the token is made then).
	body, out, ok := r.readBody(dl, req, w.c.red, w.redactor, ch)
	if !ok {
		return nil, out
	}
	return decodeEvent(w, body, ch)
}

// readBody reads a notification's body within the receiver's cap, the
// charge ch and the deadline dl, its faults redacted by base as they are
// made, and hands it to PushVerify; ok is false when out refuses it.
// withToken is the redactor with the notification's token, asked for
// only when a refusal's text needs it.
func (r *PushReceiver) readBody(dl bodyDeadline, req *http.Request, base *redact.Redactor, withToken func() *redact.Redactor, ch *charge) (body []byte, out outcome, ok bool) {
	br, timedOut := dl.read(req, r.maxBody, base, ch)
	switch {
	case br.TooLarge:
		return nil, refused(http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", r.maxBody)), false
	case br.OverBudget:
		return nil, overBudget, false
	case timedOut:
		return nil, refused(http.StatusRequestTimeout, fmt.Sprintf("body took longer than %v to arrive", r.readTimeout)), false
	case br.Err != nil:
		return nil, refused(http.StatusBadRequest, "body cannot be read"), false
	case br.Fault != nil:
		return nil, refused(http.StatusBadRequest, "body cannot be read: "+withToken().Str(br.Fault.Error())), false
	}
	if r.verify != nil {
		if err := r.verify(req, br.Body); err != nil {
			return nil, outcome{status: http.StatusUnauthorized, reason: "refused by PushVerify", err: withToken().Err(err)}, false
		}
	}
	return br.Body, taken, true
}

// decodeEvent decodes a notification's body for w, its decoding charged
// to ch.
func decodeEvent(w *PushWait, body []byte, ch *charge) (ev Event, out outcome) {
	if !ch.take(jsonread.DecodeBudget(len(body))) {
		return nil, overBudget
	}
	ev, perr := readNotification(w.c.proto, body, asked{method: "push notification", red: w.c.red})
	if perr != nil {
		return nil, refused(http.StatusBadRequest, w.redactor().Str(perr.Reason))
	}
	return ev, taken
}

// bodyDeadline is the time by which a request's body must have arrived.
type bodyDeadline struct {
	at time.Time
	rc readDeadliner // nil when the ResponseWriter cannot set it
}

// readDeadliner sets the read deadline of a request's connection: the
// ResponseWriter of net/http's server itself, or an http.ResponseController
// of a wrapper of it.
type readDeadliner interface {
	SetReadDeadline(time.Time) error
}

// startDeadline bounds the time req's body may take to arrive, from now:
// the read timeout, or the server's ReadTimeout when that is shorter. It
// sets the deadline on the connection through rw
// (http.ResponseController) at the start of the handler, so that even a
// sender that goes silent is cut off, and so that it bounds what net/http
// itself reads of a body the handler left unread (a refusal's: net/http
// reads up to 256 KiB of it after the handler, to reuse the connection);
// read clears it once the body was read whole. When rw cannot set one (a
// wrapper without Unwrap), reads that start past the deadline fail: that
// stops a sender that trickles, at its next byte. (Closing the body from
// a timer would not stop a silent one over HTTP/1: the close waits for
// the read under way, then reads on to discard the rest, holding the lock
// net/http takes to write the answer.)
func (r *PushReceiver) startDeadline(rw http.ResponseWriter, req *http.Request) bodyDeadline {
	d := r.readTimeout
	if srv, ok := req.Context().Value(http.ServerContextKey).(*http.Server); ok && srv.ReadTimeout > 0 {
		d = min(d, srv.ReadTimeout) // never later than the server's own
	}
	dl := bodyDeadline{at: time.Now().Add(d)}
	if rd, ok := rw.(readDeadliner); ok {
		dl.rc = rd // net/http's own: no controller to make
	} else {
		dl.rc = http.NewResponseController(rw)
	}
	if dl.rc.SetReadDeadline(dl.at) != nil {
		dl.rc = nil
	}
	return dl
}

// read reads req's body for the receiver: at most limit bytes, its
// buffers charged to ch, by the deadline (timedOut reports that it
// passed), which it clears once the body was read whole, unless net/http
// does: an HTTP/1 body that arrived whole (its end starts the server's
// background read, which clears the deadline; and the server sets the
// connection's deadline again before reading another request).
func (dl bodyDeadline) read(req *http.Request, limit int64, red *redact.Redactor, ch *charge) (br httpbody.Result, timedOut bool) {
	if dl.rc != nil {
		// The connection's deadline fails the reads past it.
		br = httpbody.ReadRequest(req, limit, red, ch.take)
	} else {
		body := req.Body
		req.Body = &deadlineReader{r: body, deadline: dl.at} // read through the deadline
		br = httpbody.ReadRequest(req, limit, red, ch.take)
		req.Body = body
	}
	if dl.rc != nil && br.Err == nil && !br.TooLarge && !br.OverBudget && !(req.ProtoMajor == 1 && req.ContentLength != 0) {
		dl.rc.SetReadDeadline(time.Time{}) // read to its end: nothing more to bound
	}
	return br, br.Err != nil && !time.Now().Before(dl.at)
}

// deadlineReader fails every read that starts past its deadline.
type deadlineReader struct {
	r        io.ReadCloser
	deadline time.Time
}

// errReadTimeout is a body that took longer than the read timeout.
var errReadTimeout = errors.New("body read timeout")

func (d *deadlineReader) Read(p []byte) (int, error) {
	if !time.Now().Before(d.deadline) {
		return 0, errReadTimeout
	}
	return d.r.Read(p)
}

func (d *deadlineReader) Close() error { return d.r.Close() }
