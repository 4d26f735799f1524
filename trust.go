package a2a

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// Where credentials may go when the endpoint comes from an agent card
// (NewClientFromCard): the card's own origin, hosts the caller trusts, and
// never http after https.

// trustedHost is a host of WithTrustedHosts, as canonicalHost writes it;
// port is empty for any port.
type trustedHost struct{ host, port string }

// parseTrustedHost reads one host of WithTrustedHosts.
func parseTrustedHost(h string) (trustedHost, error) {
	bad := func(why string) (trustedHost, error) {
		return trustedHost{}, fmt.Errorf("a2a: trusted host %q: %s", h, why)
	}
	if h == "" || strings.ContainsAny(h, "/@?#* ") || controlByte(h) {
		return bad("want a host name or address, with a port or not, and nothing else (no wildcards)")
	}
	if ip := net.ParseIP(h); ip != nil { // an IPv6 address without brackets
		return trustedHost{host: canonicalHost(h)}, nil
	}
	u, err := url.Parse("//" + h)
	if err != nil || u.Host != h || u.Hostname() == "" {
		return bad("not a host")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return bad("bad port")
		}
	} else if strings.HasSuffix(h, ":") {
		return bad("empty port")
	}
	return trustedHost{host: canonicalHost(u.Hostname()), port: u.Port()}, nil
}

// originOf returns u's origin as "scheme://host:port", the port written
// out, the scheme in lower case, the host as canonicalHost writes it.
func originOf(u *url.URL) string {
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(hostPort(u))
}

// hostPort returns u's host in lower case and its port, the scheme's
// default when u has none.
func hostPort(u *url.URL) (host, port string) {
	port = u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return canonicalHost(u.Hostname()), port
}

// canonicalHost writes a host name in lower case without a final dot and
// an IP address in its shortest form, so that one host has one spelling.
func canonicalHost(h string) string {
	if ip := net.ParseIP(h); ip != nil {
		return ip.String()
	}
	return strings.TrimSuffix(strings.ToLower(h), ".")
}

// mayCarryCredentials returns an *UntrustedEndpointError, showing u
// through red, when the client of cfg would carry credentials from a card
// read at origin to endpoint u that is neither on that origin (or its
// https twin: http on port 80 made https on 443) nor on a host cfg trusts,
// or from https to http.
func (cfg *clientConfig) mayCarryCredentials(origin string, u *url.URL, red *redact.Redactor) error {
	if origin == "" || !cfg.credentials() {
		return nil
	}
	to := originOf(u)
	downgrade := strings.HasPrefix(origin, "https:") && strings.EqualFold(u.Scheme, "http")
	if to == origin || to == httpsTwin(origin) || (!downgrade && cfg.trusts(u)) {
		return nil
	}
	return &UntrustedEndpointError{CardOrigin: origin, Endpoint: red.ShownURL(*u), Downgrade: downgrade}
}

// httpsTwin is the https origin on port 443 of an http origin on port 80,
// or "".
func httpsTwin(origin string) string {
	host, ok := strings.CutPrefix(origin, "http://")
	if host, ok2 := strings.CutSuffix(host, ":80"); ok && ok2 {
		return "https://" + host + ":443"
	}
	return ""
}

// credentials reports whether requests could carry a credential: an API
// key, a bearer token, any header of the caller's (no list of names
// knows every vendor's: X-Honeycomb-Team, DPoP, X-Goog-Iap-Jwt-Assertion),
// or a credential source's (WithCredentials). It is the one predicate.
func (cfg *clientConfig) credentials() bool {
	return cfg.apiKey != "" || cfg.bearer != "" || len(cfg.header) > 0 || cfg.creds != nil
}

// trusts reports whether u's host is one of [WithTrustedHosts]'.
func (cfg *clientConfig) trusts(u *url.URL) bool {
	host, port := hostPort(u)
	for _, t := range cfg.trustedHosts {
		if t.host == host && (t.port == "" || t.port == port) {
			return true
		}
	}
	return false
}
