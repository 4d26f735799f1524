package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// deviceServer is an RFC 8628 authorization server on loopback: POST
// /device issues device code "dc-1" (user code and verification URI as
// given, interval 1 s, expires in 600 s); POST /token answers the device
// code grant with the replies of script in turn (an error code, or "" for
// a token "at-device"), the last one repeated. It records each /token form.
type deviceServer struct {
	*httptest.Server
	mu       sync.Mutex
	script   []string
	polls    []string // device_code of each poll
	userCode string
}

func newDeviceServer(t *testing.T, userCode string, script ...string) *deviceServer {
	d := &deviceServer{script: script, userCode: userCode}
	d.Server = httptest.NewServer(http.HandlerFunc(d.serve))
	t.Cleanup(d.Close)
	return d
}

func (d *deviceServer) serve(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.Method != http.MethodPost || r.ParseForm() != nil || r.PostForm.Get("client_id") != "cli" {
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":"invalid_request"}`))
		return
	}
	switch r.URL.Path {
	case "/device":
		uc, _ := json.Marshal(d.userCode)
		fmt.Fprintf(w, `{"device_code":"dc-1","user_code":%s,"verification_uri":"https://as.example/activate","interval":1,"expires_in":600}`, uc)
	case "/token":
		if r.PostForm.Get("grant_type") != "urn:ietf:params:oauth:grant-type:device_code" {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"unsupported_grant_type"}`))
			return
		}
		d.mu.Lock()
		d.polls = append(d.polls, r.PostForm.Get("device_code"))
		reply := d.script[min(len(d.polls), len(d.script))-1]
		d.mu.Unlock()
		if reply != "" {
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"error":%q}`, reply)
			return
		}
		w.Write([]byte(`{"access_token":"at-device","refresh_token":"rt-device","token_type":"Bearer","expires_in":3600}`))
	default:
		http.NotFound(w, r)
	}
}

// deviceCard is a card whose oauth2 scheme offers the device flow of d.
func deviceCard(d *deviceServer) *a2a.AgentCard {
	return securedCard(map[string]a2a.SecurityScheme{"oauth": {Type: "oauth2", Flows: &a2a.OAuthFlows{
		DeviceCode: &a2a.OAuthFlow{DeviceAuthorizationURL: d.URL + "/device", TokenURL: d.URL + "/token", Scopes: map[string]string{"a2a": "call"}}}}},
		map[string][]string{"oauth": {"a2a"}})
}

// The device flow waits out authorization_pending twice and slow_down
// (which adds 5 s to the interval, RFC 8628 §3.5) and returns the token.
func TestAuthLoginDeviceCode(t *testing.T) {
	t.Parallel()
	d := newDeviceServer(t, "WDJB-MJHT\x1b[31m", "authorization_pending", "authorization_pending", "slow_down", "")
	var prompt bytes.Buffer
	hc := &http.Client{Transport: testTransport(t)}
	tok, err := authLogin(t.Context(), deviceCard(d), loginParams{ClientID: "cli"}, &prompt, hc)
	if err != nil {
		t.Fatal(err)
	}
	if tok.AccessToken != "at-device" || tok.RefreshToken != "rt-device" || tok.TokenURL != d.URL+"/token" || tok.ClientID != "cli" || tok.Expiry.IsZero() {
		t.Errorf("token = %+v", tok)
	}
	d.mu.Lock()
	polls := d.polls
	d.mu.Unlock()
	if len(polls) != 4 || polls[0] != "dc-1" {
		t.Errorf("token endpoint polled %d times (%v), want 4 with the device code", len(polls), polls)
	}
	p := prompt.String()
	if !strings.Contains(p, "https://as.example/activate") || !strings.Contains(p, `WDJB-MJHT\x1b[31m`) || strings.Contains(p, "\x1b") {
		t.Errorf("prompt %q: want the URI and the user code, inert", p)
	}
}

func TestAuthLoginDeviceCodeExpired(t *testing.T) {
	t.Parallel()
	d := newDeviceServer(t, "U", "authorization_pending", "expired_token")
	_, err := authLogin(t.Context(), deviceCard(d), loginParams{ClientID: "cli", Flow: "device"}, &bytes.Buffer{}, &http.Client{Transport: testTransport(t)})
	if err == nil || !strings.Contains(err.Error(), "expired_token") || !strings.Contains(err.Error(), "a2a auth login again") {
		t.Errorf("err = %v, want expired_token and what to do", err)
	}
	if strings.Contains(err.Error(), "dc-1") {
		t.Errorf("error %q holds the device code", err)
	}
}

func TestAuthLoginDeviceCodeDenied(t *testing.T) {
	t.Parallel()
	d := newDeviceServer(t, "U", "access_denied")
	_, err := authLogin(t.Context(), deviceCard(d), loginParams{ClientID: "cli"}, &bytes.Buffer{}, &http.Client{Transport: testTransport(t)})
	if err == nil || !strings.Contains(err.Error(), "denied") {
		t.Errorf("err = %v", err)
	}
}

// tokenAgent is an a2atest agent issuing tokens by client credentials, its
// card offering that flow at its own token endpoint.
func tokenAgent(t *testing.T, id, secret string) *a2atest.Server {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	card := securedCard(map[string]a2a.SecurityScheme{"oauth": {Type: "oauth2", Flows: &a2a.OAuthFlows{
		ClientCredentials: &a2a.OAuthFlow{TokenURL: "http://" + l.Addr().String() + "/oauth2/token", Scopes: map[string]string{}}}}},
		map[string][]string{"oauth": {}})
	srv := a2atest.NewServer(a2atest.Listener(l), a2atest.IssueTokens(id, secret, time.Hour), a2atest.WithCard(card))
	t.Cleanup(srv.Close)
	return srv
}

// Client credentials against a2atest's RFC 6749 §4.4 endpoint; the token
// then reaches the agent through credentialPlan, which takes it.
func TestAuthLoginClientCredentials(t *testing.T) {
	srv := tokenAgent(t, "cli", "cs-secret-9")
	hc := &http.Client{Transport: testTransport(t)}
	card, err := a2a.ResolveAgentCard(t.Context(), srv.BaseURL(), a2a.WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	if card.SecuritySchemes["oauth"].Flows.ClientCredentials.TokenURL != srv.TokenURL() {
		t.Fatalf("card token URL %q, server's %q", card.SecuritySchemes["oauth"].Flows.ClientCredentials.TokenURL, srv.TokenURL())
	}
	tok, err := authLogin(t.Context(), card, loginParams{ClientID: "cli", ClientSecret: "cs-secret-9"}, &bytes.Buffer{}, hc)
	if err != nil {
		t.Fatal(err)
	}
	if tok.AccessToken == "" || tok.Origin != card.Origin() || tok.RefreshToken != "" || srv.TokensIssued() != 1 {
		t.Errorf("token %+v (card origin %s), %d issued", tok, card.Origin(), srv.TokensIssued())
	}
	dir := t.TempDir()
	if err := saveToken(dir, tok); err != nil {
		t.Fatal(err)
	}
	stored, err := loadToken(dir, card.Origin())
	if err != nil || stored == nil {
		t.Fatalf("loadToken: %v, %v", stored, err)
	}
	opts, _, err := credentialPlan(card, "", "", stored)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2a.NewClientFromCard(card, append(opts, a2a.WithHTTPClient(hc))...)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetTask(t.Context(), "t1")
	var he *a2a.HTTPError
	if errors.As(err, &he) {
		t.Errorf("GetTask with the stored token: %v", err)
	}
	if needsCredentials(card) != true {
		t.Error("needsCredentials(card requiring oauth) = false")
	}
}

// Usage errors and refusals, none with the secret.
func TestAuthLoginErrors(t *testing.T) {
	srv := tokenAgent(t, "cli", "cs-secret-10")
	hc := &http.Client{Transport: testTransport(t)}
	card, err := a2a.ResolveAgentCard(t.Context(), srv.BaseURL(), a2a.WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	var ue usageError
	for _, tc := range []struct {
		name  string
		card  *a2a.AgentCard
		p     loginParams
		usage bool
		want  string
	}{
		{"wrong secret", card, loginParams{ClientID: "cli", ClientSecret: "wrong-secret-10"}, false, "invalid_client"},
		{"no secret", card, loginParams{ClientID: "cli"}, true, "--client-secret"},
		{"no client id", card, loginParams{ClientSecret: "cs-secret-10"}, true, "--client-id"},
		{"flow not offered", card, loginParams{Flow: "device", ClientID: "cli"}, true, "offers client-credentials"},
		{"unknown flow", card, loginParams{Flow: "implicit", ClientID: "cli"}, true, "--flow"},
		{"no oauth scheme", securedCard(nil), loginParams{ClientID: "cli"}, true, "no OAuth 2.0"},
		{"no card", nil, loginParams{ClientID: "cli"}, true, "card"},
		{"token URL in clear", securedCard(map[string]a2a.SecurityScheme{"o": {Type: "oauth2", Flows: &a2a.OAuthFlows{
			ClientCredentials: &a2a.OAuthFlow{TokenURL: "http://as.example/token"}}}}), loginParams{ClientID: "cli", ClientSecret: "cs-secret-10"}, false, "not https"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := authLogin(t.Context(), tc.card, tc.p, &bytes.Buffer{}, hc)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if errors.As(err, &ue) != tc.usage {
				t.Errorf("usage error = %v, want %v", !tc.usage, tc.usage)
			}
			if strings.Contains(err.Error(), "secret-10") {
				t.Errorf("error %q holds the client secret", err)
			}
		})
	}
	if srv.TokensIssued() != 0 {
		t.Errorf("%d tokens issued", srv.TokensIssued())
	}
}

// A hostile token endpoint echoing the secret, redirecting, answering a
// token with a control character or of a type other than Bearer: errors
// without the secret, no redirect followed.
func TestAuthLoginHostileTokenEndpoint(t *testing.T) {
	var redirected bool
	var as *httptest.Server
	as = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/echo":
			_, pw, _ := r.BasicAuth()
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":"invalid_client","error_description":"got %s%s"}`, pw, r.PostForm.Get("client_secret"))
		case "/redirect":
			http.Redirect(w, r, as.URL+"/elsewhere", http.StatusTemporaryRedirect)
		case "/elsewhere":
			redirected = true
			w.Write([]byte(`{"access_token":"a","token_type":"Bearer"}`))
		case "/dpop":
			w.Write([]byte(`{"access_token":"a","token_type":"DPoP"}`))
		case "/control":
			w.Write([]byte(`{"access_token":"a\u0007b","token_type":"Bearer"}`))
		}
	}))
	defer as.Close()
	hc := &http.Client{Transport: testTransport(t)}
	for _, path := range []string{"/echo", "/redirect", "/control", "/dpop"} {
		card := securedCard(map[string]a2a.SecurityScheme{"o": {Type: "oauth2", Flows: &a2a.OAuthFlows{
			ClientCredentials: &a2a.OAuthFlow{TokenURL: as.URL + path}}}})
		_, err := authLogin(t.Context(), card, loginParams{ClientID: "cli", ClientSecret: "cs-secret-11"}, &bytes.Buffer{}, hc)
		if err == nil || strings.Contains(err.Error(), "cs-secret-11") || strings.ContainsAny(err.Error(), "\x07\x1b") {
			t.Errorf("%s: err = %q", path, err)
		}
	}
	if redirected {
		t.Error("a token request followed a redirect")
	}
}

// OpenID Connect (AUTH_010): the card's openIdConnect scheme names a
// discovery document; login reads the provider's endpoints from it and
// runs client credentials there, with the scopes the card requires.
func TestAuthLoginOpenIDConnect(t *testing.T) {
	var as *httptest.Server
	var scope, issuer string // issuer: the document's, when not the server's own
	as = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/openid-configuration":
			fmt.Fprintf(w, `{"issuer":%q,"token_endpoint":%q,"grant_types_supported":["client_credentials"]}`, cmp.Or(issuer, as.URL), as.URL+"/token")
		case "/token":
			r.ParseForm()
			id, secret, ok := r.BasicAuth()
			if !ok {
				id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
			}
			if r.PostForm.Get("grant_type") != "client_credentials" || id != "cli" || secret != "cs-secret-12" {
				w.WriteHeader(http.StatusUnauthorized)
				w.Write([]byte(`{"error":"invalid_client"}`))
				return
			}
			scope = r.PostForm.Get("scope")
			w.Write([]byte(`{"access_token":"at-oidc","token_type":"Bearer","expires_in":60}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer as.Close()
	card := securedCard(map[string]a2a.SecurityScheme{"oidc": {Type: "openIdConnect", OpenIDConnectURL: as.URL + "/.well-known/openid-configuration"}},
		map[string][]string{"oidc": {"openid", "a2a"}})
	hc := &http.Client{Transport: testTransport(t)}
	tok, err := authLogin(t.Context(), card, loginParams{ClientID: "cli", ClientSecret: "cs-secret-12"}, &bytes.Buffer{}, hc)
	if err != nil {
		t.Fatal(err)
	}
	if tok.AccessToken != "at-oidc" || tok.TokenURL != as.URL+"/token" || scope != "openid a2a" {
		t.Errorf("token %+v, scope %q", tok, scope)
	}
	// The provider offers no device flow: asked for, a usage error.
	_, err = authLogin(t.Context(), card, loginParams{Flow: "device", ClientID: "cli"}, &bytes.Buffer{}, hc)
	var ue usageError
	if !errors.As(err, &ue) {
		t.Errorf("device flow from a provider without one: %v", err)
	}
	// A document naming another issuer than the URL it was read under is
	// not used (OpenID Connect Discovery 1.0 §4.3).
	issuer = "https://other.example"
	if _, err := authLogin(t.Context(), card, loginParams{ClientID: "cli", ClientSecret: "cs-secret-12"}, &bytes.Buffer{}, hc); err == nil || !strings.Contains(err.Error(), "names the issuer") {
		t.Errorf("a document of another issuer: %v", err)
	}
	issuer = ""
	// A discovery URL that is not a provider configuration.
	card.SecuritySchemes["oidc"] = a2a.SecurityScheme{Type: "openIdConnect", OpenIDConnectURL: as.URL + "/missing"}
	if _, err := authLogin(t.Context(), card, loginParams{ClientID: "cli", ClientSecret: "cs-secret-12"}, &bytes.Buffer{}, hc); err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Errorf("missing discovery document: %v", err)
	}
}
