package a2atest_test

import (
	"encoding/json"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// send03 is a v0.3 proto SendMessageRequest with one text part.
func send03(id, text string) string {
	return `{"message":{"messageId":"` + id + `","role":"ROLE_USER","content":[{"text":"` + text + `"}]},"configuration":{"blocking":true}}`
}

// TestRESTV03Operations drives every v0.3 HTTP+JSON operation with plain
// net/http: /v1/ paths, the v0.3 proto's JSON (content, TASK_STATE_CANCELLED,
// final, push configs by name), GET and POST subscribe, the card at
// /v1/card.
func TestRESTV03Operations(t *testing.T) {
	srv := a2atest.NewServer(a2atest.HTTPJSON(), a2atest.OnSend(a2atest.Caoliao),
		a2atest.WithExtendedCard(&a2a.AgentCard{Name: "extended", URL: "http://agent.example/"}))
	defer srv.Close()
	steps := []struct {
		verb, path, body string
		checks           map[string]string
		events           []string
	}{
		{"POST", "/v1/message:send", send03("m1", a2atest.SeedQRCode), map[string]string{"task.id": "task-1", "task.status.state": "TASK_STATE_COMPLETED",
			"task.artifacts.0.parts.0.data.data.title": "数控车床-A08-03-06", "task.artifacts.0.parts.1.text": a2atest.EntitySummary,
			"task.history.0.content.0.text": a2atest.SeedQRCode, "task.history.0.role": "ROLE_USER", "task.history.0.parts": "<none>"}, nil},
		{"GET", "/v1/tasks/task-1?historyLength=0", "", map[string]string{"id": "task-1", "history": "<none>"}, nil},
		{"POST", "/v1/message:send", send03("m2", "设备"), map[string]string{"task.status.state": "TASK_STATE_INPUT_REQUIRED",
			"task.status.message.content.0.text": a2atest.DeviceQuestion, "task.status.message.role": "ROLE_AGENT"}, nil},
		{"POST", "/v1/tasks/task-2:cancel", "", map[string]string{"status.state": "TASK_STATE_CANCELLED"}, nil},
		{"POST", "/v1/message:send", send03("m3", "records"), map[string]string{"task.id": "task-3", "task.status.state": "TASK_STATE_SUBMITTED"}, nil},
		{"POST", "/v1/tasks/task-3/pushNotificationConfigs", `{"parent":"tasks/task-3","configId":"c1","config":{"name":"tasks/task-3/pushNotificationConfigs/c1","pushNotificationConfig":{"url":"http://127.0.0.1:1/hook","authentication":{"schemes":["Bearer"],"credentials":"s"}}}}`,
			map[string]string{"name": "tasks/task-3/pushNotificationConfigs/c1", "pushNotificationConfig.id": "c1", "pushNotificationConfig.authentication.schemes": `["Bearer"]`}, nil},
		{"POST", "/v1/tasks/task-3/pushNotificationConfigs", `{"name":"tasks/task-3/pushNotificationConfigs/c2","pushNotificationConfig":{"url":"http://127.0.0.1:1/two"}}`,
			map[string]string{"name": "tasks/task-3/pushNotificationConfigs/c2", "pushNotificationConfig.url": "http://127.0.0.1:1/two"}, nil},
		{"GET", "/v1/tasks/task-3/pushNotificationConfigs/c2", "", map[string]string{"pushNotificationConfig.id": "c2"}, nil},
		{"GET", "/v1/tasks/task-3/pushNotificationConfigs", "", map[string]string{"configs.0.name": "tasks/task-3/pushNotificationConfigs/c1", "configs.1.pushNotificationConfig.id": "c2"}, nil},
		{"DELETE", "/v1/tasks/task-3/pushNotificationConfigs/c1", "", map[string]string{"": "{}"}, nil},
		{"DELETE", "/v1/tasks/task-3/pushNotificationConfigs/c2", "", map[string]string{"": "{}"}, nil},
		{"GET", "/v1/tasks/task-3:subscribe", "", nil, []string{"task TASK_STATE_SUBMITTED", "statusUpdate TASK_STATE_WORKING false", "statusUpdate TASK_STATE_WORKING false",
			"artifactUpdate  false", "statusUpdate TASK_STATE_COMPLETED true"}},
		{"POST", "/v1/tasks/task-3:subscribe", "", nil, []string{"task TASK_STATE_COMPLETED"}},
		{"POST", "/v1/message:stream", send03("m4", "records"), nil, []string{"task TASK_STATE_SUBMITTED", "statusUpdate TASK_STATE_WORKING false",
			"statusUpdate TASK_STATE_WORKING false", "artifactUpdate  false", "statusUpdate TASK_STATE_COMPLETED true"}},
		{"POST", "/v1/message:stream", send03("m5", "nothing"), nil, []string{"task TASK_STATE_FAILED", "statusUpdate TASK_STATE_FAILED true"}},
		{"GET", "/v1/tasks?status=TASK_STATE_CANCELLED", "", map[string]string{"tasks.0.id": "task-2", "tasks.1": "<none>"}, nil},
		{"GET", "/v1/card", "", map[string]string{"name": "extended", "url": "http://agent.example/"}, nil},
	}
	for _, st := range steps {
		got := restDo(t, st.verb, srv.URL+st.path, st.body, nil)
		if got.status != 200 {
			t.Fatalf("%s %s: %d %s", st.verb, st.path, got.status, got.body)
		}
		if st.events != nil {
			var events []string
			for _, d := range sseData(got.body) {
				var ev map[string]json.RawMessage
				json.Unmarshal([]byte(d), &ev)
				for name, v := range ev {
					e := name + " " + strings.TrimSuffix(pick(t, string(v), "status.state"), "<none>")
					if final := pick(t, string(v), "final"); name != "task" && final == "<none>" {
						e += " false"
					} else if name != "task" {
						e += " " + final
					}
					events = append(events, e)
				}
			}
			if diff := cmp.Diff(st.events, events); diff != "" {
				t.Errorf("%s %s (-want +got):\n%s", st.verb, st.path, diff)
			}
			continue
		}
		for path, want := range st.checks {
			v := strings.TrimSpace(got.body)
			if path != "" {
				v = pick(t, got.body, path)
			}
			if v != want {
				t.Errorf("%s %s: %s = %q, want %q in %s", st.verb, st.path, path, v, want, got.body)
			}
		}
	}
}

// TestRESTV03Refusals: what a strict v0.3 HTTP+JSON server refuses: v1.0
// shapes and paths, a v1.0 version header, a tenant, push create bodies
// that disagree with the path.
func TestRESTV03Refusals(t *testing.T) {
	srv := a2atest.NewServer(a2atest.HTTPJSON(), a2atest.OnSend(a2atest.Caoliao))
	defer srv.Close()
	if got := restDo(t, "POST", srv.URL+"/v1/message:send", send03("m1", "设备"), nil); got.status != 200 {
		t.Fatalf("send: %d %s", got.status, got.body)
	}
	push := func(parent, cid, name string) string {
		return `{"parent":"` + parent + `","configId":"` + cid + `","config":{"name":"` + name + `","pushNotificationConfig":{"url":"http://127.0.0.1:1/h"}}}`
	}
	tests := []struct {
		name, verb, path, body string
		header                 map[string]string
		want                   string
	}{
		{"v1.0 path", "POST", "/message:send", send03("m", "x"), nil, "404 page not found"},
		{"tenant", "POST", "/t1/v1/message:send", send03("m", "x"), nil, "404 page not found"},
		{"v1.0 card path", "GET", "/v1/extendedAgentCard", "", nil, "404 page not found"},
		{"v1.0 header", "POST", "/v1/message:send", send03("m", "x"), v10REST, "400 FAILED_PRECONDITION VERSION_NOT_SUPPORTED"},
		{"header 0.3", "GET", "/v1/tasks/task-1", "", map[string]string{"A2A-Version": "0.3"}, "200"},
		{"v1.0 parts", "POST", "/v1/message:send", `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"v0.3 JSON-RPC message", "POST", "/v1/message:send", `{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"x"}]}}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"role user", "POST", "/v1/message:send", `{"message":{"messageId":"m","role":"user","content":[{"text":"x"}]}}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"returnImmediately", "POST", "/v1/message:send", `{"message":{"messageId":"m","role":"ROLE_USER","content":[{"text":"x"}]},"configuration":{"returnImmediately":true}}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"tenant member", "POST", "/v1/message:send", `{"tenant":"t","message":{"messageId":"m","role":"ROLE_USER","content":[{"text":"x"}]}}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"two members", "POST", "/v1/message:send", `{"message":{"messageId":"m","role":"ROLE_USER","content":[{"text":"x","data":{"data":{}}}]}}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"v1.0 raw part", "POST", "/v1/message:send", `{"message":{"messageId":"m","role":"ROLE_USER","content":[{"raw":"eA=="}]}}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"file both", "POST", "/v1/message:send", `{"message":{"messageId":"m","role":"ROLE_USER","content":[{"file":{"fileWithUri":"u","fileWithBytes":"eA=="}}]}}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"bytes not base64", "POST", "/v1/message:send", `{"message":{"messageId":"m","role":"ROLE_USER","content":[{"file":{"fileWithBytes":"**"}}]}}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"cancel other name", "POST", "/v1/tasks/task-1:cancel", `{"name":"tasks/task-9"}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"push other parent", "POST", "/v1/tasks/task-1/pushNotificationConfigs", push("tasks/task-9", "c", ""), nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"push ids disagree", "POST", "/v1/tasks/task-1/pushNotificationConfigs", push("tasks/task-1", "c1", "tasks/task-1/pushNotificationConfigs/c2"), nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"push v1.0 body", "POST", "/v1/tasks/task-1/pushNotificationConfigs", `{"taskId":"task-1","url":"http://127.0.0.1:1/h"}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"push mixed forms", "POST", "/v1/tasks/task-1/pushNotificationConfigs", `{"parent":"tasks/task-1","pushNotificationConfig":{"url":"u"}}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"push no url", "POST", "/v1/tasks/task-1/pushNotificationConfigs", `{"name":"tasks/task-1/pushNotificationConfigs/c","pushNotificationConfig":{}}`, nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"unknown task", "GET", "/v1/tasks/nope", "", nil, "404 NOT_FOUND TASK_NOT_FOUND"},
		{"subscribe unknown", "GET", "/v1/tasks/nope:subscribe", "", nil, "404 NOT_FOUND TASK_NOT_FOUND"},
		{"no card", "GET", "/v1/card", "", nil, "400 FAILED_PRECONDITION EXTENDED_AGENT_CARD_NOT_CONFIGURED"},
		{"bad status name", "GET", "/v1/tasks?status=TASK_STATE_CANCELED", "", nil, "400 INVALID_ARGUMENT INVALID_PARAMS"},
		{"wrong verb", "PUT", "/v1/tasks/task-1:subscribe", "", nil, "PUT is not allowed here"},
	}
	for _, tt := range tests {
		got := restDo(t, tt.verb, srv.URL+tt.path, tt.body, tt.header)
		if r := got.reason(); !strings.HasPrefix(r, tt.want) && !(tt.want == "200" && got.status == 200) {
			t.Errorf("%s: %d %q, want %q", tt.name, got.status, r, tt.want)
		}
	}
}

// TestRESTV03Parts: every v0.3 proto part reaches the OnSend handler as
// the a2a part, and comes back in the v0.3 proto form (file bytes base64
// once, as ProtoJSON writes bytes).
func TestRESTV03Parts(t *testing.T) {
	handed := make(chan a2a.Message, 1)
	srv := a2atest.NewServer(a2atest.HTTPJSON(), a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		handed <- m
		return a2atest.Reply{Message: &a2a.Message{Parts: m.Parts, Metadata: json.RawMessage(`{"k":"v"}`)}}
	}))
	defer srv.Close()
	parts := `[{"text":"t"},{"file":{"fileWithUri":"https://x/f.pdf","mimeType":"application/pdf"}},` +
		`{"file":{"fileWithBytes":"aGk=","mimeType":"text/plain","name":"hi.txt"}},{"data":{"data":{"a":1}}},{"text":"m","metadata":{"p":true}}]`
	got := restDo(t, "POST", srv.URL+"/v1/message:send", `{"message":{"messageId":"m1","role":1,"content":`+parts+`,"referenceTaskIds":["r"]}}`, nil)
	if got.status != 200 {
		t.Fatalf("%d %s", got.status, got.body)
	}
	seen := <-handed
	want := a2a.Parts{a2a.TextPart{Text: "t"}, a2a.FilePart{File: a2a.FileContent{URI: "https://x/f.pdf", MIMEType: "application/pdf"}},
		a2a.FilePart{File: a2a.FileContent{Bytes: "aGk=", MIMEType: "text/plain", Name: "hi.txt"}},
		a2a.DataPart{Data: json.RawMessage(`{"a":1}`)}, a2a.TextPart{Text: "m", Metadata: json.RawMessage(`{"p":true}`)}}
	if diff := cmp.Diff(want, seen.Parts); diff != "" || seen.Role != a2a.RoleUser || seen.ReferenceTaskIDs[0] != "r" {
		t.Errorf("the handler's message %+v (-want +got):\n%s", seen, diff)
	}
	var reply struct {
		Message struct {
			MessageID, Role string
			Content         json.RawMessage
			Metadata        json.RawMessage
		}
	}
	json.Unmarshal([]byte(got.body), &reply)
	var wantParts, gotParts any
	json.Unmarshal([]byte(parts), &wantParts)
	json.Unmarshal(reply.Message.Content, &gotParts)
	if diff := cmp.Diff(wantParts, gotParts); diff != "" || reply.Message.Role != "ROLE_AGENT" || reply.Message.MessageID != "reply-m1" {
		t.Errorf("reply %s (-want +got):\n%s", got.body, diff)
	}
}
