package a2a

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// The A2A v1.0 decoder: one table per wire object, as in wire_v03.go, for
// the ProtoJSON rendering of the v1.0 proto. What differs from v0.3: no
// "kind" anywhere (a part is told by its content member, a result by the
// member of its wrapper), enums spelled TASK_STATE_* and ROLE_* (or
// written as their numbers), parts flat ({"text": …}, {"raw": …},
// {"url": …}, {"data": …} with "mediaType" and "filename"), and the
// proto's own field names (context_id) accepted beside the JSON ones
// (contextId), as ProtoJSON readers must. Members ProtoJSON leaves out when
// they hold their default (false, "", 0, the first enum value) read as
// that default.

// v10States are the TaskState enum of A2A v1.0 by number.
var v10States = []string{"TASK_STATE_UNSPECIFIED", "TASK_STATE_SUBMITTED", "TASK_STATE_WORKING",
	"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_INPUT_REQUIRED",
	"TASK_STATE_REJECTED", "TASK_STATE_AUTH_REQUIRED"}

// v10Roles are the Role enum of A2A v1.0 by number.
var v10Roles = []string{"ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"}

// readEnum reads a ProtoJSON enum: its name as a string, or its number.
// A number names the value of that number in names; a number outside
// names is kept as its text, as an unknown name is. mapped is the
// spelling received when a number was turned into a name.
func readEnum(d *jsonReader, names []string) (name, mapped string) {
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		return d.strIn(names...), ""
	}
	text := string(d.skip())
	if n, err := strconv.Atoi(text); err == nil && n >= 0 && n < len(names) {
		return names[n], text
	}
	return text, text
}

// v10State reads a v1.0 task state onto the SDK's constants: the
// TASK_STATE_* names as [v03State] maps them (TASK_STATE_UNSPECIFIED is
// [TaskStateUnknown], never success), their numbers, and any other name
// kept as received.
func v10State(d *jsonReader) (TaskState, string) {
	name, num := readEnum(d, v10States)
	state, raw := v03State(TaskState(name))
	if num != "" {
		raw = num
	}
	return state, raw
}

// v10Role reads a v1.0 role: ROLE_USER and ROLE_AGENT (or 1 and 2) are
// [RoleUser] and [RoleAgent]; anything else is kept as received.
func v10Role(d *jsonReader) (Role, string) {
	name, num := readEnum(d, v10Roles)
	role, raw := v03Role(Role(name))
	if num != "" {
		raw = num
	}
	return role, raw
}

// readInt32 reads a ProtoJSON int32: a number, or a string holding one.
func readInt32(d *jsonReader) int {
	if d.peek() == '"' {
		s := d.str()
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
		if err != nil {
			d.mistyped(fmt.Sprintf("%s is not an integer", strconv.Quote(truncate(s, 20))))
		}
		return int(n)
	}
	if d.peek() == 'n' {
		d.null()
		return 0
	}
	c := d.peek()
	if c != '-' && (c < '0' || c > '9') {
		d.wrongType(reflect.TypeFor[int32]())
		return 0
	}
	n, err := strconv.ParseInt(string(d.skip()), 10, 32)
	if err != nil {
		d.mistyped("not an int32")
	}
	return int(n)
}

// partV10Names are the members of a v1.0 part: four content members, one
// of which makes the part, and three for any part.
var partV10Names = newNameSet("text", "raw", "url", "data", "mediaType", "filename", "metadata", "media_type")

// readPartV10 reads one element of a v1.0 parts array. The content member
// present decides the part: "text" a [TextPart], "data" a [DataPart] (any
// JSON value, null included), "raw" or "url" a [FilePart]. A part with two
// content members breaks the proto's one-of and is an error, as is a
// content member of the wrong type; a part with none (a content member
// this SDK does not know) is kept as an [UnknownPart] with PartKind "", as
// is a value that is not an object.
func readPartV10(d *jsonReader) Part {
	if d.peek() != '{' {
		raw := d.raw()
		if raw == nil {
			return nil
		}
		return UnknownPart{Raw: raw}
	}
	start := d.pos
	var (
		content                     []string
		text, raw, url, media, name string
		data, metadata              json.RawMessage
	)
	d.object(partV10Names, nil, func(i int) {
		switch n := partV10Names.names[i]; n {
		case "text", "raw", "url":
			if d.peek() == 'n' { // null: unset
				d.null()
				return
			}
			content = append(content, n)
			s := d.str()
			switch n {
			case "text":
				text = s
			case "raw":
				raw = s
			default:
				url = s
			}
		case "data":
			content = append(content, n)
			data = d.raw()
		case "mediaType", "media_type":
			media = d.str()
		case "filename":
			name = d.str()
		case "metadata":
			metadata = d.raw()
		}
	})
	if d.syntax != nil || d.mistype != nil {
		return nil
	}
	switch len(content) {
	case 0:
		return UnknownPart{Raw: d.buf[start:d.pos:d.pos]}
	case 1:
	default:
		d.mistyped(fmt.Sprintf("part has %s; A2A v1.0 allows one content member", strings.Join(content, " and ")))
		return nil
	}
	switch content[0] {
	case "text":
		return TextPart{Text: text, MediaType: media, Filename: name, Metadata: metadata}
	case "data":
		return DataPart{Data: data, MediaType: media, Filename: name, Metadata: metadata}
	case "raw":
		return FilePart{File: FileContent{Name: name, MIMEType: media, Bytes: raw}, Metadata: metadata}
	}
	return FilePart{File: FileContent{Name: name, MIMEType: media, URI: url}, Metadata: metadata}
}

func readPartsV10(d *jsonReader) Parts { return readPartList(d, readPartV10) }

// withAliases adds, for each field whose JSON name is lowerCamelCase, the
// proto's snake_case name with the same reader.
func withAliases[T any](fs []field[T]) []field[T] {
	out := fs
	for _, f := range fs {
		if snake := snakeCase(f.name); snake != f.name {
			out = append(out, field[T]{snake, f.read})
		}
	}
	return out
}

// snakeCase returns the proto field name of a ProtoJSON name: contextId
// → context_id.
func snakeCase(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

var messageV10Fields = newFields(withAliases([]field[Message]{
	{"messageId", func(d *jsonReader, m *Message) { m.MessageID = d.str() }},
	{"role", func(d *jsonReader, m *Message) { m.Role, m.RawRole = v10Role(d) }},
	{"parts", func(d *jsonReader, m *Message) { m.Parts = readPartsV10(d) }},
	{"taskId", func(d *jsonReader, m *Message) { m.TaskID = d.str() }},
	{"contextId", func(d *jsonReader, m *Message) { m.ContextID = d.str() }},
	{"referenceTaskIds", func(d *jsonReader, m *Message) { m.ReferenceTaskIDs = d.strs() }},
	{"extensions", func(d *jsonReader, m *Message) { m.Extensions = d.strs() }},
	{"metadata", func(d *jsonReader, m *Message) { m.Metadata = d.raw() }},
}))

var statusV10Fields = newFields([]field[TaskStatus]{
	{"state", func(d *jsonReader, s *TaskStatus) { s.State, s.RawState = v10State(d) }},
	{"message", func(d *jsonReader, s *TaskStatus) {
		if !d.charge(int64(reflect.TypeFor[Message]().Size())) {
			return
		}
		var m Message
		if messageV10Fields.decode(d, &m) {
			s.Message = &m
		}
	}},
	{"timestamp", func(d *jsonReader, s *TaskStatus) { s.Timestamp = readTimestamp(d) }},
})

var artifactV10Fields = newFields(withAliases([]field[Artifact]{
	{"artifactId", func(d *jsonReader, a *Artifact) { a.ArtifactID = d.str() }},
	{"name", func(d *jsonReader, a *Artifact) { a.Name = d.str() }},
	{"description", func(d *jsonReader, a *Artifact) { a.Description = d.str() }},
	{"parts", func(d *jsonReader, a *Artifact) { a.Parts = readPartsV10(d) }},
	{"metadata", func(d *jsonReader, a *Artifact) { a.Metadata = d.raw() }},
	{"extensions", func(d *jsonReader, a *Artifact) { a.Extensions = d.strs() }},
}))

var taskV10Fields = newFields(withAliases([]field[Task]{
	{"id", func(d *jsonReader, t *Task) { t.ID = d.str() }},
	{"contextId", func(d *jsonReader, t *Task) { t.ContextID = d.str() }},
	{"status", func(d *jsonReader, t *Task) { statusV10Fields.decode(d, &t.Status) }},
	{"history", func(d *jsonReader, t *Task) { t.History = readList(d, messageV10Fields) }},
	{"artifacts", func(d *jsonReader, t *Task) { t.Artifacts = readList(d, artifactV10Fields) }},
	{"metadata", func(d *jsonReader, t *Task) { t.Metadata = d.raw() }},
}))

var statusEventV10Fields = newFields(withAliases([]field[TaskStatusUpdateEvent]{
	{"taskId", func(d *jsonReader, e *TaskStatusUpdateEvent) { e.TaskID = d.str() }},
	{"contextId", func(d *jsonReader, e *TaskStatusUpdateEvent) { e.ContextID = d.str() }},
	{"status", func(d *jsonReader, e *TaskStatusUpdateEvent) { statusV10Fields.decode(d, &e.Status) }},
	{"metadata", func(d *jsonReader, e *TaskStatusUpdateEvent) { e.Metadata = d.raw() }},
}))

var artifactEventV10Fields = newFields(withAliases([]field[TaskArtifactUpdateEvent]{
	{"taskId", func(d *jsonReader, e *TaskArtifactUpdateEvent) { e.TaskID = d.str() }},
	{"contextId", func(d *jsonReader, e *TaskArtifactUpdateEvent) { e.ContextID = d.str() }},
	{"artifact", func(d *jsonReader, e *TaskArtifactUpdateEvent) { artifactV10Fields.decode(d, &e.Artifact) }},
	{"append", func(d *jsonReader, e *TaskArtifactUpdateEvent) { e.Append = d.boolean() }},
	{"lastChunk", func(d *jsonReader, e *TaskArtifactUpdateEvent) { e.LastChunk = d.boolean() }},
	{"metadata", func(d *jsonReader, e *TaskArtifactUpdateEvent) { e.Metadata = d.raw() }},
}))

// listTasksV10Fields reads ListTasksResponse. Its tasks are decoded one by
// one, each keeping its own bytes as Raw.
var listTasksV10Fields = newFields(withAliases([]field[ListTasksResponse]{
	{"tasks", func(d *jsonReader, l *ListTasksResponse) {
		l.Tasks = []*Task{}
		d.array(reflect.TypeFor[[]Task](), func() {
			var ok bool
			if l.Tasks, ok = grow(d, l.Tasks); !ok || !d.charge(int64(reflect.TypeFor[Task]().Size())) {
				return
			}
			start := d.pos
			t := new(Task)
			if taskV10Fields.decode(d, t) {
				t.raw = d.buf[start:d.pos:d.pos]
				l.Tasks = append(l.Tasks, t)
			}
		})
	}},
	{"nextPageToken", func(d *jsonReader, l *ListTasksResponse) { l.NextPageToken = d.str() }},
	{"pageSize", func(d *jsonReader, l *ListTasksResponse) { l.PageSize = readInt32(d) }},
	{"totalSize", func(d *jsonReader, l *ListTasksResponse) { l.TotalSize = readInt32(d) }},
}))

// shapeNames are the members v10Shape looks at.
var shapeNames = newNameSet("kind", "status", "state", "role", "message")

// v10Shape tells stored bytes of a task, message or status apart by
// version, for the UnmarshalJSON methods, reading only the members on
// path (a task's "status", "state"; a message's "role"; a status's
// "state"): a "kind" member at the top, or in the "message" beside the
// enum, makes them v0.3 (what MarshalJSON writes); else the enum member at
// the end of path decides: a number, a TASK_STATE_* or ROLE_* name, or no
// value at all make them v1.0, any other string v0.3. Bytes that are not
// an object are left to the v0.3 reader, which reports them.
func v10Shape(b []byte, path ...string) bool {
	d := newJSONReader(b)
	defer d.release()
	d.exact = true
	v10 := true
	last := len(path) - 1
	var look func(depth int)
	look = func(depth int) {
		if d.peek() != '{' {
			v10 = v10 && depth > 0 // a status that is not an object: no state
			d.skip()
			return
		}
		d.object(shapeNames, nil, func(i int) {
			switch name := shapeNames.names[i]; {
			case name == "kind" && depth <= last+1:
				v10 = false
				d.skip()
			case name == "message" && depth == last:
				look(last + 1)
			case depth > last || name != path[depth]:
				d.skip()
			case depth < last:
				look(depth + 1)
			case d.peek() == '"':
				s := d.str()
				v10 = v10 && (strings.HasPrefix(s, "TASK_STATE_") || strings.HasPrefix(s, "ROLE_"))
			default:
				d.skip()
			}
		})
	}
	look(0)
	return v10 && d.syntax == nil
}
