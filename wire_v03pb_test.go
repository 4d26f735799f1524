package a2a_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// getPB is GetTask of "t1" answered with body by a v0.3 HTTP+JSON agent.
func getPB(t *testing.T, body string) (*a2a.Task, error) {
	t.Helper()
	a := newAgent03(t, reply03{body: body})
	return rest03Client(t, a).GetTask(context.Background(), "t1")
}

// TestREST03TaskDecoding: a v0.3 proto Task read onto the SDK's Task,
// member by member, under JSON and proto names.
func TestREST03TaskDecoding(t *testing.T) {
	ignore := ignoreTaskInternals
	tests := []struct {
		name, body string
		want       a2a.Task
	}{
		{"full", `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"messageId":"m1","role":"ROLE_AGENT",` +
			`"content":[{"text":"需要更多"}]},"timestamp":"2026-01-02T03:04:05Z"},"artifacts":[{"artifactId":"a1","name":"n","parts":[` +
			`{"data":{"data":{"k":"v"}}},{"file":{"fileWithUri":"https://f.example/x","mimeType":"text/plain","name":"x.txt"}},{"text":"t","metadata":{"m":1}}]}],` +
			`"history":[{"messageId":"m0","role":"ROLE_USER","content":[{"text":"hi"}],"taskId":"t1","contextId":"c1","extensions":["e"],"referenceTaskIds":["t0"]}],"metadata":{"x":true},"futureMember":1}`,
			a2a.Task{ID: "t1", ContextID: "c1", Metadata: json.RawMessage(`{"x":true}`),
				Status: a2a.TaskStatus{State: a2a.TaskStateInputRequired, RawState: "TASK_STATE_INPUT_REQUIRED", Timestamp: "2026-01-02T03:04:05Z",
					Message: &a2a.Message{MessageID: "m1", Role: a2a.RoleAgent, RawRole: "ROLE_AGENT", Parts: a2a.Parts{a2a.TextPart{Text: "需要更多"}}}},
				Artifacts: []a2a.Artifact{{ArtifactID: "a1", Name: "n", Parts: a2a.Parts{a2a.DataPart{Data: json.RawMessage(`{"k":"v"}`)},
					a2a.FilePart{File: a2a.FileContent{URI: "https://f.example/x", MIMEType: "text/plain", Name: "x.txt"}},
					a2a.TextPart{Text: "t", Metadata: json.RawMessage(`{"m":1}`)}}}},
				History: []a2a.Message{{MessageID: "m0", Role: a2a.RoleUser, RawRole: "ROLE_USER", Parts: a2a.Parts{a2a.TextPart{Text: "hi"}},
					TaskID: "t1", ContextID: "c1", Extensions: []string{"e"}, ReferenceTaskIDs: []string{"t0"}}}}},
		{"proto names", `{"id":"t1","context_id":"c1","status":{"state":5,"update":{"message_id":"m1","role":2,"content":[{"file":{"file_with_uri":"u","mime_type":"a/b"}}]}}}`,
			a2a.Task{ID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateCanceled, RawState: "5",
				Message: &a2a.Message{MessageID: "m1", Role: a2a.RoleAgent, RawRole: "2", Parts: a2a.Parts{a2a.FilePart{File: a2a.FileContent{URI: "u", MIMEType: "a/b"}}}}}}},
		{"cancelled", `{"id":"t1","status":{"state":"TASK_STATE_CANCELLED"}}`,
			a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateCanceled, RawState: "TASK_STATE_CANCELLED"}}},
		{"no state", `{"id":"t1","status":{}}`, a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateUnknown}}},
		{"no status", `{"id":"t1"}`, a2a.Task{ID: "t1"}},
		{"unknown state kept", `{"id":"t1","status":{"state":"TASK_STATE_PAUSED"}}`, a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: "TASK_STATE_PAUSED"}}},
		{"unknown part kept", `{"id":"t1","artifacts":[{"artifactId":"a","parts":[{"video":{"x":1}},7]}]}`,
			a2a.Task{ID: "t1", Artifacts: []a2a.Artifact{{ArtifactID: "a", Parts: a2a.Parts{a2a.UnknownPart{Raw: json.RawMessage(`{"video":{"x":1}}`)},
				a2a.UnknownPart{Raw: json.RawMessage(`7`)}}}}}},
		{"flat data", `{"id":"t1","artifacts":[{"artifactId":"a","parts":[{"data":{"k":1}},{"data":[1,2]}]}]}`,
			a2a.Task{ID: "t1", Artifacts: []a2a.Artifact{{ArtifactID: "a", Parts: a2a.Parts{a2a.DataPart{Data: json.RawMessage(`{"k":1}`)},
				a2a.DataPart{Data: json.RawMessage(`[1,2]`)}}}}}},
		// Python v0.3 agents: base64 of the file's base64 text ("/wA=").
		{"bytes twice", `{"id":"t1","artifacts":[{"artifactId":"a","parts":[{"file":{"fileWithBytes":"L3dBPQ=="}}]}]}`,
			a2a.Task{ID: "t1", Artifacts: []a2a.Artifact{{ArtifactID: "a", Parts: a2a.Parts{a2a.FilePart{File: a2a.FileContent{Bytes: "/wA="}}}}}}},
		// A peer that puts the file's own bytes in the proto field.
		{"bytes once", `{"id":"t1","artifacts":[{"artifactId":"a","parts":[{"file":{"file_with_bytes":"/wA="}}]}]}`,
			a2a.Task{ID: "t1", Artifacts: []a2a.Artifact{{ArtifactID: "a", Parts: a2a.Parts{a2a.FilePart{File: a2a.FileContent{Bytes: "/wA="}}}}}}},
		{"bytes once url-safe", `{"id":"t1","artifacts":[{"artifactId":"a","parts":[{"file":{"fileWithBytes":"_wA"}}]}]}`,
			a2a.Task{ID: "t1", Artifacts: []a2a.Artifact{{ArtifactID: "a", Parts: a2a.Parts{a2a.FilePart{File: a2a.FileContent{Bytes: "_wA"}}}}}}},
		{"bytes not base64", `{"id":"t1","artifacts":[{"artifactId":"a","parts":[{"file":{"fileWithBytes":"%%"}}]}]}`,
			a2a.Task{ID: "t1", Artifacts: []a2a.Artifact{{ArtifactID: "a", Parts: a2a.Parts{a2a.FilePart{File: a2a.FileContent{Bytes: "%%"}}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := getPB(t, tt.body)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&tt.want, got, ignore); diff != "" {
				t.Errorf("task (-want +got):\n%s", diff)
			}
			if string(got.Raw()) != tt.body {
				t.Errorf("Raw %s", got.Raw())
			}
		})
	}
	t.Run("bytes decode", func(t *testing.T) {
		got, err := getPB(t, `{"id":"t1","artifacts":[{"artifactId":"a","parts":[{"file":{"fileWithBytes":"L3dBPQ=="}}]}]}`)
		if err != nil {
			t.Fatal(err)
		}
		b, err := got.Artifacts[0].Parts[0].(a2a.FilePart).File.Decode()
		if err != nil || string(b) != "\xff\x00" {
			t.Errorf("Decode %q, %v", b, err)
		}
	})
}

// TestREST03Results: SendMessageResponse, stream events, push configs,
// ListTasksResponse and the card of /v1/card.
func TestREST03Results(t *testing.T) {
	ctx := context.Background()
	msg := a2a.NewTextMessage("hi")
	// A payload under the proto's name beside an "error" object is still
	// the payload: an error reply has none (restcall.go).
	for _, body := range []string{`{"message":{"messageId":"m9","role":"ROLE_AGENT","content":[{"text":"你好"}]}}`,
		`{"msg":{"messageId":"m9","role":"ROLE_AGENT","content":[{"text":"你好"}]}}`,
		`{"msg":{"messageId":"m9","role":"ROLE_AGENT","content":[{"text":"你好"}]},"error":{}}`} {
		res, err := rest03Client(t, newAgent03(t, reply03{body: body})).SendMessage(ctx, msg)
		m, ok := res.(*a2a.Message)
		if err != nil || !ok || m.MessageID != "m9" || m.Parts[0].(a2a.TextPart).Text != "你好" {
			t.Errorf("%s: %#v, %v", body, res, err)
		}
	}
	res, err := rest03Client(t, newAgent03(t, reply03{status: http.StatusCreated, body: `{"task":{"id":"t7","status":{"state":"TASK_STATE_FAILED"}}}`})).SendMessage(ctx, msg)
	if tk, ok := res.(*a2a.Task); err != nil || !ok || tk.Status.State != a2a.TaskStateFailed {
		t.Errorf("failed task: %#v, %v", res, err)
	}

	stream := "data: {\"task\":{\"id\":\"t1\",\"contextId\":\"c1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}\n\n" +
		"data: {\"artifact_update\":{\"task_id\":\"t1\",\"artifact\":{\"artifactId\":\"a\",\"parts\":[{\"text\":\"x\"}]},\"lastChunk\":true}}\n\n" +
		"data: {\"futureEvent\":{}, \"statusUpdate\":{\"taskId\":\"t1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"},\"final\":true}}\n\n" +
		"data: {\"statusUpdate\":{\"taskId\":\"t1\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}}\n\n"
	var kinds []string
	for ev, err := range rest03Client(t, newAgent03(t, reply03{ctype: "text/event-stream", body: stream})).SendStreamingMessage(ctx, msg) {
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
		switch e := ev.(type) {
		case *a2a.Task:
			kinds = append(kinds, "task")
		case *a2a.TaskArtifactUpdateEvent:
			kinds = append(kinds, "artifact:"+e.Artifact.Parts[0].(a2a.TextPart).Text)
		case *a2a.TaskStatusUpdateEvent:
			kinds = append(kinds, "status:"+string(e.Status.State))
		}
	}
	// The agent marked the working update final: the stream ends there.
	if got := strings.Join(kinds, ","); got != "task,artifact:x,status:working" {
		t.Errorf("events %s", got)
	}

	pushes := map[string]string{
		"configs":      `{"configs":[` + pbPush + `,{"name":"tasks/t1/pushNotificationConfigs/p2","push_notification_config":{"url":"https://h2.example"}}]}`,
		"bare array":   `[` + pbPush + `,{"name":"tasks/t1/pushNotificationConfigs/p2","pushNotificationConfig":{"url":"https://h2.example"}}]`,
		"id from name": `{"configs":[{"name":"tasks/t1/pushNotificationConfigs/p1","pushNotificationConfig":{"url":"https://hook.example/x","token":"tok"}},{"name":"tasks/t1/pushNotificationConfigs/p2","pushNotificationConfig":{"url":"https://h2.example","id":"p2"}}]}`,
	}
	want := []a2a.TaskPushNotificationConfig{
		{TaskID: "t1", PushNotificationConfig: a2a.PushNotificationConfig{ID: "p1", URL: "https://hook.example/x", Token: "tok"}},
		{TaskID: "t1", PushNotificationConfig: a2a.PushNotificationConfig{ID: "p2", URL: "https://h2.example"}},
	}
	for name, body := range pushes {
		got, err := rest03Client(t, newAgent03(t, reply03{body: body})).ListTaskPushNotificationConfigs(ctx, "t1")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	// A task id holding the name's infix is read by the task asked about.
	odd := "a/pushNotificationConfigs/b"
	cfg, err := rest03Client(t, newAgent03(t, reply03{body: `{"name":"tasks/` + odd + `/pushNotificationConfigs/p1","pushNotificationConfig":{"url":"u"}}`})).
		GetTaskPushNotificationConfig(ctx, odd, "p1")
	if err != nil || cfg.TaskID != odd || cfg.PushNotificationConfig.ID != "p1" {
		t.Errorf("odd id: %+v, %v", cfg, err)
	}

	page, err := rest03Client(t, newAgent03(t, reply03{body: `{"tasks":[{"id":"t1","status":{"state":"TASK_STATE_CANCELLED"}}],"next_page_token":"n2"}`})).
		ListTasksPage(ctx, a2a.ListTasksRequest{})
	if err != nil || len(page.Tasks) != 1 || page.Tasks[0].Status.State != a2a.TaskStateCanceled || page.NextPageToken != "n2" {
		t.Errorf("list: %+v, %v", page, err)
	}

	// /v1/card: the proto's AgentCard (security requirements as
	// {"schemes": {name: {"list": […]}}}) or the v0.3 JSON card.
	for _, body := range []string{
		strings.Replace(pbCard, `"skills":[]`, `"skills":[{"id":"s","name":"s","description":"d","tags":[],"security":[{"schemes":{"oauth":{"list":["read"]}}}]}],`+
			`"security":[{"schemes":{"oauth":{"list":["read"]}}}],"securitySchemes":{"oauth":{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"https://t.example","scopes":{"read":"r"}}}}}}`, 1),
		strings.Replace(pbCard, `"skills":[]`, `"skills":[{"id":"s","name":"s","description":"d","tags":[],"security":[{"oauth":["read"]}]}],`+
			`"security":[{"oauth":["read"]}],"securitySchemes":{"oauth":{"type":"oauth2","flows":{"clientCredentials":{"tokenUrl":"https://t.example","scopes":{"read":"r"}}}}}`, 1),
	} {
		card, err := rest03Client(t, newAgent03(t, reply03{body: body})).GetExtendedAgentCard(ctx)
		if err != nil {
			t.Fatalf("card: %v", err)
		}
		wantSec := []map[string][]string{{"oauth": {"read"}}}
		if diff := cmp.Diff(wantSec, card.Security); diff != "" || card.PreferredTransport != a2a.TransportHTTPJSON || string(card.Raw()) != body {
			t.Errorf("card security (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(wantSec, card.Skills[0].Security); diff != "" {
			t.Errorf("skill security (-want +got):\n%s", diff)
		}
		if s := card.SecuritySchemes["oauth"]; s.Type != "oauth2" || s.Flows == nil || s.Flows.ClientCredentials.TokenURL != "https://t.example" {
			t.Errorf("scheme %+v", s)
		}
	}
}

// TestREST03OtherVersion: a reply of A2A v1.0's shape to a v0.3
// HTTP+JSON client, and a v0.3 HTTP+JSON reply to a v1.0 one, is a
// *ProtocolError matching ErrVersionMismatch that says which version to
// speak, never a message read without its parts.
func TestREST03OtherVersion(t *testing.T) {
	ctx := context.Background()
	for name, body := range map[string]string{
		"v1.0 message":   `{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"x"}]}}`,
		"v1.0 file part": `{"task":{"id":"t","artifacts":[{"artifactId":"a","parts":[{"raw":"QQ==","mediaType":"a/b"}]}]}}`,
		"v0.3 JSON-RPC":  `{"kind":"task","id":"t","status":{"state":"completed"}}`,
	} {
		_, err := rest03Client(t, newAgent03(t, reply03{body: body})).SendMessage(ctx, a2a.NewTextMessage("x"))
		var pe *a2a.ProtocolError
		if !errors.As(err, &pe) || !errors.Is(err, a2a.ErrVersionMismatch) {
			t.Errorf("%s: error %v, want a *ProtocolError matching ErrVersionMismatch", name, err)
		}
	}
	a := newAgent03(t, reply03{body: `{"message":{"messageId":"m","role":"ROLE_AGENT","content":[{"text":"x"}]}}`})
	c, err := a2a.NewClient(a.URL, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.SendMessage(ctx, a2a.NewTextMessage("x"))
	if !errors.Is(err, a2a.ErrVersionMismatch) || !strings.Contains(err.Error(), "ProtocolV03") {
		t.Errorf("v1.0 client: error %v, want ErrVersionMismatch naming ProtocolV03", err)
	}
}

// TestREST03Hostile: replies that break the v0.3 proto's rules, each a
// typed error, none a panic or a partial result.
func TestREST03Hostile(t *testing.T) {
	ctx := context.Background()
	get := map[string]string{
		"two content members":  `{"id":"t1","artifacts":[{"artifactId":"a","parts":[{"text":"x","file":{"fileWithUri":"u"}}]}]}`,
		"text not a string":    `{"id":"t1","artifacts":[{"artifactId":"a","parts":[{"text":1}]}]}`,
		"file not an object":   `{"id":"t1","artifacts":[{"artifactId":"a","parts":[{"file":"u"}]}]}`,
		"content not an array": `{"id":"t1","history":[{"messageId":"m","content":{}}]}`,
		"state an object":      `{"id":"t1","status":{"state":{}}}`,
		"message and update":   `{"id":"t1","status":{"message":{"content":[]},"update":{"content":[]}}}`,
		"id and proto id":      `{"id":"t1","contextId":"a","context_id":"b"}`,
		"wrapped task":         `{"task":` + pbTask + `}`,
		"another task":         `{"id":"t2"}`,
		"no id":                `{"contextId":"c"}`,
		"not an object":        `[1]`,
		"null":                 `null`,
		"truncated":            `{"id":"t1","status":{`,
		"json-rpc envelope":    `{"jsonrpc":"2.0","id":1,"result":` + pbTask + `}`,
		"html 200":             `<html>hi</html>`,
		"deep nesting":         `{"id":"t1","metadata":` + strings.Repeat(`[`, 20000) + strings.Repeat(`]`, 20000) + `}`,
	}
	for name, body := range get {
		task, err := getPB(t, body)
		var pe *a2a.ProtocolError
		if task != nil || !errors.As(err, &pe) {
			t.Errorf("%s: %v, %v; want a *ProtocolError", name, task, err)
		}
	}
	push := map[string]string{
		"name of another task":  `{"name":"tasks/t2/pushNotificationConfigs/p1","pushNotificationConfig":{"url":"u"}}`,
		"name not a resource":   `{"name":"p1","pushNotificationConfig":{"url":"u"}}`,
		"id disagrees":          `{"name":"tasks/t1/pushNotificationConfigs/p1","pushNotificationConfig":{"id":"p9","url":"u"}}`,
		"no url":                `{"name":"tasks/t1/pushNotificationConfigs/p1","pushNotificationConfig":{"id":"p1"}}`,
		"no config":             `{"name":"tasks/t1/pushNotificationConfigs/p1"}`,
		"both names":            `{"name":"tasks/t1/pushNotificationConfigs/p1","pushNotificationConfig":{"url":"u"},"push_notification_config":{"url":"u"}}`,
		"another config":        `{"name":"tasks/t1/pushNotificationConfigs/p2","pushNotificationConfig":{"url":"u"}}`,
		"name in another case":  `{"Name":"tasks/t1/pushNotificationConfigs/p1","name":"tasks/t1/pushNotificationConfigs/p1","pushNotificationConfig":{"url":"u"}}`,
		"schemes not an array":  `{"name":"tasks/t1/pushNotificationConfigs/p1","pushNotificationConfig":{"url":"u","authentication":{"schemes":"Bearer"}}}`,
		"configs not an array":  `{"configs":{}}`,
		"page tokens disagree?": `{"configs":[],"nextPageToken":"a","next_page_token":"b"}`,
	}
	for name, body := range push {
		c := rest03Client(t, newAgent03(t, reply03{body: body}))
		var err error
		if strings.HasPrefix(name, "configs") || strings.HasPrefix(name, "page") {
			_, err = c.ListTaskPushNotificationConfigs(ctx, "t1")
		} else {
			_, err = c.GetTaskPushNotificationConfig(ctx, "t1", "p1")
		}
		var pe *a2a.ProtocolError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *ProtocolError", name, err)
		}
	}
	send := map[string]string{
		"message and msg":   `{"message":{"messageId":"m","content":[]},"msg":{"messageId":"m","content":[]}}`,
		"task and message":  `{"task":` + pbTask + `,"message":{"messageId":"m","content":[]}}`,
		"empty object":      `{}`,
		"message not obj":   `{"message":"hi"}`,
		"role not a string": `{"message":{"messageId":"m","role":[],"content":[]}}`,
	}
	for name, body := range send {
		res, err := rest03Client(t, newAgent03(t, reply03{body: body})).SendMessage(ctx, a2a.NewTextMessage("x"))
		var pe *a2a.ProtocolError
		if res != nil || !errors.As(err, &pe) {
			t.Errorf("%s: %v, %v; want a *ProtocolError", name, res, err)
		}
	}
	events := map[string]string{
		"no payload":     `{"futureEvent":{}}`,
		"another task":   `{"statusUpdate":{"taskId":"t9","status":{"state":"TASK_STATE_WORKING"}}}`,
		"final a string": `{"statusUpdate":{"taskId":"t1","status":{},"final":"yes"}}`,
	}
	for name, ev := range events {
		a := newAgent03(t, reply03{ctype: "text/event-stream", body: "data: " + ev + "\n\n"})
		_, err := drain(rest03Client(t, a).SubscribeToTask(ctx, "t1"))
		var pe *a2a.ProtocolError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v, want a *ProtocolError", name, err)
		}
	}
}

var rest03FuzzCalls = []string{"get", "send", "list", "stream", "push"}

// FuzzReplyREST03 feeds any reply body, with one of several statuses, to
// a client that speaks A2A v0.3 HTTP+JSON: GetTask, SendMessage,
// ListTasksPage, SendStreamingMessage (a body starting "data:" is served
// as an event stream) and ListTaskPushNotificationConfigs. Each call must
// end with a result or a typed error, never both or neither (a stream:
// events, then at most one typed error), and every task, message and
// event must be stable: encoded, decoded and encoded again it gives the
// same bytes. (A task's Raw is the v0.3 proto's JSON, which
// Task.UnmarshalJSON does not read: it reads v0.3 JSON-RPC and v1.0
// bytes.)
func FuzzReplyREST03(f *testing.F) {
	seeds := []string{pbTask, `{"task":` + pbTask + `}`, pbPush, `{"configs":[` + pbPush + `]}`, `[` + pbPush + `]`, pbCard,
		`{"msg":{"messageId":"m","role":2,"content":[{"text":"x"},{"file":{"fileWithBytes":"L3dBPQ=="}},{"data":{"data":{"k":[1]}}},{"video":1}]}}`,
		`{"id":"t1","status":{"state":"TASK_STATE_CANCELLED","update":{"content":[{"data":[1]}]}},"artifacts":[{"artifactId":"a","parts":[{"file":{"file_with_uri":"u"}}]}]}`,
		"data: {\"status_update\":{\"taskId\":\"t1\",\"status\":{\"state\":5},\"final\":true}}\n\n",
		"data: {\"artifactUpdate\":{\"taskId\":\"t1\",\"artifact\":{\"parts\":[{\"text\":\"x\"}]},\"append\":true}}\n\n",
		`{"tasks":[` + pbTask + `],"nextPageToken":"n"}`, `{"error":{"code":404,"status":"NOT_FOUND","message":"x"}}`, `{"message":"Task not found"}`}
	for i, seed := range seeds {
		f.Add([]byte(seed), uint8(i%len(fuzzStatuses)), uint8(i%len(rest03FuzzCalls)))
	}
	f.Fuzz(func(t *testing.T, body []byte, status, call uint8) {
		ctype := "application/json"
		if bytes.HasPrefix(body, []byte("data:")) {
			ctype = "text/event-stream"
		}
		fk := &fake{t: t, replies: []mockReply{{status: fuzzStatuses[int(status)%len(fuzzStatuses)], ctype: ctype, body: body}}}
		c, err := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: fk.transport()}), a2a.WithMaxRetries(0),
			a2a.WithTransports(a2a.TransportHTTPJSON))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var results []any
		switch rest03FuzzCalls[int(call)%len(rest03FuzzCalls)] {
		case "get":
			task, err := c.GetTask(ctx, "t1")
			results = oneOf(t, task, err)
		case "send":
			res, err := c.SendMessage(ctx, a2a.NewTextMessage("x"))
			results = oneOf(t, res, err)
		case "list":
			page, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{})
			if page != nil {
				for _, task := range page.Tasks {
					results = append(results, task)
				}
			}
			oneOf(t, page, err)
		case "push":
			cfgs, err := c.ListTaskPushNotificationConfigs(ctx, "t1")
			if (cfgs == nil) == (err == nil) {
				t.Fatalf("configs %v with error %v: want exactly one", cfgs, err)
			}
			if err != nil {
				checkTypedError(t, err)
			}
		default:
			for ev, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("x")) {
				if (ev == nil) == (err == nil) {
					t.Fatalf("event %#v with error %v: want exactly one", ev, err)
				}
				if err != nil {
					checkTypedError(t, err)
					continue
				}
				results = append(results, ev)
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("the call did not end: %v", ctx.Err())
		}
		for _, res := range results {
			first, err := json.Marshal(res)
			if err != nil {
				t.Fatalf("a decoded %T does not encode: %v", res, err)
			}
			again := newOfType(res)
			if err := json.Unmarshal(first, again); err != nil {
				t.Fatalf("a re-encoded %T does not decode: %v\n%s", res, err, first)
			}
			if second, err := json.Marshal(again); err != nil || !bytes.Equal(first, second) {
				t.Fatalf("decode/encode of a %T is not stable (%v):\n%s\n%s", res, err, first, second)
			}
		}
	})
}

// TestMemoryBoundREST03: TestMemoryBound's bound for a client that speaks
// A2A v0.3 over HTTP+JSON, on replies of the v0.3 proto's shapes: floods
// of tiny parts of each kind, of none, of members under both names,
// file bytes in base64 twice, push config lists of either form. (A
// stream event of tiny parts is over the bound on every binding:
// TestMemoryBoundV10 skips it for that client bug.)
func TestMemoryBoundREST03(t *testing.T) {
	const size, big = 1 << 20, 9 << 20
	task := func(members string) string {
		return `{"id":"t","status":{"state":"TASK_STATE_COMPLETED"},` + members + `}`
	}
	parts := func(part string, n int) string {
		return task(`"artifacts":[{"artifactId":"a","parts":[` + flood(part, n) + `]}]`)
	}
	runMemoryRows(t, []memRow{
		{"v0.3 proto parts of {}", "get+rest", parts("{}", size), "", false},
		{"v0.3 proto parts of 1", "get+rest", parts("1", size), "", false},
		{"v0.3 proto parts of {\"text\":\"\"}", "get+rest", parts(`{"text":""}`, size), "", false},
		{"v0.3 proto parts of {\"data\":{}}", "get+rest", parts(`{"data":{}}`, size), "", false},
		{"v0.3 proto parts of {\"file\":{}}", "get+rest", parts(`{"file":{}}`, size), "", false},
		{"v0.3 proto parts of {\"raw\":\"\"}", "get+rest", parts(`{"raw":""}`, size), "refused", false},
		{"v0.3 proto history of {}", "get+rest", task(`"history":[` + flood("{}", size) + `]`), "", false},
		{"v0.3 proto history of v1.0 messages", "get+rest", task(`"history":[` + flood(`{"parts":[]}`, size) + `]`), "refused", false},
		{"v0.3 proto members under both names", "get+rest", task(`"history":[` + flood(`{"contextId":"","context_id":""}`, size) + `]`), "refused", false},
		{"v0.3 proto a message of parts of {}", "send+rest", `{"msg":{"messageId":"m","content":[` + flood("{}", size) + `]}}`, "", false},
		{"v0.3 proto ListTasks of {}", "list+rest", `{"tasks":[` + flood("{}", size) + `]}`, "refused", false},
		{"v0.3 proto push configs of {}", "pushList+rest", `{"configs":[` + flood("{}", size) + `]}`, "refused", false},
		{"v0.3 proto push configs, a bare array", "pushList+rest", `[` + flood(`{"name":"tasks/t/pushNotificationConfigs/c","pushNotificationConfig":{"url":"u","authentication":{}}}`, size) + `]`, "ok", false},
		{"9 MiB: v0.3 proto file bytes in base64 twice", "get+chunked+rest", task(`"artifacts":[{"artifactId":"a","parts":[{"file":{"fileWithBytes":"` +
			base64.StdEncoding.EncodeToString([]byte(base64.StdEncoding.EncodeToString(make([]byte, big*9/16)))) + `"}}]}]`), "ok", false},
		{"9 MiB: v0.3 proto parts of {\"text\":\"a\"}", "get+chunked+rest", parts(`{"text":"a"}`, big), "", false},
		// Compact messages take more than the 4 bytes a byte the decode
		// budget allows (as v1.0's do): refused or not, within the bound.
		{"9 MiB: v0.3 proto history of small messages", "get+chunked+rest", task(`"history":[` + flood(`{"messageId":"m","role":"ROLE_AGENT","content":[{"text":"ok"}]}`, big) + `]`), "", false},
		{"9 MiB: v0.3 proto honest history", "get+chunked+rest", task(`"history":[` + flood(`{"messageId":"m-0001","contextId":"c-0001","taskId":"t","role":"ROLE_AGENT","content":[{"text":"设备运行状态正常"}]}`, big) + `]`), "ok", false},
	}, a2a.WithTransports(a2a.TransportHTTPJSON))
}
