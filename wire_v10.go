package a2a

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
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
func readEnum(d *jsonread.Reader, names []string) (name, mapped string) {
	c := d.Peek()
	if c != '-' && (c < '0' || c > '9') {
		return d.StrIn(names...), ""
	}
	text := string(d.Skip())
	if n, err := strconv.Atoi(text); err == nil && n >= 0 && n < len(names) {
		return names[n], text
	}
	return text, "" // kept as received: nothing was mapped
}

// v10State reads a v1.0 task state onto the SDK's constants: the
// TASK_STATE_* names as [canonicalState] maps them (TASK_STATE_UNSPECIFIED is
// [TaskStateUnknown], never success), their numbers, and any other name
// kept as received.
func v10State(d *jsonread.Reader) (TaskState, string) { return v10Enum(d, v10States, canonicalState) }

// v10Role reads a v1.0 role: ROLE_USER and ROLE_AGENT (or 1 and 2) are
// [RoleUser] and [RoleAgent]; anything else is kept as received.
func v10Role(d *jsonread.Reader) (Role, string) { return v10Enum(d, v10Roles, canonicalRole) }

// v10Enum reads an enum by readEnum and maps it with canon, keeping as
// its raw spelling the number it came as.
func v10Enum[T ~string](d *jsonread.Reader, names []string, canon func(T) (T, string)) (T, string) {
	name, num := readEnum(d, names)
	v, raw := canon(T(name))
	if num != "" {
		raw = num
	}
	return v, raw
}

// readInt32 reads a ProtoJSON int32: a number, or a string holding one,
// written as an integer or with an exponent or fraction that leaves it
// whole ("1e2", "10.0"), as ProtoJSON readers accept.
func readInt32(d *jsonread.Reader) int {
	var text string
	switch c := d.Peek(); {
	case c == '"':
		text = strings.TrimSpace(d.Str())
	case c == 'n':
		d.Null()
		return 0
	case c == '-' || c >= '0' && c <= '9':
		text = string(d.Skip())
	default:
		d.WrongType(reflect.TypeFor[int32]())
		return 0
	}
	if n, err := strconv.ParseInt(text, 10, 32); err == nil {
		return int(n)
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil && f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32 {
		return int(f)
	}
	d.Mistyped(fmt.Sprintf("%s is not an int32", strconv.Quote(inert.Truncate(text, 20))))
	return 0
}

// partV10Names are the members of a v1.0 part: four content members, one
// of which makes the part, and three for any part; and v0.3's "kind" and
// "file", which v1.0 parts do not have.
var partV10Names = jsonread.NewNameSet("text", "raw", "url", "data", "mediaType", "filename", "metadata", "media_type", "kind", "file")

// partV10 is a v1.0 part as read, before its content member is settled.
type partV10 struct {
	content                     [2]string // the first two content members present
	n                           int       // how many are present
	text, raw, url, media, name string
	data, metadata              json.RawMessage
	mediaAs                     string // the name media came as
	kind, file                  bool   // v0.3's members are there
	fileProto                   bool   // "file" is the v0.3 proto's (fileWithBytes, fileWithUri)
}

func (p *partV10) read(d *jsonread.Reader, i int) {
	switch n := partV10Names.Name(i); n {
	case "text", "raw", "url":
		if d.Peek() == 'n' { // null: unset
			d.Null()
			return
		}
		p.add(n)
		s := d.Str()
		switch n {
		case "text":
			p.text = s
		case "raw":
			p.raw = s
		default:
			p.url = s
		}
	case "data":
		p.add(n)
		p.data = d.Raw()
	case "mediaType", "media_type":
		if p.mediaAs != "" && p.mediaAs != n && !d.Exact() && d.Fault() == "" {
			d.SetFault(fmt.Sprintf("member %q appears twice in one object, as %q and %q", n, p.mediaAs, n))
		}
		p.mediaAs = n
		p.media = d.Str()
	case "filename":
		p.name = d.Str()
	case "metadata":
		p.metadata = d.Raw()
	case "kind":
		p.kind = true
		d.Skip()
	case "file":
		p.file = true
		f := d.Raw()
		p.fileProto = !jsonread.LacksMember(f, "fileWithBytes") || !jsonread.LacksMember(f, "fileWithUri") ||
			!jsonread.LacksMember(f, "file_with_bytes") || !jsonread.LacksMember(f, "file_with_uri")
	}
}

// add counts a content member.
func (p *partV10) add(name string) {
	if p.n < len(p.content) {
		p.content[p.n] = name
	}
	p.n++
}

// part is the part p makes by v1.0's rules (raw is its bytes), or nil,
// the reason recorded on d, for one with two content members.
func (p *partV10) part(d *jsonread.Reader, raw json.RawMessage) Part {
	switch p.n {
	case 0:
		return UnknownPart{Raw: raw}
	case 1:
	default:
		d.Mistyped(fmt.Sprintf("part has %s and %s; A2A v1.0 allows one content member", p.content[0], p.content[1]))
		return nil
	}
	switch p.content[0] {
	case "text":
		return TextPart{Text: p.text, MediaType: p.media, Filename: p.name, Metadata: p.metadata}
	case "data":
		return DataPart{Data: p.data, MediaType: p.media, Filename: p.name, Metadata: p.metadata}
	case "raw":
		return FilePart{File: FileContent{Name: p.name, MIMEType: p.media, Bytes: p.raw}, Metadata: p.metadata}
	}
	return FilePart{File: FileContent{Name: p.name, MIMEType: p.media, URI: p.url}, Metadata: p.metadata}
}

// readPartV10 reads one element of a v1.0 parts array. The content member
// present decides the part: "text" a [TextPart], "data" a [DataPart] (any
// JSON value, null included), "raw" or "url" a [FilePart]. A part with two
// content members breaks the proto's one-of and is an error, as is a
// content member of the wrong type; so is a media type given as both
// "mediaType" and "media_type". A part with none (a content member this
// SDK does not know) is kept as an [UnknownPart] with PartKind "", as is a
// value that is not an object.
//
// A part with v0.3's "kind", or without a content member but with v0.3's
// "file", is an A2A v0.3 part: it is read as v0.3 reads it ([readPart]),
// unless v0.3's rules refuse it and v1.0's take it (one content member
// beside a kind it does not match: the kind is then an unknown member, as
// v1.0 has none). So a part the client returns reads the same again from
// what [Parts.MarshalJSON] writes, which is v0.3's JSON, and the v0.3
// parts of stored bytes that Task.UnmarshalJSON hands to this decoder (a
// task without its "kind", unmarshalStored) read as the v0.3 decoder reads
// them.
func readPartV10(d *jsonread.Reader) Part {
	if d.Peek() != '{' {
		return nonObjectPart(d)
	}
	start := d.Pos()
	var p partV10
	err := d.Soft(func() { d.Object(partV10Names, nil, func(i int) { p.read(d, i) }) })
	if d.Stopped() {
		return nil
	}
	raw := d.Since(start)
	if p.fileProto && !p.kind && p.n == 0 {
		d.SetMistype(errFileProtoInV10)
		return nil
	}
	if !p.kind && (!p.file || p.n > 0) { // a v1.0 part
		if err != nil {
			d.SetMistype(err)
			return nil
		}
		return p.part(d, raw)
	}
	// v0.3's members: read again, as v0.3 reads the part. Nothing was
	// built from the first reading but its strings (charged, as these).
	end := d.Pos()
	d.SetPos(start)
	var v03 Part
	err03 := d.Soft(func() { v03 = readPart(d) })
	switch {
	case d.Stopped():
		return nil
	case err03 == nil && v03 != nil:
		return v03
	case p.kind && err == nil && p.n == 1:
		d.SetPos(end)
		return p.part(d, raw) // v0.3 refused it; v1.0 takes it, the kind an unknown member
	}
	d.SetMistype(cmp.Or(err03, err, errPartUnread))
	return nil
}

// errFileProtoInV10 is the error of a part whose "file" holds the v0.3
// proto's fileWithBytes or fileWithUri: read as v1.0 (or as v0.3
// JSON-RPC), the file would come out empty.
var errFileProtoInV10 = fmt.Errorf(`part has "file" with "fileWithBytes" or "fileWithUri", an A2A v0.3 HTTP+JSON part (make the client with WithProtocolVersion(ProtocolV03)): %w`, ErrVersionMismatch)

// errPartUnread is the error of a part neither version's rules read.
var errPartUnread = errors.New("part is neither an A2A v0.3 nor an A2A v1.0 part")

func readPartsV10(d *jsonread.Reader) Parts { return readPartList(d, readPartV10) }

// v10Fields is the table of one v1.0 wire object (a jsonread.Fields). A
// member may come under its JSON name (contextId) or the proto's field
// name (context_id), as ProtoJSON readers must accept; under both in one
// object it is a name fault, as a name that appears twice is, so that the
// object is never read one way or the other by the order of its members.
type v10Fields[T any] struct {
	*jsonread.Fields[T]
	alias []int // by index in names: the index of the member's other name, or -1
}

// newV10Fields makes the table of fs, adding for each field whose JSON
// name is lowerCamelCase the proto's snake_case name with the same reader.
func newV10Fields[T any](fs []field[T]) *v10Fields[T] { return newProtoFields(fs, nil) }

// newProtoFields is newV10Fields for a proto whose field names are not
// always the snake_case of their JSON names: protoNames maps a JSON name
// to its field's name where a json_name option set it apart (the v0.3
// proto's TaskStatus "message", field update).
func newProtoFields[T any](fs []field[T], protoNames map[string]string) *v10Fields[T] {
	all := slices.Clone(fs)
	var alias []int
	for i, f := range fs {
		alias = append(alias, -1)
		if other := cmp.Or(protoNames[f.name], snakeCase(f.name)); other != f.name {
			alias[i] = len(all)
			all = append(all, field[T]{other, f.read})
		}
	}
	for i := len(fs); i < len(all); i++ {
		alias = append(alias, slices.Index(alias, i))
	}
	return &v10Fields[T]{Fields: newFields(all), alias: alias}
}

// Decode reads the object at d into v, which it zeroes first, as
// jsonread.Fields.Decode does, and reports a member given under both its names.
// With exact names (UnmarshalJSON) the last one read is kept.
func (t *v10Fields[T]) Decode(d *jsonread.Reader, v *T) bool {
	var zero T
	*v = zero
	var seen uint64 // by index in names, of members that have another
	return d.Object(t.Names, reflect.TypeFor[T](), func(i int) {
		if a := t.alias[i]; a >= 0 && !d.Exact() {
			if seen&(1<<a) != 0 && d.Fault() == "" {
				d.SetFault(fmt.Sprintf("member %q appears twice in one object, as %q and %q", t.Names.Name(i), t.Names.Name(a), t.Names.Name(i)))
			}
			seen |= 1 << i
		}
		t.Read[i](d, v)
	})
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

// messageV10Fields reads a v1.0 Message; one without "parts" but with
// "content" is the v0.3 proto's (HTTP+JSON in A2A v0.3), an
// ErrVersionMismatch rather than a message without parts.
var messageV10Fields = otherShape{newV10Fields(messageV10Members), "content", errContentInV10}

// errContentInV10 is the error of a v1.0 message shaped as the v0.3
// proto's.
var errContentInV10 = fmt.Errorf(`message has "content" and no "parts": an A2A v0.3 HTTP+JSON message (make the client with WithProtocolVersion(ProtocolV03)): %w`, ErrVersionMismatch)

// otherShape is a Message table that knows the other proto's name for
// the parts: a message without parts (Parts nil) that has other is of
// the other version, and fails with err. Only such a message is looked at
// again, so the check costs nothing on a message with parts.
type otherShape struct {
	t     jsonread.Table[Message]
	other string
	err   error
}

func (s otherShape) Decode(d *jsonread.Reader, m *Message) bool {
	d.Peek()
	start := d.Pos()
	ok := s.t.Decode(d, m)
	if ok && m.Parts == nil && !jsonread.LacksMember(d.Since(start), s.other) {
		d.SetMistype(s.err)
		return false
	}
	return ok
}

// messageStoredFields reads a stored message (Message.UnmarshalJSON): a
// v0.3 one stops at its "kind".
var messageStoredFields = newV10Fields(append(messageV10Members, field[Message]{"kind", stopAtKind[Message]}))

var messageV10Members = messageMembers(v10Role, readPartsV10)

// readStatusV10 reads a TaskStatus. ProtoJSON leaves out an enum that
// holds its first value, so a status without a state (or with a null one)
// is TASK_STATE_UNSPECIFIED: [TaskStateUnknown], never success. (A state
// written as "" is kept as it is, as on v0.3.) Its members have one name
// each, so it reads them without v10Fields' alias check.
func readStatusV10(d *jsonread.Reader, s *TaskStatus) bool {
	*s = TaskStatus{}
	stated := false
	t := statusV10Fields.Fields
	ok := d.Object(t.Names, reflect.TypeFor[TaskStatus](), func(i int) {
		if t.Names.Name(i) == "state" && d.Peek() != 'n' {
			stated = true
		}
		t.Read[i](d, s)
	})
	if ok && !stated {
		s.State = TaskStateUnknown
	}
	return ok
}

var statusV10Fields = newV10Fields(append(statusMembers(v10State, messageV10Fields),
	field[TaskStatus]{"update", func(d *jsonread.Reader, _ *TaskStatus) { d.Skip(); d.SetMistype(errUpdateInV10) }}))

// errUpdateInV10 is the error of a v1.0 status with "update", the v0.3
// proto's name of the status message: read as v1.0, the message (a failed
// task's reason) would be lost.
var errUpdateInV10 = fmt.Errorf(`status has "update", the A2A v0.3 HTTP+JSON name of its message (make the client with WithProtocolVersion(ProtocolV03)): %w`, ErrVersionMismatch)

var artifactV10Fields = newV10Fields(artifactMembers(readPartsV10))

// errKindInV10Task is the error of a v1.0 task with "kind", v0.3's
// discriminator: its bytes would be read back as v0.3 (Task.UnmarshalJSON),
// and v1.0 has no such member.
var errKindInV10Task = fmt.Errorf(`task has "kind", an A2A v0.3 member: %w`, ErrVersionMismatch)

var taskV10Fields = newV10Fields(append(taskV10Members,
	field[Task]{"kind", func(d *jsonread.Reader, _ *Task) { d.Skip(); d.SetMistype(errKindInV10Task) }}))

// taskStoredFields reads a stored task (Task.UnmarshalJSON): a v0.3 one
// stops at its "kind".
var taskStoredFields = newV10Fields(append(taskV10Members, field[Task]{"kind", stopAtKind[Task]}))

var taskV10Members = []field[Task]{
	{"id", func(d *jsonread.Reader, t *Task) { t.ID = d.Str() }},
	{"contextId", func(d *jsonread.Reader, t *Task) { t.ContextID = d.Str() }},
	{"status", func(d *jsonread.Reader, t *Task) { readStatusV10(d, &t.Status) }},
	{"history", func(d *jsonread.Reader, t *Task) { t.History = jsonread.ReadList(d, messageV10Fields) }},
	{"artifacts", func(d *jsonread.Reader, t *Task) { t.Artifacts = jsonread.ReadList(d, artifactV10Fields) }},
	{"metadata", func(d *jsonread.Reader, t *Task) { t.Metadata = d.Raw() }},
}

var statusEventV10Fields = newV10Fields([]field[TaskStatusUpdateEvent]{
	{"taskId", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { e.TaskID = d.Str() }},
	{"contextId", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { e.ContextID = d.Str() }},
	{"status", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { readStatusV10(d, &e.Status) }},
	{"metadata", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { e.Metadata = d.Raw() }},
})

var artifactEventV10Fields = newV10Fields([]field[TaskArtifactUpdateEvent]{
	{"taskId", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.TaskID = d.Str() }},
	{"contextId", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.ContextID = d.Str() }},
	{"artifact", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { artifactV10Fields.Decode(d, &e.Artifact) }},
	{"append", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.Append = d.Boolean() }},
	{"lastChunk", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.LastChunk = d.Boolean() }},
	{"metadata", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.Metadata = d.Raw() }},
})

// listTasksV10Fields reads ListTasksResponse.
var listTasksV10Fields = listTasksFields(taskV10Fields)

// listTasksFields is the table of a ListTasksResponse whose tasks tasks
// reads. Its tasks are decoded one by one, each keeping its own bytes as
// Raw.
func listTasksFields(tasks jsonread.Table[Task]) *v10Fields[ListTasksResponse] {
	return newV10Fields([]field[ListTasksResponse]{
		{"tasks", func(d *jsonread.Reader, l *ListTasksResponse) {
			l.Tasks = []*Task{}
			d.Array(reflect.TypeFor[[]Task](), func() {
				var ok bool
				if l.Tasks, ok = jsonread.Grow(d, l.Tasks); !ok || !d.Charge(int64(reflect.TypeFor[Task]().Size())) {
					return
				}
				if d.Peek() == 'n' {
					d.Null()
					d.Mistyped("a task is null")
					return
				}
				start := d.Pos()
				t := new(Task)
				if tasks.Decode(d, t) {
					t.raw = d.Since(start)
					l.Tasks = append(l.Tasks, t)
				}
			})
		}},
		{"nextPageToken", func(d *jsonread.Reader, l *ListTasksResponse) { l.NextPageToken = d.Str() }},
		{"pageSize", func(d *jsonread.Reader, l *ListTasksResponse) { l.PageSize = readInt32(d) }},
		{"totalSize", func(d *jsonread.Reader, l *ListTasksResponse) { l.TotalSize = readInt32(d) }},
	})
}
