package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// reply03 is one scripted reply of agent03.
type reply03 struct {
	status int
	ctype  string
	body   string
}

// seen03 is one request agent03 received.
type seen03 struct {
	method, uri string
	header      http.Header
	body        string
}

// agent03 is a loopback HTTP+JSON agent answering with replies in turn
// (the last one again once they run out) and recording every request.
type agent03 struct {
	*httptest.Server
	mu      sync.Mutex
	replies []reply03
	seen    []seen03
}

func newAgent03(t *testing.T, replies ...reply03) *agent03 {
	t.Helper()
	a := &agent03{replies: replies}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		a.mu.Lock()
		a.seen = append(a.seen, seen03{r.Method, r.RequestURI, r.Header.Clone(), string(body)})
		rep := a.replies[min(len(a.seen), len(a.replies))-1]
		a.mu.Unlock()
		if rep.ctype == "" {
			rep.ctype = "application/json"
		}
		w.Header().Set("Content-Type", rep.ctype)
		w.WriteHeader(orStatus(rep.status, http.StatusOK))
		io.WriteString(w, rep.body)
	}))
	t.Cleanup(a.Close)
	return a
}

func orStatus(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}

func (a *agent03) requests() []seen03 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]seen03(nil), a.seen...)
}

// rest03Client is a client speaking A2A v0.3 HTTP+JSON to a, at a path
// under it.
func rest03Client(t *testing.T, a *agent03) *a2a.Client {
	t.Helper()
	c, err := a2a.NewClient(a.URL+"/a2a", a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const (
	pbTask      = `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}`
	pbPush      = `{"name":"tasks/t1/pushNotificationConfigs/p1","pushNotificationConfig":{"id":"p1","url":"https://hook.example/x","token":"tok"}}`
	pbCard      = `{"protocolVersion":"0.3.0","name":"n","description":"d","version":"1","url":"https://agent.example/a2a","preferredTransport":"HTTP+JSON","capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`
	messageUUID = "00000000-0000-4000-8000-000000000001"
)

// TestREST03Requests: each operation's request as sent (verb, escaped
// path and query under the interface URL, headers, body bytes).
func TestREST03Requests(t *testing.T) {
	msg := a2a.Message{MessageID: messageUUID, Role: a2a.RoleUser, ContextID: "c1", Metadata: json.RawMessage(`{"k":1}`),
		Parts: a2a.Parts{a2a.TextPart{Text: "你好", MediaType: "text/plain"}, a2a.DataPart{Data: json.RawMessage(`{"a":[1]}`)},
			a2a.NewFileBytes("f.bin", "application/octet-stream", []byte{0xff, 0}),
			a2a.FilePart{File: a2a.FileContent{URI: "https://x.example/f", MIMEType: "text/plain"}}}}
	const sendBody = `{"message":{"messageId":"` + messageUUID + `","contextId":"c1","role":"ROLE_USER","content":[` +
		`{"text":"你好"},{"data":{"data":{"a":[1]}}},{"file":{"fileWithBytes":"L3dBPQ==","mimeType":"application/octet-stream","name":"f.bin"}},` +
		`{"file":{"fileWithUri":"https://x.example/f","mimeType":"text/plain"}}],"metadata":{"k":1}},"configuration":{"blocking":true}}`
	hl := 2
	tests := []struct {
		name  string
		reply reply03
		call  func(c *a2a.Client) error
		verb  string
		uri   string
		body  string
		sse   bool
	}{
		{"send", reply03{body: `{"task":` + pbTask + `}`}, func(c *a2a.Client) error {
			_, err := c.SendMessage(context.Background(), msg)
			return err
		}, "POST", "/a2a/v1/message:send", sendBody, false},
		{"stream", reply03{ctype: "text/event-stream", body: "data: {\"task\":" + pbTask + "}\n\n"}, func(c *a2a.Client) error {
			_, err := drain(c.SendStreamingMessage(context.Background(), msg))
			return err
		}, "POST", "/a2a/v1/message:stream", sendBody, true},
		{"send non-blocking with push", reply03{body: `{"task":` + pbTask + `}`}, func(c *a2a.Client) error {
			_, err := c.SendMessage(context.Background(), a2a.Message{MessageID: messageUUID, Role: a2a.RoleUser, Parts: a2a.Parts{a2a.TextPart{Text: "x"}}},
				a2a.Blocking(false), a2a.HistoryLength(0), a2a.AcceptedOutputModes("text/plain"),
				a2a.Webhook(a2a.PushNotificationConfig{URL: "https://hook.example/x", Token: "tok",
					Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: "cred"}}))
			return err
		}, "POST", "/a2a/v1/message:send", `{"message":{"messageId":"` + messageUUID + `","role":"ROLE_USER","content":[{"text":"x"}]},` +
			`"configuration":{"acceptedOutputModes":["text/plain"],"pushNotification":{"url":"https://hook.example/x","token":"tok",` +
			`"authentication":{"schemes":["Bearer"],"credentials":"cred"}},"historyLength":0,"blocking":false}}`, false},
		{"get", reply03{body: pbTask}, func(c *a2a.Client) error {
			_, err := c.GetTask(context.Background(), "t1", a2a.HistoryLength(hl))
			return err
		}, "GET", "/a2a/v1/tasks/t1?historyLength=2", "", false},
		{"get escaped id", reply03{body: strings.Replace(pbTask, `"t1"`, `"a/b?c#d%"`, 1)}, func(c *a2a.Client) error {
			_, err := c.GetTask(context.Background(), "a/b?c#d%")
			return err
		}, "GET", "/a2a/v1/tasks/a%2Fb%3Fc%23d%25", "", false},
		{"cancel", reply03{body: pbTask}, func(c *a2a.Client) error {
			_, err := c.CancelTask(context.Background(), "t1")
			return err
		}, "POST", "/a2a/v1/tasks/t1:cancel", "", false},
		{"subscribe", reply03{ctype: "text/event-stream", body: "data: {\"task\":" + pbTask + "}\n\n"}, func(c *a2a.Client) error {
			_, err := drain(c.SubscribeToTask(context.Background(), "t1"))
			return err
		}, "GET", "/a2a/v1/tasks/t1:subscribe", "", true},
		{"create push", reply03{body: pbPush}, func(c *a2a.Client) error {
			_, err := c.CreateTaskPushNotificationConfig(context.Background(), a2a.TaskPushNotificationConfig{TaskID: "t1",
				PushNotificationConfig: a2a.PushNotificationConfig{ID: "p1", URL: "https://hook.example/x", Token: "tok"}})
			return err
		}, "POST", "/a2a/v1/tasks/t1/pushNotificationConfigs", `{"parent":"tasks/t1","configId":"p1","config":{"name":"tasks/t1/pushNotificationConfigs/p1",` +
			`"pushNotificationConfig":{"id":"p1","url":"https://hook.example/x","token":"tok"}}}`, false},
		{"get push", reply03{body: pbPush}, func(c *a2a.Client) error {
			_, err := c.GetTaskPushNotificationConfig(context.Background(), "t1", "p1")
			return err
		}, "GET", "/a2a/v1/tasks/t1/pushNotificationConfigs/p1", "", false},
		{"list push", reply03{body: `{"configs":[` + pbPush + `]}`}, func(c *a2a.Client) error {
			_, err := c.ListTaskPushNotificationConfigs(context.Background(), "t1")
			return err
		}, "GET", "/a2a/v1/tasks/t1/pushNotificationConfigs", "", false},
		{"delete push", reply03{status: http.StatusNoContent}, func(c *a2a.Client) error {
			return c.DeleteTaskPushNotificationConfig(context.Background(), "t1", "p1")
		}, "DELETE", "/a2a/v1/tasks/t1/pushNotificationConfigs/p1", "", false},
		{"extended card", reply03{body: pbCard}, func(c *a2a.Client) error {
			_, err := c.GetExtendedAgentCard(context.Background())
			return err
		}, "GET", "/a2a/v1/card", "", false},
		{"list tasks", reply03{body: `{"tasks":[` + pbTask + `]}`}, func(c *a2a.Client) error {
			_, err := c.ListTasksPage(context.Background(), a2a.ListTasksRequest{ContextID: "c 1", Status: a2a.TaskStateCanceled, PageSize: 5})
			return err
		}, "GET", "/a2a/v1/tasks?contextId=c%201&pageSize=5&status=TASK_STATE_CANCELLED", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAgent03(t, tt.reply)
			if err := tt.call(rest03Client(t, a)); err != nil {
				t.Fatalf("call: %v", err)
			}
			seen := a.requests()
			if len(seen) != 1 {
				t.Fatalf("%d requests, want 1", len(seen))
			}
			r := seen[0]
			if r.method != tt.verb || r.uri != tt.uri {
				t.Errorf("request %s %s, want %s %s", r.method, r.uri, tt.verb, tt.uri)
			}
			if r.body != tt.body {
				t.Errorf("body:\n got %s\nwant %s", r.body, tt.body)
			}
			want := map[string]string{"A2A-Version": "0.3", "Accept": "application/json", "Content-Type": ""}
			if tt.sse {
				want["Accept"] = "text/event-stream"
			}
			if tt.body != "" {
				want["Content-Type"] = "application/json"
			}
			for k, v := range want {
				if got := r.header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

// TestREST03RefusedRequests: what the v0.3 proto cannot carry is refused
// before anything is sent.
func TestREST03RefusedRequests(t *testing.T) {
	a := newAgent03(t, reply03{body: pbTask})
	c := rest03Client(t, a)
	ctx := context.Background()
	text := a2a.Parts{a2a.TextPart{Text: "x"}}
	for name, call := range map[string]func() error{
		"reference task ids": func() error {
			_, err := c.SendMessage(ctx, a2a.Message{Role: a2a.RoleUser, Parts: text, ReferenceTaskIDs: []string{"t0"}})
			return err
		},
		"data not an object": func() error {
			_, err := c.SendMessage(ctx, a2a.Message{Role: a2a.RoleUser, Parts: a2a.Parts{a2a.DataPart{Data: json.RawMessage(`[1]`)}}})
			return err
		},
		"file with both": func() error {
			_, err := c.SendMessage(ctx, a2a.Message{Role: a2a.RoleUser, Parts: a2a.Parts{a2a.FilePart{File: a2a.FileContent{URI: "u", Bytes: "QQ=="}}}})
			return err
		},
		"unknown part with a kind": func() error {
			_, err := c.SendMessage(ctx, a2a.Message{Role: a2a.RoleUser, Parts: a2a.Parts{a2a.UnknownPart{PartKind: "x", Raw: json.RawMessage(`{}`)}}})
			return err
		},
		"get push without id": func() error { _, err := c.GetTaskPushNotificationConfig(ctx, "t1", ""); return err },
		"id ..":               func() error { _, err := c.GetTask(ctx, ".."); return err },
		"tenant":              func() error { _, err := c.GetTask(ctx, "t1", a2a.Tenant("x")); return err },
	} {
		if err := call(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if n := len(a.requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

// TestREST03SubscribeFallback: subscribe is GET first; an agent that
// refuses it with 405 (or a 404 naming the ":subscribe" path, a server
// that routed it as a GetTask) gets POST, once, and the client's later
// subscribes start with POST.
func TestREST03SubscribeFallback(t *testing.T) {
	stream := reply03{ctype: "text/event-stream", body: "data: {\"task\":" + pbTask + "}\n\n"}
	for name, refusal := range map[string]reply03{
		"405":           {status: http.StatusMethodNotAllowed, ctype: "text/plain", body: "method not allowed"},
		"404 subscribe": {status: http.StatusNotFound, body: `{"message":"Task not found: t1:subscribe"}`},
	} {
		t.Run(name, func(t *testing.T) {
			a := newAgent03(t, refusal, stream)
			c := rest03Client(t, a)
			for range 2 {
				n, err := drain(c.SubscribeToTask(context.Background(), "t1"))
				if err != nil || n != 1 {
					t.Fatalf("events %d, error %v", n, err)
				}
			}
			var verbs []string
			for _, r := range a.requests() {
				verbs = append(verbs, r.method+" "+r.uri)
			}
			want := "GET /a2a/v1/tasks/t1:subscribe,POST /a2a/v1/tasks/t1:subscribe,POST /a2a/v1/tasks/t1:subscribe"
			if got := strings.Join(verbs, ","); got != want {
				t.Errorf("requests %s\nwant %s", got, want)
			}
		})
	}
	t.Run("405 twice", func(t *testing.T) {
		a := newAgent03(t, reply03{status: http.StatusMethodNotAllowed, ctype: "text/plain", body: "no"})
		_, err := drain(rest03Client(t, a).SubscribeToTask(context.Background(), "t1"))
		var he *a2a.HTTPError
		if !errors.As(err, &he) || he.StatusCode != http.StatusMethodNotAllowed {
			t.Fatalf("error %v, want an *HTTPError 405", err)
		}
		if n := len(a.requests()); n != 2 {
			t.Errorf("%d requests, want 2 (GET, then POST once)", n)
		}
	})
}

// TestREST03Version: NewClient with WithTransports(TransportHTTPJSON)
// speaks v0.3 HTTP+JSON by default; a REST error naming
// VERSION_NOT_SUPPORTED carries a hint toward v1.0.
func TestREST03Version(t *testing.T) {
	a := newAgent03(t, reply03{status: http.StatusBadRequest, body: `{"error":{"code":400,"status":"FAILED_PRECONDITION","message":"v0.3 not served",` +
		`"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"VERSION_NOT_SUPPORTED","domain":"a2a-protocol.org"}]}}`})
	c := rest03Client(t, a)
	if v := c.ProtocolVersion(); v != a2a.ProtocolV03 {
		t.Errorf("ProtocolVersion %q", v)
	}
	_, err := c.GetTask(context.Background(), "t1")
	var re *a2a.RPCError
	if !errors.As(err, &re) || !strings.Contains(re.Hint, "ProtocolV10") {
		t.Fatalf("error %v, want an *RPCError with a hint toward v1.0", err)
	}
}

// TestREST03AgainstFake: the client against a2atest's A2A v0.3 HTTP+JSON
// agent, which decodes every request strictly: send (Chinese text, data
// and a file), get with history, stream, push config create (two
// schemes, which v0.3 carries and v1.0 does not) / get / list / delete.
func TestREST03AgainstFake(t *testing.T) {
	srv := a2atest.NewServer(a2atest.HTTPJSON(), a2atest.OnSend(a2atest.Caoliao))
	defer srv.Close()
	c, err := a2a.NewClient(srv.URL, a2a.WithTransports(a2a.TransportHTTPJSON))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	msg := a2a.NewTextMessage("这个二维码是什么？https://qr71.cn/okDISU/qssTnoy")
	msg.Parts = append(msg.Parts, a2a.DataPart{Data: json.RawMessage(`{"k":"值"}`)}, a2a.NewFileBytes("f.bin", "application/octet-stream", []byte{0xff, 0, 1}))
	res, err := c.SendMessage(ctx, msg)
	task, ok := res.(*a2a.Task)
	if err != nil || !ok || task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("send: %#v, %v", res, err)
	}
	got, err := c.GetTask(ctx, task.ID, a2a.HistoryLength(1))
	if err != nil || got.Artifact("entity").Text() != task.Artifact("entity").Text() {
		t.Fatalf("get: %+v, %v", got, err)
	}
	n, err := drain(c.SendStreamingMessage(ctx, a2a.NewTextMessage("这个二维码是什么？https://qr71.cn/okDISU/qssTnoy")))
	if err != nil || n == 0 {
		t.Errorf("stream: %d events, %v", n, err)
	}
	cfg := a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: a2a.PushNotificationConfig{ID: "p1", URL: "https://hook.example/x", Token: "tok",
		Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer", "Basic"}, Credentials: "c"}}}
	created, err := c.CreateTaskPushNotificationConfig(ctx, cfg)
	if err != nil || created.PushNotificationConfig.ID != "p1" {
		t.Fatalf("create push: %+v, %v", created, err)
	}
	if got, err := c.GetTaskPushNotificationConfig(ctx, task.ID, "p1"); err != nil || got.PushNotificationConfig.URL != cfg.PushNotificationConfig.URL ||
		len(got.PushNotificationConfig.Authentication.Schemes) != 2 {
		t.Errorf("get push: %+v, %v", got, err)
	}
	if list, err := c.ListTaskPushNotificationConfigs(ctx, task.ID); err != nil || len(list) != 1 {
		t.Errorf("list push: %+v, %v", list, err)
	}
	if err := c.DeleteTaskPushNotificationConfig(ctx, task.ID, "p1"); err != nil {
		t.Errorf("delete push: %v", err)
	}
	// Without an id (the agent may assign one on the other bindings): the
	// v0.3 proto's configId is required, so the client names one.
	anon := a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: a2a.PushNotificationConfig{URL: "https://hook.example/y"}}
	created, err = c.CreateTaskPushNotificationConfig(ctx, anon)
	if err != nil || created.PushNotificationConfig.ID == "" {
		t.Fatalf("create push without an id: %+v, %v", created, err)
	}
	if got, err := c.GetTaskPushNotificationConfig(ctx, task.ID, created.PushNotificationConfig.ID); err != nil || got.PushNotificationConfig.URL != anon.PushNotificationConfig.URL {
		t.Errorf("get push created without an id: %+v, %v", got, err)
	}
	for _, r := range srv.Requests() {
		if !strings.HasPrefix(r.Path, "/a2a/rest/v1/") {
			t.Errorf("request %s %s", r.HTTPMethod, r.Path)
		}
	}
}
