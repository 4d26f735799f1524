package a2atest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// restReply is an HTTP reply as a test reads it.
type restReply struct {
	status int
	header http.Header
	body   string
}

// restDo sends one HTTP request with plain net/http: body as given (with
// Content-Type application/json unless header names one; "" for none),
// header's members set.
func restDo(t *testing.T, method, url, body string, header map[string]string) restReply {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
		if v == "" {
			req.Header.Del(k)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	http.DefaultClient.CloseIdleConnections()
	return restReply{resp.StatusCode, resp.Header, string(b)}
}

// rpcStatus is a google.rpc.Status error body as a test reads it.
type rpcStatus struct {
	Error struct {
		Code    int
		Status  string
		Message string
		Details []struct {
			Type     string `json:"@type"`
			Reason   string
			Domain   string
			Metadata map[string]string
		}
	}
}

// reason is the reply's HTTP status, google.rpc status and ErrorInfo
// reason as "404 NOT_FOUND TASK_NOT_FOUND"; its body when it is not a
// google.rpc.Status.
func (r restReply) reason() string {
	var st rpcStatus
	if json.Unmarshal([]byte(r.body), &st) != nil || st.Error.Code == 0 {
		return r.body
	}
	reason := ""
	if len(st.Error.Details) > 0 {
		reason = " " + st.Error.Details[0].Reason
	}
	return strconv.Itoa(st.Error.Code) + " " + st.Error.Status + reason
}

var v10REST = map[string]string{"A2A-Version": "1.0"}

// TestRESTRouteChecks: the checks every HTTP+JSON request gets, and the
// errors a strict server sends for each, by status and reason.
func TestRESTRouteChecks(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.HTTPJSON(), a2atest.RequireAPIKey("k"), a2atest.OnSend(a2atest.Caoliao))
	defer srv.Close()
	auth := map[string]string{"A2A-Version": "1.0", "X-API-Key": "k"}
	with := func(extra map[string]string) map[string]string {
		h := map[string]string{}
		for k, v := range auth {
			h[k] = v
		}
		for k, v := range extra {
			h[k] = v
		}
		return h
	}
	send := `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`
	tests := []struct {
		name, verb, path, body string
		header                 map[string]string
		want                   string // reason(), or the plain body's start
		allow                  string
	}{
		{"send", "POST", "/message:send", send, auth, "", ""},
		{"a2a+json", "POST", "/message:send", send, with(map[string]string{"Content-Type": "application/a2a+json; charset=utf-8"}), "", ""},
		{"no api key", "POST", "/message:send", send, v10REST, "X-Api-Key missing or wrong", ""},
		{"unknown route", "GET", "/nothing/here/at/all/x", "", auth, "404 page not found", ""},
		{"unknown verb suffix", "POST", "/message:publish", send, auth, "404 page not found", ""},
		{"v0.3 path on v1.0", "POST", "/v1/message:send", send, auth, "404 page not found", ""}, // a tenant "v1", and the server has none
		{"wrong verb", "DELETE", "/tasks/task-1", "", auth, "DELETE is not allowed here", "GET"},
		{"wrong verb push", "PUT", "/tasks/task-1/pushNotificationConfigs", "", auth, "PUT is not allowed here", "GET, POST"},
		{"GET send", "GET", "/message:send", "", auth, "GET is not allowed here", "POST"},
		{"no version", "GET", "/tasks/task-1", "", map[string]string{"X-API-Key": "k"}, "400 FAILED_PRECONDITION VERSION_NOT_SUPPORTED", ""},
		{"version 0.3", "GET", "/tasks/task-1", "", with(map[string]string{"A2A-Version": "0.3"}), "400 FAILED_PRECONDITION VERSION_NOT_SUPPORTED", ""},
		{"body on GET", "GET", "/tasks/task-1", `{"id":"task-1"}`, auth, "400 INVALID_ARGUMENT INVALID_REQUEST", ""},
		{"body on subscribe", "POST", "/tasks/task-1:subscribe", `{}`, auth, "400 INVALID_ARGUMENT INVALID_REQUEST", ""},
		{"text body", "POST", "/message:send", send, with(map[string]string{"Content-Type": "text/plain"}), "400 INVALID_ARGUMENT CONTENT_TYPE_NOT_SUPPORTED", ""},
		{"no body", "POST", "/message:send", "", auth, "400 INVALID_ARGUMENT INVALID_REQUEST", ""},
		{"not JSON", "POST", "/message:send", `{"message":`, auth, "400 INVALID_ARGUMENT PARSE_ERROR", ""},
		{"v0.3 part", "POST", "/message:send", `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"kind":"text","text":"hi"}]}}`, auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
		{"v0.3 content", "POST", "/message:send", `{"message":{"messageId":"m1","role":"ROLE_USER","content":[{"text":"hi"}]}}`, auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
		{"tenant in body only", "POST", "/message:send", `{"tenant":"t1","message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`, auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
		{"query on send", "POST", "/message:send?x=1", send, auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
		{"old filter name", "GET", "/tasks?lastUpdatedAfter=2026-01-02T03:04:05Z", "", auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
		{"repeated query", "GET", "/tasks?pageSize=1&pageSize=2", "", auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
		{"malformed query", "GET", "/tasks?pageSize=1&contextId=%zz", "", auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
		{"bad bool", "GET", "/tasks?includeArtifacts=yes", "", auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
		{"bad pageSize", "GET", "/tasks?pageSize=500", "", auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
		{"negative history", "GET", "/tasks/task-1?historyLength=-1", "", auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
		{"escaped slash is one id", "GET", "/tasks/a%2Fb", "", auth, "404 NOT_FOUND TASK_NOT_FOUND", ""},
		{"raw slash is two segments", "GET", "/tasks/a/b", "", auth, "404 page not found", ""},
		{"escaped colon is the id's", "POST", "/tasks/task-1%3Acancel", "", auth, "POST is not allowed here", "GET"}, // GetTask of "task-1:cancel"
		{"empty id", "GET", "/tasks/", "", auth, "404 page not found", ""},
		{"cancel a completed task", "POST", "/tasks/task-1:cancel", "", auth, "400 FAILED_PRECONDITION TASK_NOT_CANCELABLE", ""},
		{"cancel id in body differs", "POST", "/tasks/task-1:cancel", `{"id":"task-2"}`, auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
		{"subscribe a completed task", "GET", "/tasks/task-1:subscribe", "", auth, "400 FAILED_PRECONDITION UNSUPPORTED_OPERATION", ""},
		{"no extended card", "GET", "/extendedAgentCard", "", auth, "400 FAILED_PRECONDITION EXTENDED_AGENT_CARD_NOT_CONFIGURED", ""},
		{"missing push config", "GET", "/tasks/task-1/pushNotificationConfigs/nope", "", auth, "400 INVALID_ARGUMENT INVALID_PARAMS", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := restDo(t, tt.verb, srv.URL+tt.path, tt.body, tt.header)
			if tt.want == "" {
				if got.status != 200 || !strings.Contains(got.body, `"task"`) {
					t.Errorf("%d %s, want 200 and a task", got.status, got.body)
				}
				return
			}
			if r := got.reason(); !strings.HasPrefix(r, tt.want) {
				t.Errorf("got %d %q, want %q", got.status, r, tt.want)
			}
			if a := got.header.Get("Allow"); tt.allow != "" && a != tt.allow {
				t.Errorf("Allow %q, want %q", a, tt.allow)
			}
		})
	}
}

// TestRESTErrorBody: an error is a google.rpc.Status with the HTTP status
// of its code and an ErrorInfo; a Reply.Error keeps its message and its
// data (details as given when they are an array).
func TestRESTErrorBody(t *testing.T) {
	replies := map[string]*a2a.RPCError{
		"not found": {Code: -32001, Message: "gone"},
		"custom":    {Code: -32050, Message: "custom", Data: json.RawMessage(`{"x":1}`)},
		"details":   {Code: -32004, Message: "no", Data: json.RawMessage(`[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"MINE","domain":"example.com"}]`)},
		"with data": {Code: -32002, Message: "busy", Data: json.RawMessage(`"why"`)},
	}
	srv := a2atest.NewServer(a2atest.V10(), a2atest.HTTPJSON(), a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		return a2atest.Reply{Error: replies[m.Parts.Text()]}
	}))
	defer srv.Close()
	want := map[string]string{
		"not found": `{"error":{"code":404,"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","domain":"a2a-protocol.org","reason":"TASK_NOT_FOUND"}],"message":"gone","status":"NOT_FOUND"}}`,
		"custom":    `{"error":{"code":500,"details":[],"message":"custom","status":"INTERNAL"}}`,
		"details":   `{"error":{"code":400,"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","domain":"example.com","reason":"MINE"}],"message":"no","status":"FAILED_PRECONDITION"}}`,
		"with data": `{"error":{"code":400,"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","domain":"a2a-protocol.org","metadata":{"data":"\"why\""},"reason":"TASK_NOT_CANCELABLE"}],"message":"busy","status":"FAILED_PRECONDITION"}}`,
	}
	for name, w := range want {
		for _, op := range []string{"/message:send", "/message:stream"} {
			got := restDo(t, "POST", srv.URL+op, `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"`+name+`"}]}}`, v10REST)
			var g, wv any
			json.Unmarshal([]byte(got.body), &g)
			json.Unmarshal([]byte(w), &wv)
			if diff := cmp.Diff(wv, g); diff != "" || got.header.Get("Content-Type") != "application/json" {
				t.Errorf("%s %s: %d %s (-want +got):\n%s", name, op, got.status, got.header.Get("Content-Type"), diff)
			}
		}
	}
}

// TestRESTTenant: with RequireTenant, the tenant is the path's prefix, a
// multi-segment one split at "/" or escaped as one segment; a request
// without it, or with another, is refused.
func TestRESTTenant(t *testing.T) {
	const tenant = "projects/p 1/locations/l"
	srv := a2atest.NewServer(a2atest.V10(), a2atest.HTTPJSON(), a2atest.RequireTenant(tenant))
	defer srv.Close()
	send := `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`
	tests := []struct{ path, want string }{
		{"/projects/p%201/locations/l/message:send", "200"},
		{"/projects%2Fp%201%2Flocations%2Fl/message:send", "200"},
		{"/projects/p%201/locations/l/tasks/task-1", "200"},
		{"/projects/p%201/locations/l/tasks", "200"},
		{"/projects/p%201/locations/l/tasks/task-1/pushNotificationConfigs", "200"},
		{"/projects/p%201/locations/l/extendedAgentCard", "400 FAILED_PRECONDITION EXTENDED_AGENT_CARD_NOT_CONFIGURED"},
		{"/message:send", "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"/tasks/task-1", "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"/projects/p%201/locations/other/tasks/task-1", "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"/projects/p%201/locations/l/tasks/nope", "404 NOT_FOUND TASK_NOT_FOUND"},
	}
	for _, tt := range tests {
		verb, body := "GET", ""
		if strings.HasSuffix(tt.path, ":send") {
			verb, body = "POST", send
		}
		got := restDo(t, verb, srv.URL+tt.path, body, v10REST)
		if r := got.reason(); strconv.Itoa(got.status) != tt.want && r != tt.want {
			t.Errorf("%s %s: %d %s, want %s", verb, tt.path, got.status, r, tt.want)
		}
	}
	tenantBody := `{"tenant":"` + tenant + `","message":{"messageId":"m2","role":"ROLE_USER","parts":[{"text":"hi"}]}}`
	if got := restDo(t, "POST", srv.URL+"/projects/p%201/locations/l/message:send", tenantBody, v10REST); got.status != 200 {
		t.Errorf("the path's tenant in the body too: %d %s", got.status, got.body)
	}
}

// TestRESTRequests: Requests records an HTTP+JSON request's operation,
// HTTP method, escaped path and raw query, so a client test can snapshot
// what it sent.
func TestRESTRequests(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.HTTPJSON())
	defer srv.Close()
	restDo(t, "GET", srv.URL+"/tasks/a%2Fb?historyLength=2", "", v10REST)
	restDo(t, "DELETE", srv.URL+"/tasks/a/pushNotificationConfigs/c%3F", "", v10REST)
	restDo(t, "PATCH", srv.URL+"/tasks/a", "", v10REST)
	restDo(t, "GET", srv.URL+"/nowhere", "", v10REST)
	var got []a2atest.Request
	for _, r := range srv.Requests() {
		r.Header = nil
		got = append(got, r)
	}
	want := []a2atest.Request{
		{Method: "GetTask", HTTPMethod: "GET", Path: "/a2a/rest/tasks/a%2Fb", Query: "historyLength=2", Body: []byte{}},
		{Method: "DeleteTaskPushNotificationConfig", HTTPMethod: "DELETE", Path: "/a2a/rest/tasks/a/pushNotificationConfigs/c%3F", Body: []byte{}},
		{HTTPMethod: "PATCH", Path: "/a2a/rest/tasks/a", Body: []byte{}},
		{HTTPMethod: "GET", Path: "/a2a/rest/nowhere", Body: []byte{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Requests (-want +got):\n%s", diff)
	}
}

// TestBindingsPanics: options that contradict the bindings are a bug in
// the test, reported by NewServer.
func TestBindingsPanics(t *testing.T) {
	for name, opts := range map[string][]a2atest.Option{
		"none":     {a2atest.Bindings()},
		"gRPC":     {a2atest.Bindings(a2a.TransportGRPC)},
		"twice":    {a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportHTTPJSON)},
		"selector": {a2atest.HTTPJSON(), a2atest.RequireAgentID("a")},
		"tenant":   {a2atest.HTTPJSON(), a2atest.RequireTenant("t")},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: NewServer did not panic", name)
				}
			}()
			a2atest.NewServer(opts...).Close()
		}()
	}
}

// TestBindingsCard: a server made with Bindings serves each binding at
// its endpoint, one task store behind both, and a card listing them in
// the order given.
func TestBindingsCard(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC), a2atest.RequireTenant("t1"))
	defer srv.Close()
	rest, rpc := srv.Endpoint(a2a.TransportHTTPJSON), srv.Endpoint(a2a.TransportJSONRPC)
	if srv.URL != rest || rest != srv.BaseURL()+"/a2a/rest" || rpc != srv.BaseURL()+"/a2a/jsonrpc" || srv.Endpoint(a2a.TransportGRPC) != "" {
		t.Errorf("URL %s, endpoints %s %s", srv.URL, rest, rpc)
	}
	var card struct{ SupportedInterfaces []a2a.AgentInterface }
	json.Unmarshal([]byte(getCard(t, srv)), &card)
	want := []a2a.AgentInterface{
		{URL: rest, ProtocolBinding: "HTTP+JSON", ProtocolVersion: "1.0", Tenant: "t1"},
		{URL: rpc, ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "t1"},
	}
	if diff := cmp.Diff(want, card.SupportedInterfaces); diff != "" {
		t.Errorf("supportedInterfaces (-want +got):\n%s", diff)
	}
	sent := restDo(t, "POST", rest+"/t1/message:send", `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`, v10REST)
	got := postRPC(t, rpc, `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"tenant":"t1","id":"task-1"}}`, v10Header)
	if sent.status != 200 || got.Error != nil || pick(t, string(got.Result), "id") != "task-1" {
		t.Errorf("a task sent over HTTP+JSON, read over JSON-RPC: %s; %s %+v", sent.body, got.Result, got.Error)
	}

	for _, tt := range []struct {
		bindings   []string
		url, pref  string
		additional []a2a.AgentInterface
	}{
		{[]string{a2a.TransportHTTPJSON}, "/a2a/rest", "HTTP+JSON", nil},
		{[]string{a2a.TransportJSONRPC, a2a.TransportHTTPJSON}, "/a2a/jsonrpc", "", []a2a.AgentInterface{
			{URL: "/a2a/jsonrpc", Transport: "JSONRPC"}, {URL: "/a2a/rest", Transport: "HTTP+JSON"}}},
	} {
		srv := a2atest.NewServer(a2atest.Bindings(tt.bindings...))
		var card a2a.AgentCard
		if err := json.Unmarshal([]byte(getCard(t, srv)), &card); err != nil {
			t.Fatal(err)
		}
		for i := range tt.additional {
			tt.additional[i].URL = srv.BaseURL() + tt.additional[i].URL
		}
		if card.URL != srv.BaseURL()+tt.url || card.PreferredTransport != tt.pref || card.ProtocolVersion != "0.3.0" ||
			!cmp.Equal(tt.additional, card.AdditionalInterfaces) {
			t.Errorf("v0.3 card of %v: url %s, preferredTransport %q, version %q, additionalInterfaces %+v", tt.bindings,
				card.URL, card.PreferredTransport, card.ProtocolVersion, card.AdditionalInterfaces)
		}
		srv.Close()
	}
}
