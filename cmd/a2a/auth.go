package main

import (
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/caoliao-a2a/a2a-go"
)

// Credentials per the agent's card (S§12.1, AUTH_001, AUTH_008): the
// card's securitySchemes say how a credential travels (a bearer token in
// Authorization; an API key in the header, query parameter or cookie the
// scheme names), and its security requirements which ones it needs. The
// user's --bearer / --api-key (or the token `auth login` stored) go only
// where a declared scheme takes them; without a card (-e) or a card that
// declares nothing, --bearer is Authorization: Bearer and --api-key the
// X-API-Key header (the Caoliao gateway's).

// scheme kinds, as credentialPlan sorts a card's schemes.
const (
	kindToken  = "token"  // http bearer, oauth2, openIdConnect: Authorization: Bearer
	kindAPIKey = "apiKey" // apiKey: header, query or cookie
	kindMTLS   = "mtls"   // mutualTLS: the TLS client certificate (--cert/--key)
	kindOther  = "other"  // http basic or digest, unknown types: nothing this tool sends
)

// schemeKind is the kind of s.
func schemeKind(s a2a.SecurityScheme) string {
	switch strings.ToLower(s.Type) {
	case "oauth2", "openidconnect":
		return kindToken
	case "http":
		if strings.EqualFold(s.Scheme, "bearer") {
			return kindToken
		}
	case "apikey":
		return kindAPIKey
	case "mutualtls", "mtls":
		return kindMTLS
	}
	return kindOther
}

// flagFor names what gives a credential of kind, for error messages.
func flagFor(kind string) string {
	switch kind {
	case kindToken:
		return "--bearer (or a2a auth login)"
	case kindAPIKey:
		return "--api-key"
	case kindMTLS:
		return "--cert and --key"
	}
	return "a scheme this tool does not send (HTTP Basic/Digest or unknown)"
}

// needsCredentials reports whether card requires a security scheme: its
// security requirements are non-empty and none of the alternatives is
// empty (an empty alternative, {}, makes authentication optional). A nil
// card (-e) requires nothing. The core reports A2ACLI_ERR_CREDENTIALS_MISSING
// before sending anything when it is true and no credential was given.
func needsCredentials(card *a2a.AgentCard) bool {
	if card == nil || len(card.Security) == 0 {
		return false
	}
	for _, alt := range card.Security {
		if len(alt) == 0 {
			return false
		}
	}
	return true
}

// credentialPlan decides how the user's credentials travel to the agent
// of card (nil: -e mode, no card).
//
// bearer (or, when bearer is "", stored: the token `auth login` saved for
// the card's origin, through stored.source(dir loadToken read it from,
// stored.client): refreshed when it expires, saved again) is sent as
// "Authorization: Bearer" when the card declares an http bearer, oauth2 or
// openIdConnect scheme, or no scheme at all. apiKey goes where the card's
// apiKey scheme says: the header it names (X-API-Key through
// a2a.WithAPIKey, another through a2a.WithHeader), the query parameter it
// names, or the cookie it names; with no scheme declared, the X-API-Key
// header. Among several apiKey schemes the one of the first security
// alternative the given credentials satisfy wins, else the first by name.
//
// It returns the SDK options, and, for a query or cookie placement (the
// SDK has no option for those), wrap, which wraps the transport of the
// client given to a2a.WithHTTPClient (nil base: http.DefaultTransport) so
// that it adds the key to requests for the card's interface origins
// only, never to a public card GET (/.well-known/…). wrap is nil when
// not needed; opts is empty when no credential is given.
//
// Errors (nothing is to be sent): --bearer or --api-key given to a card
// that declares schemes but none that takes it (AUTH_008: the credential
// would go where no scheme accepts it), saying which flag the card takes;
// credentials given that satisfy none of the card's required
// alternatives, saying which flags one needs; two credentials for the
// same header. A stored token the card takes no scheme for is not used
// (no error). No error holds a credential.
func credentialPlan(card *a2a.AgentCard, bearer, apiKey string, stored *storedToken) (opts []a2a.Option, wrap func(http.RoundTripper) http.RoundTripper, err error) {
	declared := card != nil && len(card.SecuritySchemes) > 0
	kinds := map[string][]string{} // kind → scheme names, sorted
	if declared {
		for _, name := range slices.Sorted(maps.Keys(card.SecuritySchemes)) {
			k := schemeKind(card.SecuritySchemes[name])
			kinds[k] = append(kinds[k], name)
		}
	}
	hasToken := bearer != "" || stored != nil
	if declared && len(kinds[kindToken]) == 0 {
		if bearer != "" {
			return nil, nil, fmt.Errorf("--bearer: the agent's card declares no bearer, OAuth 2.0 or OpenID Connect scheme, so the token is not sent; the card takes %s", declaredFlags(kinds))
		}
		hasToken, stored = false, nil
	}
	if apiKey != "" && declared && len(kinds[kindAPIKey]) == 0 {
		return nil, nil, fmt.Errorf("--api-key: the agent's card declares no API key scheme, so the key is not sent; the card takes %s", declaredFlags(kinds))
	}
	given := map[string]bool{kindToken: hasToken, kindAPIKey: apiKey != ""}
	if card != nil && needsCredentials(card) && (hasToken || apiKey != "") {
		if _, ok := satisfiedAlternative(card, given); !ok {
			return nil, nil, fmt.Errorf("the agent's card requires %s; the credentials given do not satisfy it", requirementText(card))
		}
	}
	if hasToken {
		switch {
		case bearer != "":
			opts = append(opts, a2a.WithBearerToken(bearer))
		default:
			opts = append(opts, a2a.WithCredentials(stored.source(stored.dir, stored.client)))
		}
	}
	if apiKey == "" {
		return opts, nil, nil
	}
	scheme := a2a.SecurityScheme{Type: "apiKey", In: "header", Name: "X-API-Key"}
	if declared {
		scheme = card.SecuritySchemes[chooseAPIKeyScheme(card, kinds[kindAPIKey], given)]
	}
	name := scheme.Name
	switch strings.ToLower(scheme.In) {
	case "query", "cookie":
		if name == "" {
			return nil, nil, fmt.Errorf("--api-key: the card's API key scheme (in %s) names no parameter", strings.ToLower(scheme.In))
		}
		if strings.EqualFold(scheme.In, "cookie") && !validCookieName(name) {
			return nil, nil, fmt.Errorf("--api-key: the card's API key cookie name %s is not a valid cookie name", quote(name))
		}
		if strings.EqualFold(scheme.In, "cookie") && !validCookieValue(apiKey) {
			return nil, nil, errors.New("--api-key: the key cannot be sent in a cookie (it holds a space, quote, comma, semicolon, backslash or control character)")
		}
		return opts, keyPlacer(card, strings.ToLower(scheme.In), name, apiKey), nil
	}
	switch {
	case name == "" || strings.EqualFold(name, "X-API-Key"):
		opts = append(opts, a2a.WithAPIKey(apiKey))
	case strings.EqualFold(name, "Authorization") && hasToken:
		return nil, nil, errors.New("--api-key and --bearer would both go in the Authorization header: give one")
	default:
		opts = append(opts, a2a.WithHeader(name, apiKey))
	}
	return opts, nil, nil
}

// declaredFlags lists the flags that give the kinds of scheme declared.
func declaredFlags(kinds map[string][]string) string {
	var out []string
	for _, k := range []string{kindToken, kindAPIKey, kindMTLS, kindOther} {
		if len(kinds[k]) > 0 {
			out = append(out, flagFor(k))
		}
	}
	return strings.Join(out, ", or ")
}

// satisfiedAlternative returns the index of card's first security
// alternative whose every scheme the given kinds satisfy (mutualTLS counts
// as satisfied: it is the TLS client certificate's, outside the headers).
func satisfiedAlternative(card *a2a.AgentCard, given map[string]bool) (int, bool) {
	for i, alt := range card.Security {
		ok := true
		for name := range alt {
			s, declared := card.SecuritySchemes[name]
			k := schemeKind(s)
			if !declared || k != kindMTLS && !given[k] {
				ok = false
				break
			}
		}
		if ok {
			return i, true
		}
	}
	return 0, false
}

// requirementText says what card's security requirements ask, as flags:
// "--api-key, or --bearer (or a2a auth login)" for two alternatives, "--api-key
// and --bearer …" for one that needs both.
func requirementText(card *a2a.AgentCard) string {
	var alts []string
	for _, alt := range card.Security {
		var need []string
		for _, name := range slices.Sorted(maps.Keys(alt)) {
			f := "an undeclared scheme " + quote(name)
			if s, ok := card.SecuritySchemes[name]; ok {
				f = flagFor(schemeKind(s))
			}
			if !slices.Contains(need, f) {
				need = append(need, f)
			}
		}
		alts = append(alts, strings.Join(need, " and "))
	}
	return strings.Join(alts, ", or ")
}

// chooseAPIKeyScheme is the apiKey scheme (of names, sorted) the key goes
// in: the one of the first alternative the given kinds satisfy, else the
// first one.
func chooseAPIKeyScheme(card *a2a.AgentCard, names []string, given map[string]bool) string {
	if i, ok := satisfiedAlternative(card, given); ok {
		for _, name := range slices.Sorted(maps.Keys(card.Security[i])) {
			if slices.Contains(names, name) {
				return name
			}
		}
	}
	return names[0]
}

// validCookieValue reports whether v can be a cookie value as is (RFC
// 6265 cookie-octet), which net/http would otherwise alter silently.
func validCookieValue(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c <= 0x20 || c >= 0x7f || c == '"' || c == ',' || c == ';' || c == '\\' {
			return false
		}
	}
	return v != ""
}

// validCookieName reports whether n is an RFC 6265 cookie name (an RFC
// 9110 token), which net/http would otherwise drop silently.
func validCookieName(n string) bool {
	for i := 0; i < len(n); i++ {
		c := n[i]
		if c <= 0x20 || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?={}", c) >= 0 {
			return false
		}
	}
	return n != ""
}

// keyPlacer returns the wrap of an API key sent in a query parameter or
// cookie (in) named name: requests to an origin of one of card's
// interfaces get it, except GETs of a well-known card path.
func keyPlacer(card *a2a.AgentCard, in, name, key string) func(http.RoundTripper) http.RoundTripper {
	origins := map[string]bool{}
	for _, it := range card.Interfaces() {
		if o, err := originOf(it.URL); err == nil {
			origins[o] = true
		}
	}
	return func(base http.RoundTripper) http.RoundTripper {
		if base == nil {
			base = http.DefaultTransport
		}
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			o, err := originOf(req.URL.String())
			if err != nil || !origins[o] || strings.Contains(req.URL.Path, "/.well-known/") {
				return base.RoundTrip(req)
			}
			r := req.Clone(req.Context())
			if in == "query" {
				q := r.URL.Query()
				q.Set(name, key)
				r.URL.RawQuery = q.Encode()
			} else {
				r.AddCookie(&http.Cookie{Name: name, Value: key})
			}
			return base.RoundTrip(r)
		})
	}
}

// roundTripFunc adapts a function to an http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

// RoundTrip calls f(req).
func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// originOf returns rawURL's origin as the SDK writes it
// (a2a.AgentCard.Origin): "scheme://host:port", scheme and host in lower
// case, the port always written (80/443 by default), an IP address in its
// shortest form. It is the token store's key. Errors: not an absolute
// http(s) URL with a host.
func originOf(rawURL string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" || !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https") {
		return "", fmt.Errorf("%s is not an http(s) URL with a host", quote(rawURL))
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[scheme]
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if ip := net.ParseIP(host); ip != nil {
		host = ip.String()
	}
	return scheme + "://" + net.JoinHostPort(host, port), nil
}
