package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// failsafe is how long a test waits for what must happen before it calls
// the SDK stuck; it is never a bound a passing run comes near.
const failsafe = 20 * time.Second

// slotHolder makes every tasks/get of a task whose id starts with "slow"
// block in the agent until release (or the request's end), so that waits
// on them take all the client's slots.
type slotHolder struct {
	held     chan struct{}
	release  chan struct{}
	released atomic.Bool
	once     sync.Once
}

func holdSlow(agent *pollAgent) *slotHolder {
	h := &slotHolder{held: make(chan struct{}, 1024), release: make(chan struct{})}
	agent.hold = func(r *http.Request, id string) {
		if !strings.HasPrefix(id, "slow") {
			return
		}
		h.held <- struct{}{}
		select {
		case <-h.release:
		case <-r.Context().Done():
		}
	}
	return h
}

func (h *slotHolder) free() {
	h.once.Do(func() {
		h.released.Store(true)
		close(h.release)
	})
}

// takeSlots starts n waits on slow tasks and returns once the agent holds
// all n tasks/get; wait returns once they ended.
func takeSlots(t *testing.T, c *a2a.Client, h *slotHolder, n int) (wait func()) {
	t.Helper()
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { c.WaitTask(context.Background(), fmt.Sprint("slow-", i), a2a.PollMaxAttempts(1)) })
	}
	for range n {
		select {
		case <-h.held:
		case <-time.After(failsafe):
			h.free()
			t.Fatal("the slow tasks/get never reached the agent")
		}
	}
	return wg.Wait
}

// endsWhileHeld runs f, which must return while the slow tasks/get are
// still held; if it does not, they are freed after failsafe (so the test
// ends) and the test fails.
func endsWhileHeld(t *testing.T, agent *pollAgent, h *slotHolder, held int64, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(failsafe):
		h.free()
		<-done
	}
	if h.released.Load() {
		t.Error("the wait ended only once a slot was freed")
	} else if n := agent.inFlight.Load(); n != held {
		t.Errorf("%d tasks/get in flight at the agent when the wait ended, want %d (all held)", n, held)
	}
}

func wantDeadline(t *testing.T, id string, err error) {
	t.Helper()
	pe, ok := errors.AsType[*a2a.PollError](err)
	if !ok || pe.Limit != a2a.PollLimitDeadline || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%s: err %v, want a *PollError with PollLimitDeadline", id, err)
		return
	}
	if pe.Attempts != 0 {
		t.Errorf("%s: %d attempts, want 0 (no slot was free)", id, pe.Attempts)
	}
}

// TestPollTimeoutWithoutSlot: a WaitTask's own deadline (PollTimeout, ctx
// without one) ends it while all 64 slots of the client are held by
// attempts the agent does not answer.
func TestPollTimeoutWithoutSlot(t *testing.T) {
	agent := newPollAgent(t, map[string][]a2a.TaskState{"quick": {a2a.TaskStateWorking}})
	h := holdSlow(agent)
	defer h.free()
	c := newPollClient(t, agent.URL)
	wait := takeSlots(t, c, h, a2a.DefaultMaxPollsInFlight)
	var err error
	endsWhileHeld(t, agent, h, a2a.DefaultMaxPollsInFlight, func() {
		_, err = c.WaitTask(context.Background(), "quick", a2a.PollTimeout(20*time.Millisecond))
	})
	wantDeadline(t, "quick", err)
	if n := agent.gets()["quick"]; n != 0 {
		t.Errorf("quick got %d tasks/get, want 0", n)
	}
	h.free()
	wait()
}

// TestWaitTasksPollTimeoutWithoutSlot: the same for every wait of a
// WaitTasks call, whose results all come while the slots are held.
func TestWaitTasksPollTimeoutWithoutSlot(t *testing.T) {
	agent := newPollAgent(t, nil)
	h := holdSlow(agent)
	defer h.free()
	c := newPollClient(t, agent.URL, a2a.WithMaxPollsInFlight(4))
	wait := takeSlots(t, c, h, 4)
	ids := []string{"q1", "q2", "q3"}
	got := map[string]a2a.TaskResult{}
	endsWhileHeld(t, agent, h, 4, func() {
		for r := range c.WaitTasks(context.Background(), ids, a2a.PollTimeout(20*time.Millisecond)) {
			got[r.TaskID] = r
		}
	})
	if len(got) != len(ids) {
		t.Errorf("%d results, want %d", len(got), len(ids))
	}
	for _, id := range ids {
		wantDeadline(t, id, got[id].Err)
	}
	h.free()
	wait()
}

// TestNestedWaitTaskDeadline: a WaitTask inside a PollProgress func, with
// the client's only slot held by the outer wait, ends at its PollTimeout
// with PollLimitDeadline and no attempt; the outer wait then ends.
func TestNestedWaitTaskDeadline(t *testing.T) {
	agent := newPollAgent(t, nil)
	c := newPollClient(t, agent.URL, a2a.WithMaxPollsInFlight(1))
	inner := make(chan error, 1)
	outer := make(chan error, 1)
	go func() {
		_, err := c.WaitTask(context.Background(), "outer", a2a.PollMaxAttempts(1), a2a.PollProgress(func(a2a.PollAttempt) {
			_, err := c.WaitTask(context.Background(), "inner", a2a.PollTimeout(20*time.Millisecond))
			inner <- err
		}))
		outer <- err
	}()
	select {
	case err := <-inner:
		wantDeadline(t, "inner", err)
	case <-time.After(failsafe):
		t.Fatal("the nested WaitTask never ended")
	}
	if err := <-outer; err == nil {
		t.Error("outer: nil error after its one attempt found the task working")
	}
	if n := agent.gets()["inner"]; n != 0 {
		t.Errorf("inner got %d tasks/get, want 0", n)
	}
}

// leftLoopStops leaves a WaitTasks loop by leave (called in the loop's
// body on the first result, in a goroutine of its own) and checks that the
// call's other waits made no tasks/get after: each was stopped (at most
// the one in flight then may still reach the agent) while a probe wait
// polled 20 times.
func leftLoopStops(t *testing.T, leave func(r a2a.TaskResult), opts ...a2a.WaitOption) (recovered any) {
	t.Helper()
	scripts := map[string][]a2a.TaskState{"first": {a2a.TaskStateCompleted}}
	ids := []string{"first"}
	for i := range 20 {
		id := fmt.Sprint("w", i)
		scripts[id] = []a2a.TaskState{a2a.TaskStateWorking}
		ids = append(ids, id)
	}
	probe := make([]a2a.TaskState, 20)
	for i := range probe {
		probe[i] = a2a.TaskStateWorking
	}
	scripts["probe"] = append(probe, a2a.TaskStateCompleted)
	agent := newPollAgent(t, scripts)
	c := newPollClient(t, agent.URL)
	left := make(chan any, 1)
	go func() {
		defer func() { left <- recover() }()
		for r := range c.WaitTasks(context.Background(), ids, append(fast[:len(fast):len(fast)], opts...)...) {
			leave(r)
		}
		t.Error("the loop ended without being left")
	}()
	recovered = <-left
	before := agent.gets()
	if _, err := c.WaitTask(context.Background(), "probe", fast...); err != nil {
		t.Fatal(err)
	}
	after := agent.gets()
	more := 0
	for _, id := range ids[1:] {
		more += after[id] - before[id]
	}
	if more > len(ids)-1 {
		t.Errorf("%d tasks/get for the other waits after the loop was left (while probe made %d), want at most %d",
			more, after["probe"], len(ids)-1)
	}
	return recovered
}

// TestWaitTasksBodyPanicStops: a panic in the loop's body stops the other
// waits and reaches the caller with its value.
func TestWaitTasksBodyPanicStops(t *testing.T) {
	v := leftLoopStops(t, func(r a2a.TaskResult) { panic("caller bug on " + r.TaskID) })
	if v != "caller bug on first" {
		t.Errorf("recovered %v, want the body's panic", v)
	}
}

// TestWaitTasksBodyGoexitStops: runtime.Goexit in the loop's body (as
// t.FailNow does) stops the other waits.
func TestWaitTasksBodyGoexitStops(t *testing.T) {
	leftLoopStops(t, func(a2a.TaskResult) { runtime.Goexit() })
}

// TestWaitTasksProgressPanic: a panic in a PollProgress func of a
// WaitTasks call ends in the loop's goroutine with the same value, after
// the call's other waits were stopped; no scheduler goroutine dies.
func TestWaitTasksProgressPanic(t *testing.T) {
	bug := errors.New("progress bug")
	v := leftLoopStops(t, func(a2a.TaskResult) {}, a2a.PollProgress(func(a a2a.PollAttempt) {
		if a.Task.ID == "first" {
			panic(bug)
		}
	}))
	if v != bug {
		t.Errorf("recovered %v, want the PollProgress func's panic", v)
	}
}

// TestWaitTasksProgressGoexit: runtime.Goexit in a PollProgress func of a
// WaitTasks call happens again in the loop's goroutine (not a panic),
// after the call's other waits were stopped.
func TestWaitTasksProgressGoexit(t *testing.T) {
	v := leftLoopStops(t, func(a2a.TaskResult) {}, a2a.PollProgress(func(a a2a.PollAttempt) {
		if a.Task.ID == "first" {
			runtime.Goexit()
		}
	}))
	if v != nil {
		t.Errorf("recovered %v, want runtime.Goexit, not a panic", v)
	}
}

// TestWaitTaskProgressGoexit: runtime.Goexit in a PollProgress func of
// WaitTask (as t.FailNow does) happens again in the caller's goroutine,
// and the scheduler's one slot is not lost with the goroutine fn ran in:
// the next wait polls.
func TestWaitTaskProgressGoexit(t *testing.T) {
	agent := newPollAgent(t, nil)
	c := newPollClient(t, agent.URL, a2a.WithMaxPollsInFlight(1))
	ended := make(chan bool, 1) // true: WaitTask returned
	go func() {
		returned := false
		defer func() { ended <- returned }()
		c.WaitTask(context.Background(), "x", append(fast[:len(fast):len(fast)], a2a.PollProgress(func(a2a.PollAttempt) { runtime.Goexit() }))...)
		returned = true
	}()
	select {
	case returned := <-ended:
		if returned {
			t.Error("WaitTask returned; want runtime.Goexit in its goroutine")
		}
	case <-time.After(time.Minute):
		t.Fatal("WaitTask neither returned nor exited in a minute")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	task, err := c.WaitTask(ctx, "y", fast...)
	if err != nil || task.Status.State != a2a.TaskStateCompleted {
		t.Errorf("the next wait: %v, %v", task, err)
	}
}

// TestWaitTaskProgressPanic: a panic in a PollProgress func of WaitTask
// happens again, same value, in the caller's goroutine; the client polls
// on afterwards.
func TestWaitTaskProgressPanic(t *testing.T) {
	agent := newPollAgent(t, nil)
	c := newPollClient(t, agent.URL, a2a.WithMaxPollsInFlight(1))
	func() {
		defer func() {
			if v := recover(); v != "progress bug" {
				t.Errorf("recovered %v, want the PollProgress func's panic", v)
			}
		}()
		c.WaitTask(context.Background(), "x", append(fast[:len(fast):len(fast)], a2a.PollProgress(func(a2a.PollAttempt) { panic("progress bug") }))...)
		t.Error("WaitTask returned")
	}()
	if n := agent.gets()["x"]; n != 1 {
		t.Errorf("x got %d tasks/get, want 1 (the wait ends on the panic)", n)
	}
	task, err := c.WaitTask(context.Background(), "y", fast...)
	if err != nil || task.Status.State != a2a.TaskStateCompleted {
		t.Errorf("the next wait: %v, %v", task, err)
	}
}
