package interop

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// rawReply is what a peer answered a request sent without this SDK.
type rawReply struct {
	status      int
	contentType string // media type only
	header      http.Header
	body        string
}

// rawDo sends method to url with body (none when ""), as peerUser, and
// reads the whole reply.
func rawDo(t *testing.T, method, url, body string) rawReply {
	t.Helper()
	return rawDoAs(t, peerUser, method, url, body)
}

// rawDoAs is rawDo as the user named user ([bearerUser]; "" for an
// anonymous caller).
func rawDoAs(t *testing.T, user, method, url, body string) rawReply {
	t.Helper()
	req, err := http.NewRequestWithContext(testCtx(t), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if user != "" {
		req.Header.Set("Authorization", "Bearer "+user)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return rawReply{status: resp.StatusCode, contentType: mt, header: resp.Header, body: string(b)}
}

// TestGoPeerRESTDeviations holds the evidence for each way a2a-go v2.4.0's
// REST server departs from the A2A v1.0 specification (or from what a
// client would assume) that the client tolerates, as docs/protocol-versions.md
// lists them: the reply as the peer sends it, read without this SDK, then
// what the client makes of it. A row whose peer behaviour changes fails,
// so the list stays true.
func TestGoPeerRESTDeviations(t *testing.T) {
	p := startRESTPeer(t)
	rest := p.url(restPrefix)
	c := dialREST(rest, a2a.ProtocolV10)(t, peerUser)
	ctx := testCtx(t)
	done, err := c.SendText(ctx, "entity")
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a", "b"} {
		cfg := a2a.TaskPushNotificationConfig{TaskID: done.ID, PushNotificationConfig: a2a.PushNotificationConfig{ID: id, URL: "http://127.0.0.1:9/hook"}}
		if _, err := c.CreateTaskPushNotificationConfig(ctx, cfg); err != nil {
			t.Fatal(err)
		}
	}
	configs := rest + "/tasks/" + done.ID + "/pushNotificationConfigs"

	t.Run("delete answers 200 with an empty body, not Empty's {}", func(t *testing.T) {
		got := rawDo(t, http.MethodDelete, configs+"/a", "")
		if got.status != http.StatusOK || got.body != "" || got.contentType != "application/json" {
			t.Fatalf("peer: %d %q %q", got.status, got.contentType, got.body)
		}
		if err := c.DeleteTaskPushNotificationConfig(ctx, done.ID, "b"); err != nil {
			t.Errorf("client: %v, want nil", err)
		}
	})

	t.Run("list push configs ignores pageSize", func(t *testing.T) {
		cfg := a2a.TaskPushNotificationConfig{TaskID: done.ID, PushNotificationConfig: a2a.PushNotificationConfig{ID: "c", URL: "http://127.0.0.1:9/hook"}}
		for _, id := range []string{"c", "d"} {
			cfg.PushNotificationConfig.ID = id
			if _, err := c.CreateTaskPushNotificationConfig(ctx, cfg); err != nil {
				t.Fatal(err)
			}
		}
		got := rawDo(t, http.MethodGet, configs+"?pageSize=1", "")
		if got.status != http.StatusOK || strings.Count(got.body, `"url"`) != 2 || strings.Contains(got.body, "nextPageToken") {
			t.Fatalf("peer: %d %s", got.status, got.body)
		}
		// The client sends no pageSize and reads every config there is.
		list, err := c.ListTaskPushNotificationConfigs(ctx, done.ID)
		if err != nil || len(list) != 2 {
			t.Errorf("client: %d configs, %v", len(list), err)
		}
	})

	t.Run("a missing push config is 500 INTERNAL, not 404 (A2A#2126)", func(t *testing.T) {
		got := rawDo(t, http.MethodGet, configs+"/nope", "")
		if got.status != http.StatusInternalServerError || !strings.Contains(got.body, `"INTERNAL"`) {
			t.Fatalf("peer: %d %s", got.status, got.body)
		}
		_, err := c.GetTaskPushNotificationConfig(ctx, done.ID, "nope")
		var rpcErr *a2a.RPCError
		if !errors.As(err, &rpcErr) || rpcErr.Code != -32603 || rpcErr.StatusCode != http.StatusInternalServerError {
			t.Errorf("client: %v, want an *RPCError -32603 with HTTP 500", err)
		}
	})

	t.Run("subscribe to a finished task is 200 SSE with a TASK_NOT_FOUND event, not UNSUPPORTED_OPERATION", func(t *testing.T) {
		got := rawDo(t, http.MethodPost, rest+"/tasks/"+done.ID+":subscribe", "")
		if got.status != http.StatusOK || got.contentType != "text/event-stream" || !strings.Contains(got.body, `"reason":"TASK_NOT_FOUND"`) ||
			strings.Contains(got.body, "event:") {
			t.Fatalf("peer: %d %q %s", got.status, got.contentType, got.body)
		}
		var errs []error
		for _, err := range c.SubscribeToTask(ctx, done.ID) {
			errs = append(errs, err)
		}
		if len(errs) != 1 || !errors.Is(errs[0], a2a.ErrTaskNotFound) {
			t.Errorf("client: %v, want one error matching ErrTaskNotFound", errs)
		}
	})

	t.Run("ListTasks from an anonymous caller is 401 UNAUTHENTICATED", func(t *testing.T) {
		got := rawDoAs(t, "", http.MethodGet, rest+"/tasks", "")
		if got.status != http.StatusUnauthorized || !strings.Contains(got.body, `"reason":"UNAUTHENTICATED"`) {
			t.Fatalf("peer: %d %s", got.status, got.body)
		}
		anon, err := a2a.NewClient(rest, a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithProtocolVersion(a2a.ProtocolV10),
			a2a.WithHTTPClient(ownHTTPClient(t)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = anon.ListTasksPage(ctx, a2a.ListTasksRequest{PageSize: 2})
		var httpErr *a2a.HTTPError
		if !errors.As(err, &httpErr) || httpErr.StatusCode != http.StatusUnauthorized {
			t.Errorf("client: %v, want an *HTTPError 401 (an authentication status without an A2A reason)", err)
		}
	})

	t.Run("an unknown route is a text 404, never a task not found", func(t *testing.T) {
		got := rawDo(t, http.MethodGet, rest+"/oops/tasks/"+done.ID, "")
		if got.status != http.StatusNotFound || got.contentType != "text/plain" {
			t.Fatalf("peer: %d %q %s", got.status, got.contentType, got.body)
		}
		if got := rawDo(t, http.MethodDelete, rest+"/tasks/"+done.ID, ""); got.status != http.StatusMethodNotAllowed || got.header.Get("Allow") == "" {
			t.Fatalf("peer, wrong verb: %d Allow %q %s", got.status, got.header.Get("Allow"), got.body)
		}
		wrong := dialREST(rest+"/oops", a2a.ProtocolV10)(t, peerUser)
		_, err := wrong.GetTask(ctx, done.ID)
		var httpErr *a2a.HTTPError
		if !errors.As(err, &httpErr) || httpErr.StatusCode != http.StatusNotFound || errors.Is(err, a2a.ErrTaskNotFound) {
			t.Errorf("client: %v, want an *HTTPError 404 that is not ErrTaskNotFound", err)
		}
	})

	t.Run("the server decodes an escaped colon before it splits the custom verb", func(t *testing.T) {
		// GET /tasks/{id}%3Asubscribe is a GetTask of the id "<id>:subscribe"
		// by the HTTP rules; a2a-go routes it as a subscribe.
		got := rawDo(t, http.MethodGet, rest+"/tasks/"+done.ID+"%3Asubscribe", "")
		if got.status != http.StatusOK || got.contentType != "text/event-stream" {
			t.Fatalf("peer: %d %q %s", got.status, got.contentType, got.body)
		}
		_, err := c.GetTask(ctx, done.ID+":subscribe")
		var protoErr *a2a.ProtocolError
		if !errors.As(err, &protoErr) {
			t.Errorf("client: %v, want a *ProtocolError (an event stream where a Task is due)", err)
		}
	})

	t.Run("the tenant handler unescapes the path, so an escaped slash in an id splits it", func(t *testing.T) {
		got := rawDo(t, http.MethodGet, p.url(tenantPrefix)+"/acme/tasks/a%2Fb", "")
		if got.status != http.StatusNotFound || got.contentType != "text/plain" {
			t.Fatalf("peer: %d %q %s", got.status, got.contentType, got.body)
		}
		// The plain handler keeps it one segment: a task not found.
		if got := rawDo(t, http.MethodGet, rest+"/tasks/a%2Fb", ""); got.status != http.StatusNotFound || !strings.Contains(got.body, "TASK_NOT_FOUND") {
			t.Fatalf("peer without tenant: %d %s", got.status, got.body)
		}
		tc := dialREST(p.url(tenantPrefix), a2a.ProtocolV10, a2a.WithTenant("acme"))(t, peerUser)
		_, err := tc.GetTask(ctx, "a/b")
		var httpErr *a2a.HTTPError
		if !errors.As(err, &httpErr) || httpErr.StatusCode != http.StatusNotFound {
			t.Errorf("client: %v, want an *HTTPError 404 (the router's)", err)
		}
	})

	t.Run("A2A-Version is not read: a request without it is served", func(t *testing.T) {
		// rawDo sends none.
		if got := rawDo(t, http.MethodGet, rest+"/tasks/"+done.ID, ""); got.status != http.StatusOK || !strings.Contains(got.body, done.ID) {
			t.Fatalf("peer: %d %s", got.status, got.body)
		}
	})

	t.Run("v0.3 ListTasks has no totalSize and filters by lastUpdatedAfter, not the proto's lastUpdatedTime", func(t *testing.T) {
		list := p.url(rest03Prefix) + "/v1/tasks?pageSize=1"
		later := url.QueryEscape(time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
		got := rawDo(t, http.MethodGet, list, "")
		if got.status != http.StatusOK || !strings.Contains(got.body, `"tasks":[{`) || strings.Contains(got.body, "totalSize") {
			t.Fatalf("peer: %d %s", got.status, got.body)
		}
		if got := rawDo(t, http.MethodGet, list+"&lastUpdatedTime="+later, ""); !strings.Contains(got.body, `"tasks":[{`) {
			t.Errorf("peer, lastUpdatedTime an hour from now: %d %s, want it ignored", got.status, got.body)
		}
		if got := rawDo(t, http.MethodGet, list+"&lastUpdatedAfter="+later, ""); got.status != http.StatusOK || strings.Contains(got.body, `"tasks":[{`) {
			t.Errorf("peer, lastUpdatedAfter an hour from now: %d %s, want no task", got.status, got.body)
		}
	})

	t.Run("v0.3 compat errors are a google.rpc.Status labelled application/problem+json", func(t *testing.T) {
		got := rawDo(t, http.MethodGet, p.url(rest03Prefix)+"/v1/tasks/nope", "")
		if got.status != http.StatusNotFound || got.contentType != "application/problem+json" || !strings.HasPrefix(got.body, `{"error":{`) ||
			!strings.Contains(got.body, `"reason":"TASK_NOT_FOUND"`) {
			t.Fatalf("peer: %d %q %s", got.status, got.contentType, got.body)
		}
		c03 := dialREST(p.url(rest03Prefix), a2a.ProtocolV03)(t, peerUser)
		if _, err := c03.GetTask(ctx, "nope"); !errors.Is(err, a2a.ErrTaskNotFound) {
			t.Errorf("client: %v, want ErrTaskNotFound", err)
		}
	})
}
