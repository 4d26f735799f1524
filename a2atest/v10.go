package a2atest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// V10 makes the server an A2A v1.0 agent instead of a v0.3 one; a client
// talks to it with a2a.WithProtocolVersion(a2a.ProtocolV10), or from its
// card with a2a.NewClientFromCard. Such a server:
//
//   - answers the v1.0 methods (SendMessage, SendStreamingMessage,
//     GetTask, ListTasks, CancelTask, SubscribeToTask,
//     Create/Get/List/DeleteTaskPushNotificationConfig,
//     ListTaskPushNotificationConfigs, GetExtendedAgentCard) and refuses
//     any other name, the v0.3 ones among them, with -32601 and an
//     ErrorInfo detail METHOD_NOT_FOUND, as a2a-go's v1.0 servers do;
//   - refuses a request whose A2A-Version header is missing (which means
//     0.3) or not "1.0" with -32009 and an ErrorInfo detail
//     VERSION_NOT_SUPPORTED, as a2a-python does;
//   - reads params strictly as the proto's request messages in ProtoJSON:
//     a member the proto does not have (a leftover v0.3 "kind",
//     "blocking" or nested "pushNotificationConfig") is -32602, and so is a
//     part without exactly one of text, raw, url and data;
//   - writes results in ProtoJSON: {"task": …} or {"message": …} for
//     SendMessage, a bare Task for GetTask and CancelTask, one
//     StreamResponse per event ({"statusUpdate": …}, no "final"; the
//     stream closes after the last), TASK_STATE_* and ROLE_* names, flat
//     parts, no "kind", and every error with an ErrorInfo detail;
//   - starts SubscribeToTask with the task as it stands, and refuses a
//     task in a terminal state with -32004 (so does SendMessage to one);
//   - serves its card ([WithCard], or one of its own) as a v1.0 card whose
//     supportedInterfaces is [{url, protocolBinding "JSONRPC",
//     protocolVersion "1.0", tenant}] (an entry a binding with
//     [Bindings] or [HTTPJSON]) unless the card lists its own.
//
// Where these docs name a v0.3 method, a v1.0 server does the same under
// its v1.0 name: message/send is SendMessage (a taskPushNotificationConfig
// in its configuration is stored for the new task), tasks/get is GetTask
// (each call moves a per-get scripted task one state on), and so on.
// ListTasks pages over every task the server holds (pageSize 1 to 100,
// default 50), newest status first, each as it stands: it does not move a
// scripted task on.
func V10() Option {
	return func(s *Server) { s.v10 = true }
}

// RequireTenant makes a v1.0 server ([V10]) require tenant in every
// request, for every method, and name tenant in its card's interfaces.
// Over JSON-RPC it refuses (-32602) a request whose params.tenant is not
// tenant. Over HTTP+JSON the tenant is the path's prefix, one segment or
// several ("/a2a/rest/projects/p/tasks/t1" for tenant "projects/p"): a
// request under another prefix or none gets a 400 google.rpc.Status
// INVALID_ARGUMENT, reason INVALID_PARAMS (-32602 to the a2a client),
// naming the tenant it found (without RequireTenant, a
// prefixed path names no operation and gets a plain-text 404). A2A v0.3
// has no tenant: [NewServer] panics when RequireTenant is given without
// V10.
func RequireTenant(tenant string) Option {
	return func(s *Server) { s.tenant = tenant }
}

// v10Methods are the methods of A2A v1.0's JSON-RPC binding.
var v10Methods = map[string]bool{
	"SendMessage": true, "SendStreamingMessage": true, "GetTask": true, "ListTasks": true,
	"CancelTask": true, "SubscribeToTask": true, "CreateTaskPushNotificationConfig": true,
	"GetTaskPushNotificationConfig": true, "ListTaskPushNotificationConfigs": true,
	"DeleteTaskPushNotificationConfig": true, "GetExtendedAgentCard": true,
}

// serveV10 answers a parsed JSON-RPC request in A2A v1.0.
func (s *Server) serveV10(w http.ResponseWriter, r *http.Request, env envelope) {
	if rpcErr := s.checkV10(r, env); rpcErr != nil {
		s.writeJSON(w, env.ID, nil, rpcErr)
		return
	}
	switch method := *env.Method; method {
	case "SendStreamingMessage":
		rep, first, rpcErr := s.sendV10(method, env.Params)
		if rpcErr != nil {
			s.writeJSON(w, env.ID, nil, rpcErr)
			return
		}
		s.streamReply(w, env.ID, rep, first)
	case "SubscribeToTask":
		var p struct{ Tenant, ID string }
		rpcErr := decodeStrict(method, env.Params, &p)
		if rpcErr == nil {
			rpcErr = need(method, "id", p.ID)
		}
		if rpcErr != nil {
			s.writeJSON(w, env.ID, nil, rpcErr)
			return
		}
		events, rpcErr := s.subscribeV10(p.ID)
		if rpcErr != nil {
			s.writeJSON(w, env.ID, nil, rpcErr)
			return
		}
		s.writeEvents(w, env.ID, events)
	default:
		result, rpcErr := s.handleV10(method, env.Params)
		s.writeJSON(w, env.ID, result, rpcErr)
	}
}

// subscribeV10 is the stream of SubscribeToTask: the task as it stands,
// then a status update per remaining state; -32001 for an unknown task,
// -32004 for one in a terminal state.
func (s *Server) subscribeV10(id string) ([]any, *a2a.RPCError) {
	t, ok := s.snapshot(id)
	switch {
	case !ok:
		return nil, invalid(codeTaskNotFound, "task not found: %s", id)
	case t.Status.State.Terminal():
		return nil, invalid(codeUnsupported, "task %s is in a terminal state", id)
	}
	return append([]any{t}, s.remaining(id, false)...), nil
}

// checkV10 checks the envelope, the A2A-Version header, the method name,
// the agent selector, the params and the tenant, in that order.
func (s *Server) checkV10(r *http.Request, env envelope) *a2a.RPCError {
	if rpcErr := checkEnvelope(env); rpcErr != nil {
		return rpcErr
	}
	if v := r.Header.Get("A2A-Version"); strings.TrimSpace(v) != a2a.ProtocolV10 {
		if v == "" {
			v = "0.3" // what a missing header means (A2A v1.0, versioning)
		}
		return invalid(codeVersionNotSupported, "A2A version '%s' is not supported", v)
	}
	if method := *env.Method; !v10Methods[method] {
		if strings.Contains(method, "/") {
			return invalid(codeMethodNotFound, "method not found: %s is an A2A v0.3 method; this agent speaks v1.0", method)
		}
		return invalid(codeMethodNotFound, "method not found: %s", method)
	}
	if rpcErr := s.checkSelector(env); rpcErr != nil {
		return rpcErr
	}
	if rpcErr := checkParamsObject(env); rpcErr != nil {
		return rpcErr
	}
	if s.tenant != "" {
		var p struct {
			Tenant string `json:"tenant"`
		}
		if json.Unmarshal(env.Params, &p) != nil || p.Tenant != s.tenant {
			return invalid(codeInvalidParams, "tenant missing or wrong on %s", *env.Method)
		}
	}
	return nil
}

// decodeStrict decodes params into v, refusing members v does not have.
func decodeStrict(method string, params json.RawMessage, v any) *a2a.RPCError {
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalid(codeInvalidParams, "%s: params: %v", method, err)
	}
	return nil
}

// handleV10 dispatches a checked unary request on its method.
func (s *Server) handleV10(method string, params json.RawMessage) (any, *a2a.RPCError) {
	switch method {
	case "SendMessage":
		_, first, rpcErr := s.sendV10(method, params)
		if rpcErr != nil {
			return nil, rpcErr
		}
		return streamResponseOf(first), nil
	case "GetTask":
		var p struct {
			Tenant, ID    string
			HistoryLength *int32In
		}
		if rpcErr := decodeStrict(method, params, &p); rpcErr != nil {
			return nil, rpcErr
		}
		n, rpcErr := p.HistoryLength.count(method, "historyLength")
		if rpcErr == nil {
			rpcErr = need(method, "id", p.ID)
		}
		if rpcErr != nil {
			return nil, rpcErr
		}
		return taskOrNil(s.getTask(p.ID, n))
	case "CancelTask":
		var p struct {
			Tenant, ID string
			Metadata   json.RawMessage
		}
		if rpcErr := decodeStrict(method, params, &p); rpcErr != nil {
			return nil, rpcErr
		}
		if rpcErr := need(method, "id", p.ID); rpcErr != nil {
			return nil, rpcErr
		}
		return taskOrNil(s.cancelTask(p.ID))
	case "ListTasks":
		return s.listTasksV10(params)
	case "GetExtendedAgentCard":
		var p struct{ Tenant string }
		if rpcErr := decodeStrict(method, params, &p); rpcErr != nil {
			return nil, rpcErr
		}
		if s.extendedCard == nil {
			return nil, invalid(codeExtendedCardNotConfigured, "extended agent card is not configured")
		}
		return s.cardV10(s.extendedCard), nil
	}
	return s.pushV10(method, params)
}

// taskOrNil returns t as a v1.0 Task result, or nil with the error.
func taskOrNil(t a2a.Task, rpcErr *a2a.RPCError) (any, *a2a.RPCError) {
	if rpcErr != nil {
		return nil, rpcErr
	}
	return taskV10(t), nil
}

// need refuses a required string member that is empty.
func need(method, name, value string) *a2a.RPCError {
	if value == "" {
		return invalid(codeInvalidParams, "%s: params.%s is missing", method, name)
	}
	return nil
}

// sendV10 checks a SendMessage or SendStreamingMessage request, hands the
// message to accept, stores a push config given with it, and returns the
// first result with the history the configuration asks for.
func (s *Server) sendV10(method string, params json.RawMessage) (Reply, any, *a2a.RPCError) {
	var p struct {
		Tenant        string
		Message       *messageIn
		Configuration *struct {
			AcceptedOutputModes        []string
			TaskPushNotificationConfig *pushConfigV10
			HistoryLength              *int32In
			ReturnImmediately          bool
		}
		Metadata json.RawMessage
	}
	if rpcErr := decodeStrict(method, params, &p); rpcErr != nil {
		return Reply{}, nil, rpcErr
	}
	if p.Message == nil {
		return Reply{}, nil, invalid(codeInvalidParams, "%s: params.message is missing", method)
	}
	m, rpcErr := p.Message.message(method)
	if rpcErr != nil {
		return Reply{}, nil, rpcErr
	}
	var history *int
	var push *pushConfigV10
	if c := p.Configuration; c != nil {
		if history, rpcErr = c.HistoryLength.count(method, "configuration.historyLength"); rpcErr != nil {
			return Reply{}, nil, rpcErr
		}
		if push = c.TaskPushNotificationConfig; push != nil {
			if rpcErr := push.check(method, "configuration.taskPushNotificationConfig."); rpcErr != nil {
				return Reply{}, nil, rpcErr
			}
		}
	}
	var cfg *a2a.PushNotificationConfig
	if push != nil {
		stored := push.stored()
		cfg = &stored
	}
	rep, first, rpcErr := s.accept(m, cfg)
	if t, ok := first.(a2a.Task); ok {
		trimHistory(&t, history)
		first = t
	}
	return rep, first, rpcErr
}

// listTasksV10 serves ListTasks.
func (s *Server) listTasksV10(params json.RawMessage) (any, *a2a.RPCError) {
	page, rpcErr := s.queryTasks("ListTasks", params, v10States, stateNames)
	if rpcErr != nil {
		return nil, rpcErr
	}
	out := listTasksOut{Tasks: []*taskOut{}, NextPageToken: page.next, PageSize: page.size, TotalSize: page.total}
	for _, t := range page.tasks {
		out.Tasks = append(out.Tasks, taskV10(t))
	}
	return out, nil
}

// taskPage is a page of ListTasks.
type taskPage struct {
	tasks       []a2a.Task
	next        string // "" on the last page
	size, total int
}

// queryTasks reads a ListTasks request (params, ProtoJSON; the status
// enum by its name in states or its number in names) and returns its page.
func (s *Server) queryTasks(method string, params json.RawMessage, states map[a2a.TaskState]string, names []string) (taskPage, *a2a.RPCError) {
	var p struct {
		Tenant, ContextID    string
		Status               enumIn
		PageSize             *int32In
		PageToken            string
		HistoryLength        *int32In
		StatusTimestampAfter string
		IncludeArtifacts     *bool
	}
	if rpcErr := decodeStrict(method, params, &p); rpcErr != nil {
		return taskPage{}, rpcErr
	}
	q := taskQuery{contextID: p.ContextID, size: 50, artifacts: p.IncludeArtifacts != nil && *p.IncludeArtifacts}
	if p.PageSize != nil {
		if q.size = int(*p.PageSize); q.size < 1 || q.size > 100 {
			return taskPage{}, invalid(codeInvalidParams, "%s: pageSize %d is not in 1..100", method, q.size)
		}
	}
	var rpcErr *a2a.RPCError
	if q.offset, rpcErr = readPageToken(method, p.PageToken); rpcErr != nil {
		return taskPage{}, rpcErr
	}
	if q.historyLength, rpcErr = p.HistoryLength.count(method, "historyLength"); rpcErr != nil {
		return taskPage{}, rpcErr
	}
	if name := p.Status.name(names); name != "" && name != "TASK_STATE_UNSPECIFIED" {
		for state, n := range states {
			if n == name {
				q.state = state
			}
		}
		if q.state == "" {
			return taskPage{}, invalid(codeInvalidParams, "%s: status %q is not a TaskState", method, name)
		}
	}
	if p.StatusTimestampAfter != "" {
		after, err := time.Parse(time.RFC3339Nano, p.StatusTimestampAfter)
		if err != nil {
			return taskPage{}, invalid(codeInvalidParams, "%s: statusTimestampAfter is not an RFC 3339 time", method)
		}
		q.after = after
	}
	page, total := s.listTasks(q)
	out := taskPage{tasks: page, size: q.size, total: total}
	if end := q.offset + len(page); end < total {
		out.next = pageToken(end)
	}
	return out, nil
}

// pushV10 serves the four push config methods.
func (s *Server) pushV10(method string, params json.RawMessage) (any, *a2a.RPCError) {
	if method == "CreateTaskPushNotificationConfig" {
		var p pushConfigV10
		if rpcErr := decodeStrict(method, params, &p); rpcErr != nil {
			return nil, rpcErr
		}
		rpcErr := need(method, "taskId", p.TaskID)
		if rpcErr == nil {
			rpcErr = p.check(method, "")
		}
		if rpcErr != nil {
			return nil, rpcErr
		}
		cfg, rpcErr := s.setPush(p.TaskID, p.stored())
		if rpcErr != nil {
			return nil, rpcErr
		}
		return pushV10(p.TaskID, cfg), nil
	}
	var p struct {
		Tenant, TaskID, ID string
		PageSize           *int32In
		PageToken          string
	}
	if rpcErr := decodeStrict(method, params, &p); rpcErr != nil {
		return nil, rpcErr
	}
	rpcErr := need(method, "taskId", p.TaskID)
	if rpcErr == nil && method != "ListTaskPushNotificationConfigs" {
		rpcErr = need(method, "id", p.ID)
	}
	if rpcErr != nil {
		return nil, rpcErr
	}
	if (p.PageSize != nil || p.PageToken != "") && method != "ListTaskPushNotificationConfigs" {
		return nil, invalid(codeInvalidParams, "%s: params: pageSize and pageToken are ListTaskPushNotificationConfigs's", method)
	}
	switch method {
	case "GetTaskPushNotificationConfig":
		cfg, rpcErr := s.getPush(p.TaskID, p.ID)
		if rpcErr != nil {
			return nil, rpcErr
		}
		return pushV10(p.TaskID, cfg), nil
	case "DeleteTaskPushNotificationConfig":
		if rpcErr := s.deletePush(p.TaskID, p.ID); rpcErr != nil {
			return nil, rpcErr
		}
		return struct{}{}, nil // google.protobuf.Empty
	}
	configs, next, rpcErr := s.pushPage(method, p.TaskID, p.PageSize, p.PageToken)
	if rpcErr != nil {
		return nil, rpcErr
	}
	out := struct {
		Configs       []pushConfigV10 `json:"configs"`
		NextPageToken string          `json:"nextPageToken,omitempty"`
	}{Configs: []pushConfigV10{}, NextPageToken: next}
	for _, c := range configs {
		out.Configs = append(out.Configs, pushV10(p.TaskID, c))
	}
	return out, nil
}

// pushPage is a page of a task's push configs: pageSize of them (all when
// absent or 0) from pageToken's, and the next page's token ("" on the
// last page).
func (s *Server) pushPage(method, taskID string, pageSize *int32In, token string) ([]a2a.PushNotificationConfig, string, *a2a.RPCError) {
	configs, rpcErr := s.pushConfigs(taskID)
	if rpcErr != nil {
		return nil, "", rpcErr
	}
	offset, rpcErr := readPageToken(method, token)
	if rpcErr != nil {
		return nil, "", rpcErr
	}
	size := len(configs)
	if pageSize != nil && *pageSize > 0 {
		size = int(*pageSize)
	}
	next := ""
	if end := offset + size; end < len(configs) {
		next = pageToken(end)
	}
	return configs[min(offset, len(configs)):min(offset+size, len(configs))], next, nil
}

// check refuses a push config without the members the proto requires:
// url, and authentication's scheme. prefix names where the config is.
func (p *pushConfigV10) check(method, prefix string) *a2a.RPCError {
	rpcErr := need(method, prefix+"url", p.URL)
	if rpcErr == nil && p.Authentication != nil {
		rpcErr = need(method, prefix+"authentication.scheme", p.Authentication.Scheme)
	}
	return rpcErr
}

// pageToken is the token of the page starting at offset.
func pageToken(offset int) string { return fmt.Sprintf("offset-%d", offset) }

// readPageToken reads a pageToken this server gave; "" is the first page.
func readPageToken(method, token string) (int, *a2a.RPCError) {
	if token == "" {
		return 0, nil
	}
	var n int
	if _, err := fmt.Sscanf(token, "offset-%d", &n); err != nil || n < 0 || pageToken(n) != token {
		return 0, invalid(codeInvalidParams, "%s: pageToken %q is not one this server gave", method, token)
	}
	return n, nil
}
