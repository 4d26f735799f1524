package a2a

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"sync/atomic"

	"github.com/caoliao-a2a/a2a-go/internal/httpbody"
)

// Event is one item of a stream (A2A v0.3 §7.2): a [*Task], a [*Message], a
// [*TaskStatusUpdateEvent] or a [*TaskArtifactUpdateEvent]. Switch on the
// type; fold task events into a task with [Task.Apply].
type Event interface {
	isEvent()
}

func (*Task) isEvent()                    {}
func (*Message) isEvent()                 {}
func (*TaskStatusUpdateEvent) isEvent()   {}
func (*TaskArtifactUpdateEvent) isEvent() {}

// TaskStatusUpdateEvent reports a task's new status during a stream (A2A
// v0.3 §7.2.2; A2A v1.0 TaskStatusUpdateEvent). Final marks the last
// event of the stream; v1.0 has no final flag, and the client sets it on a
// v1.0 event whose state is terminal or interrupted (input-required,
// auth-required).
type TaskStatusUpdateEvent struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId"`
	Status    TaskStatus      `json:"status"`
	Final     bool            `json:"final"`
	Metadata  json.RawMessage `json:"metadata,omitzero"`

	raw json.RawMessage // the bytes it was decoded from (raw.go)
}

// MarshalJSON encodes the event with "kind": "status-update".
func (e TaskStatusUpdateEvent) MarshalJSON() ([]byte, error) {
	type plain TaskStatusUpdateEvent // without this method
	return withKind(kindStatusUpdate, plain(e))
}

// TaskArtifactUpdateEvent delivers an artifact, or a chunk of one, during a
// stream (A2A v0.3 §7.2.3). With Append the parts extend the artifact of the
// same ArtifactID already received; LastChunk marks it complete.
type TaskArtifactUpdateEvent struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId"`
	Artifact  Artifact        `json:"artifact"`
	Append    bool            `json:"append,omitempty"`
	LastChunk bool            `json:"lastChunk,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitzero"`

	raw json.RawMessage // the bytes it was decoded from (raw.go)
}

// MarshalJSON encodes the event with "kind": "artifact-update".
func (e TaskArtifactUpdateEvent) MarshalJSON() ([]byte, error) {
	type plain TaskArtifactUpdateEvent // without this method
	return withKind(kindArtifactUpdate, plain(e))
}

// SendStreamingMessage sends msg with message/stream (A2A v0.3 §7.2;
// SendStreamingMessage in A2A v1.0; over HTTP+JSON POST /message:stream,
// v0.3: POST /v1/message:stream) and yields the agent's events as they
// arrive, over Server-Sent Events (each event's data a JSON-RPC response
// on JSON-RPC, a bare StreamResponse on HTTP+JSON):
//
//	for ev, err := range c.SendStreamingMessage(ctx, msg) {
//		if err != nil { … }
//		switch e := ev.(type) { … }
//	}
//
// The sequence ends without an error only when the answer is complete: a
// [*Message] (the whole answer), a status update with Final set, or an
// event leaving the task in a terminal or interrupted state (completed,
// failed, canceled, rejected, input-required, auth-required; A2A v1.0 has
// no final flag, and the client sets Final on such a v1.0 status update).
// It stops reading there, even if the agent keeps the connection open.
// Otherwise it ends with one error, yielded as (nil, err): a
// *[StreamCutError] (matching [ErrStreamCut]) when the agent closed the
// stream, or the connection broke or went idle, before the task was final
// (it carries the task folded from the events and the ids to continue
// with [Client.SubscribeToTask] or [Client.WaitTask]; a broken connection's
// *[TransportError] is wrapped in it); the agent's error inside the stream
// or instead of it (*[RPCError]: a JSON-RPC error, or on HTTP+JSON an
// "error" event or an A2A error body), an *[HTTPError], a *[ProtocolError] (a
// malformed event, a wrong id), a *[BodyTooLargeError] (an event over the
// size cap), a *[TransportError] (the stream could not be opened), ctx's
// error — each of these, once an event has named the task (or for
// SubscribeToTask), wrapped in a *StreamCutError, so that the ids to go on
// with reach the caller however the stream ends (errors.As and errors.Is
// find the error inside) —, or, before anything is sent, the errors of [Client.SendMessage]
// and an *[UnsupportedByCardError] when the client's card says streaming
// is false. Breaking out of the loop closes the
// connection at once. Until the stream opens, each attempt is bounded by
// [WithAttemptTimeout] (default [DefaultAttemptTimeout]) even when ctx has no
// deadline, and message/stream is retried only where message/send would
// be (the agent cannot have acted). The stream is not retried once it has opened; ctx bounds its
// length (and the Timeout of a client given to [WithHTTPClient]), and
// [WithStreamIdleTimeout] how long the client waits for its next event. A
// plain result instead of a stream (a JSON-RPC result, or an HTTP+JSON
// JSON reply) is yielded as the one event
// (followed by a *StreamCutError when it is a task not yet final). The sequence sends the message when it is ranged over,
// once: ranging over it again yields only an error (call SendStreamingMessage
// again to send again).
func (c *Client) SendStreamingMessage(ctx context.Context, msg Message, opts ...CallOption) iter.Seq2[Event, error] {
	var ranged atomic.Bool
	return func(yield func(Event, error) bool) {
		if ranged.Swap(true) {
			yield(nil, errRangedTwice)
			return
		}
		spec, err := c.sendSpec(msg, opts, true)
		if err != nil {
			yield(nil, err)
			return
		}
		c.stream(ctx, spec, yield)
	}
}

// SubscribeToTask reopens the event stream of a running task with
// tasks/resubscribe (A2A v0.3 §7.9; SubscribeToTask in A2A v1.0, whose
// first event is the task as it stands), after a dropped connection. Over
// HTTP+JSON it is POST /tasks/{id}:subscribe on v1.0 (as the
// specification's prose and the official clients send it) and GET
// /v1/tasks/{id}:subscribe on v0.3 (as the v0.3 proto says); an agent
// that refuses that verb with 405 (or a 404 naming the ":subscribe"
// path) gets the other verb once, and the client's later subscribes
// start with that verb (remembered per client). Whether
// events sent while disconnected are replayed is up to the agent. Events,
// ends and errors are as for [Client.SendStreamingMessage] (a
// *[StreamCutError] names taskID even when no event came); an unknown task
// gives an *[RPCError] matching [ErrTaskNotFound]. Until the stream opens it is
// retried like [Client.GetTask]: a failed attempt, or one whose reply does not
// open within [WithAttemptTimeout], is tried again, up to
// [WithMaxRetries] times.
func (c *Client) SubscribeToTask(ctx context.Context, taskID string, opts ...CallOption) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		b, cfg, err := c.callBinding(opts)
		if err != nil {
			yield(nil, err)
			return
		}
		if taskID == "" {
			yield(nil, errors.New("a2a: SubscribeToTask: empty task id"))
			return
		}
		c.stream(ctx, cfg.apply(b.resubscribe(taskID)), yield)
	}
}

// errRangedTwice is what a second range over one SendStreamingMessage sequence
// yields: ranging again would send the message again.
var errRangedTwice = errors.New("a2a: SendStreamingMessage: its sequence was ranged over already; call SendStreamingMessage again to send again")

// stream runs one streaming call on the call path, yielding events until
// the stream is over (streamEnd.over) or ends with an error. Each event's
// data is checked like a unary reply (call.checkReply) and decoded by the
// binding; a stream that ends before it is over, once its task is known,
// ends with a *StreamCutError (streamEnd.fail) whatever ended it.
//
// The operation is observed ([WithObserver]) from before the call is sent
// to the end of the sequence, each event before the caller sees it.
func (c *Client) stream(ctx context.Context, spec callSpec, yield func(Event, error) bool) {
	ctx, spec.obs = c.observe(ctx, &spec)
	o := spec.obs
	if o == nil {
		c.streamEvents(ctx, spec, yield)
		return
	}
	var end error
	defer func() { o.end(o.last, end) }() // once, a panic in the caller's loop included
	c.streamEvents(ctx, spec, func(ev Event, err error) bool {
		if err != nil {
			end = err
		} else {
			o.event(ev)
		}
		return yield(ev, err)
	})
}

// streamEvents is stream without observation.
func (c *Client) streamEvents(ctx context.Context, spec callSpec, yield func(Event, error) bool) {
	cl, att, err := c.start(ctx, spec)
	if err != nil {
		yield(nil, err)
		return
	}
	end := streamEnd{method: spec.method, red: cl.red, limit: c.maxBody, task: Task{ID: spec.taskID}}
	if att.stream == nil { // a plain JSON reply: usually an error
		ev, err := c.event(cl, &att, att.Body, "")
		if err != nil {
			yield(nil, err)
			return
		}
		if yield(ev, nil) && !end.over(ev) {
			yield(nil, end.cut(nil))
		}
		return
	}
	resp := att.stream
	defer resp.Body.Close()
	events, closeEvents, fault, err := httpbody.OpenEvents(resp, c.maxBody, cl.red, c.streamIdle)
	switch {
	case fault != nil:
		yield(nil, cl.asked().protocolError(resp.StatusCode, nil, "stream cannot be read", fault))
		return
	case err != nil:
		yield(nil, cl.connFault(ctx, att.n, err))
		return
	}
	defer closeEvents()
	for {
		data, err := events.Next()
		var bad *httpbody.BadStreamData
		switch {
		case err == io.EOF:
			yield(nil, end.cut(nil)) // the agent closed the stream
			return
		case ctx.Err() != nil:
			yield(nil, end.fail(cl.connFault(ctx, att.n, err)))
			return
		case errors.Is(err, httpbody.ErrEventTooLarge):
			yield(nil, end.fail(&BodyTooLargeError{Method: spec.method, Limit: c.maxBody, StatusCode: resp.StatusCode}))
			return
		case errors.As(err, &bad):
			yield(nil, end.fail(cl.asked().protocolError(resp.StatusCode, nil, "stream cannot be read", bad.Err)))
			return
		case err != nil:
			yield(nil, end.cut(cl.connFault(ctx, att.n, err)))
			return
		}
		ev, err := c.event(cl, &att, data, events.Name())
		if err != nil {
			yield(nil, end.fail(err))
			return
		}
		if cl.task == "" { // the first event naming a task names the stream's
			cl.task = eventTask(ev)
		}
		if !yield(ev, nil) || end.over(ev) {
			return
		}
	}
}

// event checks data, the body att brought or one event of its stream
// (name its SSE type), as a reply to cl and decodes its result as an
// event. The result is nil whenever the error is not.
func (c *Client) event(cl *call, att *attempt, data []byte, name string) (Event, error) {
	rep, err := cl.checkReply(att, data, name)
	if err != nil {
		return nil, err
	}
	return c.proto.event(rep)
}

// eventTask is the task an event is about, or "".
func eventTask(ev Event) string {
	switch e := ev.(type) {
	case *Task:
		return e.ID
	case *Message:
		return e.TaskID
	case *TaskStatusUpdateEvent:
		return e.TaskID
	case *TaskArtifactUpdateEvent:
		return e.TaskID
	}
	return ""
}
