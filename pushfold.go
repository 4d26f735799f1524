package a2a

import (
	"errors"
	"fmt"
	"time"
)

// How a PushWait learns its task (the send's answer, notifications, the
// final read, the fallback poll) and when that ends it.

// answer takes the send's answer (or WatchTask's task): the task it names is
// the wait's. A final answer stands; news that came before an unfinished
// one is newer, and moves it on (mergeEarly); then the wait settles.
func (w *PushWait) answer(res SendResult) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state != stateSending {
		return // ended
	}
	switch v := res.(type) {
	case *Message:
		if w.cur == nil { // no notification named a task
			w.msg = v
			w.move(stateEnded, nil)
			return
		}
	case *Task:
		if id := w.idLocked(); id != "" && id != v.ID {
			w.move(stateEnded, &ProtocolError{Method: "push notification", Reason: fmt.Sprintf(
				"the agent answered with task %s, notifications for this wait came for task %s", w.redactor().Quote(v.ID), w.redactor().Quote(id))})
			return
		}
		if finished(v) || w.cur == nil {
			w.setTaskLocked(v, false)
		} else {
			w.cur, w.shown = mergeEarly(v, w.cur), nil
		}
	}
	w.follow() // answered: out of stateSending, to where the task says
}

// mergeEarly is answer moved on by early, the task the notifications that
// came before it built: early's status when it has one, and its artifacts
// in place of the answer's of the same id (or added).
func mergeEarly(answer, early *Task) *Task {
	next := *answer
	next.folded = nil
	if early.Status.State != "" || early.Status.RawState != "" {
		next.Status = early.Status
	}
	next.raw = nil
	for _, a := range early.Artifacts {
		next.Apply(&TaskArtifactUpdateEvent{TaskID: next.ID, Artifact: a})
	}
	return &next
}

// apply moves the wait's task on by a notification's event about taskID;
// a notification after the wait ended, or while its final read is under
// way, changes nothing.
func (w *PushWait) apply(ev Event, taskID string) {
	if _, ok := ev.(*Message); ok {
		return // news for PushOnNotification; the task's state is in its status
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if id := w.idLocked(); w.state == stateEnded || w.state == stateReading || id != "" && taskID != id {
		return
	}
	if finished(w.cur) && !stateAfter(w.cur, ev).final() {
		return // older news, late: a finished task is not undone
	}
	before := w.taskStatus()
	byUpdate := true
	if whole, ok := ev.(*Task); ok && (w.cur == nil || !w.cur.Status.State.Terminal()) {
		w.cur, w.shown, byUpdate = whole, whole, false // a snapshot: taken as it is, not copied
	} else if err := w.foldLocked(ev); err != nil {
		w.move(stateEnded, err)
		return
	}
	if w.cur.Status != before {
		w.byUpdate = byUpdate
	}
	w.settle() // news before the answer waits for it
}

// taskStatus is the wait's task's status, zero without a task.
func (w *PushWait) taskStatus() TaskStatus {
	if w.cur == nil {
		return TaskStatus{}
	}
	return w.cur.Status
}

// setTaskLocked makes t, a task that may be handed out as it is, the
// wait's task; byUpdate as for PushWait.byUpdate. w.mu is held.
func (w *PushWait) setTaskLocked(t *Task, byUpdate bool) {
	w.cur, w.shown, w.byUpdate = t, t, byUpdate
}

// foldLocked folds ev into the wait's task in place (Task.ApplyWithin,
// bounded by the client's reply cap), first copying the task when it is
// the one handed out. w.mu is held.
func (w *PushWait) foldLocked(ev Event) error {
	switch {
	case w.cur == nil:
		w.cur = &Task{}
	case w.cur == w.shown:
		c := *w.cur // Apply gives the copy slices of its own
		w.cur = &c
	}
	if err := w.cur.ApplyWithin(ev, w.c.maxBody); err != nil {
		return err
	}
	w.shown = nil
	return nil
}

// taskLocked is the task to hand out: a snapshot of the wait's task that
// later folds leave alone, made once per change. w.mu is held.
func (w *PushWait) taskLocked() *Task {
	if w.shown == nil && w.cur != nil {
		w.shown = w.cur.snapshot()
	}
	return w.shown
}

// stateAfter is the state t (nil: none yet) has after Apply(ev).
func stateAfter(t *Task, ev Event) TaskState {
	var now TaskState
	if t != nil {
		now = t.Status.State
	}
	if now.Terminal() {
		return now
	}
	switch e := ev.(type) {
	case *Task:
		return e.Status.State
	case *TaskStatusUpdateEvent:
		return e.Status.State
	}
	return now
}

// finished reports whether t is terminal or interrupted: where a wait
// ends.
func finished(t *Task) bool {
	return t != nil && t.Status.State.final()
}

// readFinal reads the task whose final state an update brought, and ends
// the wait with it; when the read fails, with the task the notifications
// built and the read's error; when the agent's task is not final yet (its
// store lags behind its notification), with the built task and no error.
// While it reads, news changes nothing (apply, poll).
func (w *PushWait) readFinal() {
	ctx, end := w.begin()
	got, err := w.c.GetTask(ctx, w.TaskID(), w.opts.call...)
	end()
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.state != stateReading || w.ctx.Err() != nil:
		// Ended, or ending: the caller's ctx ends the wait with its cause.
	case err != nil:
		w.move(stateEnded, err)
	default:
		if finished(got) {
			w.setTaskLocked(got, false)
		}
		w.move(stateEnded, nil)
	}
}

// fallbackDue runs when the wait's fallback time comes, in a worker of the
// client's scheduler: no news came for the fallback time, so the task is
// polled (startPoll: its attempts are entries of the same scheduler)
// until it ends or the poll gives up, which ends the wait. One poll runs
// at a time, to its end; each task it reads is the wait's last task known;
// the wait ending (a notification that finishes the task among the ways)
// stops it. The poll is work Close waits for (enter; polled leaves), so
// no PollProgress call follows Close.
func (w *PushWait) fallbackDue() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state != stateWaiting || time.Now().Before(w.due) {
		return // not waiting, or news came as the time came: it comes again
	}
	if !w.r.enter() {
		return // closed: Close ends the wait
	}
	w.move(statePolling, nil)
	last := w.taskLocked()
	if last == nil || last.ID == "" {
		w.r.leave()
		w.move(stateEnded, errors.New("a2a: the task to wait for has no id"))
		return
	}
	cfg := *w.opts
	cfg.seen = func(t *Task) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.state == statePolling {
			w.setTaskLocked(t, false)
		}
	}
	w.stopPoll = w.c.startPoll(w.ctx, last.ID, last, &cfg, w.polled)
}

// polled takes the end of the fallback poll: the task it read last (the
// wait's last task known, as seen kept it), and nil or the error it gave
// up or failed with, which end the wait; unless the wait ended first, a
// notification finished it, or the caller's ctx ended (the wait ends
// with its cause, as newWait's watch has it).
func (w *PushWait) polled(got *Task, err error) {
	defer w.r.leave()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state != statePolling || w.ctx.Err() != nil {
		return
	}
	w.stopPoll = nil
	if err == nil {
		w.setTaskLocked(got, false) // final: what news came after it cannot undo
	}
	w.move(stateEnded, err) // on giving up, with the last task known: seen kept what the poll read
}
