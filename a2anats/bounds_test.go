package a2anats_test

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2anats"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// eventually polls cond every 50 ms until it holds, failing the test
// after a minute (a bound on a hang, not a timing assertion).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); {
		if time.Now().After(end) {
			t.Fatalf("%s: not after a minute", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func notHeld(t *testing.T, r *a2anats.Relay, k [32]byte) bool {
	t.Helper()
	_, err := r.Holder(t.Context(), k)
	if err != nil && !errors.Is(err, a2a.ErrWaitNotHeld) {
		t.Fatal(err)
	}
	return err != nil
}

func streamMsgs(t *testing.T, nc *nats.Conn, name string) uint64 {
	t.Helper()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Msgs
}

// A record ends at its wait's deadline, one without a deadline at MaxAge,
// whether or not anybody resumes it; one with a later deadline stays.
func TestRecordsExpire(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s)
	a := newRelay(t, nc, "a", a2anats.MarkerTTL(time.Second), a2anats.MaxAge(3*time.Second))
	ctx := t.Context()
	for _, w := range []a2a.HeldWait{
		{Key: key("deadline"), TaskID: "t1", Deadline: time.Now().Add(time.Second)},
		{Key: key("none"), TaskID: "t2"},
		{Key: key("past"), TaskID: "t3", Deadline: time.Now().Add(-time.Hour)},
		{Key: key("later"), TaskID: "t4", Deadline: time.Now().Add(time.Hour)},
	} {
		if err := a.Hold(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "the record of a wait past its deadline removed", func() bool {
		return notHeld(t, a, key("deadline")) && notHeld(t, a, key("past"))
	})
	eventually(t, "the record of a wait without a deadline removed at MaxAge", func() bool {
		return notHeld(t, a, key("none"))
	})
	// MaxAge bounds a later deadline too: an hour is more than 3 s.
	eventually(t, "the record of a wait of a later deadline removed at MaxAge", func() bool {
		return notHeld(t, a, key("later"))
	})
	held, err := a.Held(ctx)
	if err != nil || len(held) != 0 {
		t.Errorf("Held() = %v, %v; want none", held, err)
	}
}

// A record with a deadline later than its expiry of another is kept: an
// update (the task id) renews the TTL.
func TestRecordKeptUntilDeadline(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s)
	a := newRelay(t, nc, "a", a2anats.MarkerTTL(time.Second))
	ctx := t.Context()
	short := a2a.HeldWait{Key: key("short"), TaskID: "t1", Deadline: time.Now().Add(time.Second)}
	long := a2a.HeldWait{Key: key("long"), TaskID: "t2", Deadline: time.Now().Add(time.Hour)}
	for _, w := range []a2a.HeldWait{{Key: long.Key}, long, short} {
		if err := a.Hold(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, "the short record removed", func() bool { return notHeld(t, a, short.Key) })
	held, err := a.Held(ctx)
	if err != nil || len(held) != 1 || held[0].Key != long.Key || held[0].TaskID != "t2" || !held[0].Deadline.Equal(long.Deadline) {
		t.Errorf("Held() = %v, %v; want the long one only", held, err)
	}
}

// A notification whose delivery always fails is delivered MaxDeliver
// times, then removed from the stream; one nobody listens for is removed
// at MaxAge.
func TestPassedNotificationsEnd(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s)
	a := newRelay(t, nc, "a", a2anats.MaxAge(2*time.Second))
	b := newRelay(t, nc, "b", a2anats.MaxAge(2*time.Second), a2anats.MaxDeliver(3),
		a2anats.RedeliverAfter(10*time.Millisecond))
	var tries atomic.Int32
	stop := listen(t, b, make(chan a2a.RelayedNotification), func(a2a.RelayedNotification) error {
		tries.Add(1)
		return errors.New("not resumed")
	})
	if err := a.Pass(t.Context(), "b", a2a.RelayedNotification{Key: key("x"), Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the notification terminated", func() bool {
		return tries.Load() >= 3 && streamMsgs(t, nc, a2anats.DefaultStream) == 0
	})
	stop()
	if n := tries.Load(); n != 3 {
		t.Errorf("delivered %d times; want MaxDeliver, 3", n)
	}

	if err := a.Pass(t.Context(), "gone", a2a.RelayedNotification{Key: key("y"), Body: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if n := streamMsgs(t, nc, a2anats.DefaultStream); n != 1 {
		t.Fatalf("stream holds %d messages; want 1", n)
	}
	eventually(t, "the notification for a replica gone removed at MaxAge", func() bool {
		return streamMsgs(t, nc, a2anats.DefaultStream) == 0
	})
}

func TestBackoff(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s)
	r := newRelay(t, nc, "a")
	var got []time.Duration
	for tries := 1; tries <= 9; tries++ {
		got = append(got, r.Backoff(tries))
	}
	want := []time.Duration{1, 2, 4, 8, 16, 32, 60, 60, 60}
	for i := range want {
		want[i] *= time.Second
	}
	if !slices.Equal(got, want) {
		t.Errorf("backoff = %v; want %v", got, want)
	}
}
