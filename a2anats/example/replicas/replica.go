package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2anats"
	"github.com/nats-io/nats.go"
)

// replica is one replica of the program: its own NATS connection and
// relay, a PushReceiver whose waits register the balancer's URL, and an
// HTTP server serving the receiver.
type replica struct {
	name string
	addr string // host:port of its HTTP server
	nc   *nats.Conn
	recv *a2a.PushReceiver
	srv  *http.Server
	once sync.Once
}

// countPasses counts the notifications a relay passes on.
type countPasses struct {
	a2a.PushRelay
	n *atomic.Int64
}

func (c countPasses) Pass(ctx context.Context, replica string, n a2a.RelayedNotification) error {
	err := c.PushRelay.Pass(ctx, replica, n)
	if err == nil {
		c.n.Add(1)
	}
	return err
}

// startReplica starts the replica named name, its relay on the NATS server
// at natsURL, its waits registering webhook; onDone collects its waits.
func startReplica(ctx context.Context, natsURL, name, webhook string, onDone func(*a2a.PushWait), passed *atomic.Int64) (*replica, error) {
	nc, err := nats.Connect(natsURL)
	if err != nil {
		return nil, err
	}
	relay, err := a2anats.New(ctx, nc, name)
	if err != nil {
		nc.Close()
		return nil, err
	}
	recv, err := a2a.NewPushReceiver(webhook, a2a.PushReplicas(countPasses{relay, passed}),
		a2a.PushMaxBytes(relay.MaxBody()), a2a.PushOnDone(onDone)) // no notification larger than NATS carries
	if err != nil {
		nc.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		recv.Close()
		nc.Close()
		return nil, err
	}
	r := &replica{name: name, addr: ln.Addr().String(), nc: nc, recv: recv,
		srv: &http.Server{Handler: recv, ReadHeaderTimeout: 10 * time.Second}}
	go r.srv.Serve(ln)
	return r, nil
}

// kill stops the replica as a crash would, for its waits: its HTTP server
// is closed (requests under way are cut), then its receiver (its waits end
// with ErrReceiverClosed in this process, and stay held in the relay), then
// its NATS connection.
func (r *replica) kill() {
	r.once.Do(func() {
		r.srv.Close()
		r.recv.Close()
		r.nc.Close()
	})
}

// balancer is a round-robin reverse proxy over the replicas' servers: a
// request that cannot reach one (a connection refused or cut) goes to the
// next, as a load balancer's retries do; one marked down gets none.
type balancer struct {
	url string
	srv *http.Server
	tr  *http.Transport

	mu    sync.Mutex
	hosts []string // by replica; "" when down
	next  int
}

func newBalancer() (*balancer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	b := &balancer{url: "http://" + ln.Addr().String() + "/a2a/push", hosts: make([]string, 3),
		tr: &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: 30 * time.Second}}
	placeholder := &url.URL{Scheme: "http", Host: "replica"}
	b.srv = &http.Server{Handler: &httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(placeholder) },
		Transport: b,
	}, ReadHeaderTimeout: 10 * time.Second}
	go b.srv.Serve(ln)
	return b, nil
}

func (b *balancer) set(i int, host string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.hosts[i] = host
}

func (b *balancer) down(i int) { b.set(i, "") }

// pick returns the next replica up, "" when none is.
func (b *balancer) pick() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	for range b.hosts {
		h := b.hosts[b.next%len(b.hosts)]
		b.next++
		if h != "" {
			return h
		}
	}
	return ""
}

// maxBody bounds a notification the balancer forwards.
const maxBody = 8 << 20

// RoundTrip sends req to the next replica up, and to the one after when
// that one cannot be reached, each replica tried at most twice.
func (b *balancer) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(io.LimitReader(req.Body, maxBody))
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	err = errors.New("no replica up")
	for range 2 * len(b.hosts) {
		host := b.pick()
		if host == "" {
			break
		}
		out := req.Clone(req.Context())
		out.URL.Host, out.Host = host, host
		out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		var resp *http.Response
		if resp, err = b.tr.RoundTrip(out); err == nil {
			return resp, nil
		}
	}
	return nil, err
}

func (b *balancer) close() {
	b.srv.Close()
	b.tr.CloseIdleConnections()
}
