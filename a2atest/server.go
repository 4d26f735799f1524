// Package a2atest provides a scripted fake A2A agent for tests and demos:
// an [httptest] server on loopback that acts like a Caoliao-style agent
// (synchronous, completed or failed) or a gateway (headers, agent
// selector, tasks that move through states over successive tasks/get
// calls). It speaks any of the four bindings the a2a package does:
// JSON-RPC 2.0 (the default) or HTTP+JSON ([HTTPJSON], [Bindings]), each
// in A2A v0.3 or v1.0 ([V10]). These docs name operations by their v0.3
// JSON-RPC methods (message/send, tasks/get, …); each stands for the same
// operation in every binding (tasks/get: GetTask, GET /tasks/{id}, GET
// /v1/tasks/{id}).
//
// A server speaks A2A v0.3, as Caoliao agents do, unless made with [V10]:
// then it speaks A2A v1.0 (method names such as SendMessage, ProtoJSON
// params and results, the A2A-Version header, ListTasks, tenants). The Go
// values a test gives it ([Reply], [Raw], the [OnSend] handler's
// [a2a.Message]) are the same for both versions; the server writes them
// in its own.
//
// With [HTTPJSON] it speaks the HTTP+JSON (REST) binding instead, at
// [Server.URL] ".../a2a/rest". With V10 these are A2A v1.0's paths (POST
// /message:send and /message:stream, GET /tasks/{id}, GET /tasks, POST
// /tasks/{id}:cancel, POST or GET /tasks/{id}:subscribe, POST and GET
// /tasks/{id}/pushNotificationConfigs, GET and DELETE
// .../pushNotificationConfigs/{configId}, GET /extendedAgentCard; each
// under a /{tenant} prefix, one segment or several, when [RequireTenant]
// is given) and the ProtoJSON bodies of its JSON-RPC, without the
// envelope. Without V10 they are A2A v0.3's: the same under /v1/ (the
// extended card at GET /v1/card), no tenant, and the JSON of the v0.3
// proto (parts under "content", TASK_STATE_CANCELLED, "final" on status
// updates, push configs named "tasks/{id}/pushNotificationConfigs/{cid}").
// Streams are Server-Sent Events whose data is a bare StreamResponse.
// Results are 200 (a deleted push config: {}); errors are google.rpc.Status
// objects ({"error": {code, status, message, details}}) with the HTTP
// status and ErrorInfo reason of A2A v1.0 §5.4 and §11.6 (404
// TASK_NOT_FOUND, 400 TASK_NOT_CANCELABLE, …); a path that names no
// operation gets a plain-text 404, a method the path does not take a 405
// with Allow. Its checks are as strict as JSON-RPC's: the A2A-Version
// header (v1.0: "1.0"; v0.3: none or "0.3"), a JSON Content-Type on a
// body, no body where the operation takes none, bodies decoded strictly,
// only the query parameters an operation takes, each once, and each id
// one path segment (/tasks/a%2Fb is task "a/b"). [Bindings] serves
// JSON-RPC and HTTP+JSON side by side on one task store, with a card
// listing both in the order given.
//
// It checks every JSON-RPC request envelope (jsonrpc "2.0", an id, a
// method, params shaped per its version), every HTTP+JSON request as said
// above, and, when configured, the X-API-Key, X-Workspace-ID and
// Authorization headers, the agent selector (JSON-RPC only) and the
// tenant; a request that fails a check gets the error a strict server
// would send, so a client bug shows up as a test failure.
//
// The server delivers push notifications. A webhook registered for a task
// (tasks/pushNotificationConfig/set, or configuration.pushNotificationConfig
// in message/send; in v1.0 CreateTaskPushNotificationConfig, or
// configuration.taskPushNotificationConfig in SendMessage) gets a POST each
// time the task enters a state: the state a send creates it in (when the
// webhook came with the send), each state its script moves it to, a
// follow-up's state, canceled. A v0.3 server posts the task as JSON
// ("kind":"task") with Content-Type application/json and the config's
// token in X-A2A-Notification-Token; a v1.0 server posts a StreamResponse
// {"task": …} in ProtoJSON with Content-Type application/a2a+json and the
// token in A2A-Notification-Token. Either adds "Authorization: <scheme>
// <credentials>" when the config has an authentication scheme. Deliveries
// run in the background, in order per task, without retries;
// [Server.Deliveries] lists their outcomes. A [Reply] with an Interval moves
// its script on the server's clock instead of on tasks/get, so a test or
// demo can watch tasks finish on their own, by push or by polling.
//
//	srv := a2atest.NewServer(a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
//		return a2atest.Reply{Task: a2atest.CompletedTask("entity", map[string]any{"ok": true}, "done")}
//	}))
//	defer srv.Close()
//	c, _ := a2a.NewClient(srv.URL)
package a2atest

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// Reply is what the agent answers a message/send (SendMessage in v1.0)
// with: exactly one of Task, Message or Error.
type Reply struct {
	// Task is returned as the result. An empty ID or ContextID is filled in
	// ("task-N", "ctx-N"; a follow-up keeps its task's ids), the request
	// message is appended to History, and the task is stored for tasks/get
	// and tasks/cancel (and ListTasks in v1.0).
	Task *a2a.Task
	// States, when set, scripts the task's life: message/send returns the
	// task in States[0], each tasks/get (or, with Interval, each tick of
	// the server's clock) moves it one state on, and the last state
	// repeats. Task's artifacts appear only with the last state; its
	// status message applies to every state. The script runs whatever
	// configuration.blocking (v1.0: returnImmediately) says, as a gateway
	// that answers before the task is done would.
	States []a2a.TaskState
	// Interval, when positive and States has more than one state, runs the
	// script on the server's clock instead: starting when the send is
	// answered, the task moves one state on every Interval (a
	// time.Duration: 50*time.Millisecond, not 50) until the last state,
	// and tasks/get returns it as it stands without moving it. An OnSend
	// handler can give every task its own Interval. tasks/cancel stops the
	// clock; a stream of the task (message/stream, tasks/resubscribe,
	// SubscribeToTask) runs the rest of the script at once, as for a
	// per-get script, and stops it too. Zero keeps the per-get script.
	Interval time.Duration
	// Message is returned as the result instead of a task.
	Message *a2a.Message
	// Error is returned as a JSON-RPC error (Code, Message, Data are used).
	// A v1.0 server gives an error without Data the ErrorInfo detail of
	// its code (e.g. reason "TASK_NOT_FOUND" for -32001). Over HTTP+JSON
	// it is a google.rpc.Status with the HTTP status of its code (500
	// INTERNAL for a code A2A does not name); Data that is a JSON array is
	// its details, other Data the ErrorInfo's metadata "data".
	Error *a2a.RPCError
	// Events, when set, are what message/stream sends, in order, as
	// Server-Sent Events; the stream then closes. Without Events a stream
	// sends the reply as a send would (Task or Message), then, for a
	// scripted task, a status update per remaining state (the artifacts
	// just before the last; in v0.3 the last one final, in v1.0, which
	// has no "final", a v0.3-only closing update is left out). Task ids
	// of events are not filled in; a v1.0 server does not send Final.
	Events []a2a.Event
	// StreamRaw, when set, is written verbatim as the body of a
	// message/stream reply (Content-Type text/event-stream), with {{id}}
	// replaced by the request's id (null over HTTP+JSON, which has none):
	// for comments, CRLF line ends, errors inside a stream, cut-off events
	// and other faults.
	StreamRaw string
}

// Raw is a canned HTTP reply, served to the next request instead of the
// normal handling (see [Server.Enqueue]). It is written as given,
// whatever the server's version and binding: a 201 or a 204 to a push
// config call, an error body of another shape, an HTML page.
type Raw struct {
	Status      int
	ContentType string
	Header      http.Header
	Body        string
	// EchoID, when true, replaces the text {{id}} in Body with the request's
	// JSON-RPC id, so a scripted JSON-RPC body matches the client's id.
	EchoID bool
}

// Request is a request the server received.
type Request struct {
	// Method is the JSON-RPC method ("" if the body did not parse, or for
	// a card GET). For an HTTP+JSON request it is the operation's A2A v1.0
	// method name, whatever the version ("GetTask" for GET /tasks/t1 and
	// GET /v1/tasks/t1), "" when the path names none or does not take
	// the HTTP method.
	Method string
	// HTTPMethod is the request's HTTP method: "POST", "GET", "DELETE".
	HTTPMethod string
	// Path is the URL path as sent, escapes kept: "/a2a/jsonrpc", a card
	// path, "/a2a/rest/tasks/a%2Fb".
	Path string
	// Query is the URL's query as sent, without "?": "historyLength=2".
	Query  string
	Header http.Header
	Body   []byte
}

// Option configures a [Server].
type Option func(*Server)

// OnSend sets the handler for message/send and message/stream
// (SendMessage and SendStreamingMessage in v1.0). The default answers
// every message with a completed task whose "echo" artifact holds the
// message text as a TextPart and {"text": …} as a DataPart.
func OnSend(h func(msg a2a.Message) Reply) Option {
	return func(s *Server) { s.onSend = h }
}

// Listener makes the server serve on l instead of on a new loopback port
// (a fixed port, an address a demo names): its URLs are then built from
// l.Addr(). The server owns l from then on: [Server.Close] closes it. The
// fake has no authentication of its own; serving it on an address other
// than loopback lets anyone who reaches it talk to it.
func Listener(l net.Listener) Option {
	return func(s *Server) { s.listener = l }
}

// RequireAPIKey makes the server answer HTTP 401 to a request whose X-API-Key
// header is not key.
func RequireAPIKey(key string) Option {
	return func(s *Server) { s.requireHeader["X-Api-Key"] = key }
}

// RequireWorkspace makes the server answer HTTP 403 to a request whose
// X-Workspace-ID header is not id.
func RequireWorkspace(id string) Option {
	return func(s *Server) { s.requireHeader["X-Workspace-Id"] = id }
}

// RequireBearer makes the server answer HTTP 401 to a request whose
// Authorization header is not "Bearer <token>".
func RequireBearer(token string) Option {
	return func(s *Server) { s.requireHeader["Authorization"] = "Bearer " + token }
}

// RequireAgentID makes the server refuse (JSON-RPC -32602) a request whose
// top-level "agent_id" is not id, for every method (gateway style). The
// selector is a member of the JSON-RPC envelope: [NewServer] panics when
// the server serves no JSON-RPC, and its HTTP+JSON requests, if it serves
// both ([Bindings]), are not checked for it.
func RequireAgentID(id string) Option {
	return func(s *Server) { s.selectorKey, s.selectorVal = "agent_id", id }
}

// RequireAgentCode is [RequireAgentID] for "agent_code".
func RequireAgentCode(code string) Option {
	return func(s *Server) { s.selectorKey, s.selectorVal = "agent_code", code }
}

// Server is a running fake agent. Its methods are safe for concurrent use.
type Server struct {
	// URL is the endpoint of the server's first binding: the JSON-RPC
	// endpoint "http://127.0.0.1:41234/a2a/jsonrpc" by default, the
	// HTTP+JSON one ".../a2a/rest" with [HTTPJSON] (see [Bindings],
	// [Server.Endpoint]).
	URL string

	ts            *httptest.Server
	root          string // "http://127.0.0.1:port"
	onSend        func(a2a.Message) Reply
	requireHeader map[string]string
	selectorKey   string
	selectorVal   string
	v10           bool         // speaks A2A v1.0 (V10)
	tenant        string       // required in every v1.0 request (RequireTenant)
	bindings      []string     // the bindings served, in card order (Bindings); nil: JSON-RPC
	ownCard       bool         // Bindings was given: a v0.3 server serves a card of its own too
	listener      net.Listener // Listener: served instead of a new loopback port
	requiredExt   []string     // extensions every request must activate (RequireExtension)

	card         *a2a.AgentCard
	cardPaths    []string
	extendedCard *a2a.AgentCard

	mu       sync.Mutex
	tasks    map[string]*scripted
	nextTask int
	queue    []Raw
	requests []Request
	push     map[string][]a2a.PushNotificationConfig
	nextPush int
	out      outbound // push deliveries and script clocks (push.go), under mu
	tokens   *tokens  // IssueTokens (tokens.go); its fields under mu
}

// NewServer starts a fake agent on a loopback port. Close it when done. It
// panics on options that contradict each other, a bug in the test:
// [RequireTenant] without [V10] (A2A v0.3 has no tenant), [Bindings] with
// a binding it does not serve or twice the same, [RequireAgentID] or
// [RequireAgentCode] without JSON-RPC (the selector is a JSON-RPC
// gateway's).
func NewServer(opts ...Option) *Server {
	s := &Server{requireHeader: map[string]string{}, tasks: map[string]*scripted{}, push: map[string][]a2a.PushNotificationConfig{}}
	for _, o := range opts {
		o(s)
	}
	if s.tenant != "" && !s.v10 {
		panic("a2atest: RequireTenant needs V10: A2A v0.3 has no tenant")
	}
	s.checkBindings()
	if s.onSend == nil {
		s.onSend = echo
	}
	s.out.init()
	// The URLs are set before the server starts: its handlers read them.
	s.ts = httptest.NewUnstartedServer(http.HandlerFunc(s.serveHTTP))
	if s.listener != nil {
		s.ts.Listener.Close()
		s.ts.Listener = s.listener
	}
	s.root = "http://" + s.ts.Listener.Addr().String()
	s.URL = s.Endpoint(s.bindings[0])
	s.card, s.extendedCard = s.declareRequired(s.card), s.declareRequired(s.extendedCard)
	for _, c := range []*a2a.AgentCard{s.card, s.extendedCard} {
		if c != nil && c.URL == "" {
			c.URL = s.URL
		}
	}
	s.ts.Start()
	return s
}

// Close shuts the server down: it waits for its handlers to return, stops
// the clocks of clock-driven scripts ([Reply.Interval]), cancels push
// deliveries in flight (they are recorded as failed), drops those not yet
// started, and waits for every delivery goroutine and clock step to
// return, so nothing the server started outlives it. Calling it again does
// nothing more.
func (s *Server) Close() {
	s.ts.Close()
	s.closePush()
}

// Enqueue makes the next requests (one per Raw, in order, any method) get
// canned replies instead of normal handling: HTML error pages, 429s with
// Retry-After, malformed JSON, and so on.
func (s *Server) Enqueue(replies ...Raw) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// Requests returns a copy of every request received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// JSON-RPC codes the server uses.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeTaskNotFound   = -32001
	codeNotCancelable  = -32002
	codeUnsupported    = -32004
	codeContentType    = -32005

	codeExtendedCardNotConfigured = -32007
	codeVersionNotSupported       = -32009
)

// serveHTTP answers every request: a canned reply if one is queued, the
// card for a GET, else the header checks and the version's JSON-RPC
// handling (serveV03, serveV10), after the extensions the server
// requires (RequireExtension).
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if s.tokens != nil && r.URL.Path == tokenPath {
		s.serveToken(w, r)
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	var env envelope
	var parseErr error
	rest := s.isREST(r)
	var rt restRoute
	if rest {
		rt = s.routeREST(r)
	} else {
		parseErr = json.Unmarshal(body, &env)
	}

	s.mu.Lock()
	rec := Request{HTTPMethod: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body}
	switch {
	case rest:
		rec.Method = rt.verbs[r.Method]
	case env.Method != nil:
		rec.Method = *env.Method
	}
	s.requests = append(s.requests, rec)
	var canned *Raw
	if len(s.queue) > 0 {
		canned = &s.queue[0]
		s.queue = s.queue[1:]
	}
	s.mu.Unlock()

	if canned != nil {
		writeRaw(w, *canned, env.ID)
		return
	}
	if r.Method == http.MethodGet && !rest {
		s.serveCard(w, r)
		return
	}
	if !rest && !s.serves(a2a.TransportJSONRPC) {
		http.NotFound(w, r)
		return
	}
	if !rest && r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	if !s.checkHeaders(w, r) || !s.checkToken(w, r) {
		return
	}
	if rest {
		s.serveREST(w, r, rt, body)
		return
	}
	if parseErr != nil {
		s.writeJSON(w, nil, nil, invalid(codeParse, "invalid JSON payload"))
		return
	}
	if e := s.checkExtensions(r); e != nil {
		s.writeJSON(w, env.ID, nil, e)
		return
	}
	if s.v10 {
		s.serveV10(w, r, env)
		return
	}
	s.serveV03(w, env)
}

// checkHeaders answers a request without the credentials the server
// requires (RequireAPIKey, RequireBearer, RequireWorkspace) with 401 or
// 403 and reports false.
func (s *Server) checkHeaders(w http.ResponseWriter, r *http.Request) bool {
	for name, want := range s.requireHeader {
		if r.Header.Get(name) != want {
			status := http.StatusUnauthorized
			if name == "X-Workspace-Id" {
				status = http.StatusForbidden
			} else {
				w.Header().Set("WWW-Authenticate", `Bearer realm="a2atest"`)
			}
			http.Error(w, name+" missing or wrong", status)
			return false
		}
	}
	return true
}

func writeRaw(w http.ResponseWriter, raw Raw, id json.RawMessage) {
	for k, vs := range raw.Header {
		w.Header()[k] = vs
	}
	if raw.ContentType != "" {
		w.Header().Set("Content-Type", raw.ContentType)
	}
	body := []byte(raw.Body)
	if raw.EchoID {
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		body = bytes.ReplaceAll(body, []byte("{{id}}"), id)
	}
	status := raw.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	w.Write(body)
}
