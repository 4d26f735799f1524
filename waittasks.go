package a2a

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"
)

// TaskResult is one task's end in [Client.WaitTasks].
type TaskResult struct {
	// TaskID is the id as given.
	TaskID string
	// Task is the last task read (nil if none), as [Client.WaitTask]
	// returns it.
	Task *Task
	// Err is the error as WaitTask returns it; nil when the task is
	// terminal or interrupted (a failed task is a value).
	Err error
}

// WaitTasks polls every task in ids as [Client.WaitTask] does, with the same
// options and rules for each (its own attempts, interval, jitter and
// budget; [PollTimeout] and ctx bound each wait, all started together),
// and yields each task's [TaskResult] as its wait ends, in any order. It
// is for programs that wait for many tasks and cannot receive push
// notifications: a waiting task costs a small struct, no goroutine, and
// at most [WithMaxPollsInFlight] tasks/get (64 by default) run at once for
// all the waits of the client together, earliest due first.
//
// Leaving the loop, by break, return, a panic or runtime.Goexit, stops
// the waits not yet ended (their attempts in flight are canceled) and
// returns once none of them runs; results not yet yielded are dropped. A
// [PollProgress] func given here is called for many waits at once, from
// several goroutines: it must be safe for concurrent use; if it panics,
// or calls runtime.Goexit, the other waits are stopped and the same
// happens in the loop's goroutine (see PollProgress).
//
// When ctx ends, every wait not yet ended yields its last task with a
// *[PollError] (PollLimitContext) or ctx's error, as WaitTask would; when
// the poll's own deadline passes (PollTimeout, or DefaultPollTimeout if
// ctx has none), each yields a *PollError (PollLimitDeadline), also while
// every slot of the client is taken. Each range over the sequence polls
// anew.
//
// Errors, in TaskResult.Err: those of WaitTask for each task; for an
// empty id, or an id given again (only its first occurrence is polled), an
// error for that entry, with nothing sent for it; for an option given bad
// input, or a Client not made by [NewClient], that error in every result,
// with nothing sent.
func (c *Client) WaitTasks(ctx context.Context, ids []string, opts ...WaitOption) iter.Seq[TaskResult] {
	return func(yield func(TaskResult) bool) {
		cfg, err := newPollConfig(opts)
		if err == nil {
			err = c.usable()
		}
		if err != nil {
			for _, id := range ids {
				if !yield(TaskResult{TaskID: id, Err: err}) {
					return
				}
			}
			return
		}
		waits, bad := c.newBatch(ctx, ids, &cfg)
		for _, r := range bad {
			if !yield(r) {
				return
			}
		}
		waits.run(yield)
	}
}

// batch is the waits of one WaitTasks call and the results their ends
// queue for the caller's loop: workers never block on the caller.
type batch struct {
	call  *pollCall
	waits []pollWait
	wake  chan struct{} // cap 1: results were queued

	mu        sync.Mutex
	queue     []TaskResult
	remaining int // waits not yet ended
}

// newBatch makes the waits of ids, none started, and the results for the
// ids that cannot be polled (empty, given again).
func (c *Client) newBatch(ctx context.Context, ids []string, cfg *pollConfig) (*batch, []TaskResult) {
	var bad []TaskResult
	seen := make(map[string]struct{}, len(ids))
	for _, id := range ids {
		if id == "" {
			bad = append(bad, TaskResult{Err: errors.New("a2a: WaitTasks: empty task id")})
			continue
		}
		if _, dup := seen[id]; dup {
			bad = append(bad, TaskResult{TaskID: id, Err: fmt.Errorf("a2a: WaitTasks: task id %q given more than once; its first occurrence is polled", id)})
			continue
		}
		seen[id] = struct{}{}
	}
	b := &batch{waits: make([]pollWait, 0, len(seen)), wake: make(chan struct{}, 1)}
	call := newPollCall(c, ctx, cfg, b.done)
	b.call = call
	for _, id := range ids {
		if _, ok := seen[id]; !ok {
			continue
		}
		delete(seen, id)
		b.waits = append(b.waits, pollWait{})
		b.waits[len(b.waits)-1].init(call, id, nil)
	}
	b.remaining = len(b.waits)
	return b, bad
}

// done queues a wait's end; it runs in a scheduler worker or in the
// goroutine of ctx's end.
func (b *batch) done(w *pollWait, task *Task, err error) {
	b.mu.Lock()
	b.queue = append(b.queue, TaskResult{TaskID: w.taskID, Task: task, Err: err})
	b.remaining--
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// run starts the waits and yields their results until all have ended or
// the caller's loop is left, however (yield asks to stop, the body
// panics or calls runtime.Goexit), which stops the rest. A wait whose
// PollProgress func panicked makes run panic with the same value, in the
// caller's goroutine, once the rest are stopped.
func (b *batch) run(yield func(TaskResult) bool) {
	if len(b.waits) == 0 {
		return
	}
	b.call.open()
	defer b.call.close()
	live := b.call.live
	watched := make(chan struct{})
	unwatch := watch(live, func() {
		defer close(watched)
		for i := range b.waits {
			b.waits[i].ctxDone()
		}
	})
	defer func() {
		if live.Done() != nil && !unwatch() {
			<-watched // the ends ctx made: none of the call runs on
		}
	}()
	ended := false
	defer func() {
		if !ended {
			b.stop()
		}
	}()
	for i := range b.waits {
		b.waits[i].begin()
	}
	var taken []TaskResult
	for {
		<-b.wake
		b.mu.Lock()
		taken, b.queue = b.queue, taken[:0]
		left := b.remaining
		b.mu.Unlock()
		for i, r := range taken {
			taken[i] = TaskResult{} // the caller's, not ours to keep
			repanic(r.Err)
			if !yield(r) {
				return
			}
		}
		if left == 0 { // every end was queued before this take
			ended = true
			return
		}
	}
}

// stop ends the waits not yet ended and returns once none runs.
func (b *batch) stop() {
	dropped := 0
	for i := range b.waits {
		if b.waits[i].drop() {
			dropped++
		}
	}
	b.mu.Lock()
	b.remaining -= dropped
	b.mu.Unlock()
	for {
		b.mu.Lock()
		left := b.remaining
		b.queue = b.queue[:0]
		b.mu.Unlock()
		if left == 0 {
			return
		}
		<-b.wake
	}
}
