package a2atest

import (
	"encoding/json"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The A2A v0.3 HTTP+JSON writer: the a2a types as the ProtoJSON of the
// v0.3 proto (package a2a.v1 at A2A v0.3.0, specification/grpc/a2a.proto),
// which is neither v0.3 JSON-RPC nor v1.0: TASK_STATE_* and ROLE_* names
// (canceled is TASK_STATE_CANCELLED), a message's parts under "content",
// parts {"text"}, {"file": {"fileWithUri"|"fileWithBytes", "mimeType"}}
// and {"data": {"data": …}}, "final" on status updates, push configs as
// {"name": "tasks/{id}/pushNotificationConfigs/{configId}",
// "pushNotificationConfig": …}. A file's name, a part's metadata and a
// message's referenceTaskIds, which later v0.3 peers add, are written when
// set. Members that hold their default are left out.

// stateV03 is a state's v0.3 proto name.
func stateV03(s a2a.TaskState) string {
	if s == a2a.TaskStateCanceled {
		return "TASK_STATE_CANCELLED"
	}
	return stateV10(s)
}

// v03States are the v0.3 proto names of the SDK's states, and
// stateNames03 the enum by number.
var (
	v03States    = map[a2a.TaskState]string{}
	stateNames03 = make([]string, len(stateNames))
)

func init() {
	for state := range v10States {
		v03States[state] = stateV03(state)
	}
	copy(stateNames03, stateNames)
	stateNames03[5] = "TASK_STATE_CANCELLED"
}

type task03 struct {
	ID        string          `json:"id"`
	ContextID string          `json:"contextId,omitempty"`
	Status    status03        `json:"status"`
	Artifacts []artifact03    `json:"artifacts,omitempty"`
	History   []message03     `json:"history,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

type status03 struct {
	State     string     `json:"state,omitempty"`
	Message   *message03 `json:"message,omitempty"`
	Timestamp string     `json:"timestamp,omitempty"`
}

type message03 struct {
	MessageID        string          `json:"messageId"`
	ContextID        string          `json:"contextId,omitempty"`
	TaskID           string          `json:"taskId,omitempty"`
	Role             string          `json:"role,omitempty"`
	Content          []any           `json:"content"` // part03, or an UnknownPart's bytes
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	Extensions       []string        `json:"extensions,omitempty"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds,omitempty"`
}

type part03 struct {
	Text     *string         `json:"text,omitempty"`
	File     *file03         `json:"file,omitempty"`
	Data     *data03         `json:"data,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

type file03 struct {
	FileWithURI   string `json:"fileWithUri,omitempty"`
	FileWithBytes string `json:"fileWithBytes,omitempty"`
	MimeType      string `json:"mimeType,omitempty"`
	Name          string `json:"name,omitempty"`
}

type data03 struct {
	Data json.RawMessage `json:"data"`
}

type artifact03 struct {
	ArtifactID  string          `json:"artifactId"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Parts       []any           `json:"parts"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
	Extensions  []string        `json:"extensions,omitempty"`
}

type statusUpdate03 struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId"`
	Status    status03        `json:"status"`
	Final     bool            `json:"final,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

type artifactUpdate03 struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId"`
	Artifact  artifact03      `json:"artifact"`
	Append    bool            `json:"append,omitempty"`
	LastChunk bool            `json:"lastChunk,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// stream03 is StreamResponse, and SendMessageResponse when only Task or
// Message is set.
type stream03 struct {
	Task           *task03           `json:"task,omitempty"`
	Message        *message03        `json:"message,omitempty"`
	StatusUpdate   *statusUpdate03   `json:"statusUpdate,omitempty"`
	ArtifactUpdate *artifactUpdate03 `json:"artifactUpdate,omitempty"`
}

// push03 is TaskPushNotificationConfig.
type push03 struct {
	Name                   string   `json:"name"`
	PushNotificationConfig pushIn03 `json:"pushNotificationConfig"`
}

func taskV03(t a2a.Task) *task03 {
	out := &task03{ID: t.ID, ContextID: t.ContextID, Status: statusV03(t.Status), Metadata: t.Metadata}
	for _, a := range t.Artifacts {
		out.Artifacts = append(out.Artifacts, artifactV03(a))
	}
	for _, m := range t.History {
		out.History = append(out.History, *messageV03(m))
	}
	return out
}

func statusV03(s a2a.TaskStatus) status03 {
	out := status03{State: stateV03(s.State), Timestamp: string(s.Timestamp)}
	if s.Message != nil {
		out.Message = messageV03(*s.Message)
	}
	return out
}

func messageV03(m a2a.Message) *message03 {
	return &message03{MessageID: m.MessageID, ContextID: m.ContextID, TaskID: m.TaskID, Role: roleV10(m.Role),
		Content: partsV03(m.Parts), Metadata: m.Metadata, Extensions: m.Extensions, ReferenceTaskIDs: m.ReferenceTaskIDs}
}

func artifactV03(a a2a.Artifact) artifact03 {
	return artifact03{ArtifactID: a.ArtifactID, Name: a.Name, Description: a.Description, Parts: partsV03(a.Parts),
		Metadata: a.Metadata, Extensions: a.Extensions}
}

// partsV03 writes each part in its v0.3 proto form; a FilePart's Bytes
// (base64 already) is the proto's bytes as ProtoJSON writes them, once;
// a DataPart with nil Data holds null; an UnknownPart is its Raw bytes.
func partsV03(ps a2a.Parts) []any {
	out := make([]any, 0, len(ps))
	for _, p := range ps {
		switch p := p.(type) {
		case a2a.TextPart:
			out = append(out, part03{Text: &p.Text, Metadata: p.Metadata})
		case a2a.DataPart:
			data := p.Data
			if data == nil {
				data = json.RawMessage("null")
			}
			out = append(out, part03{Data: &data03{Data: data}, Metadata: p.Metadata})
		case a2a.FilePart:
			f := p.File
			out = append(out, part03{File: &file03{FileWithURI: f.URI, FileWithBytes: f.Bytes, MimeType: f.MIMEType, Name: f.Name}, Metadata: p.Metadata})
		case a2a.UnknownPart:
			out = append(out, p.Raw)
		}
	}
	return out
}

// streamResponse03 wraps an event or a send result (a Task, Message,
// TaskStatusUpdateEvent or TaskArtifactUpdateEvent, or a pointer to one)
// in its StreamResponse member.
func streamResponse03(ev any) stream03 {
	switch e := ev.(type) {
	case *a2a.Task:
		return streamResponse03(*e)
	case *a2a.Message:
		return streamResponse03(*e)
	case *a2a.TaskStatusUpdateEvent:
		return streamResponse03(*e)
	case *a2a.TaskArtifactUpdateEvent:
		return streamResponse03(*e)
	case a2a.Task:
		return stream03{Task: taskV03(e)}
	case a2a.Message:
		return stream03{Message: messageV03(e)}
	case a2a.TaskStatusUpdateEvent:
		return stream03{StatusUpdate: &statusUpdate03{TaskID: e.TaskID, ContextID: e.ContextID, Status: statusV03(e.Status),
			Final: e.Final, Metadata: e.Metadata}}
	case a2a.TaskArtifactUpdateEvent:
		return stream03{ArtifactUpdate: &artifactUpdate03{TaskID: e.TaskID, ContextID: e.ContextID, Artifact: artifactV03(e.Artifact),
			Append: e.Append, LastChunk: e.LastChunk, Metadata: e.Metadata}}
	}
	return stream03{}
}

// pushV03 writes a stored config of a task.
func pushV03(taskID string, c a2a.PushNotificationConfig) push03 {
	out := push03{Name: "tasks/" + taskID + "/pushNotificationConfigs/" + c.ID,
		PushNotificationConfig: pushIn03{ID: c.ID, URL: c.URL, Token: c.Token}}
	if a := c.Authentication; a != nil {
		out.PushNotificationConfig.Authentication = &auth03{Schemes: a.Schemes, Credentials: a.Credentials}
	}
	return out
}
