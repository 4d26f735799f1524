package a2a

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/httpbody"
)

// Reading an agent's card from where agents publish it (A2A v0.3 §5.3;
// A2A v1.0 §8.2): the well-known paths tried in turn, each reply read by
// the one card reader for both versions (card_v10.go).

// CardAttempt is one URL [ResolveAgentCard] tried: its address (without
// userinfo or query) and what came back.
type CardAttempt struct {
	URL string
	// StatusCode is the HTTP status, 0 when no reply came.
	StatusCode int
	// Err is why this URL gave no card.
	Err error
}

// CardError is returned by [ResolveAgentCard] when no card could be read. It
// lists every URL tried with its status.
type CardError struct {
	Attempts []CardAttempt
}

// Error lists every URL tried, e.g. "a2a: no agent card:
// https://h/.well-known/agent-card.json (HTTP 404);
// https://h/.well-known/agent.json (HTTP 404)".
func (e *CardError) Error() string {
	var b strings.Builder
	b.WriteString("a2a: no agent card:")
	for i, a := range e.Attempts {
		if i > 0 {
			b.WriteString(";")
		}
		fmt.Fprintf(&b, " %s", a.URL)
		switch {
		case a.StatusCode != 0 && !httpbody.Is2xx(a.StatusCode):
			fmt.Fprintf(&b, " (HTTP %d)", a.StatusCode)
		case a.StatusCode != 0 && a.Err != nil:
			fmt.Fprintf(&b, " (HTTP %d: %v)", a.StatusCode, a.Err)
		case a.Err != nil:
			fmt.Fprintf(&b, " (%v)", a.Err)
		}
	}
	return b.String()
}

// Unwrap returns the errors of every attempt.
func (e *CardError) Unwrap() []error {
	var errs []error
	for _, a := range e.Attempts {
		if a.Err != nil {
			errs = append(errs, a.Err)
		}
	}
	return errs
}

// ResolveAgentCard fetches the agent card of the agent at baseURL (e.g.
// "https://a2a.objqr.com"): GET baseURL + [AgentCardPath], and on a 404
// (or a 405, as an endpoint may answer a GET) GET the next URL, in this
// order, stopping at the first card or any other reply:
//   - baseURL + [AgentCardPath];
//   - when baseURL has a path (an endpoint such as
//     "https://h/a2a/jsonrpc"), [AgentCardPath] under each shorter prefix
//     of it, the two nearest ("https://h/a2a/.well-known/agent-card.json"),
//     then under the site's root;
//   - baseURL + [LegacyAgentCardPath], then, when baseURL has a path,
//     [LegacyAgentCardPath] under the site's root.
//
// That is at most six GETs, all on baseURL's origin (A2A v0.3 §5.3; A2A
// v1.0 keeps the first path). Paths are joined without doubled slashes; a
// baseURL that already names a card file (".json") is fetched as it is,
// alone. With [WithLogger] each GET is logged at debug level with its URL
// (without userinfo or query, redacted) and status. opts are the client
// options that apply to a GET: credentials (WithAPIKey, WithBearerToken,
// WithHeader), WithHTTPClient, retries, WithMaxResponseBytes,
// WithUserAgent, WithLogger. The GET is retried like tasks/get.
//
// It reads A2A v0.3 cards (a "url"), A2A v1.0 cards ("supportedInterfaces")
// and dual cards with both, into one [AgentCard]; see there for how the
// two shapes map.
//
// With [WithCardVerifier] the card read is verified (A2A v1.0 §8.4) and
// the result put on it ([AgentCard.Verification]); a card whose signatures
// are invalid, or under [WithRequireVerifiedCard] any card not verified,
// is refused with a *[CardSignatureError] and the legacy path is not
// tried.
//
// It returns a *[CardError] listing every URL tried with its status when no
// card could be read (each attempt's error is an *[HTTPError],
// *[TransportError], *[BodyTooLargeError], or a *[ProtocolError] for a body
// that is not a card object with a "url" or a non-empty
// "supportedInterfaces", or whose members do not decode: a known member
// repeated or in another case, a value of the wrong type), ctx's error, or
// an error for a baseURL that is not an absolute http(s) URL or bad
// options.
func ResolveAgentCard(ctx context.Context, baseURL string, opts ...Option) (*AgentCard, error) {
	// Not NewClient: a tenant given for the client to come is no fault here.
	u, cfg, err := checkInput(baseURL, opts)
	if err != nil {
		return nil, err
	}
	c := newClient(baseURL, u, cfg)
	cerr := &CardError{}
	for _, p := range cardPaths(u.Path) {
		target := *u
		target.Path, target.RawPath = p, ""
		card, status, err := c.getCard(ctx, &target)
		c.log.LogAttrs(ctx, slog.LevelDebug, "a2a agent card", slog.String("url", c.red.ShownURL(target)), slog.Int("status", status),
			slog.Bool("found", err == nil))
		if err == nil {
			card.origin = originOf(&target)
			if err := cfg.cards.verify(ctx, card, c.red); err != nil {
				return nil, err
			}
			return card, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("a2a: agent card: %w", ctx.Err())
		}
		cerr.Attempts = append(cerr.Attempts, CardAttempt{URL: c.red.ShownURL(target), StatusCode: status, Err: err})
		if status != http.StatusNotFound && status != http.StatusMethodNotAllowed {
			break
		}
	}
	return nil, cerr
}

// maxCardPrefixes bounds the path prefixes between an endpoint's path and
// the site's root that ResolveAgentCard tries (cardPaths): with the path
// itself, the root and the two legacy URLs, at most six GETs.
const maxCardPrefixes = 2

// cardPaths are the paths ResolveAgentCard GETs, in turn, for a base URL
// whose path is path: path itself when it names a .json file; else the
// card path under path, under each shorter prefix of it (the nearest
// maxCardPrefixes of them) and under the site's root, then the legacy
// path under path and under the root. "/a2a/jsonrpc" gives
// /a2a/jsonrpc/.well-known/agent-card.json,
// /a2a/.well-known/agent-card.json, /.well-known/agent-card.json,
// /a2a/jsonrpc/.well-known/agent.json, /.well-known/agent.json.
func cardPaths(path string) []string {
	if strings.HasSuffix(path, ".json") {
		return []string{path}
	}
	base := strings.TrimRight(path, "/")
	paths := []string{base + AgentCardPath}
	prefix := base
	for n := 0; n < maxCardPrefixes; n++ {
		i := strings.LastIndex(prefix, "/")
		if i <= 0 {
			break
		}
		prefix = strings.TrimRight(prefix[:i], "/")
		if prefix == "" {
			break
		}
		paths = append(paths, prefix+AgentCardPath)
	}
	if base != "" {
		paths = append(paths, AgentCardPath, base+LegacyAgentCardPath)
	}
	return append(paths, LegacyAgentCardPath)
}

// getCard GETs one card URL through the client's call path and reads it
// with the client's binding (whose card method reads every version's
// card, readCard). It returns the HTTP status (0 without a reply) with any
// error.
// The GET is observed ([WithObserver]) as a ResolveAgentCard operation.
func (c *Client) getCard(ctx context.Context, target *url.URL) (*AgentCard, int, error) {
	cl := c.newGet("agent card", target.String())
	ctx, cl.spec.obs = c.observeCard(ctx, target)
	card, status, err := cl.readCard(ctx)
	cl.spec.obs.end(card, err) // nil-safe
	return card, status, err
}

// readCard sends cl, a card GET, and reads its reply as a card.
func (cl *call) readCard(ctx context.Context) (*AgentCard, int, error) {
	c := cl.c
	att, err := cl.exchange(ctx)
	if err != nil {
		return nil, att.status, err
	}
	if !httpbody.Is2xx(att.status) {
		return nil, att.status, cl.httpError(&att)
	}
	rep := &reply{asked: cl.asked(), status: att.status, body: att.Body, result: bytes.TrimSpace(att.Body)}
	if syntax := jsonSyntax(att.Body); syntax != nil {
		return nil, att.status, rep.notJSON(att.header.Get("Content-Type"), syntax)
	}
	rep.valid = true
	card, err := c.proto.card(rep)
	return card, att.status, err
}
