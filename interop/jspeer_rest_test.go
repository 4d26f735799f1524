package interop

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// TestJSPeerREST runs scenarios (a)–(h) over A2A v0.3 HTTP+JSON against
// @a2a-js/sdk's restHandler (js/server.js, /a2a/rest), reached through a
// reverse proxy on loopback whose restGuard checks every request against
// the v0.3 proto's HTTP rules; then reads the peer's success statuses raw.
func TestJSPeerREST(t *testing.T) {
	base := startJSPeer(t)
	target, err := url.Parse(base + "/a2a/rest")
	if err != nil {
		t.Fatal(err)
	}
	guard := &restGuard{prefix: "/js", rules: v03Rules}
	proxy := httputil.NewSingleHostReverseProxy(target)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	proxy.Transport = tr
	srv := httptest.NewServer(guard.wrap(http.StripPrefix(guard.prefix, proxy)))
	t.Cleanup(func() {
		srv.Close()
		tr.CloseIdleConnections()
	})

	c := dialREST(srv.URL+guard.prefix, a2a.ProtocolV03)(t, peerUser)
	runScenarios03(t, c)

	t.Run("success is any 2xx: 201 send, 202 cancel, 201 push create, 204 delete", func(t *testing.T) {
		ctx := testCtx(t)
		task, err := c.SendText(ctx, "cancel", a2a.Blocking(false))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.CancelTask(ctx, task.ID); err != nil {
			t.Fatal(err)
		}
		cfg := a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: a2a.PushNotificationConfig{ID: "c1", URL: "http://127.0.0.1:9/hook"}}
		if _, err := c.CreateTaskPushNotificationConfig(ctx, cfg); err != nil {
			t.Fatal(err)
		}
		if err := c.DeleteTaskPushNotificationConfig(ctx, task.ID, "c1"); err != nil {
			t.Fatal(err)
		}
		// The peer's statuses, as the guard saw the requests go by: the
		// guard does not see replies, so read them raw.
		for _, tt := range []struct {
			method, path, body string
			want               int
		}{
			{http.MethodPost, "/v1/message:send", `{"message":{"messageId":"raw-1","role":"ROLE_USER","content":[{"text":"entity"}]}}`, http.StatusCreated},
			{http.MethodPost, "/v1/tasks/" + task.ID + "/pushNotificationConfigs", `{"parent":"tasks/` + task.ID + `","configId":"c2","config":{"name":"tasks/` + task.ID + `/pushNotificationConfigs/c2","pushNotificationConfig":{"id":"c2","url":"http://127.0.0.1:9/hook"}}}`, http.StatusCreated},
			{http.MethodDelete, "/v1/tasks/" + task.ID + "/pushNotificationConfigs/c2", "", http.StatusNoContent},
		} {
			if got := rawDo(t, tt.method, base+"/a2a/rest"+tt.path, tt.body); got.status != tt.want {
				t.Errorf("%s %s: %d %s, want %d", tt.method, tt.path, got.status, got.body, tt.want)
			}
		}
		slow, err := c.SendText(ctx, "cancel", a2a.Blocking(false))
		if err != nil {
			t.Fatal(err)
		}
		if got := rawDo(t, http.MethodPost, base+"/a2a/rest/v1/tasks/"+slow.ID+":cancel", ""); got.status != http.StatusAccepted {
			t.Errorf("cancel: %d %s, want 202", got.status, got.body)
		}
	})

	t.Run("errors are {code, message} with the JSON-RPC code", func(t *testing.T) {
		got := rawDo(t, http.MethodGet, base+"/a2a/rest/v1/tasks/nope", "")
		if got.status != http.StatusNotFound || !strings.HasPrefix(got.body, `{"code":-32001,`) {
			t.Fatalf("peer: %d %s", got.status, got.body)
		}
		_, err := c.GetTask(testCtx(t), "nope")
		var rpcErr *a2a.RPCError
		if !errors.Is(err, a2a.ErrTaskNotFound) || !errors.As(err, &rpcErr) || rpcErr.StatusCode != http.StatusNotFound {
			t.Errorf("client: %v, want ErrTaskNotFound with HTTP 404", err)
		}
	})

	t.Run("requests follow the v0.3 proto's HTTP rules", func(t *testing.T) {
		valid := guard.report(t)
		want := []string{"CancelTask", "CreateTaskPushNotificationConfig", "DeleteTaskPushNotificationConfig", "GetTask", "SendMessage"}
		if diff := cmp.Diff(want, valid, sortedStrings); diff != "" {
			t.Errorf("RPCs sent and valid (-want +got):\n%s", diff)
		}
	})
}
