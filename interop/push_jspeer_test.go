package interop

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// The push-notification receiver (a2a.PushReceiver) against the push
// sender of @a2a-js/sdk 0.3.14 (A2A v0.3): js/server.js run with
// PUSH_SEND=1, so that its DefaultRequestHandler has the SDK's own
// DefaultPushNotificationSender and InMemoryPushNotificationStore. Its push
// scripts (push-entity, push-fail, push-watch: push_peers_test.go) stop at
// a gate the test opens with POST /push/release/<taskId>. Each scenario
// starts a peer of its own behind a Go reverse proxy that records the
// JSON-RPC methods reaching it, and serves the receiver on 127.0.0.1 with
// httptest (push_rig_test.go); the peer POSTs to it for real. The
// receiver's fallback poll is set to an hour, so no wait polls.
//
// What a2a-js 0.3.14 did, as the scenarios pin it down:
//   - It honours the webhook given in message/send's
//     configuration.pushNotificationConfig from the task's first event, and
//     one set later (tasks/pushNotificationConfig/set, accepted for any
//     task it holds, ended or not) from the next event on; it POSTs nothing
//     for a task that has ended, nor for a Message reply (that event names
//     no task: it logs "Task ID not found for event message.").
//   - After every task event (task, status-update, artifact-update) it
//     POSTs the whole task as stored then, "kind":"task" with its history
//     (the user's message and any status message) and artifacts: the
//     push-entity script gives four POSTs, submitted, working, working with
//     the artifact, completed. The final state therefore comes as a whole
//     task, and no wait reads the task after it.
//   - Each POST: Content-Type application/json and the config's token in
//     X-A2A-Notification-Token (the sender's default tokenHeaderName),
//     nothing else naming a token. It never sends Authorization: the
//     config's authentication (the wait registers its token there as
//     Bearer credentials too) is stored but ignored, and a config with
//     authentication and no token gets POSTs with no credentials at all,
//     which the receiver would refuse 401. (Node 20's fetch also sent
//     User-Agent node, Accept */*, Accept-Language *, Sec-Fetch-Mode cors,
//     Accept-Encoding gzip, deflate; not asserted, they are Node's.)
//   - The POSTs are fire and forget: the handler does not wait for them
//     before it goes on or answers a send, blocking or not, but one task's
//     POSTs go one after the other, each after the answer to the last, to
//     every config of the task at once. A non-blocking send's answer is
//     the task as the event loop left it: it may already say working.
//   - A 401 from the receiver is a failed delivery: it logs it ("Error
//     sending push notification … HTTP 401: Unauthorized"), does not
//     retry, and goes on with the task.

// jsPushKind is a2a-js as runPushScenarios expects it: the whole task
// after each event, the token in X-A2A-Notification-Token only, the POSTs
// not waited for.
var jsPushKind = pushKind{
	start: func(t *testing.T) *pushPeer { return startJSPushPeer(t).pushPeer },
	send:  "message/send", get: "tasks/get", set: "tasks/pushNotificationConfig/set",
	tokenHeader: "X-A2a-Notification-Token", noBearer: true, fireAndForget: true,
	entity: wholeEntity, fail: wholeFail, watch: wholeWatch,
	entityShapes: kindTask(len(wholeEntity)), failShapes: kindTask(len(wholeFail)), watchShapes: kindTask(len(wholeWatch)),
}

// jsPushPeer is the JavaScript peer with the SDK's push sender on, behind
// a proxy that records the methods reaching it (pushPeer.calls).
type jsPushPeer struct {
	*pushPeer
	base string       // the node server itself, for its gates
	hc   *http.Client // to the node server
}

// startJSPushPeer starts js/server.js with PUSH_SEND=1 and serves a
// recording reverse proxy to its JSON-RPC endpoint at p.endpoint.
func startJSPushPeer(t *testing.T) *jsPushPeer {
	t.Helper()
	t.Setenv("PUSH_SEND", "1")
	// Every POST is answered at once; the timeout only keeps a slow,
	// loaded test machine from turning into a failed delivery.
	t.Setenv("PUSH_TIMEOUT_MS", "10000")
	base := startJSPeer(t)
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	p := newPushPeer()
	proxy := &httputil.ReverseProxy{
		Transport: tr,
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.Scheme = target.Scheme
			pr.Out.URL.Host = target.Host
			pr.Out.URL.Path, pr.Out.URL.RawPath = "/a2a/jsonrpc", ""
			pr.Out.Host = ""
		},
	}
	servePushPeer(t, p, proxy)
	jp := &jsPushPeer{pushPeer: p, base: base, hc: &http.Client{Transport: tr, Timeout: 5 * time.Second}}
	p.release = jp.release
	// Let every task go on before the proxy closes, as servePushPeer's
	// openAll does for the Go peers (a failed test may leave one waiting).
	t.Cleanup(func() {
		if res, err := jp.hc.Post(jp.base+"/push/release-all", "", nil); err == nil {
			res.Body.Close()
		}
	})
	return jp
}

// release opens the gate of task id (or, for id "", every gate, present
// and future).
func (jp *jsPushPeer) release(t *testing.T, ctx context.Context, id string) {
	t.Helper()
	path := "/push/release-all"
	if id != "" {
		path = "/push/release/" + url.PathEscape(id)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, jp.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := jp.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		t.Fatalf("POST %s: %s, want 204", path, res.Status)
	}
}

// rawHook records every POST as it came, and answers 204.
type rawHook struct {
	mu    sync.Mutex
	posts []jsPost
	more  chan struct{}
}

// jsPost is what one of a2a-js's POSTs carried, in the parts that matter.
type jsPost struct {
	Method, Path  string
	ContentType   string
	Token         string   // X-A2A-Notification-Token
	Authorization string   // "" when absent
	OtherTokens   []string // any other header naming a token or credentials
	Keys          []string // the body's top-level keys, sorted
	Kind, ID      string
	State         string
	Artifacts     int
	History       int // messages in history
}

func (h *rawHook) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	p := jsPost{Method: r.Method, Path: r.URL.Path, ContentType: r.Header.Get("Content-Type"),
		Token: r.Header.Get("X-A2A-Notification-Token"), Authorization: r.Header.Get("Authorization")}
	for name := range r.Header {
		l := strings.ToLower(name)
		if l != "x-a2a-notification-token" && l != "authorization" &&
			(strings.Contains(l, "token") || strings.Contains(l, "auth") || strings.Contains(l, "credential")) {
			p.OtherTokens = append(p.OtherTokens, name)
		}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		p.Kind = "not a JSON object: " + err.Error()
	}
	for k := range obj {
		p.Keys = append(p.Keys, k)
	}
	slices.Sort(p.Keys)
	var task struct {
		Kind   string `json:"kind"`
		ID     string `json:"id"`
		Status struct {
			State string `json:"state"`
		} `json:"status"`
		Artifacts []json.RawMessage `json:"artifacts"`
		History   []json.RawMessage `json:"history"`
	}
	_ = json.Unmarshal(body, &task)
	p.Kind, p.ID, p.State = task.Kind, task.ID, task.Status.State
	p.Artifacts, p.History = len(task.Artifacts), len(task.History)
	h.mu.Lock()
	h.posts = append(h.posts, p)
	h.mu.Unlock()
	select {
	case h.more <- struct{}{}:
	default:
	}
	w.WriteHeader(http.StatusNoContent)
}

// waitFor returns the POSTs once n have come; it fails t when ctx ends
// first.
func (h *rawHook) waitFor(t *testing.T, ctx context.Context, n int) []jsPost {
	t.Helper()
	for {
		h.mu.Lock()
		got := slices.Clone(h.posts)
		h.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-h.more:
		case <-ctx.Done():
			t.Fatalf("%d POSTs reached the webhook, want %d: %v", len(got), n, ctx.Err())
		}
	}
}

// TestPushReceiverJSPeer proves the receiver against the push sender of
// @a2a-js/sdk 0.3.14: what it POSTs, then the scenarios the Go peers run
// (runPushScenarios).
func TestPushReceiverJSPeer(t *testing.T) {
	t.Run("what a2a-js POSTs: the whole task, the token in X-A2A-Notification-Token, never Authorization", func(t *testing.T) {
		p := startJSPushPeer(t)
		rig := newPushRig(t, p.pushPeer)
		ctx := testCtx(t)
		hook := &rawHook{more: make(chan struct{}, 1)}
		ts := httptest.NewServer(hook)
		t.Cleanup(ts.Close)

		task, err := rig.c.SendText(ctx, pushWatch, a2a.Blocking(false))
		if err != nil {
			t.Fatal(err)
		}
		// Two configs for the same recorder: a token with the same value
		// as Bearer credentials (what a wait registers), and Bearer
		// credentials alone.
		const token, cred = "js-token-0123456789", "js-credentials-0123456789"
		bearer := func(c string) *a2a.PushNotificationAuthenticationInfo {
			return &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: c}
		}
		for _, cfg := range []a2a.PushNotificationConfig{
			{ID: "with-token", URL: ts.URL + "/with-token", Token: token, Authentication: bearer(token)},
			{ID: "auth-only", URL: ts.URL + "/auth-only", Authentication: bearer(cred)},
		} {
			if _, err := rig.c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: cfg}); err != nil {
				t.Fatal(err)
			}
		}
		p.release(t, ctx, task.ID)

		// push-watch after its gate: working, the artifact, completed;
		// each to both configs.
		byPath := map[string][]jsPost{}
		for _, post := range hook.waitFor(t, ctx, 2*len(wholeWatch)) {
			byPath[post.Path] = append(byPath[post.Path], post)
		}
		want := func(path, token string) []jsPost {
			var posts []jsPost
			for _, s := range []struct {
				state string
				arts  int
			}{{"working", 0}, {"working", 1}, {"completed", 1}} {
				keys := []string{"contextId", "history", "id", "kind", "status"}
				if s.arts > 0 {
					keys = []string{"artifacts", "contextId", "history", "id", "kind", "status"}
				}
				posts = append(posts, jsPost{Method: http.MethodPost, Path: path, ContentType: "application/json",
					Token: token, Keys: keys, Kind: "task", ID: task.ID, State: s.state, Artifacts: s.arts, History: 1})
			}
			return posts
		}
		if diff := cmp.Diff(want("/with-token", token), byPath["/with-token"]); diff != "" {
			t.Errorf("POSTs for the config with a token (-want +got):\n%s", diff)
		}
		// Credentials alone: a POST with no token and no Authorization, one
		// the receiver refuses 401 (no notification token).
		if diff := cmp.Diff(want("/auth-only", ""), byPath["/auth-only"]); diff != "" {
			t.Errorf("POSTs for the config with Bearer credentials and no token (-want +got):\n%s", diff)
		}
	})

	runPushScenarios(t, jsPushKind)
}
