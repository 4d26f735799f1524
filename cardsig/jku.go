package cardsig

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Following a signature's jku (RFC 7515 §4.1.2): a URL the signer chose,
// so an SSRF and trust-root vector (A2A#2096). It is followed only where
// the caller allows, only over https, and what it serves is trusted only
// because the caller named that host.

// Bounds of a jku fetch.
const (
	// jkuTimeout bounds all the jku fetches of one VerifyCard together.
	jkuTimeout = 5 * time.Second
	// jkuPerCard bounds the distinct jku URLs one VerifyCard fetches.
	jkuPerCard  = 2
	jkuMaxBytes = 64 << 10
	jkuTTL      = 10 * time.Minute
	jkuEntries  = 64
)

// WithJKUHosts lets the verifier fetch a JWK Set from a signature's jku
// when the URL is https on one of hosts ("keys.example" for port 443,
// "keys.example:8443"): the caller vouches for those hosts, so their keys
// are trusted. A named host may be a loopback or private address; any
// other host's addresses are checked when dialled (so a DNS answer cannot
// move it to one). No redirect is followed; a key set is at most 64 KiB
// and is kept 10 minutes. One VerifyCard fetches at most 2 distinct jku
// URLs, all its fetches together within 5 s (whatever its ctx allows):
// signatures past that are unverifiable. It returns an error for a host
// that is not a host name or IP address (no wildcard) with an optional
// port from 1 to 65535.
func WithJKUHosts(hosts ...string) Option {
	return option(func(v *Verifier) error {
		f := v.fetcher()
		for _, h := range hosts {
			u, err := url.Parse("https://" + h)
			if err != nil || u.Host != h || checkHost(u) != nil {
				return fmt.Errorf("cardsig: WithJKUHosts: %q is not a host[:port]", h)
			}
			f.hosts[hostPort(u)] = true
		}
		return nil
	})
}

// checkHost returns an error unless u is scheme://host[:port] and no
// more: a DNS name of letters, digits, '-' and '.', or an IP address; a
// port from 1 to 65535; no user, path other than "/", query or fragment.
func checkHost(u *url.URL) error {
	if u.User != nil || u.Opaque != "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return errors.New("more than scheme://host[:port]")
	}
	host := u.Hostname()
	if host == "" {
		return errors.New("no host")
	}
	if net.ParseIP(host) == nil {
		for _, c := range host {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
				return fmt.Errorf("host %q is not a DNS name or IP address", host)
			}
		}
	}
	if p := u.Port(); p != "" || strings.HasSuffix(u.Host, ":") {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("port %q is not from 1 to 65535", p)
		}
	}
	return nil
}

// WithSameOriginJKU lets the verifier fetch a JWK Set from a signature's
// jku on the origin the card was read from (https only), under the rules
// of [WithJKUHosts], the address check included: a site vouches for its
// own keys. Keys so fetched prove only that whoever served the card also
// served the key: pin keys ([WithOriginKeys]) where more is wanted.
func WithSameOriginJKU() Option {
	return option(func(v *Verifier) error {
		v.fetcher().sameOrigin = true
		return nil
	})
}

// WithJKURootCAs makes jku fetches trust the certificate authorities of
// pool instead of the system's (a private PKI, or a test server).
func WithJKURootCAs(pool *x509.CertPool) Option {
	return option(func(v *Verifier) error {
		if pool == nil {
			return errors.New("cardsig: WithJKURootCAs: nil pool")
		}
		v.fetcher().roots = pool
		return nil
	})
}

// jkuFetcher fetches and caches the key sets of allowed jku URLs.
type jkuFetcher struct {
	hosts      map[string]bool // "host:port"
	sameOrigin bool
	roots      *x509.CertPool
	timeout    time.Duration // for all the fetches of one VerifyCard: jkuTimeout

	once sync.Once
	hc   *http.Client

	mu    sync.Mutex
	cache map[string]jkuEntry
}

type jkuEntry struct {
	keys    []Key
	expires time.Time
}

func (v *Verifier) fetcher() *jkuFetcher {
	if v.jku == nil {
		v.jku = &jkuFetcher{hosts: map[string]bool{}, cache: map[string]jkuEntry{}, timeout: jkuTimeout}
	}
	return v.jku
}

// hostPort is u's "host:port", the port 443 when absent, the host in
// lower case.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "443"
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// canonicalOrigin writes an http(s) origin as a2a.AgentCard.Origin does:
// "https://host:443".
func canonicalOrigin(origin string) (string, error) {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q is not an http(s) origin", origin)
	}
	if err := checkHost(u); err != nil {
		return "", fmt.Errorf("%q is not an http(s) origin (scheme://host[:port]): %v", origin, err)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if ip := net.ParseIP(host); ip != nil {
		host = ip.String()
	}
	return u.Scheme + "://" + net.JoinHostPort(host, port), nil
}

// jkuBudget is what one VerifyCard may still spend on jku fetches: the
// URLs it fetched (and what came of each), and one deadline for them
// all, set at its first fetch.
type jkuBudget struct {
	ctx    context.Context
	cancel context.CancelFunc
	tried  map[string]error
}

func (b *jkuBudget) stop() {
	if b.cancel != nil {
		b.cancel()
	}
}

// keys returns the keys named kid at jku, fetched or cached, when the
// policy allows jku for a card read at origin and budget allows a fetch.
func (f *jkuFetcher) keys(ctx context.Context, jku, kid, origin string, budget *jkuBudget) ([]Key, error) {
	u, err := url.Parse(jku)
	if err != nil || u.Scheme != "https" || u.Hostname() == "" || u.User != nil {
		return nil, errors.New("no trusted key (jku is not an https URL: not followed)")
	}
	hp := hostPort(u)
	named := f.hosts[hp]
	if !named && !(f.sameOrigin && origin != "" && origin == "https://"+hp) {
		return nil, errors.New("no trusted key (jku host not allowed: not followed)")
	}
	u.Fragment = ""
	key := u.String()
	set, err := f.get(ctx, key, budget)
	if err != nil {
		return nil, fmt.Errorf("key unreachable at jku: %w", err)
	}
	var out []Key
	for _, k := range set {
		if k.JWK.KeyID == kid {
			out = append(out, k)
		}
	}
	return out, nil
}

// get returns the key set at target from the cache or, within budget,
// the network.
func (f *jkuFetcher) get(ctx context.Context, target string, budget *jkuBudget) ([]Key, error) {
	f.mu.Lock()
	e, ok := f.cache[target]
	f.mu.Unlock()
	if ok && time.Now().Before(e.expires) {
		return e.keys, nil
	}
	if err, ok := budget.tried[target]; ok {
		return nil, err
	}
	if len(budget.tried) == jkuPerCard {
		return nil, fmt.Errorf("not fetched: this card's signatures already named %d jku URLs, the most one card may", jkuPerCard)
	}
	if budget.ctx == nil {
		budget.ctx, budget.cancel = context.WithTimeout(ctx, f.timeout)
		budget.tried = map[string]error{}
	}
	if budget.ctx.Err() != nil {
		return nil, fmt.Errorf("not fetched: the %v this card's jku fetches may take together are spent", f.timeout)
	}
	keys, err := f.fetch(budget.ctx, target)
	budget.tried[target] = err
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.cache) >= jkuEntries {
		for k, old := range f.cache { // drop the stale, or else any one
			if time.Now().After(old.expires) || len(f.cache) >= jkuEntries {
				delete(f.cache, k)
			}
		}
	}
	f.cache[target] = jkuEntry{keys: keys, expires: time.Now().Add(jkuTTL)}
	return keys, nil
}

// fetch GETs target: https, no redirect, bounded in time and bytes, the
// dialled address checked unless the host was named.
func (f *jkuFetcher) fetch(ctx context.Context, target string) ([]Key, error) {
	hc := f.client()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/jwk-set+json, application/json")
	resp, err := hc.Do(req)
	if err != nil {
		if ue, ok := err.(*url.Error); ok {
			err = ue.Err
		}
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, jkuMaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > jkuMaxBytes {
		return nil, fmt.Errorf("key set larger than %d bytes", jkuMaxBytes)
	}
	return ParseKeySet(body)
}

func (f *jkuFetcher) client() *http.Client {
	f.once.Do(func() {
		tr := &http.Transport{
			TLSClientConfig:     &tls.Config{RootCAs: f.roots, MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout: jkuTimeout,
			DisableKeepAlives:   true, // a fetch every few minutes at most: no idle connection left behind
		}
		tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			d := net.Dialer{Timeout: jkuTimeout}
			if !f.hosts[strings.ToLower(addr)] { // a host the caller did not name: public addresses only
				d.Control = func(_, address string, _ syscall.RawConn) error {
					host, _, err := net.SplitHostPort(address)
					if err != nil {
						return err
					}
					if ip := net.ParseIP(host); ip == nil || !public(ip) {
						return fmt.Errorf("jku host resolves to %s, a private, loopback or link-local address", host)
					}
					return nil
				}
			}
			return d.DialContext(ctx, network, addr)
		}
		f.hc = &http.Client{
			Transport: tr,
			Timeout:   jkuTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return errors.New("jku redirects are not followed")
			},
		}
	})
	return f.hc
}

// public reports whether ip is a public unicast address.
func public(ip net.IP) bool {
	return !(ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast())
}
