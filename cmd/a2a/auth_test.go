package main

import (
	"context"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// The credential plan against a loopback a2atest agent serving a card
// with the scheme under test: each test reads the card as the CLI does
// (ResolveAgentCard), builds the client from the plan, sends one
// tasks/get, and looks at what the agent received.

// testTransport is a transport of the test's own, its idle connections
// closed when the test ends (goleak).
func testTransport(t *testing.T) *http.Transport {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return tr
}

// securedCard is a v0.3 card declaring schemes and requiring security.
func securedCard(schemes map[string]a2a.SecurityScheme, security ...map[string][]string) *a2a.AgentCard {
	return &a2a.AgentCard{ProtocolVersion: "0.3.0", Name: "secured", Description: "d", Version: "1",
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}, Skills: []a2a.AgentSkill{},
		SecuritySchemes: schemes, Security: security}
}

// callWithPlan serves card, reads it back, plans the credentials and
// sends tasks/get. It returns the tasks/get request the agent received and
// every request (card GETs included).
func callWithPlan(t *testing.T, card *a2a.AgentCard, bearer, apiKey string, stored *storedToken) (a2atest.Request, []a2atest.Request) {
	t.Helper()
	srv := a2atest.NewServer(a2atest.WithCard(card))
	t.Cleanup(srv.Close)
	tr := testTransport(t)
	read, err := a2a.ResolveAgentCard(t.Context(), srv.BaseURL(), a2a.WithHTTPClient(&http.Client{Transport: tr}))
	if err != nil {
		t.Fatalf("ResolveAgentCard: %v", err)
	}
	opts, wrap, err := credentialPlan(read, bearer, apiKey, stored)
	if err != nil {
		t.Fatalf("credentialPlan: %v", err)
	}
	var rt http.RoundTripper = tr
	if wrap != nil {
		rt = wrap(tr)
	}
	c, err := a2a.NewClientFromCard(read, append(opts, a2a.WithHTTPClient(&http.Client{Transport: rt}))...)
	if err != nil {
		t.Fatalf("NewClientFromCard: %v", err)
	}
	c.GetTask(t.Context(), "t1") // the task is unknown: only the request matters
	reqs := srv.Requests()
	for _, r := range reqs {
		if r.Method == "tasks/get" {
			return r, reqs
		}
	}
	t.Fatalf("no tasks/get among %d requests", len(reqs))
	return a2atest.Request{}, nil
}

// assertNoCredentialOnCardGET checks the card GETs among reqs carry no
// secret at all (AUTH_008).
func assertNoCredentialOnCardGET(t *testing.T, reqs []a2atest.Request, secret string) {
	t.Helper()
	for _, r := range reqs {
		if r.HTTPMethod == http.MethodGet && strings.Contains(r.Path, ".well-known") {
			if strings.Contains(r.Query, secret) || strings.Contains(strings.Join(r.Header.Values("Cookie"), ";"), secret) {
				t.Errorf("card GET %s carried the key", r.Path)
			}
		}
	}
}

func TestCredentialPlanAPIKeyHeaderPerCard(t *testing.T) {
	card := securedCard(map[string]a2a.SecurityScheme{"key": {Type: "apiKey", In: "header", Name: "X-Team-Key"}}, map[string][]string{"key": {}})
	got, _ := callWithPlan(t, card, "", "k-secret-1", nil)
	if v := got.Header.Get("X-Team-Key"); v != "k-secret-1" {
		t.Errorf("X-Team-Key = %q, want the key", v)
	}
	if v := got.Header.Get("X-API-Key"); v != "" {
		t.Errorf("X-API-Key = %q: the key went where the card did not say", v)
	}
}

func TestCredentialPlanAPIKeyQueryPerCard(t *testing.T) {
	card := securedCard(map[string]a2a.SecurityScheme{"key": {Type: "apiKey", In: "query", Name: "api_key"}}, map[string][]string{"key": {}})
	got, all := callWithPlan(t, card, "", "k-secret-2", nil)
	q, _ := url.ParseQuery(got.Query)
	if q.Get("api_key") != "k-secret-2" {
		t.Errorf("query = %q, want api_key=the key", got.Query)
	}
	if got.Header.Get("X-API-Key") != "" {
		t.Error("the key also went in X-API-Key")
	}
	assertNoCredentialOnCardGET(t, all, "k-secret-2")
}

func TestCredentialPlanAPIKeyCookiePerCard(t *testing.T) {
	card := securedCard(map[string]a2a.SecurityScheme{"key": {Type: "apiKey", In: "cookie", Name: "sid"}}, map[string][]string{"key": {}})
	got, all := callWithPlan(t, card, "", "k-secret-3", nil)
	req := http.Request{Header: got.Header}
	c, err := req.Cookie("sid")
	if err != nil || c.Value != "k-secret-3" {
		t.Errorf("cookie sid = %v (%v), want the key", c, err)
	}
	assertNoCredentialOnCardGET(t, all, "k-secret-3")
	// A key no cookie can carry as is is refused, not altered.
	if _, _, err := credentialPlan(card, "", "a b;c", nil); err == nil || strings.Contains(err.Error(), "a b;c") {
		t.Errorf("cookie key with a space: err = %v, want a refusal without the key", err)
	}
	bad := securedCard(map[string]a2a.SecurityScheme{"key": {Type: "apiKey", In: "cookie", Name: "s id\x1b"}})
	if _, _, err := credentialPlan(bad, "", "k", nil); err == nil || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("invalid cookie name: err = %v, want a refusal, inert", err)
	}
}

func TestCredentialPlanBearerPerCard(t *testing.T) {
	for _, sc := range []a2a.SecurityScheme{
		{Type: "http", Scheme: "bearer", BearerFormat: "JWT"},
		{Type: "oauth2", Flows: &a2a.OAuthFlows{ClientCredentials: &a2a.OAuthFlow{TokenURL: "https://as.example/token"}}},
		{Type: "openIdConnect", OpenIDConnectURL: "https://as.example/.well-known/openid-configuration"},
	} {
		t.Run(sc.Type, func(t *testing.T) {
			card := securedCard(map[string]a2a.SecurityScheme{"s": sc}, map[string][]string{"s": {}})
			got, _ := callWithPlan(t, card, "tok-secret-4", "", nil)
			if v := got.Header.Get("Authorization"); v != "Bearer tok-secret-4" {
				t.Errorf("Authorization = %q", v)
			}
		})
	}
}

// With no card (-e) or a card that declares nothing: Authorization:
// Bearer and X-API-Key (the Caoliao gateway).
func TestCredentialPlanNoSchemeDefaults(t *testing.T) {
	opts, wrap, err := credentialPlan(nil, "b-secret", "k-secret", nil)
	if err != nil || wrap != nil || len(opts) != 2 {
		t.Fatalf("credentialPlan(nil) = %d opts, wrap %v, %v", len(opts), wrap != nil, err)
	}
	card := securedCard(nil)
	got, _ := callWithPlan(t, card, "b-secret", "k-secret", nil)
	if got.Header.Get("X-API-Key") != "k-secret" || got.Header.Get("Authorization") != "Bearer b-secret" {
		t.Errorf("headers = %v", got.Header)
	}
	srv := a2atest.NewServer(a2atest.RequireAPIKey("k-secret"))
	defer srv.Close()
	c, err := a2a.NewClient(srv.URL, append(opts, a2a.WithHTTPClient(&http.Client{Transport: testTransport(t)}))...)
	if err != nil {
		t.Fatal(err)
	}
	c.GetTask(t.Context(), "t1")
	r := srv.Requests()
	if len(r) != 1 || r[0].Header.Get("X-API-Key") != "k-secret" {
		t.Errorf("-e mode: requests %v", r)
	}
}

// A credential goes only where a declared scheme takes it (AUTH_008),
// and the error says which flag the card takes, without the secret.
func TestCredentialPlanRefusesUndeclared(t *testing.T) {
	apiKeyCard := securedCard(map[string]a2a.SecurityScheme{"key": {Type: "apiKey", In: "header", Name: "X-API-Key"}}, map[string][]string{"key": {}})
	bearerCard := securedCard(map[string]a2a.SecurityScheme{"b": {Type: "http", Scheme: "bearer"}}, map[string][]string{"b": {}})
	both := securedCard(map[string]a2a.SecurityScheme{"key": {Type: "apiKey", In: "header", Name: "K"}, "b": {Type: "http", Scheme: "bearer"}},
		map[string][]string{"key": {}, "b": {}})
	for _, tc := range []struct {
		name           string
		card           *a2a.AgentCard
		bearer, apiKey string
		want           string
	}{
		{"bearer to an apiKey card", apiKeyCard, "b-secret-5", "", "--api-key"},
		{"apiKey to a bearer card", bearerCard, "", "k-secret-5", "--bearer"},
		{"one of two required together", both, "b-secret-5", "", "--bearer (or a2a auth login) and --api-key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts, _, err := credentialPlan(tc.card, tc.bearer, tc.apiKey, nil)
			if err == nil {
				t.Fatalf("no error, %d opts", len(opts))
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not name %s", err, tc.want)
			}
			if strings.Contains(err.Error(), "secret-5") {
				t.Errorf("error %q holds the credential", err)
			}
		})
	}
	// A stored token the card takes no scheme for is left out, silently.
	opts, wrap, err := credentialPlan(apiKeyCard, "", "", &storedToken{Origin: "o", AccessToken: "t"})
	if err != nil || len(opts) != 0 || wrap != nil {
		t.Errorf("stored token to an apiKey card: %d opts, %v", len(opts), err)
	}
	// Both given for one Authorization header.
	authKey := securedCard(map[string]a2a.SecurityScheme{"key": {Type: "apiKey", In: "header", Name: "Authorization"}, "b": {Type: "http", Scheme: "bearer"}})
	if _, _, err := credentialPlan(authKey, "b", "k", nil); err == nil {
		t.Error("--api-key in Authorization with --bearer: no error")
	}
}

// Several alternatives: the apiKey scheme of the alternative the given
// credentials satisfy.
func TestCredentialPlanChoosesSatisfiedAlternative(t *testing.T) {
	card := securedCard(map[string]a2a.SecurityScheme{
		"a-pair": {Type: "apiKey", In: "header", Name: "X-Pair-Key"}, "b": {Type: "http", Scheme: "bearer"},
		"z-solo": {Type: "apiKey", In: "header", Name: "X-Solo-Key"},
	}, map[string][]string{"a-pair": {}, "b": {}}, map[string][]string{"z-solo": {}})
	got, _ := callWithPlan(t, card, "", "k-secret-6", nil)
	if got.Header.Get("X-Solo-Key") != "k-secret-6" || got.Header.Get("X-Pair-Key") != "" {
		t.Errorf("headers = %v: want the key in X-Solo-Key (the alternative an API key alone satisfies)", got.Header)
	}
}

func TestNeedsCredentials(t *testing.T) {
	s := map[string]a2a.SecurityScheme{"k": {Type: "apiKey", In: "header", Name: "K"}}
	for _, tc := range []struct {
		name string
		card *a2a.AgentCard
		want bool
	}{
		{"no card", nil, false},
		{"no security", securedCard(s), false},
		{"required", securedCard(s, map[string][]string{"k": {}}), true},
		{"optional: an empty alternative", securedCard(s, map[string][]string{"k": {}}, map[string][]string{}), false},
	} {
		if got := needsCredentials(tc.card); got != tc.want {
			t.Errorf("%s: needsCredentials = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSDKCardGETCredentials records what the SDK does for AUTH_008 ("never
// present a credential to a card endpoint that did not declare a scheme
// accepting it"): ResolveAgentCard given WithBearerToken / WithAPIKey
// sends them on the public card GET (documented: "opts are the client
// options that apply to a GET: credentials"). The CLI must therefore read
// the public card WITHOUT the credential options and add them only to the
// client it builds from the card (credentialPlan), as callWithPlan does.
func TestSDKCardGETCredentials(t *testing.T) {
	srv := a2atest.NewServer(a2atest.WithCard(securedCard(nil)))
	defer srv.Close()
	hc := &http.Client{Transport: testTransport(t)}
	if _, err := a2a.ResolveAgentCard(t.Context(), srv.BaseURL(), a2a.WithHTTPClient(hc),
		a2a.WithBearerToken("b-card-secret"), a2a.WithAPIKey("k-card-secret")); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no card GET")
	}
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer b-card-secret" {
		t.Errorf("the SDK changed: card GET Authorization = %q (was: the bearer token sent); update the report and this test", got)
	}
	if got := reqs[0].Header.Get("X-API-Key"); got != "k-card-secret" {
		t.Errorf("the SDK changed: card GET X-API-Key = %q (was: the key sent)", got)
	}
	// Read without the credential options, the card GET carries none.
	srv2 := a2atest.NewServer(a2atest.WithCard(securedCard(nil)))
	defer srv2.Close()
	card, err := a2a.ResolveAgentCard(t.Context(), srv2.BaseURL(), a2a.WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	opts, _, err := credentialPlan(card, "b-card-secret", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2a.NewClientFromCard(card, append(opts, a2a.WithHTTPClient(hc))...)
	if err != nil {
		t.Fatal(err)
	}
	c.GetTask(t.Context(), "t1")
	for _, r := range srv2.Requests() {
		isCard := r.HTTPMethod == http.MethodGet && strings.Contains(r.Path, ".well-known")
		if has := r.Header.Get("Authorization") != ""; has == isCard {
			t.Errorf("%s %s: Authorization present = %v", r.HTTPMethod, r.Path, has)
		}
	}
}

// TestRootCompilesNoOAuth2: x/oauth2 is the CLI's (auth login), not
// package a2a's: a program importing package a2a compiles none of it.
func TestRootCompilesNoOAuth2(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/caoliao-a2a/a2a-go").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps named %d packages: the check sees nothing", len(deps))
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "golang.org/x/oauth2") {
			t.Errorf("package a2a depends on %s", d)
		}
	}
}

func TestOriginOf(t *testing.T) {
	for in, want := range map[string]string{
		"https://Agent.Example/a2a":      "https://agent.example:443",
		"http://127.0.0.1:8080/x?y":      "http://127.0.0.1:8080",
		"HTTP://h.example./":             "http://h.example:80",
		"https://[::1]:9/":               "https://[::1]:9",
		"https://[0:0:0:0:0:0:0:1]:9/a2": "https://[::1]:9",
	} {
		if got, err := originOf(in); err != nil || got != want {
			t.Errorf("originOf(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "file:///x", "h.example", "ftp://h/"} {
		if _, err := originOf(bad); err == nil {
			t.Errorf("originOf(%q): no error", bad)
		}
	}
	// The SDK's spelling, which the store is keyed on, matches.
	srv := a2atest.NewServer(a2atest.WithCard(securedCard(nil)))
	defer srv.Close()
	card, err := a2a.ResolveAgentCard(context.Background(), srv.BaseURL(), a2a.WithHTTPClient(&http.Client{Transport: testTransport(t)}))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := originOf(srv.BaseURL()); got != card.Origin() {
		t.Errorf("originOf = %q, card.Origin() = %q", got, card.Origin())
	}
}

// The query/cookie wrap adds the key only on the card's interface
// origins, and never to a public card GET.
func TestCredentialPlanKeyPlacerScope(t *testing.T) {
	card := securedCard(map[string]a2a.SecurityScheme{"key": {Type: "apiKey", In: "query", Name: "k"}})
	card.URL = "https://agent.example/a2a"
	_, wrap, err := credentialPlan(card, "", "key-secret-13", nil)
	if err != nil || wrap == nil {
		t.Fatalf("credentialPlan: %v, wrap %v", err, wrap != nil)
	}
	var seen []string
	rt := wrap(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		seen = append(seen, r.URL.String())
		return &http.Response{StatusCode: 204, Body: http.NoBody, Request: r}, nil
	}))
	for _, u := range []string{"https://agent.example/a2a", "https://agent.example/.well-known/agent-card.json", "https://other.example/a2a", "http://agent.example/a2a"} {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		rt.RoundTrip(req)
		if req.URL.RawQuery != "" {
			t.Errorf("%s: the caller's request was modified", u)
		}
	}
	want := []string{"https://agent.example/a2a?k=key-secret-13", "https://agent.example/.well-known/agent-card.json", "https://other.example/a2a", "http://agent.example/a2a"}
	if strings.Join(seen, " ") != strings.Join(want, " ") {
		t.Errorf("sent %v, want %v", seen, want)
	}
}
