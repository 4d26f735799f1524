package a2a

import (
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/httpbody"
	"github.com/hashicorp/go-cleanhttp"
)

// The HTTP clients under a Client: the redirect guard, the shared default
// transport, the bound on each attempt, and keeping
// go-retryablehttp from closing the pool's idle connections.

// sharedTransport is the transport of every Client made without
// WithHTTPClient: one pool of connections for the program, so clients
// made and dropped (ResolveAgentCard makes one per call) leave no pools,
// goroutines or descriptors behind. It is go-cleanhttp's pooled transport,
// never http.DefaultTransport, which tests and tracing libraries replace.
var sharedTransport = sync.OnceValue(func() *http.Transport {
	t := cleanhttp.DefaultPooledTransport()
	t.MaxIdleConnsPerHost = 64
	return t
})

// CloseIdleConnections closes the idle keep-alive connections of the one
// pool of connections that every [Client] made without [WithHTTPClient]
// shares, without touching connections in use; the clients stay usable.
// There is nothing to close per client: clients made and dropped leave no
// pool, goroutine or descriptor behind. Call it where idle connections
// must not outlive a piece of work, such as a test that checks for leaked
// goroutines. A client made with WithHTTPClient uses the caller's
// transport; close its idle connections with the caller's
// [http.Client.CloseIdleConnections].
func CloseIdleConnections() { sharedTransport().CloseIdleConnections() }

// httpClients returns the client's HTTP clients: one for its calls and one
// for streams (without a default client's overall timeout: a stream lasts
// as long as its task), both copies of hc (or of a default client on the
// shared transport) with redirects guarded, each attempt bounded by
// attempt (see boundedTransport; when unset, hc's Timeout or
// DefaultAttemptTimeout; 0: no bound) and their transport not closeable by
// go-retryablehttp.
func httpClients(hc *http.Client, attempt time.Duration, attemptSet bool) (calls, streams *http.Client) {
	var cp http.Client
	if hc != nil {
		cp = *hc
	} else {
		cp = http.Client{Transport: sharedTransport(), Timeout: DefaultAttemptTimeout}
	}
	base := cp.Transport
	if base == nil {
		base = http.DefaultTransport // what hc would use
	}
	if !attemptSet {
		attempt = cmp.Or(cp.Timeout, DefaultAttemptTimeout)
	}
	guardRedirects(&cp)
	s := cp
	cp.Transport = &boundedTransport{rt: base, attempt: attempt}
	s.Transport = &boundedTransport{rt: base, attempt: attempt, streams: true}
	if hc == nil {
		s.Timeout = 0
	}
	return &cp, &s
}

// guardRedirects makes hc's redirect policy never leave the endpoint's
// host and never turn a POST into a GET: such a redirect ends the request
// with the 3xx reply ([*HTTPError]). hc's own policy runs after.
func guardRedirects(hc *http.Client) {
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

// boundedTransport bounds each round trip by attempt (0: no bound), even
// with a context that has no deadline: a server that never answers, or
// trickles a reply, cannot hold an attempt longer; it then fails as a
// timeout and is retried where its method allows. The bound lasts until
// the body is closed, except that on the streams' transport (streams set)
// an event stream's bound ends when its headers arrive: once open, a
// stream is bounded by ctx and WithStreamIdleTimeout. It has no
// CloseIdleConnections on purpose: go-retryablehttp calls the
// http.Client's whenever a call gives up, which would drop connections
// other calls are using; CloseIdleConnections reaches the shared pool
// directly.
type boundedTransport struct {
	rt      http.RoundTripper
	attempt time.Duration
	streams bool
}

func (t *boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.attempt <= 0 {
		return t.rt.RoundTrip(req)
	}
	ctx, cancel := context.WithCancelCause(req.Context())
	timer := time.AfterFunc(t.attempt, func() { cancel(httpbody.TimeoutError{What: "no reply", Bound: t.attempt}) })
	resp, err := t.rt.RoundTrip(req.WithContext(ctx))
	if err != nil {
		timer.Stop()
		if cause := context.Cause(ctx); errors.As(cause, new(httpbody.TimeoutError)) {
			err = cause
		}
		cancel(nil)
		return nil, err
	}
	if t.streams && httpbody.IsEventStream(resp) && !timer.Stop() {
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
