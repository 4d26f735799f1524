package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The push-notification receiver (a2a.PushReceiver) against the real push
// senders of a2a-go v2.4.0 (A2A v1.0, push.HTTPPushSender: a v1.0
// StreamResponse per event, header A2A-Notification-Token) and a2a-go
// v0.3.15 (A2A v0.3, push.HTTPPushSender: the whole Task after each event,
// header X-A2A-Notification-Token). Each scenario starts a peer of its own
// with an in-memory push config store and the peer's HTTP push sender, and
// serves the receiver on 127.0.0.1 with httptest; the peer POSTs to it for
// real. The receiver's fallback poll is set to an hour, past every
// scenario's 20-second bound, so no wait polls: the JSON-RPC methods
// reaching the peer are recorded to show it (Watch's one tasks/get aside,
// and the one read of the task that ends a wait whose final state came as
// a status update, as a2a-go v2 pushes it).
//
// What the peers did, as the scenarios pin it down:
//   - Both honour the webhook given in the send's configuration (v1.0
//     taskPushNotificationConfig, v0.3 pushNotificationConfig) from the
//     task's first event, and one set later (CreateTaskPushNotificationConfig,
//     tasks/pushNotificationConfig/set) from the next event on; both accept
//     a config for a task that has ended, and POST nothing to it.
//   - Each POST: Content-Type application/json, the config's token in
//     A2A-Notification-Token (v2.4.0) or X-A2A-Notification-Token
//     (v0.3.15) and, as the wait registers it as Bearer credentials too,
//     in "Authorization: Bearer <token>" (the made-up config has none),
//     User-Agent Go-http-client/1.1. The peer waits for the answer to each
//     POST before it goes on, and before it answers a send, blocking or not.
//   - v2.4.0 POSTs one StreamResponse per event: {"task":…} (submitted,
//     states spelled TASK_STATE_*, roles ROLE_*), {"statusUpdate":…} with
//     no "final" (the SDK marks the terminal one final), {"artifactUpdate":…}
//     and, for a Message reply, {"message":…}. v0.3.15 POSTs the whole task
//     ("kind":"task") after each task event, a working one twice (before
//     and after the artifact), and nothing for a Message reply.
//   - A 401 from the receiver is, to both, a failed delivery: they log
//     "push sending failed … non-success status: 401 Unauthorized" at
//     error level, do not retry, and go on with the task (FailOnError off).

// pushKind is a peer and what it is expected to send.
type pushKind struct {
	start      func(t *testing.T) *pushPeer
	clientOpts []a2a.Option
	// The JSON-RPC methods of a send, a tasks/get and a config set.
	send, get, set string
	tokenHeader    string // as http.Header spells it
	// finalRead: the peer pushes the final state as a status update, so
	// a wait ends with one read of the task.
	finalRead bool
	// noBearer: the peer sends no Authorization beside the token header,
	// whatever the config's authentication (a2a-js 0.3).
	noBearer bool
	// fireAndForget: the peer answers a send without waiting for its
	// POSTs (a2a-js), so a blocking send's answer may come first.
	fireAndForget bool
	// failedDelivery is what the peer logs for a refused POST, checked
	// when its log is kept (pushPeer.log; "" when not).
	failedDelivery string
	// The notifications of each script, described (describePush), and
	// the shape of each POST's body (delivery.Shape).
	entity, fail, watch, message                         []string
	entityShapes, failShapes, watchShapes, messageShapes []string
}

// The events of the scripts as a peer that POSTs the whole task after
// each event sees them (a2a-go v0.3.15, a2a-js 0.3), described.
var (
	wholeEntity = []string{"task submitted artifacts=0 ", "task working artifacts=0 ", "task working artifacts=1 ", "task completed artifacts=1 "}
	wholeFail   = []string{"task submitted artifacts=0 ", "task working artifacts=0 ", "task failed artifacts=0 " + a2atest.FailureReason}
	wholeWatch  = []string{"task working artifacts=0 ", "task working artifacts=1 ", "task completed artifacts=1 "}
)

// kindTask is the shapes of n POSTs of a v0.3 task.
func kindTask(n int) []string {
	return slices.Repeat([]string{"kind=task"}, n)
}

// The events of the scripts as a v1.0 peer pushes them.
var (
	v10Submitted = "task submitted artifacts=0 "
	v10Working   = "status working final=false "
	v10Artifact  = fmt.Sprintf("artifact entity parts=2 %q append=false last=false", a2atest.EntitySummary)
	v10Completed = "status completed final=true "
)

// v2Kind is how a2a-go v2.4.0 pushes, through either binding: every
// event the executor yields as a StreamResponse of its own (the final
// state as a status update, so the wait reads the task once), and a
// Message reply too, before the send's answer.
func v2Kind(start func(t *testing.T) *pushPeer, send, get, set string, clientOpts ...a2a.Option) pushKind {
	return pushKind{
		start: start, clientOpts: clientOpts, send: send, get: get, set: set,
		tokenHeader:    "A2a-Notification-Token",
		finalRead:      true,
		failedDelivery: "push sending failed",
		entity:         []string{v10Submitted, v10Working, v10Artifact, v10Completed},
		fail:           []string{v10Submitted, v10Working, "status failed final=true " + a2atest.FailureReason},
		watch:          []string{v10Working, v10Artifact, v10Completed},
		entityShapes:   []string{"{task}", "{statusUpdate}", "{artifactUpdate}", "{statusUpdate}"},
		failShapes:     []string{"{task}", "{statusUpdate}", "{statusUpdate}"},
		watchShapes:    []string{"{statusUpdate}", "{artifactUpdate}", "{statusUpdate}"},
		message:        []string{"message " + greeting}, messageShapes: []string{"{message}"},
	}
}

var pushKinds = map[string]pushKind{
	"a2a-go v2.4.0 (A2A v1.0)": v2Kind(startPushPeerV10, "SendMessage", "GetTask", "CreateTaskPushNotificationConfig",
		a2a.WithProtocolVersion(a2a.ProtocolV10)),
	// v1.0 bodies to a webhook a v0.3 client registered: the receiver
	// reads them with the v1.0 binding.
	"a2a-go v2.4.0 through its v0.3 binding, a v0.3 client": v2Kind(startPushPeerV10Compat,
		"message/send", "tasks/get", "tasks/pushNotificationConfig/set"),
	"a2a-go v0.3.15 (A2A v0.3)": {
		start: startPushPeerV03,
		send:  "message/send", get: "tasks/get", set: "tasks/pushNotificationConfig/set",
		tokenHeader:    "X-A2a-Notification-Token",
		failedDelivery: "push sending failed",
		// The whole task after each event.
		entity: wholeEntity, fail: wholeFail, watch: wholeWatch,
		entityShapes: kindTask(len(wholeEntity)), failShapes: kindTask(len(wholeFail)), watchShapes: kindTask(len(wholeWatch)),
		// A Message reply is not pushed (its processor returns before
		// the push for a Message).
		message: nil, messageShapes: nil,
	},
}

// then is calls, and the task read that ends a wait whose final state
// came as a status update, for a peer that pushes it so.
func (k pushKind) then(calls ...string) []string {
	if k.finalRead {
		calls = append(calls, k.get)
	}
	return calls
}

// TestPushReceiverGoPeers proves the receiver against the push senders of
// a2a-go v2.4.0 and v0.3.15.
func TestPushReceiverGoPeers(t *testing.T) {
	for _, name := range slices.Sorted(maps.Keys(pushKinds)) {
		k := pushKinds[name]
		t.Run(name, func(t *testing.T) { runPushScenarios(t, k) })
	}
}

// wantEntity checks a task the receiver assembled: completed, with the
// "entity" artifact's data part and Chinese summary, read by the SDK's
// types.
func wantEntity(t *testing.T, task *a2a.Task) {
	t.Helper()
	if task.Status.State != a2a.TaskStateCompleted {
		t.Errorf("state %q, want completed", task.Status.State)
	}
	want := []a2a.Artifact{{Name: "entity", Parts: a2a.Parts{
		a2a.DataPart{Data: json.RawMessage(`{"title":"数控车床-A08-03-06","status":{"设备运行状态":"正常"}}`)},
		a2a.TextPart{Text: a2atest.EntitySummary},
	}}}
	if diff := cmp.Diff(want, task.Artifacts, asJSON, cmpopts.IgnoreFields(a2a.Artifact{}, "ArtifactID")); diff != "" {
		t.Errorf("artifacts (-want +got):\n%s", diff)
	}
	type card struct {
		Title  string            `json:"title"`
		Status map[string]string `json:"status"`
	}
	var got card
	if err := task.Artifact("entity").DecodeData(&got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(card{Title: "数控车床-A08-03-06", Status: map[string]string{"设备运行状态": "正常"}}, got); diff != "" {
		t.Errorf("decoded data (-want +got):\n%s", diff)
	}
}

// finalTask waits for w and returns its task, which must be what Wait
// returned with a nil error, and Task() too.
func finalTask(t *testing.T, ctx context.Context, w *a2a.PushWait) *a2a.Task {
	t.Helper()
	res, err := w.Wait(ctx)
	if err != nil {
		t.Fatalf("Wait: %v (last known %v)", err, res)
	}
	task, ok := res.(*a2a.Task)
	if !ok {
		t.Fatalf("Wait returned %T, want *a2a.Task", res)
	}
	if w.Task() != task {
		t.Errorf("Task() is not the task Wait returned")
	}
	select {
	case <-w.Done():
	default:
		t.Error("Done() is open after Wait returned")
	}
	return task
}

// checkDeliveries compares the POSTs the peer made with the wait's token
// to shapes, and checks their method, content type, token header and the
// receiver's answer (status).
func checkDeliveries(t *testing.T, k pushKind, got []delivery, madeUp bool, shapes []string, status int) {
	t.Helper()
	var want []delivery
	for _, s := range shapes {
		want = append(want, delivery{Method: http.MethodPost, ContentType: "application/json", TokenHeader: k.tokenHeader,
			MadeUp: madeUp, Bearer: !madeUp && !k.noBearer, Shape: s, Status: status})
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("POSTs to the webhook (-want +got):\n%s", diff)
	}
}

func runPushScenarios(t *testing.T, k pushKind) {
	t.Run("Send: the peer's notifications end the wait with no poll", func(t *testing.T) {
		p := k.start(t)
		rig := newPushRig(t, p, k.clientOpts...)
		ctx := testCtx(t)
		w, err := rig.recv.SendMessage(ctx, rig.c, a2a.NewTextMessage(pushEntity))
		if err != nil {
			t.Fatal(err)
		}
		id := w.TaskID()
		if id == "" {
			t.Fatal("the wait knows no task after the send answered")
		}
		if s := w.Task().Status.State; s.Terminal() {
			t.Fatalf("non-blocking send left the wait in %q", s)
		}
		select {
		case <-w.Done():
			t.Fatal("the wait ended before the task could")
		default:
		}
		p.release(t, ctx, id)
		task := finalTask(t, ctx, w)
		if task.ID != id {
			t.Errorf("task %q, want %q", task.ID, id)
		}
		wantEntity(t, task)
		checkDeliveries(t, k, rig.hooks.waitFor(t, ctx, false, len(k.entity)), false, k.entityShapes, http.StatusNoContent)
		if diff := cmp.Diff(k.entity, rig.notified(t, id)); diff != "" {
			t.Errorf("PushOnNotification (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(k.then(k.send), p.calls()); diff != "" {
			t.Errorf("requests reaching the peer (-want +got):\n%s", diff)
		}
		if pending := rig.recv.Pending(); pending != 0 {
			t.Errorf("%d waits pending", pending)
		}
		if ended := rig.doneCalls(); ended != 1 {
			t.Errorf("PushOnDone called %d times, want 1", ended)
		}
	})

	t.Run("Watch: a webhook set for a running task gets the rest", func(t *testing.T) {
		p := k.start(t)
		rig := newPushRig(t, p, k.clientOpts...)
		ctx := testCtx(t)
		task, err := rig.c.SendText(ctx, pushWatch, a2a.Blocking(false))
		if err != nil {
			t.Fatal(err)
		}
		if task.Status.State != a2a.TaskStateSubmitted {
			t.Fatalf("non-blocking send returned %q, want submitted (the task waits at its gate)", task.Status.State)
		}
		w, err := rig.recv.WatchTask(ctx, rig.c, task)
		if err != nil {
			t.Fatal(err)
		}
		// Watch set the config, then read the task once (it might have
		// ended before the config arrived); that is the only tasks/get.
		if diff := cmp.Diff([]string{k.send, k.set, k.get}, p.calls()); diff != "" {
			t.Errorf("requests reaching the peer by Watch (-want +got):\n%s", diff)
		}
		p.release(t, ctx, task.ID)
		done := finalTask(t, ctx, w)
		if done.ID != task.ID {
			t.Errorf("task %q, want %q", done.ID, task.ID)
		}
		wantEntity(t, done)
		checkDeliveries(t, k, rig.hooks.waitFor(t, ctx, false, len(k.watch)), false, k.watchShapes, http.StatusNoContent)
		if diff := cmp.Diff(k.watch, rig.notified(t, task.ID)); diff != "" {
			t.Errorf("PushOnNotification (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(k.then(k.send, k.set, k.get), p.calls()); diff != "" {
			t.Errorf("requests reaching the peer (-want +got):\n%s", diff)
		}
	})

	t.Run("blocking Send: the answer ends the wait", func(t *testing.T) {
		p := k.start(t)
		rig := newPushRig(t, p, k.clientOpts...)
		ctx := testCtx(t)
		p.release(t, ctx, "") // the task runs through at once
		// The peer sends every notification while it processes the events,
		// before its blocking answer; they wait for the answer, which is
		// the completed task and ends the wait as Send returns.
		w, err := rig.recv.SendMessage(ctx, rig.c, a2a.NewTextMessage(pushEntity), a2a.Blocking(true))
		if err != nil {
			t.Fatal(err)
		}
		// A Go peer waited for the receiver's answer to each POST before it
		// answered the send.
		if got := rig.hooks.answered(false); !k.fireAndForget && got != len(k.entity) {
			t.Errorf("%d notifications answered before the send's answer, want %d", got, len(k.entity))
		}
		select {
		case <-w.Done():
		default:
			t.Fatal("the wait is open after a blocking send answered with the completed task")
		}
		wantEntity(t, finalTask(t, ctx, w))
		checkDeliveries(t, k, rig.hooks.waitFor(t, ctx, false, len(k.entity)), false, k.entityShapes, http.StatusNoContent)
		got := rig.notified(t, w.TaskID())
		if k.fireAndForget {
			// POSTs after the wait ended are answered 204 (its token is
			// retired) and reach no hook: the hook saw the first of them.
			if len(got) > len(k.entity) || !slices.Equal(got, k.entity[:len(got)]) {
				t.Errorf("PushOnNotification saw %q, want the first of %q", got, k.entity)
			}
		} else if diff := cmp.Diff(k.entity, got); diff != "" {
			t.Errorf("PushOnNotification (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{k.send}, p.calls()); diff != "" {
			t.Errorf("requests reaching the peer (-want +got):\n%s", diff)
		}
		if ended := rig.doneCalls(); ended != 1 {
			t.Errorf("PushOnDone called %d times, want 1", ended)
		}
	})

	t.Run("Watch of a task that ended before the webhook was set: its read ends the wait", func(t *testing.T) {
		p := k.start(t)
		rig := newPushRig(t, p, k.clientOpts...)
		ctx := testCtx(t)
		stale, err := rig.c.SendText(ctx, pushEntity, a2a.Blocking(false))
		if err != nil {
			t.Fatal(err)
		}
		p.release(t, ctx, stale.ID)
		if _, err := rig.c.WaitTask(ctx, stale.ID, a2a.PollInterval(10*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		before := len(p.calls())
		// The snapshot says working; the task has completed since. Both
		// peers accept a config for a finished task, and never POST to it.
		w, err := rig.recv.WatchTask(ctx, rig.c, stale)
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-w.Done():
		default:
			t.Fatal("the wait is open after Watch read the completed task")
		}
		wantEntity(t, finalTask(t, ctx, w))
		if diff := cmp.Diff([]string{k.set, k.get}, p.calls()[before:]); diff != "" {
			t.Errorf("requests reaching the peer by Watch (-want +got):\n%s", diff)
		}
		if got := rig.notified(t, stale.ID); len(got) != 0 {
			t.Errorf("notifications %q for a task that had ended", got)
		}
	})

	t.Run("a Message reply ends the wait with the message", func(t *testing.T) {
		p := k.start(t)
		rig := newPushRig(t, p, k.clientOpts...)
		ctx := testCtx(t)
		w, err := rig.recv.SendMessage(ctx, rig.c, a2a.NewTextMessage(pushMessage))
		if err != nil {
			t.Fatal(err)
		}
		// Whatever the peer pushes for a Message it pushes before it
		// answers the send.
		if got := rig.hooks.answered(false); got != len(k.message) {
			t.Errorf("%d notifications answered before the send's answer, want %d", got, len(k.message))
		}
		res, err := w.Wait(ctx)
		if err != nil {
			t.Fatalf("Wait: %v", err)
		}
		m, ok := res.(*a2a.Message)
		if !ok || m.Role != a2a.RoleAgent || m.Text() != greeting {
			t.Fatalf("Wait returned %#v, want the agent's message %q", res, greeting)
		}
		if w.Task() != nil || w.TaskID() != "" {
			t.Errorf("a Message reply left task %q (%v) on the wait", w.TaskID(), w.Task())
		}
		checkDeliveries(t, k, rig.hooks.waitFor(t, ctx, false, len(k.message)), false, k.messageShapes, http.StatusNoContent)
		if diff := cmp.Diff(k.message, rig.notified(t, "")); diff != "" {
			t.Errorf("PushOnNotification (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff([]string{k.send}, p.calls()); diff != "" {
			t.Errorf("requests reaching the peer (-want +got):\n%s", diff)
		}
	})

	t.Run("a failed task ends the wait as a value", func(t *testing.T) {
		p := k.start(t)
		rig := newPushRig(t, p, k.clientOpts...)
		ctx := testCtx(t)
		w, err := rig.recv.SendMessage(ctx, rig.c, a2a.NewTextMessage(pushFail))
		if err != nil {
			t.Fatal(err)
		}
		p.release(t, ctx, w.TaskID())
		task := finalTask(t, ctx, w)
		type outcome struct {
			State  a2a.TaskState
			Reason string
		}
		if diff := cmp.Diff(outcome{a2a.TaskStateFailed, a2atest.FailureReason}, outcome{task.Status.State, task.StatusText()}); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		checkDeliveries(t, k, rig.hooks.waitFor(t, ctx, false, len(k.fail)), false, k.failShapes, http.StatusNoContent)
		if diff := cmp.Diff(k.fail, rig.notified(t, task.ID)); diff != "" {
			t.Errorf("PushOnNotification (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(k.then(k.send), p.calls()); diff != "" {
			t.Errorf("requests reaching the peer (-want +got):\n%s", diff)
		}
	})

	t.Run("a second config with a made-up token is refused 401 and never counts", func(t *testing.T) {
		p := k.start(t)
		rig := newPushRig(t, p, k.clientOpts...)
		ctx := testCtx(t)
		// push-watch holds the task at its gate before it works, so both
		// configs are in place for every event after the first.
		w, err := rig.recv.SendMessage(ctx, rig.c, a2a.NewTextMessage(pushWatch))
		if err != nil {
			t.Fatal(err)
		}
		id := w.TaskID()
		// The same webhook URL, with a token no wait was given: the peer
		// POSTs each later event to both configs.
		forged := a2a.TaskPushNotificationConfig{TaskID: id, PushNotificationConfig: a2a.PushNotificationConfig{
			ID: "forged", URL: rig.recv.URL(), Token: madeUpToken}}
		if _, err := rig.c.CreateTaskPushNotificationConfig(ctx, forged); err != nil {
			t.Fatal(err)
		}
		p.release(t, ctx, id)
		wantEntity(t, finalTask(t, ctx, w))

		checkDeliveries(t, k, rig.hooks.waitFor(t, ctx, true, len(k.watch)), true, k.watchShapes, http.StatusUnauthorized)
		// With the wait's token, every event, as for push-entity (the
		// scripts differ only in where the gate is).
		checkDeliveries(t, k, rig.hooks.waitFor(t, ctx, false, len(k.entity)), false, k.entityShapes, http.StatusNoContent)
		if diff := cmp.Diff(k.entity, rig.notified(t, id)); diff != "" {
			t.Errorf("PushOnNotification, which must not see the refused POSTs (-want +got):\n%s", diff)
		}
		if diff := cmp.Diff(k.then(k.send, k.set), p.calls()); diff != "" {
			t.Errorf("requests reaching the peer (-want +got):\n%s", diff)
		}
		// The receiver logged the refusals, never the token.
		logged := rig.log.String()
		if n := strings.Count(logged, "unknown notification token"); n != len(k.watch) {
			t.Errorf("the receiver logged %d refusals for an unknown token, want %d:\n%s", n, len(k.watch), logged)
		}
		if strings.Contains(logged, madeUpToken) {
			t.Errorf("the receiver's log holds the token:\n%s", logged)
		}
		// The peer took the 401 as a failed delivery, logged it and went on
		// (a2a-go's sender's FailOnError is off).
		if k.failedDelivery == "" {
			return
		}
		peerLogged := p.log.waitCount(t, ctx, "401 Unauthorized", len(k.watch))
		if n := strings.Count(peerLogged, k.failedDelivery); n != len(k.watch) {
			t.Errorf("the peer logged %d failed deliveries, want %d:\n%s", n, len(k.watch), peerLogged)
		}
	})
}
