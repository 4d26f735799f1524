package a2atest

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// An agent whose tokens expire: the server issues OAuth 2.0 access tokens
// at its own token endpoint (the client credentials grant, RFC 6749 §4.4)
// and takes only those, until they expire or a test expires them all.

// tokenPath is where the server's token endpoint is, under its root.
const tokenPath = "/oauth2/token"

// tokens is the state of IssueTokens, under the Server's mu.
type tokens struct {
	clientID, clientSecret string
	ttl                    time.Duration
	live                   map[string]time.Time // token → when it expires
	issued                 int
}

// IssueTokens makes the server issue OAuth 2.0 access tokens at
// [Server.TokenURL] and require one on every A2A request, in an
// "Authorization: Bearer <token>" header (RFC 6750 §2.1), as an agent
// behind an OAuth 2.0 gateway does.
//
// The token endpoint takes the client credentials grant (RFC 6749 §4.4):
// a POST of the form grant_type=client_credentials, the client
// authenticated with clientID and clientSecret by HTTP Basic
// authentication (each form-encoded first, RFC 6749 §2.3.1) or by the
// client_id and client_secret form members. It answers
// {"access_token": …, "token_type": "Bearer", "expires_in": <ttl in
// seconds, at least 1>} (§5.1), or a §5.2 error: 400 unsupported_grant_type
// or invalid_request, 401 invalid_client. Each token is good for ttl (a
// time.Duration, on the real clock) or until [Server.ExpireTokens].
//
// An A2A request without a token the server issued that is still good
// gets HTTP 401 with `WWW-Authenticate: Bearer realm="a2atest",
// error="invalid_token"` (without the error when it carried no
// Authorization at all, RFC 6750 §3.1) and nothing is done. The card GETs
// need no token. [NewServer] panics when ttl is not positive. Token
// endpoint requests are not listed by
// [Server.Requests], nor served an [Server.Enqueue] reply.
func IssueTokens(clientID, clientSecret string, ttl time.Duration) Option {
	return func(s *Server) {
		if ttl <= 0 {
			panic("a2atest: IssueTokens needs a positive ttl")
		}
		s.tokens = &tokens{clientID: clientID, clientSecret: clientSecret, ttl: ttl, live: map[string]time.Time{}}
	}
}

// TokenURL returns the URL of the server's OAuth 2.0 token endpoint
// ("http://127.0.0.1:41234/oauth2/token"), or "" for a server made
// without [IssueTokens].
func (s *Server) TokenURL() string {
	if s.tokens == nil {
		return ""
	}
	return s.root + tokenPath
}

// ExpireTokens makes every token issued so far expire now, as a test's
// clock jumping an hour would (or the tokens' revocation): A2A requests
// carrying one get 401, and the token endpoint issues new ones. It does
// nothing on a server made without [IssueTokens].
func (s *Server) ExpireTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tokens != nil {
		clear(s.tokens.live)
	}
}

// TokensIssued returns how many access tokens the token endpoint has
// issued (0 without [IssueTokens]).
func (s *Server) TokensIssued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tokens == nil {
		return 0
	}
	return s.tokens.issued
}

// serveToken answers a request to the token endpoint.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	oauthErr := func(status int, code string) {
		if status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", `Basic realm="a2atest"`)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"error": code})
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		oauthErr(http.StatusBadRequest, "invalid_request")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		oauthErr(http.StatusBadRequest, "invalid_request")
		return
	}
	form := r.PostForm
	if form.Get("grant_type") != "client_credentials" {
		oauthErr(http.StatusBadRequest, "unsupported_grant_type")
		return
	}
	id, secret, basic := r.BasicAuth()
	if basic {
		id, _ = url.QueryUnescape(id)
		secret, _ = url.QueryUnescape(secret)
	} else {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	s.mu.Lock()
	t := s.tokens
	if subtle.ConstantTimeCompare([]byte(id), []byte(t.clientID))&subtle.ConstantTimeCompare([]byte(secret), []byte(t.clientSecret)) != 1 {
		s.mu.Unlock()
		oauthErr(http.StatusUnauthorized, "invalid_client")
		return
	}
	now := time.Now()
	for tok, exp := range t.live { // keep the map as small as the tokens still good
		if !now.Before(exp) {
			delete(t.live, tok)
		}
	}
	tok := "a2atest-" + rand.Text()
	t.live[tok] = now.Add(t.ttl)
	t.issued++
	s.mu.Unlock()

	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(map[string]any{
		"access_token": tok,
		"token_type":   "Bearer",
		"expires_in":   max(int64(t.ttl/time.Second), 1),
	})
}

// checkToken answers an A2A request without a token the server issued
// that is still good with 401 and reports false; a server made without
// IssueTokens takes any request.
func (s *Server) checkToken(w http.ResponseWriter, r *http.Request) bool {
	if s.tokens == nil {
		return true
	}
	auth := r.Header.Get("Authorization")
	scheme, tok, _ := strings.Cut(auth, " ")
	s.mu.Lock()
	exp, ok := s.tokens.live[tok]
	s.mu.Unlock()
	if strings.EqualFold(scheme, "Bearer") && ok && time.Now().Before(exp) {
		return true
	}
	challenge := `Bearer realm="a2atest"`
	if auth != "" {
		challenge += `, error="invalid_token"`
	}
	w.Header().Set("WWW-Authenticate", challenge)
	http.Error(w, "access token missing, unknown or expired", http.StatusUnauthorized)
	return false
}
