package a2a

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// The A2A v1.0 JSON-RPC binding (A2A v1.0, JSON-RPC protocol binding): its
// method names (the gRPC RPC names), its params (the proto's request
// messages in ProtoJSON, each with the interface's tenant), its results
// (wrapped as {"task": …} or {"message": …} where the proto has a oneof,
// read by wire_v10.go) and its card fields.

// The v1.0 method names.
const (
	methodSendV10             = "SendMessage"
	methodStreamV10           = "SendStreamingMessage"
	methodGetTaskV10          = "GetTask"
	methodListTasksV10        = "ListTasks"
	methodCancelTaskV10       = "CancelTask"
	methodSubscribeV10        = "SubscribeToTask"
	methodSetPushConfigV10    = "CreateTaskPushNotificationConfig"
	methodGetPushConfigV10    = "GetTaskPushNotificationConfig"
	methodListPushConfigsV10  = "ListTaskPushNotificationConfigs"
	methodDeletePushConfigV10 = "DeleteTaskPushNotificationConfig"
	methodExtendedCardV10     = "GetExtendedAgentCard"
)

// v10 is the A2A v1.0 binding. tenant is sent in every request's params
// when set (A2A v1.0, multi-tenancy).
type v10 struct {
	tenantName string
}

func (v10) version() string { return ProtocolV10 }

func (v10) extensionsHeader() string { return "A2A-Extensions" }
func (v10) transport() string        { return TransportJSONRPC }
func (b v10) tenant() string         { return b.tenantName }

func (v10) withTenant(tenant string) (binding, error) { return v10{tenantName: tenant}, nil }

// sendMessageRequest is SendMessageRequest.
type sendMessageRequest struct {
	Tenant        string         `json:"tenant,omitempty"`
	Message       messageV10Out  `json:"message"`
	Configuration *sendConfigV10 `json:"configuration,omitempty"`
}

// sendConfigV10 is SendMessageConfiguration. returnImmediately false, the
// default, is blocking.
type sendConfigV10 struct {
	AcceptedOutputModes []string `json:"acceptedOutputModes,omitempty"`
	HistoryLength       *int     `json:"historyLength,omitempty"`
	ReturnImmediately   bool     `json:"returnImmediately,omitempty"`
	// TaskPushNotificationConfig is the webhook registered with the
	// message, its taskId left empty (the agent assigns the task).
	TaskPushNotificationConfig *pushConfigV10 `json:"taskPushNotificationConfig,omitempty"`
}

// messageV10Out is a Message as v1.0 sends it.
type messageV10Out struct {
	MessageID        string          `json:"messageId"`
	Role             string          `json:"role"`
	Parts            []any           `json:"parts"` // partV10Out, or an UnknownPart's bytes
	TaskID           string          `json:"taskId,omitempty"`
	ContextID        string          `json:"contextId,omitempty"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds,omitempty"`
	Extensions       []string        `json:"extensions,omitempty"`
	Metadata         json.RawMessage `json:"metadata,omitzero"`
}

// partV10Out is a known part as v1.0 sends it: one content member.
type partV10Out struct {
	Text      *string         `json:"text,omitempty"`
	Raw       *string         `json:"raw,omitempty"`
	URL       *string         `json:"url,omitempty"`
	Data      json.RawMessage `json:"data,omitzero"`
	MediaType string          `json:"mediaType,omitempty"`
	Filename  string          `json:"filename,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitzero"`
}

// v10RoleName is the v1.0 spelling of a role; a role of neither constant
// is sent as it is.
func v10RoleName(r Role) string {
	switch r {
	case RoleUser:
		return "ROLE_USER"
	case RoleAgent:
		return "ROLE_AGENT"
	}
	return string(r)
}

// v10StateName is the v1.0 spelling of a state: TASK_STATE_* for the
// constants (unknown is TASK_STATE_UNSPECIFIED); ok is false for a state
// v1.0 has no name for.
func v10StateName(s TaskState) (string, bool) {
	if m, _ := canonicalState(s); m.Known() {
		for _, name := range v10States {
			if v, _ := canonicalState(TaskState(name)); v == m {
				return name, true
			}
		}
	}
	return "", false
}

// messageV10 encodes msg as v1.0 sends it. Its error is for a part v1.0
// cannot carry: a file with both bytes and a URI or neither, an
// UnknownPart of a v0.3 kind or without bytes.
func messageV10(msg Message) (messageV10Out, error) {
	out := messageV10Out{MessageID: msg.MessageID, Role: v10RoleName(msg.Role), Parts: make([]any, len(msg.Parts)),
		TaskID: msg.TaskID, ContextID: msg.ContextID, ReferenceTaskIDs: msg.ReferenceTaskIDs, Extensions: msg.Extensions,
		Metadata: msg.Metadata}
	for i, p := range msg.Parts {
		switch p := p.(type) {
		case TextPart:
			out.Parts[i] = partV10Out{Text: &p.Text, MediaType: p.MediaType, Filename: p.Filename, Metadata: p.Metadata}
		case DataPart:
			out.Parts[i] = partV10Out{Data: p.sentData(), MediaType: p.MediaType, Filename: p.Filename, Metadata: p.Metadata}
		case FilePart:
			f := p.File
			part := partV10Out{MediaType: f.MIMEType, Filename: f.Name, Metadata: p.Metadata}
			switch {
			case f.Bytes != "" && f.URI == "":
				part.Raw = &f.Bytes
			case f.URI != "" && f.Bytes == "":
				part.URL = &f.URI
			default:
				return messageV10Out{}, fmt.Errorf("a2a: part %d: a file needs exactly one of bytes and uri", i)
			}
			out.Parts[i] = part
		case UnknownPart:
			if p.PartKind != "" || len(p.Raw) == 0 || !json.Valid(p.Raw) {
				return messageV10Out{}, fmt.Errorf("a2a: part %d: an UnknownPart of kind %q cannot be sent in A2A v1.0, which has no part kinds", i, p.PartKind)
			}
			out.Parts[i] = p.Raw
		default:
			return messageV10Out{}, fmt.Errorf("a2a: part %d is nil", i)
		}
	}
	return out, nil
}

func (b v10) sendMessage(msg Message, cfg callConfig, stream bool) (callSpec, error) {
	wire, err := messageV10(msg)
	if err != nil {
		return callSpec{}, err
	}
	req := sendMessageRequest{Tenant: b.tenantName, Message: wire}
	conf := sendConfigV10{AcceptedOutputModes: cfg.outputModes, HistoryLength: cfg.historyLength, ReturnImmediately: !cfg.blocking}
	if cfg.push != nil {
		if conf.TaskPushNotificationConfig, err = pushV10(TaskPushNotificationConfig{PushNotificationConfig: *cfg.push}, ""); err != nil {
			return callSpec{}, err
		}
	}
	if conf.AcceptedOutputModes != nil || conf.HistoryLength != nil || conf.ReturnImmediately || conf.TaskPushNotificationConfig != nil {
		req.Configuration = &conf
	}
	spec := sendCall(methodSendV10, methodStreamV10, msg.TaskID, req, cfg, stream)
	spec.tenant = b.tenantName
	return spec, nil
}

// taskRequest is GetTaskRequest, CancelTaskRequest and
// SubscribeToTaskRequest.
type taskRequest struct {
	Tenant        string `json:"tenant,omitempty"`
	ID            string `json:"id"`
	HistoryLength *int   `json:"historyLength,omitempty"`
}

func (b v10) getTask(id string, historyLength *int) callSpec {
	return callSpec{method: methodGetTaskV10, tenant: b.tenantName, params: taskRequest{Tenant: b.tenantName, ID: id, HistoryLength: historyLength},
		class: retryIdempotent, taskID: id}
}

func (b v10) cancelTask(id string) callSpec {
	return callSpec{method: methodCancelTaskV10, tenant: b.tenantName, params: taskRequest{Tenant: b.tenantName, ID: id}, class: retryIdempotent, taskID: id}
}

func (b v10) resubscribe(id string) callSpec {
	return callSpec{method: methodSubscribeV10, tenant: b.tenantName, params: taskRequest{Tenant: b.tenantName, ID: id}, class: retryIdempotent,
		stream: true, needs: capStreaming, taskID: id}
}

// tenantRequest is GetExtendedAgentCardRequest: always sent, as {} when
// there is no tenant (a2a-go's server fails on a request without params).
type tenantRequest struct {
	Tenant string `json:"tenant,omitempty"`
}

func (b v10) extendedCard() callSpec {
	return callSpec{method: methodExtendedCardV10, tenant: b.tenantName, params: tenantRequest{Tenant: b.tenantName}, class: retryIdempotent, needs: capExtendedCard}
}

// listTasksRequest is ListTasksRequest.
type listTasksRequest struct {
	Tenant               string `json:"tenant,omitempty"`
	ContextID            string `json:"contextId,omitempty"`
	Status               string `json:"status,omitempty"`
	PageSize             *int   `json:"pageSize,omitempty"`
	PageToken            string `json:"pageToken,omitempty"`
	HistoryLength        *int   `json:"historyLength,omitempty"`
	StatusTimestampAfter string `json:"statusTimestampAfter,omitempty"`
	IncludeArtifacts     *bool  `json:"includeArtifacts,omitempty"`
}

// listTasks is the spec of ListTasks for req; historyLength is the
// call's. Its error is for a state that cannot filter: one v1.0 has no
// name for, and unknown (TASK_STATE_UNSPECIFIED, which as a filter means
// any state).
func (b v10) listTasks(req ListTasksRequest, historyLength *int) (callSpec, error) {
	if m, _ := canonicalState(req.Status); m == TaskStateUnknown {
		return callSpec{}, errors.New(`a2a: ListTasks: state unknown cannot filter (A2A v1.0's TASK_STATE_UNSPECIFIED means any state); leave Status "" for any`)
	}
	out := listTasksRequest{Tenant: b.tenantName, ContextID: req.ContextID, PageToken: req.PageToken, HistoryLength: historyLength}
	if req.Status != "" {
		name, ok := v10StateName(req.Status)
		if !ok {
			return callSpec{}, fmt.Errorf("a2a: ListTasks: state %q has no A2A v1.0 name", req.Status)
		}
		out.Status = name
	}
	if req.PageSize != 0 {
		out.PageSize = &req.PageSize
	}
	if !req.StatusTimestampAfter.IsZero() {
		out.StatusTimestampAfter = req.StatusTimestampAfter.UTC().Format("2006-01-02T15:04:05.000Z")
	}
	if req.IncludeArtifacts {
		out.IncludeArtifacts = &req.IncludeArtifacts
	}
	return callSpec{method: methodListTasksV10, tenant: b.tenantName, params: out, class: retryIdempotent}, nil
}

// The results.

// sendNames, streamNames and bareTaskNames are the top-level members of
// a SendMessageResponse, a StreamResponse and a bare Task result that
// unwrap looks at; "kind" is there to tell a v0.3 reply.
var (
	sendNames     = jsonread.NewNameSet("task", "message", "kind")
	streamNames   = jsonread.NewNameSet("task", "message", "statusUpdate", "artifactUpdate", "status_update", "artifact_update", "kind")
	bareTaskNames = jsonread.NewNameSet("task", "id", "kind")
)

// unwrap reads the top level of a result against names and returns the
// one member that is set (present and not null), with the sub-reply
// holding its value, or "" when none is. A result that is null or not an
// object, has more than one member set, or has a "kind" (an A2A v0.3
// reply: [ErrVersionMismatch]) is a *ProtocolError; so is a name fault.
func unwrap(r *reply, names *jsonread.NameSet, what string) (string, *reply, error) {
	if isNull(r.result) {
		return "", nil, r.fault("result is null where "+what+" is due", nil)
	}
	d := r.reader()
	defer d.Release()
	if d.Peek() != '{' {
		return "", nil, r.fault("result is not a JSON object", nil)
	}
	var set [2]string // the first two members set, of n
	n := 0
	var val []byte
	at := 0 // val's offset in r.result
	kind := false
	d.Object(names, nil, func(i int) {
		name := names.Name(i)
		v := d.Raw()
		start := d.Pos() - len(v)
		switch {
		case name == "kind":
			kind = true
		case !isNull(v):
			if n < len(set) {
				set[n] = name
			}
			n, val, at = n+1, v, start
		}
	})
	switch {
	case d.Fault() != "":
		return "", nil, r.fault(d.Fault(), nil)
	case kind:
		return "", nil, r.fault(`result has "kind", A2A v0.3 JSON-RPC's shape, where a proto-shaped `+what+" is due (A2A v1.0, or v0.3 over HTTP+JSON)", ErrVersionMismatch)
	case n == 0:
		return "", nil, nil
	case n > 1:
		return "", nil, r.fault(fmt.Sprintf("result has both %q and %q; the proto allows one", set[0], set[1]), nil)
	}
	sub := *r
	sub.result, sub.base = val, r.base+at
	return set[0], &sub, nil
}

// v10Results reads v1.0's results, on both transports.
var v10Results = protoResults{sendNames: sendNames, streamNames: streamNames, task: taskV10Fields,
	message: messageV10Fields, status: statusEventV10Fields, artifact: artifactEventV10Fields}

func (v10) sendResult(r *reply) (SendResult, error) { return v10Results.sendResult(r) }

// task reads GetTask's and CancelTask's result: a bare Task. A v0.3 task
// ("kind") matches [ErrVersionMismatch].
func (v10) task(r *reply) (*Task, error) { return v10Results.bareTask(r) }

func (v10) event(r *reply) (Event, error) { return v10Results.event(r) }

func (v10) extendedCardResult(r *reply) (*AgentCard, error) {
	return jsonResult[AgentCard](r, "result", false)
}

func (v10) card(r *reply) (*AgentCard, error) { return readCard(r) }

func (v10) requires(card *AgentCard, need capability) (string, bool) {
	return requires(card, need, "capabilities.extendedAgentCard")
}

// hint: an agent that refuses v1.0 (-32009) may speak v0.3; so may one
// that answers a v1.0 method with a bare -32601, but a v1.0 agent also
// answers so for a method it lacks, so that is only a hint, not
// ErrVersionMismatch.
func (v10) hint(e *RPCError) {
	switch {
	case e.Code == codeVersionNotSupported:
		e.Hint = "the agent refuses A2A v1.0: if it speaks v0.3, make the client with WithProtocolVersion(ProtocolV03), or from its agent card with NewClientFromCard"
	case e.Code == -32601 && len(e.Details) == 0:
		e.Hint = "if the agent speaks A2A v0.3, make the client with WithProtocolVersion(ProtocolV03), or from its agent card with NewClientFromCard"
	}
}

// taskPage reads a ListTasksResponse.
func (v10) taskPage(r *reply) (*ListTasksResponse, error) { return readTaskPage(r, listTasksV10Fields) }

// readTaskPage reads a ListTasksResponse with t, the version's table.
// Missing members are their defaults (ProtoJSON writers leave them out):
// no tasks, the last page. A null result and a task without an id are
// *ProtocolErrors.
func readTaskPage(r *reply, t jsonread.Table[ListTasksResponse]) (*ListTasksResponse, error) {
	if isNull(r.result) {
		return nil, r.fault("result is null where a ListTasksResponse is due", nil)
	}
	l, err := decodeAs(r, t, "ListTasks result")
	if err != nil {
		return nil, err
	}
	if l.Tasks == nil {
		l.Tasks = []*Task{}
	}
	l.raw = r.own()
	for _, t := range l.Tasks {
		if t.ID == "" {
			return nil, r.fault(`a task in the ListTasks result has no "id"`, nil)
		}
	}
	return l, nil
}
