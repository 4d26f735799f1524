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
	jkuTimeout  = 5 * time.Second
	jkuMaxBytes = 64 << 10
	jkuTTL      = 10 * time.Minute
	jkuEntries  = 64
)

// WithJKUHosts lets the verifier fetch a JWK Set from a signature's jku
// when the URL is https on one of hosts ("keys.example" for port 443,
// "keys.example:8443"): the caller vouches for those hosts, so their keys
// are trusted. A named host may be a loopback or private address; any
// other host's addresses are checked when dialled (so a DNS answer cannot
// move it to one). No redirect is followed; a fetch takes at most 5 s and
// 64 KiB; key sets are kept 10 minutes. It returns an error for a host
// that is not a host name or address with an optional port.
func WithJKUHosts(hosts ...string) Option {
	return option(func(v *Verifier) error {
		f := v.fetcher()
		for _, h := range hosts {
			u, err := url.Parse("https://" + h)
			if err != nil || u.Host != h || u.Hostname() == "" || strings.ContainsAny(h, "/@?#") {
				return fmt.Errorf("cardsig: WithJKUHosts: %q is not a host", h)
			}
			f.hosts[hostPort(u)] = true
		}
		return nil
	})
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
		v.jku = &jkuFetcher{hosts: map[string]bool{}, cache: map[string]jkuEntry{}}
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
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || (u.Path != "" && u.Path != "/") {
		return "", fmt.Errorf("%q is not an http(s) origin", origin)
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

// keys returns the keys named kid at jku, fetched or cached, when the
// policy allows jku for a card read at origin.
func (f *jkuFetcher) keys(ctx context.Context, jku, kid, origin string) ([]Key, error) {
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
	set, err := f.get(ctx, key)
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

// get returns the key set at target from the cache or the network.
func (f *jkuFetcher) get(ctx context.Context, target string) ([]Key, error) {
	f.mu.Lock()
	e, ok := f.cache[target]
	f.mu.Unlock()
	if ok && time.Now().Before(e.expires) {
		return e.keys, nil
	}
	keys, err := f.fetch(ctx, target)
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
	ctx, cancel := context.WithTimeout(ctx, jkuTimeout)
	defer cancel()
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
