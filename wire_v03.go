package a2a

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// The A2A v0.3 decoder: one table per wire object, naming each member once
// with how it is read, and the rules that tell a result's kind. Live
// replies, stream events and the UnmarshalJSON methods of Task, Message,
// TaskStatus, Parts and Timestamp all decode through these tables on a
// jsonread.Reader, which checks member names against the table's as it reads.
// A reply's bytes are scanned three times, each pass validating and none
// building anything it does not keep: the envelope check skips over the
// result, kindOf reads its top level, and the table decodes it. Raw
// members (data, metadata, an unknown part) alias the bytes they were read
// from, so the bytes must not change afterwards: the client reads from its
// own reply buffer, and UnmarshalJSON from its own copy of its input.

// The "kind" of each v0.3 result and event; a part's are the public
// KindText, KindData and KindFile.
const (
	kindTask           = "task"
	kindMessage        = "message"
	kindStatusUpdate   = "status-update"
	kindArtifactUpdate = "artifact-update"
)

var fileFields = newFields([]field[FileContent]{
	{"name", func(d *jsonread.Reader, f *FileContent) { f.Name = d.Str() }},
	{"mimeType", func(d *jsonread.Reader, f *FileContent) { f.MIMEType = d.Str() }},
	{"bytes", func(d *jsonread.Reader, f *FileContent) { f.Bytes = d.Str() }},
	{"uri", func(d *jsonread.Reader, f *FileContent) { f.URI = d.Str() }},
})

// partNames are the members of a v0.3 part. A part is read without a
// table (readPart): it is the one object whose members' types matter only
// once its kind is known, and read by hand its bookkeeping stays off the
// heap.
var partNames = jsonread.NewNameSet("kind", "text", "data", "file", "metadata", "mediaType", "filename")

// partRead is a part as read, before its kind is settled. A member of the
// wrong type is kept as its error: it matters only if the part turns out
// to be of the kind that member belongs to.
type partRead struct {
	kind             string
	kindBad          bool // "kind" is there but not a string
	text             string
	hasText          bool // "text" is a string
	data, metadata   json.RawMessage
	mediaType, name  string // v1.0's, kept on text and data parts the SDK stored
	file             *FileContent
	textErr, fileErr error
}

func (p *partRead) read(d *jsonread.Reader, i int) {
	switch partNames.Name(i) { // each case replaces what a repeat of its member left
	case "kind":
		if p.kindBad = d.Soft(func() { p.kind = d.StrIn(KindText, KindData, KindFile) }) != nil; p.kindBad {
			p.kind = ""
		}
	case "text":
		p.text = ""
		isString := d.Peek() == '"'
		p.textErr = d.Soft(func() { p.text = d.Str() })
		p.hasText = isString && p.textErr == nil
	case "data":
		p.data = d.Raw()
	case "file":
		p.file = nil
		if !d.Charge(int64(reflect.TypeFor[FileContent]().Size())) {
			return
		}
		var f FileContent
		if p.fileErr = d.Soft(func() {
			if fileFields.Decode(d, &f) {
				p.file = &f
			}
		}); p.fileErr != nil {
			p.file = nil
		}
	case "metadata":
		p.metadata = d.Raw()
	case "mediaType": // not v0.3's: of another type, it is left out
		d.Soft(func() { p.mediaType = d.Str() })
	case "filename":
		d.Soft(func() { p.name = d.Str() })
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
func readPart(d *jsonread.Reader) Part {
	if d.Peek() != '{' {
		return nonObjectPart(d)
	}
	start := d.Pos()
	var p partRead
	d.Object(partNames, nil, func(i int) { p.read(d, i) }) // an object: peek said so
	if d.Stopped() {
		return nil
	}
	raw := d.Since(start)
	clean := p.textErr == nil && p.fileErr == nil && !p.kindBad
	hasData := p.data != nil && string(p.data) != "null"
	switch p.kind {
	case "":
		switch {
		case !clean:
		case p.hasText && !hasData && p.file == nil:
			return TextPart{Text: p.text, MediaType: p.mediaType, Filename: p.name, Metadata: p.metadata}
		case hasData && !p.hasText && p.file == nil:
			return DataPart{Data: p.data, MediaType: p.mediaType, Filename: p.name, Metadata: p.metadata}
		case p.file != nil && !p.hasText && !hasData:
			return FilePart{File: *p.file, Metadata: p.metadata}
		}
		return UnknownPart{Raw: raw}
	case KindText:
		switch {
		case p.textErr != nil:
			d.SetMistype(p.textErr)
		case !p.hasText:
			d.Mistyped(`text part has no "text" string`)
		default:
			return TextPart{Text: p.text, MediaType: p.mediaType, Filename: p.name, Metadata: p.metadata}
		}
	case KindData:
		if p.data == nil {
			d.Mistyped(`data part has no "data"`)
			break
		}
		return DataPart{Data: p.data, MediaType: p.mediaType, Filename: p.name, Metadata: p.metadata}
	case KindFile:
		switch {
		case p.fileErr != nil:
			d.SetMistype(p.fileErr)
		case p.file == nil:
			d.Mistyped(`file part has no "file" object`)
		default:
			return FilePart{File: *p.file, Metadata: p.metadata}
		}
	default:
		return UnknownPart{PartKind: p.kind, Raw: raw}
	}
	return nil
}

// readParts reads a v0.3 parts array: nil for null, empty for [].
func readParts(d *jsonread.Reader) Parts { return readPartList(d, readPart) }

var messageFields = newFields(append(messageMembers(readRoleV03, readParts),
	field[Message]{"kind", func(d *jsonread.Reader, _ *Message) { d.Skip() }})) // checked, where it matters, by kindOf

// readRoleV03 reads a v0.3 role; v1.0's names are mapped too.
func readRoleV03(d *jsonread.Reader) (Role, string) {
	return canonicalRole(Role(d.StrIn(string(RoleUser), string(RoleAgent), "ROLE_USER", "ROLE_AGENT")))
}

// knownStates are the nine v0.3 state spellings, for the decoder.
var knownStates = []string{string(TaskStateSubmitted), string(TaskStateWorking), string(TaskStateInputRequired),
	string(TaskStateAuthRequired), string(TaskStateCompleted), string(TaskStateCanceled), string(TaskStateFailed),
	string(TaskStateRejected), string(TaskStateUnknown)}

var statusFields = newFields(statusMembers(readStateV03, messageFields))

// readStateV03 reads a v0.3 state; other spellings are mapped too.
func readStateV03(d *jsonread.Reader) (TaskState, string) {
	return canonicalState(TaskState(d.StrIn(knownStates...)))
}

var artifactFields = newFields(artifactMembers(readParts))

var taskFields = newFields([]field[Task]{
	{"kind", func(d *jsonread.Reader, _ *Task) { d.StrIn(kindTask) }},
	{"id", func(d *jsonread.Reader, t *Task) { t.ID = d.Str() }},
	{"contextId", func(d *jsonread.Reader, t *Task) { t.ContextID = d.Str() }},
	{"status", func(d *jsonread.Reader, t *Task) { statusFields.Decode(d, &t.Status) }},
	{"history", func(d *jsonread.Reader, t *Task) { t.History = jsonread.ReadList(d, messageFields) }},
	{"artifacts", func(d *jsonread.Reader, t *Task) { t.Artifacts = jsonread.ReadList(d, artifactFields) }},
	{"metadata", func(d *jsonread.Reader, t *Task) { t.Metadata = d.Raw() }},
})

var statusEventFields = newFields([]field[TaskStatusUpdateEvent]{
	{"kind", func(d *jsonread.Reader, _ *TaskStatusUpdateEvent) { d.Skip() }},
	{"taskId", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { e.TaskID = d.Str() }},
	{"contextId", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { e.ContextID = d.Str() }},
	{"status", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { statusFields.Decode(d, &e.Status) }},
	{"final", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { e.Final = d.Boolean() }},
	{"metadata", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { e.Metadata = d.Raw() }},
})

var artifactEventFields = newFields([]field[TaskArtifactUpdateEvent]{
	{"kind", func(d *jsonread.Reader, _ *TaskArtifactUpdateEvent) { d.Skip() }},
	{"taskId", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.TaskID = d.Str() }},
	{"contextId", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.ContextID = d.Str() }},
	{"artifact", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { artifactFields.Decode(d, &e.Artifact) }},
	{"append", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.Append = d.Boolean() }},
	{"lastChunk", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.LastChunk = d.Boolean() }},
	{"metadata", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.Metadata = d.Raw() }},
})

// resultNames are the members a task, message or event result may have at
// its top level, and the names of the A2A v1.0 wrappers: what kindOf
// reads, and checks, before the result is decoded by its kind.
var resultNames = jsonread.NewNameSet(slices.Compact(slices.Sorted(slices.Values(slices.Concat(
	taskFields.Names.Names(), messageFields.Names.Names(), statusEventFields.Names.Names(), artifactEventFields.Names.Names(),
	[]string{"task", "message", "statusUpdate", "artifactUpdate"},
))))...)

// kindOf returns what a result is: its "kind" member when present (any
// string, known or not), else the kind its shape shows, else "". Shapes
// (a lenient reading of off-spec replies, each needing its required
// members): a string id and an object status make a "task"; a string
// messageId and an array of parts a "message"; a string taskId with an
// object status a "status-update", with an object artifact an
// "artifact-update". It returns a *ProtocolError for a result that is not
// a JSON object or whose top-level names fail the name check, and one
// wrapping [ErrVersionMismatch] for an A2A v1.0 wrapper ({"task": …},
// {"message": …}, {"statusUpdate": …}, {"artifactUpdate": …}): this
// binding does not unwrap them.
func kindOf(r *reply) (string, error) {
	d := r.reader()
	defer d.Release()
	if d.Peek() != '{' {
		return "", r.fault("result is not a JSON object", nil)
	}
	var kind *string
	kindBad := false
	var first [64]byte // the first byte of each member's value, by index
	d.Object(resultNames, nil, func(i int) {
		first[i] = d.Peek()
		if resultNames.Name(i) != "kind" {
			d.Skip()
			return
		}
		switch first[i] {
		case '"':
			s := d.Str()
			kind, kindBad = &s, false
		case 'n':
			d.Null()
			kind = nil
		default:
			d.Skip()
			kindBad = true
		}
	})
	switch {
	case d.Fault() != "":
		return "", r.fault(d.Fault(), nil)
	case kindBad:
		return "", r.fault(`result "kind" is not a string`, nil)
	case kind != nil:
		return *kind, nil
	}
	is := func(name string, c byte) bool { return first[resultNames.Index([]byte(name))] == c }
	switch {
	case is("id", '"') && is("status", '{'):
		return kindTask, nil
	case is("messageId", '"') && is("parts", '['):
		return kindMessage, nil
	case is("taskId", '"') && is("status", '{'):
		return kindStatusUpdate, nil
	case is("taskId", '"') && is("artifact", '{'):
		return kindArtifactUpdate, nil
	}
	for _, name := range []string{"task", "message", "statusUpdate", "artifactUpdate"} {
		if is(name, '{') {
			return "", r.fault(fmt.Sprintf(`result is wrapped as {%q: …}, an A2A v1.0 shape`, name), ErrVersionMismatch)
		}
	}
	return "", nil
}

// resultKinds is what one method's result may be: the kinds it takes, and
// the words of the *ProtocolErrors for a result that is none of them.
type resultKinds struct {
	kinds   []string
	null    string // for a null result
	noKind  string // for a result without "kind" and of no known shape
	badKind string // for another kind: a format for the quoted kind
	what    string // "result" or "event", in "message result does not decode"
}

var (
	taskResults = resultKinds{[]string{kindTask}, "result is null where a Task is due",
		`result has no "kind" and is not shaped like a Task`, "result kind %s where a Task is due", "result"}
	sendResults = resultKinds{[]string{kindTask, kindMessage}, "result is null where a Task or Message is due",
		`result has no "kind" and is shaped like neither a Task nor a Message`, "result kind %s is neither task nor message", "result"}
	eventResults = resultKinds{[]string{kindTask, kindMessage, kindStatusUpdate, kindArtifactUpdate}, "result is null where an event is due",
		`event has no "kind" and is shaped like no stream event`, "event kind %s is not a stream event", "event"}
)

// byKind decodes a result as the kind it is, one of k.kinds: a *Task,
// *Message, *TaskStatusUpdateEvent or *TaskArtifactUpdateEvent, never a
// typed nil beside an error.
func byKind(r *reply, k resultKinds) (any, error) {
	if isNull(r.result) {
		return nil, r.fault(k.null, nil)
	}
	kind, err := kindOf(r)
	switch {
	case err != nil:
		return nil, err
	case kind == "":
		return nil, r.fault(k.noKind, nil)
	case !slices.Contains(k.kinds, kind):
		return nil, r.fault(fmt.Sprintf(k.badKind, r.asked.red.Quote(kind)), nil)
	}
	var v any
	var taskID string // the task the result is about
	switch kind {
	case kindTask:
		t, err := taskResult(r, taskFields)
		if err != nil {
			return nil, err
		}
		v, taskID = t, t.ID
	case kindMessage:
		m, err := decodeAs(r, messageFields, "message "+k.what)
		if err != nil {
			return nil, err
		}
		m.raw = r.own()
		v, taskID = m, m.TaskID
	case kindStatusUpdate:
		e, err := decodeAs(r, statusEventFields, "status-update event")
		if err != nil {
			return nil, err
		}
		e.raw = r.own()
		v, taskID = e, e.TaskID
	default:
		e, err := decodeAs(r, artifactEventFields, "artifact-update event")
		if err != nil {
			return nil, err
		}
		e.raw = r.own()
		v, taskID = e, e.TaskID
	}
	if err := r.sameTask(taskID, kind == kindMessage); err != nil {
		return nil, err
	}
	return v, nil
}
