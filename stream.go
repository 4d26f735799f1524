package a2a

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"slices"
)

const (
	methodStream      = "message/stream"
	methodResubscribe = "tasks/resubscribe"
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
// v0.3 §7.2.2). Final marks the last event of the stream.
type TaskStatusUpdateEvent struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId"`
	Status    TaskStatus      `json:"status"`
	Final     bool            `json:"final"`
	Metadata  json.RawMessage `json:"metadata,omitzero"`
}

// MarshalJSON encodes the event with "kind": "status-update".
func (e TaskStatusUpdateEvent) MarshalJSON() ([]byte, error) {
	type wire TaskStatusUpdateEvent
	return json.Marshal(struct {
		Kind string `json:"kind"`
		wire
	}{"status-update", wire(e)})
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
}

// MarshalJSON encodes the event with "kind": "artifact-update".
func (e TaskArtifactUpdateEvent) MarshalJSON() ([]byte, error) {
	type wire TaskArtifactUpdateEvent
	return json.Marshal(struct {
		Kind string `json:"kind"`
		wire
	}{"artifact-update", wire(e)})
}

// Apply folds a stream event into t, so t is the task as it stands after
// the event: a *Task replaces t; a status update sets t.Status; an artifact
// update adds the artifact, replaces the one with the same ArtifactID, or,
// with Append, adds its parts to that one. A *Message is ignored. Ids that
// t lacks are taken from the event. Events are never modified: t gets its
// own artifact and part slices (status messages and metadata are shared).
// Once changed by an event other than a *Task, t.Raw() is nil: the bytes no
// longer describe it.
func (t *Task) Apply(ev Event) {
	setIDs := func(taskID, contextID string) {
		if t.ID == "" {
			t.ID = taskID
		}
		if t.ContextID == "" {
			t.ContextID = contextID
		}
		t.raw, t.body = nil, nil
	}
	switch e := ev.(type) {
	case *Task:
		*t = *e
		// Own the artifacts: later updates must not write into the event.
		t.Artifacts = slices.Clone(e.Artifacts)
		for i := range t.Artifacts {
			t.Artifacts[i].Parts = slices.Clone(t.Artifacts[i].Parts)
		}
	case *TaskStatusUpdateEvent:
		setIDs(e.TaskID, e.ContextID)
		t.Status = e.Status
	case *TaskArtifactUpdateEvent:
		setIDs(e.TaskID, e.ContextID)
		art := e.Artifact
		art.Parts = slices.Clone(art.Parts)
		i := slices.IndexFunc(t.Artifacts, func(a Artifact) bool { return a.ArtifactID == art.ArtifactID })
		arts := slices.Clone(t.Artifacts) // t may share its slice with another task
		switch {
		case i < 0:
			arts = append(arts, art)
		case e.Append:
			arts[i].Parts = append(slices.Clone(arts[i].Parts), art.Parts...)
		default:
			arts[i] = art
		}
		t.Artifacts = arts
	}
}

// StreamMessage sends msg with message/stream (A2A v0.3 §7.2) and yields the
// agent's events as they arrive, over Server-Sent Events:
//
//	for ev, err := range c.StreamMessage(ctx, msg) {
//		if err != nil { … }
//		switch e := ev.(type) { … }
//	}
//
// The sequence ends after a status update with Final set, when the agent
// closes the stream (for a task not yet final, continue with
// [Client.Resubscribe]), or with one error, yielded as (nil, err): a
// JSON-RPC error inside the stream or instead of it (*[RPCError]), an
// *[HTTPError], a *[ProtocolError] (a malformed event, a wrong id), a
// *[BodyTooLargeError] (an event over the size cap), a *[TransportError]
// (the connection broke), ctx's error, or, before anything is sent, the
// errors of [Client.SendMessage] and an *[UnsupportedByCardError] when the
// client's card says streaming is false. Breaking out of the loop closes the
// connection at once. The stream is not retried once it has opened; only
// ctx bounds its length (and the Timeout of a client given to
// [WithHTTPClient]). A plain JSON-RPC result instead of a stream is yielded
// as the one event.
func (c *Client) StreamMessage(ctx context.Context, msg Message, opts ...CallOption) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		params, class, err := c.sendParams(msg, opts)
		if err != nil {
			yield(nil, err)
			return
		}
		c.stream(ctx, methodStream, params, class, yield)
	}
}

// Resubscribe reopens the event stream of a running task with
// tasks/resubscribe (A2A v0.3 §7.9), after a dropped connection. Whether
// events sent while disconnected are replayed is up to the agent. Events and
// errors are as for [Client.StreamMessage]; an unknown task gives an
// *[RPCError] matching [ErrTaskNotFound]. It is retried like tasks/get until
// the stream opens.
func (c *Client) Resubscribe(ctx context.Context, taskID string) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		if taskID == "" {
			yield(nil, errors.New("a2a: Resubscribe: empty task id"))
			return
		}
		c.stream(ctx, methodResubscribe, taskIDParams{ID: taskID}, retryIdempotent, yield)
	}
}

// stream runs one streaming call, yielding events until the stream ends.
func (c *Client) stream(ctx context.Context, method string, params any, class retryClass, yield func(Event, error) bool) {
	if err := c.requireCapability(method); err != nil {
		yield(nil, err)
		return
	}
	payload, id, err := c.envelope(method, params)
	if err != nil {
		yield(nil, err)
		return
	}
	st := &callState{method: method, id: id, class: class, stream: true}
	resp, err := c.do(ctx, http.MethodPost, c.endpoint, payload, st)
	if err != nil {
		yield(nil, err)
		return
	}
	if !isEventStream(resp) { // a plain JSON reply: usually an error
		rep, err := c.checkResponse(st, resp)
		if err == nil {
			var ev Event
			ev, err = rep.decodeEvent()
			if err == nil {
				yield(ev, nil)
				return
			}
		}
		yield(nil, err)
		return
	}
	defer resp.Body.Close()
	wire := &wireReader{r: resp.Body, left: -1} // each event is capped instead
	body, fault, err := contentReader(resp, wire)
	switch {
	case fault != nil:
		yield(nil, &ProtocolError{Method: method, Reason: "stream cannot be read", StatusCode: resp.StatusCode, Err: c.encodingFault(resp, fault)})
		return
	case err != nil:
		yield(nil, c.connFault(ctx, st, err))
		return
	}

	events := newSSEReader(body, c.maxBody)
	for {
		data, err := events.next()
		switch {
		case err == io.EOF:
			return // the agent closed the stream
		case ctx.Err() != nil:
			yield(nil, c.connFault(ctx, st, err))
			return
		case errors.Is(err, bufio.ErrTooLong) || errors.Is(err, errEventTooLarge):
			yield(nil, &BodyTooLargeError{Method: method, Limit: c.maxBody, StatusCode: resp.StatusCode})
			return
		case body != resp.Body && wire.gzipFault(err), isGzipFault(err):
			yield(nil, &ProtocolError{Method: method, Reason: "stream cannot be read", StatusCode: resp.StatusCode, Err: c.cleanErr(err)})
			return
		case err != nil:
			yield(nil, c.connFault(ctx, st, err))
			return
		}
		st.body = data
		rep, err := c.checkResponse(st, resp)
		var ev Event
		if err == nil {
			ev, err = rep.decodeEvent()
		}
		if err != nil {
			yield(nil, err)
			return
		}
		if !yield(ev, nil) {
			return
		}
		switch e := ev.(type) {
		case *TaskStatusUpdateEvent:
			if e.Final {
				return
			}
		case *Message:
			return // a message is the whole answer (A2A v0.3 §7.2: stream shape 1)
		}
	}
}

// decodeEvent decodes a stream result by its kind.
func (r *reply) decodeEvent() (Event, error) {
	if isNull(r.result) {
		return nil, r.protocolError("result is null where an event is due", nil)
	}
	kind, err := r.kind()
	if err != nil {
		return nil, err
	}
	var ev Event
	switch kind {
	case "task":
		t, err := r.taskResult()
		if err != nil {
			return nil, err // not a typed nil inside the Event
		}
		return t, nil
	case "message":
		ev = new(Message)
	case "status-update":
		ev = new(TaskStatusUpdateEvent)
	case "artifact-update":
		ev = new(TaskArtifactUpdateEvent)
	case "":
		return nil, r.protocolError(`event has no "kind" and is shaped like no stream event`, nil)
	default:
		return nil, r.protocolError(fmt.Sprintf("event kind %s is not a stream event", r.c.quote(kind)), nil)
	}
	if err := json.Unmarshal(r.result, ev); err != nil {
		return nil, r.protocolError(kind+" event does not decode", err)
	}
	return ev, nil
}

// errEventTooLarge is an SSE event whose data lines add up past the cap.
var errEventTooLarge = errors.New("event exceeds the size cap")

// sseReader reads Server-Sent Events (the WHATWG HTML "event stream"
// format): lines end in CRLF, LF or CR; "data:" lines of one event are
// joined with "\n"; a blank line dispatches; comments (":") and the
// "event", "id" and "retry" fields are ignored, as A2A gives them no
// meaning. Lines and events are bounded by max bytes.
type sseReader struct {
	sc      *bufio.Scanner
	max     int64
	started bool
}

func newSSEReader(r io.Reader, max int64) *sseReader {
	sc := bufio.NewScanner(r)
	limit := 1<<31 - 1
	if max < int64(limit)-2 {
		limit = int(max) + 2 // the line, and room for its CRLF
	}
	sc.Buffer(make([]byte, 0, 64<<10), limit)
	sc.Split(scanSSELines)
	return &sseReader{sc: sc, max: max}
}

// next returns the data of the next event, or io.EOF at the end of the
// stream.
func (s *sseReader) next() ([]byte, error) {
	var data []byte
	has := false
	for s.sc.Scan() {
		line := s.sc.Bytes()
		if !s.started { // the format allows one leading byte-order mark
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
			s.started = true
		}
		if len(line) == 0 {
			if has {
				return data, nil
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, found := bytes.Cut(line, []byte(":"))
		if !found {
			value = nil
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if string(field) != "data" {
			continue
		}
		if has {
			data = append(data, '\n')
		}
		data = append(data, value...)
		has = true
		if int64(len(data)) > s.max {
			return nil, errEventTooLarge
		}
	}
	if err := s.sc.Err(); err != nil {
		return nil, err
	}
	if has { // the stream ended without a blank line after the last event
		return data, nil
	}
	return nil, io.EOF
}

// scanSSELines is a bufio.SplitFunc for lines ended by CRLF, LF or CR.
func scanSSELines(data []byte, atEOF bool) (int, []byte, error) {
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0:
		if atEOF && len(data) > 0 {
			return len(data), data, nil
		}
		return 0, nil, nil
	case data[i] == '\n':
		return i + 1, data[:i], nil
	case i+1 < len(data):
		if data[i+1] == '\n' {
			return i + 2, data[:i], nil
		}
		return i + 1, data[:i], nil
	case atEOF:
		return i + 1, data[:i], nil
	default:
		return 0, nil, nil // a CR at the end: wait to see whether LF follows
	}
}
