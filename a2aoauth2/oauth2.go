// Package a2aoauth2 makes golang.org/x/oauth2 token sources the credential
// sources of an [a2a.Client] ([a2a.WithCredentials]), in a module of its
// own so that the a2a module does not depend on oauth2.
//
// The client asks its source for a credential before every attempt of
// every call, and again, with the refused credential, when an agent
// answers 401 (the agent did not act). The sources here
// keep the token they fetched and hand it out while it is valid (oauth2's
// Token.Valid: ten seconds before its expiry); they fetch a new one when
// it has expired, or when the agent refused the very token they hold: a
// token revoked before its expiry, or one the agent's clock finds
// expired. Calls refused at once wait for one fetch and share its token,
// so a hundred calls after a revocation cost one token request.
//
// oauth2's own token sources (clientcredentials.Config.TokenSource,
// oauth2.Config.TokenSource, oauth2.ReuseTokenSource) cache the token
// until it expires and would hand the refused token out again; hence
// [ClientCredentials], which fetches with clientcredentials.Config.Token,
// and [FromTokenSource], which wants a source that fetches on every call.
package a2aoauth2

import (
	"context"
	"errors"
	"sync"

	a2a "github.com/caoliao-a2a/a2a-go"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// ErrNotRefreshed is returned (wrapped in the call's
// *[a2a.CredentialError]) when the token source, asked for a new token
// after the agent refused one, gives the refused token again: a source
// that caches, such as oauth2.ReuseTokenSource, given to [TokenSource].
var ErrNotRefreshed = errors.New("a2aoauth2: the token source gave again the token the agent refused (give FromTokenSource a source that fetches on every call)")

// ErrNoToken is returned when the token source gives a nil token or one
// without an access token.
var ErrNoToken = errors.New("a2aoauth2: the token source gave no access token")

// ClientCredentials returns the credential source of the OAuth 2.0 client
// credentials grant (RFC 6749 §4.4) that cfg describes: it fetches a
// token with cfg.Token, with the ctx of the call that needs it (an
// *http.Client in ctx under oauth2.HTTPClient is used, as oauth2 does),
// and hands it out as "Authorization: <token type> <access token>"
// (Bearer) until it expires or an agent refuses it. Errors of the token
// endpoint (*oauth2.RetrieveError) reach the call wrapped in its
// *[a2a.CredentialError]; a fetch that gives no access token is
// [ErrNoToken].
//
// The text of every error of a fetch hides cfg.ClientSecret (as it is
// when the fetch fails), should the token endpoint echo it: as it is,
// Go-quoted, JSON-, query- and path-escaped, in the Basic credentials
// oauth2 sends, and each run of six or more of its letters and digits,
// each replaced with "[REDACTED]". The errors wrap oauth2's: errors.As
// finds the *oauth2.RetrieveError, but its Body, ErrorDescription and
// Error() are what the endpoint sent, the secret too if it echoed it:
// print the error, not those.
func ClientCredentials(cfg *clientcredentials.Config) a2a.CredentialSource {
	return newSource(func(ctx context.Context) (*oauth2.Token, error) {
		tok, err := cfg.Token(ctx)
		return tok, hideSecret(err, cfg.ClientID, cfg.ClientSecret)
	})
}

// FromTokenSource returns the credential source of the tokens ts gives. ts
// must fetch a new token on every call to Token (as the sources oauth2
// wraps in a ReuseTokenSource do); the credential source keeps the token
// and calls ts only when it has expired or an agent refused it. Given a
// caching source instead, a token refused before its expiry is given
// again, and the call fails with [ErrNotRefreshed] rather than send it.
// oauth2's TokenSource has no context: a fetch runs to its end, and the
// call that started it waits for it even when its ctx is done (give ts's
// own HTTP client a timeout); other calls waiting for it return when
// their ctx is done. Unlike [ClientCredentials], it cannot know a client
// secret to hide: an error from ts is returned as ts wrote it.
func FromTokenSource(ts oauth2.TokenSource) a2a.CredentialSource {
	return newSource(func(context.Context) (*oauth2.Token, error) { return ts.Token() })
}

// source is the credential source of both: the token fetched last, and a
// one-slot channel held while a token is fetched, so that callers wait
// for one fetch (or their ctx) rather than start their own.
type source struct {
	fetch func(context.Context) (*oauth2.Token, error)
	slot  chan struct{}
	mu    sync.Mutex
	tok   *oauth2.Token // the latest fetched; nil before the first
}

func newSource(fetch func(context.Context) (*oauth2.Token, error)) *source {
	return &source{fetch: fetch, slot: make(chan struct{}, 1)}
}

// Credential implements [a2a.CredentialSource].
func (s *source) Credential(ctx context.Context, refused *a2a.Credential) (a2a.Credential, error) {
	if tok, ok := s.current(refused); ok {
		return credential(tok), nil
	}
	select {
	case s.slot <- struct{}{}:
	case <-ctx.Done():
		return a2a.Credential{}, ctx.Err()
	}
	defer func() { <-s.slot }()
	if tok, ok := s.current(refused); ok { // fetched while this call waited
		return credential(tok), nil
	}
	tok, err := s.fetch(ctx)
	switch {
	case err != nil:
		return a2a.Credential{}, err
	case tok == nil || tok.AccessToken == "":
		return a2a.Credential{}, ErrNoToken
	case refused != nil && tok.AccessToken == refused.Token:
		return a2a.Credential{}, ErrNotRefreshed
	}
	s.mu.Lock()
	s.tok = tok
	s.mu.Unlock()
	return credential(tok), nil
}

// current returns the token held when it is still valid and not the one
// refused.
func (s *source) current(refused *a2a.Credential) (*oauth2.Token, bool) {
	s.mu.Lock()
	tok := s.tok
	s.mu.Unlock()
	return tok, tok.Valid() && (refused == nil || refused.Token != tok.AccessToken)
}

// credential is the Authorization credential of tok.
func credential(tok *oauth2.Token) a2a.Credential {
	return a2a.Credential{Scheme: tok.Type(), Token: tok.AccessToken}
}
