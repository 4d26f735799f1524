package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// snapshot is the process's live heap, stack in use and goroutines, read
// after a full collection.
type snapshot struct {
	heap, stack uint64
	goroutines  int
}

func measure() snapshot {
	runtime.GC()
	runtime.GC() // the first one's sweep done, finalizers run
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return snapshot{heap: ms.HeapAlloc, stack: ms.StackInuse, goroutines: runtime.NumGoroutine()}
}

// tally checks the waits' ends: each of a known task, completed, once.
// It is safe for concurrent use.
type tally struct {
	mu   sync.Mutex
	seen []bool // by task index
	errs []error
}

func newTally(n int) *tally { return &tally{seen: make([]bool, n)} }

// add takes the end of the wait for id.
func (t *tally) add(id string, task *a2a.Task, err error) {
	i, ok := taskIndex(id)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case err != nil:
		t.errs = append(t.errs, fmt.Errorf("wait for %s: %w", id, err))
	case task == nil || task.Status.State != a2a.TaskStateCompleted:
		t.errs = append(t.errs, fmt.Errorf("wait for %s ended with %v", id, task))
	case !ok || i >= len(t.seen):
		t.errs = append(t.errs, fmt.Errorf("wait for an unknown task %q", id))
	case t.seen[i]:
		t.errs = append(t.errs, fmt.Errorf("%s collected twice", id))
	default:
		t.seen[i] = true
	}
}

// err joins the errors taken so far and more.
func (t *tally) err(more ...error) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return errors.Join(append(t.errs[:len(t.errs):len(t.errs)], more...)...)
}

// perWait is (after - before) / n, in bytes or goroutines; negative
// differences (noise of a few KiB against nothing) count as 0.
func perWait(after, before uint64, n int) float64 {
	if after < before {
		return 0
	}
	return float64(after-before) / float64(n)
}

// result is what one round measured. Push rounds fill the notification
// rates; poll rounds the connection and request counts.
type result struct {
	mode  string
	waits int

	heapPerWait  float64 // bytes of live heap per pending wait, the agent's share taken out
	stackPerWait float64 // bytes of goroutine stack per pending wait
	goPerWait    float64 // goroutines per pending wait

	// push
	notifRate, bareRate float64 // notifications/s: to the receiver while draining, to the bare handler
	ratio               float64 // notifRate / bareRate (in the medians' row, the median of the rounds')

	// poll
	accepted, peakOpen int64 // connections the agent accepted, most open at once
	peakInflight       int64 // most tasks/get being answered at once
	gets               int64 // tasks/get requests, all the round

	setup time.Duration // first send (or first wait) to all pending
	drain time.Duration // release to the last wait ended
}

var pushHeader = "| mode | waits | heap/wait | stack/wait | goroutines/wait | notifications/s | bare handler/s | ratio | time to drain | all pending after |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"

var pollHeader = "| mode | waits | heap/wait | stack/wait | heap+stack/wait | goroutines/wait | connections accepted | most open | most in flight | tasks/get | time to drain | all pending after |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"

func header(mode string) string {
	if mode == "push" {
		return pushHeader
	}
	return pollHeader
}

func kib(b float64) string { return fmt.Sprintf("%.2f KiB", b/1024) }

func dur(d time.Duration) string {
	if d >= 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
}

func (r result) row(w io.Writer, label string) {
	name := r.mode
	if label != "" {
		name += " " + label
	}
	if r.mode == "push" {
		fmt.Fprintf(w, "| %s | %d | %s | %s | %.4f | %.0f | %.0f | %.2f | %s | %s |\n", name, r.waits,
			kib(r.heapPerWait), kib(r.stackPerWait), r.goPerWait, r.notifRate, r.bareRate, r.ratio, dur(r.drain), dur(r.setup))
		return
	}
	fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %.4f | %d | %d | %d | %d | %s | %s |\n", name, r.waits,
		kib(r.heapPerWait), kib(r.stackPerWait), kib(r.heapPerWait+r.stackPerWait), r.goPerWait,
		r.accepted, r.peakOpen, r.peakInflight, r.gets, dur(r.drain), dur(r.setup))
}

// summary is the median of each figure over the rounds, and the spread
// (least and most) of the ones that vary with the machine's load.
func summary(w io.Writer, rs []result) {
	if len(rs) == 0 {
		return
	}
	med := rs[0]
	f := func(get func(result) float64) (m, lo, hi float64) {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = get(r)
		}
		slices.Sort(v)
		m = v[len(v)/2]
		if len(v)%2 == 0 {
			m = (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		return m, v[0], v[len(v)-1]
	}
	med.heapPerWait, _, _ = f(func(r result) float64 { return r.heapPerWait })
	med.stackPerWait, _, _ = f(func(r result) float64 { return r.stackPerWait })
	med.goPerWait, _, _ = f(func(r result) float64 { return r.goPerWait })
	var rlo, rhi, blo, bhi, qlo, qhi, dlo, dhi float64
	med.notifRate, rlo, rhi = f(func(r result) float64 { return r.notifRate })
	med.bareRate, blo, bhi = f(func(r result) float64 { return r.bareRate })
	med.ratio, qlo, qhi = f(func(r result) float64 { return r.ratio })
	var d, s float64
	d, dlo, dhi = f(func(r result) float64 { return r.drain.Seconds() })
	med.drain = time.Duration(d * float64(time.Second))
	s, _, _ = f(func(r result) float64 { return r.setup.Seconds() })
	med.setup = time.Duration(s * float64(time.Second))
	for _, p := range []struct {
		dst *int64
		get func(result) int64
	}{
		{&med.accepted, func(r result) int64 { return r.accepted }},
		{&med.peakOpen, func(r result) int64 { return r.peakOpen }},
		{&med.peakInflight, func(r result) int64 { return r.peakInflight }},
		{&med.gets, func(r result) int64 { return r.gets }},
	} {
		m, _, _ := f(func(r result) float64 { return float64(p.get(r)) })
		*p.dst = int64(m)
	}
	med.row(w, fmt.Sprintf("(median of %d)", len(rs)))
	sec := func(v float64) string { return dur(time.Duration(v * float64(time.Second))) }
	if med.mode == "push" {
		fmt.Fprintf(w, "\nspread over %d rounds: notifications/s %.0f–%.0f, bare handler/s %.0f–%.0f, ratio %.2f–%.2f, time to drain %s–%s\n",
			len(rs), rlo, rhi, blo, bhi, qlo, qhi, sec(dlo), sec(dhi))
		return
	}
	_, alo, ahi := f(func(r result) float64 { return float64(r.accepted) })
	fmt.Fprintf(w, "\nspread over %d rounds: time to drain %s–%s, connections accepted %.0f–%.0f\n", len(rs), sec(dlo), sec(dhi), alo, ahi)
}
