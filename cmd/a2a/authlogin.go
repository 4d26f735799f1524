package main

import (
	"context"
	"encoding/json"
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

// `a2a auth login` (S§12.2, AUTH_005/006): the OAuth 2.0 flows a card
// declares, run by golang.org/x/oauth2 — the device authorization grant
// (RFC 8628) for a person at a terminal, client credentials (RFC 6749
// §4.4) for a service — giving the token the store keeps (authstore.go).

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
	if oidc := firstOIDCScheme(card); err != nil && oidc != "" {
		// No oauth2 flow: an OpenID Connect scheme's provider says its
		// endpoints in its discovery document (AUTH_010).
		flows, derr := discoverOIDC(ctx, hc, card.SecuritySchemes[oidc].OpenIDConnectURL)
		if derr != nil {
			return nil, derr
		}
		cp := *card
		cp.SecuritySchemes = maps.Clone(card.SecuritySchemes)
		cp.SecuritySchemes[oidc] = a2a.SecurityScheme{Type: "oauth2", Flows: flows}
		name, f, flow, err = chooseFlow(&cp, flow)
	}
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
		return nil, usagef("--client-id is needed (the OAuth 2.0 client registered with the agent's authorization server)")
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
	return "", usagef("--flow %s: want device or client-credentials", quote(flow))
}

// chooseFlow returns the oauth2 scheme (its name), flow and flow name
// (device, client-credentials) login uses; want "" takes the first flow
// offered of device, then client credentials. Errors: no oauth2 scheme on
// the card, or none offering the flow (a usage error naming those
// offered). An openIdConnect scheme counts only once authLogin has read
// its discovery document into flows (discoverOIDC).
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
		return "", nil, "", usagef("the agent's card declares no OAuth 2.0 device code or client credentials flow")
	}
	return "", nil, "", usagef("--flow %s: the agent's card offers %s", want, strings.Join(slices.Compact(slices.Sorted(slices.Values(offered))), ", "))
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

// oauthHTTPClient is hc (nil: a default client) copied to follow no
// redirect and, when hc has no Timeout, bounded to 30 s per request: a token request is never resent
// elsewhere with its secret.
func oauthHTTPClient(hc *http.Client) *http.Client {
	c := &http.Client{}
	if hc != nil {
		cp := *hc
		c = &cp
	}
	if c.Timeout == 0 {
		// tlsClient's client has no bound (for streams); a token
		// request gets one, so a hanging endpoint fails.
		c.Timeout = 30 * time.Second
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

// maxDiscoveryBytes bounds an OpenID Connect discovery document: 256 KiB.
const maxDiscoveryBytes = 256 << 10

// firstOIDCScheme is the name of card's first openIdConnect scheme with a
// discovery URL (schemes of the security requirements first, then by
// name), or "".
func firstOIDCScheme(card *a2a.AgentCard) string {
	if card == nil {
		return ""
	}
	var names []string
	for _, alt := range card.Security {
		names = append(names, slices.Sorted(maps.Keys(alt))...)
	}
	names = append(names, slices.Sorted(maps.Keys(card.SecuritySchemes))...)
	for _, n := range names {
		if s, ok := card.SecuritySchemes[n]; ok && strings.EqualFold(s.Type, "openIdConnect") && s.OpenIDConnectURL != "" {
			return n
		}
	}
	return ""
}

// discoverOIDC reads the OpenID Connect discovery document at raw
// (OpenID Connect Discovery 1.0 §4: GET, JSON, at most 256 KiB, no
// redirect followed) and returns the flows it offers: the device code
// flow when it names a device_authorization_endpoint (and
// grant_types_supported, if given, lists the device code grant), client
// credentials when grant_types_supported lists client_credentials. hc is
// as for authLogin. Errors: raw not https (or loopback http), the
// provider's failure or a status other than 200, a document that is not
// JSON or names no token endpoint, endpoints not https.
func discoverOIDC(ctx context.Context, hc *http.Client, raw string) (*a2a.OAuthFlows, error) {
	if err := checkOAuthURL("OpenID Connect discovery URL", raw); err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, fmt.Errorf("OpenID Connect discovery: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := oauthHTTPClient(hc).Do(req)
	if err != nil {
		return nil, fmt.Errorf("OpenID Connect discovery: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("OpenID Connect discovery: %s answered HTTP %d", quote(raw), resp.StatusCode)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxDiscoveryBytes+1))
	if err != nil {
		return nil, fmt.Errorf("OpenID Connect discovery: %w", err)
	}
	if len(b) > maxDiscoveryBytes {
		return nil, fmt.Errorf("OpenID Connect discovery: the document at %s is larger than %d bytes", quote(raw), maxDiscoveryBytes)
	}
	var doc struct {
		Issuer              string   `json:"issuer"`
		TokenEndpoint       string   `json:"token_endpoint"`
		DeviceEndpoint      string   `json:"device_authorization_endpoint"`
		GrantTypesSupported []string `json:"grant_types_supported"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || doc.TokenEndpoint == "" {
		return nil, fmt.Errorf("OpenID Connect discovery: the document at %s is not a provider configuration with a token_endpoint", quote(raw))
	}
	// OpenID Connect Discovery 1.0 §4.3: the issuer the document names is
	// the URL it was read under, less the well-known path; another is a
	// document for someone else (or a forged one) and is not used.
	if want, ok := strings.CutSuffix(raw, "/.well-known/openid-configuration"); ok && strings.TrimSuffix(doc.Issuer, "/") != strings.TrimSuffix(want, "/") {
		return nil, fmt.Errorf("OpenID Connect discovery: the document at %s names the issuer %s, not %s", quote(raw), quote(doc.Issuer), quote(want))
	}
	flows := &a2a.OAuthFlows{}
	const deviceGrant = "urn:ietf:params:oauth:grant-type:device_code"
	if doc.DeviceEndpoint != "" && (doc.GrantTypesSupported == nil || slices.Contains(doc.GrantTypesSupported, deviceGrant)) {
		flows.DeviceCode = &a2a.OAuthFlow{TokenURL: doc.TokenEndpoint, DeviceAuthorizationURL: doc.DeviceEndpoint}
	}
	if slices.Contains(doc.GrantTypesSupported, "client_credentials") {
		flows.ClientCredentials = &a2a.OAuthFlow{TokenURL: doc.TokenEndpoint}
	}
	return flows, nil
}
