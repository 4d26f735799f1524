// Package sched runs many small timed jobs from one clock goroutine and a
// bounded set of worker goroutines: a pending job costs its caller's struct
// and one slot of a heap, no goroutine, no timer. It imports nothing from
// the root package.
package sched

import (
	"sync"
	"time"
)

// Scheduler runs each scheduled Entry's func once at (or after) its due time, in
// due order, with at most limit funcs running at once. One goroutine keeps the
// clock while anything is scheduled; funcs run in worker goroutines (≤ limit).
// When nothing is scheduled or running, no goroutine of it remains (goleak-clean
// without a Close).
//
// A Scheduler is safe for concurrent use. Its zero value is not usable: make
// one with New.
type Scheduler struct {
	limit int
	epoch time.Time     // due times are nanoseconds since epoch (monotonic)
	wake  chan struct{} // cap 1: the clock must look again (earliest changed, a worker ended)

	mu      sync.Mutex
	heap    []*Entry // pending entries, earliest due first
	running int      // funcs running now
	again   int      // running entries rescheduled while running
	clock   bool     // the clock goroutine is alive
}

// Entry is one job of a Scheduler. It is embedded (by value) in the caller's
// per-job struct, so scheduling allocates nothing; it must not be copied after
// Init. An Entry belongs to at most one Scheduler at a time.
type Entry struct {
	due     int64 // nanoseconds since the scheduler's epoch
	index   int   // position in the heap + 1; 0 when not in the heap
	fn      func()
	running bool // fn is running in a worker
	again   bool // At was called while running: pushed back when fn returns
}

// New returns a Scheduler that runs at most limit funcs at once; a limit
// below 1 is taken as 1.
func New(limit int) *Scheduler {
	return &Scheduler{limit: max(limit, 1), epoch: time.Now(), wake: make(chan struct{}, 1)}
}

// Init sets the func that runs in a worker goroutine each time e comes due.
// Call it once, before e is first scheduled.
func (e *Entry) Init(fn func()) { e.fn = fn }

// At schedules e to run at t (at once if t is not after now). A pending e
// moves to t. An e whose func is running (it may be the caller) is
// scheduled again for t when its func returns; it never runs twice at once.
func (s *Scheduler) At(e *Entry, t time.Time) {
	due := int64(t.Sub(s.epoch))
	s.mu.Lock()
	e.due = due
	switch {
	case e.running:
		if !e.again {
			e.again = true
			s.again++
		}
	case e.index > 0:
		s.fix(e.index - 1)
		if e.index == 1 {
			s.poke()
		}
	default:
		s.push(e)
	}
	s.mu.Unlock()
}

// Stop unschedules e. It reports whether e was pending (in which case its
// func will not run for that schedule); false if e is running and not
// rescheduled, or was never or no longer scheduled. Stop does not wait for
// a running func to return.
func (s *Scheduler) Stop(e *Entry) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.again {
		e.again = false
		s.again--
		return true
	}
	if e.index == 0 {
		return false
	}
	first := e.index == 1
	s.remove(e.index - 1)
	if first {
		s.poke()
	}
	return true
}

// Len returns the number of pending entries: scheduled and not yet running,
// or rescheduled while running.
func (s *Scheduler) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.heap) + s.again
}

func (s *Scheduler) now() int64 { return int64(time.Since(s.epoch)) }

// poke tells the clock to look again; it never blocks.
func (s *Scheduler) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// push adds e to the heap and makes sure the clock runs. s.mu is held.
func (s *Scheduler) push(e *Entry) {
	s.heap = append(s.heap, e)
	e.index = len(s.heap)
	s.up(len(s.heap) - 1)
	if !s.clock {
		s.clock = true
		go s.tick()
	} else if e.index == 1 {
		s.poke()
	}
}

// next pops the earliest entry if it is due and a worker slot is free,
// marking it running. s.mu is held.
func (s *Scheduler) next(now int64) *Entry {
	if len(s.heap) == 0 || s.running >= s.limit || s.heap[0].due > now {
		return nil
	}
	e := s.heap[0]
	s.remove(0)
	e.running = true
	s.running++
	return e
}

// tick is the clock: it starts a worker for each due entry while slots are
// free, sleeps until the earliest due time (or a poke), and ends when the
// heap is empty.
func (s *Scheduler) tick() {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		s.mu.Lock()
		now := s.now()
		for e := s.next(now); e != nil; e = s.next(now) {
			go s.work(e)
		}
		if len(s.heap) == 0 {
			s.clock = false
			s.mu.Unlock()
			return
		}
		wait := time.Duration(-1) // all slots busy: a worker pokes when it ends
		if s.running < s.limit {
			wait = time.Duration(s.heap[0].due - now)
		}
		s.mu.Unlock()
		if wait < 0 {
			<-s.wake
			continue
		}
		if timer == nil {
			timer = time.NewTimer(wait)
		} else {
			timer.Reset(wait)
		}
		select {
		case <-timer.C:
		case <-s.wake:
			timer.Stop()
		}
	}
}

// work runs e's func, then any entry that is due by then while its slot is
// the one free, and ends when none is.
func (s *Scheduler) work(e *Entry) {
	for e != nil {
		e.fn()
		s.mu.Lock()
		e.running = false
		s.running--
		if e.again {
			e.again = false
			s.again--
			s.push(e)
		}
		e = s.next(s.now())
		s.mu.Unlock()
	}
	s.poke()
}

// The heap: s.heap[i].index == i+1 always.

func (s *Scheduler) less(i, j int) bool { return s.heap[i].due < s.heap[j].due }

func (s *Scheduler) swap(i, j int) {
	h := s.heap
	h[i], h[j] = h[j], h[i]
	h[i].index = i + 1
	h[j].index = j + 1
}

func (s *Scheduler) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !s.less(i, p) {
			return
		}
		s.swap(i, p)
		i = p
	}
}

func (s *Scheduler) down(i int) bool {
	start, n := i, len(s.heap)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && s.less(r, l) {
			c = r
		}
		if !s.less(c, i) {
			break
		}
		s.swap(i, c)
		i = c
	}
	return i > start
}

func (s *Scheduler) fix(i int) {
	if !s.down(i) {
		s.up(i)
	}
}

// remove takes the entry at i out of the heap.
func (s *Scheduler) remove(i int) {
	last := len(s.heap) - 1
	e := s.heap[i]
	if i != last {
		s.swap(i, last)
	}
	s.heap[last] = nil
	s.heap = s.heap[:last]
	if i != last {
		s.fix(i)
	}
	e.index = 0
	if cap(s.heap) > 256 && len(s.heap) < cap(s.heap)/4 {
		s.heap = append([]*Entry(nil), s.heap...) // give back memory after a burst
	}
}
