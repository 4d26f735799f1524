package a2a_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// levelCapture is a slog.Handler keeping each record as "LEVEL message
// key=value...".
type levelCapture struct {
	mu   sync.Mutex
	recs []string
}

func (h *levelCapture) Enabled(context.Context, slog.Level) bool { return true }
func (h *levelCapture) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", r.Level, r.Message)
	r.Attrs(func(a slog.Attr) bool { fmt.Fprintf(&b, " %s=%v", a.Key, a.Value); return true })
	h.mu.Lock()
	defer h.mu.Unlock()
	h.recs = append(h.recs, b.String())
	return nil
}
func (h *levelCapture) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *levelCapture) WithGroup(string) slog.Handler      { return h }

// lines returns the records that hold sub.
func (h *levelCapture) lines(sub string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.DeleteFunc(slices.Clone(h.recs), func(s string) bool { return !strings.Contains(s, sub) })
}

// waitFor polls cond until it holds, failing after a minute (a bound on a
// hang, not a timing assertion).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s: not after a minute", what)
		}
	}
}

// holderCalls counts the Holder calls replica made for key.
func (m *memRelay) holderCalls(replica string, key [32]byte) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	want := fmt.Sprintf("Holder %s %x", replica, key)
	n := 0
	for _, c := range m.calls {
		if c == want {
			n++
		}
	}
	return n
}

// A notification passed to a replica restarted without Resume, for a
// wait it held before, is logged once at warn level (the key as a short
// hex prefix, never the token) however often it is delivered, and is not
// taken: it stays in the relay for a Resume.
func TestPushRelayWarnsUnresumed(t *testing.T) {
	mem := newMemRelay()
	a := newReceiver(t, a2a.PushReplicas(mem.relayOf("a")))
	b1 := newReceiver(t, a2a.PushReplicas(mem.relayOf("b")))
	w1, _, _, token := longWait(t, b1, a2a.ProtocolV03)
	b1.Close() // keeps the record for the next start
	key := sha256.Sum256([]byte(token))

	h := new(levelCapture)
	b2 := newReceiver(t, a2a.PushReplicas(mem.relayOf("b")), a2a.PushLogger(slog.New(h)))
	longWait(t, b2, a2a.ProtocolV03) // a wait of its own: b2 listens, but never calls Resume
	for i := range 3 {
		body := taskBody(a2a.ProtocolV03, w1.TaskID(), a2a.TaskStateWorking)
		if st := notify(t, a.URL(), tokenHeader(a2a.ProtocolV03), token, body); st != http.StatusNoContent {
			t.Fatalf("to a: %d", st)
		}
		waitFor(t, "the passed notification delivered to b2", func() bool { return mem.holderCalls("b", key) > i })
	}
	b2.Close()
	warns := h.lines("has not resumed")
	if len(warns) != 1 || !strings.HasPrefix(warns[0], "WARN ") || !strings.Contains(warns[0], "Resume") ||
		!strings.Contains(warns[0], "key="+hex.EncodeToString(key[:4])) {
		t.Errorf("warnings about the wait not resumed: %q; want one at WARN with the key's prefix", warns)
	}
	for _, l := range h.lines("") {
		if strings.Contains(l, token) || strings.Contains(l, hex.EncodeToString(key[:])) {
			t.Errorf("a record holds the token or the whole key: %q", l)
		}
	}
	mem.mu.Lock()
	defer mem.mu.Unlock()
	if q := mem.queues["b"]; len(q) == 0 {
		t.Error("the notifications not taken were dropped; want them kept for Resume")
	}
}

// A Hold or Release that fails is logged at warn level (crash recovery is
// off while the relay fails), at most relayWarnings (10) records in a
// window, however many calls fail.
func TestPushRelayWarnsFailedCalls(t *testing.T) {
	mem := newMemRelay()
	h := new(levelCapture)
	r := newReceiver(t, a2a.PushReplicas(mem.relayOf("a")), a2a.PushLogger(slog.New(h)))
	var waits []*a2a.PushWait
	for range 15 {
		w, _, _, _ := longWait(t, r, a2a.ProtocolV03)
		waits = append(waits, w)
	}
	mem.fail(errors.New("relay down"))
	for _, w := range waits {
		w.Stop() // each queues a Release, which fails
	}
	r.Close() // waits for the queued calls
	failed := h.lines("a2a push relay call failed")
	var releases int
	for _, l := range failed {
		if !strings.HasPrefix(l, "WARN ") || !strings.Contains(l, "relay down") {
			t.Errorf("record %q; want WARN with the error", l)
		}
		if strings.Contains(l, "call=Release") {
			releases++
		}
	}
	if releases == 0 || len(failed) > 10 {
		t.Errorf("%d records of failed calls (%d Releases) for 15 failed Releases; want 1 to 10:\n%s",
			len(failed), releases, strings.Join(failed, "\n"))
	}
}
