package interop

import (
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRESTRulesRead checks what readRules found in the descriptors: a
// rule for every RPC of each service, every v1.0 rule with a tenant
// twin, and parsed templates that match the paths the specification's
// tables give (A2A v1.0 §11.3; A2A v0.3 §3.5.6).
func TestRESTRulesRead(t *testing.T) {
	count := func(rs *restRules, tenant bool) int {
		n := 0
		for _, r := range rs.rules {
			if r.tenant == tenant {
				n++
			}
		}
		return n
	}
	if got := [3]int{count(v10Rules, false), count(v10Rules, true), count(v03Rules, false)}; got != [3]int{11, 11, 11} {
		t.Errorf("rules (v1.0, v1.0 with tenant, v0.3) = %v, want 11 each", got)
	}
	for _, tt := range []struct {
		rules        *restRules
		tenant       bool
		verb, path   string
		rpc          string
		wantVariable map[string]string
	}{
		{v10Rules, false, "POST", "/message:send", "SendMessage", map[string]string{}},
		{v10Rules, true, "POST", "/t%2F1/message:stream", "SendStreamingMessage", map[string]string{"tenant": "t/1"}},
		{v10Rules, false, "GET", "/tasks/a%3Ab", "GetTask", map[string]string{"id": "a:b"}},
		{v10Rules, false, "POST", "/tasks/a%3Ab:cancel", "CancelTask", map[string]string{"id": "a:b"}},
		{v10Rules, false, "GET", "/tasks/t1:subscribe", "SubscribeToTask", map[string]string{"id": "t1"}},
		{v10Rules, false, "DELETE", "/tasks/t1/pushNotificationConfigs/c%2F1", "DeleteTaskPushNotificationConfig", map[string]string{"task_id": "t1", "id": "c/1"}},
		{v10Rules, true, "GET", "/acme/extendedAgentCard", "GetExtendedAgentCard", map[string]string{"tenant": "acme"}},
		{v03Rules, false, "GET", "/v1/tasks/t1", "GetTask", map[string]string{"name": "tasks/t1"}},
		{v03Rules, false, "GET", "/v1/tasks/t1:subscribe", "TaskSubscription", map[string]string{"name": "tasks/t1"}},
		{v03Rules, false, "POST", "/v1/tasks/t1/pushNotificationConfigs", "CreateTaskPushNotificationConfig", map[string]string{"parent": "tasks/t1/pushNotificationConfigs"}},
		{v03Rules, false, "GET", "/v1/tasks/t1/pushNotificationConfigs/c1", "GetTaskPushNotificationConfig", map[string]string{"name": "tasks/t1/pushNotificationConfigs/c1"}},
		{v03Rules, false, "GET", "/v1/card", "GetAgentCard", map[string]string{}},
	} {
		var found bool
		for _, r := range tt.rules.rules {
			if r.tenant != tt.tenant || r.verb != tt.verb {
				continue
			}
			if vars, ok := r.match(tt.path); ok {
				found = true
				if string(r.rpc.Name()) != tt.rpc {
					t.Errorf("%s %s matches %s, want %s", tt.verb, tt.path, r.rpc.Name(), tt.rpc)
				}
				if diff := cmp.Diff(tt.wantVariable, vars); diff != "" {
					t.Errorf("%s %s variables (-want +got):\n%s", tt.verb, tt.path, diff)
				}
				break
			}
		}
		if !found {
			t.Errorf("%s %s matches no rule of %s", tt.verb, tt.path, tt.rules.service)
		}
	}
}

// TestRESTRulesRefuseBadRequests proves restRules.check is not vacuous:
// requests a careless REST client could send fail it, each with the
// fault kind named, and good ones pass.
func TestRESTRulesRefuseBadRequests(t *testing.T) {
	req := func(method, path, body string, kv ...string) restExchange {
		h := header("A2A-Version", "1.0", "Accept", "application/json")
		if body != "" {
			h.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		u, err := url.Parse(path)
		if err != nil {
			t.Fatal(err)
		}
		return restExchange{method: method, path: u.EscapedPath(), query: u.Query(), header: h, body: []byte(body)}
	}
	msg := `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`
	stream := []string{"Accept", "text/event-stream"}
	good := []struct {
		ex     restExchange
		tenant bool
		rules  *restRules
	}{
		{req("POST", "/message:send", msg), false, v10Rules},
		{req("POST", "/message:stream", msg, stream...), false, v10Rules},
		{req("POST", "/acme/message:send", msg), true, v10Rules},
		{req("GET", "/tasks/t%2F1?historyLength=0", ""), false, v10Rules},
		{req("GET", "/tasks?pageSize=2&status=TASK_STATE_WORKING&includeArtifacts=false&statusTimestampAfter=2026-01-02T03:04:05.000Z", ""), false, v10Rules},
		{req("POST", "/tasks/t1:cancel", ""), false, v10Rules},
		{req("GET", "/tasks/t1:subscribe", "", stream...), false, v10Rules},
		{req("POST", "/tasks/t1/pushNotificationConfigs", `{"taskId":"t1","id":"c1","url":"http://127.0.0.1:9/h"}`), false, v10Rules},
		{req("GET", "/tasks/t1/pushNotificationConfigs?pageToken=x", ""), false, v10Rules},
		{req("DELETE", "/tasks/t1/pushNotificationConfigs/c1", ""), false, v10Rules},
		{req("GET", "/extendedAgentCard", ""), false, v10Rules},
		{req("POST", "/v1/message:send", `{"message":{"messageId":"m1","role":"ROLE_USER","content":[{"text":"hi"}]},"configuration":{"blocking":true}}`, "A2A-Version", "0.3"), false, v03Rules},
		// The proto's form: the config as the body, configId (REQUIRED) in the query.
		{req("POST", "/v1/tasks/t1/pushNotificationConfigs?configId=c1", `{"name":"tasks/t1/pushNotificationConfigs/c1","pushNotificationConfig":{"url":"http://127.0.0.1:9/h"}}`), false, v03Rules},
	}
	for _, tt := range good {
		if tt.rules == v03Rules {
			tt.ex.header.Del("A2A-Version")
		}
		if rpc, faults := tt.rules.check(tt.ex, tt.tenant); rpc == "" || len(faults) > 0 {
			t.Errorf("good %s %s (%s): %v", tt.ex.method, tt.ex.path, rpc, faults)
		}
	}

	bad := []struct {
		name string
		ex   restExchange
		kind string
	}{
		{"unknown path", req("GET", "/task/t1", ""), "path"},
		{"v0.3 path on v1.0", req("GET", "/v1/tasks/t1", ""), "path"},
		{"id with a raw slash", req("GET", "/tasks/a/b", ""), "path"},
		{"id with a raw colon", req("GET", "/tasks/a:b", ""), "path"},
		{"id ..", req("GET", "/tasks/..", ""), "path"},
		{"tenant on the plain rules", req("POST", "/acme/message:send", msg), "path"},
		{"GET of send", req("GET", "/message:send", ""), "verb"},
		{"POST of get", req("POST", "/tasks/t1", ""), "verb"},
		{"PUT of push create", req("PUT", "/tasks/t1/pushNotificationConfigs", `{"url":"http://x"}`), "verb"},
		{"body on GET", req("GET", "/tasks/t1", `{"id":"t1"}`), "body"},
		{"body on delete", req("DELETE", "/tasks/t1/pushNotificationConfigs/c1", `{}`), "body"},
		{"JSON-RPC envelope as body", req("POST", "/message:send", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":`+msg+`}`), "body"},
		{"v0.3 role", req("POST", "/message:send", `{"message":{"messageId":"m1","role":"user","parts":[{"text":"hi"}]}}`), "body"},
		{"v0.3 kind", req("POST", "/message:send", `{"message":{"kind":"message","messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`), "body"},
		{"null as cancel body", req("POST", "/tasks/t1:cancel", `null`), "body"},
		{"body's task id is another", req("POST", "/tasks/t1/pushNotificationConfigs", `{"taskId":"t2","url":"http://x"}`), "path"},
		{"no messageId", req("POST", "/message:send", `{"message":{"role":"ROLE_USER","parts":[{"text":"hi"}]}}`), "required:message.messageId"},
		{"query beside a body", req("POST", "/message:send?historyLength=1", msg), "query"},
		{"unknown query parameter", req("GET", "/tasks?lastUpdatedAfter=2026-01-02T03:04:05Z", ""), "query"},
		{"snake_case query parameter", req("GET", "/tasks?page_size=2", ""), "query"},
		{"path field as query", req("GET", "/tasks/t1?id=t2", ""), "query"},
		{"enum by number", req("GET", "/tasks?status=3", ""), "query"},
		{"v0.3 state name", req("GET", "/tasks?status=working", ""), "query"},
		{"bool as 1", req("GET", "/tasks?includeArtifacts=1", ""), "query"},
		{"int not decimal", req("GET", "/tasks?pageSize=two", ""), "query"},
		{"repeated singular", req("GET", "/tasks?pageSize=1&pageSize=2", ""), "query"},
		{"no version header", req("GET", "/tasks/t1", "", "A2A-Version", ""), "header"},
		{"Content-Type without a body", req("POST", "/tasks/t1:cancel", "", "Content-Type", "application/json"), "header"},
		{"a2a+json body", req("POST", "/message:send", msg, "Content-Type", "application/a2a+json"), "header"},
		{"stream without SSE accept", req("POST", "/message:stream", msg), "header"},
		{"unary asking for SSE", req("GET", "/tasks/t1", "", stream...), "header"},
	}
	for _, tt := range bad {
		if tt.name == "no version header" {
			tt.ex.header.Del("A2A-Version")
		}
		_, faults := v10Rules.check(tt.ex, false)
		var kinds []string
		for _, f := range faults {
			kinds = append(kinds, f.kind)
		}
		found := false
		for _, k := range kinds {
			found = found || k == tt.kind
		}
		if !found {
			t.Errorf("%s: faults %v, want one of kind %q", tt.name, faults, tt.kind)
		}
	}

	v03 := req("POST", "/v1/tasks/t1/pushNotificationConfigs", `{"parent":"tasks/t1","configId":"c1","config":{"pushNotificationConfig":{"url":"http://x"}}}`)
	v03.header.Del("A2A-Version")
	if _, faults := v03Rules.check(v03, false); len(faults) == 0 || faults[0].kind != "bodyform" {
		t.Errorf("v0.3 push create in the request form, where the proto's body is \"config\": faults %v, want a bodyform fault", faults)
	}
	v03.body = []byte(`{"parent":"tasks/t1","configId":"c1","config":{"pushNotificationConfig":{"uri":"http://x"}}}`)
	if _, faults := v03Rules.check(v03, false); len(faults) == 0 || faults[0].kind != "body" {
		t.Errorf("v0.3 push create with an unknown member: faults %v, want a body fault", faults)
	}
	v03.body = []byte(`{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}`)
	v03.path = "/v1/message:send"
	if _, faults := v03Rules.check(v03, false); len(faults) == 0 || faults[0].kind != "body" {
		t.Errorf("v0.3 message with v1.0's parts, not content: faults %v, want a body fault", faults)
	}
	v03.header.Set("A2A-Version", "1.0")
	if _, faults := v03Rules.check(v03, false); len(faults) < 2 {
		t.Errorf("v0.3 request with A2A-Version 1.0: faults %v, want a header fault too", faults)
	}
}
