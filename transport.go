package a2a

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/hashicorp/go-cleanhttp"
)

// The HTTP clients under a Client: the redirect guard, the shared default
// transport, the bound on the time to a reply's first byte, and keeping
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

// httpClients returns the client's HTTP clients: one for its calls and one
// for streams (without a default client's overall timeout: a stream lasts
// as long as its task), both copies of hc (or of a default client on the
// shared transport) with redirects guarded, their transport bounded in the
// time to a reply's first byte (firstByte; when 0, hc's Timeout or
// DefaultTimeout) and not closeable by go-retryablehttp; and that
// transport as it was, for CloseIdleConnections.
func httpClients(hc *http.Client, firstByte time.Duration) (calls, streams *http.Client, base http.RoundTripper) {
	var cp http.Client
	if hc != nil {
		cp = *hc
	} else {
		cp = http.Client{Transport: sharedTransport(), Timeout: DefaultTimeout}
	}
	base = cp.Transport
	if base == nil {
		base = http.DefaultTransport // what hc would use
	}
	if firstByte <= 0 {
		firstByte = cp.Timeout
	}
	if firstByte <= 0 {
		firstByte = DefaultTimeout
	}
	cp.Transport = &boundedTransport{rt: base, firstByte: firstByte}
	guardRedirects(&cp)
	calls = &cp
	streams = calls
	if hc == nil {
		s := cp
		s.Timeout = 0
		streams = &s
	}
	return calls, streams, base
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

// boundedTransport bounds each round trip's time to the reply's first
// byte (its headers): a server that never answers cannot hold an attempt
// past firstByte, even with a context that has no deadline; the attempt
// then fails as a timeout and is retried where its class allows. A reply
// that is not an event stream stays bounded while its body is read; an
// event stream, once open, is bounded by ctx (and WithStreamIdleTimeout). It
// has no CloseIdleConnections on purpose: go-retryablehttp calls the
// http.Client's whenever a call gives up, which would drop connections
// other calls are using; Client.CloseIdleConnections reaches the pool
// directly.
type boundedTransport struct {
	rt        http.RoundTripper
	firstByte time.Duration
}

// errNoFirstByte is an attempt whose reply did not start in time.
type errNoFirstByte struct{ d time.Duration }

func (e errNoFirstByte) Error() string   { return fmt.Sprintf("no reply within %s", e.d) }
func (e errNoFirstByte) Timeout() bool   { return true }
func (e errNoFirstByte) Temporary() bool { return true }
func (e errNoFirstByte) Unwrap() error   { return context.DeadlineExceeded }

func (t *boundedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(req.Context())
	timer := time.AfterFunc(t.firstByte, func() { cancel(errNoFirstByte{t.firstByte}) })
	resp, err := t.rt.RoundTrip(req.WithContext(ctx))
	if err != nil {
		timer.Stop()
		if cause := context.Cause(ctx); errors.As(cause, new(errNoFirstByte)) {
			err = cause
		}
		cancel(nil)
		return nil, err
	}
	if isEventStream(resp) {
		timer.Stop() // open: only ctx bounds it now
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
