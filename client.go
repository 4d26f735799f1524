package a2a

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"
)

// Defaults of a [Client].
const (
	// DefaultMaxResponseBytes caps a response body: 10 MiB.
	DefaultMaxResponseBytes = 10 << 20
	// DefaultTimeout is the per-attempt timeout of the default HTTP client.
	// A caller's ctx deadline applies on top of it.
	DefaultTimeout = 60 * time.Second
	// ProtocolVersion is the A2A version this client speaks, sent in the
	// A2A-Version header of every request (reference §11: v0.3 servers
	// ignore it; a v1.0 server answers -32009, [ErrVersionNotSupported]).
	ProtocolVersion = "0.3"
	// DefaultUserAgent is sent unless [WithUserAgent] says otherwise.
	DefaultUserAgent = "caoliao-a2a-go/0.1"
)

// Client calls one A2A agent over JSON-RPC 2.0 on HTTP: message/send,
// tasks/get and tasks/cancel (A2A v0.3 §7). It is safe for concurrent use
// and should be reused: it holds a pool of connections.
//
// Every method takes a context first and honours it: when ctx is done the
// call returns at once with ctx's error wrapped. A task that failed is
// returned as a value with a nil error; see the package documentation for
// the errors each method can return.
type Client struct {
	endpoint string
	header   http.Header
	agentKey string // "agent_id" or "agent_code", or ""
	agentVal string
	rc       *retryablehttp.Client
	streamRC *retryablehttp.Client // rc without the default client's overall timeout
	card     atomic.Pointer[AgentCard]
	maxBody  int64
	log      *slog.Logger
	redactor *strings.Replacer
	nextID   atomic.Int64

	retryWaitMax time.Duration
}

// Option configures a [Client] in [NewClient]. An option given bad input
// makes NewClient return an error.
type Option func(*clientConfig) error

type clientConfig struct {
	apiKey, workspace, bearer string
	header                    http.Header
	agentID, agentCode        string
	httpClient                *http.Client
	maxRetries                int
	waitMin, waitMax          time.Duration
	maxBody                   int64
	userAgent                 string
	logger                    *slog.Logger
}

// WithAPIKey sends key in the X-API-Key header of every request (seed 002,
// gateway style). It returns an error from NewClient when key is empty or
// holds a line break. The key never appears in an error or a log record.
func WithAPIKey(key string) Option {
	return func(c *clientConfig) error {
		if err := checkHeaderValue("API key", key); err != nil {
			return err
		}
		c.apiKey = key
		return nil
	}
}

// WithWorkspace sends id in the X-Workspace-ID header of every request
// (seed 002). It returns an error from NewClient when id is empty or holds a
// line break.
func WithWorkspace(id string) Option {
	return func(c *clientConfig) error {
		if err := checkHeaderValue("workspace id", id); err != nil {
			return err
		}
		c.workspace = id
		return nil
	}
}

// WithBearerToken sends "Authorization: Bearer <token>" with every request.
// It returns an error from NewClient when token is empty or holds a line
// break. The token never appears in an error or a log record.
func WithBearerToken(token string) Option {
	return func(c *clientConfig) error {
		if err := checkHeaderValue("bearer token", token); err != nil {
			return err
		}
		c.bearer = token
		return nil
	}
}

// WithHeader adds a header to every request. It may be given several times.
// It returns an error from NewClient for an invalid name or value, or for a
// header the client sets itself (Content-Type, Content-Length, Host).
// Values of headers whose names suggest a credential (containing "auth",
// "key", "token", "secret", "cookie", "session", "pass", "pwd", "sig",
// "credential" or "access", in any case) are redacted from errors and logs
// like the API key.
func WithHeader(name, value string) Option {
	return func(c *clientConfig) error {
		if !validHeaderName(name) {
			return fmt.Errorf("a2a: invalid header name %q", name)
		}
		switch http.CanonicalHeaderKey(name) {
		case "Content-Type", "Content-Length", "Host":
			return fmt.Errorf("a2a: header %s is set by the client", http.CanonicalHeaderKey(name))
		}
		if strings.ContainsAny(value, "\r\n\x00") {
			return fmt.Errorf("a2a: header %s: value holds a line break or NUL", http.CanonicalHeaderKey(name))
		}
		if c.header == nil {
			c.header = http.Header{}
		}
		c.header.Add(name, value)
		return nil
	}
}

// WithAgentID puts "agent_id": id at the top level of every JSON-RPC request
// body, tasks/get and tasks/cancel included, to select the agent behind a
// gateway (seed 002). It cannot be combined with [WithAgentCode].
func WithAgentID(id string) Option {
	return func(c *clientConfig) error {
		if id == "" {
			return errors.New("a2a: empty agent id")
		}
		c.agentID = id
		return nil
	}
}

// WithAgentCode puts "agent_code": code at the top level of every JSON-RPC
// request body (seed 002). It cannot be combined with [WithAgentID].
func WithAgentCode(code string) Option {
	return func(c *clientConfig) error {
		if code == "" {
			return errors.New("a2a: empty agent code")
		}
		c.agentCode = code
		return nil
	}
}

// WithHTTPClient makes the client send requests through a shallow copy of hc
// (its Transport, Timeout and Jar are used). The copy's CheckRedirect
// refuses redirects to another host and method-changing redirects (301, 302,
// 303 on POST) before calling hc's own. The default is an [http.Client] with
// its own pooled transport (go-cleanhttp; never [http.DefaultTransport], which
// tests and tracing libraries replace) and a [DefaultTimeout] per attempt.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *clientConfig) error {
		if hc == nil {
			return errors.New("a2a: nil *http.Client")
		}
		c.httpClient = hc
		return nil
	}
}

// WithMaxRetries sets how many times a retryable request is re-sent after
// its first attempt (default [DefaultMaxRetries]); 0 disables retries. It
// returns an error from NewClient when n is negative or above 20.
func WithMaxRetries(n int) Option {
	return func(c *clientConfig) error {
		if n < 0 || n > 20 {
			return fmt.Errorf("a2a: max retries %d out of range 0..20", n)
		}
		c.maxRetries = n
		return nil
	}
}

// WithRetryWait sets the backoff between retries: the first wait is about
// minWait, doubling with jitter, each wait at most maxWait (defaults
// [DefaultRetryWaitMin], [DefaultRetryWaitMax]). A server's Retry-After is
// honoured up to maxWait; one asking for longer is not retried and its
// delay is reported in [HTTPError.RetryAfter]. It returns an error from
// NewClient unless 0 < minWait <= maxWait.
func WithRetryWait(minWait, maxWait time.Duration) Option {
	return func(c *clientConfig) error {
		if minWait <= 0 || maxWait < minWait {
			return fmt.Errorf("a2a: retry wait needs 0 < min (%s) <= max (%s)", minWait, maxWait)
		}
		c.waitMin, c.waitMax = minWait, maxWait
		return nil
	}
}

// WithMaxResponseBytes caps a response body at n bytes (default
// [DefaultMaxResponseBytes], 10 MiB); a larger reply gives a
// [*BodyTooLargeError]. It returns an error from NewClient when n < 1.
func WithMaxResponseBytes(n int64) Option {
	return func(c *clientConfig) error {
		if n < 1 {
			return fmt.Errorf("a2a: max response bytes %d must be positive", n)
		}
		c.maxBody = n
		return nil
	}
}

// WithUserAgent sets the User-Agent header (default [DefaultUserAgent]). It
// returns an error from NewClient when ua is empty or holds a line break.
func WithUserAgent(ua string) Option {
	return func(c *clientConfig) error {
		if err := checkHeaderValue("user agent", ua); err != nil {
			return err
		}
		c.userAgent = ua
		return nil
	}
}

// WithLogger makes the client log each attempt, retry and reply at debug
// level (method, request id, attempt, HTTP status, bytes, duration; never
// URLs, headers or credentials), and each call that got no reply with its
// error text (redacted). The default logs nothing.
func WithLogger(l *slog.Logger) Option {
	return func(c *clientConfig) error {
		if l == nil {
			return errors.New("a2a: nil *slog.Logger")
		}
		c.logger = l
		return nil
	}
}

// NewClient returns a client for the A2A JSON-RPC endpoint at endpoint, for
// example "https://a2a.objqr.com/a2a/jsonrpc" (seed 000) or a gateway's
// ".../agents/a2a" (seed 002). It does no network I/O. It returns an error
// when endpoint is not an absolute http or https URL, or an option is given
// bad input.
func NewClient(endpoint string, opts ...Option) (*Client, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, errors.New("a2a: endpoint is not a valid URL")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("a2a: endpoint must be an absolute http:// or https:// URL")
	}
	cfg := clientConfig{
		maxRetries: DefaultMaxRetries,
		waitMin:    DefaultRetryWaitMin,
		waitMax:    DefaultRetryWaitMax,
		maxBody:    DefaultMaxResponseBytes,
		userAgent:  DefaultUserAgent,
	}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("a2a: nil Option")
		}
		if err := opt(&cfg); err != nil {
			return nil, err
		}
	}
	if cfg.agentID != "" && cfg.agentCode != "" {
		return nil, errors.New("a2a: WithAgentID and WithAgentCode are exclusive")
	}

	c := &Client{
		endpoint:     endpoint,
		maxBody:      cfg.maxBody,
		log:          cfg.logger,
		retryWaitMax: cfg.waitMax,
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	switch {
	case cfg.agentID != "":
		c.agentKey, c.agentVal = "agent_id", cfg.agentID
	case cfg.agentCode != "":
		c.agentKey, c.agentVal = "agent_code", cfg.agentCode
	}

	c.header = http.Header{}
	for k, vs := range cfg.header {
		c.header[k] = append([]string(nil), vs...)
	}
	c.header.Set("Content-Type", "application/json")
	c.header.Set("Accept", "application/json")
	// Asking for gzip ourselves keeps net/http from decoding it out of
	// sight: the client's own reader (contentReader) then caps the
	// compressed bytes and tells corrupt data from a broken connection.
	if c.header.Get("Accept-Encoding") == "" {
		c.header.Set("Accept-Encoding", "gzip")
	}
	c.header.Set("User-Agent", cfg.userAgent)
	// The version this client speaks; a v1.0 agent can then refuse it with
	// -32009 (reference §11) instead of misreading the request.
	c.header.Set("A2A-Version", ProtocolVersion)
	if cfg.apiKey != "" {
		c.header.Set("X-API-Key", cfg.apiKey)
	}
	if cfg.workspace != "" {
		c.header.Set("X-Workspace-ID", cfg.workspace)
	}
	if cfg.bearer != "" {
		c.header.Set("Authorization", "Bearer "+cfg.bearer)
	}
	c.redactor = newRedactor(u, cfg)

	hc := guardRedirects(cfg.httpClient)
	c.rc = c.retryClient(hc, cfg)
	c.streamRC = c.rc
	if cfg.httpClient == nil {
		// A stream lasts as long as the task; only ctx bounds it.
		streamHC := *hc
		streamHC.Timeout = 0
		c.streamRC = c.retryClient(&streamHC, cfg)
	}
	return c, nil
}

// retryClient wraps hc in the retrying client every call goes through.
func (c *Client) retryClient(hc *http.Client, cfg clientConfig) *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient:     hc,
		Logger:         nil, // its own logger would print URLs; we log in hooks
		RetryWaitMin:   cfg.waitMin,
		RetryWaitMax:   cfg.waitMax,
		RetryMax:       cfg.maxRetries,
		CheckRetry:     c.checkRetry,
		Backoff:        backoff,
		ErrorHandler:   retryablehttp.PassthroughErrorHandler,
		RequestLogHook: c.logAttempt,
	}
}

// guardRedirects returns a copy of hc (or a default client) whose redirect
// policy never leaves the endpoint's host and never turns a POST into a GET:
// such a redirect ends the request with the 3xx reply ([*HTTPError]).
func guardRedirects(hc *http.Client) *http.Client {
	var cp http.Client
	if hc != nil {
		cp = *hc
	} else {
		t := cleanhttp.DefaultPooledTransport()
		t.MaxIdleConnsPerHost = 64
		cp = http.Client{Transport: t, Timeout: DefaultTimeout}
	}
	next := cp.CheckRedirect
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		first := via[0]
		if req.URL.Host != first.URL.Host || req.URL.Scheme != first.URL.Scheme || req.Method != first.Method || len(via) > 3 {
			return http.ErrUseLastResponse
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &cp
}

// newRedactor builds the replacer that removes every credential the client
// sends from text that may reach an error or a log: the API key, the bearer
// token, the endpoint's userinfo, query values that are credential-named or
// at least 4 bytes long, and the values of credential-named headers (and the
// token after "Bearer "), and the Basic credentials net/http makes of the
// userinfo. Each secret is also matched in its Go-quoted, JSON-escaped
// (with and without "\/"), query-escaped and path-escaped spellings,
// and every run of 6 or more letters and digits of a secret on its own,
// longest first, so no part of one survives in any common encoding.
func newRedactor(u *url.URL, cfg clientConfig) *strings.Replacer {
	set := map[string]bool{}
	add := func(s string, minLen int) {
		if len(s) < max(minLen, 1) {
			return
		}
		q := strconv.Quote(s)
		forms := []string{s, q[1 : len(q)-1], url.QueryEscape(s), url.PathEscape(s)}
		if j, err := json.Marshal(s); err == nil {
			js := string(j[1 : len(j)-1])
			forms = append(forms, js, strings.ReplaceAll(js, "/", `\/`)) // PHP-style "\/"
		}
		for _, f := range forms {
			set[f] = true
		}
	}
	// secret adds s and, for the spellings no list can foresee (an encoder
	// that writes "+" as \u002B or &#43; or %2b), each run of 6 or more
	// letters and digits in it: what is left visible is separators and
	// short fragments.
	secret := func(s string) {
		add(s, 1)
		for run := range strings.FieldsFuncSeq(s, func(r rune) bool {
			return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
		}) {
			add(run, minSecretRun)
		}
	}
	secret(cfg.apiKey)
	secret(cfg.bearer)
	if u.User != nil {
		add(u.User.Username(), 4)
		if p, ok := u.User.Password(); ok {
			secret(p)
			// net/http sends userinfo as "Authorization: Basic <this>".
			add(base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+p)), 1)
		}
		add(u.User.String(), 4) // as written in the URL, escapes and all
	}
	for pair := range strings.SplitSeq(u.RawQuery, "&") {
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, err1 := url.QueryUnescape(rawName)
		value, err2 := url.QueryUnescape(rawValue)
		switch {
		case credentialName(name) || err1 != nil:
			add(rawValue, 1) // as written, as it goes on the wire
			if err2 == nil {
				secret(value)
			}
		default: // perhaps a credential all the same, unless very short
			add(rawValue, 4)
			if err2 == nil {
				add(value, 4)
			}
		}
	}
	for name, vs := range cfg.header {
		if credentialName(name) {
			for _, v := range vs {
				add(v, 1)
				if _, token, ok := strings.Cut(v, " "); ok { // "Bearer <token>"
					secret(strings.TrimSpace(token))
				} else {
					secret(v)
				}
			}
		}
	}
	secrets := slices.SortedFunc(maps.Keys(set), func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(secrets))
	for _, s := range secrets {
		pairs = append(pairs, s, "[REDACTED]")
	}
	return strings.NewReplacer(pairs...)
}

// minSecretRun is the shortest run of letters and digits in a secret that
// is redacted on its own, in bytes.
const minSecretRun = 6

// quote returns s redacted, cut to 40 bytes and Go-quoted, for naming a
// server-sent value in an error.
func (c *Client) quote(s string) string {
	return strconv.Quote(truncate(c.redact(s), 40))
}

// maxBodyExcerpt bounds HTTPError.Body, in bytes.
const maxBodyExcerpt = 512

// redact replaces every credential the client sends with "[REDACTED]".
func (c *Client) redact(s string) string { return c.redactor.Replace(s) }

// redactBytes is redact for raw bytes; nil stays nil and bytes without a
// secret are returned as they are.
func (c *Client) redactBytes(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	if r := c.redact(string(b)); r != string(b) {
		return []byte(r)
	}
	return b
}

func credentialName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"auth", "key", "token", "secret", "cookie", "session", "pass", "pwd", "sig", "credential", "access"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

func checkHeaderValue(what, v string) error {
	if v == "" {
		return fmt.Errorf("a2a: empty %s", what)
	}
	if strings.ContainsAny(v, "\r\n\x00") {
		return fmt.Errorf("a2a: %s holds a line break or NUL", what)
	}
	return nil
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

// CallOption adjusts one call. Each option's doc says which methods use it;
// the others ignore it. An option given bad input makes the call return an
// error before anything is sent.
type CallOption func(*callConfig) error

type callConfig struct {
	historyLength *int
	blocking      bool
	outputModes   []string
	retrySend     bool
}

// HistoryLength asks for at most n of the most recent history messages in
// the returned task (message/send configuration.historyLength; tasks/get
// params.historyLength). Without it the field is not sent and the server's
// default applies. n must be >= 0; the meaning of 0 differs between servers.
// Spec: A2A v0.3 §7.1.1, §7.3.1.
func HistoryLength(n int) CallOption {
	return func(c *callConfig) error {
		if n < 0 {
			return fmt.Errorf("a2a: history length %d is negative", n)
		}
		c.historyLength = &n
		return nil
	}
}

// Blocking sets message/send configuration.blocking (default true: the agent
// answers when the task is done or interrupted). With false the agent may
// answer at once with a submitted or working task; use [Client.WaitTask].
func Blocking(b bool) CallOption {
	return func(c *callConfig) error { c.blocking = b; return nil }
}

// AcceptedOutputModes sets message/send configuration.acceptedOutputModes,
// the MIME types the caller can read (e.g. "text/plain", "application/json").
// With no modes the field is not sent.
func AcceptedOutputModes(modes ...string) CallOption {
	return func(c *callConfig) error {
		c.outputModes = append([]string(nil), modes...)
		return nil
	}
}

// RetrySend lets message/send be retried like tasks/get (on 502, 504 and
// connection errors after the request may have reached the agent). Use it
// only for agents that drop duplicate messageIds or for queries without side
// effects, such as Caoliao's read-only skills. Without it message/send is
// retried only where the agent cannot have acted (connection not made, 429,
// 503). Every retry carries the same messageId.
func RetrySend() CallOption {
	return func(c *callConfig) error { c.retrySend = true; return nil }
}

func buildCallConfig(opts []CallOption) (callConfig, error) {
	cfg := callConfig{blocking: true}
	for _, opt := range opts {
		if opt == nil {
			return cfg, errors.New("a2a: nil CallOption")
		}
		if err := opt(&cfg); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// SendResult is what message/send returns: a [*Task] or a [*Message] (A2A
// v0.3 §7.1: the agent chooses). Switch on the type; both must be handled:
//
//	switch r := res.(type) {
//	case *a2a.Task:
//	case *a2a.Message:
//	}
type SendResult interface {
	isSendResult()
}

func (*Task) isSendResult()    {}
func (*Message) isSendResult() {}

type messageSendParams struct {
	// Message is a messageOut when every part has a known kind (one
	// encoding pass), else the Message itself (its MarshalJSON keeps
	// UnknownPart bytes).
	Message       any               `json:"message"`
	Configuration sendConfiguration `json:"configuration"`
}

// messageOut is a Message as sent, with no custom marshalers on the way, so
// json.Marshal encodes it in one pass. Field order follows Message.
type messageOut struct {
	Kind             string          `json:"kind"`
	MessageID        string          `json:"messageId,omitempty"`
	Role             Role            `json:"role"`
	Parts            []partWire      `json:"parts"`
	TaskID           string          `json:"taskId,omitempty"`
	ContextID        string          `json:"contextId,omitempty"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds,omitzero"`
	Extensions       []string        `json:"extensions,omitzero"`
	Metadata         json.RawMessage `json:"metadata,omitzero"`
}

// wire returns m in its one-pass form, or false when a part is an
// UnknownPart (or nil), whose bytes only Message.MarshalJSON keeps.
func (m Message) wire() (messageOut, bool) {
	out := messageOut{Kind: "message", MessageID: m.MessageID, Role: m.Role, Parts: make([]partWire, len(m.Parts)),
		TaskID: m.TaskID, ContextID: m.ContextID, ReferenceTaskIDs: m.ReferenceTaskIDs, Extensions: m.Extensions, Metadata: m.Metadata}
	for i, p := range m.Parts {
		switch p := p.(type) {
		case TextPart:
			out.Parts[i] = partWire{Kind: KindText, Text: &p.Text, Metadata: p.Metadata}
		case DataPart:
			data := p.Data
			if data == nil {
				data = json.RawMessage("{}")
			} else if len(data) == 0 {
				return messageOut{}, false // empty but not nil: MarshalJSON reports the error
			}
			out.Parts[i] = partWire{Kind: KindData, Data: data, Metadata: p.Metadata}
		case FilePart:
			out.Parts[i] = partWire{Kind: KindFile, File: &p.File, Metadata: p.Metadata}
		default:
			return messageOut{}, false
		}
	}
	return out, true
}

type sendConfiguration struct {
	AcceptedOutputModes []string `json:"acceptedOutputModes,omitempty"`
	HistoryLength       *int     `json:"historyLength,omitempty"`
	Blocking            bool     `json:"blocking"`
}

// SendMessage sends msg with message/send (A2A v0.3 §7.1) and returns the
// [*Task] or [*Message] the agent answered with. An empty msg.MessageID is
// filled with a fresh UUID and an empty Role with [RoleUser], both before any
// retry. configuration.blocking is always sent (true unless [Blocking] says
// otherwise).
//
// A task in state failed, canceled or rejected is returned with a nil error.
// A result without "kind" is read by its shape (a string id and an object
// status make a Task; a string messageId and an array of parts a Message).
// Errors: *[RPCError], *[HTTPError], *[ProtocolError] (including a result of
// another kind, of no recognisable shape or null, and an A2A v1.0 wrapped
// result, which matches [ErrVersionMismatch]), *[BodyTooLargeError],
// *[TransportError], ctx's error;
// and, before anything is sent, an error for a message without parts, a
// part that cannot be encoded (a [DataPart] holding invalid JSON, an empty
// [UnknownPart]) or a CallOption's validation error. The result is nil
// whenever the error is not.
func (c *Client) SendMessage(ctx context.Context, msg Message, opts ...CallOption) (SendResult, error) {
	params, class, err := c.sendParams(msg, opts)
	if err != nil {
		return nil, err
	}
	const method = "message/send"
	rep, err := c.callTask(ctx, method, params, class)
	if err != nil {
		return nil, err
	}
	return rep.sendResult()
}

// sendResult decodes a message/send result: a Task or a Message, told
// apart by "kind" or, without one, by shape ([reply.kind]).
func (r *reply) sendResult() (SendResult, error) {
	switch {
	case r.task != nil:
		return r.task, nil
	case r.msg != nil:
		return r.msg, nil
	}
	if isNull(r.result) {
		return nil, r.protocolError("result is null where a Task or Message is due", nil)
	}
	kind, err := r.kind()
	if err != nil {
		return nil, err
	}
	switch kind {
	case "task":
		t, err := r.taskResult()
		if err != nil {
			return nil, err // not a typed nil inside the SendResult
		}
		return t, nil
	case "message":
		var m Message
		if err := json.Unmarshal(r.result, &m); err != nil {
			return nil, r.protocolError("message result does not decode", err)
		}
		return &m, nil
	case "":
		return nil, r.protocolError(`result has no "kind" and is shaped like neither a Task nor a Message`, nil)
	default:
		return nil, r.protocolError(fmt.Sprintf("result kind %s is neither task nor message", r.c.quote(kind)), nil)
	}
}

// sendParams builds the params of message/send or message/stream: the
// message with its messageId and role filled in, and the configuration.
func (c *Client) sendParams(msg Message, opts []CallOption) (messageSendParams, retryClass, error) {
	cfg, err := buildCallConfig(opts)
	if err != nil {
		return messageSendParams{}, 0, err
	}
	if len(msg.Parts) == 0 {
		return messageSendParams{}, 0, errors.New("a2a: message has no parts")
	}
	if msg.MessageID == "" {
		msg.MessageID = uuid.NewString()
	}
	if msg.Role == "" {
		msg.Role = RoleUser
	}
	var wireMsg any = msg
	if out, ok := msg.wire(); ok {
		wireMsg = out
	}
	params := messageSendParams{
		Message: wireMsg,
		Configuration: sendConfiguration{
			AcceptedOutputModes: cfg.outputModes,
			HistoryLength:       cfg.historyLength,
			Blocking:            cfg.blocking,
		},
	}
	class := retryUnsafe
	if cfg.retrySend {
		class = retryIdempotent
	}
	return params, class, nil
}

// SendText sends text as a one-part user message with message/send and
// returns the task, for agents that always answer with a task (Caoliao
// does, seed 000). A failed task is returned with a nil error; check
// task.Status.State. When the agent answers with a Message instead, SendText
// returns a *[MessageReplyError] holding it. Other errors are those of
// [Client.SendMessage].
func (c *Client) SendText(ctx context.Context, text string, opts ...CallOption) (*Task, error) {
	res, err := c.SendMessage(ctx, NewTextMessage(text), opts...)
	if err != nil {
		return nil, err
	}
	if m, ok := res.(*Message); ok {
		return nil, &MessageReplyError{Message: m}
	}
	return res.(*Task), nil
}

// SendFollowUp answers a task that waits for input (state input-required,
// or auth-required once credentials are in place): it sends msg with
// message/send carrying task's taskId and contextId (A2A v0.3 §7.1,
// multi-turn; seed 002 "提交后续输入"). It returns an error without sending
// when task is nil or has no id; other errors are those of
// [Client.SendMessage].
func (c *Client) SendFollowUp(ctx context.Context, task *Task, msg Message, opts ...CallOption) (SendResult, error) {
	if task == nil || task.ID == "" {
		return nil, errors.New("a2a: SendFollowUp needs a task with an id")
	}
	msg.TaskID = task.ID
	if task.ContextID != "" {
		msg.ContextID = task.ContextID
	}
	return c.SendMessage(ctx, msg, opts...)
}

type taskQueryParams struct {
	ID            string `json:"id"`
	HistoryLength *int   `json:"historyLength,omitempty"`
}

// GetTask reads a task again with tasks/get (A2A v0.3 §7.3). historyLength
// is sent only when [HistoryLength] is given. On a gateway (seed 002) the
// agent selector configured on the client is sent too. Caoliao keeps tasks in
// memory: after a service restart this returns an error matching
// [ErrTaskNotFound].
//
// Errors: *[RPCError] (errors.Is with [ErrTaskNotFound] …), *[HTTPError],
// *[ProtocolError] (a result that is not a Task, by "kind" or, without one,
// by shape; an A2A v1.0 wrapped result matches [ErrVersionMismatch]),
// *[BodyTooLargeError], *[TransportError], ctx's error, or an error without
// sending when id is empty.
func (c *Client) GetTask(ctx context.Context, id string, opts ...CallOption) (*Task, error) {
	if id == "" {
		return nil, errors.New("a2a: GetTask: empty task id")
	}
	cfg, err := buildCallConfig(opts)
	if err != nil {
		return nil, err
	}
	const method = "tasks/get"
	rep, err := c.callTask(ctx, method, taskQueryParams{ID: id, HistoryLength: cfg.historyLength}, retryIdempotent)
	if err != nil {
		return nil, err
	}
	return rep.decodeTask()
}

type taskIDParams struct {
	ID string `json:"id"`
}

// CancelTask asks the agent to stop a task with tasks/cancel (A2A v0.3 §7.4)
// and returns the task in the state the agent reports after the attempt.
// Cancellation does not undo side effects already made (seed 002). A task
// that is already terminal gives an error matching [ErrTaskNotCancelable];
// Caoliao's synchronous tasks always are (seed 000, "Cancellation").
//
// Errors: as [Client.GetTask].
func (c *Client) CancelTask(ctx context.Context, id string) (*Task, error) {
	if id == "" {
		return nil, errors.New("a2a: CancelTask: empty task id")
	}
	const method = "tasks/cancel"
	rep, err := c.callTask(ctx, method, taskIDParams{ID: id}, retryIdempotent)
	if err != nil {
		return nil, err
	}
	return rep.decodeTask()
}

// reply is an HTTP reply to one call; after checkResponse, result holds the
// JSON-RPC result.
type reply struct {
	c      *Client
	method string
	status int
	body   []byte
	result json.RawMessage
	// task or msg is the result already decoded by the fast path
	// (decode.go); result is then nil.
	task *Task
	msg  *Message
}

// protocolError builds the *ProtocolError for this reply, its body redacted.
func (r *reply) protocolError(reason string, err error) *ProtocolError {
	if err != nil {
		err = r.c.cleanErr(err)
	}
	return &ProtocolError{Method: r.method, Reason: r.c.redact(reason), StatusCode: r.status, Body: r.c.redactBytes(r.body), Err: err}
}

// decodeTask decodes the result as a Task: it must be a JSON object whose
// kind is "task" (or absent, with the task's required id and status).
func (r *reply) decodeTask() (*Task, error) {
	if r.task != nil {
		return r.task, nil
	}
	if r.msg != nil {
		return nil, r.protocolError(`result kind "message" where a Task is due`, nil)
	}
	if isNull(r.result) {
		return nil, r.protocolError("result is null where a Task is due", nil)
	}
	kind, err := r.kind()
	if err != nil {
		return nil, err
	}
	switch kind {
	case "task":
		return r.taskResult()
	case "":
		return nil, r.protocolError(`result has no "kind" and is not shaped like a Task`, nil)
	default:
		return nil, r.protocolError(fmt.Sprintf("result kind %s where a Task is due", r.c.quote(kind)), nil)
	}
}

// taskResult decodes a result whose kind is known to be "task"; it must
// have an id.
func (r *reply) taskResult() (*Task, error) {
	var t Task
	if err := json.Unmarshal(r.result, &t); err != nil {
		return nil, r.protocolError("task result does not decode", err)
	}
	if t.ID == "" {
		return nil, r.protocolError(`task result has no "id"`, nil)
	}
	return &t, nil
}

// resultShape holds the members of a result object that say what it is.
// Raw members tell absence (nil) from any JSON value.
type resultShape struct {
	Kind      *string         `json:"kind"`
	ID        json.RawMessage `json:"id"`
	TaskID    json.RawMessage `json:"taskId"`
	MessageID json.RawMessage `json:"messageId"`
	Status    json.RawMessage `json:"status"`
	Parts     json.RawMessage `json:"parts"`
	Artifact  json.RawMessage `json:"artifact"`
	// A2A v1.0 wraps results in an object with one of these members.
	V1Task           json.RawMessage `json:"task"`
	V1Message        json.RawMessage `json:"message"`
	V1StatusUpdate   json.RawMessage `json:"statusUpdate"`
	V1ArtifactUpdate json.RawMessage `json:"artifactUpdate"`
}

// kind returns what the result is: its "kind" member when present (any
// string, known or not), else the kind its shape shows, else "". Shapes
// (a lenient reading of off-spec replies, each needing its required
// members): a string id and an object status make a "task"; a string
// messageId and an array of parts a "message"; a string taskId with an
// object status a "status-update", with an object artifact an
// "artifact-update". It returns a *ProtocolError for a result that is not
// a JSON object, and one wrapping [ErrVersionMismatch] for an A2A v1.0
// wrapper ({"task": …}, {"message": …}, {"statusUpdate": …},
// {"artifactUpdate": …}): this client does not unwrap them.
func (r *reply) kind() (string, error) {
	if jsonType(r.result) != '{' {
		return "", r.protocolError("result is not a JSON object", nil)
	}
	var sh resultShape
	if err := json.Unmarshal(r.result, &sh); err != nil {
		// Every other member is raw: only "kind" can have the wrong type.
		return "", r.protocolError(`result "kind" is not a string`, err)
	}
	if sh.Kind != nil {
		return *sh.Kind, nil
	}
	switch {
	case jsonType(sh.ID) == '"' && jsonType(sh.Status) == '{':
		return "task", nil
	case jsonType(sh.MessageID) == '"' && jsonType(sh.Parts) == '[':
		return "message", nil
	case jsonType(sh.TaskID) == '"' && jsonType(sh.Status) == '{':
		return "status-update", nil
	case jsonType(sh.TaskID) == '"' && jsonType(sh.Artifact) == '{':
		return "artifact-update", nil
	}
	for i, v := range []json.RawMessage{sh.V1Task, sh.V1Message, sh.V1StatusUpdate, sh.V1ArtifactUpdate} {
		if jsonType(v) == '{' {
			name := [...]string{"task", "message", "statusUpdate", "artifactUpdate"}[i]
			return "", r.protocolError(fmt.Sprintf(`result is wrapped as {%q: …}, an A2A v1.0 shape`, name), ErrVersionMismatch)
		}
	}
	return "", nil
}

// jsonType returns the first byte of a JSON value ('{', '[', '"', 't',
// 'f', 'n', or a digit or '-'), or 0 when raw is empty.
func jsonType(raw json.RawMessage) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// request is the JSON-RPC 2.0 request envelope (A2A v0.3 §6.11), with the
// gateway's agent selector at the top level (seed 002).
type request struct {
	JSONRPC   string `json:"jsonrpc"`
	ID        int64  `json:"id"`
	Method    string `json:"method"`
	Params    any    `json:"params,omitempty"`
	AgentID   string `json:"agent_id,omitempty"`
	AgentCode string `json:"agent_code,omitempty"`
}

// response is the JSON-RPC 2.0 response envelope. Raw members keep "null"
// apart from absence.
type response struct {
	JSONRPC *string         `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

type rpcErrorWire struct {
	Code    *int            `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// callState is one call's bookkeeping, carried in the request context so the
// shared retryablehttp hooks can read and update it. A call runs in one
// goroutine, so it needs no lock.
type callState struct {
	method string
	id     int64
	class  retryClass
	stream bool // an SSE call: the reply body is read event by event
	// nullResult: the method's result is null, so a reply that omits
	// "result" (a2a-go v0.3.15 does, for tasks/pushNotificationConfig/delete)
	// is taken as a null result.
	nullResult bool
	// fast: the result is a Task or a Message; try decode.go's one pass.
	fast bool
	// schema, when set, is what checkNames walks the reply with (names.go).
	schema   *nameSchema
	attempts int
	start    time.Time
	body     []byte
	read     bool // body has been read (or refused as too large)
	tooLarge bool
	// bodyFault says why a body that arrived whole cannot be read: a
	// corrupt gzip body (body is then nil) or an unsupported
	// Content-Encoding (body holds the bytes as received).
	bodyFault error
}

// names is the schema checkNames walks a reply to this call with.
func (st *callState) names() *nameSchema {
	switch {
	case st.schema != nil:
		return st.schema
	case st.fast || st.stream:
		return replySchema
	}
	return envelopeSchema
}

type stateKey struct{}

func stateFrom(ctx context.Context) *callState {
	st, _ := ctx.Value(stateKey{}).(*callState)
	return st
}

// call does one JSON-RPC round trip: encode the envelope once, POST it
// (retrying per class, every retry byte-identical), read at most maxBody
// bytes, decode the envelope and check it. It returns the raw result on
// success. Errors: *RPCError, *HTTPError, *ProtocolError, *BodyTooLargeError,
// *TransportError, or ctx's error wrapped.
func (c *Client) call(ctx context.Context, method string, params any, class retryClass, names *nameSchema) (*reply, error) {
	return c.roundTrip(ctx, &callState{method: method, class: class, schema: names}, params)
}

// callTask is call for methods whose result is a Task or a Message.
func (c *Client) callTask(ctx context.Context, method string, params any, class retryClass) (*reply, error) {
	return c.roundTrip(ctx, &callState{method: method, class: class, fast: true}, params)
}

// roundTrip is call for a prepared callState (st.method and st.class set).
func (c *Client) roundTrip(ctx context.Context, st *callState, params any) (*reply, error) {
	payload, id, err := c.envelope(st.method, params)
	if err != nil {
		return nil, err
	}
	st.id = id
	resp, err := c.do(ctx, http.MethodPost, c.endpoint, payload, st)
	if err != nil {
		return nil, err
	}
	if st.fast {
		if rep := c.fastReply(st, resp); rep != nil {
			return rep, nil
		}
	}
	return c.checkResponse(st, resp)
}

// envelope encodes a JSON-RPC request for method with a fresh id and the
// agent selector, once, so every retry sends the same bytes.
func (c *Client) envelope(method string, params any) ([]byte, int64, error) {
	env := request{JSONRPC: "2.0", ID: c.nextID.Add(1), Method: method, Params: params}
	switch c.agentKey {
	case "agent_id":
		env.AgentID = c.agentVal
	case "agent_code":
		env.AgentCode = c.agentVal
	}
	payload, err := json.Marshal(env)
	if err != nil {
		return nil, 0, fmt.Errorf("a2a: %s: encode request: %w", method, err)
	}
	return payload, env.ID, nil
}

// do sends one HTTP request (payload nil for a GET) through the retrying
// client and reads the reply body into st.body, at most c.maxBody bytes. For
// a call with st.stream set, a 2xx text/event-stream reply is returned with
// its body open, for the caller to read and close; every other reply comes
// back with its body read and closed. Errors: *TransportError,
// *BodyTooLargeError, a *ProtocolError (2xx) or *HTTPError (other statuses)
// for a body that cannot be decoded, ctx's error wrapped, or a
// request-building error.
func (c *Client) do(ctx context.Context, httpMethod, target string, payload []byte, st *callState) (*http.Response, error) {
	st.start = time.Now()
	method := st.method
	req, err := retryablehttp.NewRequestWithContext(context.WithValue(ctx, stateKey{}, st), httpMethod, target, payload)
	if err != nil {
		return nil, fmt.Errorf("a2a: %s: build request: %w", method, err)
	}
	for k, vs := range c.header {
		req.Header[k] = vs
	}
	if payload == nil {
		req.Header.Del("Content-Type")
	}
	rc := c.rc
	if st.stream {
		req.Header.Set("Accept", "text/event-stream")
		rc = c.streamRC
	}
	req.SetResponseHandler(func(resp *http.Response) error {
		if st.stream && isEventStream(resp) {
			return nil // the caller reads it event by event
		}
		return c.readBody(st, resp)
	})

	resp, err := rc.Do(req)
	if ctx.Err() != nil || err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		return nil, c.noReply(ctx, st, c.connFault(ctx, st, err))
	}
	if st.stream && isEventStream(resp) {
		c.log.LogAttrs(ctx, slog.LevelDebug, "a2a stream opened", slog.String("method", method), slog.Int64("id", st.id),
			slog.Int("attempts", st.attempts), slog.Duration("elapsed", time.Since(st.start)))
		return resp, nil
	}
	defer resp.Body.Close()
	if !st.read { // a retryable status that ran out of retries
		if err := c.readBody(st, resp); err != nil {
			return nil, c.noReply(ctx, st, c.connFault(ctx, st, err))
		}
	}
	c.log.LogAttrs(ctx, slog.LevelDebug, "a2a reply",
		slog.String("method", method), slog.Int64("id", st.id), slog.Int("status", resp.StatusCode),
		slog.Int("bytes", len(st.body)), slog.Int("attempts", st.attempts), slog.Duration("elapsed", time.Since(st.start)))
	if st.tooLarge {
		return nil, &BodyTooLargeError{Method: method, Limit: c.maxBody, StatusCode: resp.StatusCode}
	}
	if st.bodyFault != nil {
		if !is2xx(resp.StatusCode) {
			// Not believed as JSON-RPC whatever it holds: an *HTTPError,
			// its excerpt the bytes as received.
			return nil, c.httpError(st, resp)
		}
		return nil, &ProtocolError{Method: method, Reason: "body cannot be read", StatusCode: resp.StatusCode,
			Body: c.redactBytes(st.body), Err: st.bodyFault}
	}
	return resp, nil
}

// wireReader reads a body as it came off the connection, for a
// decompressor: it stops past a cap of compressed bytes and remembers
// whether the body ended cleanly, so a decompressor's "unexpected EOF" can
// be told apart from a connection that broke.
type wireReader struct {
	r     io.Reader
	left  int64 // bytes that may still be read; < 0: no cap
	ended bool  // r returned io.EOF
}

// errWireTooLarge is a compressed body longer than the cap.
var errWireTooLarge = errors.New("compressed body exceeds the size cap")

func (w *wireReader) Read(p []byte) (int, error) {
	if w.left == 0 {
		return 0, errWireTooLarge
	}
	if w.left > 0 && int64(len(p)) > w.left {
		p = p[:w.left]
	}
	n, err := w.r.Read(p)
	if w.left > 0 {
		w.left -= int64(n)
	}
	w.ended = w.ended || err == io.EOF
	return n, err
}

// contentReader returns resp's body decoded per its Content-Encoding: the
// body itself, or a gzip reader over wire (which reads resp.Body) for a
// gzip body, which the client decodes itself (it asks for gzip, so net/http
// leaves it encoded). An empty gzip body reads as empty. fault says why the
// body cannot be decoded: an encoding this client does not read (rd is then
// resp.Body, to keep the bytes as received) or gzip data that is corrupt or
// cut short inside a complete body (rd nil). err is a failure of the
// connection. A gzip reader holds nothing to release.
func contentReader(resp *http.Response, wire *wireReader) (rd io.Reader, fault, err error) {
	enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding")))
	switch {
	case enc == "" || enc == "identity" || resp.Uncompressed:
		return resp.Body, nil, nil
	case enc == "gzip" || enc == "x-gzip":
		zr, err := gzip.NewReader(wire)
		switch {
		case err == nil:
			return zr, nil, nil
		case err == io.EOF && wire.ended:
			return bytes.NewReader(nil), nil, nil
		case wire.gzipFault(err):
			return nil, fmt.Errorf("gzip body does not decompress: %w", err), nil
		default:
			return nil, nil, err
		}
	}
	return resp.Body, errUnsupportedEncoding, nil
}

// errUnsupportedEncoding is a Content-Encoding other than gzip or identity;
// encodingFault names it.
var errUnsupportedEncoding = errors.New("unsupported Content-Encoding")

// encodingFault is the error for a body contentReader cannot decode, the
// server's header value redacted before it is cut.
func (c *Client) encodingFault(resp *http.Response, fault error) error {
	if fault == errUnsupportedEncoding {
		return fmt.Errorf("Content-Encoding %s is not supported", c.quote(resp.Header.Get("Content-Encoding")))
	}
	return c.cleanErr(fault)
}

// gzipFault reports whether err, from a gzip reader over w, says the gzip
// data is bad rather than the connection: corrupt data, or data cut short
// although the body itself ended cleanly.
func (w *wireReader) gzipFault(err error) bool {
	return isGzipFault(err) || w.ended && (errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF)
}

// isGzipFault reports whether err says the gzip data itself is bad (as
// opposed to the connection failing while it was read).
func isGzipFault(err error) bool {
	var ce flate.CorruptInputError
	return errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &ce)
}

// connFault is the error for a call whose connection failed (err): ctx's
// error, wrapped, when ctx is done (the caller gave up, not the server),
// else a *TransportError.
func (c *Client) connFault(ctx context.Context, st *callState, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("a2a: %s: %w", st.method, ctx.Err())
	}
	return &TransportError{Method: st.method, Attempts: st.attempts, Err: c.cleanErr(err)}
}

// noReply logs a call that got no usable reply (its error is already
// redacted) and returns the error.
func (c *Client) noReply(ctx context.Context, st *callState, fail error) error {
	c.log.LogAttrs(ctx, slog.LevelDebug, "a2a no reply", slog.String("method", st.method), slog.Int64("id", st.id),
		slog.Int("attempts", st.attempts), slog.Duration("elapsed", time.Since(st.start)), slog.String("error", fail.Error()))
	return fail
}

// is2xx reports whether an HTTP status is a success (200–299).
func is2xx(code int) bool { return code >= 200 && code <= 299 }

// isEventStream reports whether resp is a 2xx Server-Sent Events reply.
func isEventStream(resp *http.Response) bool {
	if !is2xx(resp.StatusCode) {
		return false
	}
	mt, _, _ := strings.Cut(resp.Header.Get("Content-Type"), ";")
	return strings.EqualFold(strings.TrimSpace(mt), "text/event-stream")
}

// maxPrealloc bounds the buffer allocated from a Content-Length, in bytes.
const maxPrealloc = 4 << 20

// readBody reads the reply body of the current attempt into st, at most
// c.maxBody bytes, once. A body over the cap is flagged, not an error
// (retrying would not help); a read failure is returned so the retry policy
// can judge it. It runs from three places, all in the calling goroutine:
// checkRetry (to look at a 429/503 before re-sending a message/send), the
// request's response handler (replies retryablehttp will not retry), and
// call itself (a retryable reply whose retries ran out, which retryablehttp
// hands back without running the handler).
func (c *Client) readBody(st *callState, resp *http.Response) error {
	if st.read { // already read during this attempt (by checkRetry)
		return nil
	}
	st.read, st.body, st.tooLarge, st.bodyFault = true, nil, false, nil
	if resp.StatusCode < 200 {
		// A 101 hands over the raw connection as the body: reading it would
		// wait for the peer, not for ctx. It is an HTTP failure.
		return nil
	}
	wire := &wireReader{r: resp.Body, left: c.maxBody + 1}
	if wire.left < 0 {
		wire.left = -1
	}
	src, fault, err := contentReader(resp, wire)
	switch {
	case errors.Is(err, errWireTooLarge):
		st.tooLarge = true
		return nil
	case err != nil:
		st.read = false
		return err
	case fault != nil && src == nil:
		st.bodyFault = c.encodingFault(resp, fault)
		return nil
	case fault != nil:
		st.bodyFault = c.encodingFault(resp, fault) // the body is kept as received, for the error to carry
	}
	if src == resp.Body && resp.ContentLength > c.maxBody {
		st.tooLarge = true
		return nil
	}
	var buf bytes.Buffer
	if resp.ContentLength > 0 && src == resp.Body {
		// Trust the announced length only so far: it may be a lie.
		buf.Grow(int(min(resp.ContentLength, maxPrealloc)) + bytes.MinRead)
	}
	limit := c.maxBody + 1
	if limit < 0 {
		limit = math.MaxInt64
	}
	n, err := buf.ReadFrom(io.LimitReader(src, limit))
	switch {
	case errors.Is(err, errWireTooLarge):
		st.tooLarge = true
		return nil
	case src != resp.Body && wire.gzipFault(err), isGzipFault(err):
		// The second: a caller's transport decoding gzip itself.
		st.bodyFault = fmt.Errorf("gzip body does not decompress: %w", err)
		return nil
	case err != nil:
		st.read, st.bodyFault = false, nil
		return err
	}
	if n > c.maxBody {
		st.tooLarge = true
		return nil
	}
	st.body = buf.Bytes()
	return nil
}

// checkResponse is the one place that decides between a JSON-RPC result, a
// JSON-RPC error, an HTTP error and a protocol error. A body that is a
// JSON-RPC response is believed whatever the HTTP status (a failed task comes
// as a result; some agents send errors with 4xx/5xx). A non-2xx reply whose
// body is not JSON-RPC is an *HTTPError; a 2xx one is a *ProtocolError.
func (c *Client) checkResponse(st *callState, resp *http.Response) (*reply, error) {
	body := st.body
	rep := &reply{c: c, method: st.method, status: resp.StatusCode, body: body}
	perr := rep.protocolError
	ok2xx := is2xx(resp.StatusCode)

	var env response
	decErr := json.Unmarshal(body, &env)
	looksRPC := decErr == nil && (env.JSONRPC != nil || env.Result != nil || env.Error != nil)
	if !ok2xx && (env.JSONRPC == nil || *env.JSONRPC != "2.0") {
		// A gateway's own JSON error ({"error":{"code":"UNAUTHORIZED"}}) on
		// a 401/429 is an HTTP failure, not a JSON-RPC reply.
		looksRPC = false
	}
	if !looksRPC {
		if !ok2xx {
			return nil, c.httpError(st, resp)
		}
		switch {
		case len(bytes.TrimSpace(body)) == 0:
			return nil, perr(fmt.Sprintf("empty body with HTTP %d", resp.StatusCode), nil)
		case decErr != nil && !json.Valid(body):
			return nil, perr("response is not JSON", decErr)
		default:
			return nil, perr("response is not a JSON-RPC response object", decErr)
		}
	}
	if fault := checkNames(body, st.names()); fault != "" {
		return nil, perr(fault, nil)
	}
	if env.JSONRPC == nil {
		return nil, perr(`"jsonrpc" member is missing`, nil)
	}
	if *env.JSONRPC != "2.0" {
		return nil, perr(fmt.Sprintf(`"jsonrpc" is %s, want "2.0"`, c.quote(*env.JSONRPC)), nil)
	}
	// Lax servers write the absent member as null ("error": null beside a
	// result); a null error is taken as absent.
	if isNull(env.Error) {
		env.Error = nil
	}
	switch {
	case env.Result != nil && env.Error != nil && !isNull(env.Result):
		return nil, perr("both result and error are present", nil)
	case env.Result == nil && env.Error == nil && st.nullResult:
		env.Result = json.RawMessage("null")
	case env.Result == nil && env.Error == nil:
		return nil, perr("neither result nor error is present", nil)
	}
	idOK := sameID(env.ID, st.id)
	if env.Error != nil {
		env.Result = nil
		// JSON-RPC 2.0 §5: the id is null when the server could not read ours.
		if !idOK && !isNull(env.ID) {
			return nil, perr(c.idMismatch(env.ID, st.id), nil)
		}
		var w rpcErrorWire
		if err := json.Unmarshal(env.Error, &w); err != nil || w.Code == nil {
			return nil, perr("error member is not a JSON-RPC error object with an integer code", err)
		}
		return nil, &RPCError{Method: st.method, Code: *w.Code, Message: c.redact(w.Message), Data: c.redactBytes(w.Data), StatusCode: resp.StatusCode}
	}
	if !idOK {
		return nil, perr(c.idMismatch(env.ID, st.id), nil)
	}
	rep.result = env.Result
	return rep, nil
}

func (c *Client) httpError(st *callState, resp *http.Response) *HTTPError {
	// Redact first: a secret cut in two by the excerpt would not match.
	excerpt := c.redact(string(st.body))
	if len(excerpt) > maxBodyExcerpt {
		excerpt = truncate(excerpt, maxBodyExcerpt)
	}
	e := &HTTPError{
		Method:      st.method,
		StatusCode:  resp.StatusCode,
		ContentType: c.redact(resp.Header.Get("Content-Type")),
		Body:        []byte(excerpt),
	}
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		e.Challenge = c.redact(resp.Header.Get("WWW-Authenticate"))
	case http.StatusProxyAuthRequired:
		e.Challenge = c.redact(resp.Header.Get("Proxy-Authenticate"))
	}
	if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
		e.RetryAfter = d
	}
	return e
}

func (c *Client) idMismatch(got json.RawMessage, want int64) string {
	g := string(bytes.TrimSpace(got))
	if g == "" {
		g = "absent"
	}
	return fmt.Sprintf("response id %s does not match request id %d", truncate(c.redact(g), 40), want)
}

// sameID reports whether a response id is the JSON number want.
func sameID(raw json.RawMessage, want int64) bool {
	s := string(bytes.TrimSpace(raw))
	if s == "" || s[0] == '"' {
		return false
	}
	got, err := strconv.ParseInt(s, 10, 64)
	return err == nil && got == want
}

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// cleanErr drops the *url.Error wrapper (its text holds the request URL,
// which may carry credentials) and redacts what is left.
func (c *Client) cleanErr(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if msg := c.redact(err.Error()); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}

// logAttempt is the retryablehttp.RequestLogHook: it counts attempts and
// logs each one at debug level without URL or headers.
func (c *Client) logAttempt(_ retryablehttp.Logger, req *http.Request, retry int) {
	st := stateFrom(req.Context())
	if st == nil {
		return
	}
	st.attempts = retry + 1
	st.read, st.body, st.tooLarge, st.bodyFault = false, nil, false, nil
	c.log.LogAttrs(req.Context(), slog.LevelDebug, "a2a request",
		slog.String("method", st.method), slog.Int64("id", st.id), slog.Int("attempt", st.attempts))
}
