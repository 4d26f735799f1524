package a2a_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// memRelay is a PushRelay in memory shared by replicas (relayOf): it
// keeps every record and every call it was given, to be looked into.
type memRelay struct {
	mu      sync.Mutex
	holds   map[[32]byte]memHeld
	queues  map[string][]a2a.RelayedNotification // passed, by replica, not delivered yet
	wake    chan struct{}                        // closed and renewed when a queue grows
	calls   []string                             // every call, with its arguments
	failAll error                                // every call fails with it, when set
	// failListen is how many Listen calls fail yet.
	failListen int
}

type memHeld struct {
	replica string
	w       a2a.HeldWait
}

func newMemRelay() *memRelay {
	return &memRelay{holds: map[[32]byte]memHeld{}, queues: map[string][]a2a.RelayedNotification{}, wake: make(chan struct{})}
}

// memReplica is one replica's view of a memRelay.
type memReplica struct {
	*memRelay
	name string
}

func (m *memRelay) relayOf(name string) a2a.PushRelay { return memReplica{m, name} }

// call records a call and returns the failure set, if any. m.mu is held.
func (m *memRelay) callLocked(format string, args ...any) error {
	m.calls = append(m.calls, fmt.Sprintf(format, args...))
	return m.failAll
}

func (m *memRelay) fail(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.failAll = err
}

func (m *memRelay) held(replica string) []a2a.HeldWait {
	m.mu.Lock()
	defer m.mu.Unlock()
	var hs []a2a.HeldWait
	for _, h := range m.holds {
		if h.replica == replica {
			hs = append(hs, h.w)
		}
	}
	return hs
}

func (m *memRelay) passed() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, c := range m.calls {
		if strings.HasPrefix(c, "Pass") {
			n++
		}
	}
	return n
}

func (r memReplica) Hold(_ context.Context, w a2a.HeldWait) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.callLocked("Hold %s %x %s", r.name, w.Key, w.TaskID); err != nil {
		return err
	}
	r.holds[w.Key] = memHeld{r.name, w}
	return nil
}

func (r memReplica) Release(_ context.Context, key [32]byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.callLocked("Release %s %x", r.name, key); err != nil {
		return err
	}
	delete(r.holds, key)
	return nil
}

func (r memReplica) Held(context.Context) ([]a2a.HeldWait, error) {
	r.mu.Lock()
	err := r.callLocked("Held %s", r.name)
	r.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return r.held(r.name), nil
}

func (r memReplica) Holder(_ context.Context, key [32]byte) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.callLocked("Holder %s %x", r.name, key); err != nil {
		return "", err
	}
	h, ok := r.holds[key]
	if !ok {
		return "", fmt.Errorf("mem: %w", a2a.ErrWaitNotHeld)
	}
	return h.replica, nil
}

func (r memReplica) Pass(_ context.Context, replica string, n a2a.RelayedNotification) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.callLocked("Pass %s→%s %x %s", r.name, replica, n.Key, n.Body); err != nil {
		return err
	}
	r.queues[replica] = append(r.queues[replica], n)
	close(r.wake)
	r.wake = make(chan struct{})
	return nil
}

// Listen delivers the replica's queue in order; one whose deliver fails
// goes back to the front, and is tried again at the next Pass or Listen.
func (r memReplica) Listen(ctx context.Context, deliver func(context.Context, a2a.RelayedNotification) error) error {
	for {
		r.mu.Lock()
		if err := r.callLocked("Listen %s", r.name); err != nil {
			r.mu.Unlock()
			return err
		}
		if r.failListen > 0 {
			r.failListen--
			r.mu.Unlock()
			return errors.New("listen failed")
		}
		q, wake := r.queues[r.name], r.wake
		delete(r.queues, r.name)
		r.mu.Unlock()
		for i, n := range q {
			if deliver(ctx, n) != nil {
				r.mu.Lock()
				r.queues[r.name] = append(q[i:], r.queues[r.name]...)
				r.mu.Unlock()
				break
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-wake:
		}
	}
}

// A notification that lands on a replica that does not hold its wait is
// passed to the one that does, answered 204, and ends the wait there as if
// posted to it: no tasks/get, PushOnNotification called on the holder.
// The relay never sees the token, only its hash; the holder's record is
// released when the wait ends.
func TestPushRelayPassesToTheHolder(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		t.Run(version, func(t *testing.T) {
			mem := newMemRelay()
			var notified atomic.Int32
			a := newReceiver(t, a2a.PushReplicas(mem.relayOf("a")))
			b := newReceiver(t, a2a.PushReplicas(mem.relayOf("b")),
				a2a.PushOnNotification(func(_ context.Context, n *a2a.PushNotification) error {
					if n.TaskID != "" && n.Event.(*a2a.Task).Status.State == a2a.TaskStateCompleted {
						notified.Add(1)
					}
					return nil
				}))
			w, srv, _, token := longWait(t, b, version)
			if got := mem.held("b"); len(got) != 1 || got[0].TaskID != w.TaskID() || got[0].Key != sha256.Sum256([]byte(token)) {
				t.Fatalf("b holds %+v, want the wait of task %s under its token's hash", got, w.TaskID())
			}
			if st := notify(t, a.URL(), tokenHeader(version), token, taskBody(version, w.TaskID(), a2a.TaskStateCompleted)); st != http.StatusNoContent {
				t.Fatalf("status %d from the replica not holding the wait, want 204", st)
			}
			res, err := w.Wait(t.Context())
			if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
				t.Fatalf("wait ended with %v, %v", res, err)
			}
			if notified.Load() != 1 {
				t.Errorf("PushOnNotification saw the final task %d times, want 1", notified.Load())
			}
			if n := getCalls(srv); n != 0 {
				t.Errorf("%d tasks/get, want none", n)
			}
			if mem.passed() != 1 || a.Pending() != 0 {
				t.Errorf("%d passed, %d pending on a; want 1 and 0", mem.passed(), a.Pending())
			}
			b.Close() // its queued Release is made by then
			if got := mem.held("b"); len(got) != 0 {
				t.Errorf("b still holds %+v after its wait ended", got)
			}
			mem.mu.Lock()
			defer mem.mu.Unlock()
			for _, c := range mem.calls {
				if strings.Contains(c, token) {
					t.Fatalf("the relay was given the token: %s", c)
				}
			}
		})
	}
}

// What the replica not holding a token answers: 401 when no replica holds
// it (and nothing is passed), 503 with Retry-After when the relay fails,
// 401 when PushVerify refuses it (it runs where the notification landed),
// 204 for a token whose wait ended here.
func TestPushRelayRefusals(t *testing.T) {
	mem := newMemRelay()
	verified := 0
	a := newReceiver(t, a2a.PushReplicas(mem.relayOf("a")), a2a.PushVerify(func(r *http.Request, body []byte) error {
		verified++ // one notification at a time here
		if strings.Contains(string(body), "forged") {
			return errors.New("bad signature")
		}
		return nil
	}))
	b := newReceiver(t, a2a.PushReplicas(mem.relayOf("b")))
	w, _, _, token := longWait(t, b, a2a.ProtocolV03)
	body := taskBody(a2a.ProtocolV03, w.TaskID(), a2a.TaskStateWorking)

	if st := notify(t, a.URL(), tokenHeader(a2a.ProtocolV03), "nobody's", body); st != http.StatusUnauthorized {
		t.Errorf("unknown token: %d, want 401", st)
	}
	if st := notify(t, a.URL(), tokenHeader(a2a.ProtocolV03), token, strings.Replace(body, "working", "forged", 1)); st != http.StatusUnauthorized {
		t.Errorf("refused by PushVerify: %d, want 401", st)
	}
	if verified != 1 || mem.passed() != 0 {
		t.Errorf("PushVerify called %d times, %d passed; want 1 and 0", verified, mem.passed())
	}
	mem.fail(errors.New("relay down"))
	want503(t, "relay down", post(t, a.URL(), token, body))
	mem.fail(nil)
	if st := notify(t, a.URL(), tokenHeader(a2a.ProtocolV03), token, body); st != http.StatusNoContent {
		t.Errorf("relay back: %d, want 204", st)
	}
	if st := notify(t, b.URL(), tokenHeader(a2a.ProtocolV03), token, taskBody(a2a.ProtocolV03, w.TaskID(), a2a.TaskStateCompleted)); st != http.StatusNoContent {
		t.Errorf("the holder: %d, want 204", st)
	}
	<-w.Done()
	if st := notify(t, b.URL(), tokenHeader(a2a.ProtocolV03), token, body); st != http.StatusNoContent {
		t.Errorf("the holder, its wait ended: %d, want 204", st)
	}
}

// A replica closed (or crashed) keeps its waits in the relay; while it is
// down, the notifications for them are passed to its queue; restarted, it
// resumes them (no request but what the waits need), takes what was
// queued, ends them, reports them to PushOnDone and releases them. A
// record whose task id was never known is released, not resumed.
func TestPushRelayResume(t *testing.T) {
	mem := newMemRelay()
	a := newReceiver(t, a2a.PushReplicas(mem.relayOf("a")))
	b1 := newReceiver(t, a2a.PushReplicas(mem.relayOf("b")))
	srv, c := agentFor(t, a2a.ProtocolV03, longTask)
	var ids, tokens []string
	for range 3 {
		w, err := b1.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
		if err != nil {
			t.Fatal(err)
		}
		_, token := registered(t, srv)
		ids, tokens = append(ids, w.TaskID()), append(tokens, token)
	}
	b1.Close()
	if got := mem.held("b"); len(got) != 3 {
		t.Fatalf("after Close b holds %d waits, want 3", len(got))
	}
	mem.relayOf("b").Hold(t.Context(), a2a.HeldWait{Key: sha256.Sum256([]byte("unanswered"))}) // the send's answer never came
	// Two of them finish while b is down; the notifications land on a and
	// on b's old server, which passes them on to b's queue.
	if st := notify(t, a.URL(), tokenHeader(a2a.ProtocolV03), tokens[0], taskBody(a2a.ProtocolV03, ids[0], a2a.TaskStateCompleted)); st != http.StatusNoContent {
		t.Fatalf("to a: %d", st)
	}
	if st := notify(t, b1.URL(), tokenHeader(a2a.ProtocolV03), tokens[1], taskBody(a2a.ProtocolV03, ids[1], a2a.TaskStateFailed)); st != http.StatusNoContent {
		t.Fatalf("to the closed b: %d", st)
	}
	gets := getCalls(srv)

	done := make(chan *a2a.PushWait, 3)
	b2 := newReceiver(t, a2a.PushReplicas(mem.relayOf("b")), a2a.PushOnDone(func(w *a2a.PushWait) { done <- w }))
	resumed, err := b2.Resume(t.Context(), c)
	if err != nil || len(resumed) != 3 {
		t.Fatalf("Resume: %d waits, %v; want 3", len(resumed), err)
	}
	if again, err := b2.Resume(t.Context(), c); err != nil || len(again) != 0 {
		t.Errorf("second Resume: %d waits, %v; want none", len(again), err)
	}
	ended := map[string]a2a.TaskState{}
	for range 2 {
		w := <-done
		res, err := w.Result()
		if err != nil {
			t.Fatalf("resumed wait ended with %v", err)
		}
		ended[w.TaskID()] = res.(*a2a.Task).Status.State
	}
	if ended[ids[0]] != a2a.TaskStateCompleted || ended[ids[1]] != a2a.TaskStateFailed {
		t.Errorf("ended %v, want %s completed and %s failed", ended, ids[0], ids[1])
	}
	// The third goes on, and ends by a notification posted to b2.
	if st := notify(t, b2.URL(), tokenHeader(a2a.ProtocolV03), tokens[2], taskBody(a2a.ProtocolV03, ids[2], a2a.TaskStateCompleted)); st != http.StatusNoContent {
		t.Fatalf("to b2: %d", st)
	}
	if w := <-done; w.TaskID() != ids[2] {
		t.Errorf("ended %s, want %s", w.TaskID(), ids[2])
	}
	if n := getCalls(srv); n != gets {
		t.Errorf("%d tasks/get while resuming, want none", n-gets)
	}
	b2.Close()
	if got := mem.held("b"); len(got) != 0 {
		t.Errorf("b still holds %+v", got)
	}
}

func TestPushRelayOptionAndResumeRefuse(t *testing.T) {
	if _, err := a2a.NewPushReceiver("http://127.0.0.1:1/push", a2a.PushReplicas(nil)); err == nil {
		t.Error("PushReplicas(nil): no error")
	}
	_, c := agentFor(t, a2a.ProtocolV03, longTask)
	plain := newReceiver(t)
	if _, err := plain.Resume(t.Context(), c); err == nil {
		t.Error("Resume without a relay: no error")
	}
	mem := newMemRelay()
	r := newReceiver(t, a2a.PushReplicas(mem.relayOf("a")))
	for _, bad := range []*a2a.Client{nil, {}} {
		if _, err := r.Resume(t.Context(), bad); err == nil || !strings.Contains(err.Error(), "NewClient") {
			t.Errorf("Resume with a Client not made by NewClient: %v", err)
		}
	}
	mem.fail(errors.New("relay down"))
	if _, err := r.Resume(t.Context(), c); err == nil || !strings.Contains(err.Error(), "relay down") {
		t.Errorf("Resume with the relay down: %v", err)
	}
	// A send whose wait cannot be held fails before its request.
	srv, c := agentFor(t, a2a.ProtocolV03, longTask)
	if _, err := r.SendMessage(t.Context(), c, a2a.NewTextMessage("go")); err == nil || !strings.Contains(err.Error(), "relay down") {
		t.Errorf("SendMessage with the relay down: %v", err)
	}
	if n := len(srv.Requests()); n != 0 || r.Pending() != 0 {
		t.Errorf("%d requests, %d pending; want none", n, r.Pending())
	}
	r.Close()
	mem.fail(nil)
	mem.relayOf("a").Hold(t.Context(), a2a.HeldWait{Key: sha256.Sum256([]byte("t")), TaskID: "t"})
	if _, err := r.Resume(t.Context(), c); !errors.Is(err, a2a.ErrReceiverClosed) {
		t.Errorf("Resume after Close: %v", err)
	}
}

// A Listen that fails is called again (a second later), and what was
// passed meanwhile is delivered then; a passed notification the holder
// refuses (about another task than its wait's) changes nothing and is not
// delivered again.
func TestPushRelayListenAgain(t *testing.T) {
	mem := newMemRelay()
	mem.failListen = 1
	log, lines := newCapture()
	a := newReceiver(t, a2a.PushReplicas(mem.relayOf("a")))
	b := newReceiver(t, a2a.PushReplicas(mem.relayOf("b")), a2a.PushLogger(log))
	w, srv, _, token := longWait(t, b, a2a.ProtocolV03)
	if st := notify(t, a.URL(), tokenHeader(a2a.ProtocolV03), token, taskBody(a2a.ProtocolV03, "another-task", a2a.TaskStateCompleted)); st != http.StatusNoContent {
		t.Fatalf("to a: %d", st)
	}
	if st := notify(t, a.URL(), tokenHeader(a2a.ProtocolV03), token, taskBody(a2a.ProtocolV03, w.TaskID(), a2a.TaskStateCompleted)); st != http.StatusNoContent {
		t.Fatalf("to a: %d", st)
	}
	res, err := w.Wait(t.Context())
	if err != nil || res.(*a2a.Task).ID != w.TaskID() || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
		t.Fatalf("wait ended with %v, %v", res, err)
	}
	if n := getCalls(srv); n != 0 {
		t.Errorf("%d tasks/get, want none", n)
	}
	b.Close()
	if got := strings.Join(lines(), "\n"); !strings.Contains(got, "403") || strings.Contains(got, token) {
		t.Errorf("log of the refused passed notification:\n%s", got)
	}
	mem.mu.Lock()
	defer mem.mu.Unlock()
	if q := mem.queues["b"]; len(q) != 0 {
		t.Errorf("%d passed notifications left for b, want none", len(q))
	}
}
