// Package roundtrip holds what the SDK puts around each HTTP round trip:
// a bound on how long one attempt may take (Bounded) and a redirect
// policy that keeps a request on its host and method (GuardRedirects).
// It knows HTTP, not A2A.
package roundtrip

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/httpbody"
)

// GuardRedirects makes hc's redirect policy never leave the first
// request's host and scheme, never change its method (a POST turned into
// a GET by a 301, 302 or 303) and never follow more than three: such a
// redirect ends the request with the 3xx reply. hc's own policy, if any,
// runs after.
func GuardRedirects(hc *http.Client) {
	next := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		first := via[0]
		if req.URL.Host != first.URL.Host || req.URL.Scheme != first.URL.Scheme || req.Method != first.Method || len(via) > 3 {
			return http.ErrUseLastResponse
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
}

// Bounded bounds each round trip of RT by Attempt (0: no bound), even
// with a context that has no deadline: a server that never answers, or
// trickles a reply, cannot hold an attempt longer; the round trip then
// fails with an httpbody.TimeoutError ("no reply"). The bound lasts until
// the body is closed, except that with Streams set an event stream's
// bound ends when its headers arrive (an open stream is bounded by its
// context and the idle bound of httpbody.OpenEvents). It has no
// CloseIdleConnections on purpose: go-retryablehttp calls the
// http.Client's whenever a call gives up, which would drop connections
// other calls are using.
type Bounded struct {
	RT      http.RoundTripper
	Attempt time.Duration
	Streams bool
}

// RoundTrip makes one round trip within the bound. Its errors are RT's,
// or an httpbody.TimeoutError when the bound ran out first.
func (t *Bounded) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.Attempt <= 0 {
		return t.RT.RoundTrip(req)
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	timer := time.AfterFunc(t.Attempt, func() { cancel(httpbody.TimeoutError{What: "no reply", Bound: t.Attempt}) })
	resp, err := t.RT.RoundTrip(req.WithContext(ctx))
	if err != nil {
		timer.Stop()
		if cause := context.Cause(ctx); errors.As(cause, new(httpbody.TimeoutError)) {
			err = cause
		}
		cancel(nil)
		return nil, err
	}
	if t.Streams && httpbody.IsEventStream(resp) && !timer.Stop() {
		// The bound ran out as the stream opened: it did not open in time.
		resp.Body.Close()
		cancel(nil)
		return nil, context.Cause(ctx)
	}
	resp.Body = &boundedBody{ReadCloser: resp.Body, stop: func() { timer.Stop(); cancel(nil) }}
	return resp, nil
}

// boundedBody releases its round trip's timer and context when closed.
type boundedBody struct {
	io.ReadCloser
	once sync.Once
	stop func()
}

func (b *boundedBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.stop)
	return err
}
