package a2a

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
	"github.com/google/uuid"
)

// The HTTP+JSON binding of A2A v0.3 (A2A v0.3 §3.5.6; the google.api.http
// options of the v0.3 proto, specification/grpc/a2a.proto at tag v0.3.0),
// what hosted agents serve (Vertex AI Agent Engine, Python ADK
// deployments): /v1/ paths under the interface URL, no tenant, and the
// ProtoJSON of the v0.3 proto (read by wire_v03pb.go), which is neither
// v0.3 JSON-RPC nor v1.0. Requests are built with the v1.0 binding's
// path helpers (binding_rest.go); replies are checked by the same call
// path (restcall.go).

// The v0.3 proto's RPC names where v1.0 renamed them; the others
// (SendMessage, GetTask, …) are v1.0's.
const (
	methodSubscribePB       = "TaskSubscription"
	methodListPushConfigsPB = "ListTaskPushNotificationConfig"
	methodAgentCardPB       = "GetAgentCard"
)

// rest03 is the A2A v0.3 HTTP+JSON binding.
type rest03 struct{}

func (rest03) version() string   { return ProtocolV03 }
func (rest03) transport() string { return TransportHTTPJSON }

func (rest03) extensionsHeader() string { return "X-A2A-Extensions" }
func (rest03) tenant() string           { return "" }

// withTenant: v0.3 has no tenant; "" leaves the binding as it is.
func (b rest03) withTenant(tenant string) (binding, error) { return noTenant(b, tenant) }

// rest is the request of a call: verb on the path of pattern with ids.
func (rest03) rest(method, verb string, body any, pattern string, ids ...string) (*restRequest, error) {
	return newRESTRequest("", method, verb, body, pattern, ids...)
}

// sendMessagePB is the v0.3 proto's SendMessageRequest (its field
// request has the JSON name "message").
type sendMessagePB struct {
	Message       messagePBOut `json:"message"`
	Configuration sendConfigPB `json:"configuration"`
}

// sendConfigPB is SendMessageConfiguration.
type sendConfigPB struct {
	AcceptedOutputModes []string                `json:"acceptedOutputModes,omitempty"`
	PushNotification    *PushNotificationConfig `json:"pushNotification,omitempty"`
	HistoryLength       *int                    `json:"historyLength,omitempty"`
	Blocking            bool                    `json:"blocking"`
}

// messagePBOut is a Message as the v0.3 proto sends it: parts under
// "content", no referenceTaskIds.
type messagePBOut struct {
	MessageID  string          `json:"messageId"`
	ContextID  string          `json:"contextId,omitempty"`
	TaskID     string          `json:"taskId,omitempty"`
	Role       string          `json:"role"`
	Content    []any           `json:"content"` // partPBOut, or an UnknownPart's bytes
	Metadata   json.RawMessage `json:"metadata,omitzero"`
	Extensions []string        `json:"extensions,omitempty"`
}

// partPBOut is a known part as the v0.3 proto sends it.
type partPBOut struct {
	Text     *string         `json:"text,omitempty"`
	File     *filePBOut      `json:"file,omitempty"`
	Data     *dataPBOut      `json:"data,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitzero"`
}

// filePBOut is FilePart: one of the URI and the bytes.
type filePBOut struct {
	FileWithURI   string `json:"fileWithUri,omitempty"`
	FileWithBytes string `json:"fileWithBytes,omitempty"`
	MIMEType      string `json:"mimeType,omitempty"`
	Name          string `json:"name,omitempty"`
}

// dataPBOut is DataPart: a Struct under "data".
type dataPBOut struct {
	Data json.RawMessage `json:"data"`
}

// errReferenceTasksPB is sendMessage's error for a message the v0.3
// proto cannot carry.
var errReferenceTasksPB = errors.New("a2a: A2A v0.3 HTTP+JSON messages have no referenceTaskIds (the v0.3 proto's Message lacks the field); send them over JSON-RPC or A2A v1.0")

// messagePB encodes msg as the v0.3 proto sends it. A file's bytes are
// sent as base64 of FileContent.Bytes (the file's base64 text), as Python
// v0.3 agents read them (fileBytesPB). v1.0's mediaType and filename of
// text and data parts are left out, as on v0.3 JSON-RPC. Its error is for
// what the proto cannot carry: referenceTaskIds, a file with both bytes
// and a URI or neither, data that is not a JSON object (a Struct), an
// UnknownPart with a kind or without JSON bytes.
func messagePB(msg Message) (messagePBOut, error) {
	if len(msg.ReferenceTaskIDs) > 0 {
		return messagePBOut{}, errReferenceTasksPB
	}
	out := messagePBOut{MessageID: msg.MessageID, ContextID: msg.ContextID, TaskID: msg.TaskID, Role: v10RoleName(msg.Role),
		Content: make([]any, len(msg.Parts)), Metadata: msg.Metadata, Extensions: msg.Extensions}
	for i, p := range msg.Parts {
		switch p := p.(type) {
		case TextPart:
			out.Content[i] = partPBOut{Text: &p.Text, Metadata: p.Metadata}
		case DataPart:
			data := p.sentData()
			if len(data) == 0 || data[0] != '{' {
				return messagePBOut{}, fmt.Errorf("a2a: part %d: the A2A v0.3 proto carries data as a JSON object only", i)
			}
			out.Content[i] = partPBOut{Data: &dataPBOut{Data: data}, Metadata: p.Metadata}
		case FilePart:
			f := p.File
			file := &filePBOut{MIMEType: f.MIMEType, Name: f.Name}
			switch {
			case f.Bytes != "" && f.URI == "":
				file.FileWithBytes = base64.StdEncoding.EncodeToString([]byte(f.Bytes))
			case f.URI != "" && f.Bytes == "":
				file.FileWithURI = f.URI
			default:
				return messagePBOut{}, fmt.Errorf("a2a: part %d: a file needs exactly one of bytes and uri", i)
			}
			out.Content[i] = partPBOut{File: file, Metadata: p.Metadata}
		case UnknownPart:
			if p.PartKind != "" || len(p.Raw) == 0 || !json.Valid(p.Raw) {
				return messagePBOut{}, fmt.Errorf("a2a: part %d: an UnknownPart of kind %q cannot be sent in A2A v0.3 HTTP+JSON, which has no part kinds", i, p.PartKind)
			}
			out.Content[i] = p.Raw
		default:
			return messagePBOut{}, fmt.Errorf("a2a: part %d is nil", i)
		}
	}
	return out, nil
}

func (b rest03) sendMessage(msg Message, cfg callConfig, stream bool) (callSpec, error) {
	wire, err := messagePB(msg)
	if err != nil {
		return callSpec{}, err
	}
	body := sendMessagePB{Message: wire, Configuration: sendConfigPB{AcceptedOutputModes: cfg.outputModes,
		PushNotification: cfg.push, HistoryLength: cfg.historyLength, Blocking: cfg.blocking}}
	spec := sendCall(methodSendV10, methodStreamV10, msg.TaskID, nil, cfg, stream)
	pattern := "/v1/message:send"
	if stream {
		pattern = "/v1/message:stream"
	}
	if spec.rest, err = b.rest(spec.method, http.MethodPost, body, pattern); err != nil {
		return callSpec{}, err
	}
	return spec, nil
}

func (b rest03) getTask(id string, historyLength *int) callSpec {
	spec := callSpec{method: methodGetTaskV10, class: retryIdempotent, taskID: id}
	spec.rest, spec.err = b.rest(spec.method, http.MethodGet, nil, "/v1/tasks/{}", id)
	if historyLength != nil {
		spec.rest.query = url.Values{"historyLength": {strconv.Itoa(*historyLength)}}
	}
	return spec
}

// cancelTask sends no body: the proto's CancelTaskRequest holds only the
// name, which the path carries.
func (b rest03) cancelTask(id string) callSpec {
	spec := callSpec{method: methodCancelTaskV10, class: retryIdempotent, taskID: id}
	spec.rest, spec.err = b.rest(spec.method, http.MethodPost, nil, "/v1/tasks/{}:cancel", id)
	return spec
}

// resubscribe is GET, as the v0.3 proto says and Python v0.3 agents and
// Vertex AI serve it, and POST, what the v0.3 specification's prose says
// (a2a-js v0.3 agents before 0.3.14 took only POST), when the agent
// refuses GET.
func (b rest03) resubscribe(id string) callSpec {
	spec := callSpec{method: methodSubscribePB, class: retryIdempotent, stream: true, needs: capStreaming, taskID: id}
	spec.rest, spec.err = b.rest(spec.method, http.MethodGet, nil, "/v1/tasks/{}:subscribe", id)
	spec.rest.otherVerb = http.MethodPost
	return spec
}

// createPushPB is CreateTaskPushNotificationConfigRequest, the body Python
// v0.3 agents parse (strictly) and a2a-go's v0.3 client sends; the
// proto's own rule (body: "config") would send the config alone.
type createPushPB struct {
	Parent   string       `json:"parent"`
	ConfigID string       `json:"configId,omitempty"`
	Config   pushConfigPB `json:"config"`
}

// setPushConfig: the v0.3 proto's configId is required (and the config's
// resource name holds it), where the other bindings let the agent assign
// one; a config without an id is given a fresh UUID, sent as configId,
// in the name and as the config's id, once for every retry.
func (b rest03) setPushConfig(cfg TaskPushNotificationConfig) (callSpec, error) {
	p := cfg.PushNotificationConfig
	if p.ID == "" {
		p.ID = uuid.NewString()
	}
	body := createPushPB{Parent: pushName(cfg.TaskID, ""), ConfigID: p.ID,
		Config: pushConfigPB{Name: pushName(cfg.TaskID, p.ID), Config: &p}}
	spec := pushSpec(methodSetPushConfigV10, cfg, nil)
	var err error
	if spec.rest, err = b.rest(spec.method, http.MethodPost, body, "/v1/tasks/{}/pushNotificationConfigs", cfg.TaskID); err != nil {
		return callSpec{}, err
	}
	return spec, nil
}

// getPushConfig's error is for a call without a config id: the v0.3
// proto's path names one.
func (b rest03) getPushConfig(taskID, configID string) (callSpec, error) {
	if configID == "" {
		return callSpec{}, errors.New("a2a: GetTaskPushNotificationConfig: A2A v0.3 HTTP+JSON needs the config id (its path names it)")
	}
	spec := callSpec{method: methodGetPushConfigV10, class: retryIdempotent, needs: capPush, taskID: taskID, configID: configID}
	var err error
	if spec.rest, err = b.rest(spec.method, http.MethodGet, nil, "/v1/tasks/{}/pushNotificationConfigs/{}", taskID, configID); err != nil {
		return callSpec{}, err
	}
	return spec, nil
}

func (b rest03) listPushConfigs(taskID, pageToken string) callSpec {
	spec := callSpec{method: methodListPushConfigsPB, class: retryIdempotent, needs: capPush, taskID: taskID}
	spec.rest, spec.err = b.rest(spec.method, http.MethodGet, nil, "/v1/tasks/{}/pushNotificationConfigs", taskID)
	if pageToken != "" {
		spec.rest.query = url.Values{"pageToken": {pageToken}}
	}
	return spec
}

func (b rest03) deletePushConfig(taskID, configID string) callSpec {
	spec := callSpec{method: methodDeletePushConfigV10, class: retryIdempotent, needs: capPush, nullResult: true}
	spec.rest, spec.err = b.rest(spec.method, http.MethodDelete, nil, "/v1/tasks/{}/pushNotificationConfigs/{}", taskID, configID)
	return spec
}

func (b rest03) extendedCard() callSpec {
	spec := callSpec{method: methodAgentCardPB, class: retryIdempotent, needs: capExtendedCard}
	spec.rest, spec.err = b.rest(spec.method, http.MethodGet, nil, "/v1/card")
	return spec
}

// listTasks sends GET /v1/tasks, which only the v0.3 specification's
// table has (no rpc in the v0.3 proto; Python v0.3 agents do not serve
// it), with v1.0's query names and the v0.3 proto's state names. Its
// error is as v1.0's.
func (b rest03) listTasks(req ListTasksRequest, historyLength *int) (callSpec, error) {
	spec, err := v10{}.listTasks(req, historyLength)
	if err != nil {
		return callSpec{}, err
	}
	p := spec.params.(listTasksRequest)
	spec.params = nil
	if p.Status != "" {
		p.Status, _ = v03pbStateName(req.Status)
	}
	if spec.rest, err = b.rest(spec.method, http.MethodGet, nil, "/v1/tasks"); err != nil {
		return callSpec{}, err
	}
	spec.rest.query = listTasksQuery(p)
	return spec, nil
}

// The results.

// sendPBNames and streamPBNames are the top-level members of the v0.3
// proto's SendMessageResponse and StreamResponse, under their JSON and
// proto names (the message field is msg, JSON name "message"); "kind" is
// there to tell a v0.3 JSON-RPC result.
var (
	sendPBNames   = jsonread.NewNameSet("task", "message", "msg", "kind")
	streamPBNames = jsonread.NewNameSet("task", "message", "msg", "statusUpdate", "artifactUpdate", "status_update", "artifact_update", "kind")
)

// v03pbResults reads the v0.3 proto's results.
var v03pbResults = protoResults{sendNames: sendPBNames, streamNames: streamPBNames, task: taskPBFields,
	message: messagePBFields, status: statusEventPBFields, artifact: artifactEventPBFields}

func (rest03) sendResult(r *reply) (SendResult, error) { return v03pbResults.sendResult(r) }

// task reads GetTask's and CancelTask's result: a bare Task.
func (rest03) task(r *reply) (*Task, error) { return v03pbResults.bareTask(r) }

// event reads a StreamResponse; a status update's "final" is the
// agent's, and set at a terminal or interrupted state too.
func (rest03) event(r *reply) (Event, error) { return v03pbResults.event(r) }

// pushConfig reads a TaskPushNotificationConfig (pushConfigPB.public).
func (rest03) pushConfig(r *reply) (*TaskPushNotificationConfig, error) {
	p, err := jsonResult[pushConfigPB](r, "result", false)
	if err != nil {
		return nil, err
	}
	cfg, err := p.public(r)
	if err != nil {
		return nil, err
	}
	return &cfg, nil
}

// pushConfigs reads ListTaskPushNotificationConfigResponse, {"configs":
// […], "nextPageToken": …}, or a bare array of configs (the v0.3
// specification's table); null or an empty body is none.
func (rest03) pushConfigs(r *reply) ([]TaskPushNotificationConfig, string, error) {
	var list []pushConfigPB
	next := ""
	if len(r.result) > 0 && r.result[0] == '[' {
		l, err := jsonResult[[]pushConfigPB](r, "result", true)
		if err != nil {
			return nil, "", err
		}
		list = *l
	} else {
		page, err := jsonResult[pushConfigPBList](r, "result", true)
		if err != nil || page == nil {
			return []TaskPushNotificationConfig{}, "", err
		}
		list, next = page.Configs, page.NextPageToken
		switch {
		case next == "":
			next = page.NextPageTokenProto
		case page.NextPageTokenProto != "" && page.NextPageTokenProto != next:
			return nil, "", r.fault(`member "next_page_token" appears twice in one object, as "nextPageToken" and "next_page_token"`, nil)
		}
	}
	out := make([]TaskPushNotificationConfig, 0, len(list))
	for _, p := range list {
		cfg, err := p.public(r)
		if err != nil {
			return nil, "", err
		}
		out = append(out, cfg)
	}
	return out, next, nil
}

// taskPage reads a ListTasksResponse of v0.3 proto tasks.
func (rest03) taskPage(r *reply) (*ListTasksResponse, error) {
	return readTaskPage(r, listTasksPBFields)
}

// extendedCardResult reads GET /v1/card: the v0.3 proto's AgentCard in
// ProtoJSON, or the v0.3 JSON card Python v0.3 agents serve there; both
// read onto AgentCard (its security requirements in either form), Raw
// kept.
func (rest03) extendedCardResult(r *reply) (*AgentCard, error) {
	return jsonResult[AgentCard](r, "result", false)
}

func (rest03) card(r *reply) (*AgentCard, error) { return readCard(r) }

func (rest03) requires(card *AgentCard, need capability) (string, bool) {
	return v03{}.requires(card, need)
}

// hint: an agent that refuses v0.3 (VERSION_NOT_SUPPORTED) may serve
// v1.0's HTTP+JSON at this URL.
func (rest03) hint(e *RPCError) {
	if e.Code == codeVersionNotSupported {
		e.Hint = "the agent refuses A2A v0.3: if it speaks v1.0, make the client with WithProtocolVersion(ProtocolV10), or from its agent card with NewClientFromCard"
	}
}
