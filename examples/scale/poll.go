package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// pollOpts are the waits' options: the default schedule (500 ms growing
// ×1.5 to 5 s, ±20 %), with budgets wide enough that no wait runs out while
// 100,000 of them take turns (the defaults, 2 minutes and 60 attempts, are
// for one wait).
var pollOpts = []a2a.WaitOption{a2a.PollTimeout(30 * time.Minute), a2a.PollMaxAttempts(100_000)}

// pollRound starts n polling waits for task-0 … task-(n-1), which the
// agent holds "working"; once every task has been asked for, measures the
// waits pending, releases the tasks and times the drain.
func pollRound(ctx context.Context, cfg config, ag *agent, c *a2a.Client) (result, error) {
	res := result{mode: "poll " + cfg.poller, waits: cfg.waits}
	ids := make([]string, cfg.waits)
	for i := range ids {
		ids[i] = taskPrefix + strconv.Itoa(i)
	}
	tl := newTally(cfg.waits)
	settle(ctx, ag) // the last round's connections closed: not counted in this one's
	ag.reset()
	before := measure()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		if cfg.poller == "WaitTask" {
			waitEach(ctx, c, ids, tl.add)
		} else {
			waitTasks(ctx, c, ids, tl.add)
		}
	}()
	// Pending: every wait has made its first request.
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for ag.npolled.Load() < int64(cfg.waits) {
		select {
		case <-tick.C:
		case <-done:
			return res, fmt.Errorf("the waits ended before all were pending: %w", tl.err())
		case <-ctx.Done():
			<-done // the waits end with ctx
			return res, fmt.Errorf("%d of %d waits pending: %w", ag.npolled.Load(), cfg.waits, ctx.Err())
		}
	}
	res.setup = time.Since(start)
	pending := measure()
	res.heapPerWait = perWait(pending.heap, before.heap, cfg.waits)
	res.stackPerWait = perWait(pending.stack, before.stack, cfg.waits)
	res.goPerWait = max(0, float64(pending.goroutines-before.goroutines)/float64(cfg.waits))

	ag.released.Store(true)
	t := time.Now()
	<-done
	res.drain = time.Since(t)
	res.accepted, res.peakOpen = ag.accepted.Load(), ag.peakOpen.Load()
	res.peakInflight, res.gets = ag.peakInflight.Load(), ag.gets.Load()
	var errs []error
	if i := slices.Index(tl.seen, false); i >= 0 {
		errs = append(errs, fmt.Errorf("%s not collected", ids[i]))
	}
	if n := ag.bad.Load(); n != 0 {
		errs = append(errs, fmt.Errorf("the agent refused %d requests", n))
	}
	return res, tl.err(errs...)
}

// waitTasks waits for every task with one WaitTasks, and calls collect
// with each end.
func waitTasks(ctx context.Context, c *a2a.Client, ids []string, collect func(string, *a2a.Task, error)) {
	for r := range c.WaitTasks(ctx, ids, pollOpts...) {
		collect(r.TaskID, r.Task, r.Err)
	}
}

// waitEach waits for every task, a goroutine and WaitTask each, and calls
// collect (from those goroutines) with each end.
func waitEach(ctx context.Context, c *a2a.Client, ids []string, collect func(string, *a2a.Task, error)) {
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			task, err := c.WaitTask(ctx, id, pollOpts...)
			collect(id, task, err)
		})
	}
	wg.Wait()
}
