package a2a

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// rpcCode is the type of the code sentinels; an *RPCError matches one by code.
type rpcCode int

// Error names the code, e.g. "a2a: task not found (code -32001)".
func (c rpcCode) Error() string {
	return fmt.Sprintf("a2a: %s (code %d)", codeName(int(c)), int(c))
}

// Sentinels for errors.Is: each matches any *[RPCError] with its code, e.g.
// errors.Is(err, a2a.ErrTaskNotFound). Spec: A2A v0.3 §8.1 (JSON-RPC codes)
// and §8.2 (A2A codes).
var (
	ErrParse                        error = rpcCode(-32700)
	ErrInvalidRequest               error = rpcCode(-32600)
	ErrMethodNotFound               error = rpcCode(-32601)
	ErrInvalidParams                error = rpcCode(-32602)
	ErrInternal                     error = rpcCode(-32603)
	ErrTaskNotFound                 error = rpcCode(-32001)
	ErrTaskNotCancelable            error = rpcCode(-32002)
	ErrPushNotificationNotSupported error = rpcCode(-32003)
	ErrUnsupportedOperation         error = rpcCode(-32004)
	ErrContentTypeNotSupported      error = rpcCode(-32005)
	ErrInvalidAgentResponse         error = rpcCode(-32006)
	// ErrExtendedAgentCardNotConfigured is -32007: the agent serves no
	// extended card (A2A v1.0's name; v0.3 calls it
	// AuthenticatedExtendedCardNotConfiguredError).
	ErrExtendedAgentCardNotConfigured error = rpcCode(-32007)
	// ErrExtensionSupportRequired is A2A v1.0's -32008 (over HTTP+JSON
	// HTTP 400 with reason EXTENSION_SUPPORT_REQUIRED): the agent's card
	// marks an extension required and the request did not activate it
	// ([WithExtensions]). [RPCError.RequiredExtensions] names the URIs
	// when the agent or the client's card says which.
	ErrExtensionSupportRequired error = rpcCode(-32008)
	// ErrVersionNotSupported is A2A v1.0's VersionNotSupportedError: the
	// agent refuses the protocol version the client spoke (its A2A-Version
	// header). It also matches [ErrVersionMismatch].
	ErrVersionNotSupported error = rpcCode(codeVersionNotSupported)
)

// ErrVersionMismatch matches every error that says the agent speaks
// another A2A version than the client ([Client.ProtocolVersion]): a
// *[ProtocolError] for a reply in the other version's shapes (to a v0.3
// client a result wrapped as {"task": …}; to a v1.0 client a result with
// "kind"), and an *[RPCError] with code -32009 ([ErrVersionNotSupported])
// or a method-not-found error that shows the agent speaks the other
// version ([RPCError.Hint] then names the option to set). Spec: A2A v1.0,
// versioning.
var ErrVersionMismatch = errors.New("a2a: the agent speaks another A2A version than the client")

// ErrTransportMismatch matches every error that says the agent speaks
// another transport at the client's URL than the client
// ([WithTransports]): a *[ProtocolError] for a JSON-RPC response to an
// HTTP+JSON request, and for an HTTP+JSON reply (a bare {"task": …}, or a
// google.rpc.Status naming an A2A error) to a JSON-RPC request. Its
// Reason names the option to set. Spec: A2A v1.0 §5 (protocol bindings),
// §11 (HTTP+JSON).
var ErrTransportMismatch = errors.New("a2a: the agent speaks another transport than the client at this URL")

// ErrReceiverClosed is the error of a [PushWait] ended by
// [PushReceiver.Close], and of [PushReceiver.SendMessage] and
// [PushReceiver.WatchTask] on a closed receiver.
var ErrReceiverClosed = errors.New("a2a: push receiver closed")

// ErrWaitStopped is the error of a [PushWait] ended by [PushWait.Stop].
var ErrWaitStopped = errors.New("a2a: push wait stopped")

// ErrWaitPending is what [PushWait.Result] returns beside the last task
// known while the wait has not ended.
var ErrWaitPending = errors.New("a2a: push wait has not ended")

// HTTPError is an HTTP reply that is not a JSON-RPC response, nor, from an
// HTTP+JSON agent, an A2A error: a gateway's HTML 502 page, a 401 from an
// auth proxy, a 429 with no JSON body, a router's HTML 404; and an
// HTTP+JSON error naming no A2A error with status 401, 403, 407, 408,
// 429, 502, 503 or 504. It is returned after retries, carrying the last
// reply.
type HTTPError struct {
	// Method is the call as the client's binding spells it: the JSON-RPC
	// method, "tasks/get" in A2A v0.3 and "GetTask" in v1.0; over
	// HTTP+JSON the proto's RPC name in either version ("GetTask");
	// "agent card" for ResolveAgentCard, "push notification" for a
	// PushWait.
	Method     string
	StatusCode int
	// RetryAfter is the server's Retry-After delay (seconds or HTTP date),
	// at most 24 hours (a longer one reads as 24 hours), or 0 when absent
	// or unreadable.
	RetryAfter time.Duration
	// ContentType is the reply's Content-Type header, redacted and, past
	// 512 bytes, cut (as Body).
	ContentType string
	// Challenge is the authentication challenge of a 401 (its
	// WWW-Authenticate header) or a 407 (Proxy-Authenticate), e.g.
	// `Bearer realm="a2a", error="invalid_token"`, redacted and cut like
	// Body, control and format characters escaped as Go does (\n,
	// \u202e); "" for other statuses. Error names its first word, the
	// scheme, when it is one.
	Challenge string
	// Body is the start of the reply body, at most 512 bytes (and a
	// trailing "…" where it was cut), with the
	// client's API key, bearer token, URL credentials and the values of
	// its extra headers ([WithHeader]) replaced by "[REDACTED]".
	Body []byte
}

// Error returns e.g. "a2a: tasks/get: HTTP 502 Bad Gateway", or for a 401
// whose Challenge starts with a scheme "a2a: tasks/get: HTTP 401
// Unauthorized (agent asks for Bearer)" (a 407: "proxy asks for"). It
// never includes the body or the rest of the challenge.
func (e *HTTPError) Error() string {
	s := fmt.Sprintf("a2a: %s: HTTP %d %s", e.Method, e.StatusCode, http.StatusText(e.StatusCode))
	if scheme := challengeScheme(e.Challenge); scheme != "" {
		who := "agent"
		if e.StatusCode == http.StatusProxyAuthRequired {
			who = "proxy"
		}
		s += " (" + who + " asks for " + scheme + ")"
	}
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	}
	return s
}

// ProtocolError is a reply that breaks the JSON-RPC 2.0 or A2A rules, so no
// faithful value can be made of it. Reason says what was wrong in a few words
// ("response is not JSON", "response id 7 does not match request id 3",
// "result is null where a Task is due", …).
type ProtocolError struct {
	// Method is the call as the client's binding spells it: the JSON-RPC
	// method, "tasks/get" in A2A v0.3 and "GetTask" in v1.0; over
	// HTTP+JSON the proto's RPC name in either version ("GetTask");
	// "agent card" for ResolveAgentCard, "push notification" for a
	// PushWait.
	Method string
	Reason string
	// StatusCode is the HTTP status of the reply.
	StatusCode int
	// Body is the whole reply body as received (bounded by the size cap),
	// so nothing the server sent is lost.
	Body []byte
	// Err is the underlying decoding error, if any.
	Err error
	// hideErr: Err is not part of Error(), as for a body that is not JSON
	// by its Content-Type (a proxy's HTML page), whose JSON syntax error
	// says nothing the reason does not.
	hideErr bool
}

// Error returns e.g. `a2a: tasks/get: bad response: response is not JSON
// (Content-Type "text/html", starting "<html>…")`, followed by the
// decoding error's text when there is one (not for a body that is not
// JSON and does not claim to be: Err holds it).
func (e *ProtocolError) Error() string {
	s := fmt.Sprintf("a2a: %s: bad response: %s", e.Method, e.Reason)
	if e.Err != nil && !e.hideErr {
		s += ": " + strings.TrimPrefix(e.Err.Error(), "a2a: ")
	}
	return inert.Printable(s) // the reason and its error may carry server text
}

// Unwrap returns the underlying decoding error.
func (e *ProtocolError) Unwrap() error { return e.Err }

// BodyTooLargeError is a reply body larger than the client's cap
// ([WithMaxResponseBytes], default 10 MiB). Reading stops at the cap.
type BodyTooLargeError struct {
	// Method is the call as the client's binding spells it: the JSON-RPC
	// method, "tasks/get" in A2A v0.3 and "GetTask" in v1.0; over
	// HTTP+JSON the proto's RPC name in either version ("GetTask");
	// "agent card" for ResolveAgentCard, "push notification" for a
	// PushWait.
	Method string
	// Limit is the cap in bytes.
	Limit int64
	// StatusCode is the HTTP status of the reply.
	StatusCode int
}

// Error returns e.g. "a2a: tasks/get: response body exceeds 10485760 bytes".
func (e *BodyTooLargeError) Error() string {
	return fmt.Sprintf("a2a: %s: response body exceeds %d bytes", e.Method, e.Limit)
}

// TransportError is a request that got no HTTP reply: connection refused or
// reset, DNS failure, a per-attempt timeout, a refused redirect. Err is the
// underlying error, stripped of the request URL (which may carry
// credentials). Attempts counts the HTTP attempts made (1 + retries).
type TransportError struct {
	// Method is the call as the client's binding spells it: the JSON-RPC
	// method, "tasks/get" in A2A v0.3 and "GetTask" in v1.0; over
	// HTTP+JSON the proto's RPC name in either version ("GetTask");
	// "agent card" for ResolveAgentCard, "push notification" for a
	// PushWait.
	Method   string
	Attempts int
	Err      error
}

// Error returns e.g. "a2a: tasks/get: transport: dial tcp 127.0.0.1:1:
// connect: connection refused (after 4 attempts)"; the request URL is
// never in it. Text the network chose (a TLS certificate's names, a
// proxy's reason) is shown with control and format characters escaped,
// as [RPCError.Error] shows them.
func (e *TransportError) Error() string {
	return inert.Printable(fmt.Sprintf("a2a: %s: transport: %v (after %s)", e.Method, e.Err, attempts(e.Attempts)))
}

// attempts writes "1 attempt" or "n attempts".
func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

// Unwrap returns the underlying error, so errors.Is(err, syscall.ECONNREFUSED)
// and a net.Error's Timeout() are reachable.
func (e *TransportError) Unwrap() error { return e.Err }

// MessageReplyError is returned by [Client.SendText] when the agent answered
// with a [Message] instead of a [Task]. The message is kept.
type MessageReplyError struct {
	Message *Message
}

// Error says a message came where a task was expected; the message is in
// e.Message.
func (e *MessageReplyError) Error() string {
	return "a2a: message/send: agent replied with a message, not a task"
}

// UnsupportedByCardError is returned, before anything is sent, by a call the
// client's agent card says the agent cannot take.
type UnsupportedByCardError struct {
	// Method is the call as the client's binding spells it:
	// "message/stream" in A2A v0.3 JSON-RPC, "SendStreamingMessage" in
	// v1.0 and over HTTP+JSON.
	Method string
	// Capability is the card field that is false, e.g.
	// "capabilities.streaming".
	Capability string
}

// Error returns e.g. "a2a: message/stream: the agent card says
// capabilities.streaming is false".
func (e *UnsupportedByCardError) Error() string {
	return fmt.Sprintf("a2a: %s: the agent card says %s is false", e.Method, e.Capability)
}

// UntrustedEndpointError is returned by [NewClientFromCard], before
// anything is sent, when the client would carry credentials to an endpoint
// the card names off the origin the card was read from (and not on a host
// of [WithTrustedHosts]), or from a card read over https to a plain http
// endpoint.
type UntrustedEndpointError struct {
	// CardOrigin is where the card was read, e.g. "https://agent.example:443".
	CardOrigin string
	// Endpoint is the endpoint the card names (the interface chosen,
	// whatever its binding), without userinfo,
	// query or fragment, redacted.
	Endpoint string
	// Downgrade is true when the card came over https and the endpoint is
	// http: refused even on a trusted host.
	Downgrade bool
}

// Error names both, e.g. "a2a: the agent card read at
// https://agent.example:443 names its endpoint on another origin,
// https://other.example/rpc; credentials go only to the card's origin and
// hosts given to WithTrustedHosts".
func (e *UntrustedEndpointError) Error() string {
	if e.Downgrade {
		return fmt.Sprintf("a2a: the agent card read at %s names a plain http endpoint, %s; credentials are never sent over http from a card read over https", e.CardOrigin, e.Endpoint)
	}
	return fmt.Sprintf("a2a: the agent card read at %s names its endpoint on another origin, %s; credentials go only to the card's origin and hosts given to WithTrustedHosts", e.CardOrigin, e.Endpoint)
}

// PollLimit names the budget that stopped a [Client.WaitTask].
type PollLimit string

// The budgets of a poll.
const (
	PollLimitDeadline PollLimit = "deadline" // the poll's own timeout ([PollTimeout])
	PollLimitAttempts PollLimit = "attempts" // [PollMaxAttempts]
	PollLimitContext  PollLimit = "context"  // the caller's ctx was canceled or hit its deadline
)

// PollError is returned by a wait that polls ([Client.WaitTask],
// [Client.SendMessageAndWait], a [PushWait]'s fallback poll) when the task
// has not reached a terminal or interrupted state before a budget ran out.
// The wait returns the last task known alongside it. A client-side timeout
// is not a server failure: the task may still finish; wait for
// [PollError.TaskID] again, or call [Client.GetTask] later.
type PollError struct {
	TaskID string
	// LastState is the state of the last task seen: read, or for
	// [Client.SendMessageAndWait] the task the send answered with ("" if
	// there is none).
	LastState TaskState
	// Attempts is the number of tasks/get (GetTask) calls started.
	Attempts int
	// Elapsed is the time spent polling.
	Elapsed time.Duration
	// Limit is what ran out.
	Limit PollLimit
	// Err is the context error for PollLimitContext, context.DeadlineExceeded
	// for PollLimitDeadline, nil for PollLimitAttempts.
	Err error
	// LastErr is the transient fault (*TransportError or *HTTPError) of the
	// last attempt, when it did not return a task; nil otherwise.
	LastErr error
}

// Error returns e.g. `a2a: wait for task t1: poll timeout reached after 5
// attempts in 2.1s, last state "working"`.
func (e *PollError) Error() string {
	var why string
	switch e.Limit {
	case PollLimitDeadline:
		why = "poll timeout reached"
	case PollLimitAttempts:
		why = "attempt limit reached"
	default:
		why = "stopped"
		if e.Err != nil {
			why = e.Err.Error()
		}
	}
	return fmt.Sprintf("a2a: wait for task %s: %s after %s in %s, last state %s",
		inert.Printable(e.TaskID), why, attempts(e.Attempts), e.Elapsed.Round(time.Millisecond), strconv.Quote(string(e.LastState)))
}

// Unwrap returns Err, so errors.Is(err, context.DeadlineExceeded) holds for
// a poll that timed out.
func (e *PollError) Unwrap() error { return e.Err }

// UnsupportedByVersionError is the error, returned before anything is
// sent, of a call the client's binding does not have: [Client.ListTasks]
// on a client that speaks A2A v0.3 over JSON-RPC. It matches
// [ErrUnsupportedOperation].
type UnsupportedByVersionError struct {
	// Method is the call, e.g. "ListTasks"; Version the client's version.
	Method, Version string
}

// Error names the call and the version, and what to set, e.g. "a2a:
// ListTasks is not in A2A v0.3 over JSON-RPC, which this client speaks;
// …".
func (e *UnsupportedByVersionError) Error() string {
	return fmt.Sprintf("a2a: %s is not in A2A v%s over JSON-RPC, which this client speaks; an agent that speaks v1.0, or v0.3 over HTTP+JSON, takes it (WithProtocolVersion(ProtocolV10) or WithTransports(TransportHTTPJSON), or NewClientFromCard)", e.Method, e.Version)
}

// Is reports whether target is [ErrUnsupportedOperation].
func (e *UnsupportedByVersionError) Is(target error) bool { return target == ErrUnsupportedOperation }
