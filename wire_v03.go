package a2a

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// The A2A v0.3 decoder: one table per wire object, naming each member once
// with how it is read. Live replies, stream events and the UnmarshalJSON
// methods of Task, Message, TaskStatus and Parts all decode through these
// tables in one pass over the bytes, on a jsonReader, which also checks the
// member names against the table's. Raw members (data, metadata, an
// unknown part) alias the bytes they were read from, so the bytes must not
// change afterwards: the client reads from its own reply buffer, and
// UnmarshalJSON from its own copy of its input.

// field is one member of a wire object: its name and how it is read into
// a T.
type field[T any] struct {
	name string
	read func(d *jsonReader, v *T)
}

// fields is the table of one wire object.
type fields[T any] struct {
	names *nameSet
	read  []func(d *jsonReader, v *T)
}

func newFields[T any](fs []field[T]) *fields[T] {
	t := &fields[T]{}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
		t.read = append(t.read, f.read)
	}
	t.names = newNameSet(names...)
	return t
}

// decode reads the object at d into v; see [jsonReader.object] for null and
// for values that are not objects.
func (t *fields[T]) decode(d *jsonReader, v *T) bool {
	return d.object(t.names, "an object", func(i int) { t.read[i](d, v) })
}

var fileFields = newFields([]field[FileContent]{
	{"name", func(d *jsonReader, f *FileContent) { f.Name = d.str() }},
	{"mimeType", func(d *jsonReader, f *FileContent) { f.MIMEType = d.str() }},
	{"bytes", func(d *jsonReader, f *FileContent) { f.Bytes = d.str() }},
	{"uri", func(d *jsonReader, f *FileContent) { f.URI = d.str() }},
})

// partNames are the members of a v0.3 part. A part is read without a
// table (readPart): it is the one object whose members' types matter only
// once its kind is known, and read by hand its bookkeeping stays off the
// heap.
var partNames = newNameSet("kind", "text", "data", "file", "metadata")

// partRead is a part as read, before its kind is settled. A member of the
// wrong type is kept as its error: it matters only if the part turns out
// to be of the kind that member belongs to.
type partRead struct {
	kind             string
	kindBad          bool // "kind" is there but not a string
	text             string
	hasText          bool // "text" is a string
	data, metadata   json.RawMessage
	file             *FileContent
	textErr, fileErr error
}

func (p *partRead) read(d *jsonReader, i int) {
	switch i {
	case 0:
		if p.kindBad = d.soft(func() { p.kind = d.strIn(KindText, KindData, KindFile) }) != nil; p.kindBad {
			p.kind = ""
		}
	case 1:
		isString := d.peek() == '"'
		p.textErr = d.soft(func() { p.text = d.str() })
		p.hasText = isString && p.textErr == nil
	case 2:
		p.data = d.raw()
	case 3:
		var f FileContent
		if p.fileErr = d.soft(func() {
			if fileFields.decode(d, &f) {
				p.file = &f
			}
		}); p.fileErr != nil {
			p.file = nil
		}
	case 4:
		p.metadata = d.raw()
	}
}

// readPart reads one element of a parts array. A known kind must have its
// content member of the right type ("text" a string, "data" any JSON,
// "file" an object); a member of another kind's name is not its business,
// whatever its type. A part of an unknown kind is kept as an UnknownPart,
// and so is a part without a string "kind", unless exactly one content
// member is there (not null) and every member has its type: it is then
// read as that kind, a lenient reading of an off-spec part. A value that
// is not an object is kept as an UnknownPart too.
func readPart(d *jsonReader) Part {
	if d.peek() != '{' {
		raw := d.raw()
		if raw == nil {
			return nil
		}
		return UnknownPart{Raw: raw}
	}
	start := d.pos
	var p partRead
	d.object(partNames, "an object", func(i int) { p.read(d, i) })
	if d.syntax != nil {
		return nil
	}
	raw := d.buf[start:d.pos]
	clean := p.textErr == nil && p.fileErr == nil && !p.kindBad
	hasData := p.data != nil && string(p.data) != "null"
	switch p.kind {
	case "":
		switch {
		case !clean:
		case p.hasText && !hasData && p.file == nil:
			return TextPart{Text: p.text, Metadata: p.metadata}
		case hasData && !p.hasText && p.file == nil:
			return DataPart{Data: p.data, Metadata: p.metadata}
		case p.file != nil && !p.hasText && !hasData:
			return FilePart{File: *p.file, Metadata: p.metadata}
		}
		return UnknownPart{Raw: raw}
	case KindText:
		switch {
		case p.textErr != nil:
			d.setMistype(p.textErr)
		case !p.hasText:
			d.mistyped(`text part has no "text" string`)
		default:
			return TextPart{Text: p.text, Metadata: p.metadata}
		}
	case KindData:
		if p.data == nil {
			d.mistyped(`data part has no "data"`)
			break
		}
		return DataPart{Data: p.data, Metadata: p.metadata}
	case KindFile:
		switch {
		case p.fileErr != nil:
			d.setMistype(p.fileErr)
		case p.file == nil:
			d.mistyped(`file part has no "file" object`)
		default:
			return FilePart{File: *p.file, Metadata: p.metadata}
		}
	default:
		return UnknownPart{PartKind: p.kind, Raw: raw}
	}
	return nil
}

// readParts reads a parts array: nil for null, empty for []. The parts
// gather in a small buffer first, so a short list costs one allocation.
func readParts(d *jsonReader) Parts {
	var buf [4]Part
	out := buf[:0]
	if !d.array(func() { out = append(out, readPart(d)) }) {
		return nil
	}
	return append(make(Parts, 0, len(out)), out...)
}

var messageFields = newFields([]field[Message]{
	{"kind", func(d *jsonReader, _ *Message) { d.skip() }}, // checked, where it matters, by kindOf
	{"messageId", func(d *jsonReader, m *Message) { m.MessageID = d.str() }},
	{"role", func(d *jsonReader, m *Message) {
		m.Role, m.RawRole = v03Role(Role(d.strIn(string(RoleUser), string(RoleAgent), "ROLE_USER", "ROLE_AGENT")))
	}},
	{"parts", func(d *jsonReader, m *Message) { m.Parts = readParts(d) }},
	{"taskId", func(d *jsonReader, m *Message) { m.TaskID = d.str() }},
	{"contextId", func(d *jsonReader, m *Message) { m.ContextID = d.str() }},
	{"referenceTaskIds", func(d *jsonReader, m *Message) { m.ReferenceTaskIDs = d.strs() }},
	{"extensions", func(d *jsonReader, m *Message) { m.Extensions = d.strs() }},
	{"metadata", func(d *jsonReader, m *Message) { m.Metadata = d.raw() }},
})

// v1States maps the A2A v1.0 spellings of task states (ProtoJSON enum
// names) onto the v0.3 constants. TASK_STATE_UNSPECIFIED, v1.0's zero value,
// is v0.3's "unknown". Spec: A2A v1.0, TaskState (ProtoJSON enum names).
var v1States = map[string]TaskState{
	"TASK_STATE_SUBMITTED":      TaskStateSubmitted,
	"TASK_STATE_WORKING":        TaskStateWorking,
	"TASK_STATE_INPUT_REQUIRED": TaskStateInputRequired,
	"TASK_STATE_AUTH_REQUIRED":  TaskStateAuthRequired,
	"TASK_STATE_COMPLETED":      TaskStateCompleted,
	"TASK_STATE_CANCELED":       TaskStateCanceled,
	"TASK_STATE_FAILED":         TaskStateFailed,
	"TASK_STATE_REJECTED":       TaskStateRejected,
	"TASK_STATE_UNSPECIFIED":    TaskStateUnknown,
}

// knownStates are the nine v0.3 state spellings, for the decoder.
var knownStates = []string{string(TaskStateSubmitted), string(TaskStateWorking), string(TaskStateInputRequired),
	string(TaskStateAuthRequired), string(TaskStateCompleted), string(TaskStateCanceled), string(TaskStateFailed),
	string(TaskStateRejected), string(TaskStateUnknown)}

// v03State returns the v0.3 state for a received spelling, and the spelling
// itself when it was a v1.0 one that had to be mapped ("" otherwise).
func v03State(s TaskState) (TaskState, string) {
	if len(s) > 11 && s[:11] == "TASK_STATE_" {
		if m, ok := v1States[string(s)]; ok {
			return m, string(s)
		}
	}
	return s, ""
}

// v03Role returns the v0.3 role for a received spelling, and the spelling
// itself when it was a v1.0 one that had to be mapped ("" otherwise).
func v03Role(r Role) (Role, string) {
	switch r {
	case "ROLE_USER":
		return RoleUser, string(r)
	case "ROLE_AGENT":
		return RoleAgent, string(r)
	}
	return r, ""
}

var statusFields = newFields([]field[TaskStatus]{
	{"state", func(d *jsonReader, s *TaskStatus) { s.State, s.RawState = v03State(TaskState(d.strIn(knownStates...))) }},
	{"message", func(d *jsonReader, s *TaskStatus) {
		var m Message
		if messageFields.decode(d, &m) {
			s.Message = &m
		}
	}},
	{"timestamp", func(d *jsonReader, s *TaskStatus) {
		switch d.peek() {
		case '"', 'n':
			s.Timestamp = Timestamp(d.str())
		default: // a number of epoch seconds, say: kept as its text
			s.Timestamp = Timestamp(d.raw())
		}
	}},
})

var artifactFields = newFields([]field[Artifact]{
	{"artifactId", func(d *jsonReader, a *Artifact) { a.ArtifactID = d.str() }},
	{"name", func(d *jsonReader, a *Artifact) { a.Name = d.str() }},
	{"description", func(d *jsonReader, a *Artifact) { a.Description = d.str() }},
	{"parts", func(d *jsonReader, a *Artifact) { a.Parts = readParts(d) }},
	{"metadata", func(d *jsonReader, a *Artifact) { a.Metadata = d.raw() }},
	{"extensions", func(d *jsonReader, a *Artifact) { a.Extensions = d.strs() }},
})

var taskFields = newFields([]field[Task]{
	{"kind", func(d *jsonReader, _ *Task) { d.strIn("task") }},
	{"id", func(d *jsonReader, t *Task) { t.ID = d.str() }},
	{"contextId", func(d *jsonReader, t *Task) { t.ContextID = d.str() }},
	{"status", func(d *jsonReader, t *Task) { statusFields.decode(d, &t.Status) }},
	{"history", func(d *jsonReader, t *Task) { t.History = readList(d, messageFields, &d.msgs) }},
	{"artifacts", func(d *jsonReader, t *Task) { t.Artifacts = readList(d, artifactFields, &d.arts) }},
	{"metadata", func(d *jsonReader, t *Task) { t.Metadata = d.raw() }},
})

var statusEventFields = newFields([]field[TaskStatusUpdateEvent]{
	{"kind", func(d *jsonReader, _ *TaskStatusUpdateEvent) { d.skip() }},
	{"taskId", func(d *jsonReader, e *TaskStatusUpdateEvent) { e.TaskID = d.str() }},
	{"contextId", func(d *jsonReader, e *TaskStatusUpdateEvent) { e.ContextID = d.str() }},
	{"status", func(d *jsonReader, e *TaskStatusUpdateEvent) { statusFields.decode(d, &e.Status) }},
	{"final", func(d *jsonReader, e *TaskStatusUpdateEvent) { e.Final = d.boolean() }},
	{"metadata", func(d *jsonReader, e *TaskStatusUpdateEvent) { e.Metadata = d.raw() }},
})

var artifactEventFields = newFields([]field[TaskArtifactUpdateEvent]{
	{"kind", func(d *jsonReader, _ *TaskArtifactUpdateEvent) { d.skip() }},
	{"taskId", func(d *jsonReader, e *TaskArtifactUpdateEvent) { e.TaskID = d.str() }},
	{"contextId", func(d *jsonReader, e *TaskArtifactUpdateEvent) { e.ContextID = d.str() }},
	{"artifact", func(d *jsonReader, e *TaskArtifactUpdateEvent) { artifactFields.decode(d, &e.Artifact) }},
	{"append", func(d *jsonReader, e *TaskArtifactUpdateEvent) { e.Append = d.boolean() }},
	{"lastChunk", func(d *jsonReader, e *TaskArtifactUpdateEvent) { e.LastChunk = d.boolean() }},
	{"metadata", func(d *jsonReader, e *TaskArtifactUpdateEvent) { e.Metadata = d.raw() }},
})

// readList reads an array of objects of one table: nil for null, empty
// for []. The elements are decoded into scratch (the reader's, reused from
// call to call) and copied out into a slice of their exact length; scratch
// is left as it was found, its used part zeroed.
func readList[T any](d *jsonReader, t *fields[T], scratch *[]T) []T {
	base := len(*scratch)
	ok := d.array(func() {
		var zero T
		*scratch = append(*scratch, zero)
		t.decode(d, &(*scratch)[len(*scratch)-1])
	})
	got := (*scratch)[base:]
	var out []T
	if ok {
		out = append(make([]T, 0, len(got)), got...)
	}
	clear(got)
	*scratch = (*scratch)[:base]
	return out
}

// decodeWhole decodes b, one JSON value, into v with read (a table's
// decode): it returns the problem that decides the reading (a syntax
// error, a name fault or a mistyped value; see [jsonReader]). v's raw
// members alias b. With exact, names are matched exactly and never a
// fault.
func decodeWhole[T any](b []byte, read func(*jsonReader, *T) bool, v *T, exact bool) error {
	d := newJSONReader(b)
	defer d.release()
	d.exact = exact
	read(d, v)
	d.end()
	return d.err()
}

// unmarshalExact is the UnmarshalJSON of the model types: it decodes a
// copy of b (the caller's decoder may reuse b) into v with read, member
// names matched exactly, and returns the copy, which v's raw members
// share. On error v may be partly set, as with encoding/json.
func unmarshalExact[T any](b []byte, read func(*jsonReader, *T) bool, v *T) ([]byte, error) {
	own := bytes.Clone(b)
	var zero T
	*v = zero
	if err := decodeWhole(own, read, v, true); err != nil {
		return nil, err
	}
	return own, nil
}

// withKind is the MarshalJSON of the model types: v (a type without that
// method) encoded with "kind" as its first member, the v0.3 discriminator.
func withKind(kind string, v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(b)+len(kind)+10)
	out = append(out, `{"kind":`...)
	out = strconv.AppendQuote(out, kind)
	if len(b) > 2 { // not "{}"
		out = append(out, ',')
	}
	return append(out, b[1:]...), nil
}

// messageOut is a Message as sent, with no custom marshalers on the way, so
// json.Marshal encodes it in one pass (Message.MarshalJSON would have each
// part's MarshalJSON output checked again). Its fields follow Message.
type messageOut struct {
	Kind             string          `json:"kind"`
	MessageID        string          `json:"messageId,omitempty"`
	Role             Role            `json:"role"`
	Parts            []partOut       `json:"parts"`
	TaskID           string          `json:"taskId,omitempty"`
	ContextID        string          `json:"contextId,omitempty"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds,omitzero"`
	Extensions       []string        `json:"extensions,omitzero"`
	Metadata         json.RawMessage `json:"metadata,omitzero"`
}

// partOut is a known part as sent; absent members are left out.
type partOut struct {
	Kind     string          `json:"kind"`
	Text     *string         `json:"text,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"`
	File     *FileContent    `json:"file,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitzero"`
}

// wire returns m in its one-pass form, or false when a part is an
// UnknownPart (or nil), whose bytes only Message.MarshalJSON keeps.
func (m Message) wire() (messageOut, bool) {
	out := messageOut{Kind: "message", MessageID: m.MessageID, Role: m.Role, Parts: make([]partOut, len(m.Parts)),
		TaskID: m.TaskID, ContextID: m.ContextID, ReferenceTaskIDs: m.ReferenceTaskIDs, Extensions: m.Extensions, Metadata: m.Metadata}
	for i, p := range m.Parts {
		switch p := p.(type) {
		case TextPart:
			out.Parts[i] = partOut{Kind: KindText, Text: &p.Text, Metadata: p.Metadata}
		case DataPart:
			data := p.Data
			if data == nil {
				data = json.RawMessage("{}")
			} else if len(data) == 0 {
				return messageOut{}, false // empty but not nil: MarshalJSON reports the error
			}
			out.Parts[i] = partOut{Kind: KindData, Data: data, Metadata: p.Metadata}
		case FilePart:
			out.Parts[i] = partOut{Kind: KindFile, File: &p.File, Metadata: p.Metadata}
		default:
			return messageOut{}, false
		}
	}
	return out, true
}
