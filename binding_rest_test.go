package a2a_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// The HTTP+JSON (REST) binding's requests (A2A v1.0 §11; the
// google.api.http options of a2a.proto): for each operation, the method,
// the request target as sent (escaped path and query), the headers that
// matter and the body bytes.

// restSeen is one request as a REST test server received it.
type restSeen struct {
	Method string
	URI    string // r.RequestURI: the escaped path and query as sent
	Body   string
	// The headers a REST request is judged by.
	Version, ContentType, Accept string
}

// restServer is a loopback server answering every request with reply
// (status, Content-Type, body) and recording what it received.
type restServer struct {
	mu   sync.Mutex
	seen []restSeen
	// answer, when set, answers instead of the fixed reply.
	answer func(w http.ResponseWriter, r *http.Request, n int)
}

func (s *restServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.seen = append(s.seen, restSeen{Method: r.Method, URI: r.RequestURI, Body: string(body),
		Version: r.Header.Get("A2A-Version"), ContentType: r.Header.Get("Content-Type"), Accept: r.Header.Get("Accept")})
	n := len(s.seen)
	s.mu.Unlock()
	s.answer(w, r, n)
}

func (s *restServer) requests() []restSeen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]restSeen(nil), s.seen...)
}

// serveREST starts a restServer with answer and returns it with its URL.
func serveREST(t testing.TB, answer func(w http.ResponseWriter, r *http.Request, n int)) (*restServer, string) {
	s := &restServer{answer: answer}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// answerWith answers every request with status, Content-Type ctype and body.
func answerWith(status int, ctype, body string) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, _ *http.Request, _ int) {
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// restClient is a v1.0 HTTP+JSON client of endpoint with fast retries.
func restClient(t testing.TB, endpoint string, opts ...a2a.Option) *a2a.Client {
	t.Helper()
	c, err := a2a.NewClient(endpoint, append([]a2a.Option{a2a.WithTransports(a2a.TransportHTTPJSON),
		a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithRetryWait(time.Millisecond, 2*time.Millisecond)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const (
	restTask     = `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}`
	restPushConf = `{"taskId":"t1","id":"cfg-1","url":"https://client.example/hook"}`
)

// restMessage is a message with fixed ids, so its body is known.
func restMessage() a2a.Message {
	m := a2a.NewTextMessage("你好")
	m.MessageID = "m1"
	return m
}

// TestRESTRequests: each operation's request snapshot, under an interface
// URL with a path, with a tenant and without.
func TestRESTRequests(t *testing.T) {
	after := time.Date(2026, 5, 1, 12, 30, 0, 7_000_000, time.FixedZone("CEST", 2*3600))
	ok := func(_ any, err error) error { return err }
	rows := []struct {
		name   string
		tenant string
		reply  string
		status int
		call   func(ctx context.Context, c *a2a.Client) error
		stream bool
		want   restSeen
	}{
		{name: "send", reply: `{"task":` + restTask + `}`,
			call: func(ctx context.Context, c *a2a.Client) error { return ok(c.SendMessage(ctx, restMessage())) },
			want: restSeen{Method: "POST", URI: "/a2a/rest/message:send",
				Body: `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"你好"}]}}`}},
		{name: "send with configuration", reply: `{"message":{"messageId":"m9","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`,
			call: func(ctx context.Context, c *a2a.Client) error {
				return ok(c.SendMessage(ctx, restMessage(), a2a.Blocking(false), a2a.HistoryLength(0), a2a.AcceptedOutputModes("text/plain")))
			},
			want: restSeen{Method: "POST", URI: "/a2a/rest/message:send",
				Body: `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"你好"}]},"configuration":{"acceptedOutputModes":["text/plain"],"historyLength":0,"returnImmediately":true}}`}},
		{name: "send with a tenant: in the path, not the body", tenant: "projects/p/locations/l", reply: `{"task":` + restTask + `}`,
			call: func(ctx context.Context, c *a2a.Client) error { return ok(c.SendMessage(ctx, restMessage())) },
			want: restSeen{Method: "POST", URI: "/a2a/rest/projects/p/locations/l/message:send",
				Body: `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"你好"}]}}`}},
		{name: "stream", stream: true, reply: "data: {\"task\":" + restTask + "}\n\n",
			call: func(ctx context.Context, c *a2a.Client) error {
				for _, err := range c.SendStreamingMessage(ctx, restMessage()) {
					return err
				}
				return nil
			},
			want: restSeen{Method: "POST", URI: "/a2a/rest/message:stream",
				Body: `{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"你好"}]}}`}},
		{name: "get", reply: restTask,
			call: func(ctx context.Context, c *a2a.Client) error { return ok(c.GetTask(ctx, "t1")) },
			want: restSeen{Method: "GET", URI: "/a2a/rest/tasks/t1"}},
		{name: "get with history length 0 (kept)", reply: restTask,
			call: func(ctx context.Context, c *a2a.Client) error { return ok(c.GetTask(ctx, "t1", a2a.HistoryLength(0))) },
			want: restSeen{Method: "GET", URI: "/a2a/rest/tasks/t1?historyLength=0"}},
		{name: "get with a tenant", tenant: "t1", reply: restTask,
			call: func(ctx context.Context, c *a2a.Client) error { return ok(c.GetTask(ctx, "t1", a2a.HistoryLength(3))) },
			want: restSeen{Method: "GET", URI: "/a2a/rest/t1/tasks/t1?historyLength=3"}},
		{name: "list, every filter", reply: `{"tasks":[],"nextPageToken":"","pageSize":20,"totalSize":0}`,
			call: func(ctx context.Context, c *a2a.Client) error {
				return ok(c.ListTasksPage(ctx, a2a.ListTasksRequest{ContextID: "c 1", Status: a2a.TaskStateWorking, PageSize: 20,
					PageToken: "p+2/=", StatusTimestampAfter: after, IncludeArtifacts: true}, a2a.HistoryLength(0)))
			},
			want: restSeen{Method: "GET", URI: "/a2a/rest/tasks?contextId=c%201&historyLength=0&includeArtifacts=true&pageSize=20&pageToken=p%2B2%2F%3D&status=TASK_STATE_WORKING&statusTimestampAfter=2026-05-01T10%3A30%3A00.007Z"}},
		{name: "list, no filter", reply: `{}`,
			call: func(ctx context.Context, c *a2a.Client) error {
				return ok(c.ListTasksPage(ctx, a2a.ListTasksRequest{}))
			},
			want: restSeen{Method: "GET", URI: "/a2a/rest/tasks"}},
		{name: "cancel: no body", reply: restTask,
			call: func(ctx context.Context, c *a2a.Client) error { return ok(c.CancelTask(ctx, "t1")) },
			want: restSeen{Method: "POST", URI: "/a2a/rest/tasks/t1:cancel"}},
		{name: "subscribe: POST, no body", stream: true, reply: "data: {\"task\":" + restTask + "}\n\n",
			call: func(ctx context.Context, c *a2a.Client) error {
				for _, err := range c.SubscribeToTask(ctx, "t1") {
					return err
				}
				return nil
			},
			want: restSeen{Method: "POST", URI: "/a2a/rest/tasks/t1:subscribe"}},
		{name: "push create: taskId kept in the body", tenant: "t9", reply: restPushConf, status: http.StatusCreated,
			call: func(ctx context.Context, c *a2a.Client) error {
				return ok(c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: "t1",
					PushNotificationConfig: a2a.PushNotificationConfig{ID: "cfg-1", URL: "https://client.example/hook", Token: "tok-1"}}))
			},
			want: restSeen{Method: "POST", URI: "/a2a/rest/t9/tasks/t1/pushNotificationConfigs",
				Body: `{"id":"cfg-1","taskId":"t1","url":"https://client.example/hook","token":"tok-1"}`}},
		{name: "push get", reply: restPushConf,
			call: func(ctx context.Context, c *a2a.Client) error {
				return ok(c.GetTaskPushNotificationConfig(ctx, "t1", "cfg-1"))
			},
			want: restSeen{Method: "GET", URI: "/a2a/rest/tasks/t1/pushNotificationConfigs/cfg-1"}},
		{name: "push list", reply: `{"configs":[` + restPushConf + `]}`,
			call: func(ctx context.Context, c *a2a.Client) error {
				return ok(c.ListTaskPushNotificationConfigs(ctx, "t1"))
			},
			want: restSeen{Method: "GET", URI: "/a2a/rest/tasks/t1/pushNotificationConfigs"}},
		{name: "push delete: 204", reply: "", status: http.StatusNoContent,
			call: func(ctx context.Context, c *a2a.Client) error {
				return c.DeleteTaskPushNotificationConfig(ctx, "t1", "cfg-1")
			},
			want: restSeen{Method: "DELETE", URI: "/a2a/rest/tasks/t1/pushNotificationConfigs/cfg-1"}},
		{name: "extended card", reply: `{"name":"x","description":"d","version":"1","supportedInterfaces":[]}`,
			call: func(ctx context.Context, c *a2a.Client) error { return ok(c.GetExtendedAgentCard(ctx)) },
			want: restSeen{Method: "GET", URI: "/a2a/rest/extendedAgentCard"}},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			ctype := "application/json"
			if row.stream {
				ctype = "text/event-stream"
			}
			srv, url := serveREST(t, answerWith(max(row.status, 200), ctype, row.reply))
			var opts []a2a.Option
			if row.tenant != "" {
				opts = append(opts, a2a.WithTenant(row.tenant))
			}
			c := restClient(t, url+"/a2a/rest", opts...)
			if err := row.call(context.Background(), c); err != nil {
				t.Fatalf("call: %v", err)
			}
			want := row.want
			want.Version, want.Accept = "1.0", "application/json"
			if row.stream {
				want.Accept = "text/event-stream"
			}
			if want.Body != "" {
				want.ContentType = "application/json" // never application/a2a+json
			}
			if diff := cmp.Diff([]restSeen{want}, srv.requests()); diff != "" {
				t.Errorf("requests (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRESTPaths: a task id, config id or tenant stays in its own path
// segments whatever it holds; "." and ".." are refused before sending; the
// interface URL's own path, trailing "/" and query are kept.
func TestRESTPaths(t *testing.T) {
	rows := []struct {
		name, base, tenant, id string
		want                   string // the request target; "" when refused
		wantErr                string
	}{
		{name: "id with /", id: "a/b", want: "/tasks/a%2Fb"},
		{name: "id with ?", id: "a?b", want: "/tasks/a%3Fb"},
		{name: "id with #", id: "a#b", want: "/tasks/a%23b"},
		{name: "id with an escape", id: "a%2Fb", want: "/tasks/a%252Fb"},
		{name: "id with :", id: "a:b", want: "/tasks/a%3Ab"},
		{name: "id with a space and control characters", id: "a b\x00\r\n", want: "/tasks/a%20b%00%0D%0A"},
		{name: "id not ASCII", id: "任务-1", want: "/tasks/%E4%BB%BB%E5%8A%A1-1"},
		{name: "id ..", id: "..", wantErr: `a2a: GetTask: id ".." cannot be sent as a URL path segment`},
		{name: "id .", id: ".", wantErr: `a2a: GetTask: id "." cannot be sent as a URL path segment`},
		{name: "id with dots inside", id: "a..b", want: "/tasks/a..b"},
		{name: "tenant one segment", tenant: "t1", id: "x", want: "/t1/tasks/x"},
		{name: "tenant several segments", tenant: "projects/p/locations/l", id: "x", want: "/projects/p/locations/l/tasks/x"},
		{name: "tenant with a space", tenant: "a b", id: "x", want: "/a%20b/tasks/x"},
		{name: "tenant with an escape and ?", tenant: "a%2Fb?c", id: "x", want: "/a%252Fb%3Fc/tasks/x"},
		{name: "tenant with ..", tenant: "p/../admin", id: "x", wantErr: `a2a: WithTenant: tenant "p/../admin": its segment ".." cannot be sent as a URL path segment`},
		{name: "tenant with an empty segment", tenant: "p//l", id: "x", wantErr: `a2a: WithTenant: tenant "p//l" has an empty path segment`},
		{name: "base with a trailing /", base: "/a2a/", id: "x", want: "/a2a/tasks/x"},
		{name: "base with its own query, merged", base: "/a2a?key=k%2B1&flag", id: "x", want: "/a2a/tasks/x?key=k%2B1&flag"},
		{name: "base with an escaped path", base: "/a%20b/v1", id: "x", want: "/a%20b/v1/tasks/x"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			id, _ := json.Marshal(row.id)
			srv, url := serveREST(t, answerWith(200, "application/json", `{"id":`+string(id)+`,"contextId":"c","status":{"state":"TASK_STATE_WORKING"}}`))
			var opts []a2a.Option
			if row.tenant != "" {
				opts = append(opts, a2a.WithTenant(row.tenant))
			}
			c, err := a2a.NewClient(url+row.base, append(opts, a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithProtocolVersion(a2a.ProtocolV10))...)
			if err == nil {
				_, err = c.GetTask(context.Background(), row.id)
			}
			if row.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), row.wantErr) {
					t.Fatalf("err = %v, want one starting %q", err, row.wantErr)
				}
				if n := len(srv.requests()); n != 0 {
					t.Errorf("%d requests sent, want none", n)
				}
				return
			}
			if err != nil {
				t.Fatalf("GetTask: %v", err)
			}
			seen := srv.requests()
			if len(seen) != 1 || seen[0].URI != row.want {
				t.Errorf("requests %+v, want one to %q", seen, row.want)
			}
		})
	}
}

// TestRESTPathsOfPushConfigs: both ids of a push config call are escaped,
// each in its own segment.
func TestRESTPathsOfPushConfigs(t *testing.T) {
	srv, url := serveREST(t, answerWith(200, "application/json", ""))
	c := restClient(t, url)
	if err := c.DeleteTaskPushNotificationConfig(context.Background(), "t/1", "../c?1"); err != nil {
		t.Fatal(err)
	}
	_, err := c.GetTaskPushNotificationConfig(context.Background(), "t1", "..")
	if err == nil || !strings.Contains(err.Error(), `id ".." cannot be sent`) {
		t.Errorf("get config ..: err = %v", err)
	}
	want := []restSeen{{Method: "DELETE", URI: "/tasks/t%2F1/pushNotificationConfigs/..%2Fc%3F1", Version: "1.0", Accept: "application/json"}}
	if diff := cmp.Diff(want, srv.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestRESTCallTenant: a call's own Tenant goes in its path, and one that
// cannot be a path prefix is refused before sending.
func TestRESTCallTenant(t *testing.T) {
	srv, url := serveREST(t, answerWith(200, "application/json", restTask))
	c := restClient(t, url, a2a.WithTenant("t0"))
	if _, err := c.GetTask(context.Background(), "t1", a2a.Tenant("other/x")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTask(context.Background(), "t1", a2a.Tenant("..")); err == nil || !strings.Contains(err.Error(), `tenant ".."`) {
		t.Errorf("tenant ..: err = %v", err)
	}
	if _, err := c.GetTask(context.Background(), "t1", a2a.Tenant("")); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range srv.requests() {
		got = append(got, r.URI)
	}
	if diff := cmp.Diff([]string{"/other/x/tasks/t1", "/tasks/t1"}, got); diff != "" {
		t.Errorf("targets (-want +got):\n%s", diff)
	}
}

// TestRESTAgentSelector: an HTTP+JSON request has no envelope for a
// gateway's agent selector, so NewClient refuses one.
func TestRESTAgentSelector(t *testing.T) {
	for _, opt := range []a2a.Option{a2a.WithAgentID("a1"), a2a.WithAgentCode("c1")} {
		_, err := a2a.NewClient("https://agent.example/a2a", opt, a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithProtocolVersion(a2a.ProtocolV10))
		if err == nil || !strings.Contains(err.Error(), "HTTP+JSON requests do not have") {
			t.Errorf("err = %v, want the selector refused", err)
		}
	}
	if _, err := a2a.NewClient("https://agent.example/a2a", a2a.WithAgentID("a1"), a2a.WithTransports(a2a.TransportJSONRPC)); err != nil {
		t.Errorf("JSON-RPC with a selector: %v", err)
	}
}

// TestRESTQueryMerged: a call's query is appended to the interface URL's
// own, which is kept byte for byte (order, escapes, a key without "=").
func TestRESTQueryMerged(t *testing.T) {
	srv, url := serveREST(t, answerWith(200, "application/json", restTask))
	c := restClient(t, url+"/a2a?sig=a%2Fb&flag&a=1")
	if _, err := c.GetTask(context.Background(), "t1", a2a.HistoryLength(2)); err != nil {
		t.Fatal(err)
	}
	if got := srv.requests()[0].URI; got != "/a2a/tasks/t1?sig=a%2Fb&flag&a=1&historyLength=2" {
		t.Errorf("target %q", got)
	}
}
