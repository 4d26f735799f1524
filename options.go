package a2a

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
	"unicode"
)

// Defaults of a [Client].
const (
	// DefaultMaxResponseBytes caps a response body: 10 MiB.
	DefaultMaxResponseBytes = 10 << 20
	// DefaultAttemptTimeout bounds each attempt of a call unless
	// [WithAttemptTimeout] or the Timeout of a client given to
	// [WithHTTPClient] says otherwise. A caller's ctx deadline applies on
	// top of it.
	DefaultAttemptTimeout = 60 * time.Second
	// defaultUserAgent is sent unless WithUserAgent says otherwise.
	defaultUserAgent = "caoliao-a2a-go/0.1"
)

// Option configures a [Client] in [NewClient] and [NewClientFromCard], and
// the request of [ResolveAgentCard]. An option given bad input makes them
// return an error.
type Option interface {
	applyClient(*clientConfig) error
}

// clientOption is the one implementation of Option.
type clientOption func(*clientConfig) error

func (o clientOption) applyClient(c *clientConfig) error { return o(c) }

type clientConfig struct {
	apiKey, workspace, bearer string
	header                    http.Header
	agentID, agentCode        string
	httpClient                *http.Client
	maxRetries                int
	waitMin, waitMax          time.Duration
	maxBody                   int64
	attempt, streamIdle       time.Duration
	attemptSet                bool
	userAgent                 string
	logger                    *slog.Logger
	trustedHosts              []trustedHost
	version                   string // "" until WithProtocolVersion: the card's, or ProtocolV03
	tenant                    string
	transport                 string // "" until WithTransports: the card's choice, or TransportJSONRPC
	transports                []string
	clientOrder               bool // WithPreferredTransports: the caller's order of transports wins on a card

	// Observation (options_observe.go).
	observer Observer
	// Signed agent cards (options_cards.go).
	cards cardChecks

	// Extensions (options_extensions.go): the URIs activated on every
	// request, whether the card's required ones are too, and one header
	// line per URI.
	extensions            []string
	extRequired, extLines bool

	// Credentials that change (options_credentials.go).
	creds CredentialSource // WithCredentials; nil: none

	maxPolls int // WithMaxPollsInFlight
}

// newClientConfig applies opts over the defaults.
func newClientConfig(opts []Option) (clientConfig, error) {
	cfg := clientConfig{
		maxRetries: defaultMaxRetries,
		waitMin:    defaultRetryWaitMin,
		waitMax:    defaultRetryWaitMax,
		maxBody:    DefaultMaxResponseBytes,
		userAgent:  defaultUserAgent,
		maxPolls:   DefaultMaxPollsInFlight,
	}
	for _, opt := range opts {
		if opt == nil {
			return cfg, errors.New("a2a: nil Option")
		}
		if err := opt.applyClient(&cfg); err != nil {
			return cfg, err
		}
	}
	if cfg.agentID != "" && cfg.agentCode != "" {
		return cfg, errors.New("a2a: WithAgentID and WithAgentCode are exclusive")
	}
	if err := cfg.cards.check(); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// WithAPIKey sends key in the X-API-Key header of every request (the
// gateway style of the Caoliao service docs). It returns an error from
// NewClient when key is empty or holds a control character. The key never
// appears in an error or a log record.
func WithAPIKey(key string) Option {
	return clientOption(func(c *clientConfig) error {
		if err := checkHeaderValue("API key", key); err != nil {
			return err
		}
		c.apiKey = key
		return nil
	})
}

// WithWorkspace sends id in the X-Workspace-ID header of every request
// (gateway style). It returns an error from NewClient when id is empty or
// holds a control character (a tab is allowed).
func WithWorkspace(id string) Option {
	return clientOption(func(c *clientConfig) error {
		if err := checkHeaderValue("workspace id", id); err != nil {
			return err
		}
		c.workspace = id
		return nil
	})
}

// WithBearerToken sends "Authorization: Bearer <token>" with every request.
// It returns an error from NewClient when token is empty or holds a
// control character (a tab is allowed). The token never appears in an
// error or a log record.
func WithBearerToken(token string) Option {
	return clientOption(func(c *clientConfig) error {
		if err := checkHeaderValue("bearer token", token); err != nil {
			return err
		}
		c.bearer = token
		return nil
	})
}

// WithHeader adds a header to every request. It may be given several times.
// It returns an error from NewClient for an invalid name or value, or for a
// header the client sets itself (Content-Type, Content-Length, Host, the
// hop-by-hop headers such as Connection and Transfer-Encoding,
// A2A-Version, which [WithProtocolVersion] decides, and A2A-Extensions
// and X-A2A-Extensions, which [WithExtensions] decides).
// Header values are secrets (DESIGN.md behaviour 6): each is redacted from
// errors and logs like the API key, whatever the header's name, when it is
// 6 bytes or more; a shorter one ("1", "json") only when the name suggests
// a credential (containing "auth", "key", "token", "secret", "cookie",
// "session", "pass", "pwd", "sig", "credential", "access", "api", "jwt",
// "assertion", "dpop" or "team", in any case). The Accept headers, which
// name formats, are not redacted. Any header counts as a credential for
// [NewClientFromCard]'s rule on where credentials may go.
func WithHeader(name, value string) Option {
	return clientOption(func(c *clientConfig) error {
		if !validHeaderName(name) {
			return fmt.Errorf("a2a: invalid header name %q", name)
		}
		if err := clientOwnedHeader(name); err != nil {
			return fmt.Errorf("a2a: %w", err)
		}
		if controlByte(value) {
			return fmt.Errorf("a2a: header %s: value holds a control character", http.CanonicalHeaderKey(name))
		}
		if c.header == nil {
			c.header = http.Header{}
		}
		c.header.Add(name, value)
		return nil
	})
}

// WithAgentID puts "agent_id": id at the top level of every JSON-RPC request
// body, tasks/get and tasks/cancel (GetTask, CancelTask on v1.0) included,
// on either protocol version, to select the agent behind a
// gateway. It cannot be combined with [WithAgentCode]. It returns an error
// from NewClient when id is empty or holds a control character, and when
// the client speaks HTTP+JSON ([WithTransports]): its requests have no
// envelope to carry the member, and its gateways select the agent by URL
// or tenant ([WithTenant]).
func WithAgentID(id string) Option {
	return clientOption(func(c *clientConfig) error {
		if err := checkHeaderValue("agent id", id); err != nil {
			return err
		}
		c.agentID = id
		return nil
	})
}

// WithAgentCode puts "agent_code": code at the top level of every JSON-RPC
// request body, to select the agent behind a gateway. It cannot be
// combined with [WithAgentID]. It returns an error from NewClient when code
// is empty or holds a control character, and, as for [WithAgentID], when
// the client speaks HTTP+JSON.
func WithAgentCode(code string) Option {
	return clientOption(func(c *clientConfig) error {
		if err := checkHeaderValue("agent code", code); err != nil {
			return err
		}
		c.agentCode = code
		return nil
	})
}

// WithHTTPClient makes the client send requests through a shallow copy of hc
// (its Transport, Timeout and Jar are used). The copy's CheckRedirect
// refuses redirects to another host and method-changing redirects (301, 302,
// 303 on POST) before calling hc's own. hc's Timeout, if any, bounds each
// whole exchange, an open stream included (a stream that must outlive it
// needs a client without one); [WithAttemptTimeout] bounds each attempt,
// by default at hc's Timeout or, when hc has none, [DefaultAttemptTimeout].
// The default is an [http.Client] with a DefaultAttemptTimeout per attempt
// on one pooled transport that every client made without this option
// shares (go-cleanhttp's; never [http.DefaultTransport], which tests and
// tracing libraries replace).
func WithHTTPClient(hc *http.Client) Option {
	return clientOption(func(c *clientConfig) error {
		if hc == nil {
			return errors.New("a2a: nil *http.Client")
		}
		c.httpClient = hc
		return nil
	})
}

// WithMaxRetries sets how many times a retryable request is re-sent after
// its first attempt (default 3); 0 disables retries. It
// returns an error from NewClient when n is negative or above 20.
func WithMaxRetries(n int) Option {
	return clientOption(func(c *clientConfig) error {
		if n < 0 || n > 20 {
			return fmt.Errorf("a2a: max retries %d out of range 0..20", n)
		}
		c.maxRetries = n
		return nil
	})
}

// WithRetryWait sets the backoff between retries: the first wait is about
// minWait, doubling with jitter, each wait at most maxWait (defaults
// 250 ms and 5 s). A server's Retry-After is
// honoured up to maxWait; one asking for longer is not retried and its
// delay is reported in [HTTPError.RetryAfter]. It returns an error from
// NewClient unless 0 < minWait <= maxWait.
func WithRetryWait(minWait, maxWait time.Duration) Option {
	return clientOption(func(c *clientConfig) error {
		if minWait <= 0 || maxWait < minWait {
			return fmt.Errorf("a2a: retry wait needs 0 < min (%s) <= max (%s)", minWait, maxWait)
		}
		c.waitMin, c.waitMax = minWait, maxWait
		return nil
	})
}

// WithMaxResponseBytes caps a response body at n bytes (default
// [DefaultMaxResponseBytes], 10 MiB); a larger reply gives a
// [*BodyTooLargeError]. It returns an error from NewClient when n < 1.
func WithMaxResponseBytes(n int64) Option {
	return clientOption(func(c *clientConfig) error {
		if n < 1 {
			return fmt.Errorf("a2a: max response bytes %d must be positive", n)
		}
		c.maxBody = n
		return nil
	})
}

// WithAttemptTimeout bounds each attempt of every call, even when ctx has
// no deadline: a plain reply must arrive whole within d, and an event
// stream ([Client.SendStreamingMessage], [Client.SubscribeToTask]) must open (send its
// headers) within d; once open, a stream is bounded by ctx and
// [WithStreamIdleTimeout]. An attempt that runs out fails as a
// *[TransportError] matching context.DeadlineExceeded and is retried
// where its method allows (never message/send or a push-config create,
// which the agent may be acting on). The default is the Timeout of the HTTP client, or
// [DefaultAttemptTimeout] when it has none (also when a client given to
// [WithHTTPClient] has no Timeout); d == 0 sets no bound of this kind,
// leaving ctx. A Timeout on a client given to WithHTTPClient applies as
// well, to each whole exchange, an open stream included: this option can
// shorten it, not lift it. It returns an error from NewClient when d is
// negative.
func WithAttemptTimeout(d time.Duration) Option {
	return clientOption(func(c *clientConfig) error {
		if d < 0 {
			return fmt.Errorf("a2a: attempt timeout %s is negative", d)
		}
		c.attempt, c.attemptSet = d, true
		return nil
	})
}

// WithMaxPollsInFlight bounds the tasks/get calls the polling waits of the
// client make at once ([Client.WaitTask], [Client.SendMessageAndWait],
// [Client.WaitTasks], a [PushWait]'s fallback poll) to n (default
// [DefaultMaxPollsInFlight], 64): a wait whose attempt is due while n run
// waits its turn, earliest due first, and a waiting poll holds no
// goroutine. So the polling waits of one client use at most n connections
// to an agent at once, and, when the transport's idle pool holds them
// (the shared transport of clients made without [WithHTTPClient] keeps 2×
// DefaultMaxPollsInFlight per host, see [CloseIdleConnections]), open
// about n in all (at most 2n−1) however many tasks they wait for. With n
// above DefaultMaxPollsInFlight, give WithHTTPClient a transport whose
// MaxIdleConnsPerHost and MaxIdleConns are at least 2n, or connections
// beyond the idle pool are closed after a poll and opened again. Other
// calls (sends, streams) are not counted. It returns an error from
// NewClient when n is less than 1.
func WithMaxPollsInFlight(n int) Option {
	return clientOption(func(c *clientConfig) error {
		if n < 1 {
			return fmt.Errorf("a2a: max polls in flight %d must be at least 1", n)
		}
		c.maxPolls = n
		return nil
	})
}

// WithStreamIdleTimeout ends a stream ([Client.SendStreamingMessage],
// [Client.SubscribeToTask]) once the client has waited d for its next event,
// with a *[TransportError] matching context.DeadlineExceeded. A comment
// line (the keep-alive an agent sends on a quiet stream) starts the wait
// anew; bytes that do not finish an event or a comment line do not. The
// time the caller spends on an event does not count. The default is no
// bound: only ctx ends a quiet stream. It returns an error from NewClient
// when d is not positive.
func WithStreamIdleTimeout(d time.Duration) Option {
	return clientOption(func(c *clientConfig) error {
		if d <= 0 {
			return fmt.Errorf("a2a: stream idle timeout %s must be positive", d)
		}
		c.streamIdle = d
		return nil
	})
}

// WithTrustedHosts names hosts, other than the origin an agent card was
// read from, that [NewClientFromCard] may send the client's credentials
// to when the card names an endpoint there: "agents.example.com" (any
// port), "agents.example.com:8443", "10.0.0.7", "::1", "[::1]:9000". Names
// are matched without regard to case or a final dot and are not resolved
// ("localhost" does not match 127.0.0.1); IP addresses match in any form
// Go parses (an IPv4-mapped IPv6 address matches its IPv4 one); there are
// no wildcards. A card read over https still never sends credentials over
// http. [NewClient] ignores it. It returns an error from NewClient when a
// host is empty, holds a scheme, path, wildcard, space or control
// character, or has a bad port.
func WithTrustedHosts(hosts ...string) Option {
	return clientOption(func(c *clientConfig) error {
		for _, h := range hosts {
			t, err := parseTrustedHost(h)
			if err != nil {
				return err
			}
			c.trustedHosts = append(c.trustedHosts, t)
		}
		return nil
	})
}

// WithUserAgent sets the User-Agent header (default "caoliao-a2a-go/0.1"). It
// returns an error from NewClient when ua is empty or holds a control character (a tab is allowed).
func WithUserAgent(ua string) Option {
	return clientOption(func(c *clientConfig) error {
		if err := checkHeaderValue("user agent", ua); err != nil {
			return err
		}
		c.userAgent = ua
		return nil
	})
}

// WithLogger makes the client log each attempt, retry and reply at debug
// level (method, request id, attempt, HTTP status, bytes, duration; never
// URLs, headers or credentials), and each call that got no reply with its
// error text (redacted). The default logs nothing.
func WithLogger(l *slog.Logger) Option {
	return clientOption(func(c *clientConfig) error {
		if l == nil {
			return errors.New("a2a: nil *slog.Logger")
		}
		c.logger = l
		return nil
	})
}

// clientOwnedHeader returns an error for a header the client sets
// itself, which neither WithHeader, a CredentialSource nor an Observer
// may set: Content-Type, Content-Length, Host, the hop-by-hop headers
// (the transport's), A2A-Version (from the protocol version) and the
// extension headers (from the extensions activated).
func clientOwnedHeader(name string) error {
	switch k := http.CanonicalHeaderKey(name); k {
	case "Content-Type", "Content-Length", "Host",
		"Connection", "Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade": // hop-by-hop (RFC 9110 §7.6.1)
		return fmt.Errorf("header %s is set by the client", k)
	case "A2a-Version":
		return errors.New("header A2A-Version is set by the client from its protocol version; use WithProtocolVersion")
	case "A2a-Extensions", "X-A2a-Extensions":
		return fmt.Errorf("header %s is set by the client from the extensions it activates; use WithExtensions", k)
	}
	return nil
}

// checkHeaderValue refuses an empty value or one with a control
// character (controlByte); what names it in the error.
func checkHeaderValue(what, v string) error {
	if v == "" {
		return fmt.Errorf("a2a: empty %s", what)
	}
	if controlByte(v) {
		return fmt.Errorf("a2a: %s holds a control character", what)
	}
	return nil
}

// controlByte reports whether v holds a character no option value may
// hold: a control character other than a tab, DEL (RFC 9110 §5.5), a C1
// control (U+0080–U+009F, which terminals obey) or a format character such
// as a bidi override (Unicode category Cf), any of which would let the
// value rewrite a log line it is printed in.
func controlByte(v string) bool {
	for _, r := range v {
		if r < ' ' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || unicode.Is(unicode.Cf, r) {
			return true
		}
	}
	return false
}

func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}
