package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

func TestTokenStoreRoundTrip(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	dir := filepath.Join(t.TempDir(), "a2a-cli")
	origin := "https://agent.example:443"
	if got, err := loadToken(dir, origin); got != nil || err != nil {
		t.Fatalf("loadToken before any save = %v, %v; want nil, nil", got, err)
	}
	want := &storedToken{Origin: origin, AccessToken: "at-1", RefreshToken: "rt-1", TokenType: "Bearer",
		TokenURL: "https://as.example/token", ClientID: "cli", Expiry: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
	if err := saveToken(dir, want); err != nil {
		t.Fatal(err)
	}
	path := tokenFile(dir, origin)
	if filepath.Dir(path) != filepath.Join(dir, "tokens") || len(filepath.Base(path)) != 64+len(".json") {
		t.Errorf("token file %s: want tokens/<64 hex>.json", path)
	}
	for p, mode := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, "tokens"): 0o700, path: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("%s: mode %v (%v), want %04o", p, fi.Mode().Perm(), err, mode)
		}
	}
	got, err := loadToken(dir, origin)
	if err != nil {
		t.Fatal(err)
	}
	if got.Origin != want.Origin || got.AccessToken != want.AccessToken || got.RefreshToken != want.RefreshToken ||
		got.TokenURL != want.TokenURL || got.ClientID != want.ClientID || !got.Expiry.Equal(want.Expiry) || got.dir != dir {
		t.Errorf("loaded %+v, want %+v", got, want)
	}
	// Another origin has its own file.
	if other, err := loadToken(dir, "https://other.example:443"); other != nil || err != nil {
		t.Errorf("other origin: %v, %v", other, err)
	}
	// No temporary file is left behind.
	if ents, _ := os.ReadDir(filepath.Join(dir, "tokens")); len(ents) != 1 {
		t.Errorf("tokens dir holds %d entries, want 1", len(ents))
	}
	if err := deleteToken(dir, origin); err != nil {
		t.Fatal(err)
	}
	if got, err := loadToken(dir, origin); got != nil || err != nil {
		t.Errorf("after logout: %v, %v", got, err)
	}
	if err := deleteToken(dir, origin); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("second logout: %v, want fs.ErrNotExist", err)
	}
}

func TestTokenStoreRefusesOpenFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	dir := t.TempDir()
	origin := "https://agent.example:443"
	if err := saveToken(dir, &storedToken{Origin: origin, AccessToken: "at-secret-7"}); err != nil {
		t.Fatal(err)
	}
	path := tokenFile(dir, origin)
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	tok, err := loadToken(dir, origin)
	if tok != nil || err == nil || !strings.Contains(err.Error(), "0644") || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("loadToken of a 0644 file = %v, %v; want a refusal naming the mode and the fix", tok, err)
	}
	if strings.Contains(err.Error(), "at-secret-7") {
		t.Errorf("error holds the token: %v", err)
	}
	// A file of another origin, invalid JSON, a directory: refused.
	os.Chmod(path, 0o600)
	b, _ := json.Marshal(storedToken{Origin: "https://evil.example:443", AccessToken: "x"})
	os.WriteFile(path, b, 0o600)
	if _, err := loadToken(dir, origin); err == nil {
		t.Error("another origin's token: no error")
	}
	os.WriteFile(path, []byte(`{"origin": "at-secret-7`), 0o600)
	if _, err := loadToken(dir, origin); err == nil || strings.Contains(err.Error(), "at-secret-7") {
		t.Errorf("invalid JSON: %v", err)
	}
	os.Remove(path)
	os.Mkdir(path, 0o700)
	if _, err := loadToken(dir, origin); err == nil {
		t.Error("a directory: no error")
	}
}

// refreshServer is a token endpoint taking the refresh_token grant for
// refresh token rt and client id "cli": it issues "at-2" (with a rotated
// refresh token "rt-2") and counts the grants.
func refreshServer(t *testing.T, rt string, n *atomic.Int32) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if err := r.ParseForm(); err != nil || r.Method != http.MethodPost || r.PostForm.Get("grant_type") != "refresh_token" {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":"unsupported_grant_type"}`))
			return
		}
		if r.PostForm.Get("refresh_token") != rt || r.PostForm.Get("client_id") != "cli" {
			w.WriteHeader(http.StatusBadRequest)
			// A hostile endpoint echoing what it got: the error must not.
			w.Write([]byte(`{"error":"invalid_grant","error_description":"bad ` + r.PostForm.Get("refresh_token") + `\u001b[2J"}`))
			return
		}
		n.Add(1)
		w.Write([]byte(`{"access_token":"at-2","refresh_token":"rt-2","token_type":"Bearer","expires_in":3600}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestStoredTokenRefresh(t *testing.T) {
	var grants atomic.Int32
	as := refreshServer(t, "rt-1", &grants)
	dir := t.TempDir()
	hc := &http.Client{Transport: testTransport(t)}
	origin := "http://127.0.0.1:1"
	expired := &storedToken{Origin: origin, AccessToken: "at-1", RefreshToken: "rt-1", TokenURL: as.URL, ClientID: "cli",
		Expiry: time.Now().Add(-time.Minute)}
	if err := saveToken(dir, expired); err != nil {
		t.Fatal(err)
	}
	src := expired.source(dir, hc)
	cred, err := src.Credential(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if cred.Token != "at-2" || cred.Scheme != "Bearer" || cred.Header != "" {
		t.Errorf("credential = %+v, want Bearer at-2", cred)
	}
	saved, err := loadToken(dir, origin)
	if err != nil || saved == nil || saved.AccessToken != "at-2" || saved.RefreshToken != "rt-2" || !saved.Expiry.After(time.Now()) {
		t.Fatalf("saved after refresh: %+v, %v", saved, err)
	}
	// Good now: no second grant.
	if cred, err := src.Credential(t.Context(), nil); err != nil || cred.Token != "at-2" || grants.Load() != 1 {
		t.Errorf("second ask: %+v, %v, %d grants", cred, err, grants.Load())
	}
	// A 401 refusal of an older token than the one held: no refresh.
	if cred, err := src.Credential(t.Context(), &a2a.Credential{Scheme: "Bearer", Token: "at-1"}); err != nil || cred.Token != "at-2" || grants.Load() != 1 {
		t.Errorf("refused old token: %+v, %v, %d grants", cred, err, grants.Load())
	}
	// The refused current one is refreshed: the server now wants rt-2,
	// which it does not (it was built for rt-1): its refusal, inert and
	// without the refresh token, is the error.
	_, err = src.Credential(t.Context(), &a2a.Credential{Scheme: "Bearer", Token: "at-2"})
	if err == nil || !strings.Contains(err.Error(), "invalid_grant") {
		t.Fatalf("refresh refused: %v", err)
	}
	if strings.Contains(err.Error(), "rt-2") || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("error %q holds the refresh token or a control character", err)
	}
}

// The stored token reaches the agent through credentialPlan, refreshed,
// against a loopback agent that requires the refreshed one.
func TestStoredTokenThroughPlan(t *testing.T) {
	var grants atomic.Int32
	as := refreshServer(t, "rt-1", &grants)
	srv := a2atest.NewServer(a2atest.RequireBearer("at-2"), a2atest.WithCard(securedCard(map[string]a2a.SecurityScheme{
		"o": {Type: "oauth2", Flows: &a2a.OAuthFlows{DeviceCode: &a2a.OAuthFlow{TokenURL: as.URL, DeviceAuthorizationURL: as.URL}}}},
		map[string][]string{"o": {}})))
	defer srv.Close()
	dir := t.TempDir()
	origin, _ := originOf(srv.BaseURL())
	if err := saveToken(dir, &storedToken{Origin: origin, AccessToken: "at-1", RefreshToken: "rt-1", TokenURL: as.URL, ClientID: "cli",
		Expiry: time.Now().Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	tok, err := loadToken(dir, origin)
	if err != nil || tok == nil {
		t.Fatalf("loadToken: %v, %v", tok, err)
	}
	hc := &http.Client{Transport: testTransport(t)}
	tok.client = hc
	card, err := a2a.ResolveAgentCard(t.Context(), srv.BaseURL(), a2a.WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	opts, _, err := credentialPlan(card, "", "", tok)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2a.NewClientFromCard(card, append(opts, a2a.WithHTTPClient(hc))...)
	if err != nil {
		t.Fatal(err)
	}
	c.GetTask(t.Context(), "t1")
	var sawGet bool
	for _, r := range srv.Requests() {
		if r.Method == "tasks/get" {
			sawGet = true
			if r.Header.Get("Authorization") != "Bearer at-2" {
				t.Errorf("tasks/get Authorization = %q, want the refreshed token", r.Header.Get("Authorization"))
			}
		}
	}
	if !sawGet || grants.Load() != 1 {
		t.Errorf("tasks/get sent: %v; grants %d", sawGet, grants.Load())
	}
	// A --bearer wins over the stored token.
	opts, _, _ = credentialPlan(card, "flag-token", "", tok)
	if len(opts) != 1 {
		t.Errorf("--bearer and a stored token: %d options, want 1", len(opts))
	}
}

// An expired token without a refresh token: the call is not sent, and
// the error says to log in again.
func TestStoredTokenExpiredNoRefresh(t *testing.T) {
	tok := &storedToken{Origin: "https://a.example:443", AccessToken: "at-secret-8", Expiry: time.Now().Add(-time.Second)}
	_, err := tok.source(t.TempDir(), nil).Credential(t.Context(), nil)
	if err == nil || !strings.Contains(err.Error(), "a2a auth login") || strings.Contains(err.Error(), "at-secret-8") {
		t.Errorf("err = %v", err)
	}
	// A token without an expiry is handed out until refused.
	tok.Expiry = time.Time{}
	if cred, err := tok.source(t.TempDir(), nil).Credential(t.Context(), nil); err != nil || cred.Token != "at-secret-8" {
		t.Errorf("no expiry: %+v, %v", cred, err)
	}
}

// Calls refused at once (or finding the token expired at once) refresh
// once: the source serializes, and a caller refused an older token gets
// the new one.
func TestStoredTokenConcurrentRefresh(t *testing.T) {
	var grants atomic.Int32
	as := refreshServer(t, "rt-1", &grants)
	tok := &storedToken{Origin: "http://127.0.0.1:1", AccessToken: "at-1", RefreshToken: "rt-1", TokenURL: as.URL, ClientID: "cli",
		Expiry: time.Now().Add(-time.Minute)}
	src := tok.source(t.TempDir(), &http.Client{Transport: testTransport(t)})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			cred, err := src.Credential(t.Context(), &a2a.Credential{Scheme: "Bearer", Token: "at-1"})
			if err == nil && cred.Token != "at-2" {
				err = errors.New("got " + cred.Token)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if grants.Load() != 1 {
		t.Errorf("%d refresh grants, want 1", grants.Load())
	}
}
