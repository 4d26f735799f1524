package a2a

import (
	"context"
	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
	"net/http"
	"net/url"
)

// Observing a client's operations ([WithObserver]): one hook for
// tracing, metrics and logs, called by the call path (run, stream,
// getCard, and per attempt prepareAttempt and checkRetry in rpc.go),
// never by a binding. Without an Observer none of it runs: a call costs
// what it cost before (TestObserverZeroCost).

// Observer is told of each operation a [Client] made with [WithObserver]
// sends: one A2A call (a page of a listing, one GET of a card), from
// before anything is sent to its end. The a2aotel module implements it
// with OpenTelemetry spans; a plain [ObserverFunc] serves metrics or
// logs.
//
// StartOperation is called on the goroutine making the call, before the
// first attempt. It returns the context the operation's HTTP requests
// carry (ctx, or one derived from it, such as a span's: an
// instrumented transport given with [WithHTTPClient] then nests its spans
// under it; it must not be cancelled sooner than ctx) and the hooks to
// call as the operation goes on, nil for none. Argument errors found
// before the call is built (an empty task id) start no operation; a call
// the client's card rules out starts one that ends at once with that
// error. An Observer may be called concurrently for the client's
// concurrent calls; each operation's hooks are called in order, never
// concurrently.
type Observer interface {
	StartOperation(ctx context.Context, op Operation) (context.Context, *OperationHooks)
}

// ObserverFunc adapts a func to an [Observer].
type ObserverFunc func(ctx context.Context, op Operation) (context.Context, *OperationHooks)

// StartOperation calls f(ctx, op).
func (f ObserverFunc) StartOperation(ctx context.Context, op Operation) (context.Context, *OperationHooks) {
	return f(ctx, op)
}

// Operation is what an [Observer] is told of an operation as it starts.
// Nothing in it is a credential: no header, no userinfo, no query.
type Operation struct {
	// Name is the operation as A2A v1.0 names it, whatever the version
	// spoken (A2A v1.0 §9.4, §11.3): SendMessage, SendStreamingMessage,
	// GetTask, ListTasks, CancelTask, SubscribeToTask,
	// CreateTaskPushNotificationConfig, GetTaskPushNotificationConfig,
	// ListTaskPushNotificationConfigs, DeleteTaskPushNotificationConfig,
	// GetExtendedAgentCard; and ResolveAgentCard for each GET of a
	// well-known card URL ([ResolveAgentCard]).
	Name string
	// Method is the call as the client's binding spells it: the JSON-RPC
	// method ("tasks/get" in v0.3, "GetTask" in v1.0) or over HTTP+JSON
	// the proto's RPC name ("TaskSubscription" in v0.3); "" for a card
	// GET.
	Method string
	// ProtocolVersion is [ProtocolV03] or [ProtocolV10], and Transport
	// [TransportJSONRPC] or [TransportHTTPJSON]; both "" for a card GET,
	// which no binding makes.
	ProtocolVersion, Transport string
	// Endpoint is the client's endpoint, or the card's URL, as errors
	// show it: scheme, host, port and path, never userinfo, query or
	// fragment, any secret the client knows redacted.
	Endpoint string
	// Streaming: the operation's answer is an event stream
	// (SendStreamingMessage, SubscribeToTask); its events reach
	// [OperationHooks.Event].
	Streaming bool
	// TaskID, ContextID and MessageID are those the call names, "" when
	// it names none (ContextID and MessageID: a sent message's).
	TaskID, ContextID, MessageID string
	// Tenant is the tenant the call carries (A2A v1.0), "" for none.
	Tenant string
	// Agent is the name of the agent from the card the client knows
	// ([Client.Card]), "" without one, as [Operation.Shown] shows it.
	Agent string

	red *redact.Redactor // the client's
}

// maxShown bounds a string [Operation.Shown] returns, in bytes.
const maxShown = 256

// Shown returns s as the client's errors show text from the network:
// every secret the client knows redacted, control and format characters
// escaped (inert: safe in a log line or a terminal) and at most 256
// bytes. Observers pass whatever the agent chose through it before
// recording it: the ids, states and names of results and events (an
// agent may echo a token back in a task id).
func (op Operation) Shown(s string) string {
	if op.red != nil {
		s = op.red.Str(s)
	}
	return inert.Truncate(inert.Printable(s), maxShown)
}

// OperationHooks are the funcs an [Observer] wants called during one
// operation; a nil func is skipped. They are called on the goroutine
// making the call (for a stream, the one ranging over it), in order,
// and should return quickly. More may be added in later releases; an
// Observer sets the fields it knows by name.
type OperationHooks struct {
	// Attempt is called before each HTTP attempt, retries included.
	Attempt func(a HTTPAttempt)
	// AttemptDone is called when an attempt has its answer (for a stream,
	// when it opens) or failed.
	AttemptDone func(a HTTPAttempt)
	// Event is called with each event of a stream before the caller's
	// loop sees it.
	Event func(ev Event)
	// End is called once, however the operation ends: a result, an
	// error, ctx done, the caller breaking out of a stream's loop (a nil
	// Err), a stream cut.
	End func(e OperationEnd)
}

// HTTPAttempt is one HTTP attempt of an operation.
type HTTPAttempt struct {
	// N counts the operation's attempts from 1. Attempts past the first
	// are retries by the retry policy, or the call sent again with the
	// other verb (an HTTP+JSON subscribe the agent refused), or with a new
	// credential after a 401 ([WithCredentials]).
	N int
	// Method is the HTTP method; URL the request's URL as
	// [Operation].Endpoint shows one.
	Method, URL string
	// Header, given to Attempt only (nil in AttemptDone), starts empty:
	// what Attempt adds to it is set on the request (W3C traceparent and
	// tracestate, say), replacing a value a previous attempt's Attempt
	// set. A header the client sends itself is never replaced and never
	// shown: its credentials, User-Agent, Accept, Content-Type,
	// A2A-Version, the extension headers, a header given to [WithHeader];
	// nor is a header whose name suggests a credential (containing
	// "auth", "key", "token", "cookie" … as [WithHeader] lists them: an
	// observer does not add credentials), nor a value holding a control
	// character.
	Header http.Header
	// StatusCode is the HTTP status of the answer, 0 without one;
	// AttemptDone only.
	StatusCode int
	// Err is why the attempt got no answer, or its body could not be
	// read (a *[TransportError]'s cause, redacted; ctx's error);
	// AttemptDone only.
	Err error
	// Retry: the retry policy will try again after a wait (DESIGN:
	// retries are safe); AttemptDone only. Why is StatusCode (429, 502,
	// 503, 504) or Err.
	Retry bool
}

// OperationEnd is how an operation ended.
type OperationEnd struct {
	// Result is what the operation returned: a *[Task] or *[Message]
	// for a send, a *[Task], a *[TaskPushNotificationConfig], a
	// *[ListTasksResponse] page, a []TaskPushNotificationConfig page, an
	// *[AgentCard]; nil for a delete. For a stream, the last event
	// yielded (nil if none). Nil when Err is not. A task that failed is
	// a result, not an error.
	Result any
	// Err is the error the caller got (redacted as the client's errors
	// are), nil on success and when the caller broke out of a stream.
	Err error
}

// observation is one operation's hooks as the call path calls them.
type observation struct {
	hooks  *OperationHooks
	method string // the last attempt's HTTP method
	url    string // the request's URL as shown, made at the first attempt
	last   Event  // a stream's last event
}

// observe starts spec's operation with the client's Observer, returning
// the context its requests carry and its observation; ctx and nil
// without an Observer or hooks.
func (c *Client) observe(ctx context.Context, spec *callSpec) (context.Context, *observation) {
	if c.observer == nil {
		return ctx, nil
	}
	op := Operation{Name: operationName(spec.method), Method: spec.method, ProtocolVersion: c.proto.version(),
		Transport: c.proto.transport(), Endpoint: c.red.ShownURL(*c.base), Streaming: spec.stream,
		TaskID: spec.taskID, ContextID: spec.contextID, MessageID: spec.messageID, Tenant: spec.tenant, red: c.red}
	if card := c.card.Load(); card != nil {
		op.Agent = op.Shown(card.Name)
	}
	return c.startObserving(ctx, op)
}

// observeCard starts the operation of a card GET of target.
func (c *Client) observeCard(ctx context.Context, target *url.URL) (context.Context, *observation) {
	if c.observer == nil {
		return ctx, nil
	}
	return c.startObserving(ctx, Operation{Name: opResolveAgentCard, Endpoint: c.red.ShownURL(*target), red: c.red})
}

func (c *Client) startObserving(ctx context.Context, op Operation) (context.Context, *observation) {
	octx, hooks := c.observer.StartOperation(ctx, op)
	if octx == nil {
		octx = ctx
	}
	if hooks == nil {
		return octx, nil
	}
	return octx, &observation{hooks: hooks}
}

// attempt tells of cl's next attempt, req, and sets on req what the hook
// added to its header.
func (o *observation) attempt(cl *call, req *http.Request) {
	if o.url == "" {
		o.url = cl.red.ShownURL(*req.URL)
	}
	o.method = req.Method
	if o.hooks.Attempt == nil {
		return
	}
	h := http.Header{}
	o.hooks.Attempt(HTTPAttempt{N: cl.last.n + 1, Method: req.Method, URL: o.url, Header: h})
	for k, vs := range h {
		if cl.observerMaySet(k, vs) {
			req.Header[http.CanonicalHeaderKey(k)] = vs
		}
	}
}

// observerMaySet reports whether an Observer's Attempt may set header k
// to vs on cl's request: never a header the client sets itself
// (clientOwnedHeader), one of the client's own headers (credentials,
// User-Agent, Accept …), the credential header of its source, a header
// whose name suggests a credential (redact.CredentialName: an observer
// adding one would carry it past the card-origin rule, trust.go), nor a
// value a header cannot hold (net/http would fail the attempt).
func (cl *call) observerMaySet(k string, vs []string) bool {
	k = http.CanonicalHeaderKey(k)
	if !validHeaderName(k) || clientOwnedHeader(k) != nil || cl.c.header[k] != nil || (cl.sent != nil && cl.sent.header() == k) ||
		redact.CredentialName(k) {
		return false
	}
	for _, v := range vs {
		if controlByte(v) {
			return false
		}
	}
	return true
}

// attemptDone tells how cl's last attempt ended: err is the transport's
// error, stop the retry check's (ctx's).
func (o *observation) attemptDone(cl *call, err, stop error, retry bool) {
	if o.hooks.AttemptDone == nil {
		return
	}
	att := &cl.last
	a := HTTPAttempt{N: att.n, Method: o.method, URL: o.url, StatusCode: att.status, Retry: retry}
	switch {
	case err != nil:
		a.Err = cl.red.Err(err)
	case att.Err != nil:
		a.Err = att.Err
	case stop != nil:
		a.Err = stop
	}
	o.hooks.AttemptDone(a)
}

// event tells of a stream's event before the caller sees it.
func (o *observation) event(ev Event) {
	o.last = ev
	if o.hooks.Event != nil {
		o.hooks.Event(ev)
	}
}

// end tells how the operation ended; nil-safe.
func (o *observation) end(result any, err error) {
	if o == nil || o.hooks.End == nil {
		return
	}
	if err != nil {
		result = nil
	}
	o.hooks.End(OperationEnd{Result: result, Err: err})
}

// opResolveAgentCard is the Operation.Name of a card GET.
const opResolveAgentCard = "ResolveAgentCard"

// operationName is the A2A v1.0 name of the operation a binding spells
// method: v0.3 JSON-RPC's methods and the v0.3 proto's renamed RPCs map
// to v1.0's; v1.0's names are their own.
func operationName(method string) string {
	switch method {
	case methodSend:
		return methodSendV10
	case methodStream:
		return methodStreamV10
	case methodGetTask:
		return methodGetTaskV10
	case methodCancelTask:
		return methodCancelTaskV10
	case methodResubscribe, methodSubscribePB:
		return methodSubscribeV10
	case methodSetPushConfig:
		return methodSetPushConfigV10
	case methodGetPushConfig:
		return methodGetPushConfigV10
	case methodListPushConfigs, methodListPushConfigsPB:
		return methodListPushConfigsV10
	case methodDeletePushConfig:
		return methodDeletePushConfigV10
	case methodExtendedCard, methodAgentCardPB:
		return methodExtendedCardV10
	}
	return method
}
