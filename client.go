package a2a

import (
	"cmp"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/redact"
	"github.com/caoliao-a2a/a2a-go/internal/sched"
	"github.com/google/uuid"
)

// Client calls one A2A agent in one binding ([Client.Interface]):
// JSON-RPC 2.0 or HTTP+JSON (REST), in A2A v0.3 or v1.0
// ([Client.ProtocolVersion]): send, get and cancel a task (A2A v0.3 §7;
// A2A v1.0 §3.1), streaming, push notification config, the extended card,
// and listing tasks (on v1.0, and on v0.3 HTTP+JSON where the agent
// serves it). It is safe for concurrent use and holds
// nothing to close: every client made without [WithHTTPClient] shares one
// pool of connections ([CloseIdleConnections]), so clients may be made and
// dropped as needed (one per agent is usual).
//
// Every method takes a context first and honours it: when ctx is done the
// call returns at once with ctx's error wrapped. A task that failed is
// returned as a value with a nil error; see the package documentation for
// the errors each method can return.
type Client struct {
	endpoint string
	base     *url.URL    // endpoint parsed
	restBase string      // restBase(base): what HTTP+JSON paths are appended to
	origin   string      // the endpoint's, as originOf writes it
	header   http.Header // sent with every request
	// The agent selector put at the top level of every request body; at
	// most one is set.
	agentID, agentCode string
	proto              binding

	hc               *http.Client // every call's, redirects guarded
	streamHC         *http.Client // hc without the default client's overall timeout
	maxRetries       int
	waitMin, waitMax time.Duration
	maxBody          int64
	streamIdle       time.Duration // 0: none
	attempt          time.Duration // the bound on each attempt (WithAttemptTimeout); 0: none

	card   atomic.Pointer[AgentCard]
	log    *slog.Logger
	red    *redact.Redactor
	nextID atomic.Int64
	// swapVerb: the agent refused a call's verb with 405 and took its
	// other (restRequest.otherVerb): later calls start with the other.
	swapVerb atomic.Bool

	// Observation (observe.go): nil without WithObserver.
	observer Observer
	// Signed agent cards: what GetExtendedAgentCard does with the card
	// it reads (options_cards.go).
	cards cardChecks

	// Extensions (extensions.go): the URIs every call activates, whether
	// the card's required ones are activated too, one header line per URI.
	extensions            []string
	extRequired, extLines bool

	// Credentials that change (options_credentials.go): the source asked
	// before every attempt; nil: none.
	creds CredentialSource

	// Polling waits (pollsched.go): at most maxPolls tasks/get at once,
	// run by polls, made on first use.
	maxPolls  int
	pollsOnce sync.Once
	polls     *sched.Scheduler
}

// NewClient returns a client for the A2A endpoint at endpoint, for
// example "https://a2a.objqr.com/a2a/jsonrpc" (the Caoliao agent) or a
// gateway's ".../agents/a2a". It speaks JSON-RPC in A2A v0.3 there unless
// [WithProtocolVersion] names [ProtocolV10] or [WithTransports] names
// [TransportHTTPJSON] first; an HTTP+JSON endpoint is the interface URL
// its agent card lists, under which the operations' paths are appended
// ("/tasks/{id}", or "/v1/tasks/{id}" on v0.3). [NewClientFromCard]
// chooses the binding from the agent's card instead. It does no network
// I/O. It returns an error when endpoint is not an absolute http or https
// URL, or an option is given bad input (among them a tenant on v0.3, an
// agent selector on HTTP+JSON, a tenant that cannot be a path prefix).
func NewClient(endpoint string, opts ...Option) (*Client, error) {
	u, cfg, err := checkInput(endpoint, opts)
	if err != nil {
		return nil, err
	}
	if cfg.tenant != "" && cfg.version != ProtocolV10 {
		return nil, errTenantV03
	}
	if err := cfg.checkTransport(); err != nil {
		return nil, err
	}
	return newClient(endpoint, u, cfg), nil
}

// checkInput parses an endpoint, which must be an absolute http or https
// URL, and applies opts.
func checkInput(endpoint string, opts []Option) (*url.URL, clientConfig, error) {
	u, err := url.Parse(endpoint)
	if err != nil {
		// "127.0.0.1:8080/a2a" lands here: a host without a scheme.
		return nil, clientConfig{}, errors.New("a2a: endpoint is not a valid URL; it must be an absolute http:// or https:// URL (is the scheme missing?)")
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, clientConfig{}, errors.New("a2a: endpoint must be an absolute http:// or https:// URL (is the scheme missing?)")
	}
	cfg, err := newClientConfig(opts)
	return u, cfg, err
}

// errTenantV03 is the error for a tenant on a client that speaks v0.3:
// its advice holds on either transport (the agent selector is JSON-RPC's).
var errTenantV03 = errors.New("a2a: a tenant is A2A v1.0's; this client speaks v0.3 (use WithProtocolVersion(ProtocolV10); a JSON-RPC gateway's agent selector is WithAgentID/WithAgentCode)")

// ProtocolVersion returns the A2A version the client speaks: [ProtocolV03]
// or [ProtocolV10].
func (c *Client) ProtocolVersion() string {
	if c.usable() != nil {
		return ""
	}
	return c.proto.version()
}

// Tenant returns the tenant the client sends in every request (A2A v1.0:
// [WithTenant], or the one [NewClientFromCard] took from the card's
// interface), or "" when it sends none.
func (c *Client) Tenant() string {
	if c.usable() != nil {
		return ""
	}
	return c.proto.tenant()
}

// Interface returns the interface the client speaks to, as it speaks it:
// URL is the endpoint as given ([NewClient]'s, or the URL of the card's
// entry that [NewClientFromCard] chose; any userinfo or key in it kept, so
// not for logs), ProtocolBinding and Transport the binding
// ([TransportJSONRPC] or [TransportHTTPJSON], spelt so whatever the card's
// case), ProtocolVersion the version ([Client.ProtocolVersion]: "0.3" or
// "1.0", without the card's patch) and Tenant the tenant every request
// carries ([Client.Tenant]). A per-call [Tenant] does not change it. It
// returns the zero AgentInterface for a Client not made by NewClient or
// NewClientFromCard.
func (c *Client) Interface() AgentInterface {
	if c.usable() != nil {
		return AgentInterface{}
	}
	t := c.proto.transport()
	return AgentInterface{URL: c.endpoint, Transport: t, ProtocolBinding: t, ProtocolVersion: c.proto.version(), Tenant: c.proto.tenant()}
}

// bind returns the binding for a call with cfg: the client's, or for a
// call with its own [Tenant], a v1.0 binding with that tenant. Its error
// is for a non-empty tenant on a v0.3 client.
func (c *Client) bind(cfg callConfig) (binding, error) {
	if cfg.tenant == nil {
		return c.proto, nil
	}
	return c.proto.withTenant(*cfg.tenant)
}

// newClient makes the client of NewClient from its checked input.
func newClient(endpoint string, u *url.URL, cfg clientConfig) *Client {
	c := &Client{
		endpoint:   endpoint,
		base:       u,
		restBase:   restBase(u),
		origin:     originOf(u),
		agentID:    cfg.agentID,
		agentCode:  cfg.agentCode,
		proto:      bindingFor(cmp.Or(cfg.version, ProtocolV03), cmp.Or(cfg.transport, TransportJSONRPC), cfg.tenant),
		maxRetries: cfg.maxRetries,
		waitMin:    cfg.waitMin,
		waitMax:    cfg.waitMax,
		maxBody:    cfg.maxBody,
		streamIdle: cfg.streamIdle,
		log:        cfg.logger,
		observer:   cfg.observer,
		red:        redact.New(u, cfg.apiKey, cfg.bearer, cfg.header),
		cards:      cfg.cards,
		creds:      cfg.creds,
		maxPolls:   cfg.maxPolls,

		extensions:  cfg.extensions,
		extRequired: cfg.extRequired,
		extLines:    cfg.extLines,
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.header = http.Header{}
	for k, vs := range cfg.header {
		c.header[k] = append([]string(nil), vs...)
	}
	c.header.Set("Content-Type", "application/json")
	c.header.Set("Accept", "application/json")
	// Asking for gzip ourselves keeps net/http from decoding it out of
	// sight: the client's own reader (internal/httpbody) then caps the compressed
	// bytes and tells corrupt data from a broken connection.
	if c.header.Get("Accept-Encoding") == "" {
		c.header.Set("Accept-Encoding", "gzip")
	}
	c.header.Set("User-Agent", cfg.userAgent)
	// The version this client speaks; an agent of another version can
	// then refuse it (-32009) instead of misreading the request.
	c.header.Set("A2A-Version", c.proto.version())
	if cfg.apiKey != "" {
		c.header.Set("X-API-Key", cfg.apiKey)
	}
	if cfg.workspace != "" {
		c.header.Set("X-Workspace-ID", cfg.workspace)
	}
	if cfg.bearer != "" {
		c.header.Set("Authorization", "Bearer "+cfg.bearer)
	}

	c.hc, c.streamHC, c.attempt = httpClients(cfg.httpClient, cfg.attempt, cfg.attemptSet)
	return c
}

// errNotMade is the error of a method called on a nil or zero Client.
var errNotMade = errors.New("a2a: the Client is nil or zero; make one with NewClient")

// usable returns errNotMade for a Client not made by NewClient, whose
// methods would otherwise panic on a nil field.
func (c *Client) usable() error {
	if c == nil || c.proto == nil {
		return errNotMade
	}
	return nil
}

// SendResult is what a send (message/send, SendMessage) returns: a
// [*Task] or a [*Message] (A2A v0.3 §7.1: the agent chooses). Switch on the type; both must be handled:
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

// SendMessage sends msg with message/send (A2A v0.3 §7.1; SendMessage in
// A2A v1.0; over HTTP+JSON POST /message:send, v0.3: POST
// /v1/message:send) and returns the [*Task] or [*Message] the agent answered with. An empty msg.MessageID is
// filled with a fresh UUID and an empty Role with [RoleUser], both before any
// retry. v0.3's configuration.blocking is always sent (true unless
// [Blocking] says otherwise); v1.0's returnImmediately only with
// Blocking(false).
//
// A task in state failed, canceled or rejected is returned with a nil error.
// A v0.3 result without "kind" is read by its shape (a string id and an
// object status make a Task; a string messageId and an array of parts a
// Message); a v1.0 result, and a v0.3 HTTP+JSON one, must hold exactly
// one of "task" and "message" (v0.3 HTTP+JSON: or "msg").
// Errors: *[RPCError], *[HTTPError], *[ProtocolError] (including a result of
// another kind, of no recognisable shape or null, and a result in the other
// version's shape, which matches [ErrVersionMismatch], and a reply of the
// other transport, which matches [ErrTransportMismatch]),
// *[BodyTooLargeError], *[TransportError], ctx's error;
// and, before anything is sent, an error for a message without parts, a
// part that cannot be encoded (a [DataPart] holding invalid JSON, an empty
// [UnknownPart]; on v1.0 and v0.3 HTTP+JSON a [FilePart] without exactly
// one of bytes and uri, on v1.0 an UnknownPart of a v0.3 kind; on v0.3
// HTTP+JSON ReferenceTaskIDs, a DataPart that is not a JSON object or an
// UnknownPart with a kind) or a CallOption's validation error
// (a [Tenant] on a v0.3 client among them). The result is nil
// whenever the error is not.
func (c *Client) SendMessage(ctx context.Context, msg Message, opts ...CallOption) (SendResult, error) {
	spec, err := c.sendSpec(msg, opts, false)
	if err != nil {
		return nil, err
	}
	return run(ctx, c, spec, c.proto.sendResult)
}

// sendSpec checks the client, msg and opts and returns the spec of a send
// (or a streaming send): msg with its messageId and role filled in.
func (c *Client) sendSpec(msg Message, opts []CallOption, stream bool) (callSpec, error) {
	b, cfg, err := c.callBinding(opts)
	if err != nil {
		return callSpec{}, err
	}
	if len(msg.Parts) == 0 {
		return callSpec{}, errors.New("a2a: message has no parts")
	}
	if msg.MessageID == "" {
		msg.MessageID = uuid.NewString()
	}
	if msg.Role == "" {
		msg.Role = RoleUser
	}
	spec, err := b.sendMessage(msg, cfg, stream)
	spec.contextID, spec.messageID = msg.ContextID, msg.MessageID
	return cfg.apply(spec), err
}

// SendText sends text as a one-part user message with a send and
// returns the task, for agents that always answer with a task (the
// Caoliao agent does). A failed task is returned with a nil error; check
// task.Status.State. When the agent answers with a Message instead,
// SendText returns a *[MessageReplyError] holding it. Other errors are
// those of [Client.SendMessage].
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
// a send carrying task's taskId and contextId (A2A v0.3 §7.1,
// multi-turn). An answer about another task is a *[ProtocolError]. It
// returns an error without sending when task is nil or has no id; other
// errors are those of [Client.SendMessage].
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

// GetTask reads a task again with tasks/get (A2A v0.3 §7.3; GetTask in
// A2A v1.0; over HTTP+JSON GET /tasks/{id}, v0.3: GET /v1/tasks/{id}).
// historyLength is sent (over HTTP+JSON as a query parameter) only when
// [HistoryLength] is given. Behind a gateway the agent
// selector configured on the client is sent too. The Caoliao agent keeps
// tasks in memory: after a service restart this returns an error matching
// [ErrTaskNotFound].
//
// Errors: *[RPCError] (errors.Is with [ErrTaskNotFound] …), *[HTTPError],
// *[ProtocolError] (a result that is not a Task, by "kind" or, without one,
// by shape; a task other than id; a result in the other version's shape
// matches [ErrVersionMismatch]),
// *[BodyTooLargeError], *[TransportError], ctx's error, or an error without
// sending when id is empty.
func (c *Client) GetTask(ctx context.Context, id string, opts ...CallOption) (*Task, error) {
	b, cfg, err := c.callBinding(opts)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, errors.New("a2a: GetTask: empty task id")
	}
	return run(ctx, c, cfg.apply(b.getTask(id, cfg.historyLength)), b.task)
}

// CancelTask asks the agent to stop a task with tasks/cancel (A2A v0.3
// §7.4; CancelTask in A2A v1.0; over HTTP+JSON POST /tasks/{id}:cancel,
// v0.3: POST /v1/tasks/{id}:cancel) and returns the task in the state the
// agent reports after the attempt.
// Cancellation does not undo side effects already made. A task that is
// already terminal gives an error matching [ErrTaskNotCancelable]; the
// Caoliao agent's synchronous tasks always are.
//
// Errors: as [Client.GetTask].
func (c *Client) CancelTask(ctx context.Context, id string, opts ...CallOption) (*Task, error) {
	b, cfg, err := c.callBinding(opts)
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, errors.New("a2a: CancelTask: empty task id")
	}
	return run(ctx, c, cfg.apply(b.cancelTask(id)), b.task)
}

// callBinding checks that the client is usable and opts are valid, and
// returns the binding for a call with them ([Client.bind]) and their
// config.
func (c *Client) callBinding(opts []CallOption) (binding, callConfig, error) {
	if err := c.usable(); err != nil {
		return nil, callConfig{}, err
	}
	cfg, err := buildCallConfig(opts)
	if err != nil {
		return nil, cfg, err
	}
	b, err := c.bind(cfg)
	return b, cfg, err
}
