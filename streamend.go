package a2a

import (
	"errors"
	"fmt"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// How a stream ends: the rule that tells a finished stream from a cut one,
// and the error a cut one ends with.

// ErrStreamCut matches every *[StreamCutError]:
// errors.Is(err, a2a.ErrStreamCut) holds for a stream that ended before its
// task reached a final state.
var ErrStreamCut = errors.New("a2a: the stream ended before its task did")

// StreamCutError ends a stream ([Client.SendStreamingMessage],
// [Client.SubscribeToTask]) that stopped before its task reached a final
// state: the agent closed it, the connection broke, or it went quiet past
// [WithStreamIdleTimeout]. The task may still be running; nothing the
// stream yielded says it is done. Continue with [Client.SubscribeToTask]
// (TaskID), and read the whole task with [Client.WaitTask] (an agent need
// not replay the events sent while no stream was open). A final state is a
// terminal one (completed, failed, canceled, rejected) or an interrupted
// one (input-required, auth-required), or one a v0.3 status update marks
// final; a stream whose answer is a [*Message] is not cut.
//
// It matches [ErrStreamCut] with errors.Is, and through Unwrap the
// *[TransportError] of a broken connection.
type StreamCutError struct {
	// Method is the call as the client's protocol version spells it:
	// "message/stream" or "tasks/resubscribe" in A2A v0.3,
	// "SendStreamingMessage" or "SubscribeToTask" in v1.0.
	Method string
	// TaskID and ContextID name the task to resubscribe to: the one
	// resubscribed to, or the one the stream's events named; "" when the
	// stream ended before naming one (a SendStreamingMessage whose agent
	// may or may not have acted).
	TaskID, ContextID string
	// Task is the task as the stream's events left it, every event folded
	// in with [Task.ApplyWithin] under the client's [WithMaxResponseBytes];
	// nil when no event was about a task. Past that bound the artifact
	// events that would grow it further are left out of Task (they were
	// yielded all the same): read the whole task with [Client.WaitTask].
	Task *Task
	// Err is what ended the stream once its task was known: the
	// *[TransportError] of a connection that broke or went quiet, ctx's
	// error, a *[BodyTooLargeError] (an event over the cap), a
	// *[ProtocolError] (a malformed event, a wrong id) or an *[RPCError]
	// inside the stream; nil when the agent closed the stream.
	Err error

	red *redact.Redactor // the client's: ids in Error are the server's text
}

// Error returns e.g. `a2a: message/stream: the stream ended before task
// "t1" did, last state "working"`.
func (e *StreamCutError) Error() string {
	var s string
	switch {
	case e.TaskID == "":
		s = fmt.Sprintf("a2a: %s: the stream ended before naming a task", e.Method)
	case e.Task == nil:
		s = fmt.Sprintf("a2a: %s: the stream ended before task %s did", e.Method, e.red.Quote(e.TaskID))
	default:
		s = fmt.Sprintf("a2a: %s: the stream ended before task %s did, last state %s",
			e.Method, e.red.Quote(e.TaskID), e.red.Quote(string(e.Task.Status.State)))
	}
	if e.Err != nil {
		s += ": " + strings.TrimPrefix(e.Err.Error(), "a2a: ")
	}
	return inert.Printable(s) // ids and states are the server's text
}

// Unwrap returns Err.
func (e *StreamCutError) Unwrap() error { return e.Err }

// Is reports whether target is [ErrStreamCut].
func (e *StreamCutError) Is(target error) bool { return target == ErrStreamCut }

// streamEnd follows one stream's events to tell where it ends: it folds
// them into the task they are about and knows the stream is over at a
// final state.
type streamEnd struct {
	method string
	red    *redact.Redactor
	limit  int64 // the bound on task (Task.ApplyWithin): the client's cap
	task   Task  // the events folded; ID preset to the task resubscribed to
	folded bool  // an event about a task was folded into task
}

// over folds ev and reports whether the stream is over after it: a
// [*Message] (the whole answer, A2A v0.3 §7.2), a status update marked
// final, or a task left in a terminal or interrupted state (A2A v1.0 has
// no final flag: the agent's stream ends there, and an agent that keeps
// the connection open is not waited for).
func (s *streamEnd) over(ev Event) bool {
	if _, ok := ev.(*Message); ok {
		return true
	}
	if s.task.ApplyWithin(ev, s.limit) != nil {
		// Past the bound: the event's artifacts are left out of the task,
		// its ids and state are not.
		switch e := ev.(type) {
		case *Task:
			s.task.Apply(&TaskStatusUpdateEvent{TaskID: e.ID, ContextID: e.ContextID, Status: e.Status})
		case *TaskArtifactUpdateEvent:
			s.task.Apply(&TaskStatusUpdateEvent{TaskID: e.TaskID, ContextID: e.ContextID, Status: s.task.Status})
		}
	}
	s.folded = s.folded || s.task.ID != ""
	if e, ok := ev.(*TaskStatusUpdateEvent); ok && e.Final {
		return true
	}
	return s.task.Status.State.final()
}

// fail is the error err that ended the stream, carried in a
// *StreamCutError once the task is known, so that its ids reach the caller
// however the stream ends.
func (s *streamEnd) fail(err error) error {
	if s.task.ID == "" {
		return err
	}
	return s.cut(err)
}

// cut is the error of a stream that ended before it was over; err is the
// connection's fault, nil when the agent closed the stream.
func (s *streamEnd) cut(err error) *StreamCutError {
	e := &StreamCutError{Method: s.method, TaskID: s.task.ID, ContextID: s.task.ContextID, Err: err, red: s.red}
	if s.folded {
		e.Task = &s.task
	}
	return e
}
