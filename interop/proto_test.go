package interop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	a2apb "github.com/a2aproject/a2a-go/v2/a2apb/v1"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// A2A v1.0 has no JSON schema: the proto (specification/a2a.proto) in
// ProtoJSON is the normative form. The requests the client sends are
// checked against the generated types of that proto which a2a-go v2
// ships (package a2apb, proto package lf.a2a.v1).

// v10Params maps each v1.0 JSON-RPC method to a new message of the proto
// type its params must be.
var v10Params = map[string]func() proto.Message{
	"SendMessage":                      func() proto.Message { return &a2apb.SendMessageRequest{} },
	"SendStreamingMessage":             func() proto.Message { return &a2apb.SendMessageRequest{} },
	"GetTask":                          func() proto.Message { return &a2apb.GetTaskRequest{} },
	"ListTasks":                        func() proto.Message { return &a2apb.ListTasksRequest{} },
	"CancelTask":                       func() proto.Message { return &a2apb.CancelTaskRequest{} },
	"SubscribeToTask":                  func() proto.Message { return &a2apb.SubscribeToTaskRequest{} },
	"CreateTaskPushNotificationConfig": func() proto.Message { return &a2apb.TaskPushNotificationConfig{} },
	"GetTaskPushNotificationConfig":    func() proto.Message { return &a2apb.GetTaskPushNotificationConfigRequest{} },
	"ListTaskPushNotificationConfigs":  func() proto.Message { return &a2apb.ListTaskPushNotificationConfigsRequest{} },
	"DeleteTaskPushNotificationConfig": func() proto.Message { return &a2apb.DeleteTaskPushNotificationConfigRequest{} },
	"GetExtendedAgentCard":             func() proto.Message { return &a2apb.GetExtendedAgentCardRequest{} },
}

// v10Streaming are the methods answered with an event stream.
var v10Streaming = map[string]bool{"SendStreamingMessage": true, "SubscribeToTask": true}

// exchange is one request as the client sent it.
type exchange struct {
	method, path string // HTTP method and URL path
	header       http.Header
	body         []byte
}

// v10Recorder is an http.RoundTripper that keeps a copy of every request,
// headers included (recorder in matrix_test.go keeps bodies only).
type v10Recorder struct {
	mu   sync.Mutex
	reqs []exchange
	next http.RoundTripper
}

func (r *v10Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	ex := exchange{method: req.Method, path: req.URL.Path, header: req.Header.Clone()}
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		ex.body = b
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	r.mu.Lock()
	r.reqs = append(r.reqs, ex)
	r.mu.Unlock()
	return r.next.RoundTrip(req)
}

func (r *v10Recorder) captured() []exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.reqs)
}

// validateV10 fails t for every request that checkV10Request refuses,
// naming the request, its method and the reason. It returns the JSON-RPC
// methods of the requests that passed.
func validateV10(t testing.TB, reqs []exchange) (valid []string) {
	t.Helper()
	for i, ex := range reqs {
		method, err := checkV10Request(ex)
		if err != nil {
			t.Errorf("request %d (%s %s, method %q) is not a valid A2A v1.0 request: %v\n%s", i, ex.method, ex.path, method, err, ex.body)
			continue
		}
		if method != "" {
			valid = append(valid, method)
		}
	}
	return valid
}

// checkV10Request checks one request: the A2A-Version header is "1.0" on
// every request (the card GET too); a POST is application/json, asks for
// text/event-stream on the streaming methods, and has a JSON-RPC 2.0
// envelope (jsonrpc "2.0", a string or integer id, a known method,
// params an object, no other member) whose params decode with protojson,
// unknown fields refused, into the method's proto request message, with
// every field the proto marks REQUIRED set. It returns the JSON-RPC method
// ("" for a GET) and the first fault.
func checkV10Request(ex exchange) (string, error) {
	if v := ex.header.Values("A2A-Version"); len(v) != 1 || v[0] != "1.0" {
		return "", fmt.Errorf("A2A-Version header %q, want exactly \"1.0\"", v)
	}
	if ex.method == http.MethodGet {
		if len(ex.body) != 0 {
			return "", fmt.Errorf("GET with a body")
		}
		return "", nil
	}
	if ex.method != http.MethodPost {
		return "", fmt.Errorf("HTTP method %s, want POST", ex.method)
	}
	if mt, _, err := mime.ParseMediaType(ex.header.Get("Content-Type")); err != nil || mt != "application/json" {
		return "", fmt.Errorf("Content-Type %q, want application/json", ex.header.Get("Content-Type"))
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(ex.body, &env); err != nil {
		return "", fmt.Errorf("body is not a JSON object: %v", err)
	}
	var method, version string
	if err := json.Unmarshal(env["method"], &method); err != nil {
		return "", fmt.Errorf(`"method" is not a string: %s`, env["method"])
	}
	if err := json.Unmarshal(env["jsonrpc"], &version); err != nil || version != "2.0" {
		return method, fmt.Errorf(`"jsonrpc" is %s, want "2.0"`, env["jsonrpc"])
	}
	if err := checkID(env["id"]); err != nil {
		return method, err
	}
	for name := range env {
		if name != "jsonrpc" && name != "id" && name != "method" && name != "params" {
			return method, fmt.Errorf("envelope member %q is not JSON-RPC 2.0's", name)
		}
	}
	newParams, ok := v10Params[method]
	if !ok {
		return method, fmt.Errorf("method %q is not an A2A v1.0 JSON-RPC method", method)
	}
	if accept := ex.header.Get("Accept"); v10Streaming[method] != strings.Contains(accept, "text/event-stream") {
		return method, fmt.Errorf("Accept %q on a method whose reply is %s", accept, map[bool]string{true: "an event stream", false: "JSON"}[v10Streaming[method]])
	}
	params, ok := env["params"]
	if !ok || len(bytes.TrimSpace(params)) == 0 || bytes.TrimSpace(params)[0] != '{' {
		return method, fmt.Errorf(`"params" is %q, want an object (send {} when empty)`, params)
	}
	msg := newParams()
	if err := (protojson.UnmarshalOptions{DiscardUnknown: false}).Unmarshal(params, msg); err != nil {
		return method, fmt.Errorf("params are not a %s: %v", msg.ProtoReflect().Descriptor().FullName(), err)
	}
	if missing := missingRequired(msg.ProtoReflect(), ""); len(missing) > 0 {
		return method, fmt.Errorf("params (%s) lack REQUIRED fields %s", msg.ProtoReflect().Descriptor().FullName(), strings.Join(missing, ", "))
	}
	return method, nil
}

// checkID accepts a JSON-RPC id the client may send: a non-empty string
// or an integer (A2A v1.0 reference §2).
func checkID(raw json.RawMessage) error {
	var s string
	if json.Unmarshal(raw, &s) == nil && s != "" {
		return nil
	}
	var n json.Number
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&n) == nil {
		if _, err := n.Int64(); err == nil {
			return nil
		}
	}
	return fmt.Errorf(`"id" is %q, want a non-empty string or an integer`, raw)
}

// missingRequired lists the fields of m, and of the messages set in it,
// that the proto marks REQUIRED (google.api.field_behavior) and that are
// not set (a proto3 default, such as "" or an empty list, is not set), as
// paths ("message.messageId"). protojson does not check them.
func missingRequired(m protoreflect.Message, prefix string) []string {
	var missing []string
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		path := prefix + fd.JSONName()
		behaviors, _ := proto.GetExtension(fd.Options(), annotations.E_FieldBehavior).([]annotations.FieldBehavior)
		if slices.Contains(behaviors, annotations.FieldBehavior_REQUIRED) && !m.Has(fd) {
			missing = append(missing, path)
			continue
		}
		if !m.Has(fd) || fd.Message() == nil || fd.IsMap() {
			continue
		}
		if fd.IsList() {
			list := m.Get(fd).List()
			for j := range list.Len() {
				missing = append(missing, missingRequired(list.Get(j).Message(), fmt.Sprintf("%s[%d].", path, j))...)
			}
			continue
		}
		missing = append(missing, missingRequired(m.Get(fd).Message(), path+".")...)
	}
	return missing
}

// header builds a request header from name, value pairs.
func header(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// TestV10ValidatorRefusesBadRequests proves checkV10Request is not
// vacuous: requests a careless v1.0 client could send fail it, and a good
// one passes.
func TestV10ValidatorRefusesBadRequests(t *testing.T) {
	post := func(method, params string) exchange {
		h := header("A2A-Version", "1.0", "Content-Type", "application/json")
		if v10Streaming[method] {
			h.Set("Accept", "text/event-stream")
		}
		body := `{"jsonrpc":"2.0","id":"r1","method":"` + method + `"`
		if params != "" {
			body += `,"params":` + params
		}
		return exchange{method: http.MethodPost, path: "/a2a/v1", header: h, body: []byte(body + "}")}
	}
	msg := `{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}`
	good := []exchange{
		post("SendMessage", `{"message":`+msg+`,"configuration":{"historyLength":0,"returnImmediately":true}}`),
		post("SendStreamingMessage", `{"message":`+msg+`}`),
		post("GetTask", `{"id":"t1","historyLength":2}`),
		post("ListTasks", `{"pageSize":2,"pageToken":"x","status":"TASK_STATE_WORKING"}`),
		post("CreateTaskPushNotificationConfig", `{"taskId":"t1","id":"c1","url":"http://127.0.0.1:9/h","authentication":{"scheme":"Bearer"}}`),
		post("GetExtendedAgentCard", `{}`),
		{method: http.MethodGet, path: "/.well-known/agent-card.json", header: header("A2A-Version", "1.0")},
	}
	for _, ex := range good {
		if method, err := checkV10Request(ex); err != nil {
			t.Errorf("a good %s request fails: %v", method, err)
		}
	}

	bad := map[string]exchange{
		"v0.3 method name":          post("message/send", `{"message":`+msg+`}`),
		"v0.3 kind on the message":  post("SendMessage", `{"message":{"kind":"message","messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`),
		"v0.3 kind on a part":       post("SendMessage", `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"kind":"text","text":"hi"}]}}`),
		"v0.3 role spelling":        post("SendMessage", `{"message":{"messageId":"m1","role":"user","parts":[{"text":"hi"}]}}`),
		"v0.3 blocking":             post("SendMessage", `{"message":`+msg+`,"configuration":{"blocking":true}}`),
		"v0.3 file part":            post("SendMessage", `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"file":{"uri":"http://x"}}]}}`),
		"two part contents":         post("SendMessage", `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi","url":"http://x"}]}}`),
		"no messageId":              post("SendMessage", `{"message":{"role":"ROLE_USER","parts":[{"text":"hi"}]}}`),
		"no message":                post("SendMessage", `{}`),
		"no task id":                post("GetTask", `{"historyLength":2}`),
		"metadata on GetTask":       post("GetTask", `{"id":"t1","metadata":{}}`),
		"v0.3 push config shape":    post("CreateTaskPushNotificationConfig", `{"taskId":"t1","pushNotificationConfig":{"url":"http://x"}}`),
		"v0.3 push get params":      post("GetTaskPushNotificationConfig", `{"id":"t1","pushNotificationConfigId":"c1"}`),
		"state as a v0.3 string":    post("ListTasks", `{"status":"working"}`),
		"no params":                 post("GetExtendedAgentCard", ""),
		"params an array":           post("GetTask", `["t1"]`),
		"stream without SSE accept": func() exchange { ex := post("SubscribeToTask", `{"id":"t1"}`); ex.header.Del("Accept"); return ex }(),
		"no version header":         func() exchange { ex := post("GetTask", `{"id":"t1"}`); ex.header.Del("A2A-Version"); return ex }(),
		"version with a patch": func() exchange {
			ex := post("GetTask", `{"id":"t1"}`)
			ex.header.Set("A2A-Version", "1.0.0")
			return ex
		}(),
		"a2a+json content type": func() exchange {
			ex := post("GetTask", `{"id":"t1"}`)
			ex.header.Set("Content-Type", "application/a2a+json")
			return ex
		}(),
		"jsonrpc 1.0":                {method: http.MethodPost, header: header("A2A-Version", "1.0", "Content-Type", "application/json"), body: []byte(`{"jsonrpc":"1.0","id":"r1","method":"GetTask","params":{"id":"t1"}}`)},
		"fractional id":              {method: http.MethodPost, header: header("A2A-Version", "1.0", "Content-Type", "application/json"), body: []byte(`{"jsonrpc":"2.0","id":1.5,"method":"GetTask","params":{"id":"t1"}}`)},
		"gateway member":             {method: http.MethodPost, header: header("A2A-Version", "1.0", "Content-Type", "application/json"), body: []byte(`{"jsonrpc":"2.0","id":"r1","method":"GetTask","params":{"id":"t1"},"agent_id":"a"}`)},
		"card GET without 1.0":       {method: http.MethodGet, path: "/.well-known/agent-card.json", header: header("A2A-Version", "0.3")},
		"unknown member":             post("CancelTask", `{"id":"t1","reason":"x"}`),
		"historyLength not a number": post("GetTask", `{"id":"t1","historyLength":"x"}`),
	}
	for name, ex := range bad {
		if _, err := checkV10Request(ex); err == nil {
			t.Errorf("%s: passes", name)
		}
	}
}

// TestV10CardFixturesAgainstProto reads the agent cards in the root
// testdata/ as the v1.0 proto's AgentCard. The v0.3 members of the dual
// cards are unknown to the proto and skipped; every other member must fit
// it and every REQUIRED field be set (a REQUIRED list holding at least
// one element). A fixture that does not fit says why, and must keep not
// fitting, or the row no longer describes it.
func TestV10CardFixturesAgainstProto(t *testing.T) {
	tests := []struct {
		file  string
		valid bool
		why   string
	}{
		{"card_dual_js.json", false, "lists no skills (\"skills\": [], as a2a-js writes for an agent without any), and skills is REQUIRED"},
		{"card_dual_python.json", true, ""},
		{"card_dual_go.json", false, "is a2a-go's compat card, whose security requirements hold bare scope arrays (A2A v1.0 reference §10.3, §13 trap 10)"},
		{"card_v10.json", false, "lists one security requirement in a2a-go's bare-array form beside the ProtoJSON {\"list\": …} form, as a reader must accept both (A2A v1.0 reference §10.3)"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			card := &a2apb.AgentCard{}
			err = protojson.UnmarshalOptions{DiscardUnknown: true}.Unmarshal(b, card)
			if err == nil {
				if missing := missingRequired(card.ProtoReflect(), ""); len(missing) > 0 {
					err = fmt.Errorf("REQUIRED fields missing: %s", strings.Join(missing, ", "))
				}
			}
			if tt.valid && err != nil {
				t.Errorf("not a valid lf.a2a.v1.AgentCard: %v", err)
			}
			if !tt.valid && err == nil {
				t.Errorf("reads as an lf.a2a.v1.AgentCard, but the table says it does not fit because it %s", tt.why)
			}
		})
	}
}
