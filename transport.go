package a2a

import (
	"cmp"
	"net/http"
	"sync"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/roundtrip"
	"github.com/hashicorp/go-cleanhttp"
)

// The HTTP clients under a Client: the shared default transport, and
// each client's copies with the redirect guard and the bound on each
// attempt (internal/roundtrip).

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
// attempt (roundtrip.Bounded; when unset, hc's Timeout or
// DefaultAttemptTimeout; 0: no bound) and their transport not closeable by
// go-retryablehttp (roundtrip.Bounded has no CloseIdleConnections;
// CloseIdleConnections reaches the shared pool directly); and that bound.
func httpClients(hc *http.Client, attempt time.Duration, attemptSet bool) (calls, streams *http.Client, bound time.Duration) {
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
	roundtrip.GuardRedirects(&cp)
	s := cp
	cp.Transport = &roundtrip.Bounded{RT: base, Attempt: attempt}
	s.Transport = &roundtrip.Bounded{RT: base, Attempt: attempt, Streams: true}
	if hc == nil {
		s.Timeout = 0
	}
	return &cp, &s, attempt
}
