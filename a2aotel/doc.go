// Package a2aotel traces the calls of an [a2a.Client] with OpenTelemetry,
// and the push notifications an [a2a.PushReceiver] takes. It is a module
// of its own, so the a2a module itself depends on no OpenTelemetry
// package: it implements the a2a package's generic hooks, [a2a.Observer]
// and [a2a.PushObserve].
//
//	c, err := a2a.NewClient(endpoint, a2a.WithObserver(a2aotel.NewObserver()))
//	recv, err := a2a.NewPushReceiver(webhookURL, a2aotel.PushObserve())
//
// # Client spans
//
// Each A2A operation is one span of kind client, named as A2A v1.0
// names the operation whatever the version spoken (SendMessage, GetTask,
// SubscribeToTask, …; ResolveAgentCard for each GET of a card), as
// a2a-java names its spans. Its attributes:
//
//   - a2a-java's set: gen_ai.agent.a2a.operation.name, .protocol (the
//     transport: JSONRPC or HTTP+JSON), .task_id, .context_id,
//     .message_id, .status (the task's state as last known: a result's,
//     or a stream's last event's); and this module's
//     gen_ai.agent.a2a.protocol_version and .tenant;
//   - the OpenTelemetry GenAI conventions where they fit: on SendMessage
//     and SendStreamingMessage gen_ai.operation.name "invoke_agent";
//     gen_ai.conversation.id (the contextId) and gen_ai.agent.name (the
//     card's name) when known;
//   - the HTTP and RPC client conventions (semantic conventions 1.37):
//     server.address, server.port, url.full (without userinfo, query or
//     fragment; any secret the client knows redacted),
//     http.request.method, http.response.status_code,
//     http.request.resend_count (on a retry); over JSON-RPC
//     rpc.system "jsonrpc", rpc.method (the method as sent) and
//     rpc.jsonrpc.error_code; error.type.
//
// An error sets the span's status to Error with error.type: the HTTP
// status of an *a2a.HTTPError, the code of an *a2a.RPCError, "timeout"
// for a deadline, else the error's Go type. A task that failed is a
// result, not an error: its state is in gen_ai.agent.a2a.status. A
// caller that cancels its context, or breaks out of a stream, leaves the
// status unset (a "canceled" event marks the first).
//
// Each retry is a span event, "retry", with the attempt's status or
// error.type: not a child span, since an instrumented transport given
// with [a2a.WithHTTPClient] (otelhttp) already makes a span per HTTP
// attempt, nested under the operation's. Each stream event is a span
// event, "stream.event", with its kind (task, message, status-update,
// artifact-update), its task's state, whether it is final, and an
// artifact's id: never a message's or an artifact's parts.
//
// The W3C trace context (traceparent, tracestate: the propagator given,
// by default the global one) is set on every attempt, retries included,
// so the agent's spans join the caller's trace.
//
// # Push notifications
//
// [PushObserve] starts a span for each request the receiver is sent,
// "PushNotification", of kind server, whose parent is the trace context
// the agent sent in the request (traceparent), or, when the request's
// context already holds a span (a handler wrapped by otelhttp), a child
// of that one, of kind internal. It ends when the receiver has answered,
// with http.response.status_code; a 5xx answer is an error.
//
// # What is never recorded
//
// No message or artifact content, no header value, no credential, no
// query string, no request or response body. Errors are recorded as the
// client returns them: redacted of every secret it knows, with the
// agent's text made inert.
package a2aotel
