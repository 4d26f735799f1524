package a2a

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// Credentials that change: a token that expires every hour, fetched from
// an OAuth 2.0 token endpoint or a vault, asked for on every attempt of
// every call (applyCredential, from prepareAttempt in rpc.go), asked for
// again once after a 401 (refusedCredential), redacted like a static one.

// Credential is one credential for a request: the value of one request
// header, "<Scheme> <Token>" in Header. Which one an agent takes, its
// card's securitySchemes say; an OAuth 2.0 access token is a
// Credential{Scheme: "Bearer", Token: accessToken} (RFC 6750 §2.1).
type Credential struct {
	// Header is the request header the credential goes in, "" for
	// Authorization. A credential replaces the value of the same header
	// that [WithBearerToken], [WithAPIKey] or [WithHeader] set.
	Header string
	// Scheme is the authentication scheme written before Token
	// ("Bearer", "DPoP"), or "" to send Token alone (an API key in
	// X-API-Key).
	Scheme string
	// Token is the secret. It is redacted from every error and log
	// record of the client, as a static credential is; the client
	// remembers the last few tokens it sent for that.
	Token string
}

// header is the request header c goes in.
func (c Credential) header() string {
	if c.Header == "" {
		return "Authorization"
	}
	return http.CanonicalHeaderKey(c.Header)
}

// value is the header value c sends.
func (c Credential) value() string {
	if c.Scheme == "" {
		return c.Token
	}
	return c.Scheme + " " + c.Token
}

// check returns why c cannot be sent, or nil. It never names the token.
func (c Credential) check() error {
	switch {
	case c.Header != "" && !validHeaderName(c.Header):
		return errors.New("invalid header name")
	case c.Token == "":
		return errors.New("empty token")
	case controlByte(c.Token):
		return errors.New("token holds a control character")
	case c.Scheme != "" && (!validHeaderName(c.Scheme) || controlByte(c.Scheme)):
		return errors.New("invalid scheme")
	}
	switch c.header() {
	case "Accept", "Accept-Encoding", "User-Agent", "Expect":
		// The client's own, which no credential replaces.
		return fmt.Errorf("header %s is set by the client", c.header())
	}
	return clientOwnedHeader(c.header())
}

// CredentialSource hands out the credential for each request of a
// [Client] made [WithCredentials]. The client asks it before every
// attempt of every call (a retry after a 503 asks again, so it carries a
// fresh token), from many goroutines at once: Credential must be safe for
// concurrent use and cheap when its credential is still good (cache it).
//
// refused is nil, except when the agent has just answered the previous
// attempt with HTTP 401: it is then the credential the agent refused, and
// the client sends the call once more with what Credential returns. A
// source that caches should fetch a new credential only when refused is
// the one it holds; when it already holds another (a concurrent call
// refreshed it), it returns that one, so many calls refused at once cause
// one fetch.
//
// An error stops the call before anything is sent: the call returns a
// *[CredentialError] wrapping it. Credential should honour ctx: the
// call's, bounded like an attempt ([WithAttemptTimeout]; by default
// [DefaultAttemptTimeout]), so a token endpoint that hangs fails the
// attempt; a source that ignores ctx holds the call as long as it runs.
type CredentialSource interface {
	Credential(ctx context.Context, refused *Credential) (Credential, error)
}

// CredentialFunc adapts a function to a [CredentialSource].
type CredentialFunc func(ctx context.Context, refused *Credential) (Credential, error)

// Credential calls f(ctx, refused).
func (f CredentialFunc) Credential(ctx context.Context, refused *Credential) (Credential, error) {
	return f(ctx, refused)
}

// WithCredentials makes the client ask src for a [Credential] before each
// attempt of every request it sends (calls, stream opens, subscriptions,
// push config calls, the extended card, and [ResolveAgentCard]'s GETs),
// and, when an agent answers a request with HTTP 401 (it did not act, so
// this holds for message/send too: DESIGN behaviour 4), ask src again
// with the refused credential and send the request once more, outside the
// retry budget and without a backoff wait. A second 401 is the call's
// *[HTTPError], naming the scheme the agent asks for (its Challenge).
//
// The credential's header replaces the same header set by
// [WithBearerToken], [WithAPIKey] or [WithHeader]; the others are sent as
// well. A client with a source carries credentials for
// [NewClientFromCard]'s rule on where they may go, as one with a static
// credential does. golang.org/x/oauth2 token sources fit through the
// a2aoauth2 module (github.com/caoliao-a2a/a2a-go/a2aoauth2).
//
// It returns an error from NewClient when src is nil or when given twice.
func WithCredentials(src CredentialSource) Option {
	return clientOption(func(c *clientConfig) error {
		if src == nil {
			return errors.New("a2a: nil credential source")
		}
		if c.creds != nil {
			return errors.New("a2a: a second credential source (one client asks one)")
		}
		c.creds = src
		return nil
	})
}

// CredentialError is a call stopped before it was sent because its
// [CredentialSource] returned an error, or a credential that cannot be
// sent (an empty token, a control character, an invalid header name or
// scheme, a header the client sets itself). errors.Is and errors.As reach
// the source's error through Unwrap.
type CredentialError struct {
	// Method is the call as the client's binding spells it ("agent card"
	// for ResolveAgentCard).
	Method string
	// Err is the source's error, or why its credential cannot be sent.
	Err error
	red *redact.Redactor
}

// Error returns e.g. "a2a: tasks/get: credential source: token endpoint
// unreachable", Err's text redacted, on one line, at most 512 bytes.
func (e *CredentialError) Error() string {
	msg := "<nil>"
	if e.Err != nil {
		msg = inert.Printable(inert.Truncate(e.red.Str(e.Err.Error()), maxBodyExcerpt))
	}
	return fmt.Sprintf("a2a: %s: credential source: %s", e.Method, msg)
}

// Unwrap returns Err.
func (e *CredentialError) Unwrap() error { return e.Err }

// applyCredential puts the credential of the client's source, if it has
// one, in req's header, and remembers it (cl.sent) for refusedCredential;
// with cl.refused set (the agent refused the previous attempt's), it
// hands that to the source, once. Errors: *CredentialError.
func (cl *call) applyCredential(req *http.Request) error {
	src := cl.c.creds
	if src == nil {
		return nil
	}
	refused := cl.refused
	cl.refused = nil
	// Asking the source is part of the attempt: bounded like it.
	ctx := req.Context()
	if d := cl.c.attempt; d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	cred, err := src.Credential(ctx, refused)
	cl.c.red.Learn(cred.Token) // cl.red shares what the client's learns
	if err == nil {
		err = cred.check()
	}
	if err != nil {
		return &CredentialError{Method: cl.spec.method, Err: err, red: cl.red}
	}
	req.Header.Set(cred.header(), cred.value())
	cl.sent = &cred
	return nil
}

// refusedCredential reports whether att, a reply to a request that
// carried a credential of the client's source, is a 401 to send again
// with a new credential: the first 401 of the call. It then marks the
// call so that the next attempt hands the refused credential to the
// source.
func (cl *call) refusedCredential(ctx context.Context, att *attempt) bool {
	if cl.sent == nil || cl.reauthorized || att.status != http.StatusUnauthorized || att.stream != nil {
		return false
	}
	cl.reauthorized, cl.refused = true, cl.sent
	cl.c.log.LogAttrs(ctx, slog.LevelDebug, "a2a credential refused", slog.String("method", cl.spec.method),
		cl.idAttr(), slog.Int("attempts", att.n))
	return true
}

// challengeScheme is the authentication scheme a challenge names first
// (`Bearer realm="a2a"`: "Bearer"), or "" when it starts with no
// RFC 9110 token of at most 32 bytes.
func challengeScheme(challenge string) string {
	scheme, _, _ := strings.Cut(strings.TrimSpace(challenge), " ")
	scheme, _, _ = strings.Cut(scheme, ",")
	if len(scheme) > 32 || !validHeaderName(scheme) {
		return ""
	}
	return scheme
}
