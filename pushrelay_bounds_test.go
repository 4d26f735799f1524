package a2a_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// hangRelay is a memReplica whose calls, once told to, block until their
// context ends or the test lets them go (let): it records each blocked
// call as it starts (entered) and how it ended (ends: "Hold ctx", "Hold
// let").
type hangRelay struct {
	memReplica
	hangHold, hangRelease, hangHolder, hangPass atomic.Bool

	entered  chan string
	let      chan struct{}
	letOnce  sync.Once
	mu       sync.Mutex
	ends     []string
	started  atomic.Int32
	finished atomic.Int32
}

func newHangRelay(t *testing.T, mem *memRelay, name string) *hangRelay {
	h := &hangRelay{memReplica: memReplica{mem, name}, entered: make(chan string, 1024), let: make(chan struct{})}
	// A safety net, not a threshold: a call still blocked then is let go,
	// and the test fails on how it ended ("let", not "ctx").
	stop := time.AfterFunc(time.Minute, h.letGo)
	t.Cleanup(func() { stop.Stop(); h.letGo() })
	return h
}

func (h *hangRelay) letGo() { h.letOnce.Do(func() { close(h.let) }) }

func (h *hangRelay) block(ctx context.Context, call string) error {
	h.started.Add(1)
	defer h.finished.Add(1)
	h.entered <- call
	how, err := "ctx", ctx.Err()
	select {
	case <-ctx.Done():
		err = ctx.Err()
	case <-h.let:
		how, err = "let", errors.New("relay let go")
	}
	h.mu.Lock()
	h.ends = append(h.ends, call+" "+how)
	h.mu.Unlock()
	return err
}

func (h *hangRelay) endsSoFar() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.ends...)
}

func (h *hangRelay) Hold(ctx context.Context, w a2a.HeldWait) error {
	if w.TaskID != "" && h.hangHold.Load() {
		return h.block(ctx, "Hold")
	}
	return h.memReplica.Hold(ctx, w)
}

func (h *hangRelay) Release(ctx context.Context, key [32]byte) error {
	if h.hangRelease.Load() {
		return h.block(ctx, "Release")
	}
	return h.memReplica.Release(ctx, key)
}

func (h *hangRelay) Holder(ctx context.Context, key [32]byte) (string, error) {
	if h.hangHolder.Load() {
		return "", h.block(ctx, "Holder")
	}
	return h.memReplica.Holder(ctx, key)
}

func (h *hangRelay) Pass(ctx context.Context, replica string, n a2a.RelayedNotification) error {
	if h.hangPass.Load() {
		return h.block(ctx, "Pass")
	}
	return h.memReplica.Pass(ctx, replica, n)
}

// Close gives the relay calls queued one deadline in all: against a relay
// whose Release hangs, the call under way sees its context end and those
// queued behind it are dropped (logged), so Close returns while the relay
// still holds the call (it never let it go).
func TestPushRelayCloseBoundsTheQueue(t *testing.T) {
	mem := newMemRelay()
	h := newHangRelay(t, mem, "b")
	logs := new(levelCapture)
	b := newReceiver(t, a2a.PushReplicas(h), a2a.PushLogger(slog.New(logs)))
	a2a.SetRelayTimeout(b, 50*time.Millisecond)
	_, c := agentFor(t, a2a.ProtocolV03, longTask)
	var ws []*a2a.PushWait
	for range 4 {
		w, err := b.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	h.hangRelease.Store(true)
	ws[0].Stop() // its Release blocks the queue
	<-h.entered
	for _, w := range ws[1:] {
		w.Stop() // queued behind it
	}
	b.Close()
	if got := h.endsSoFar(); len(got) != 1 || got[0] != "Release ctx" {
		t.Errorf("relay calls when Close returned: %q; want the one under way, ended by its context", got)
	}
	if n := h.started.Load(); n != 1 {
		t.Errorf("%d Release calls made; want 1, the rest dropped", n)
	}
	if n := len(logs.lines("DEBUG a2a push relay call dropped at Close")); n != 3 {
		t.Errorf("%d dropped Releases logged; want 3", n)
	}
}

// SendMessage honours its ctx while the Hold of its task id waits for a
// relay that hangs: it returns the wait, with its task id, before the
// relay lets the Hold go, and the wait ends with ctx's cause.
func TestPushRelaySendHonoursCtxWhileHolding(t *testing.T) {
	mem := newMemRelay()
	h := newHangRelay(t, mem, "b")
	b := newReceiver(t, a2a.PushReplicas(h))
	a2a.SetRelayTimeout(b, 50*time.Millisecond)
	h.hangHold.Store(true)
	_, c := agentFor(t, a2a.ProtocolV03, longTask)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-h.entered // the Hold of the task id is under way
		cancel()
	}()
	w, err := b.SendMessage(ctx, c, a2a.NewTextMessage("go"))
	if got := h.endsSoFar(); len(got) != 0 {
		t.Errorf("SendMessage returned after the Hold ended (%q); want before", got)
	}
	if err != nil || w == nil || w.TaskID() == "" {
		t.Fatalf("SendMessage = %v, %v; want the wait with its task id", w, err)
	}
	<-w.Done()
	if _, err := w.Result(); !errors.Is(err, context.Canceled) {
		t.Errorf("wait ended with %v; want ctx's cause", err)
	}
}

// A relay whose Holder hangs holds no handler past the receiver's read
// timeout: 503 with Retry-After, the call's context ended.
func TestPushRelayHolderBounded(t *testing.T) {
	mem := newMemRelay()
	h := newHangRelay(t, mem, "a")
	h.hangHolder.Store(true)
	a := newReceiver(t, a2a.PushReplicas(h), a2a.PushReadTimeout(50*time.Millisecond))
	resp := post(t, a.URL(), "somebody's", taskBody(a2a.ProtocolV03, "t", a2a.TaskStateWorking))
	want503(t, "hung Holder", resp)
	if got := h.endsSoFar(); len(got) != 1 || got[0] != "Holder ctx" {
		t.Errorf("Holder calls: %q; want one, ended by its context", got)
	}
}

// A relay whose Pass hangs holds no handler past relayTimeout: 503 with
// Retry-After, the call's context ended.
func TestPushRelayPassBounded(t *testing.T) {
	mem := newMemRelay()
	h := newHangRelay(t, mem, "a")
	a := newReceiver(t, a2a.PushReplicas(h))
	a2a.SetRelayTimeout(a, 50*time.Millisecond)
	b := newReceiver(t, a2a.PushReplicas(mem.relayOf("b")))
	w, _, _, token := longWait(t, b, a2a.ProtocolV03)
	h.hangPass.Store(true)
	resp := post(t, a.URL(), token, taskBody(a2a.ProtocolV03, w.TaskID(), a2a.TaskStateWorking))
	want503(t, "hung Pass", resp)
	if got := h.endsSoFar(); len(got) != 1 || got[0] != "Pass ctx" {
		t.Errorf("Pass calls: %q; want one, ended by its context", got)
	}
}

// At most 64 Holder calls are in flight for unknown tokens: with 64
// blocked, the next notification is answered 503 without asking the
// relay.
func TestPushRelayLookupsBounded(t *testing.T) {
	mem := newMemRelay()
	h := newHangRelay(t, mem, "a")
	h.hangHolder.Store(true)
	a := newReceiver(t, a2a.PushReplicas(h), a2a.PushReadTimeout(time.Hour))
	body := taskBody(a2a.ProtocolV03, "t", a2a.TaskStateWorking)
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			post(t, a.URL(), fmt.Sprint("guess-", i), body)
		}()
	}
	for range 64 {
		<-h.entered
	}
	resp := post(t, a.URL(), "guess-65", body)
	want503(t, "65th unknown token", resp)
	if n, done := h.started.Load(), h.finished.Load(); n != 64 || done != 0 {
		t.Errorf("Holder calls: %d made, %d ended when the 65th was answered; want 64 and 0", n, done)
	}
	h.letGo()
	wg.Wait()
}

// Two Resumes at once resume each record once: every wait is registered,
// and Close ends them all.
func TestPushRelayResumeRacingResume(t *testing.T) {
	mem := newMemRelay()
	const n = 3000
	for i := range n {
		mem.relayOf("b").Hold(context.Background(), a2a.HeldWait{Key: sha256.Sum256([]byte(fmt.Sprint("tok-", i))), TaskID: fmt.Sprint("task-", i)})
	}
	b := newReceiver(t, a2a.PushReplicas(mem.relayOf("b")))
	_, c := agentFor(t, a2a.ProtocolV03, longTask)
	var all [2][]*a2a.PushWait
	var wg sync.WaitGroup
	for i := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws, err := b.Resume(context.Background(), c)
			if err != nil {
				t.Error(err)
			}
			all[i] = ws
		}()
	}
	wg.Wait()
	if got := len(all[0]) + len(all[1]); got != n || b.Pending() != n {
		t.Errorf("two Resumes: %d + %d waits, %d pending, for %d records; want %d in all", len(all[0]), len(all[1]), b.Pending(), n, n)
	}
	b.Close()
	open := 0
	for _, ws := range all {
		for _, w := range ws {
			select {
			case <-w.Done():
			default:
				open++
			}
		}
	}
	if open != 0 {
		t.Errorf("%d resumed waits not ended once Close returned; want 0", open)
	}
}

// cappedReplica is a memReplica that carries bodies of at most max bytes
// (MaxBody, the optional method a receiver looks for).
type cappedReplica struct {
	memReplica
	max int64
}

func (c cappedReplica) MaxBody() int64 { return c.max }

// A body larger than the relay carries is answered 413 (the sender must
// not send it again), not passed; one it carries is passed (204).
func TestPushRelayBodyOverRelayMax(t *testing.T) {
	mem := newMemRelay()
	a := newReceiver(t, a2a.PushReplicas(cappedReplica{memReplica{mem, "a"}, 1000}))
	b := newReceiver(t, a2a.PushReplicas(mem.relayOf("b")))
	w, _, _, token := longWait(t, b, a2a.ProtocolV03)
	body := taskBody(a2a.ProtocolV03, w.TaskID(), a2a.TaskStateWorking)
	if st := notify(t, a.URL(), tokenHeader(a2a.ProtocolV03), token, body+strings.Repeat(" ", 1001)); st != http.StatusRequestEntityTooLarge {
		t.Errorf("body over the relay's MaxBody: %d, want 413", st)
	}
	if mem.passed() != 0 {
		t.Errorf("%d passed; want 0", mem.passed())
	}
	if st := notify(t, a.URL(), tokenHeader(a2a.ProtocolV03), token, body); st != http.StatusNoContent {
		t.Errorf("body under it: %d, want 204", st)
	}
}

// post POSTs body to url with token as a v0.3 agent does, and returns the
// response, its body closed.
func post(t *testing.T, url, token, body string) *http.Response {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Error(err)
		return &http.Response{}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(tokenHeader(a2a.ProtocolV03), token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Error(err)
		return &http.Response{Header: http.Header{}}
	}
	resp.Body.Close()
	return resp
}

// want503 fails t unless resp is a 503 with a Retry-After, as the answer
// to what.
func want503(t *testing.T, what string, resp *http.Response) {
	t.Helper()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("%s: %d, Retry-After %q; want 503 with one", what, resp.StatusCode, resp.Header.Get("Retry-After"))
	}
}
