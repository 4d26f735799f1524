package a2anats_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2anats"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// natsServer is an embedded NATS server with JetStream, its store in dir,
// on port (-1: any); it is shut down when the test ends.
func natsServer(t *testing.T, dir string, port int, jetStream bool) *server.Server {
	t.Helper()
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, JetStream: jetStream, StoreDir: dir,
		NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		t.Fatal("nats server not ready")
	}
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	return s
}

// connect connects to s; the connection is closed when the test ends.
func connect(t *testing.T, s *server.Server, opts ...nats.Option) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(s.ClientURL(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

func newRelay(t *testing.T, nc *nats.Conn, name string, opts ...a2anats.Option) *a2anats.Relay {
	t.Helper()
	r, err := a2anats.New(t.Context(), nc, name, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func key(s string) [32]byte { return sha256.Sum256([]byte(s)) }

func TestHoldReleaseHeld(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s)
	a, b := newRelay(t, nc, "a"), newRelay(t, nc, "b")
	ctx := t.Context()
	deadline := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, h := range []struct {
		r *a2anats.Relay
		w a2a.HeldWait
	}{
		{a, a2a.HeldWait{Key: key("1")}},
		{a, a2a.HeldWait{Key: key("1"), TaskID: "t1", Deadline: deadline}}, // the task id, once known
		{a, a2a.HeldWait{Key: key("2"), TaskID: "t2"}},
		{b, a2a.HeldWait{Key: key("3"), TaskID: "t3"}},
	} {
		if err := h.r.Hold(ctx, h.w); err != nil {
			t.Fatal(err)
		}
	}
	held, err := a.Held(ctx)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(held, func(x, y a2a.HeldWait) int { return strings.Compare(x.TaskID, y.TaskID) })
	want := []a2a.HeldWait{{Key: key("1"), TaskID: "t1", Deadline: deadline}, {Key: key("2"), TaskID: "t2"}}
	if len(held) != 2 || held[0] != want[0] || held[1] != want[1] {
		t.Fatalf("a holds %+v, want %+v", held, want)
	}
	if who, err := b.Holder(ctx, key("1")); err != nil || who != "a" {
		t.Fatalf("Holder(1) = %q, %v; want a", who, err)
	}
	if who, err := a.Holder(ctx, key("3")); err != nil || who != "b" {
		t.Fatalf("Holder(3) = %q, %v; want b", who, err)
	}
	if err := a.Release(ctx, key("1")); err != nil {
		t.Fatal(err)
	}
	if err := a.Release(ctx, key("never held")); err != nil {
		t.Fatalf("Release of a key not held: %v", err)
	}
	if _, err := b.Holder(ctx, key("1")); !errors.Is(err, a2a.ErrWaitNotHeld) {
		t.Fatalf("Holder of a released key: %v, want ErrWaitNotHeld", err)
	}
	if _, err := b.Holder(ctx, key("unknown")); !errors.Is(err, a2a.ErrWaitNotHeld) {
		t.Fatalf("Holder of an unknown key: %v, want ErrWaitNotHeld", err)
	}
	if held, err := a.Held(ctx); err != nil || len(held) != 1 || held[0].TaskID != "t2" {
		t.Fatalf("after Release a holds %+v, %v", held, err)
	}
	if held, err := newRelay(t, nc, "c").Held(ctx); err != nil || len(held) != 0 {
		t.Fatalf("c holds %+v, %v", held, err)
	}
}

// listen runs r.Listen in a goroutine until the returned stop is called,
// sending each notification delivered to got; deliver's answer is fail's
// (nil: none).
func listen(t *testing.T, r *a2anats.Relay, got chan<- a2a.RelayedNotification, fail func(a2a.RelayedNotification) error) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- r.Listen(ctx, func(_ context.Context, n a2a.RelayedNotification) error {
			if fail != nil {
				if err := fail(n); err != nil {
					return err
				}
			}
			got <- n
			return nil
		})
	}()
	var stopped bool
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Listen: %v", err)
		}
	}
	t.Cleanup(stop)
	return stop
}

func receive(t *testing.T, got <-chan a2a.RelayedNotification) a2a.RelayedNotification {
	t.Helper()
	select {
	case n := <-got:
		return n
	case <-time.After(30 * time.Second):
		t.Fatal("no notification delivered")
	}
	return a2a.RelayedNotification{}
}

func TestPassToLiveHolder(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s)
	a, b := newRelay(t, nc, "a"), newRelay(t, nc, "b")
	got := make(chan a2a.RelayedNotification, 10)
	listen(t, b, got, nil)
	for i := range 3 {
		n := a2a.RelayedNotification{Key: key(fmt.Sprint(i)), Body: []byte(fmt.Sprintf(`{"id":"t%d"}`, i))}
		if err := a.Pass(t.Context(), "b", n); err != nil {
			t.Fatal(err)
		}
		if m := receive(t, got); m.Key != n.Key || string(m.Body) != string(n.Body) {
			t.Fatalf("delivered %x %q, want %x %q", m.Key, m.Body, n.Key, n.Body)
		}
	}
	// Acknowledged, the messages are gone from the work queue.
	js, _ := nc.JetStream()
	for {
		info, err := js.StreamInfo(a2anats.DefaultStream)
		if err != nil {
			t.Fatal(err)
		}
		if info.State.Msgs == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case n := <-got:
		t.Fatalf("delivered again: %x", n.Key)
	default:
	}
}

func TestSecondListenRefused(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	b := newRelay(t, connect(t, s), "b")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	first := make(chan error, 1)
	start := func() {
		go func() { first <- b.Listen(ctx, func(context.Context, a2a.RelayedNotification) error { return nil }) }()
	}
	start()
	// Until the first one holds the relay, a second one with its context
	// ended fails for that (or returns nil): it is asked again. A first
	// one that could not set up its consumer (a loaded server) is started
	// again, a bounded number of times.
	ended, end := context.WithCancel(t.Context())
	end()
	for restarts := 0; ; {
		select {
		case err := <-first:
			if restarts++; restarts > 20 {
				t.Fatalf("the first Listen keeps ending: %v", err)
			}
			start()
		default:
		}
		err := b.Listen(ended, func(context.Context, a2a.RelayedNotification) error { return nil })
		if err != nil && strings.Contains(err.Error(), "already listening") {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-first; err != nil {
		t.Errorf("the first Listen, stopped: %v", err)
	}
}

func TestDeliverErrorRedelivers(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s)
	a, b := newRelay(t, nc, "a"), newRelay(t, nc, "b", a2anats.RedeliverAfter(10*time.Millisecond))
	got := make(chan a2a.RelayedNotification, 10)
	tries := 0
	listen(t, b, got, func(a2a.RelayedNotification) error {
		tries++ // one delivery at a time: Consume calls the handler in order
		if tries < 3 {
			return errors.New("not yet")
		}
		return nil
	})
	if err := a.Pass(t.Context(), "b", a2a.RelayedNotification{Key: key("k"), Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if n := receive(t, got); n.Key != key("k") || tries != 3 {
		t.Fatalf("delivered %x after %d tries, want 3", n.Key, tries)
	}
}

// A notification passed while its holder is down (never started, then
// stopped), and across a restart of the NATS server, is delivered once it
// listens again.
func TestPassWhileHolderDown(t *testing.T) {
	dir := t.TempDir()
	s := natsServer(t, dir, -1, true)
	nc := connect(t, s)
	a, b := newRelay(t, nc, "a"), newRelay(t, nc, "b")
	pass := func(r *a2anats.Relay, k string) {
		t.Helper()
		if err := r.Pass(t.Context(), "b", a2a.RelayedNotification{Key: key(k), Body: []byte(k)}); err != nil {
			t.Fatal(err)
		}
	}
	pass(a, "before b ever listened")
	got := make(chan a2a.RelayedNotification, 10)
	stop := listen(t, b, got, nil)
	if n := receive(t, got); string(n.Body) != "before b ever listened" {
		t.Fatalf("delivered %q", n.Body)
	}
	stop()
	pass(a, "while b is down")

	// The NATS server restarts on its store; a new connection, new relays.
	url := s.ClientURL()
	nc.Close()
	s.Shutdown()
	s.WaitForShutdown()
	s2 := natsServer(t, dir, portOf(t, url), true)
	nc2 := connect(t, s2)
	b2 := newRelay(t, nc2, "b")
	listen(t, b2, got, nil)
	if n := receive(t, got); string(n.Body) != "while b is down" || n.Key != key("while b is down") {
		t.Fatalf("delivered %q", n.Body)
	}
}

func portOf(t *testing.T, url string) int {
	var port int
	if _, err := fmt.Sscanf(url[strings.LastIndex(url, ":")+1:], "%d", &port); err != nil {
		t.Fatal(err)
	}
	return port
}

// With the server gone, every call fails with an error, within its ctx.
func TestServerUnavailable(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s, nats.MaxReconnects(-1), nats.ReconnectWait(10*time.Millisecond))
	a := newRelay(t, nc, "a")
	s.Shutdown()
	s.WaitForShutdown()
	call := func(name string, f func(context.Context) error) {
		ctx, cancel := context.WithTimeout(t.Context(), 500*time.Millisecond)
		defer cancel()
		if err := f(ctx); err == nil {
			t.Errorf("%s with the server down: no error", name)
		} else if errors.Is(err, a2a.ErrWaitNotHeld) {
			t.Errorf("%s with the server down: %v (a wait not held is not what went wrong)", name, err)
		}
	}
	call("Hold", func(ctx context.Context) error { return a.Hold(ctx, a2a.HeldWait{Key: key("k"), TaskID: "t"}) })
	call("Release", func(ctx context.Context) error { return a.Release(ctx, key("k")) })
	call("Holder", func(ctx context.Context) error { _, err := a.Holder(ctx, key("k")); return err })
	call("Held", func(ctx context.Context) error { _, err := a.Held(ctx); return err })
	call("Pass", func(ctx context.Context) error {
		return a.Pass(ctx, "b", a2a.RelayedNotification{Key: key("k")})
	})
	call("New", func(ctx context.Context) error { _, err := a2anats.New(ctx, nc, "b"); return err })
}

func TestNewRefuses(t *testing.T) {
	noJS := natsServer(t, t.TempDir(), -1, false)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if _, err := a2anats.New(ctx, connect(t, noJS), "a"); err == nil {
		t.Error("New on a server without JetStream: no error")
	}
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s)
	for _, tc := range []struct {
		name string
		opts []a2anats.Option
	}{
		{"", nil}, {"a.b", nil}, {"a b", nil}, {"*", nil}, {strings.Repeat("x", 65), nil},
		{"a", []a2anats.Option{nil}},
		{"a", []a2anats.Option{a2anats.Bucket("")}},
		{"a", []a2anats.Option{a2anats.Stream("S", "")}},
		{"a", []a2anats.Option{a2anats.Replicas(0)}},
		{"a", []a2anats.Option{a2anats.RedeliverAfter(0)}},
		{"a", []a2anats.Option{a2anats.MaxAge(999 * time.Millisecond)}},
		{"a", []a2anats.Option{a2anats.MaxDeliver(0)}},
	} {
		if _, err := a2anats.New(t.Context(), nc, tc.name, tc.opts...); err == nil {
			t.Errorf("New(%q, %d options): no error", tc.name, len(tc.opts))
		}
	}
	a := newRelay(t, nc, "a", a2anats.Bucket("other"), a2anats.Stream("OTHER", "other.relay"))
	if err := a.Pass(t.Context(), "b.c", a2a.RelayedNotification{}); err == nil {
		t.Error("Pass to a replica name that is not one: no error")
	}
	if a.Name() != "a" {
		t.Errorf("Name() = %q", a.Name())
	}
}
