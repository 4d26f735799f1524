package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// TaskState is the state of a [Task] as the server spelled it. The nine
// A2A v0.3 states have constants; any other string is kept as received, is
// not [TaskState.Known], and is neither terminal nor interrupted, so a poller
// keeps polling and never reports it as success.
// Spec: A2A v0.3 §6.3 (TaskState); the Caoliao gateway docs ("应用应容忍尚未识别的新状态").
type TaskState string

// The A2A v0.3 task states.
const (
	TaskStateSubmitted     TaskState = "submitted"
	TaskStateWorking       TaskState = "working"
	TaskStateInputRequired TaskState = "input-required"
	TaskStateAuthRequired  TaskState = "auth-required"
	TaskStateCompleted     TaskState = "completed"
	TaskStateCanceled      TaskState = "canceled"
	TaskStateFailed        TaskState = "failed"
	TaskStateRejected      TaskState = "rejected"
	TaskStateUnknown       TaskState = "unknown"
)

// Terminal reports whether s is a final state: completed, failed, canceled or
// rejected. A terminal task never changes again.
func (s TaskState) Terminal() bool {
	switch s {
	case TaskStateCompleted, TaskStateFailed, TaskStateCanceled, TaskStateRejected:
		return true
	}
	return false
}

// Interrupted reports whether the agent waits for the caller: input-required
// (answer with [Client.SendFollowUp]) or auth-required (obtain credentials out
// of band, then send a follow-up).
func (s TaskState) Interrupted() bool {
	return s == TaskStateInputRequired || s == TaskStateAuthRequired
}

// final reports whether s ends a wait or a stream: terminal or
// interrupted (DESIGN: interrupted stops the wait).
func (s TaskState) final() bool { return s.Terminal() || s.Interrupted() }

// Known reports whether s is one of the nine A2A v0.3 states. The empty
// state (absent on the wire) is not known.
func (s TaskState) Known() bool {
	switch s {
	case TaskStateSubmitted, TaskStateWorking, TaskStateInputRequired, TaskStateAuthRequired,
		TaskStateCompleted, TaskStateCanceled, TaskStateFailed, TaskStateRejected, TaskStateUnknown:
		return true
	}
	return false
}

// Timestamp is an ISO 8601 time exactly as the server wrote it
// (TaskStatus.timestamp, A2A v0.3 §6.2). It is kept as text so an odd or
// zone-less value never fails decoding; [Timestamp.Time] parses it.
type Timestamp string

// UnmarshalJSON keeps a JSON string as it is, a null as "", and any other
// JSON value (a number of epoch seconds, say) as its raw text, so an odd
// timestamp never fails the decoding of a task.
func (t *Timestamp) UnmarshalJSON(b []byte) error {
	_, err := unmarshalExact(b, func(d *jsonread.Reader, t *Timestamp) bool { *t = readTimestamp(d); return true }, t)
	return err
}

// timestampLayouts are tried in order; layouts without a zone are read as UTC.
var timestampLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
}

// Time parses the timestamp. It accepts RFC 3339 with any fraction of a
// second, and the same without a zone offset (read as UTC, as payloads such
// as "2025-04-02T16:59:25.331844" in the spec need). It returns an error for
// an empty or unparseable value.
func (t Timestamp) Time() (time.Time, error) {
	s := strings.TrimSpace(string(t))
	if s == "" {
		return time.Time{}, errors.New("a2a: empty timestamp")
	}
	var firstErr error
	for _, layout := range timestampLayouts {
		tm, err := time.Parse(layout, s)
		if err == nil {
			return tm, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return time.Time{}, firstErr
}

// TaskStatus is a task's current state, with an optional agent message (the
// failure reason, or the question when input is required) and the time the
// state was set. Spec: A2A v0.3 §6.2.
type TaskStatus struct {
	// State is the state as a v0.3 value. Every spelling servers use is
	// mapped onto its constant: the proto enum names of v0.3's gRPC
	// binding and of v1.0 ("TASK_STATE_COMPLETED", "TASK_STATE_CANCELLED"),
	// the British "cancelled", and any of these in another case or with
	// "_" for "-". Any other string is kept as received.
	State     TaskState `json:"state"`
	Message   *Message  `json:"message,omitempty"`
	Timestamp Timestamp `json:"timestamp,omitempty"`
	// RawState is the state exactly as the server wrote it when that
	// spelling was mapped onto State; "" when State is the received text.
	// It is not encoded: a re-encoded status uses the v0.3 spelling.
	RawState string `json:"-"`
}

// UnmarshalJSON decodes a status in either version's JSON (a state
// spelled TASK_STATE_* or written as a number is A2A v1.0's; an absent one
// is [TaskStateUnknown] there), matching member names exactly:
// encoding/json alone would let a "State" or "STATE" member override
// "state", and the state decides success. Unknown members, and members
// spelled in another case, are ignored; an odd timestamp is kept as text
// ([Timestamp.UnmarshalJSON]).
func (s *TaskStatus) UnmarshalJSON(b []byte) error {
	// The v1.0 decoder reads a v0.3 status as v0.3's does (its message's
	// parts by their kinds, either spelling of state and role), and v1.0's
	// enum numbers as well.
	_, err := unmarshalExact(b, readStatusV10, s)
	return err
}

// Task is the unit of work an agent reports on: what message/send, tasks/get
// and tasks/cancel return. A task in state failed, canceled or rejected is a
// normal value, not an error; read the reason with [Task.StatusText].
// Spec: A2A v0.3 §6.1; the Caoliao agent docs ("Task and Response").
//
// A Task decoded from JSON remembers the exact bytes it came from
// ([Task.Raw]): Caoliao keeps tasks in memory only, so persist those bytes if
// you need the result later.
type Task struct {
	ID        string          `json:"id"`
	ContextID string          `json:"contextId,omitempty"`
	Status    TaskStatus      `json:"status"`
	History   []Message       `json:"history,omitzero"`
	Artifacts []Artifact      `json:"artifacts,omitzero"`
	Metadata  json.RawMessage `json:"metadata,omitzero"`

	raw json.RawMessage // the bytes it was decoded from
	// folded makes repeated Apply on this task linear (fold.go).
	folded *foldState
}

// Raw returns the JSON the task was decoded from, byte for byte, or nil for
// a Task built in code. The returned slice must not be modified: the raw
// members of the task (data, metadata) share its bytes.
func (t *Task) Raw() json.RawMessage {
	if t == nil {
		return nil
	}
	return t.raw
}

// StatusText returns the text of the status message: for a failed task the
// reason (for example "查询失败:码不存在或无法解析"), for an
// input-required task the agent's question. It returns "" when there is no
// status message or it has no text part. It is safe on a nil *Task.
func (t *Task) StatusText() string {
	if t == nil || t.Status.Message == nil {
		return ""
	}
	return t.Status.Message.Parts.Text()
}

// Artifact returns the first artifact with the given name (Caoliao names them
// "entity", "records" or "actions"), or nil. The methods of *Artifact are
// safe on nil, so task.Artifact("entity").Text() needs no check.
func (t *Task) Artifact(name string) *Artifact {
	if t == nil {
		return nil
	}
	for i := range t.Artifacts {
		if t.Artifacts[i].Name == name {
			return &t.Artifacts[i]
		}
	}
	return nil
}

// taskWire has Task's fields without its methods, for encoding and decoding.
type taskWire Task

// MarshalJSON encodes the task with "kind": "task". Use [Task.Raw] for the
// exact bytes a decoded task came from.
func (t Task) MarshalJSON() ([]byte, error) {
	return withKind(kindTask, taskWire(t))
}

// UnmarshalJSON decodes a task in either version's JSON and keeps a copy
// of b for [Task.Raw], with the decoder the client uses for replies, as
// fast: a task with a "kind" member (A2A v0.3's, and what
// [Task.MarshalJSON] writes) with the v0.3 decoder, any other with the
// v1.0 one, which reads a v0.3 task that lacks its "kind" as the v0.3 one
// does. So the Raw bytes of a task from either kind of agent decode back
// to the same task. Its input is JSON as encoding/json hands it, already
// validated: called directly on bytes that are not JSON, it returns a
// *json.SyntaxError for a fault in what it decodes, but like
// json.RawMessage it keeps a raw value (data, metadata) without checking
// it again. It does not check
// "kind"; the client does that where a Task is due. Member names match
// exactly (a "Status" is not "status"); unknown members are ignored. The
// client refuses a reply whose names repeat or differ only in case, so
// the bytes of a task it returned decode to the same task.
func (t *Task) UnmarshalJSON(b []byte) error {
	return t.unmarshal(b, jsonread.Valid)
}

// ParseTask decodes a task from its JSON, in either version's form: the
// same Task, or the same error, as json.Unmarshal(b, &task) gives (see
// [Task.UnmarshalJSON]), from one pass over b where json.Unmarshal makes
// three (it checks b, then scans it again to find where the task ends,
// before the method reads it): a small task decodes in about half the
// time. Use it for tasks kept as bytes (a store, a cache, a file). It
// checks all of b, the data and metadata it keeps raw included: one JSON
// value, JSON whitespace around it allowed (not part of [Task.Raw]). The
// task keeps a copy of the bytes it was decoded from, so b may be reused
// after ParseTask returns. Like UnmarshalJSON it does not check "kind":
// a stored message decodes as a Task of its fields. Only when b does not
// decode does it take as long as json.Unmarshal: it asks json.Unmarshal
// for the error.
//
// Errors are json.Unmarshal's for the same bytes: a *json.SyntaxError
// when b is not one JSON value (nested deeper than encoding/json's 10,000
// levels included); a *json.UnmarshalTypeError when b, or a member Task
// decodes, holds a value of the wrong type (an id that is a number, a
// FilePart's file that is not an object); Task.UnmarshalJSON's own (an
// A2A v1.0 part with two contents, such as text and data; a task that
// would take more than 4 bytes of memory a byte of b, and 2 MiB, to
// decode). A JSON null, which json.Unmarshal takes as "leave the task as
// it was", is a *json.UnmarshalTypeError. It never returns a Task with an
// error. Spec: A2A v0.3 §6.1 (Task); A2A v1.0, Task.
func ParseTask(b []byte) (*Task, error) {
	v := bytes.Trim(b, jsonSpace)
	if isNull(v) {
		lead := len(b) - len(bytes.TrimLeft(b, jsonSpace))
		return nil, &json.UnmarshalTypeError{Value: "null", Type: reflect.TypeFor[Task](), Offset: int64(lead + len(v))}
	}
	// v, what json.Unmarshal hands Task.UnmarshalJSON: the same memory
	// budget as there, and the same Raw. Decoding it whole proves b to be
	// JSON, so json.Unmarshal would have called the method on v.
	t := new(Task)
	if t.unmarshal(v, 0) == nil {
		return t, nil
	}
	// The error as json.Unmarshal gives it: a syntax error anywhere in b
	// comes first, and offsets count as there.
	t = new(Task)
	if err := json.Unmarshal(b, t); err != nil {
		return nil, err
	}
	return t, nil
}

// jsonSpace is JSON's whitespace (RFC 8259 §2).
const jsonSpace = " \t\r\n"

// unmarshal is UnmarshalJSON with the mode it checks b in (jsonread.Valid:
// encoding/json has).
func (t *Task) unmarshal(b []byte, mode jsonread.Mode) error {
	read := taskFields.Decode
	if v10Stored(b) {
		read = taskStoredFields.Decode
	}
	raw, err := unmarshalStored(b, read, taskFields.Decode, t, mode)
	if err == nil {
		t.raw = raw
	}
	return err
}

// Role says who wrote a [Message]: the client ("user") or the agent
// ("agent"). When a Message is decoded, the A2A v1.0 spellings "ROLE_USER"
// and "ROLE_AGENT" are mapped onto these (the received text is kept in
// [Message.RawRole]); other strings are kept as received. Spec: A2A v0.3
// §6.4; A2A v1.0, Role, for the v1.0 spellings.
type Role string

// The A2A v0.3 message roles.
const (
	RoleUser  Role = "user"
	RoleAgent Role = "agent"
)

// Message is one turn of a conversation: the caller's request, an agent's
// reply, or the note in a [TaskStatus]. Spec: A2A v0.3 §6.4.
//
// When sending, MessageID may be left empty: the client fills in a fresh
// UUID once, before any retry, so every retry carries the same id. Role
// defaults to [RoleUser].
type Message struct {
	MessageID        string          `json:"messageId,omitempty"`
	Role             Role            `json:"role"`
	Parts            Parts           `json:"parts"`
	TaskID           string          `json:"taskId,omitempty"`
	ContextID        string          `json:"contextId,omitempty"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds,omitzero"`
	Extensions       []string        `json:"extensions,omitzero"`
	Metadata         json.RawMessage `json:"metadata,omitzero"`
	// RawRole is the role exactly as the server wrote it when that was an
	// A2A v1.0 spelling ("ROLE_AGENT") mapped onto Role; "" otherwise. It
	// is not encoded.
	RawRole string `json:"-"`

	raw json.RawMessage // the bytes it was decoded from (raw.go)
}

// UnmarshalJSON decodes a message in either version's JSON, told apart as
// [Task.UnmarshalJSON] tells tasks (A2A v1.0: no "kind", role ROLE_* or a
// number, parts without "kind"), mapping a v1.0 role spelling onto its
// constant ([Role]). The "kind" member is not checked here; the
// client does that where a Message is due. Member names match exactly;
// unknown members are ignored. It keeps a copy of b for [Message.Raw].
// Because Message has this method, a struct
// that embeds a Message is decoded by it alone: give the Message a named
// field instead.
func (m *Message) UnmarshalJSON(b []byte) error {
	read := messageFields.Decode
	if v10Stored(b) {
		read = messageStoredFields.Decode
	}
	raw, err := unmarshalStored(b, read, messageFields.Decode, m, jsonread.Valid)
	if err == nil {
		m.raw = raw
	}
	return err
}

// MarshalJSON encodes the message with "kind": "message".
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message // without this method
	return withKind(kindMessage, plain(m))
}

// Text joins the text of the message's text parts with newlines. It is
// safe on a nil *Message, which gives "".
func (m *Message) Text() string {
	if m == nil {
		return ""
	}
	return m.Parts.Text()
}

// NewTextMessage returns a user message holding one [TextPart].
func NewTextMessage(text string) Message {
	return Message{Role: RoleUser, Parts: Parts{TextPart{Text: text}}}
}

// canonicalState returns the state constant for a received spelling, and the
// spelling itself when it had to be mapped ("" otherwise). Every spelling
// deployed servers use maps onto its constant: the v0.3 JSON names, the
// proto enum names of v0.3's gRPC binding and of v1.0
// ("TASK_STATE_INPUT_REQUIRED", "TASK_STATE_UNSPECIFIED" for unknown),
// the British "cancelled" of v0.3's gRPC enum and older docs, and any of
// these in another case or with "_" for "-". Anything else is kept as
// received: a state this SDK does not know, never success.
func canonicalState(s TaskState) (TaskState, string) {
	if s.Known() || s == "" {
		return s, ""
	}
	n := strings.ReplaceAll(strings.ToLower(string(s)), "_", "-")
	n = strings.TrimPrefix(n, "task-state-")
	switch n {
	case "cancelled":
		n = string(TaskStateCanceled)
	case "unspecified":
		n = string(TaskStateUnknown)
	}
	if m := TaskState(n); m.Known() {
		return m, string(s)
	}
	return s, ""
}

// canonicalRole returns the v0.3 role for a received spelling, and the spelling
// itself when it was a v1.0 one ("ROLE_AGENT") that had to be mapped (""
// otherwise).
func canonicalRole(r Role) (Role, string) {
	switch r {
	case "ROLE_USER":
		return RoleUser, string(r)
	case "ROLE_AGENT":
		return RoleAgent, string(r)
	}
	return r, ""
}
