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
//
// Its idle pool holds twice DefaultMaxPollsInFlight connections per host
// (and at least that many in all), so the polling waits of a client, at
// most DefaultMaxPollsInFlight requests at once, reuse their connections:
// on a loopback agent they open at most 2×64−1 connections in all, in
// practice 64 and a few more dialed in the first burst (a request that
// waited for a dial may get a connection another request freed; the
// dialed one then joins the pool instead of being closed, and no later
// poll needs a new one). It sets no MaxConnsPerHost: a stream holds its
// connection for the task's life, and such a cap would make the stream
// past it wait for one to end.
const idlePerHost = 2 * DefaultMaxPollsInFlight

var sharedTransport = sync.OnceValue(func() *http.Transport {
	t := cleanhttp.DefaultPooledTransport()
	t.MaxIdleConnsPerHost = idlePerHost
	t.MaxIdleConns = max(t.MaxIdleConns, idlePerHost)
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
//
// The pool keeps up to twice [DefaultMaxPollsInFlight] idle connections
// per host (128, and 128 in all), sized to the default bound on a client's
// polls in flight ([WithMaxPollsInFlight]): the polling waits of one
// client reuse their connections instead of opening new ones, so an agent
// sees about 64 connections from them (at most 127), however many tasks
// they wait for. A client that polls more at once (WithMaxPollsInFlight
// above 64) should be given, through WithHTTPClient, a transport whose
// idle pool (MaxIdleConnsPerHost and MaxIdleConns) holds twice that
// many.
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
