package a2a

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// The A2A v0.3 HTTP+JSON decoder: the ProtoJSON of the v0.3 proto
// (package a2a.v1 at A2A tag v0.3.0, specification/grpc/a2a.proto, and
// the members later v0.3 protos add: Part.metadata, FilePart.name),
// which is neither v0.3 JSON-RPC nor v1.0. Built as wire_v10.go builds
// its tables (newProtoFields: each member under its JSON name or its
// proto field name), onto the same types. What differs from v1.0: a
// message's parts are under "content"; TaskStatus's message is the field
// update (JSON name "message"); a file part is {"file": {"fileWithUri" |
// "fileWithBytes", "mimeType", "name"}}, a data part {"data": {"data":
// {…}}}; the canceled state is TASK_STATE_CANCELLED; SendMessageResponse
// and StreamResponse name their message field msg (JSON name
// "message"); status updates carry "final".

// v03pbStates are the v0.3 proto's TaskState by number.
var v03pbStates = []string{"TASK_STATE_UNSPECIFIED", "TASK_STATE_SUBMITTED", "TASK_STATE_WORKING",
	"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELLED", "TASK_STATE_INPUT_REQUIRED",
	"TASK_STATE_REJECTED", "TASK_STATE_AUTH_REQUIRED"}

// v03pbStateName is the v0.3 proto's name of a state (TASK_STATE_CANCELLED
// for canceled); ok is false for a state it has no name for.
func v03pbStateName(s TaskState) (string, bool) {
	name, ok := v10StateName(s)
	if name == "TASK_STATE_CANCELED" {
		name = "TASK_STATE_CANCELLED"
	}
	return name, ok
}

// v03pbState reads a state: the TASK_STATE_* names in either spelling of
// canceled, their numbers, any other name kept as received.
func v03pbState(d *jsonread.Reader) (TaskState, string) {
	return v10Enum(d, v03pbStates, canonicalState)
}

var filePBFields = newV10Fields([]field[FileContent]{
	{"fileWithUri", func(d *jsonread.Reader, f *FileContent) { f.URI = d.Str() }},
	{"fileWithBytes", func(d *jsonread.Reader, f *FileContent) { f.Bytes = fileBytesPB(d, d.Str()) }},
	{"mimeType", func(d *jsonread.Reader, f *FileContent) { f.MIMEType = d.Str() }},
	{"name", func(d *jsonread.Reader, f *FileContent) { f.Name = d.Str() }},
})

// fileBytesPB is FileContent.Bytes of a fileWithBytes as received: the
// base64 of the proto's bytes (either alphabet, padded or not, as
// ProtoJSON readers take it). Python v0.3 agents (and a2a-go's v0.3
// compatibility layer) put the base64 text of the file in those bytes,
// so the wire holds base64 of base64: when s decodes to text that is
// itself padded standard base64, that text is the file's base64 and is
// what Bytes holds. Otherwise (a peer that put the file's own bytes
// there, as the proto reads, or a value that is not base64) s is kept
// as it came. A file whose content is itself base64 text, sent by a peer
// of the second kind, is read as the first: the one ambiguity. The text
// kept is charged to d's budget.
func fileBytesPB(d *jsonread.Reader, s string) string {
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if len(s)%4 != 0 && !strings.HasSuffix(s, "=") {
		enc = enc.WithPadding(base64.NoPadding)
	}
	inner, err := enc.DecodeString(s)
	if err != nil || len(inner) == 0 || len(inner)%4 != 0 || !isBase64Text(inner) || !d.Charge(int64(len(inner))) {
		return s
	}
	return string(inner)
}

// isBase64Text reports whether b is padded standard base64.
func isBase64Text(b []byte) bool {
	n := len(b)
	for i, c := range b {
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '+', c == '/':
		case c == '=' && i >= n-2 && (i == n-1 || b[n-1] == '='):
		default:
			return false
		}
	}
	return true
}

// partPBNames are the members of a v0.3 proto part: three content
// members and metadata; and v1.0's content members, which it does not
// have.
var partPBNames = jsonread.NewNameSet("text", "file", "data", "metadata", "raw", "url")

// partPB is a v0.3 proto part as read.
type partPB struct {
	content        [2]string // the first two content members present
	n              int
	text           string
	file           *FileContent // its own allocation, charged: the rest of p stays on the stack
	data, metadata json.RawMessage
	v10            bool // a v1.0 content member is there
}

func (p *partPB) read(d *jsonread.Reader, i int) {
	name := partPBNames.Name(i)
	if name == "metadata" {
		p.metadata = d.Raw()
		return
	}
	if d.Peek() == 'n' { // null: unset
		d.Null()
		return
	}
	switch name {
	case "text":
		p.text = d.Str()
	case "file":
		if !d.Charge(int64(reflect.TypeFor[FileContent]().Size())) {
			return
		}
		p.file = new(FileContent)
		filePBFields.Decode(d, p.file)
	case "data":
		p.data = readDataPB(d)
	default:
		p.v10 = true
		d.Skip()
		return
	}
	if p.n < len(p.content) {
		p.content[p.n] = name
	}
	p.n++
}

var dataPBNames = jsonread.NewNameSet("data")

// readDataPB reads a DataPart, {"data": <Struct>}, and returns the
// struct. An object without "data" is taken as the struct itself, and a
// value that is not an object as the data (the shape v1.0's data part
// has): lenient readings that keep what came.
func readDataPB(d *jsonread.Reader) json.RawMessage {
	if d.Peek() != '{' {
		return d.Raw()
	}
	start := d.Pos()
	var data json.RawMessage
	d.Object(dataPBNames, nil, func(int) { data = d.Raw() })
	if data == nil {
		return d.Since(start)
	}
	return data
}

// errPartV10 is the error of a part of A2A v1.0's shape in a v0.3
// HTTP+JSON reply.
var errPartV10 = fmt.Errorf(`part has "raw" or "url", an A2A v1.0 part (make the client with WithProtocolVersion(ProtocolV10)): %w`, ErrVersionMismatch)

// readPartPB reads one element of a v0.3 proto parts array: "text" a
// [TextPart], "file" a [FilePart], "data" a [DataPart]. Two content
// members break the proto's oneof and are an error; a part with none is
// kept as an [UnknownPart] (PartKind ""), as is a value that is not an
// object, unless it has v1.0's "raw" or "url" ([ErrVersionMismatch]).
func readPartPB(d *jsonread.Reader) Part {
	if d.Peek() != '{' {
		return nonObjectPart(d)
	}
	start := d.Pos()
	var p partPB
	d.Object(partPBNames, nil, func(i int) { p.read(d, i) })
	if d.Stopped() {
		return nil
	}
	switch {
	case p.n == 0 && p.v10:
		d.SetMistype(errPartV10)
		return nil
	case p.n == 0:
		return UnknownPart{Raw: d.Since(start)}
	case p.n > 1:
		d.Mistyped(fmt.Sprintf("part has %s and %s; the A2A v0.3 proto allows one", p.content[0], p.content[1]))
		return nil
	}
	switch p.content[0] {
	case "text":
		return TextPart{Text: p.text, Metadata: p.metadata}
	case "file":
		return FilePart{File: *p.file, Metadata: p.metadata}
	}
	return DataPart{Data: p.data, Metadata: p.metadata}
}

func readPartsPB(d *jsonread.Reader) Parts { return readPartList(d, readPartPB) }

// messagePBFields reads a v0.3 proto Message; one without "content" but
// with "parts" is of another shape (v1.0's, or v0.3 JSON-RPC's), an
// ErrVersionMismatch.
var messagePBFields = otherShape{newV10Fields([]field[Message]{
	{"messageId", func(d *jsonread.Reader, m *Message) { m.MessageID = d.Str() }},
	{"contextId", func(d *jsonread.Reader, m *Message) { m.ContextID = d.Str() }},
	{"taskId", func(d *jsonread.Reader, m *Message) { m.TaskID = d.Str() }},
	{"role", func(d *jsonread.Reader, m *Message) { m.Role, m.RawRole = v10Role(d) }},
	{"content", func(d *jsonread.Reader, m *Message) { m.Parts = readPartsPB(d) }},
	{"metadata", func(d *jsonread.Reader, m *Message) { m.Metadata = d.Raw() }},
	{"extensions", func(d *jsonread.Reader, m *Message) { m.Extensions = d.Strs() }},
	// Not in the v0.3 proto, but a field of the SDK's Message: kept when
	// an agent sends it rather than dropped as an unknown member.
	{"referenceTaskIds", func(d *jsonread.Reader, m *Message) { m.ReferenceTaskIDs = d.Strs() }},
}), "parts", errPartsInV03PB}

// errPartsInV03PB is the error of a message shaped as v1.0's in a v0.3
// HTTP+JSON reply.
var errPartsInV03PB = fmt.Errorf(`message has "parts" and no "content": not an A2A v0.3 HTTP+JSON message (an A2A v1.0 agent answers so: make the client with WithProtocolVersion(ProtocolV10)): %w`, ErrVersionMismatch)

// statusPBFields reads TaskStatus: its message is the proto field
// update, JSON name "message".
var statusPBFields = newProtoFields(statusMembers(v03pbState, messagePBFields), map[string]string{"message": "update"})

// readStatusPB reads a TaskStatus; a status without a state (ProtoJSON
// leaves out TASK_STATE_UNSPECIFIED) is [TaskStateUnknown], never success.
func readStatusPB(d *jsonread.Reader, s *TaskStatus) bool {
	ok := statusPBFields.Decode(d, s)
	if ok && s.State == "" && s.RawState == "" {
		s.State = TaskStateUnknown
	}
	return ok
}

var artifactPBFields = newV10Fields(artifactMembers(readPartsPB))

var taskPBFields = newV10Fields([]field[Task]{
	{"id", func(d *jsonread.Reader, t *Task) { t.ID = d.Str() }},
	{"contextId", func(d *jsonread.Reader, t *Task) { t.ContextID = d.Str() }},
	{"status", func(d *jsonread.Reader, t *Task) { readStatusPB(d, &t.Status) }},
	{"history", func(d *jsonread.Reader, t *Task) { t.History = jsonread.ReadList(d, messagePBFields) }},
	{"artifacts", func(d *jsonread.Reader, t *Task) { t.Artifacts = jsonread.ReadList(d, artifactPBFields) }},
	{"metadata", func(d *jsonread.Reader, t *Task) { t.Metadata = d.Raw() }},
})

var statusEventPBFields = newV10Fields([]field[TaskStatusUpdateEvent]{
	{"taskId", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { e.TaskID = d.Str() }},
	{"contextId", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { e.ContextID = d.Str() }},
	{"status", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { readStatusPB(d, &e.Status) }},
	{"final", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { e.Final = d.Boolean() }},
	{"metadata", func(d *jsonread.Reader, e *TaskStatusUpdateEvent) { e.Metadata = d.Raw() }},
})

var artifactEventPBFields = newV10Fields([]field[TaskArtifactUpdateEvent]{
	{"taskId", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.TaskID = d.Str() }},
	{"contextId", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.ContextID = d.Str() }},
	{"artifact", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { artifactPBFields.Decode(d, &e.Artifact) }},
	{"append", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.Append = d.Boolean() }},
	{"lastChunk", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.LastChunk = d.Boolean() }},
	{"metadata", func(d *jsonread.Reader, e *TaskArtifactUpdateEvent) { e.Metadata = d.Raw() }},
})

var listTasksPBFields = listTasksFields(taskPBFields)

// pushConfigPB is TaskPushNotificationConfig of the v0.3 proto: the
// config under a resource name that holds the task id and the config id.
type pushConfigPB struct {
	Name string `json:"name"`
	// Config is PushNotificationConfig: the SDK's type has the proto's
	// JSON names.
	Config *PushNotificationConfig `json:"pushNotificationConfig"`
	// The proto's name, which ProtoJSON readers take too.
	ConfigProto *PushNotificationConfig `json:"push_notification_config,omitempty"`
}

// pushConfigPBList is ListTaskPushNotificationConfigResponse.
type pushConfigPBList struct {
	Configs            []pushConfigPB `json:"configs"`
	NextPageToken      string         `json:"nextPageToken"`
	NextPageTokenProto string         `json:"next_page_token,omitempty"`
}

// pushNamePrefix and pushNameInfix spell a push config's resource name,
// tasks/{task}/pushNotificationConfigs/{config}.
const (
	pushNamePrefix = "tasks/"
	pushNameInfix  = "/pushNotificationConfigs/"
)

// pushName is the resource name of a task's push config; "" configID
// gives the task's own name, tasks/{task}.
func pushName(taskID, configID string) string {
	if configID == "" {
		return pushNamePrefix + taskID
	}
	return pushNamePrefix + taskID + pushNameInfix + configID
}

// public is the config as the SDK's type holds it: the task id and the
// config id read from the name (the task asked about first, since an id
// may hold the infix), the config's own id preferred. A config whose
// name is not of that form, names another task, or whose id and name
// disagree is a *ProtocolError; so is one without a URL.
func (p pushConfigPB) public(r *reply) (TaskPushNotificationConfig, error) {
	cfg := p.Config
	switch {
	case cfg == nil:
		cfg = p.ConfigProto
	case p.ConfigProto != nil:
		return TaskPushNotificationConfig{}, r.fault(`member "push_notification_config" appears twice in one object, as "pushNotificationConfig" and "push_notification_config"`, nil)
	}
	if cfg == nil || cfg.URL == "" {
		return TaskPushNotificationConfig{}, r.fault(`push config has no "pushNotificationConfig" with a "url"`, nil)
	}
	rest, ok := strings.CutPrefix(p.Name, pushNamePrefix)
	if !ok {
		return TaskPushNotificationConfig{}, r.fault(fmt.Sprintf("push config name %s is not tasks/{id}/pushNotificationConfigs/{id}", r.asked.red.Quote(p.Name)), nil)
	}
	task, configID := rest, ""
	if want := r.asked.task; want != "" && strings.HasPrefix(rest, want+pushNameInfix) {
		task, configID = want, rest[len(want)+len(pushNameInfix):]
	} else if i := strings.Index(rest, pushNameInfix); i >= 0 {
		task, configID = rest[:i], rest[i+len(pushNameInfix):]
	}
	if err := r.sameTask(task, false); err != nil {
		return TaskPushNotificationConfig{}, err
	}
	out := TaskPushNotificationConfig{TaskID: task, PushNotificationConfig: *cfg}
	switch id := &out.PushNotificationConfig.ID; {
	case *id == "":
		*id = configID
	case configID != "" && configID != *id:
		return TaskPushNotificationConfig{}, r.fault(fmt.Sprintf("push config id %s is not %s, the id its name gives", r.asked.red.Quote(*id), r.asked.red.Quote(configID)), nil)
	}
	if want := r.asked.configID; want != "" && out.PushNotificationConfig.ID != want {
		return TaskPushNotificationConfig{}, r.fault(fmt.Sprintf("push config %s is not %s, the config asked for", r.asked.red.Quote(out.PushNotificationConfig.ID), r.asked.red.Quote(want)), nil)
	}
	return out, nil
}
