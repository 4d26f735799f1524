package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/internal/inert"
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
// the card's origin, refreshed when it expires) is sent as
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

// loginParams are `auth login`'s flags: --flow ("device",
// "client-credentials", or "" for the first the card offers of those),
// --client-id, --client-secret and --scope (repeatable; none: the scopes
// the card's security requirement names for the scheme).
type loginParams struct {
	Flow, ClientID, ClientSecret string
	Scopes                       []string
}

// authLogin runs the OAuth 2.0 flow card declares and returns the token
// to save (saveToken); its Origin is card.Origin() (the caller sets it
// when the card was read from a file). The flow is the first the card's
// oauth2 schemes offer (schemes of the security requirements first, then
// by name) of p.Flow, or with p.Flow "" of: the device authorization
// grant (RFC 8628: the verification URI and user code are written to
// prompt, inert, then the token endpoint is polled at the interval the
// server gives, 5 s when it gives none, 5 s slower after each slow_down,
// until a token, a refusal, the code's expiry or ctx's end), then client
// credentials (RFC 6749 §4.4: one token request, the id and secret in
// HTTP Basic or the form, as the server takes them). hc is the HTTP
// client (nil: a default with a 30 s bound per request); redirects are
// not followed; the endpoints must be https, or http on a loopback host.
//
// Errors: a usage error for an unknown flow, a flow the card does not
// offer (naming those it does), a missing --client-id (both flows) or
// --client-secret (client credentials); the card's endpoints unusable;
// the server's refusal (access_denied, expired_token, invalid_client …)
// with its description made inert; ctx's error. No error holds the
// client secret or a token.
func authLogin(ctx context.Context, card *a2a.AgentCard, p loginParams, prompt io.Writer, hc *http.Client) (*storedToken, error) {
	flow, err := loginFlowName(p.Flow)
	if err != nil {
		return nil, err
	}
	name, f, flow, err := chooseFlow(card, flow)
	if err != nil {
		return nil, err
	}
	scopes := p.Scopes
	if len(scopes) == 0 {
		for _, alt := range card.Security {
			if s, ok := alt[name]; ok {
				scopes = s
				break
			}
		}
	}
	if p.ClientID == "" {
		return nil, usagef("a2a auth login: --client-id is needed (the OAuth 2.0 client registered with the agent's authorization server)")
	}
	if err := checkOAuthURL("token URL", f.TokenURL); err != nil {
		return nil, err
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, oauthHTTPClient(hc))
	secrets := []string{p.ClientSecret}
	var tok *oauth2.Token
	switch flow {
	case "client-credentials":
		if p.ClientSecret == "" {
			return nil, usagef("a2a auth login --flow client-credentials: --client-secret is needed (or A2ACLI_CLIENT_SECRET)")
		}
		cc := clientcredentials.Config{ClientID: p.ClientID, ClientSecret: p.ClientSecret, TokenURL: f.TokenURL, Scopes: scopes}
		tok, err = cc.Token(ctx)
		if err != nil {
			return nil, oauthError("client credentials token request", err, secrets...)
		}
	default: // device
		if err := checkOAuthURL("device authorization URL", f.DeviceAuthorizationURL); err != nil {
			return nil, err
		}
		cfg := oauth2.Config{ClientID: p.ClientID, ClientSecret: p.ClientSecret, Scopes: scopes,
			Endpoint: oauth2.Endpoint{DeviceAuthURL: f.DeviceAuthorizationURL, TokenURL: f.TokenURL, AuthStyle: oauth2.AuthStyleInParams}}
		da, err := cfg.DeviceAuth(ctx)
		if err != nil {
			return nil, oauthError("device authorization request", err, secrets...)
		}
		if da.DeviceCode == "" || da.UserCode == "" || da.VerificationURI == "" {
			return nil, errors.New("device authorization request: the server's answer lacks a device code, user code or verification URI")
		}
		secrets = append(secrets, da.DeviceCode)
		fmt.Fprintf(prompt, "To sign in, open %s and enter the code: %s\n", inert.Printable(da.VerificationURI), inert.Printable(da.UserCode))
		if da.VerificationURIComplete != "" {
			fmt.Fprintf(prompt, "(or open %s)\n", inert.Printable(da.VerificationURIComplete))
		}
		if !da.Expiry.IsZero() {
			fmt.Fprintf(prompt, "Waiting for the sign-in (the code expires in %s)...\n", time.Until(da.Expiry).Round(time.Second))
		}
		tok, err = cfg.DeviceAccessToken(ctx, da)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				return nil, errors.New("the device code expired before the sign-in was approved: run a2a auth login again")
			}
			return nil, oauthError("device access token request", err, secrets...)
		}
	}
	t, err := fromOAuthToken(tok, card.Origin(), f.TokenURL, p.ClientID)
	if err != nil {
		return nil, err
	}
	if flow == "client-credentials" {
		// A refresh sends no secret (none is stored): a client
		// credentials token is renewed by logging in again.
		t.RefreshToken = ""
	}
	return t, nil
}

// loginFlowName is --flow's value as chooseFlow names it.
func loginFlowName(flow string) (string, error) {
	switch strings.ToLower(strings.ReplaceAll(flow, "_", "-")) {
	case "":
		return "", nil
	case "device", "device-code", "devicecode":
		return "device", nil
	case "client-credentials", "clientcredentials":
		return "client-credentials", nil
	}
	return "", usagef("a2a auth login: --flow %s: want device or client-credentials", quote(flow))
}

// chooseFlow returns the oauth2 scheme (its name), flow and flow name
// (device, client-credentials) login uses; want "" takes the first flow
// offered of device, then client credentials. Errors: no oauth2 scheme on
// the card, or none offering the flow (a usage error naming those
// offered).
func chooseFlow(card *a2a.AgentCard, want string) (string, *a2a.OAuthFlow, string, error) {
	if card == nil {
		return "", nil, "", usagef("a2a auth login needs the agent's card (-a): its OAuth 2.0 scheme names the token endpoint")
	}
	var names []string
	for _, alt := range card.Security {
		for _, n := range slices.Sorted(maps.Keys(alt)) {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	for _, n := range slices.Sorted(maps.Keys(card.SecuritySchemes)) {
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	var offered []string
	for _, want1 := range []string{"device", "client-credentials"} {
		if want != "" && want != want1 {
			continue
		}
		for _, n := range names {
			s, ok := card.SecuritySchemes[n]
			if !ok || !strings.EqualFold(s.Type, "oauth2") || s.Flows == nil {
				continue
			}
			if want1 == "device" && s.Flows.DeviceCode != nil {
				return n, s.Flows.DeviceCode, want1, nil
			}
			if want1 == "client-credentials" && s.Flows.ClientCredentials != nil {
				return n, s.Flows.ClientCredentials, want1, nil
			}
		}
	}
	for _, n := range names {
		if s, ok := card.SecuritySchemes[n]; ok && strings.EqualFold(s.Type, "oauth2") && s.Flows != nil {
			if s.Flows.DeviceCode != nil {
				offered = append(offered, "device")
			}
			if s.Flows.ClientCredentials != nil {
				offered = append(offered, "client-credentials")
			}
		}
	}
	if len(offered) == 0 {
		return "", nil, "", usagef("a2a auth login: the agent's card declares no OAuth 2.0 device code or client credentials flow")
	}
	return "", nil, "", usagef("a2a auth login: --flow %s: the agent's card offers %s", want, strings.Join(slices.Compact(slices.Sorted(slices.Values(offered))), ", "))
}

// checkOAuthURL returns an error unless raw is an https URL, or an http
// URL on a loopback host (a local test server): a secret or code is sent
// there (OAuth 2.1 requires TLS).
func checkOAuthURL(what, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("the card's OAuth 2.0 %s %s is not an absolute URL", what, quote(raw))
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return nil
	case "http":
		h := u.Hostname()
		if ip := net.ParseIP(h); h == "localhost" || ip != nil && ip.IsLoopback() {
			return nil
		}
	}
	return fmt.Errorf("the card's OAuth 2.0 %s %s is not https: refused (a secret or code would travel in clear)", what, quote(raw))
}

// oauthHTTPClient is hc (nil: a client bounded to 30 s per request)
// copied to follow no redirect: a token request is never resent
// elsewhere with its secret.
func oauthHTTPClient(hc *http.Client) *http.Client {
	c := &http.Client{Timeout: 30 * time.Second}
	if hc != nil {
		cp := *hc
		c = &cp
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c
}

// oauthError is err of an OAuth 2.0 request (what) as the CLI says it:
// for the server's refusal its HTTP status, error code and description
// (inert, at most 200 bytes each) rather than x/oauth2's text, which
// quotes the whole body; with every secret in secrets replaced by
// "[REDACTED]" either way.
func oauthError(what string, err error, secrets ...string) error {
	// Secrets are replaced before anything is cut or escaped, so no part
	// of one survives a truncation.
	clean := func(s string, n int) string {
		for _, sec := range secrets {
			if sec != "" {
				s = strings.ReplaceAll(s, sec, "[REDACTED]")
			}
		}
		return inert.Printable(inert.Truncate(s, n))
	}
	var re *oauth2.RetrieveError
	if !errors.As(err, &re) {
		return fmt.Errorf("%s: %s", what, clean(err.Error(), 400))
	}
	code := "no error code"
	if re.ErrorCode != "" {
		code = clean(re.ErrorCode, 200)
	}
	status := 0
	if re.Response != nil {
		status = re.Response.StatusCode
	}
	msg := fmt.Sprintf("the server refused: HTTP %d, %s", status, code)
	if re.ErrorDescription != "" {
		msg += ": " + clean(re.ErrorDescription, 200)
	}
	switch re.ErrorCode {
	case "expired_token":
		msg += " (the device code expired: run a2a auth login again)"
	case "access_denied":
		msg += " (the sign-in was denied)"
	}
	return fmt.Errorf("%s: %s", what, msg)
}
