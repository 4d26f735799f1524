package a2atest

import (
	"encoding/json"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The A2A v1.0 writer: the a2a types in ProtoJSON, as a v1.0 agent sends
// them. Written here, apart from the client's decoder, so the client is
// tested against an encoding it did not write. What differs from v0.3: no
// "kind" anywhere, TASK_STATE_* and ROLE_* names, flat parts ({"text": …},
// {"data": …}, {"raw": …} or {"url": …} with "mediaType" and "filename"),
// results wrapped where the proto has a oneof ({"task": …}), no "final".
// Members that hold their default are left out, as ProtoJSON writers do.

// v10States are the v1.0 names of the SDK's states.
var v10States = map[a2a.TaskState]string{
	a2a.TaskStateSubmitted:     "TASK_STATE_SUBMITTED",
	a2a.TaskStateWorking:       "TASK_STATE_WORKING",
	a2a.TaskStateCompleted:     "TASK_STATE_COMPLETED",
	a2a.TaskStateFailed:        "TASK_STATE_FAILED",
	a2a.TaskStateCanceled:      "TASK_STATE_CANCELED",
	a2a.TaskStateInputRequired: "TASK_STATE_INPUT_REQUIRED",
	a2a.TaskStateRejected:      "TASK_STATE_REJECTED",
	a2a.TaskStateAuthRequired:  "TASK_STATE_AUTH_REQUIRED",
	a2a.TaskStateUnknown:       "TASK_STATE_UNSPECIFIED",
}

// stateV10 is a state's v1.0 name; a state without one (a test's made-up
// state) is written as it is.
func stateV10(s a2a.TaskState) string {
	if name, ok := v10States[s]; ok {
		return name
	}
	return string(s)
}

// roleV10 is a role's v1.0 name; another role is written as it is.
func roleV10(r a2a.Role) string {
	switch r {
	case a2a.RoleUser:
		return "ROLE_USER"
	case a2a.RoleAgent:
		return "ROLE_AGENT"
	}
	return string(r)
}

type taskOut struct {
	ID        string          `json:"id"`
	ContextID string          `json:"contextId,omitempty"`
	Status    statusOut       `json:"status"`
	Artifacts []artifactOut   `json:"artifacts,omitempty"`
	History   []messageOut    `json:"history,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

type statusOut struct {
	State     string      `json:"state,omitempty"`
	Message   *messageOut `json:"message,omitempty"`
	Timestamp string      `json:"timestamp,omitempty"`
}

type messageOut struct {
	MessageID        string          `json:"messageId"`
	ContextID        string          `json:"contextId,omitempty"`
	TaskID           string          `json:"taskId,omitempty"`
	Role             string          `json:"role,omitempty"`
	Parts            []any           `json:"parts"` // partOut, or an UnknownPart's bytes
	Metadata         json.RawMessage `json:"metadata,omitempty"`
	Extensions       []string        `json:"extensions,omitempty"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds,omitempty"`
}

// partOut is a Part: one content member, and the members of every part.
type partOut struct {
	Text      *string         `json:"text,omitempty"`
	Raw       string          `json:"raw,omitempty"`
	URL       string          `json:"url,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
	Filename  string          `json:"filename,omitempty"`
	MediaType string          `json:"mediaType,omitempty"`
}

type artifactOut struct {
	ArtifactID  string          `json:"artifactId"`
	Name        string          `json:"name,omitempty"`
	Description string          `json:"description,omitempty"`
	Parts       []any           `json:"parts"`
	Metadata    json.RawMessage `json:"metadata,omitempty"`
	Extensions  []string        `json:"extensions,omitempty"`
}

type statusUpdateOut struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId"`
	Status    statusOut       `json:"status"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

type artifactUpdateOut struct {
	TaskID    string          `json:"taskId"`
	ContextID string          `json:"contextId"`
	Artifact  artifactOut     `json:"artifact"`
	Append    bool            `json:"append,omitempty"`
	LastChunk bool            `json:"lastChunk,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

// streamResponse is StreamResponse, and SendMessageResponse when only
// Task or Message is set: exactly one member.
type streamResponse struct {
	Task           *taskOut           `json:"task,omitempty"`
	Message        *messageOut        `json:"message,omitempty"`
	StatusUpdate   *statusUpdateOut   `json:"statusUpdate,omitempty"`
	ArtifactUpdate *artifactUpdateOut `json:"artifactUpdate,omitempty"`
}

func taskV10(t a2a.Task) *taskOut {
	out := &taskOut{ID: t.ID, ContextID: t.ContextID, Status: statusV10(t.Status), Metadata: t.Metadata}
	for _, a := range t.Artifacts {
		out.Artifacts = append(out.Artifacts, artifactV10(a))
	}
	for _, m := range t.History {
		out.History = append(out.History, *messageV10(m))
	}
	return out
}

func statusV10(s a2a.TaskStatus) statusOut {
	out := statusOut{State: stateV10(s.State), Timestamp: string(s.Timestamp)}
	if s.Message != nil {
		out.Message = messageV10(*s.Message)
	}
	return out
}

func messageV10(m a2a.Message) *messageOut {
	return &messageOut{MessageID: m.MessageID, ContextID: m.ContextID, TaskID: m.TaskID, Role: roleV10(m.Role),
		Parts: partsV10(m.Parts), Metadata: m.Metadata, Extensions: m.Extensions, ReferenceTaskIDs: m.ReferenceTaskIDs}
}

func artifactV10(a a2a.Artifact) artifactOut {
	return artifactOut{ArtifactID: a.ArtifactID, Name: a.Name, Description: a.Description, Parts: partsV10(a.Parts),
		Metadata: a.Metadata, Extensions: a.Extensions}
}

// partsV10 writes each part by its content: a FilePart as "raw" (its
// bytes) or "url", with its name and MIME type as "filename" and
// "mediaType"; a DataPart with nil Data as "data": null; an UnknownPart as
// its Raw bytes, so a test can send any part.
func partsV10(ps a2a.Parts) []any {
	out := make([]any, 0, len(ps))
	for _, p := range ps {
		switch p := p.(type) {
		case a2a.TextPart:
			out = append(out, partOut{Text: &p.Text, MediaType: p.MediaType, Filename: p.Filename, Metadata: p.Metadata})
		case a2a.DataPart:
			data := p.Data
			if data == nil {
				data = json.RawMessage("null")
			}
			out = append(out, partOut{Data: data, MediaType: p.MediaType, Filename: p.Filename, Metadata: p.Metadata})
		case a2a.FilePart:
			out = append(out, partOut{Raw: p.File.Bytes, URL: p.File.URI, MediaType: p.File.MIMEType, Filename: p.File.Name, Metadata: p.Metadata})
		case a2a.UnknownPart:
			out = append(out, p.Raw)
		}
	}
	return out
}

// streamResponseOf wraps an event or a send result (a Task, Message,
// TaskStatusUpdateEvent or TaskArtifactUpdateEvent, or a pointer to one)
// in its StreamResponse member. A status update's Final is not written:
// v1.0 has none.
func streamResponseOf(ev any) streamResponse {
	switch e := ev.(type) {
	case *a2a.Task:
		return streamResponseOf(*e)
	case *a2a.Message:
		return streamResponseOf(*e)
	case *a2a.TaskStatusUpdateEvent:
		return streamResponseOf(*e)
	case *a2a.TaskArtifactUpdateEvent:
		return streamResponseOf(*e)
	case a2a.Task:
		return streamResponse{Task: taskV10(e)}
	case a2a.Message:
		return streamResponse{Message: messageV10(e)}
	case a2a.TaskStatusUpdateEvent:
		return streamResponse{StatusUpdate: &statusUpdateOut{TaskID: e.TaskID, ContextID: e.ContextID, Status: statusV10(e.Status), Metadata: e.Metadata}}
	case a2a.TaskArtifactUpdateEvent:
		return streamResponse{ArtifactUpdate: &artifactUpdateOut{TaskID: e.TaskID, ContextID: e.ContextID,
			Artifact: artifactV10(e.Artifact), Append: e.Append, LastChunk: e.LastChunk, Metadata: e.Metadata}}
	}
	return streamResponse{}
}

// pushConfigV10 is TaskPushNotificationConfig, v1.0's flat push config,
// as read and written.
type pushConfigV10 struct {
	Tenant         string   `json:"tenant,omitempty"`
	ID             string   `json:"id,omitempty"`
	TaskID         string   `json:"taskId,omitempty"`
	URL            string   `json:"url"`
	Token          string   `json:"token,omitempty"`
	Authentication *authV10 `json:"authentication,omitempty"`
}

// authV10 is AuthenticationInfo: one scheme.
type authV10 struct {
	Scheme      string `json:"scheme"`
	Credentials string `json:"credentials,omitempty"`
}

// pushV10 writes a stored config of a task; the first of its schemes is
// the scheme.
func pushV10(taskID string, c a2a.PushNotificationConfig) pushConfigV10 {
	out := pushConfigV10{ID: c.ID, TaskID: taskID, URL: c.URL, Token: c.Token}
	if a := c.Authentication; a != nil {
		out.Authentication = &authV10{Credentials: a.Credentials}
		if len(a.Schemes) > 0 {
			out.Authentication.Scheme = a.Schemes[0]
		}
	}
	return out
}

// stored is the config as the store keeps it.
func (p pushConfigV10) stored() a2a.PushNotificationConfig {
	cfg := a2a.PushNotificationConfig{ID: p.ID, URL: p.URL, Token: p.Token}
	if a := p.Authentication; a != nil {
		cfg.Authentication = &a2a.PushNotificationAuthenticationInfo{Schemes: []string{a.Scheme}, Credentials: a.Credentials}
	}
	return cfg
}

// listTasksOut is ListTasksResponse, every member written (the spec wants
// nextPageToken present, "" on the last page).
type listTasksOut struct {
	Tasks         []*taskOut `json:"tasks"`
	NextPageToken string     `json:"nextPageToken"`
	PageSize      int        `json:"pageSize"`
	TotalSize     int        `json:"totalSize"`
}

// errorInfo is a google.rpc.ErrorInfo detail as ProtoJSON writes an Any.
type errorInfo struct {
	Type     string            `json:"@type"`
	Reason   string            `json:"reason"`
	Domain   string            `json:"domain"`
	Metadata map[string]string `json:"metadata,omitempty"`
}

// errorReasons are the ErrorInfo reasons of the codes (A2A v1.0, error
// handling; the standard codes as a2a-go names them).
var errorReasons = map[int]string{
	-32700: "PARSE_ERROR",
	-32600: "INVALID_REQUEST",
	-32601: "METHOD_NOT_FOUND",
	-32602: "INVALID_PARAMS",
	-32603: "INTERNAL_ERROR",
	-32001: "TASK_NOT_FOUND",
	-32002: "TASK_NOT_CANCELABLE",
	-32003: "PUSH_NOTIFICATION_NOT_SUPPORTED",
	-32004: "UNSUPPORTED_OPERATION",
	-32005: "CONTENT_TYPE_NOT_SUPPORTED",
	-32006: "INVALID_AGENT_RESPONSE",
	-32007: "EXTENDED_AGENT_CARD_NOT_CONFIGURED",
	-32008: "EXTENSION_SUPPORT_REQUIRED",
	-32009: "VERSION_NOT_SUPPORTED",
}

// errorDetails is the "data" of a v1.0 error with code: one ErrorInfo;
// nil for a code without a reason.
func errorDetails(code int) []errorInfo {
	reason, ok := errorReasons[code]
	if !ok {
		return nil
	}
	return []errorInfo{{Type: "type.googleapis.com/google.rpc.ErrorInfo", Reason: reason, Domain: "a2a-protocol.org"}}
}
