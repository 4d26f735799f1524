package sched

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// waitIdle waits until s holds nothing pending and runs nothing.
func waitIdle(t *testing.T, s *Scheduler) {
	t.Helper()
	for i := 0; ; i++ {
		s.mu.Lock()
		idle := len(s.heap) == 0 && s.running == 0 && s.again == 0 && !s.clock
		s.mu.Unlock()
		if idle {
			return
		}
		if i > 1e6 {
			t.Fatal("scheduler never idle")
		}
		time.Sleep(time.Millisecond)
	}
}

func TestDueOrder(t *testing.T) {
	s := New(1)
	// A blocker holds the only slot while the entries are scheduled, all
	// already due, in a scrambled order: they then run in due order.
	var blocker Entry
	started, release := make(chan struct{}), make(chan struct{})
	blocker.Init(func() { close(started); <-release })
	s.At(&blocker, time.Now())
	<-started
	var mu sync.Mutex
	var got []int
	done := make(chan struct{})
	const n = 50
	entries := make([]Entry, n)
	base := time.Now().Add(-time.Second)
	for k := range n {
		i := (k * 17) % n
		entries[i].Init(func() {
			mu.Lock()
			got = append(got, i)
			if len(got) == n {
				close(done)
			}
			mu.Unlock()
		})
		s.At(&entries[i], base.Add(time.Duration(i)*time.Microsecond))
	}
	if s.Len() != n {
		t.Fatalf("Len = %d, want %d", s.Len(), n)
	}
	close(release)
	<-done
	for i, v := range got {
		if v != i {
			t.Fatalf("run order %v: want 0..%d", got, n-1)
		}
	}
	waitIdle(t, s)
}

func TestLimitRespected(t *testing.T) {
	for _, limit := range []int{1, 3, 8} {
		s := New(limit)
		var now, peak atomic.Int32
		var wg sync.WaitGroup
		const n = 200
		entries := make([]Entry, n)
		wg.Add(n)
		for i := range entries {
			entries[i].Init(func() {
				c := now.Add(1)
				for {
					p := peak.Load()
					if c <= p || peak.CompareAndSwap(p, c) {
						break
					}
				}
				runtime.Gosched()
				time.Sleep(50 * time.Microsecond)
				now.Add(-1)
				wg.Done()
			})
			s.At(&entries[i], time.Now())
		}
		wg.Wait()
		if p := peak.Load(); p > int32(limit) || p < 1 {
			t.Errorf("limit %d: peak concurrent funcs %d", limit, p)
		}
		waitIdle(t, s)
	}
}

func TestNewLimitBelowOne(t *testing.T) {
	if s := New(0); s.limit != 1 {
		t.Fatalf("New(0).limit = %d, want 1", s.limit)
	}
}

func TestRescheduleFromOwnFunc(t *testing.T) {
	s := New(4)
	var e Entry
	var runs atomic.Int32
	var concurrent atomic.Int32
	done := make(chan struct{})
	e.Init(func() {
		if concurrent.Add(1) != 1 {
			t.Error("entry ran twice at once")
		}
		defer concurrent.Add(-1)
		if runs.Add(1) < 5 {
			s.At(&e, time.Now())
			if s.Len() != 1 {
				t.Errorf("Len while rescheduled from fn = %d, want 1", s.Len())
			}
			return
		}
		close(done)
	})
	s.At(&e, time.Now())
	<-done
	waitIdle(t, s)
	if runs.Load() != 5 {
		t.Fatalf("runs = %d, want 5", runs.Load())
	}
}

func TestMovePending(t *testing.T) {
	s := New(1)
	var a, b Entry
	order := make(chan string, 2)
	a.Init(func() { order <- "a" })
	b.Init(func() { order <- "b" })
	s.At(&a, time.Now().Add(time.Hour))
	s.At(&b, time.Now().Add(time.Hour))
	s.At(&b, time.Now()) // moves b earlier: runs now, a stays pending
	if got := <-order; got != "b" {
		t.Fatalf("first run %q, want b", got)
	}
	if s.Len() != 1 {
		t.Fatalf("Len = %d, want 1 (a pending)", s.Len())
	}
	s.At(&a, time.Now()) // moves a from an hour to now
	if got := <-order; got != "a" {
		t.Fatalf("second run %q, want a", got)
	}
	waitIdle(t, s)
}

func TestStopPending(t *testing.T) {
	s := New(2)
	var e Entry
	e.Init(func() { t.Error("stopped entry ran") })
	s.At(&e, time.Now().Add(30*time.Millisecond))
	if !s.Stop(&e) {
		t.Fatal("Stop of a pending entry = false")
	}
	if s.Stop(&e) {
		t.Fatal("second Stop = true")
	}
	if s.Len() != 0 {
		t.Fatalf("Len = %d after Stop", s.Len())
	}
	var never Entry
	never.Init(func() {})
	if s.Stop(&never) {
		t.Fatal("Stop of a never-scheduled entry = true")
	}
	waitIdle(t, s) // the clock ends without waiting the 30 ms out
	time.Sleep(60 * time.Millisecond)
}

func TestStopRunning(t *testing.T) {
	s := New(2)
	var e Entry
	started, release := make(chan struct{}), make(chan struct{})
	var runs atomic.Int32
	e.Init(func() {
		if runs.Add(1) == 1 {
			close(started)
			<-release
		}
	})
	s.At(&e, time.Now())
	<-started
	if s.Stop(&e) {
		t.Fatal("Stop of a running, not rescheduled entry = true")
	}
	s.At(&e, time.Now()) // rescheduled while running
	if s.Len() != 1 {
		t.Fatalf("Len = %d, want 1", s.Len())
	}
	if !s.Stop(&e) {
		t.Fatal("Stop of a running entry rescheduled = false")
	}
	close(release)
	waitIdle(t, s)
	if runs.Load() != 1 {
		t.Fatalf("runs = %d, want 1 (the reschedule was stopped)", runs.Load())
	}
}

// TestIdleLeavesNoGoroutine: after work, nothing of the scheduler runs
// (goleak), and it starts again on the next At.
func TestIdleLeavesNoGoroutine(t *testing.T) {
	s := New(3)
	for round := range 3 {
		var wg sync.WaitGroup
		entries := make([]Entry, 20)
		wg.Add(len(entries))
		for i := range entries {
			entries[i].Init(wg.Done)
			s.At(&entries[i], time.Now().Add(time.Duration(i)*time.Millisecond))
		}
		wg.Wait()
		waitIdle(t, s)
		goleak.VerifyNone(t)
		_ = round
	}
}

// TestMemoryPerPendingEntry: 100,000 pending entries cost the heap slot and
// little more beyond the caller's structs.
func TestMemoryPerPendingEntry(t *testing.T) {
	const n = 100_000
	type job struct {
		Entry
		id int
	}
	jobs := make([]job, n)
	for i := range jobs {
		jobs[i].Init(func() {})
	}
	s := New(4)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	far := time.Now().Add(time.Hour)
	for i := range jobs {
		s.At(&jobs[i].Entry, far.Add(time.Duration(i)))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / n
	t.Logf("%.1f bytes per pending entry beyond the Entry", per)
	if per > 64 {
		t.Errorf("%.1f bytes per pending entry, want ≤ 64", per)
	}
	if s.Len() != n {
		t.Fatalf("Len = %d", s.Len())
	}
	for i := range jobs {
		if !s.Stop(&jobs[i].Entry) {
			t.Fatalf("Stop(%d) = false", i)
		}
	}
	waitIdle(t, s)
	runtime.KeepAlive(jobs)
}

// TestConcurrentUse hammers At/Stop from many goroutines (for -race).
func TestConcurrentUse(t *testing.T) {
	s := New(4)
	const g, n = 8, 200
	var ran atomic.Int64
	var wg sync.WaitGroup
	for range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			entries := make([]Entry, n)
			for i := range entries {
				entries[i].Init(func() { ran.Add(1) })
				s.At(&entries[i], time.Now().Add(time.Duration(i%7)*time.Microsecond))
				if i%3 == 0 {
					s.Stop(&entries[i])
				}
			}
		}()
	}
	wg.Wait()
	waitIdle(t, s)
	if ran.Load() == 0 {
		t.Fatal("nothing ran")
	}
}
