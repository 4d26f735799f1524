package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/caoliao-a2a/a2a-go"
)

// The token store of `a2a auth login` (S§12.2, AUTH_007): one JSON file
// per agent origin, tokens/<hex SHA-256 of the origin>.json under the
// config directory, the directory 0700 and each file 0600, written
// atomically (a temporary file in the same directory, then a rename), so
// a reader sees the old token or the new one, never half of one. It is
// the only thing the CLI ever writes outside the user's own paths.

// maxTokenFileBytes bounds a token file read: 64 KiB, far above a real
// token set (JWTs of a few KiB), so a damaged file cannot fill memory.
const maxTokenFileBytes = 64 << 10

// refreshMargin is how long before its expiry a stored access token is
// refreshed (or reported expired): the time a request takes to reach the
// agent, so a token is not sent to expire in flight.
const refreshMargin = 30 * time.Second

// storedToken is one agent's OAuth 2.0 token set as `auth login` saved it.
type storedToken struct {
	// Origin is the agent's origin, "scheme://host:port" as
	// [a2a.AgentCard.Origin] and originOf write it: the store's key.
	Origin string `json:"origin"`
	// AccessToken is sent as "Authorization: Bearer <AccessToken>".
	AccessToken string `json:"accessToken"`
	// RefreshToken, when the server issued one, gets a new access token
	// at TokenURL once this one expires.
	RefreshToken string `json:"refreshToken,omitempty"`
	// TokenType is the token_type the server gave ("Bearer").
	TokenType string `json:"tokenType,omitempty"`
	// TokenURL and ClientID are the token endpoint and the public client
	// id the refresh uses (no client secret is ever stored).
	TokenURL string `json:"tokenUrl,omitempty"`
	ClientID string `json:"clientId,omitempty"`
	// Expiry is when AccessToken expires; zero when the server did not
	// say (the token is then used until the agent refuses it).
	Expiry time.Time `json:"expiry,omitzero"`

	// client, when set (the core sets it to tlsClient's client for
	// --cacert/--insecure/--cert), is the HTTP client of refreshes made
	// through credentialPlan; nil is a default client.
	client *http.Client
	// learn, when set, is told every token the source hands out: the
	// command's redactor learns it, so an agent that echoes it shows
	// [REDACTED].
	learn func(secret string)
	// dir is the config directory the token was loaded from (loadToken),
	// where credentialPlan's refreshes save the new token.
	dir string
}

// tokenFile is the path of origin's token file under dir.
func tokenFile(dir, origin string) string {
	sum := sha256.Sum256([]byte(origin))
	return filepath.Join(dir, "tokens", hex.EncodeToString(sum[:])+".json")
}

// loadToken reads the token stored for origin under dir. It returns
// (nil, nil) when there is none. Errors: a file that is not a regular
// file, that group or others may read or write (mode & 0o077; not
// checked on Windows, which has no such bits) — refused, naming the chmod
// that fixes it —, larger than 64 KiB, not JSON, without an access token,
// or stored for another origin. No error quotes the file's content.
func loadToken(dir, origin string) (*storedToken, error) {
	path := tokenFile(dir, origin)
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("token store: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("token store: %s is not a regular file: refused (remove it and run a2a auth login)", quote(path))
	}
	if perm := fi.Mode().Perm(); runtime.GOOS != "windows" && perm&0o077 != 0 {
		return nil, fmt.Errorf("token store: %s has mode %04o, open to group or others: refused (chmod 600 %s, or a2a auth logout and log in again)",
			quote(path), perm, quote(path))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("token store: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("token store: %s: %w", quote(path), err)
	}
	if len(b) > maxTokenFileBytes {
		return nil, fmt.Errorf("token store: %s is larger than %d bytes: not a token file", quote(path), maxTokenFileBytes)
	}
	var t storedToken
	if err := json.Unmarshal(b, &t); err != nil {
		// json's message may quote the file; say only where it failed.
		return nil, fmt.Errorf("token store: %s is not a token file (invalid JSON)", quote(path))
	}
	switch {
	case t.Origin != origin:
		return nil, fmt.Errorf("token store: %s belongs to another agent: refused", quote(path))
	case t.AccessToken == "" || controlByte(t.AccessToken) || controlByte(t.RefreshToken):
		return nil, fmt.Errorf("token store: %s holds no usable access token", quote(path))
	}
	t.dir = dir
	return &t, nil
}

// saveToken writes t under dir for t.Origin: dir and dir/tokens made 0700
// (tokens set to 0700 when it exists), the file 0600, through a
// temporary file renamed over the old one. Errors: t without an origin or
// access token, or the file system's.
func saveToken(dir string, t *storedToken) error {
	if t == nil || t.Origin == "" || t.AccessToken == "" {
		return errors.New("token store: no token to save")
	}
	tokens := filepath.Join(dir, "tokens")
	if fi, err := os.Lstat(tokens); err == nil && !fi.IsDir() {
		// A symbolic link (or a file) planted there: the tokens would go
		// where it points, and its mode be changed.
		return fmt.Errorf("%s is not a directory (a symbolic link?): remove it, and a2a makes its own", quote(tokens))
	}
	if err := os.MkdirAll(tokens, 0o700); err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	if err := os.Chmod(tokens, 0o700); err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	if err := writeAtomic(tokenFile(dir, t.Origin), append(b, '\n')); err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	return nil
}

// deleteToken removes the token stored for origin under dir (`auth
// logout`). When there is none it returns an error matching
// fs.ErrNotExist, so the caller can say "not logged in".
func deleteToken(dir, origin string) error {
	err := os.Remove(tokenFile(dir, origin))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("token store: no token stored for %s: %w", origin, fs.ErrNotExist)
	}
	if err != nil {
		return fmt.Errorf("token store: %w", err)
	}
	return nil
}

// expired reports whether t's access token expires within refreshMargin
// of now (never, for a token without an expiry).
func (t *storedToken) expired(now time.Time) bool {
	return !t.Expiry.IsZero() && now.Add(refreshMargin).After(t.Expiry)
}

// told passes secret to learn, when there is one.
func (t *storedToken) told(secret string) {
	if t.learn != nil && secret != "" {
		t.learn(secret)
	}
}

// source returns a CredentialSource that hands out t's access token as
// "Authorization: Bearer", and, when it has expired (or the agent refused
// it with 401), gets a new one with the refresh token at t.TokenURL
// (x/oauth2, refresh_token grant, client id in the form), keeps it and
// saves it under dir (a failed save does not fail the call: the token
// works, the next run refreshes again). hc is the HTTP client of the
// refresh (nil: a default one); redirects are not followed. It is safe
// for concurrent use: calls refused at once refresh once. Errors (the
// call is then not sent): no refresh token or token URL ("run a2a auth
// login"), the token endpoint's refusal or failure, with no token in the
// text.
func (t *storedToken) source(dir string, hc *http.Client) a2a.CredentialSource {
	var mu sync.Mutex
	cur := *t
	return a2a.CredentialFunc(func(ctx context.Context, refused *a2a.Credential) (a2a.Credential, error) {
		mu.Lock()
		defer mu.Unlock()
		stale := cur.expired(time.Now()) || refused != nil && refused.Token == cur.AccessToken
		if !stale {
			t.told(cur.AccessToken)
			return a2a.Credential{Scheme: "Bearer", Token: cur.AccessToken}, nil
		}
		if cur.RefreshToken == "" || cur.TokenURL == "" {
			return a2a.Credential{}, fmt.Errorf("the token stored by a2a auth login for %s has expired and cannot be refreshed: run a2a auth login again", cur.Origin)
		}
		if err := checkOAuthURL("token URL", cur.TokenURL); err != nil {
			return a2a.Credential{}, err
		}
		cfg := oauth2.Config{ClientID: cur.ClientID, Endpoint: oauth2.Endpoint{TokenURL: cur.TokenURL, AuthStyle: oauth2.AuthStyleInParams}}
		ctx = context.WithValue(ctx, oauth2.HTTPClient, oauthHTTPClient(hc))
		tok, err := cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: cur.RefreshToken}).Token()
		if err != nil {
			return a2a.Credential{}, oauthError("refreshing the stored token", err, cur.AccessToken, cur.RefreshToken)
		}
		next, err := fromOAuthToken(tok, cur.Origin, cur.TokenURL, cur.ClientID)
		if err != nil {
			return a2a.Credential{}, err
		}
		cur = *next
		t.told(cur.AccessToken)
		t.told(cur.RefreshToken)
		_ = saveToken(dir, &cur) // see above: a failed save does not fail the call
		return a2a.Credential{Scheme: "Bearer", Token: cur.AccessToken}, nil
	})
}

// fromOAuthToken is the storedToken of an x/oauth2 token the endpoint at
// tokenURL issued for origin. Errors: no access token, a token type other
// than Bearer (RFC 6750; a DPoP or MAC token needs proofs this tool does
// not make), or a token with a control character (which no header can
// carry) or over 16 KiB.
func fromOAuthToken(tok *oauth2.Token, origin, tokenURL, clientID string) (*storedToken, error) {
	if tok == nil || tok.AccessToken == "" {
		return nil, errors.New("the token endpoint issued no access token")
	}
	if tt := tok.TokenType; tt != "" && !strings.EqualFold(tt, "bearer") {
		return nil, fmt.Errorf("the token endpoint issued a %s token: only Bearer tokens are sent", quote(tt))
	}
	if controlByte(tok.AccessToken) || controlByte(tok.RefreshToken) || len(tok.AccessToken) > maxTokenFileBytes/4 {
		return nil, errors.New("the token endpoint issued a token no header can carry (a control character, or larger than 16 KiB)")
	}
	return &storedToken{Origin: origin, AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken, TokenType: tok.TokenType,
		TokenURL: tokenURL, ClientID: clientID, Expiry: tok.Expiry}, nil
}

// controlByte reports whether s holds a byte below 0x20 or DEL.
func controlByte(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}
