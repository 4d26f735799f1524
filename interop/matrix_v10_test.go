package interop

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The scenario matrix on A2A v1.0, against a2a-go v2's JSON-RPC server
// (gopeer_v10_test.go). Every client a scenario makes records its requests,
// and each of them is checked against the v1.0 proto when the scenario
// ends (proto_test.go).

// peerUser is the name the scenarios authenticate as (bearerUser).
const peerUser = "interop"

// validatedSet collects the v1.0 methods of requests that passed
// validation, to show every method was checked.
type validatedSet struct {
	mu      sync.Mutex
	methods map[string]bool
}

func (v *validatedSet) add(methods []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, m := range methods {
		v.methods[m] = true
	}
}

func (v *validatedSet) sorted() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Sorted(maps.Keys(v.methods))
}

// recordedV10 returns an HTTP client with its own transport that records
// every request; when t ends its idle connections close and the requests
// are validated against the v1.0 proto, the methods that pass going into
// seen.
func recordedV10(t *testing.T, seen *validatedSet) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	rec := &v10Recorder{next: tr}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		reqs := rec.captured()
		if len(reqs) == 0 {
			t.Error("no requests recorded")
		}
		seen.add(validateV10(t, reqs))
	})
	return &http.Client{Transport: rec, Timeout: 20 * time.Second}
}

// dialV10 makes a client of this SDK that speaks A2A v1.0 to the peer as
// the user named user ([bearerUser]), sending through hc.
type dialV10 func(t *testing.T, hc *http.Client, user string) *a2a.Client

// dialEndpoint is NewClient on the peer's endpoint with
// WithProtocolVersion(ProtocolV10).
func dialEndpoint(p *v10Peer) dialV10 {
	return func(t *testing.T, hc *http.Client, user string) *a2a.Client {
		t.Helper()
		c, err := a2a.NewClient(p.endpoint, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithHTTPClient(hc), a2a.WithBearerToken(user))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
}

// dialCard is NewClientFromCard on card, without a version option: the
// card's interface decides it.
func dialCard(card *a2a.AgentCard) dialV10 {
	return func(t *testing.T, hc *http.Client, user string) *a2a.Client {
		t.Helper()
		c, err := a2a.NewClientFromCard(card, a2a.WithHTTPClient(hc), a2a.WithBearerToken(user))
		if err != nil {
			t.Fatal(err)
		}
		if v := c.ProtocolVersion(); v != a2a.ProtocolV10 {
			t.Fatalf("a client from a card whose one interface is JSONRPC 1.0 speaks %q", v)
		}
		return c
	}
}

// resolveV10Card reads the peer's card with ResolveAgentCard.
func resolveV10Card(t *testing.T, p *v10Peer, seen *validatedSet) *a2a.AgentCard {
	t.Helper()
	card, err := a2a.ResolveAgentCard(testCtx(t), p.base, a2a.WithHTTPClient(recordedV10(t, seen)))
	if err != nil {
		t.Fatalf("ResolveAgentCard: %v", err)
	}
	return card
}

// testCtx bounds a scenario.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// asJSON compares json.RawMessage by value, not by bytes: key order and
// spacing are the server's choice.
var asJSON = cmp.Transformer("asJSON", func(r json.RawMessage) any {
	var v any
	if len(r) > 0 && json.Unmarshal(r, &v) != nil {
		return string(r)
	}
	return v
})

// TestGoPeerV10 runs the scenario matrix against github.com/a2aproject/a2a-go/v2
// v2.4.0's JSON-RPC server on A2A v1.0, in-process on a loopback port,
// twice: with a client made by NewClient with WithProtocolVersion, and
// with one made by NewClientFromCard from the card ResolveAgentCard read.
// Every request either client sent is then valid against the proto, and
// every v1.0 method was among them.
func TestGoPeerV10(t *testing.T) {
	p := startV10Peer(t)
	seen := &validatedSet{methods: map[string]bool{}}

	var ran, total int
	t.Run("NewClient", func(t *testing.T) {
		ran, total = runMatrixV10(t, p.gates, "endpoint", recordedDial(seen, dialEndpoint(p)))
	})
	t.Run("NewClientFromCard", func(t *testing.T) {
		runMatrixV10(t, p.gates, "card", recordedDial(seen, dialCard(resolveV10Card(t, p, seen))))
	})

	t.Run("ListTasks from an anonymous caller is refused with -31401", func(t *testing.T) {
		// a2a-go's default in-memory task store lists tasks for an
		// authenticated user only, with a code outside the spec
		// (A2A v1.0 reference §9, §13 trap 31); the client keeps it.
		c, err := a2a.NewClient(p.endpoint, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithHTTPClient(recordedV10(t, seen)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ListTasksPage(testCtx(t), a2a.ListTasksRequest{PageSize: 2})
		var rpcErr *a2a.RPCError
		if !errors.As(err, &rpcErr) || rpcErr.Code != -31401 {
			t.Fatalf("err = %v, want an *a2a.RPCError with code -31401", err)
		}
		if len(rpcErr.Details) > 0 && rpcErr.Reason() != "UNAUTHENTICATED" {
			t.Errorf("Reason() = %q, want UNAUTHENTICATED", rpcErr.Reason())
		}
	})

	t.Run("tenant and credentials reach the agent", func(t *testing.T) {
		c, err := a2a.NewClient(p.endpoint, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithHTTPClient(recordedV10(t, seen)),
			a2a.WithBearerToken(peerUser), a2a.WithTenant("acme"))
		if err != nil {
			t.Fatal(err)
		}
		ctx := testCtx(t)
		var got []string
		for _, opts := range [][]a2a.CallOption{nil, {a2a.Tenant("other")}, {a2a.Tenant("")}} {
			res, err := c.SendMessage(ctx, a2a.NewTextMessage("whoami"), opts...)
			if err != nil {
				t.Fatal(err)
			}
			m, ok := res.(*a2a.Message)
			if !ok {
				t.Fatalf("whoami answered with %T", res)
			}
			got = append(got, m.Text())
		}
		want := []string{"tenant=acme user=interop", "tenant=other user=interop", "tenant= user=interop"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("WithTenant, Tenant(\"other\"), Tenant(\"\") (-want +got):\n%s", diff)
		}
	})

	t.Run("card discovery gives a v1.0 client that calls the card's endpoint", func(t *testing.T) {
		card := resolveV10Card(t, p, seen)
		if in, err := card.JSONRPCInterface(); err != nil || in.URL != p.endpoint {
			t.Errorf("JSONRPCInterface() = %+v, %v; want the URL %q", in, err, p.endpoint)
		}
		c := dialCard(card)(t, recordedV10(t, seen), peerUser)
		task, err := c.SendText(testCtx(t), "entity")
		if err != nil {
			t.Fatal(err)
		}
		if task.Status.State != a2a.TaskStateCompleted || task.Artifact("entity").Text() != a2atest.EntitySummary {
			t.Errorf("state %q summary %q", task.Status.State, task.Artifact("entity").Text())
		}
	})

	if total == 0 || ran < total {
		return // a -run pattern left scenarios out: not every method was due
	}
	want := slices.Sorted(maps.Keys(v10Params))
	if diff := cmp.Diff(want, seen.sorted()); diff != "" {
		t.Errorf("v1.0 methods sent and valid (-want +got):\n%s", diff)
	}
}

// recordedDial is dial with an HTTP client of recordedV10: every request
// a scenario's client sends is checked against the v1.0 proto when the
// scenario ends.
func recordedDial(seen *validatedSet, dial dialV10) func(t *testing.T, user string) *a2a.Client {
	return func(t *testing.T, user string) *a2a.Client {
		return dial(t, recordedV10(t, seen), user)
	}
}

// skipUnlisted skips t when c's version has no ListTasks (A2A v0.3: the
// runs of the matrix on a v0.3 binding).
func skipUnlisted(t *testing.T, ctx context.Context, c *a2a.Client) {
	t.Helper()
	var unsupported *a2a.UnsupportedByVersionError
	if _, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{PageSize: 1}); errors.As(err, &unsupported) {
		t.Skipf("ListTasks: %v", err)
	}
}

// runMatrixV10 runs the scenarios against a peer running v10Executor
// behind gates, each with a client from newClient made for the user it
// names; run names the run, to keep the users of several runs' ListTasks
// apart. It returns how many scenarios ran (a -run pattern may leave some
// out) of how many.
func runMatrixV10(t *testing.T, gates *gates, run string, newClient func(t *testing.T, user string) *a2a.Client) (ran, total int) {
	scenario := func(name string, f func(t *testing.T)) {
		total++
		t.Run(name, func(t *testing.T) { ran++; f(t) })
	}

	scenario("completed task keeps its data part and Chinese text", func(t *testing.T) {
		c := newClient(t, peerUser)
		// The options put a configuration in the request for the proto
		// check; the history is one message either way.
		task, err := c.SendText(testCtx(t), "entity", a2a.AcceptedOutputModes("text/plain", "application/json"), a2a.HistoryLength(5))
		if err != nil {
			t.Fatal(err)
		}
		if task.Status.State != a2a.TaskStateCompleted || task.ID == "" || task.ContextID == "" {
			t.Fatalf("task %q context %q state %q", task.ID, task.ContextID, task.Status.State)
		}
		want := []a2a.Artifact{{Name: "entity", Parts: a2a.Parts{
			a2a.DataPart{Data: json.RawMessage(`{"title":"数控车床-A08-03-06","status":{"设备运行状态":"正常"}}`)},
			a2a.TextPart{Text: a2atest.EntitySummary},
		}}}
		if diff := cmp.Diff(want, task.Artifacts, asJSON, cmpopts.IgnoreFields(a2a.Artifact{}, "ArtifactID")); diff != "" {
			t.Errorf("artifacts (-want +got):\n%s", diff)
		}
		if len(task.Artifacts) == 1 && task.Artifacts[0].ArtifactID == "" {
			t.Error("artifact without an id")
		}
	})

	scenario("failed task is a value with its reason", func(t *testing.T) {
		c := newClient(t, peerUser)
		task, err := c.SendText(testCtx(t), "fail")
		if err != nil {
			t.Fatalf("err = %v, want nil: a failed task is a value", err)
		}
		type outcome struct {
			State  a2a.TaskState
			Reason string
		}
		if diff := cmp.Diff(outcome{a2a.TaskStateFailed, a2atest.FailureReason}, outcome{task.Status.State, task.StatusText()}); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})

	scenario("input-required then follow-up completes the same task", func(t *testing.T) {
		c := newClient(t, peerUser)
		ctx := testCtx(t)
		task, done := askAndAnswer(t, ctx, c)
		type outcome struct {
			ID, ContextID string
			State         a2a.TaskState
			Answer        string
		}
		want := outcome{task.ID, task.ContextID, a2a.TaskStateCompleted, deviceAnswer}
		if diff := cmp.Diff(want, outcome{done.ID, done.ContextID, done.Status.State, done.Artifact("entity").Text()}); diff != "" {
			t.Errorf("follow-up (-want +got):\n%s", diff)
		}

		// historyLength has presence in v1.0: 0 is sent, and means none.
		for _, n := range []int{1, 0} {
			got, err := c.GetTask(ctx, task.ID, a2a.HistoryLength(n))
			if err != nil {
				t.Fatal(err)
			}
			if len(got.History) != n {
				t.Errorf("historyLength %d gave %d messages", n, len(got.History))
			}
		}
	})

	scenario("non-blocking send then WaitTask reaches completed", func(t *testing.T) {
		c := newClient(t, peerUser)
		ctx := testCtx(t)
		task, err := c.SendText(ctx, "slow", a2a.Blocking(false))
		if err != nil {
			t.Fatal(err)
		}
		if s := task.Status.State; s.Terminal() || s.Interrupted() {
			t.Fatalf("non-blocking send returned state %q", s)
		}
		gates.open(task.ID)
		done, err := c.WaitTask(ctx, task.ID, a2a.PollInterval(20*time.Millisecond), a2a.PollTimeout(15*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if done.Status.State != a2a.TaskStateCompleted || done.Artifact("result").Text() != "done" {
			t.Errorf("state %q result %q", done.Status.State, done.Artifact("result").Text())
		}
	})

	scenario("CancelTask cancels a running task", func(t *testing.T) {
		c := newClient(t, peerUser)
		ctx := testCtx(t)
		task, err := c.SendText(ctx, "cancel", a2a.Blocking(false))
		if err != nil {
			t.Fatal(err)
		}
		canceled, err := c.CancelTask(ctx, task.ID)
		if err != nil {
			t.Fatal(err)
		}
		if canceled.ID != task.ID || canceled.Status.State != a2a.TaskStateCanceled {
			t.Errorf("CancelTask returned %s in %q", canceled.ID, canceled.Status.State)
		}
		got, err := c.GetTask(ctx, task.ID)
		if err != nil || got.Status.State != a2a.TaskStateCanceled {
			t.Errorf("GetTask after cancel: %v, %v", got, err)
		}
	})

	scenario("message reply is a Message", func(t *testing.T) {
		c := newClient(t, peerUser)
		ctx := testCtx(t)
		res, err := c.SendMessage(ctx, a2a.NewTextMessage("message"))
		if err != nil {
			t.Fatal(err)
		}
		m, ok := res.(*a2a.Message)
		if !ok || m.Role != a2a.RoleAgent || m.Text() != greeting {
			t.Errorf("result %#v", res)
		}
		_, err = c.SendText(ctx, "message")
		var mre *a2a.MessageReplyError
		if !errors.As(err, &mre) || mre.Message.Text() != greeting {
			t.Errorf("SendText: %v", err)
		}
	})

	scenario("unknown task is ErrTaskNotFound with reason TASK_NOT_FOUND", func(t *testing.T) {
		c := newClient(t, peerUser)
		_, err := c.GetTask(testCtx(t), "00000000-0000-4000-8000-000000000000")
		if !errors.Is(err, a2a.ErrTaskNotFound) {
			t.Fatalf("err = %v, want ErrTaskNotFound", err)
		}
		var rpcErr *a2a.RPCError
		if !errors.As(err, &rpcErr) {
			t.Fatalf("err is %T, want *a2a.RPCError", err)
		}
		if len(rpcErr.Details) > 0 && rpcErr.Reason() != "TASK_NOT_FOUND" {
			t.Errorf("Reason() = %q, want TASK_NOT_FOUND (details %s)", rpcErr.Reason(), rpcErr.Data)
		}
	})

	scenario("stream of artifact chunks folds to the completed task", func(t *testing.T) {
		c := newClient(t, peerUser)
		got, task := foldStream(t, c.SendStreamingMessage(testCtx(t), a2a.NewTextMessage("stream")))
		// v1.0 has no "final": the client marks the terminal status so.
		want := []string{
			"task submitted",
			"status working final=false ",
			`artifact art-1 story "第一段" append=false last=false`,
			`artifact art-1  "第二段" append=true last=true`,
			"status completed final=true ",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		wantArts := []a2a.Artifact{{ArtifactID: "art-1", Name: "story", Parts: a2a.Parts{a2a.TextPart{Text: "第一段"}, a2a.TextPart{Text: "第二段"}}}}
		if diff := cmp.Diff(wantArts, task.Artifacts); diff != "" || task.Status.State != a2a.TaskStateCompleted {
			t.Errorf("folded task in %q, artifacts (-want +got):\n%s", task.Status.State, diff)
		}
	})

	scenario("SubscribeToTask after a dropped stream follows the task to its end", func(t *testing.T) {
		c := newClient(t, peerUser)
		ctx := testCtx(t)
		var task a2a.Task
		for ev, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("stream-slow")) {
			if err != nil {
				t.Fatal(err)
			}
			task.Apply(ev)
			if task.Status.State == a2a.TaskStateWorking {
				break // drop the connection while the task waits at its gate
			}
		}
		if task.ID == "" || task.Status.State != a2a.TaskStateWorking {
			t.Fatalf("first stream left task %q in %q", task.ID, task.Status.State)
		}
		var got []string
		for ev, err := range c.SubscribeToTask(ctx, task.ID) {
			if errors.Is(err, a2a.ErrTaskNotFound) && len(got) == 0 {
				// a2a-go answers -32001 when no execution is running
				// (A2A v1.0 reference §4, §13 trap 9): read the task.
				t.Logf("SubscribeToTask: %v; reading the task instead", err)
				gates.open(task.ID)
				done, err := c.WaitTask(ctx, task.ID, a2a.PollInterval(20*time.Millisecond))
				if err != nil {
					t.Fatal(err)
				}
				task.Apply(done)
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 {
				gates.open(task.ID) // subscribed: let the task go on
			}
			got = append(got, describe(ev))
			task.Apply(ev)
		}
		if got != nil {
			want := []string{
				"task working", // the first event is the task as it stands
				`artifact art-result result "done" append=false last=true`,
				"status completed final=true ",
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("resubscribed events (-want +got):\n%s", diff)
			}
		}
		if task.Status.State != a2a.TaskStateCompleted || task.Artifact("result").Text() != "done" {
			t.Errorf("folded after resubscribe: %q %q", task.Status.State, task.Artifact("result").Text())
		}
	})

	scenario("push config create get list delete", func(t *testing.T) {
		c := newClient(t, peerUser)
		ctx := testCtx(t)
		task, err := c.SendText(ctx, "entity")
		if err != nil {
			t.Fatal(err)
		}
		named := a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: a2a.PushNotificationConfig{
			ID: "cfg-1", URL: "http://127.0.0.1:9/webhook", Token: "tok-1",
			Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: "secret"}}}
		set, err := c.CreateTaskPushNotificationConfig(ctx, named)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(named, *set); diff != "" {
			t.Errorf("create (-want +got):\n%s", diff)
		}
		// Without an id the server assigns one.
		anon := a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: a2a.PushNotificationConfig{URL: "http://127.0.0.1:9/other"}}
		assigned, err := c.CreateTaskPushNotificationConfig(ctx, anon)
		if err != nil {
			t.Fatal(err)
		}
		if assigned.PushNotificationConfig.ID == "" || assigned.PushNotificationConfig.ID == "cfg-1" {
			t.Errorf("server-assigned config id %q", assigned.PushNotificationConfig.ID)
		}
		anon.PushNotificationConfig.ID = assigned.PushNotificationConfig.ID
		if diff := cmp.Diff(anon, *assigned); diff != "" {
			t.Errorf("create without id (-want +got):\n%s", diff)
		}

		got, err := c.GetTaskPushNotificationConfig(ctx, task.ID, "cfg-1")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(named, *got); diff != "" {
			t.Errorf("get (-want +got):\n%s", diff)
		}
		byID := cmpopts.SortSlices(func(a, b a2a.TaskPushNotificationConfig) bool {
			return a.PushNotificationConfig.ID < b.PushNotificationConfig.ID
		})
		list, err := c.ListTaskPushNotificationConfigs(ctx, task.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]a2a.TaskPushNotificationConfig{named, anon}, list, byID); diff != "" {
			t.Errorf("list (-want +got):\n%s", diff)
		}
		if err := c.DeleteTaskPushNotificationConfig(ctx, task.ID, "cfg-1"); err != nil {
			t.Errorf("delete: %v", err)
		}
		list, err = c.ListTaskPushNotificationConfigs(ctx, task.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]a2a.TaskPushNotificationConfig{anon}, list); diff != "" {
			t.Errorf("list after delete (-want +got):\n%s", diff)
		}
	})

	scenario("extended card replaces the client's card", func(t *testing.T) {
		c := newClient(t, peerUser)
		ctx := testCtx(t)
		ext, err := c.GetExtendedAgentCard(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ext.Name != v10ExtendedName || c.Card().Name != v10ExtendedName {
			t.Errorf("extended card %q; client's card now %q", ext.Name, c.Card().Name)
		}
		// The client now checks calls against the v1.0 card it read
		// (capabilities.streaming): a stream is still allowed.
		var got []string
		for ev, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("message")) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, describe(ev))
		}
		if diff := cmp.Diff([]string{"message " + greeting}, got); diff != "" {
			t.Errorf("stream after the extended card (-want +got):\n%s", diff)
		}
	})

	scenario("ListTasks pages of 2 over 5 tasks and the iterator yields all", func(t *testing.T) {
		// A user of its own sees only its own tasks (bearerUser).
		c := newClient(t, "lister-"+run)
		ctx := testCtx(t)
		skipUnlisted(t, ctx, c)
		var created []string
		for range 5 {
			task, err := c.SendText(ctx, "entity")
			if err != nil {
				t.Fatal(err)
			}
			created = append(created, task.ID)
		}
		var paged []string
		var sizes []int
		req := a2a.ListTasksRequest{PageSize: 2}
		for range 10 { // 3 pages are due; 10 bounds a server that never ends
			page, err := c.ListTasksPage(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			// A v0.3 ListTasksResponse has no pageSize, and a2a-go's
			// compat server leaves out totalSize.
			if v03 := c.ProtocolVersion() == a2a.ProtocolV03; !v03 && (page.TotalSize != 5 || page.PageSize != 2) {
				t.Errorf("page %d: totalSize %d pageSize %d, want 5 and 2", len(sizes), page.TotalSize, page.PageSize)
			}
			sizes = append(sizes, len(page.Tasks))
			for _, task := range page.Tasks {
				paged = append(paged, task.ID)
				if len(task.Artifacts) != 0 {
					t.Errorf("task %s has artifacts without includeArtifacts", task.ID)
				}
			}
			if page.NextPageToken == "" {
				break
			}
			req.PageToken = page.NextPageToken
		}
		if diff := cmp.Diff([]int{2, 2, 1}, sizes); diff != "" {
			t.Errorf("page sizes (-want +got):\n%s", diff)
		}
		newestFirst := slices.Clone(created)
		slices.Reverse(newestFirst)
		if diff := cmp.Diff(newestFirst, paged); diff != "" {
			t.Errorf("paged tasks, newest first (-want +got):\n%s", diff)
		}

		var all []string
		for task, err := range c.ListTasks(ctx, a2a.ListTasksRequest{PageSize: 2}) {
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, task.ID)
		}
		if diff := cmp.Diff(newestFirst, all); diff != "" {
			t.Errorf("ListTasks iterator (-want +got):\n%s", diff)
		}
	})

	scenario("ListTasks filters by state, context and time, and adds artifacts when asked", func(t *testing.T) {
		c := newClient(t, "filter-"+run)
		ctx := testCtx(t)
		skipUnlisted(t, ctx, c)
		byText := map[string]*a2a.Task{}
		for _, text := range []string{"entity", "fail", "ask"} {
			task, err := c.SendText(ctx, text)
			if err != nil {
				t.Fatal(err)
			}
			byText[text] = task
		}
		now := time.Now()
		ids := func(req a2a.ListTasksRequest, opts ...a2a.CallOption) []string {
			t.Helper()
			page, err := c.ListTasksPage(ctx, req, opts...)
			if err != nil {
				t.Fatal(err)
			}
			out := []string{}
			for _, task := range page.Tasks {
				out = append(out, task.ID)
			}
			return out
		}
		byID := cmpopts.SortSlices(func(a, b string) bool { return a < b })
		for _, tt := range []struct {
			name string
			req  a2a.ListTasksRequest
			want []string
		}{
			{"state failed", a2a.ListTasksRequest{Status: a2a.TaskStateFailed}, []string{byText["fail"].ID}},
			{"state input-required", a2a.ListTasksRequest{Status: a2a.TaskStateInputRequired}, []string{byText["ask"].ID}},
			{"context of ask", a2a.ListTasksRequest{ContextID: byText["ask"].ContextID}, []string{byText["ask"].ID}},
			{"changed after an hour ago", a2a.ListTasksRequest{StatusTimestampAfter: now.Add(-time.Hour)}, []string{byText["entity"].ID, byText["fail"].ID, byText["ask"].ID}},
			{"changed after an hour from now", a2a.ListTasksRequest{StatusTimestampAfter: now.Add(time.Hour)}, []string{}},
		} {
			if !tt.req.StatusTimestampAfter.IsZero() && c.ProtocolVersion() == a2a.ProtocolV03 {
				// The v0.3 proto's filter is lastUpdatedTime, a2a-go's
				// compat server reads lastUpdatedAfter, and the client sends
				// v1.0's statusTimestampAfter: no name works for all.
				t.Logf("%s: not run on v0.3: the client sends statusTimestampAfter, which is no field of the v0.3 proto "+
					"(lastUpdatedTime); a2a-go's compat server reads lastUpdatedAfter", tt.name)
				continue
			}
			if diff := cmp.Diff(tt.want, ids(tt.req), byID); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.name, diff)
			}
		}

		page, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{Status: a2a.TaskStateCompleted, IncludeArtifacts: true}, a2a.HistoryLength(0))
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Tasks) != 1 {
			t.Fatalf("%d completed tasks, want 1", len(page.Tasks))
		}
		got := page.Tasks[0]
		if got.Artifact("entity").Text() != a2atest.EntitySummary || len(got.History) != 0 {
			t.Errorf("with includeArtifacts and historyLength 0: summary %q, %d history messages", got.Artifact("entity").Text(), len(got.History))
		}
	})
	return ran, total
}
