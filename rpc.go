package a2a

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/backoff"
	"github.com/caoliao-a2a/a2a-go/internal/httpbody"
	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
	"github.com/hashicorp/go-retryablehttp"
)

// The one call path, for every binding. A client method asks the
// protocol binding for a callSpec, then:
//
//	newCall   encodes the JSON-RPC envelope once (id, agent selector:
//	          newRPCCall, jsonrpc.go), or for an HTTP+JSON spec the
//	          target URL and body (newRESTCall, restcall.go), so every
//	          retry sends the same bytes;
//	send      makes the HTTP attempts through go-retryablehttp; its
//	          CheckRetry (call.checkRetry) ends each attempt: it reads the
//	          body, bounded (internal/httpbody), and decides on a retry
//	          (retry.go); send returns the last attempt (an attempt value);
//	checkReply takes that attempt and checks the envelope (jsonrpc, the
//	          id, result or error: jsonrpc.go) before anything decodes the
//	          result; an
//	          HTTP+JSON reply, which has no envelope, is checked by its
//	          status and shape instead (checkRESTReply, restcall.go);
//
// and the binding decodes the result into the SDK's types, knowing of the
// call only what it asked (an asked value in the reply). Streams take the
// same path with spec.stream set, and check each event with checkReply;
// an agent card GET shares send. This file is what both transports
// share; jsonrpc.go is the path's JSON-RPC half, restcall.go its
// HTTP+JSON half.

// callSpec is one call as a binding prepares it, for either transport.
type callSpec struct {
	// method is the call as the binding spells it: the JSON-RPC method,
	// or over HTTP+JSON the proto's RPC name; errors and logs name it.
	method string
	// params is encoded as the envelope's "params"; nil leaves it out
	// (and an HTTP+JSON spec, whose body is in rest, has none).
	params any
	// class says when the request may be sent again.
	class retryClass
	// stream: a 2xx text/event-stream reply is left open to be read
	// event by event.
	stream bool
	// nullResult: a reply with neither result nor error is a null result
	// (a2a-go v0.3.15 sends one for tasks/pushNotificationConfig/delete).
	nullResult bool
	// taskID is the task the call is about ("" when none is named): a
	// result or event about another task is a *ProtocolError. configID
	// is the push config a get asks for, where the version names one.
	taskID, configID string
	// needs is the agent card capability the call needs; a client that
	// knows a card ruling it out refuses the call before sending.
	needs capability
	// secrets the call carries in its params, and URLs whose credentials
	// it carries (a webhook's), redacted from its errors like the
	// client's credentials.
	secrets, secretURLs []string
	// rest is the call as the HTTP+JSON binding sends it, params then
	// unused; nil for a JSON-RPC call.
	rest *restRequest
	// err is an error the binding found building the spec (an id that
	// cannot be a path segment), returned before anything is sent.
	err error
	// extensions are the URIs the call activates beside the client's
	// (the Extensions call option; callConfig.apply).
	extensions []string

	// Observation (observe.go). tenant is the tenant the call carries
	// (v1.0); contextID and messageID those of a sent message, set by
	// the client method: facts an Observer is given. obs is the call's
	// observation, set by the call path (run, stream, getCard), never by
	// a binding; nil without an Observer.
	tenant, contextID, messageID string
	obs                          *observation
}

// call is one call in flight: its request, encoded once, and the attempt
// that ended last. It is used by one goroutine; the retry hooks are its
// methods, so nothing of it travels in a context, and what its attempts
// bring is returned by send.
type call struct {
	c          *Client
	spec       callSpec
	red        *redact.Redactor // the client's, with spec.secrets
	id         int64            // the JSON-RPC id; 0 for a GET
	httpMethod string
	target     string
	payload    []byte // nil for a GET
	version    string // the A2A-Version header when not the client's
	start      time.Time
	// last is the latest attempt as checkRetry, the retry hook that reads
	// each reply, recorded it: the hook can return nothing else. send,
	// which runs the hook, alone reads it, and returns it.
	last attempt
	rc   retryablehttp.Client
	// task is the task the call's results must be about: spec.taskID, or
	// for a stream that named none, the task of its first event.
	task string
	// triedOther: the call was sent again with its other verb
	// (refusedVerb).
	triedOther bool
	// extensions are the URIs the call activates (extensionsFor), sent in
	// the version's header (setExtensions); none for a card GET.
	extensions []string
	// Credentials that change (options_credentials.go): sent is the
	// credential of the client's source the latest attempt carried (nil
	// without a source); refused, set by refusedCredential, is handed to
	// the source before the next attempt, once; reauthorized: the call
	// was sent again after a 401.
	sent, refused *Credential
	reauthorized  bool
}

// asked is what the call asks, as its replies' decoders are to know it:
// a value, made for each reply (a stream's task may be learnt from its
// first event).
func (cl *call) asked() asked {
	return asked{method: cl.spec.method, task: cl.task, configID: cl.spec.configID, red: cl.red}
}

// attempt is how one HTTP attempt of a call ended: send returns the
// last. Its body is read whole into Result, and closed, unless stream
// holds it open.
type attempt struct {
	n      int         // attempts made, this one included
	status int         // the reply's HTTP status; 0 without a reply
	header http.Header // the reply's header
	// stream is the reply of a streaming call answered with an event
	// stream, its body left open for the caller to read and close; nil
	// for any other reply.
	stream *http.Response
	httpbody.Result
}

// newCall makes the call of spec: its request encoded once, so every
// retry sends the same bytes, by the half of the call path of its
// transport (newRPCCall, newRESTCall), and the extensions it activates
// (extensionsFor).
func (c *Client) newCall(spec callSpec) (*call, error) {
	var cl *call
	var err error
	switch {
	case spec.rest != nil:
		cl, err = c.newRESTCall(spec)
	case c.proto.transport() != TransportJSONRPC:
		// A binding method that forgot its transport: never send a
		// JSON-RPC envelope to an HTTP+JSON interface.
		return nil, fmt.Errorf("a2a: %s: no %s request for this call (a bug in this package)", spec.method, c.proto.transport())
	default:
		cl, err = c.newRPCCall(spec)
	}
	if err != nil {
		return nil, err
	}
	cl.extensions = c.extensionsFor(spec)
	return cl, nil
}

// newGet is a call that GETs target (an agent card), retried like
// tasks/get; method names it in errors and logs. It asks for the card in
// A2A v1.0 (A2A-Version: 1.0), whatever version the client speaks: an
// agent serving both versions then sends the card listing both (a2a-js
// sends a headerless request the v0.3 card), and v0.3 agents ignore the
// header.
func (c *Client) newGet(method, target string) *call {
	return &call{c: c, spec: callSpec{method: method, class: retryIdempotent}, red: c.red,
		httpMethod: http.MethodGet, target: target, version: ProtocolV10}
}

// start is the first half of every call, unary or streaming, on either
// transport: it returns the error the binding found building spec (before
// anything is sent), refuses what the client's card rules out (an
// *UnsupportedByCardError), encodes the call and exchanges it, returning
// the call and its last attempt. Errors: those and exchange's.
func (c *Client) start(ctx context.Context, spec callSpec) (*call, attempt, error) {
	if spec.err != nil {
		return nil, attempt{}, spec.err
	}
	if err := c.requireCapability(spec); err != nil {
		return nil, attempt{}, err
	}
	cl, err := c.newCall(spec)
	if err != nil {
		return nil, attempt{}, err
	}
	att, err := cl.exchange(ctx)
	return cl, att, err
}

// exchange sends the call (send), once more with the other verb when an
// HTTP+JSON agent refused the first (refusedVerb, restcall.go), and once
// more with a new credential when the agent refused the one the client's
// source gave with a 401 (refusedCredential, options_credentials.go);
// every call, an agent card GET included, is sent through it. It returns
// the last attempt; errors are send's.
func (cl *call) exchange(ctx context.Context) (attempt, error) {
	att, err := cl.send(ctx)
	if err == nil && cl.refusedVerb(&att) {
		att, err = cl.send(ctx)
	}
	if err == nil && cl.refusedCredential(ctx, &att) {
		att, err = cl.send(ctx)
	}
	return att, err
}

// invoke runs a unary call: start it, then check the reply's envelope.
// Errors: those of start and checkReply.
func (c *Client) invoke(ctx context.Context, spec callSpec) (*reply, error) {
	cl, att, err := c.start(ctx, spec)
	if err != nil {
		return nil, err
	}
	return cl.checkReply(&att, att.Body, "")
}

// run invokes spec and decodes its checked result with decode, a binding's
// result method: the whole of a unary client method after its argument
// checks. Errors: those of invoke and of decode.
// The operation is observed ([WithObserver]) from before the call is
// sent to the decoded result.
func run[T any](ctx context.Context, c *Client, spec callSpec, decode func(*reply) (T, error)) (res T, err error) {
	ctx, spec.obs = c.observe(ctx, &spec)
	rep, err := c.invoke(ctx, spec)
	if err == nil {
		res, err = decode(rep)
	}
	if spec.obs != nil {
		spec.obs.end(res, err)
	}
	return res, err
}

// send makes the call's HTTP attempts and returns the last: its reply's
// status and header, and its body read whole (att.Body) and closed; or, for
// a streaming call answered with an event stream, the reply with its body
// open (att.stream) for the caller to read and close. With an error the
// attempt is returned too (its status, 0 without a reply), its body, if
// any, closed. Errors: ctx's error wrapped (the caller gave up, not the
// server), *TransportError (no reply, or the connection broke in the
// body), *BodyTooLargeError, and for a body that arrived but cannot be
// decoded (corrupt gzip, an unknown Content-Encoding) a *ProtocolError on
// a 2xx reply or an *HTTPError on any other; or a request-building error.
func (cl *call) send(ctx context.Context) (attempt, error) {
	c := cl.c
	cl.start = time.Now()
	req, err := retryablehttp.NewRequestWithContext(ctx, cl.httpMethod, cl.target, cl.payload)
	if err != nil {
		return attempt{}, fmt.Errorf("a2a: %s: build request: %w", cl.spec.method, err)
	}
	for k, vs := range c.header {
		req.Header[k] = vs
	}
	if cl.version != "" {
		req.Header.Set("A2A-Version", cl.version)
	}
	cl.setExtensions(req.Header)
	if cl.payload == nil {
		req.Header.Del("Content-Type")
	}
	hc := c.hc
	if cl.spec.stream {
		req.Header.Set("Accept", "text/event-stream")
		hc = c.streamHC
	}
	if err := cl.prepareAttempt(req.Request); err != nil {
		return attempt{}, err
	}
	// The call's own retryablehttp client, and who owns a reply's body:
	// CheckRetry (checkRetry) reads and closes every body but an event
	// stream's; Backoff (backoff.Wait) reads the header only; ErrorHandler hands
	// back the last reply as it is, body already read; RequestLogHook
	// (logAttempt) only logs.
	cl.rc.HTTPClient = hc
	cl.rc.RetryWaitMin, cl.rc.RetryWaitMax, cl.rc.RetryMax = c.waitMin, c.waitMax, c.maxRetries
	cl.rc.CheckRetry = cl.checkRetry
	cl.rc.Backoff = backoff.Wait
	cl.rc.ErrorHandler = retryablehttp.PassthroughErrorHandler
	if cl.spec.obs != nil || c.creds != nil {
		// Each retry is prepared too; without an observer or a credential
		// source nothing is (a method value costs an allocation per call).
		cl.rc.PrepareRetry = cl.prepareRetry
	}
	if c.log.Enabled(ctx, slog.LevelDebug) {
		cl.rc.RequestLogHook = cl.logAttempt
	}

	resp, err := cl.rc.Do(req)
	att := cl.last // the attempt resp answers
	// The credential source failed before a retry (PrepareRetry).
	if ce, ok := errors.AsType[*CredentialError](err); ok && ctx.Err() == nil {
		if resp != nil {
			resp.Body.Close()
		}
		att.stream = nil
		return att, ce
	}
	if ctx.Err() != nil || err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		att.stream = nil // closed, if it was one
		return att, cl.noReply(ctx, att.n, cl.connFault(ctx, att.n, err))
	}
	if att.stream != nil {
		c.log.LogAttrs(ctx, slog.LevelDebug, "a2a stream opened", slog.String("method", cl.spec.method), cl.idAttr(),
			slog.Int("attempts", att.n), slog.Duration("elapsed", time.Since(cl.start)))
		return att, nil
	}
	if att.Err != nil {
		return att, cl.noReply(ctx, att.n, cl.connFault(ctx, att.n, att.Err))
	}
	c.log.LogAttrs(ctx, slog.LevelDebug, "a2a reply",
		slog.String("method", cl.spec.method), cl.idAttr(), slog.Int("status", att.status),
		slog.Int("bytes", len(att.Body)), slog.Int("attempts", att.n), slog.Duration("elapsed", time.Since(cl.start)))
	switch {
	case att.TooLarge:
		return att, &BodyTooLargeError{Method: cl.spec.method, Limit: c.maxBody, StatusCode: att.status}
	case att.Fault != nil && !httpbody.Is2xx(att.status):
		// Not believed as JSON-RPC whatever it holds: an *HTTPError, its
		// excerpt the bytes as received.
		return att, cl.httpError(&att)
	case att.Fault != nil:
		return att, cl.asked().protocolError(att.status, att.Body, "body cannot be read", att.Fault)
	}
	return att, nil
}

// prepareAttempt readies req for the call's next attempt: it is called
// by send before the first and through prepareRetry before each retry.
// It puts the credential of the client's source in req (applyCredential,
// options_credentials.go), then tells the operation's observer of the
// attempt, setting the headers it adds (trace context) on req. Errors:
// *CredentialError, which stops the call before the attempt (the
// observer is not told of it).
func (cl *call) prepareAttempt(req *http.Request) error {
	if err := cl.applyCredential(req); err != nil {
		return err
	}
	if cl.spec.obs != nil {
		cl.spec.obs.attempt(cl, req)
	}
	return nil
}

// prepareRetry is the PrepareRetry of the call's retryablehttp client:
// its req is a shallow copy of the last attempt's, sharing its header,
// which is cloned before prepareAttempt changes it.
func (cl *call) prepareRetry(req *http.Request) error {
	req.Header = req.Header.Clone()
	return cl.prepareAttempt(req)
}

// checkRetry is the CheckRetry of the call's retryablehttp client:
// checkAttempt, then the operation's observer told how the attempt
// ended.
func (cl *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	retry, stop := cl.checkAttempt(ctx, resp, err)
	if o := cl.spec.obs; o != nil {
		o.attemptDone(cl, err, stop, retry && stop == nil && cl.last.n <= cl.rc.RetryMax)
	}
	return retry, stop
}

// checkAttempt ends each attempt of the call's retryablehttp client. The
// call sets no response handler, so it runs exactly once after each
// attempt, and it is the one place a reply body is read: it records the
// attempt in cl.last for send, reads the body whole (bounded by the
// client's cap) and closes it, leaving http.NoBody for retryablehttp to
// drain, unless the reply is an event stream for a streaming call, which
// it leaves open (attempt.stream). It then decides on a retry by the
// call's class ([Client.retryable]). It returns ctx's error first, so a
// cancelled call never retries.
func (cl *call) checkAttempt(ctx context.Context, resp *http.Response, err error) (bool, error) {
	cl.last = attempt{n: cl.last.n + 1}
	att := &cl.last
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err == nil {
		att.status, att.header = resp.StatusCode, resp.Header
		if cl.spec.stream && httpbody.IsEventStream(resp) {
			att.stream = resp
			return false, nil
		}
		att.Result = httpbody.Read(resp, cl.c.maxBody, cl.red)
		resp.Body.Close()
		resp.Body = http.NoBody
		if ctx.Err() != nil { // given up while the body was read
			return false, ctx.Err()
		}
		err = att.Err
	}
	return cl.c.retryable(cl.spec.class, resp, att, err), nil
}

// logAttempt is the RequestLogHook of the call's retryablehttp client,
// set when debug logging is on. It only logs: never the URL or headers.
func (cl *call) logAttempt(_ retryablehttp.Logger, req *http.Request, retry int) {
	cl.c.log.LogAttrs(req.Context(), slog.LevelDebug, "a2a request",
		slog.String("method", cl.spec.method), cl.idAttr(), slog.Int("attempt", retry+1))
}

// idAttr is the log attribute of the call's JSON-RPC id; an HTTP+JSON
// call and a card GET have none (an empty attribute, which handlers leave
// out).
func (cl *call) idAttr() slog.Attr {
	if cl.spec.rest != nil || cl.httpMethod == http.MethodGet {
		return slog.Attr{}
	}
	return slog.Int64("id", cl.id)
}

// connFault is the error for a call whose connection failed (err) after
// attempts attempts: ctx's error, wrapped, when ctx is done (the caller
// gave up, not the server), else a *TransportError.
func (cl *call) connFault(ctx context.Context, attempts int, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("a2a: %s: %w", cl.spec.method, ctx.Err())
	}
	return &TransportError{Method: cl.spec.method, Attempts: attempts, Err: cl.red.Err(err)}
}

// noReply logs a call that got no usable reply after attempts attempts
// (its error is already redacted) and returns the error.
func (cl *call) noReply(ctx context.Context, attempts int, fail error) error {
	cl.c.log.LogAttrs(ctx, slog.LevelDebug, "a2a no reply", slog.String("method", cl.spec.method), cl.idAttr(),
		slog.Int("attempts", attempts), slog.Duration("elapsed", time.Since(cl.start)), slog.String("error", fail.Error()))
	return fail
}

// maxBodyExcerpt bounds HTTPError.Body, in bytes.
const maxBodyExcerpt = 512

// httpError is the *HTTPError for att's reply.
func (cl *call) httpError(att *attempt) *HTTPError {
	h := att.header
	e := &HTTPError{
		Method:      cl.spec.method,
		StatusCode:  att.status,
		ContentType: cl.headerExcerpt(h.Get("Content-Type")),
		Body:        cl.red.Excerpt(att.Body, maxBodyExcerpt),
	}
	switch att.status {
	case http.StatusUnauthorized:
		e.Challenge = inert.Printable(cl.headerExcerpt(h.Get("WWW-Authenticate")))
	case http.StatusProxyAuthRequired:
		e.Challenge = inert.Printable(cl.headerExcerpt(h.Get("Proxy-Authenticate")))
	}
	if d, ok := backoff.RetryAfter(h.Get("Retry-After"), time.Now()); ok {
		e.RetryAfter = d
	}
	return e
}

// headerExcerpt is a reply header's value as an error keeps it: redacted,
// and its start alone past maxBodyExcerpt bytes (an agent may send
// megabytes in one header).
func (cl *call) headerExcerpt(v string) string {
	return string(cl.red.Excerpt([]byte(v), maxBodyExcerpt))
}

func isNull(raw []byte) bool { return string(raw) == "null" }
