package a2a

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/backoff"
	"github.com/hashicorp/go-retryablehttp"
)

// Retry defaults.
const (
	// defaultMaxRetries is how many times a retryable request is re-sent
	// after its first attempt (WithMaxRetries).
	defaultMaxRetries = 3
	// defaultRetryWaitMin is the first backoff wait.
	defaultRetryWaitMin = 250 * time.Millisecond
	// defaultRetryWaitMax caps every backoff wait, Retry-After included.
	defaultRetryWaitMax = 5 * time.Second
)

// retryClass says when a method's request may be sent again.
type retryClass int

const (
	// retryIdempotent: tasks/get, tasks/cancel, and message/send with
	// [RetrySend]: retried on 429, 502, 503, 504 and connection errors.
	retryIdempotent retryClass = iota
	// retryUnsafe: message/send by default, and creating a push config.
	// Retried only where the agent cannot have acted: the connection was
	// never made, 429, 503.
	retryUnsafe
)

// retryable decides whether a call of class may send its request again
// after an attempt (att) that ended in err (no reply, or the connection
// broke while the body was read) or in resp, whose body att holds. It is
// the retry policy of every call; the call's CheckRetry
// ([call.checkRetry]) runs it once per attempt, after the body is read.
func (c *Client) retryable(class retryClass, resp *http.Response, att *attempt, err error) bool {
	if err != nil {
		// A name that does not resolve will not resolve a second later:
		// not retried (a DNS timeout or server failure still is).
		if dnsErr, ok := errors.AsType[*net.DNSError](err); ok && dnsErr.IsNotFound {
			return false
		}
		if class == retryUnsafe {
			return isDialError(err)
		}
		// retryablehttp knows which transport errors are permanent (bad
		// scheme, certificate, redirect loop); everything else is retried.
		retry, _ := retryablehttp.DefaultRetryPolicy(context.Background(), nil, err)
		return retry
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		if class != retryIdempotent {
			return false
		}
	default:
		return false
	}
	// A server that asks for a longer pause than the cap gets its answer
	// back to the caller (HTTPError.RetryAfter) instead of a retry that
	// would come too early.
	if d, ok := backoff.RetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok && d > c.waitMax {
		return false
	}
	// A 429 or 503 may come from the agent itself, which may have acted
	// on a message/send. Re-send only when the body was read whole and
	// cannot be the agent's answer; a body too large or unreadable might
	// be, so it is not retried either.
	return class != retryUnsafe || !att.TooLarge && att.Fault == nil && !mayBeAgentReply(att.Body)
}

// mayBeAgentReply reports whether body might be the agent's answer to a
// send, however malformed: JSON-looking text that mentions "jsonrpc" or
// "result" (a JSON-RPC reply), "task" or "messageId" (an HTTP+JSON one),
// or the A2A error domain "a2a-protocol.org" (an HTTP+JSON error an A2A
// server wrote), in any case. A gateway's own page or error object (a
// google.rpc.Status of no A2A error) does not; when in doubt a send is not
// re-sent.
func mayBeAgentReply(body []byte) bool {
	b := bytes.TrimLeft(body, " \t\r\n\ufeff")
	if len(b) == 0 || (b[0] != '{' && b[0] != '[') {
		return false
	}
	lower := bytes.ToLower(b)
	for _, name := range []string{`"jsonrpc"`, `"result"`, `"task"`, `"messageid"`, `a2a-protocol.org`} {
		if bytes.Contains(lower, []byte(name)) {
			return true
		}
	}
	return false
}

// isDialError reports whether err happened before a connection existed, so
// the server cannot have seen the request.
func isDialError(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}
