package a2atest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// tokenReply is the token endpoint's JSON (RFC 6749 §5.1, §5.2).
type tokenReply struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
	Error       string `json:"error"`
}

// fetchToken posts form to the token endpoint, with Basic credentials
// when user is not "".
func fetchToken(t *testing.T, srv *a2atest.Server, form url.Values, user, pass string) (int, tokenReply, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, srv.TokenURL(), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if user != "" {
		req.SetBasicAuth(url.QueryEscape(user), url.QueryEscape(pass))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	defer http.DefaultClient.CloseIdleConnections()
	var tr tokenReply
	if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil && resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("token endpoint reply: %v", err)
	}
	return resp.StatusCode, tr, resp.Header
}

// TestIssueTokens: the token endpoint takes the client credentials grant
// with Basic or form client authentication and refuses the rest as RFC
// 6749 §5.2 says; A2A requests need a token it issued, until
// ExpireTokens.
func TestIssueTokens(t *testing.T) {
	srv := a2atest.NewServer(a2atest.IssueTokens("client-1", "s3cret:&=x", time.Hour))
	defer srv.Close()
	if !strings.HasSuffix(srv.TokenURL(), "/oauth2/token") {
		t.Fatalf("TokenURL = %q", srv.TokenURL())
	}
	grant := url.Values{"grant_type": {"client_credentials"}}
	for _, tt := range []struct {
		name       string
		form       url.Values
		user, pass string
		status     int
		errCode    string
	}{
		{"basic", grant, "client-1", "s3cret:&=x", 200, ""},
		{"form", url.Values{"grant_type": {"client_credentials"}, "client_id": {"client-1"}, "client_secret": {"s3cret:&=x"}}, "", "", 200, ""},
		{"wrong secret", grant, "client-1", "nope", 401, "invalid_client"},
		{"no client", grant, "", "", 401, "invalid_client"},
		{"other grant", url.Values{"grant_type": {"password"}}, "client-1", "s3cret:&=x", 400, "unsupported_grant_type"},
	} {
		status, tr, h := fetchToken(t, srv, tt.form, tt.user, tt.pass)
		if status != tt.status || tr.Error != tt.errCode {
			t.Errorf("%s: %d %+v, want %d %q", tt.name, status, tr, tt.status, tt.errCode)
		}
		if status == 200 && (tr.TokenType != "Bearer" || tr.ExpiresIn != 3600 || tr.AccessToken == "" || h.Get("Cache-Control") != "no-store") {
			t.Errorf("%s: %+v, Cache-Control %q", tt.name, tr, h.Get("Cache-Control"))
		}
	}
	if n := srv.TokensIssued(); n != 2 {
		t.Errorf("TokensIssued = %d, want 2", n)
	}
	if resp, err := http.Get(srv.TokenURL()); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET token endpoint: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	ctx := context.Background()
	noToken, _ := a2a.NewClient(srv.URL)
	_, err := noToken.SendText(ctx, "hi")
	var he *a2a.HTTPError
	if !errors.As(err, &he) || he.StatusCode != 401 || he.Challenge != `Bearer realm="a2atest"` {
		t.Fatalf("without a token: %v (%+v)", err, he)
	}

	_, tr, _ := fetchToken(t, srv, grant, "client-1", "s3cret:&=x")
	c, _ := a2a.NewClient(srv.URL, a2a.WithBearerToken(tr.AccessToken))
	if _, err := c.SendText(ctx, "hi"); err != nil {
		t.Fatalf("with a token: %v", err)
	}
	srv.ExpireTokens()
	_, err = c.SendText(ctx, "hi")
	if !errors.As(err, &he) || he.StatusCode != 401 || !strings.Contains(he.Challenge, `error="invalid_token"`) {
		t.Fatalf("with an expired token: %v (%+v)", err, he)
	}
	if strings.Contains(err.Error(), tr.AccessToken) || !strings.Contains(err.Error(), "Bearer") {
		t.Errorf("error %q", err)
	}
	for _, r := range srv.Requests() {
		if strings.Contains(r.Path, "oauth2") {
			t.Errorf("token request listed: %+v", r)
		}
	}
	http.DefaultClient.CloseIdleConnections()
}

// TestIssueTokensExpireOnTheClock: a token expires by its ttl too; the
// card needs none.
func TestIssueTokensExpireOnTheClock(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.IssueTokens("c", "s", time.Nanosecond))
	defer srv.Close()
	if _, err := a2a.ResolveAgentCard(context.Background(), srv.BaseURL()); err != nil {
		t.Fatalf("card without a token: %v", err)
	}
	_, tr, _ := fetchToken(t, srv, url.Values{"grant_type": {"client_credentials"}}, "c", "s")
	if tr.ExpiresIn != 1 {
		t.Errorf("expires_in = %d, want 1 (at least a second)", tr.ExpiresIn)
	}
	c, _ := a2a.NewClient(srv.URL, a2a.WithBearerToken(tr.AccessToken))
	var he *a2a.HTTPError
	if _, err := c.SendText(context.Background(), "hi"); !errors.As(err, &he) || he.StatusCode != 401 {
		t.Fatalf("expired token: %v", err)
	}
}
