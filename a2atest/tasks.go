package a2atest

import (
	"fmt"
	"slices"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The task store, the same for both versions: the version's reader checks
// a request and turns it into Go values, these methods act on the store,
// and the version's writer encodes what they return.

// scripted is a stored task and the script of its states.
type scripted struct {
	task   a2a.Task
	states []a2a.TaskState
	pos    int
	seq    int // creation order: ListTasks's tie-break

	// interval, when positive, moves the script on the server's clock
	// (Reply.Interval) instead of on tasks/get; timer is the armed step
	// (nil when none is) and clock counts the arming, so a step that fired
	// after its timer was stopped knows it is stale (push.go, tick).
	interval time.Duration
	timer    *time.Timer
	clock    int
}

// current returns the task in its current scripted state.
func (sc *scripted) current() a2a.Task {
	t := sc.task
	if len(sc.states) > 0 {
		t.Status.State = sc.states[sc.pos]
		if sc.pos < len(sc.states)-1 {
			t.Artifacts = nil // results appear with the last state
		}
	}
	return t
}

// stamp is the time now as a status timestamp: UTC, milliseconds.
func stamp() a2a.Timestamp {
	return a2a.Timestamp(time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
}

// accept runs the OnSend handler on m, a user message the version's reader
// has checked, stores the task it answers with (and push, a webhook given
// with the send, for it), and returns the Reply and the result to send
// first (an a2a.Task or an a2a.Message). A task with webhooks is notified
// of the state it is stored in, and a clock-driven script starts its clock.
func (s *Server) accept(m a2a.Message, push *a2a.PushNotificationConfig) (Reply, any, *a2a.RPCError) {
	s.mu.Lock()
	var prev *scripted
	if m.TaskID != "" {
		prev = s.tasks[m.TaskID]
		if prev == nil {
			s.mu.Unlock()
			return Reply{}, nil, invalid(codeTaskNotFound, "task not found: %s", m.TaskID)
		}
		if prev.current().Status.State.Terminal() {
			s.mu.Unlock()
			code := codeInvalidParams // what a2a-go and a2a-python send
			if s.v10 {
				code = codeUnsupported // A2A v1.0, SendMessage
			}
			return Reply{}, nil, invalid(code, "task %s is in a terminal state", m.TaskID)
		}
		if s.v10 && m.ContextID != "" && m.ContextID != prev.task.ContextID {
			s.mu.Unlock()
			return Reply{}, nil, invalid(codeInvalidParams, "contextId %s is not the context of task %s", m.ContextID, m.TaskID)
		}
	}
	s.mu.Unlock()

	rep := s.onSend(m) // outside the lock: the handler may call Server methods
	switch {
	case rep.Error != nil:
		return rep, nil, rep.Error
	case rep.Message != nil:
		msg := *rep.Message
		if msg.MessageID == "" {
			msg.MessageID = "reply-" + m.MessageID
		}
		if msg.Role == "" {
			msg.Role = a2a.RoleAgent
		}
		return rep, msg, nil
	case rep.Task == nil && (rep.Events != nil || rep.StreamRaw != ""):
		rep.Task = &a2a.Task{Status: a2a.TaskStatus{State: a2a.TaskStateSubmitted}} // for a stream-only script
	case rep.Task == nil:
		return Reply{}, nil, invalid(codeInvalidParams, "a2atest: the OnSend handler returned an empty Reply")
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	// Copy the slices: the handler may hand the same *Task to every call.
	t := *rep.Task
	t.Artifacts = slices.Clone(t.Artifacts)
	t.History = slices.Clone(t.History)
	if prev != nil {
		t.ID, t.ContextID = prev.task.ID, prev.task.ContextID
		t.History = append(slices.Clone(prev.task.History), t.History...)
	} else {
		s.nextTask++
		if t.ID == "" {
			t.ID = fmt.Sprintf("task-%d", s.nextTask)
		}
		if t.ContextID == "" {
			t.ContextID = fmt.Sprintf("ctx-%d", s.nextTask)
		}
	}
	m.TaskID, m.ContextID = t.ID, t.ContextID
	t.History = append(t.History, m)
	if t.Status.Timestamp == "" {
		t.Status.Timestamp = stamp()
	}
	sc := &scripted{task: t, states: rep.States, interval: rep.Interval, seq: s.nextTask}
	if prev != nil {
		sc.seq = prev.seq
	}
	if old := s.tasks[t.ID]; old != nil {
		s.stopClockLocked(old) // a follow-up replaces the script
	}
	s.tasks[t.ID] = sc
	if push != nil {
		s.storePushLocked(t.ID, *push)
	}
	s.enteredLocked(sc)
	s.startClockLocked(sc)
	return rep, sc.current(), nil
}

// trimHistory keeps the n most recent messages of t's history; a nil n
// keeps all.
func trimHistory(t *a2a.Task, n *int) {
	if n != nil && *n < len(t.History) {
		t.History = t.History[len(t.History)-*n:]
	}
}

// getTask moves a scripted task one state on (unless its script runs on
// the clock) and returns it with at most historyLength messages of history
// (nil: all).
func (s *Server) getTask(id string, historyLength *int) (a2a.Task, *a2a.RPCError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.tasks[id]
	if sc == nil {
		return a2a.Task{}, invalid(codeTaskNotFound, "task not found: %s", id)
	}
	if sc.interval <= 0 && sc.pos < len(sc.states)-1 {
		sc.pos++
		s.enteredLocked(sc)
	}
	t := sc.current()
	trimHistory(&t, historyLength)
	return t, nil
}

// cancelTask cancels a task that is not terminal; results its script has
// not reached stay hidden.
func (s *Server) cancelTask(id string) (a2a.Task, *a2a.RPCError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.tasks[id]
	if sc == nil {
		return a2a.Task{}, invalid(codeTaskNotFound, "task not found: %s", id)
	}
	if sc.current().Status.State.Terminal() {
		return a2a.Task{}, invalid(codeNotCancelable, "task cannot be canceled: %s", id)
	}
	s.stopClockLocked(sc)
	sc.task = sc.current()
	sc.task.Status = a2a.TaskStatus{State: a2a.TaskStateCanceled, Timestamp: stamp()}
	sc.states = nil
	s.enteredLocked(sc)
	return sc.task, nil
}

// snapshot returns a task as it stands, without moving its script on.
func (s *Server) snapshot(id string) (a2a.Task, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.tasks[id]
	if sc == nil {
		return a2a.Task{}, false
	}
	return sc.current(), true
}

// remaining moves a scripted task through the rest of its states at once
// (a clock-driven one too: its clock stops), notifying its webhooks of
// each, and returns a status update per state (the artifacts just before
// the last, which is final). With atEnd, a task at its end gives one final
// status update (v0.3 needs one to close a stream; v1.0 closes the stream).
func (s *Server) remaining(taskID string, atEnd bool) []any {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.tasks[taskID]
	s.stopClockLocked(sc)
	update := func(final bool) a2a.TaskStatusUpdateEvent {
		t := sc.current()
		return a2a.TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status, Final: final}
	}
	var out []any
	for sc.pos < len(sc.states)-1 {
		sc.pos++
		s.enteredLocked(sc)
		last := sc.pos == len(sc.states)-1
		if last {
			t := sc.current()
			for _, a := range t.Artifacts {
				out = append(out, a2a.TaskArtifactUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Artifact: a, LastChunk: true})
			}
		}
		out = append(out, update(last))
	}
	if len(out) == 0 && atEnd {
		out = append(out, update(true))
	}
	return out
}

// taskQuery is a ListTasks request as the store reads it.
type taskQuery struct {
	contextID     string
	state         a2a.TaskState // "": any
	after         time.Time     // zero: any
	offset, size  int
	historyLength *int
	artifacts     bool
}

// listTasks returns the page of the tasks matching q, newest status first
// (ties: the task made last first), each as it stands, and how many match
// in all. It does not move scripts on.
func (s *Server) listTasks(q taskQuery) (page []a2a.Task, total int) {
	type entry struct {
		t   a2a.Task
		at  time.Time
		seq int
	}
	s.mu.Lock()
	var all []entry
	for _, sc := range s.tasks {
		t := sc.current()
		at, _ := t.Status.Timestamp.Time()
		switch {
		case q.contextID != "" && t.ContextID != q.contextID,
			q.state != "" && t.Status.State != q.state,
			!q.after.IsZero() && at.Before(q.after):
			continue
		}
		all = append(all, entry{t, at, sc.seq})
	}
	s.mu.Unlock()
	slices.SortFunc(all, func(a, b entry) int {
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		return b.seq - a.seq
	})
	for i := q.offset; i < len(all) && i < q.offset+q.size; i++ {
		t := all[i].t
		trimHistory(&t, q.historyLength)
		if !q.artifacts {
			t.Artifacts = nil
		}
		page = append(page, t)
	}
	return page, len(all)
}

// The push config store: configs by task id, each with an id ("cfg-N"
// when set without one).

// setPush stores cfg for a task, replacing the config with its id.
func (s *Server) setPush(taskID string, cfg a2a.PushNotificationConfig) (a2a.PushNotificationConfig, *a2a.RPCError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tasks[taskID]; !ok {
		return cfg, invalid(codeTaskNotFound, "task not found: %s", taskID)
	}
	return s.storePushLocked(taskID, cfg), nil
}

// storePushLocked stores cfg for a task, giving it an id when it has none,
// and returns it as stored. s.mu is held.
func (s *Server) storePushLocked(taskID string, cfg a2a.PushNotificationConfig) a2a.PushNotificationConfig {
	if cfg.ID == "" {
		s.nextPush++
		cfg.ID = fmt.Sprintf("cfg-%d", s.nextPush)
	}
	configs := s.push[taskID]
	if i := findPush(configs, cfg.ID); i >= 0 {
		configs[i] = cfg
	} else {
		configs = append(configs, cfg)
	}
	s.push[taskID] = configs
	return cfg
}

// pushConfigs returns a copy of a task's configs.
func (s *Server) pushConfigs(taskID string) ([]a2a.PushNotificationConfig, *a2a.RPCError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tasks[taskID]; !ok {
		return nil, invalid(codeTaskNotFound, "task not found: %s", taskID)
	}
	return slices.Clone(s.push[taskID]), nil
}

// getPush returns a task's config with id; "" is the first.
func (s *Server) getPush(taskID, id string) (a2a.PushNotificationConfig, *a2a.RPCError) {
	configs, rpcErr := s.pushConfigs(taskID)
	if rpcErr != nil {
		return a2a.PushNotificationConfig{}, rpcErr
	}
	i := findPush(configs, id)
	if i < 0 {
		return a2a.PushNotificationConfig{}, invalid(codeInvalidParams, "push notification config %q not found", id)
	}
	return configs[i], nil
}

// deletePush removes a task's config with id, which must be given.
func (s *Server) deletePush(taskID, id string) *a2a.RPCError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tasks[taskID]; !ok {
		return invalid(codeTaskNotFound, "task not found: %s", taskID)
	}
	configs := s.push[taskID]
	i := findPush(configs, id)
	if id == "" || i < 0 {
		return invalid(codeInvalidParams, "push notification config %q not found", id)
	}
	s.push[taskID] = slices.Delete(configs, i, i+1)
	return nil
}

// findPush returns the index of the config with id ("" matches the
// first), or -1.
func findPush(configs []a2a.PushNotificationConfig, id string) int {
	return slices.IndexFunc(configs, func(c a2a.PushNotificationConfig) bool { return id == "" || c.ID == id })
}
