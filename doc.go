// Package a2a is a client for A2A (Agent2Agent) agents over HTTP, built
// for Caoliao-style agents: synchronous agents whose message/send returns
// a task that is already completed or failed, and gateways that add
// API-key headers, an agent selector in every body, and tasks that must be
// polled. It speaks four bindings with one set of Go types: JSON-RPC 2.0
// and HTTP+JSON (REST), each in A2A v0.3 and A2A v1.0; gRPC is not spoken.
//
// # Getting started
//
// Make one [Client] per agent endpoint and reuse it; it is safe for
// concurrent use:
//
//	c, err := a2a.NewClient("https://a2a.objqr.com/a2a/jsonrpc")
//	if err != nil {
//		return err // a bad endpoint or option; NewClient does no I/O
//	}
//	task, err := c.SendText(ctx, "这个二维码是什么？https://qr71.cn/okDISU/qssTnoy")
//	if err != nil {
//		return err // transport or protocol fault: no task came back
//	}
//	if task.Status.State == a2a.TaskStateFailed {
//		return fmt.Errorf("query failed: %s", task.StatusText())
//	}
//	summary := task.Artifact("entity").Text() // the one-line summary
//	var card struct{ Title string }
//	err = task.Artifact("entity").DecodeData(&card) // the structured data
//
// For a gateway add [WithAPIKey], [WithWorkspace] and
// [WithAgentID] or [WithAgentCode]; the selector goes into every request
// body, get and cancel included, on either protocol version (over
// JSON-RPC: an HTTP+JSON request has no envelope to carry it).
//
// # Bindings and protocol versions
//
// A client speaks one binding: a transport, JSON-RPC 2.0 or HTTP+JSON
// (REST), in one protocol version, A2A v0.3 or v1.0. That makes four:
//
//   - JSON-RPC v0.3 (A2A v0.3 §7): methods such as "message/send" and
//     "tasks/get", one POST to the endpoint each;
//   - JSON-RPC v1.0 (A2A v1.0, JSON-RPC binding): methods such as
//     "SendMessage" and "GetTask", params and results in ProtoJSON;
//   - HTTP+JSON v1.0 (A2A v1.0 §11): an HTTP verb on a path under the
//     interface URL ("POST /message:send", "GET /tasks/{id}"), the tenant
//     as the path's first segments, the v1.0 ProtoJSON bodies without an
//     envelope;
//   - HTTP+JSON v0.3 (A2A v0.3 §3.5.6 and the google.api.http options of
//     the v0.3 proto): the same operations under /v1/ ("POST
//     /v1/message:send", "GET /v1/tasks/{id}"), no tenant, bodies in the
//     v0.3 proto's JSON (parts under "content"), what hosted agents such
//     as Vertex AI Agent Engine serve.
//
// The binding decides the method names or the HTTP verbs and paths, the
// request and result shapes and the A2A-Version header; the Go types, the
// errors and the behaviour are the same for all, so code written for a
// v0.3 JSON-RPC agent runs against a v1.0 HTTP+JSON one. Each id in a
// path is escaped as one segment, so no id can address another resource.
// [Client.Interface] says which binding a client speaks, and where. The
// binding is chosen so:
//
//   - [NewClient] speaks JSON-RPC v0.3 at its URL (Caoliao agents and
//     gateways) unless [WithProtocolVersion] names [ProtocolV10] or
//     [WithTransports] names [TransportHTTPJSON] first;
//   - [NewClientFromCard] takes the first of the card's interfaces, in
//     card order (A2A v1.0 §8.3.2: the agent's preference), whose binding
//     (JSONRPC or HTTP+JSON, in any case) and version (0.x or 1.x) it
//     speaks, with that entry's URL, version and tenant together; gRPC
//     entries are skipped. [WithTransports] allows only the transports it
//     names, [WithPreferredTransports] also puts the caller's order before
//     the card's, and WithProtocolVersion keeps the entries of one
//     version. An agent selector ([WithAgentID]) is a JSON-RPC member: with
//     one, JSON-RPC entries come first.
//
// The client does not switch versions by itself: an agent that answers
// like one of the other version (-32009, or a v1.0 agent's "method not
// found" to a v0.3 method) gives an [*RPCError] matching
// [ErrVersionMismatch] whose [RPCError.Hint] names the option to set.
// A2A v1.0 adds the tenant ([WithTenant], [Tenant]), which a v0.3 client
// refuses before sending, and [Client.ListTasks], which a v0.3 JSON-RPC
// client refuses before sending (a v0.3 HTTP+JSON client sends GET
// /v1/tasks, which few agents serve).
//
// # Results
//
// [Client.SendMessage] returns a [SendResult], a [*Task] or a [*Message];
// [Client.SendText] returns the task. A [Task] keeps the exact bytes it was
// decoded from ([Task.Raw]): Caoliao keeps tasks in memory only, so persist
// them when you receive them. Parts are a closed set of Go types
// ([TextPart], [DataPart], [FilePart]) plus [UnknownPart], which keeps any
// other kind byte for byte. A state this package does not know is kept as a
// string and is never treated as success. Off-spec replies are read
// leniently where one reading is certain (a v0.3 result or part without
// "kind" by its shape; the other version's state and role spellings, and
// v1.0's enum numbers, onto the constants, keeping the original in
// [TaskStatus.RawState] and [Message.RawRole]) and refused where it is
// not. docs/misbehaving-servers.md lists every case.
//
// # Errors
//
// A task in state failed, canceled or rejected is a value, returned with a
// nil error; its reason is [Task.StatusText]. Errors are for everything
// else. Every error a [Client] method, [NewClient], [NewClientFromCard] or
// [ResolveAgentCard] returns is one of these, each a type to use with
// errors.As:
//
//   - [*RPCError]: the agent's JSON-RPC error object, whatever the HTTP
//     status it came with, or an HTTP+JSON agent's A2A error (below);
//     errors.Is matches it by code against [ErrTaskNotFound],
//     [ErrMethodNotFound] and the other sentinels; an A2A v1.0 agent's
//     typed details are in [RPCError.Details];
//   - [*HTTPError]: an HTTP failure whose body is not a JSON-RPC response
//     or an A2A error (a gateway's 502 page, a 401), with the status,
//     Retry-After, the authentication challenge and a redacted body
//     excerpt;
//   - [*ProtocolError]: a reply that breaks JSON-RPC or A2A, with a reason
//     and the whole body: not JSON, a wrong id, both or neither of result
//     and error, a null or mistyped result, a known member name repeated or
//     in another case ("Status" beside "status"), a body in an encoding
//     that cannot be read, a result that would take more memory to decode
//     than its size allows (4× its bytes and 2 MiB); one for a reply in
//     the other protocol version's shape matches [ErrVersionMismatch],
//     one for a reply of the other transport (a JSON-RPC response to an
//     HTTP+JSON request, or the reverse) [ErrTransportMismatch];
//   - [*BodyTooLargeError]: a reply over the size cap ([WithMaxResponseBytes]);
//   - [*TransportError]: the request could not be made or no reply came
//     (refused, reset, timed out), after any retries;
//   - [*PollError]: [Client.WaitTask] ran out of time or attempts (so
//     did a [PushWait]'s fallback poll);
//   - [*StreamCutError]: a stream ([Client.SendStreamingMessage],
//     [Client.SubscribeToTask]) ended before its task was final; it
//     matches [ErrStreamCut] and carries the task as far as it got and the
//     ids to follow it again;
//   - [*ListLimitError]: [Client.ListTasks] read as many tasks as
//     [ListLimit] allows; its NextPageToken goes on;
//   - [*MessageReplyError]: [Client.SendText] got a Message, not a Task;
//   - [*CardError]: [ResolveAgentCard] found no card, listing every URL tried;
//   - [*UnsupportedByCardError]: before anything is sent, a call the
//     client's agent card rules out ([NewClientFromCard]);
//   - [*UnsupportedByVersionError]: before anything is sent, a call the
//     client's binding does not have ([Client.ListTasks] on JSON-RPC
//     v0.3);
//   - [*UntrustedEndpointError]: [NewClientFromCard] would send the
//     client's credentials to an endpoint off the card's own origin, or
//     over http from a card read over https;
//   - [*CardSignatureError]: with [WithCardVerifier], a card refused after
//     verifying its signatures (errors.Is [ErrCardSignatureInvalid],
//     [ErrCardNotVerified]); package cardsig has the verifier;
//   - the context's error, wrapped, when ctx ends first;
//   - [ErrNoSupportedInterface]: [NewClientFromCard] got a card without an
//     interface this package speaks;
//   - [ErrReceiverClosed], [ErrWaitStopped]: a [PushWait] ended by
//     [PushReceiver.Close] or [PushWait.Stop]; [ErrWaitPending]: its
//     Result before it ended;
//   - a plain error, before anything is sent, for a caller fault: an
//     option given bad input, an empty task id, a message without parts or
//     one whose parts cannot be encoded, a nil or zero Client, a
//     SendStreamingMessage sequence ranged over a second time.
//
// An HTTP+JSON (REST) agent's error is read by its shape, never by its
// Content-Type (A2A v1.0 §11.6): a google.rpc.Status
// ({"error":{"code","status","message","details"}}), an RFC 9457 problem
// ({"type","title","status","detail"}), or an A2A v0.3-era body with a
// string "message" ({"code":-32001,"message":…}, {"message":…},
// {"error":"<class>","message":…}) is an [*RPCError] whose Code is the
// JSON-RPC code of the A2A error it names, so the same sentinels match on
// both transports. The name comes from the Status's ErrorInfo reason
// ("TASK_NOT_FOUND"; [RPCError.Reason], [RPCError.Details]), the problem's
// type URI (https://a2a-protocol.org/errors/task-not-found) or the v0.3
// body's JSON-RPC code; [RPCError.Status] keeps the status name or the
// type URI and [RPCError.StatusCode] the HTTP status. One that names no A2A
// error is an [*HTTPError] when its status is 401, 403, 407, 408, 429,
// 502, 503 or 504 (an authentication, rate or gateway failure), and
// otherwise an [*RPCError] whose code the HTTP status stands for (404 task
// not found, 409 not cancelable, 415 content type not supported, 500
// internal, 501 unsupported operation; any other status, code 0). A body
// of any other shape (an HTML 404 from a wrong path, a proxy's page, an
// empty 401, {"error":"Not Found"}) is an [*HTTPError]: a bare 404 is not
// taken for a missing task. In a stream, an event named "error", or whose
// data is an object with an object "error" and no payload, is read the
// same way.
//
// The helpers on values ([Artifact.DecodeData], [DataPart.Decode],
// [FileContent.Decode], [Timestamp.Time]) return the errors their own docs
// name.
//
// No error text or log record carries the API key, the bearer token,
// credentials from the endpoint URL or a push config's token.
//
// # Retries
//
// Retries go through github.com/hashicorp/go-retryablehttp. Calls that
// read or cancel (tasks/get, tasks/cancel, ListTasks, getting, listing and
// deleting push configs, the extended card; in either version) are retried
// on 429, 502, 503, 504 and connection errors; message/send and creating a
// push config only where the agent cannot have acted (connection not made,
// 429, 503), unless a send passes [RetrySend]. Waits grow from
// a quarter second with jitter, each at most 5 seconds ([WithRetryWait]); a
// Retry-After longer than that is not waited for but returned in
// [HTTPError.RetryAfter]. Every retry resends the identical bytes, with the
// same JSON-RPC id and messageId. Redirects to another host, and redirects
// that would turn the POST into a GET, are not followed.
//
// # Waiting
//
// The waits for a task to finish follow one naming rule: [Client.WaitTask]
// waits for a task by id, polling it (tasks/get; GetTask elsewhere) with
// backoff until the task is terminal (completed, failed, canceled,
// rejected) or interrupted (input-required, auth-required), within an
// overall timeout and a maximum number of attempts;
// [Client.SendMessageAndWait] sends, then waits as WaitTask does; a
// [PushReceiver]'s SendMessage and WatchTask return a [*PushWait] at once,
// whose Wait blocks until the agent's notifications finish the task. They
// take [WaitOption]s: the Poll options and any [CallOption], side by side.
// Running out returns the last task known and a [*PollError]. Answer an
// input-required task with [Client.SendFollowUp].
//
// # Discovery, streaming, push
//
// [ResolveAgentCard] reads an agent's card and [NewClientFromCard] builds a
// client for the interface it chooses that refuses calls the card rules out,
// and sends credentials only to the card's own origin or hosts named with
// [WithTrustedHosts].
// [Client.SendStreamingMessage] and [Client.SubscribeToTask] yield
// Server-Sent Events as an iterator; [Task.Apply] folds them into a task.
// The push notification config methods register webhooks, and
// [PushReceiver] is one: an http.Handler that checks and decodes the
// agent's notifications, whose [PushReceiver.SendMessage] and
// [PushReceiver.WatchTask] wait for many tasks at once without a goroutine
// or a poll loop each, polling only a task nothing is heard of
// ([PushFallbackAfter]).
//
// Client methods are named after the A2A v1.0 operations they make
// (SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask,
// SubscribeToTask, the four TaskPushNotificationConfig calls,
// GetExtendedAgentCard), whichever version the client speaks.
//
// # Extensions
//
// [WithExtensions] and the call option [Extensions] activate A2A
// extensions on every operation, in the header of the client's version
// (A2A-Extensions on v1.0, X-A2A-Extensions on v0.3);
// [WithRequiredExtensions] activates those the card marks required
// ([AgentCard.RequiredExtensions]), and [WithExtensionLines] writes one
// header line per URI for a2a-go v2 servers. An agent's refusal matches
// [ErrExtensionSupportRequired], and [RPCError.RequiredExtensions] names
// the URIs (docs/extensions.md).
//
// # Testing
//
// Package github.com/caoliao-a2a/a2a-go/a2atest runs a scripted fake agent
// on loopback, including a Caoliao scenario ([a2atest.Caoliao]), so code
// using this package can be tested offline.
package a2a
