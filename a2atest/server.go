// Package a2atest provides a scripted fake A2A agent for tests and demos:
// an [httptest] server on loopback that speaks JSON-RPC 2.0 like a
// Caoliao-style agent (synchronous, completed or failed) or a
// gateway (headers, agent selector, tasks that move through
// states over successive tasks/get calls).
//
// It checks every request envelope (jsonrpc "2.0", an id, a method, params
// shaped per A2A v0.3) and, when configured, the X-API-Key, X-Workspace-ID
// and Authorization headers and the agent selector; a request that fails a
// check gets the error a strict server would send, so a client bug shows up
// as a test failure.
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
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// Reply is what the agent answers a message/send with: exactly one of Task,
// Message or Error.
type Reply struct {
	// Task is returned as the result. An empty ID or ContextID is filled in
	// ("task-N", "ctx-N"; a follow-up keeps its task's ids), the request
	// message is appended to History, and the task is stored for tasks/get
	// and tasks/cancel.
	Task *a2a.Task
	// States, when set, scripts the task's life: message/send returns the
	// task in States[0], each tasks/get moves it one state on, and the last
	// state repeats. Task's artifacts appear only with the last state; its
	// status message applies to every state. The script runs whatever
	// configuration.blocking says, as a gateway that answers before the task
	// is done would.
	States []a2a.TaskState
	// Message is returned as the result instead of a task.
	Message *a2a.Message
	// Error is returned as a JSON-RPC error (Code, Message, Data are used).
	Error *a2a.RPCError
	// Events, when set, are what message/stream sends, in order, as
	// Server-Sent Events; the stream then closes. Without Events a stream
	// sends the reply as a send would (Task or Message), then, for a
	// scripted task, a status update per remaining state (the last one
	// final, the artifacts just before it). Task ids of events are not
	// filled in.
	Events []a2a.Event
	// StreamRaw, when set, is written verbatim as the body of a
	// message/stream reply (Content-Type text/event-stream), with {{id}}
	// replaced by the request's id: for comments, CRLF line ends, errors
	// inside a stream, cut-off events and other faults.
	StreamRaw string
}

// Raw is a canned HTTP reply, served to the next request instead of the
// normal JSON-RPC handling (see [Server.Enqueue]).
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
	// Method is the JSON-RPC method ("" if the body did not parse, or for a GET).
	Method string
	// Path is the URL path, e.g. "/a2a/jsonrpc" or a card path.
	Path   string
	Header http.Header
	Body   []byte
}

// Option configures a [Server].
type Option func(*Server)

// OnSend sets the handler for message/send. The default answers every
// message with a completed task whose "echo" artifact holds the message text
// as a TextPart and {"text": …} as a DataPart.
func OnSend(h func(msg a2a.Message) Reply) Option {
	return func(s *Server) { s.onSend = h }
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
// top-level "agent_id" is not id, for every method (gateway style).
func RequireAgentID(id string) Option {
	return func(s *Server) { s.selectorKey, s.selectorVal = "agent_id", id }
}

// RequireAgentCode is [RequireAgentID] for "agent_code".
func RequireAgentCode(code string) Option {
	return func(s *Server) { s.selectorKey, s.selectorVal = "agent_code", code }
}

// Server is a running fake agent. Its methods are safe for concurrent use.
type Server struct {
	// URL is the JSON-RPC endpoint, e.g. "http://127.0.0.1:41234/a2a/jsonrpc".
	URL string

	ts            *httptest.Server
	onSend        func(a2a.Message) Reply
	requireHeader map[string]string
	selectorKey   string
	selectorVal   string

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
}

type scripted struct {
	task   a2a.Task
	states []a2a.TaskState
	pos    int
}

// NewServer starts a fake agent on a loopback port. Close it when done.
func NewServer(opts ...Option) *Server {
	s := &Server{requireHeader: map[string]string{}, tasks: map[string]*scripted{}, push: map[string][]a2a.PushNotificationConfig{}}
	for _, o := range opts {
		o(s)
	}
	if s.onSend == nil {
		s.onSend = echo
	}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.URL = s.ts.URL + "/a2a/jsonrpc"
	for _, c := range []*a2a.AgentCard{s.card, s.extendedCard} {
		if c != nil && c.URL == "" {
			c.URL = s.URL
		}
	}
	return s
}

// Close shuts the server down and waits for its handlers to return.
func (s *Server) Close() { s.ts.Close() }

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

// CompletedTask returns a completed task with one artifact named name whose
// parts are a DataPart holding data (encoded as JSON) and a TextPart holding
// summary: the shape of every Caoliao answer. It panics if data
// cannot be encoded as JSON, which is a bug in the test.
func CompletedTask(name string, data any, summary string) *a2a.Task {
	dp, err := a2a.NewDataPart(data)
	if err != nil {
		panic(fmt.Sprintf("a2atest: CompletedTask data: %v", err))
	}
	return &a2a.Task{
		Status: a2a.TaskStatus{State: a2a.TaskStateCompleted},
		Artifacts: []a2a.Artifact{{
			ArtifactID: "artifact-" + name,
			Name:       name,
			Parts:      a2a.Parts{dp, a2a.TextPart{Text: summary}},
		}},
	}
}

// FailedTask returns a failed task whose status message holds reason, the
// way Caoliao reports a failure (a result, not an error).
func FailedTask(reason string) *a2a.Task {
	return StatusTask(a2a.TaskStateFailed, reason)
}

// StatusTask returns a task in state with an agent status message holding
// text (no message when text is empty), for input-required questions,
// cancellations and the like.
func StatusTask(state a2a.TaskState, text string) *a2a.Task {
	t := &a2a.Task{Status: a2a.TaskStatus{State: state}}
	if text != "" {
		t.Status.Message = &a2a.Message{MessageID: "status-" + string(state), Role: a2a.RoleAgent, Parts: a2a.Parts{a2a.TextPart{Text: text}}}
	}
	return t
}

func echo(m a2a.Message) Reply {
	text := m.Parts.Text()
	return Reply{Task: CompletedTask("echo", map[string]string{"text": text}, text)}
}

// JSON-RPC codes the server uses.
const (
	codeParse          = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeTaskNotFound   = -32001
	codeNotCancelable  = -32002

	codeExtendedCardNotConfigured = -32007
)

type envelope struct {
	JSONRPC   *string         `json:"jsonrpc"`
	ID        json.RawMessage `json:"id"`
	Method    *string         `json:"method"`
	Params    json.RawMessage `json:"params"`
	AgentID   *string         `json:"agent_id"`
	AgentCode *string         `json:"agent_code"`
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	var env envelope
	parseErr := json.Unmarshal(body, &env)

	s.mu.Lock()
	rec := Request{Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	if env.Method != nil {
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
	if r.Method == http.MethodGet {
		s.serveCard(w, r)
		return
	}
	if r.Method != http.MethodPost {
		http.Error(w, "POST only", http.StatusMethodNotAllowed)
		return
	}
	for name, want := range s.requireHeader {
		if r.Header.Get(name) != want {
			status := http.StatusUnauthorized
			if name == "X-Workspace-Id" {
				status = http.StatusForbidden
			} else {
				w.Header().Set("WWW-Authenticate", `Bearer realm="a2atest"`)
			}
			http.Error(w, name+" missing or wrong", status)
			return
		}
	}
	if parseErr != nil {
		writeJSON(w, nil, nil, &a2a.RPCError{Code: codeParse, Message: "invalid JSON payload"})
		return
	}
	if env.Method != nil && (*env.Method == "message/stream" || *env.Method == "tasks/resubscribe") {
		if rpcErr := s.check(env); rpcErr != nil {
			writeJSON(w, env.ID, nil, rpcErr)
			return
		}
		s.serveStream(w, env)
		return
	}
	result, rpcErr := s.handle(env)
	writeJSON(w, env.ID, result, rpcErr)
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

func writeJSON(w http.ResponseWriter, id json.RawMessage, result any, rpcErr *a2a.RPCError) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	out := map[string]any{"jsonrpc": "2.0", "id": id}
	if rpcErr != nil {
		e := map[string]any{"code": rpcErr.Code, "message": rpcErr.Message}
		if rpcErr.Data != nil {
			e["data"] = rpcErr.Data
		}
		out["error"] = e
	} else {
		out["result"] = result
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

func invalid(code int, format string, args ...any) *a2a.RPCError {
	return &a2a.RPCError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// handle checks the envelope and dispatches on the method.
func (s *Server) handle(env envelope) (any, *a2a.RPCError) {
	if rpcErr := s.check(env); rpcErr != nil {
		return nil, rpcErr
	}
	switch *env.Method {
	case "message/send":
		return s.send(env.Params)
	case "tasks/get":
		return s.get(env.Params)
	case "tasks/cancel":
		return s.cancel(env.Params)
	case "tasks/pushNotificationConfig/set", "tasks/pushNotificationConfig/get",
		"tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/delete":
		return s.pushConfig(*env.Method, env.Params)
	case "agent/getAuthenticatedExtendedCard":
		if s.extendedCard == nil {
			return nil, invalid(codeExtendedCardNotConfigured, "authenticated extended card is not configured")
		}
		return s.extendedCard, nil
	default:
		return nil, invalid(codeMethodNotFound, "method not found: %s", *env.Method)
	}
}

// check checks the JSON-RPC envelope and the agent selector.
func (s *Server) check(env envelope) *a2a.RPCError {
	if env.JSONRPC == nil || *env.JSONRPC != "2.0" {
		return invalid(codeInvalidRequest, `"jsonrpc" must be "2.0"`)
	}
	if !validID(env.ID) {
		return invalid(codeInvalidRequest, `"id" must be a string or an integer`)
	}
	if env.Method == nil {
		return invalid(codeInvalidRequest, `"method" is missing`)
	}
	if s.selectorKey != "" {
		got := env.AgentID
		if s.selectorKey == "agent_code" {
			got = env.AgentCode
		}
		if got == nil || *got != s.selectorVal {
			return invalid(codeInvalidParams, "%s missing or wrong on %s", s.selectorKey, *env.Method)
		}
	}
	if *env.Method == "agent/getAuthenticatedExtendedCard" {
		return nil // the one method without params
	}
	if len(env.Params) == 0 || env.Params[0] != '{' {
		return invalid(codeInvalidParams, `"params" must be an object`)
	}
	return nil
}

func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		var s string
		return json.Unmarshal(raw, &s) == nil
	}
	_, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil
}

type sendParams struct {
	// Message's kind is read apart (sendReply): a2a.Message has its own
	// UnmarshalJSON, so it cannot be embedded beside a Kind field.
	Message       *a2a.Message `json:"message"`
	Configuration *struct {
		Blocking *bool `json:"blocking"`
	} `json:"configuration"`
}

func (s *Server) send(raw json.RawMessage) (any, *a2a.RPCError) {
	_, result, rpcErr := s.sendReply(raw)
	return result, rpcErr
}

// sendReply checks a message/send or message/stream request, runs the
// OnSend handler, stores the task, and returns the Reply and the result to
// send first (an a2a.Task or an a2a.Message).
func (s *Server) sendReply(raw json.RawMessage) (Reply, any, *a2a.RPCError) {
	var p sendParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return Reply{}, nil, invalid(codeInvalidParams, "message/send params: %v", err)
	}
	if p.Message == nil {
		return Reply{}, nil, invalid(codeInvalidParams, "message/send: params.message is missing")
	}
	var kind struct {
		Message struct {
			Kind string `json:"kind"`
		} `json:"message"`
	}
	json.Unmarshal(raw, &kind) // raw decoded above
	m := *p.Message
	switch {
	case kind.Message.Kind != "message":
		return Reply{}, nil, invalid(codeInvalidParams, `message/send: message.kind must be "message"`)
	case m.Role != a2a.RoleUser || m.RawRole != "": // "ROLE_USER" is v1.0, not v0.3
		return Reply{}, nil, invalid(codeInvalidParams, `message/send: message.role must be "user"`)
	case m.MessageID == "":
		return Reply{}, nil, invalid(codeInvalidParams, "message/send: message.messageId is missing")
	case len(m.Parts) == 0:
		return Reply{}, nil, invalid(codeInvalidParams, "message/send: message.parts is empty")
	}
	for i, part := range m.Parts {
		if _, ok := part.(a2a.UnknownPart); ok {
			return Reply{}, nil, invalid(codeInvalidParams, "message/send: part %d has unknown kind %q", i, part.Kind())
		}
	}

	s.mu.Lock()
	var prev *scripted
	if m.TaskID != "" {
		prev = s.tasks[m.TaskID]
		if prev == nil {
			s.mu.Unlock()
			return Reply{}, nil, invalid(codeTaskNotFound, "task not found: %s", m.TaskID)
		}
		if prev.current().Status.State.Terminal() {
			s.mu.Unlock()
			return Reply{}, nil, invalid(codeInvalidParams, "task %s is in a terminal state", m.TaskID)
		}
	}
	s.mu.Unlock()

	rep := s.onSend(m) // outside the lock: the handler may call Server methods
	switch {
	case rep.Error != nil:
		return rep, nil, rep.Error
	case rep.Message != nil:
		msg := *rep.Message
		if msg.MessageID == "" {
			msg.MessageID = "reply-" + m.MessageID
		}
		if msg.Role == "" {
			msg.Role = a2a.RoleAgent
		}
		return rep, msg, nil
	case rep.Task == nil && (rep.Events != nil || rep.StreamRaw != ""):
		rep.Task = &a2a.Task{Status: a2a.TaskStatus{State: a2a.TaskStateSubmitted}} // for a stream-only script
	case rep.Task == nil:
		return Reply{}, nil, invalid(codeInvalidParams, "a2atest: the OnSend handler returned an empty Reply")
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	// Copy the slices: the handler may hand the same *Task to every call.
	t := *rep.Task
	t.Artifacts = slices.Clone(t.Artifacts)
	t.History = slices.Clone(t.History)
	if prev != nil {
		t.ID, t.ContextID = prev.task.ID, prev.task.ContextID
		t.History = append(slices.Clone(prev.task.History), t.History...)
	} else {
		s.nextTask++
		if t.ID == "" {
			t.ID = fmt.Sprintf("task-%d", s.nextTask)
		}
		if t.ContextID == "" {
			t.ContextID = fmt.Sprintf("ctx-%d", s.nextTask)
		}
	}
	m.TaskID, m.ContextID = t.ID, t.ContextID
	t.History = append(t.History, m)
	if t.Status.Timestamp == "" {
		t.Status.Timestamp = a2a.Timestamp(time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	}
	sc := &scripted{task: t, states: rep.States}
	s.tasks[t.ID] = sc
	return rep, sc.current(), nil
}

// current returns the task in its current scripted state.
func (sc *scripted) current() a2a.Task {
	t := sc.task
	if len(sc.states) > 0 {
		t.Status.State = sc.states[sc.pos]
		if sc.pos < len(sc.states)-1 {
			t.Artifacts = nil // results appear with the last state
		}
	}
	return t
}

type queryParams struct {
	ID            string `json:"id"`
	HistoryLength *int   `json:"historyLength"`
}

func (s *Server) get(raw json.RawMessage) (any, *a2a.RPCError) {
	var p queryParams
	if err := json.Unmarshal(raw, &p); err != nil || p.ID == "" {
		return nil, invalid(codeInvalidParams, "tasks/get: params.id is missing")
	}
	if p.HistoryLength != nil && *p.HistoryLength < 0 {
		return nil, invalid(codeInvalidParams, "tasks/get: historyLength is negative")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.tasks[p.ID]
	if sc == nil {
		return nil, invalid(codeTaskNotFound, "task not found: %s", p.ID)
	}
	if sc.pos < len(sc.states)-1 {
		sc.pos++
	}
	t := sc.current()
	if p.HistoryLength != nil && *p.HistoryLength < len(t.History) {
		t.History = t.History[len(t.History)-*p.HistoryLength:]
	}
	return t, nil
}

func (s *Server) cancel(raw json.RawMessage) (any, *a2a.RPCError) {
	var p queryParams
	if err := json.Unmarshal(raw, &p); err != nil || p.ID == "" {
		return nil, invalid(codeInvalidParams, "tasks/cancel: params.id is missing")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.tasks[p.ID]
	if sc == nil {
		return nil, invalid(codeTaskNotFound, "task not found: %s", p.ID)
	}
	if sc.current().Status.State.Terminal() {
		return nil, invalid(codeNotCancelable, "task cannot be canceled: %s", p.ID)
	}
	sc.task = sc.current() // results not yet reached stay hidden
	sc.task.Status = a2a.TaskStatus{State: a2a.TaskStateCanceled, Timestamp: a2a.Timestamp(time.Now().UTC().Format(time.RFC3339Nano))}
	sc.states = nil
	return sc.task, nil
}
