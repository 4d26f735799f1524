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

// TestBackoff: the delay before a delivery doubles from RedeliverAfter (1 s
// by default) up to a minute.
func TestBackoff(t *testing.T) {
	var got []time.Duration
	for tries := 1; tries <= 9; tries++ {
		got = append(got, a2anats.Backoff(time.Second, tries))
	}
	want := []time.Duration{1, 2, 4, 8, 16, 32, 60, 60, 60}
	for i := range want {
		want[i] *= time.Second
	}
	if !slices.Equal(got, want) {
		t.Errorf("backoff = %v; want %v", got, want)
	}
}

// limits returns the stream's MaxAge, the bucket's TTL and the MaxDeliver
// of the consumer of replica.
func limits(t *testing.T, nc *nats.Conn, replica string) (streamAge, bucketAge time.Duration, maxDeliver int) {
	t.Helper()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(t.Context(), a2anats.DefaultStream)
	if err != nil {
		t.Fatal(err)
	}
	kv, err := js.KeyValue(t.Context(), a2anats.DefaultBucket)
	if err != nil {
		t.Fatal(err)
	}
	kvs, err := kv.Status(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if c, err := st.Consumer(t.Context(), replica); err == nil {
		maxDeliver = c.CachedInfo().Config.MaxDeliver
	} else if !errors.Is(err, jetstream.ErrConsumerNotFound) {
		t.Fatal(err)
	}
	return st.CachedInfo().Config.MaxAge, kvs.TTL(), maxDeliver
}

// New sets the limits (by default a day and 100 deliveries), and updates
// those of a bucket, a stream and a consumer made with others (a replica
// restarted with other options).
func TestNewSetsLimits(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s)
	old := newRelay(t, nc, "a")
	stop := listen(t, old, make(chan a2a.RelayedNotification), nil)
	eventually(t, "the consumer made", func() bool { _, _, md := limits(t, nc, "a"); return md != 0 })
	stop()
	if sa, ba, md := limits(t, nc, "a"); sa != 24*time.Hour || ba != 24*time.Hour || md != 100 {
		t.Errorf("default limits: stream %v, bucket %v, MaxDeliver %d; want 24h, 24h, 100", sa, ba, md)
	}
	r := newRelay(t, nc, "a", a2anats.MaxAge(time.Hour), a2anats.MaxDeliver(5))
	stop = listen(t, r, make(chan a2a.RelayedNotification), nil)
	eventually(t, "the consumer updated", func() bool { _, _, md := limits(t, nc, "a"); return md != 100 })
	stop()
	if sa, ba, md := limits(t, nc, "a"); sa != time.Hour || ba != time.Hour || md != 5 {
		t.Errorf("limits updated: stream %v, bucket %v, MaxDeliver %d; want 1h, 1h, 5", sa, ba, md)
	}
}
