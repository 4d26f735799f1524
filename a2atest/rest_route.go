package a2atest

import (
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The HTTP+JSON (REST) binding's routing and checks, the same for both
// versions: a request's path is matched on its escaped form, segment by
// segment, so an id holding an escaped "/" stays one id; the verb, the
// A2A-Version header, the body and the query are checked before the
// version's handler (rest_v10.go, rest_v03.go) reads the request.

// The paths of the bindings under the server's root.
const (
	jsonrpcPath = "/a2a/jsonrpc"
	restPath    = "/a2a/rest"
)

// HTTPJSON makes the server speak the HTTP+JSON (REST) binding instead of
// JSON-RPC, at [Server.URL] "http://127.0.0.1:port/a2a/rest"; it is
// Bindings(a2a.TransportHTTPJSON). With [V10] it serves A2A v1.0's paths
// (POST /message:send, GET /tasks/{id}, …, each also under a /{tenant}
// prefix) and ProtoJSON bodies; without, A2A v0.3's (/v1/message:send,
// GET /v1/tasks/{id}, GET /v1/card, …) and the v0.3 proto's JSON.
func HTTPJSON() Option {
	return Bindings(a2a.TransportHTTPJSON)
}

// Bindings makes the server serve each of bindings ([a2a.TransportJSONRPC],
// [a2a.TransportHTTPJSON]) at its own path: JSON-RPC at /a2a/jsonrpc,
// HTTP+JSON under /a2a/rest ([Server.Endpoint]). [Server.URL] is the
// first's, and the server's card lists them in this order: a v1.0 card
// ([V10]) as its supportedInterfaces (version 1.0, the [RequireTenant]
// tenant), a v0.3 card with the first as url and preferredTransport and
// all of them as additionalInterfaces. Both bindings share one task
// store, so a task sent over one can be read over the other. Without
// Bindings the server speaks JSON-RPC alone.
func Bindings(bindings ...string) Option {
	return func(s *Server) { s.bindings, s.ownCard = append([]string{}, bindings...), true }
}

// checkBindings panics on bindings the server does not serve or options
// that contradict them; nil bindings are JSON-RPC.
func (s *Server) checkBindings() {
	if s.bindings == nil {
		s.bindings = []string{a2a.TransportJSONRPC}
	}
	if len(s.bindings) == 0 {
		panic("a2atest: Bindings needs at least one binding")
	}
	for i, b := range s.bindings {
		if b != a2a.TransportJSONRPC && b != a2a.TransportHTTPJSON {
			panic("a2atest: Bindings: the server serves JSONRPC and HTTP+JSON, not " + b)
		}
		if slices.Contains(s.bindings[:i], b) {
			panic("a2atest: Bindings: " + b + " given twice")
		}
	}
	if s.selectorKey != "" && !s.serves(a2a.TransportJSONRPC) {
		panic("a2atest: RequireAgentID and RequireAgentCode check JSON-RPC requests; the server serves no JSON-RPC")
	}
}

// serves reports whether the server serves binding.
func (s *Server) serves(binding string) bool { return slices.Contains(s.bindings, binding) }

// Endpoint is the URL at which the server serves binding
// ([a2a.TransportJSONRPC] or [a2a.TransportHTTPJSON]), the URL an
// AgentInterface names; "" for a binding it does not serve.
func (s *Server) Endpoint(binding string) string {
	switch {
	case !s.serves(binding):
		return ""
	case binding == a2a.TransportHTTPJSON:
		return s.root + restPath
	}
	return s.root + jsonrpcPath
}

// BaseURL is the server's root URL, "http://127.0.0.1:port": where it
// serves its card, the base URL [a2a.ResolveAgentCard] takes, whatever its
// bindings.
func (s *Server) BaseURL() string { return s.root }

// isREST reports whether r is for the HTTP+JSON binding.
func (s *Server) isREST(r *http.Request) bool {
	p := r.URL.Path
	return s.serves(a2a.TransportHTTPJSON) && (p == restPath || strings.HasPrefix(p, restPath+"/"))
}

// restRoute is what an HTTP+JSON request's path names.
type restRoute struct {
	// verbs maps each HTTP method the path takes to its operation, named
	// as A2A v1.0's method; nil when the path names none.
	verbs map[string]string
	// tenant is a v1.0 path's tenant: the segments before the
	// operation's, each unescaped, joined with "/"; "" for none.
	tenant string
	// taskID and configID are the path's ids, unescaped.
	taskID, configID string
}

// The operations of each path shape, by HTTP method.
var (
	sendVerbs         = map[string]string{http.MethodPost: "SendMessage"}
	streamVerbs       = map[string]string{http.MethodPost: "SendStreamingMessage"}
	listVerbs         = map[string]string{http.MethodGet: "ListTasks"}
	taskVerbs         = map[string]string{http.MethodGet: "GetTask"}
	cancelVerbs       = map[string]string{http.MethodPost: "CancelTask"}
	subscribeVerbs    = map[string]string{http.MethodPost: "SubscribeToTask", http.MethodGet: "SubscribeToTask"}
	pushConfigsVerbs  = map[string]string{http.MethodPost: "CreateTaskPushNotificationConfig", http.MethodGet: "ListTaskPushNotificationConfigs"}
	pushConfigVerbs   = map[string]string{http.MethodGet: "GetTaskPushNotificationConfig", http.MethodDelete: "DeleteTaskPushNotificationConfig"}
	extendedCardVerbs = map[string]string{http.MethodGet: "GetExtendedAgentCard"}
)

// routeREST matches r's path under the HTTP+JSON base: v1.0's operation
// paths, after a tenant prefix when the server has one (RequireTenant;
// without, a prefix names nothing, as on a server without tenant routes),
// or v0.3's after "/v1" (no tenant).
func (s *Server) routeREST(r *http.Request) restRoute {
	tail := strings.TrimPrefix(strings.TrimPrefix(r.URL.EscapedPath(), restPath), "/")
	segs := strings.Split(tail, "/")
	cardSeg := "extendedAgentCard"
	if !s.v10 {
		if segs[0] != "v1" {
			return restRoute{}
		}
		segs, cardSeg = segs[1:], "card"
	}
	rt, prefix := matchREST(segs, cardSeg)
	if rt.verbs == nil || (prefix > 0 && s.tenant == "") {
		return restRoute{}
	}
	tenant := make([]string, prefix)
	for i, seg := range segs[:prefix] {
		t, err := url.PathUnescape(seg)
		if err != nil || t == "" {
			return restRoute{}
		}
		tenant[i] = t
	}
	rt.tenant = strings.Join(tenant, "/")
	return rt
}

// matchREST matches the escaped segments of a path on the operations'
// shapes, from its end, and returns the route (nil verbs for none) and how
// many segments come before the operation's (the tenant's). An id is one
// segment, unescaped; ":cancel" and ":subscribe" end a task's segment
// only where the colon is not escaped.
func matchREST(segs []string, cardSeg string) (restRoute, int) {
	n := len(segs)
	id := func(seg string) (string, bool) {
		v, err := url.PathUnescape(seg)
		return v, err == nil && v != ""
	}
	last := segs[n-1]
	switch {
	case n >= 4 && segs[n-4] == "tasks" && segs[n-2] == "pushNotificationConfigs":
		taskID, ok1 := id(segs[n-3])
		configID, ok2 := id(last)
		if ok1 && ok2 {
			return restRoute{verbs: pushConfigVerbs, taskID: taskID, configID: configID}, n - 4
		}
	case n >= 3 && segs[n-3] == "tasks" && last == "pushNotificationConfigs":
		if taskID, ok := id(segs[n-2]); ok {
			return restRoute{verbs: pushConfigsVerbs, taskID: taskID}, n - 3
		}
	case n >= 2 && segs[n-2] == "tasks":
		verbs := taskVerbs
		if head, ok := strings.CutSuffix(last, ":cancel"); ok {
			last, verbs = head, cancelVerbs
		} else if head, ok := strings.CutSuffix(last, ":subscribe"); ok {
			last, verbs = head, subscribeVerbs
		}
		if taskID, ok := id(last); ok {
			return restRoute{verbs: verbs, taskID: taskID}, n - 2
		}
	case last == "message:send":
		return restRoute{verbs: sendVerbs}, n - 1
	case last == "message:stream":
		return restRoute{verbs: streamVerbs}, n - 1
	case last == "tasks":
		return restRoute{verbs: listVerbs}, n - 1
	case last == cardSeg:
		return restRoute{verbs: extendedCardVerbs}, n - 1
	}
	return restRoute{}, 0
}

// restQuery are the query parameters each operation takes (A2A v1.0
// §11.5: the request's fields a GET carries, in camelCase).
var restQuery = map[string][]string{
	"GetTask":                         {"historyLength"},
	"ListTasks":                       {"contextId", "status", "pageSize", "pageToken", "historyLength", "statusTimestampAfter", "includeArtifacts"},
	"ListTaskPushNotificationConfigs": {"pageSize", "pageToken"},
}

// restBody says whether an operation's request has a body: "required",
// "optional" (cancel: its metadata) or none.
var restBody = map[string]string{
	"SendMessage": "required", "SendStreamingMessage": "required",
	"CreateTaskPushNotificationConfig": "required", "CancelTask": "optional",
}

// serveREST answers an HTTP+JSON request whose credentials were checked:
// 404 (plain text) for a path that names no operation, 405 with Allow for
// a method the path does not take, then the checks every operation gets,
// then the version's handler.
func (s *Server) serveREST(w http.ResponseWriter, r *http.Request, rt restRoute, body []byte) {
	if rt.verbs == nil {
		http.NotFound(w, r)
		return
	}
	method, ok := rt.verbs[r.Method]
	if !ok {
		var allow []string
		for verb := range rt.verbs {
			allow = append(allow, verb)
		}
		slices.Sort(allow)
		w.Header().Set("Allow", strings.Join(allow, ", "))
		http.Error(w, r.Method+" is not allowed here", http.StatusMethodNotAllowed)
		return
	}
	query, rpcErr := s.checkREST(r, rt, method, body)
	if rpcErr != nil {
		writeStatus(w, rpcErr)
		return
	}
	if s.v10 {
		s.serveRESTV10(w, rt, method, query, body)
		return
	}
	s.serveRESTV03(w, rt, method, query, body)
}

// checkREST checks what every HTTP+JSON request of method must get right
// and returns its query parameters, each given once: the A2A-Version
// header (v1.0: "1.0"; v0.3: none or "0.3"), the tenant (RequireTenant),
// the extensions the server requires (RequireExtension),
// a JSON Content-Type on a body, no body where the operation takes none,
// no query parameter it does not take.
func (s *Server) checkREST(r *http.Request, rt restRoute, method string, body []byte) (map[string]string, *a2a.RPCError) {
	v := strings.TrimSpace(r.Header.Get("A2A-Version"))
	switch {
	case s.v10 && v != a2a.ProtocolV10:
		if v == "" {
			v = "0.3" // what a missing header means (A2A v1.0, versioning)
		}
		return nil, invalid(codeVersionNotSupported, "A2A version '%s' is not supported", v)
	case !s.v10 && v != "" && v != "0.3":
		return nil, invalid(codeVersionNotSupported, "A2A version '%s' is not supported: this agent speaks v0.3 under /v1", v)
	}
	if s.tenant != "" && rt.tenant != s.tenant {
		return nil, invalid(codeInvalidParams, "tenant missing or wrong on %s: the path's is %q", method, rt.tenant)
	}
	if e := s.checkExtensions(r); e != nil {
		return nil, e
	}
	switch {
	case len(body) > 0 && restBody[method] == "":
		return nil, invalid(codeInvalidRequest, "%s %s takes no body", r.Method, r.URL.EscapedPath())
	case len(body) > 0 && !isJSONType(r.Header.Get("Content-Type")):
		return nil, invalid(codeContentType, "Content-Type %q is not JSON", r.Header.Get("Content-Type"))
	case len(body) == 0 && restBody[method] == "required":
		return nil, invalid(codeInvalidRequest, "%s needs a body", method)
	}
	if len(body) > 0 && !json.Valid(body) {
		return nil, invalid(codeParse, "the body is not JSON")
	}
	params, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, invalid(codeInvalidParams, "%s: the query is not percent-encoded pairs: %v", method, err)
	}
	query := map[string]string{}
	for name, values := range params {
		switch {
		case !slices.Contains(restQuery[method], name):
			return nil, invalid(codeInvalidParams, "%s takes no query parameter %q", method, name)
		case len(values) > 1:
			return nil, invalid(codeInvalidParams, "query parameter %q is given %d times", name, len(values))
		}
		query[name] = values[0]
	}
	return query, nil
}

// isJSONType reports whether a Content-Type is JSON: application/json or
// an application/*+json type such as application/a2a+json.
func isJSONType(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json"))
}

// restStatus is the HTTP status and google.rpc code name of a JSON-RPC
// code's error (A2A v1.0.1 §5.4, §11.6; for the standard codes, what the
// official servers send).
var restStatus = map[int]struct {
	http int
	name string
}{
	codeTaskNotFound: {404, "NOT_FOUND"}, codeNotCancelable: {400, "FAILED_PRECONDITION"},
	-32003: {400, "FAILED_PRECONDITION"}, codeUnsupported: {400, "FAILED_PRECONDITION"},
	codeContentType: {400, "INVALID_ARGUMENT"}, -32006: {500, "INTERNAL"},
	codeExtendedCardNotConfigured: {400, "FAILED_PRECONDITION"}, -32008: {400, "FAILED_PRECONDITION"},
	codeVersionNotSupported: {400, "FAILED_PRECONDITION"},
	codeParse:               {400, "INVALID_ARGUMENT"}, codeInvalidRequest: {400, "INVALID_ARGUMENT"},
	codeInvalidParams: {400, "INVALID_ARGUMENT"}, codeMethodNotFound: {404, "NOT_FOUND"},
	-32603: {500, "INTERNAL"},
}

// writeStatus writes an error as an HTTP+JSON server does (A2A v1.0
// §11.6): a google.rpc.Status {"error": {code, status, message,
// details}} with the HTTP status of its code (500 INTERNAL for a code
// without one). Its details are rpcErr.Data when that is a JSON array (a
// Reply.Error's own details), else the ErrorInfo of its code (reason,
// domain "a2a-protocol.org"), with other Data as the metadata "data".
func writeStatus(w http.ResponseWriter, rpcErr *a2a.RPCError) {
	st, ok := restStatus[rpcErr.Code]
	if !ok {
		st.http, st.name = 500, "INTERNAL"
	}
	var details any = []any{}
	data := strings.TrimSpace(string(rpcErr.Data))
	switch {
	case strings.HasPrefix(data, "["):
		details = rpcErr.Data
	case errorDetails(rpcErr.Code) != nil:
		info := errorDetails(rpcErr.Code)
		if data != "" {
			info[0].Metadata = map[string]string{"data": data}
		}
		details = info
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(st.http)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"code": st.http, "status": st.name, "message": rpcErr.Message, "details": details}})
}

// writeResult writes a 200 reply whose body is v in JSON.
func writeResult(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// withPath returns a request body (a JSON object, "" for {}) with the
// members the path carries set to its values: each given in the body too
// must be the path's, as a server that reads both would check.
func withPath(method string, body []byte, fields map[string]string) (json.RawMessage, *a2a.RPCError) {
	obj := map[string]json.RawMessage{}
	if len(body) > 0 {
		if err := json.Unmarshal(body, &obj); err != nil {
			return nil, invalid(codeInvalidParams, "%s: the body is not a JSON object", method)
		}
	}
	for name, value := range fields {
		if raw, ok := obj[name]; ok {
			var got string
			if json.Unmarshal(raw, &got) != nil || got != value {
				return nil, invalid(codeInvalidParams, "%s: %s %s in the body is not the path's %q", method, name, raw, value)
			}
		}
		obj[name], _ = json.Marshal(value)
	}
	out, _ := json.Marshal(obj)
	return out, nil
}
