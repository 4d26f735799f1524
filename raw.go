package a2a

import "encoding/json"

// The agent's own bytes of every result and event: [Task.Raw] (task.go),
// [AgentCard.Raw] (card.go) and, here, those of a Message, of the two
// update events and of a ListTasks page.
//
// One rule for all of them: Raw is the JSON of the object itself, byte for
// byte as the agent sent it, never a re-encoding: the A2A v0.3 JSON-RPC
// result (the object with its "kind"); in A2A v1.0 (both bindings) and in
// A2A v0.3 over HTTP+JSON, the value inside the SendMessageResponse or
// StreamResponse wrapper ({"task": …}, {"message": …}, {"statusUpdate":
// …}, {"artifactUpdate": …}), not the wrapper. A bare result (GetTask's
// Task, a ListTasksResponse) is its own object. Each stream event has its
// own bytes; a stream's earlier events are not kept by a later one's.

// own returns the bytes of the reply's result, for a decoded value's Raw:
// the result within the body (or the one stream event's data) that the
// client read into a buffer of its own for this reply, never reused, with
// its capacity cut at its end so that an append to it cannot write into
// the bytes after it. It keeps only that body (or event) alive.
func (r *reply) own() json.RawMessage {
	return r.result[:len(r.result):len(r.result)]
}

// Raw returns the JSON the message was decoded from, byte for byte as the
// agent sent it, unknown members and spacing included, or nil for a
// Message built in code, one nested in another value (a task's history or
// status, an event's status) and one the SDK made. The bytes of a message
// that is a SendMessage result or a stream event are, per version and
// binding: A2A v0.3 JSON-RPC, the result, with its "kind": "message"; A2A
// v0.3 HTTP+JSON, the v0.3 proto's Message, the value of the reply's
// "message" (or "msg") member; A2A v1.0 (JSON-RPC and HTTP+JSON), the
// value of the SendMessageResponse's or StreamResponse's "message" member,
// not the wrapper. [Message.UnmarshalJSON] keeps a copy of its input.
// Changing the message's fields does not change Raw, and encoding it
// ([Message.MarshalJSON]) does not use Raw. The returned slice must not be
// modified: the raw members of the message (data, metadata) share its
// bytes.
func (m *Message) Raw() json.RawMessage {
	if m == nil {
		return nil
	}
	return m.raw
}

// Raw returns the JSON the event was decoded from, byte for byte as the
// agent sent it, unknown members and spacing included, or nil for an event
// built in code or by the SDK (the updates a2a folds a task from) and one
// decoded with json.Unmarshal. Per version and binding, for a stream event
// or a push notification: A2A v0.3 JSON-RPC, the event's result, with its
// "kind": "status-update"; A2A v0.3 HTTP+JSON, the v0.3 proto's
// TaskStatusUpdateEvent, the value of the StreamResponse's "statusUpdate"
// (or "status_update") member; A2A v1.0 (JSON-RPC and HTTP+JSON), the value
// of the StreamResponse's "statusUpdate" (or "status_update") member, not
// the wrapper. A v1.0 event has no "final": the client sets
// [TaskStatusUpdateEvent.Final] at a terminal or interrupted state, which
// Raw does not show. The returned slice must not be modified: the raw
// members of the event share its bytes.
func (e *TaskStatusUpdateEvent) Raw() json.RawMessage {
	if e == nil {
		return nil
	}
	return e.raw
}

// Raw returns the JSON the event was decoded from, byte for byte as the
// agent sent it, unknown members and spacing included, or nil for an event
// built in code or by the SDK and one decoded with json.Unmarshal. Per
// version and binding, for a stream event or a push notification: A2A v0.3
// JSON-RPC, the event's result, with its "kind": "artifact-update"; A2A
// v0.3 HTTP+JSON, the v0.3 proto's TaskArtifactUpdateEvent, the value of
// the StreamResponse's "artifactUpdate" (or "artifact_update") member; A2A
// v1.0 (JSON-RPC and HTTP+JSON), the value of the StreamResponse's
// "artifactUpdate" (or "artifact_update") member, not the wrapper. The
// returned slice must not be modified: the raw members of the event (the
// artifact's data, metadata) share its bytes.
func (e *TaskArtifactUpdateEvent) Raw() json.RawMessage {
	if e == nil {
		return nil
	}
	return e.raw
}

// Raw returns the JSON the page was decoded from, byte for byte as the
// agent sent it, unknown members and spacing included, or nil for a page
// built in code: the ListTasksResponse object, which is not wrapped (A2A
// v1.0 JSON-RPC: the result; HTTP+JSON, v1.0 and v0.3: the reply's body).
// Each of its Tasks keeps its own part of these bytes ([Task.Raw]). The
// returned slice must not be modified: the tasks' bytes are within it.
func (r *ListTasksResponse) Raw() json.RawMessage {
	if r == nil {
		return nil
	}
	return r.raw
}
