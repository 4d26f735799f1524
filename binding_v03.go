package a2a

import (
	"encoding/json"
	"slices"
	"strconv"
)

// The A2A v0.3 JSON-RPC binding (A2A v0.3 §7): its method names and
// params, the one-pass encoding of an outgoing message, its results (read
// by wire_v03.go, which tells them apart by "kind" or shape) and the
// card's capability fields. Agent cards of every version are read by
// readCard (card_v10.go).

// The v0.3 method names.
const (
	methodSend             = "message/send"
	methodStream           = "message/stream"
	methodGetTask          = "tasks/get"
	methodCancelTask       = "tasks/cancel"
	methodResubscribe      = "tasks/resubscribe"
	methodSetPushConfig    = "tasks/pushNotificationConfig/set"
	methodGetPushConfig    = "tasks/pushNotificationConfig/get"
	methodListPushConfigs  = "tasks/pushNotificationConfig/list"
	methodDeletePushConfig = "tasks/pushNotificationConfig/delete"
	methodExtendedCard     = "agent/getAuthenticatedExtendedCard"
)

// v03 is the A2A v0.3 binding.
type v03 struct{}

func (v03) version() string   { return ProtocolV03 }
func (v03) transport() string { return TransportJSONRPC }

func (v03) extensionsHeader() string { return "X-A2A-Extensions" }
func (v03) tenant() string           { return "" }

// withTenant: v0.3 has no tenant; "" leaves the binding as it is.
func (b v03) withTenant(tenant string) (binding, error) { return noTenant(b, tenant) }

// noTenant is withTenant of a version without tenants: b for "", else
// errTenantV03.
func noTenant(b binding, tenant string) (binding, error) {
	if tenant != "" {
		return nil, errTenantV03
	}
	return b, nil
}

// messageSendParams is the params of message/send and message/stream
// (A2A v0.3 §7.1).
type messageSendParams struct {
	// Message is a messageOut when every part has a known kind (one
	// encoding pass), else the Message itself (its MarshalJSON keeps
	// UnknownPart bytes).
	Message       any               `json:"message"`
	Configuration sendConfiguration `json:"configuration"`
}

type sendConfiguration struct {
	AcceptedOutputModes []string `json:"acceptedOutputModes,omitempty"`
	HistoryLength       *int     `json:"historyLength,omitempty"`
	Blocking            bool     `json:"blocking"`
	// PushNotificationConfig is the webhook registered with the message.
	PushNotificationConfig *PushNotificationConfig `json:"pushNotificationConfig,omitempty"`
}

func (v03) sendMessage(msg Message, cfg callConfig, stream bool) (callSpec, error) {
	msg.Parts = withoutV10Members(msg.Parts)
	var wire any = msg
	if out, ok := msg.wire(); ok {
		wire = out
	}
	params := messageSendParams{Message: wire, Configuration: sendConfiguration{
		AcceptedOutputModes:    cfg.outputModes,
		HistoryLength:          cfg.historyLength,
		Blocking:               cfg.blocking,
		PushNotificationConfig: cfg.push,
	}}
	return sendCall(methodSend, methodStream, msg.TaskID, params, cfg, stream), nil
}

// sendCall is the spec of a send (method) or streaming send (streamMethod)
// with params, either version's: retried only where the agent cannot have
// acted unless the call opts in (RetrySend), a stream needing the
// streaming capability.
func sendCall(method, streamMethod, taskID string, params any, cfg callConfig, stream bool) callSpec {
	spec := callSpec{method: method, taskID: taskID, params: params, class: retryUnsafe}
	if cfg.retrySend {
		spec.class = retryIdempotent
	}
	if stream {
		spec.method, spec.stream, spec.needs = streamMethod, true, capStreaming
	}
	if cfg.push != nil {
		spec.needs |= capPush
		spec.addPushSecrets(cfg.push)
	}
	return spec
}

type taskQueryParams struct {
	ID            string `json:"id"`
	HistoryLength *int   `json:"historyLength,omitempty"`
}

type taskIDParams struct {
	ID string `json:"id"`
}

type pushConfigParams struct {
	ID       string `json:"id"`
	ConfigID string `json:"pushNotificationConfigId,omitempty"`
}

func (v03) getTask(id string, historyLength *int) callSpec {
	return callSpec{method: methodGetTask, params: taskQueryParams{ID: id, HistoryLength: historyLength}, class: retryIdempotent, taskID: id}
}

func (v03) cancelTask(id string) callSpec {
	return callSpec{method: methodCancelTask, params: taskIDParams{ID: id}, class: retryIdempotent, taskID: id}
}

func (v03) resubscribe(id string) callSpec {
	return callSpec{method: methodResubscribe, params: taskIDParams{ID: id}, class: retryIdempotent, stream: true, needs: capStreaming, taskID: id}
}

func (v03) setPushConfig(cfg TaskPushNotificationConfig) (callSpec, error) {
	return pushSpec(methodSetPushConfig, cfg, cfg), nil
}

func (v03) getPushConfig(taskID, configID string) (callSpec, error) {
	return callSpec{method: methodGetPushConfig, params: pushConfigParams{ID: taskID, ConfigID: configID}, class: retryIdempotent, needs: capPush, taskID: taskID}, nil
}

func (v03) listPushConfigs(taskID, _ string) callSpec {
	return callSpec{method: methodListPushConfigs, params: pushConfigParams{ID: taskID}, class: retryIdempotent, needs: capPush, taskID: taskID}
}

func (v03) deletePushConfig(taskID, configID string) callSpec {
	return callSpec{method: methodDeletePushConfig, params: pushConfigParams{ID: taskID, ConfigID: configID}, class: retryIdempotent,
		needs: capPush, nullResult: true}
}

func (v03) extendedCard() callSpec {
	return callSpec{method: methodExtendedCard, class: retryIdempotent, needs: capExtendedCard}
}

func (v03) task(r *reply) (*Task, error) {
	v, err := byKind(r, taskResults)
	if err != nil {
		return nil, err
	}
	return v.(*Task), nil
}

func (v03) sendResult(r *reply) (SendResult, error) {
	v, err := byKind(r, sendResults)
	if err != nil {
		return nil, err
	}
	return v.(SendResult), nil
}

func (v03) event(r *reply) (Event, error) {
	v, err := byKind(r, eventResults)
	if err != nil {
		return nil, err
	}
	return v.(Event), nil
}

// pushConfig reads a push config result, which must be about the task
// asked about.
func (v03) pushConfig(r *reply) (*TaskPushNotificationConfig, error) {
	cfg, err := jsonResult[TaskPushNotificationConfig](r, "result", false)
	if err != nil {
		return nil, err
	}
	if err := r.sameTask(cfg.TaskID, false); err != nil {
		return nil, err
	}
	return cfg, nil
}

// pushConfigs reads a list of push configs, each about the task asked
// about: all of them, v0.3 has no pages.
func (v03) pushConfigs(r *reply) ([]TaskPushNotificationConfig, string, error) {
	list, err := jsonResult[[]TaskPushNotificationConfig](r, "result", true)
	if err != nil {
		return nil, "", err
	}
	if list == nil || *list == nil {
		return []TaskPushNotificationConfig{}, "", nil
	}
	for _, cfg := range *list {
		if err := r.sameTask(cfg.TaskID, false); err != nil {
			return nil, "", err
		}
	}
	return *list, "", nil
}

// listTasks: v0.3 has no ListTasks.
func (v03) listTasks(ListTasksRequest, *int) (callSpec, error) {
	return callSpec{}, &UnsupportedByVersionError{Method: methodListTasksV10, Version: ProtocolV03}
}

// taskPage is never called: listTasks refuses first.
func (v03) taskPage(r *reply) (*ListTasksResponse, error) {
	return nil, r.fault("A2A v0.3 has no ListTasks", nil)
}

func (v03) extendedCardResult(r *reply) (*AgentCard, error) {
	return jsonResult[AgentCard](r, "result", false)
}

// card reads a well-known agent card of any version (readCard): this
// binding speaks v0.3, but the card may offer both.
func (v03) card(r *reply) (*AgentCard, error) {
	return readCard(r)
}

// requires names the capability fields as the card's version spells
// them. The extended card is granted by either version's flag, since a
// dual card may set only one of them.
func (v03) requires(card *AgentCard, need capability) (string, bool) {
	field := "supportsAuthenticatedExtendedCard"
	if card.isV10() {
		field = "capabilities.extendedAgentCard"
	}
	return requires(card, need, field)
}

// hint: an agent that refuses v0.3 (-32009), or answers a v0.3 method
// with -32601 and v1.0's typed details (a2a-go's v1.0 servers do), speaks
// v1.0; the error then matches ErrVersionMismatch.
func (v03) hint(e *RPCError) {
	if e.Code == codeVersionNotSupported || e.Code == -32601 && len(e.Details) > 0 {
		e.Hint = "the agent answers as an A2A v1.0 agent: make the client with WithProtocolVersion(ProtocolV10), or from its agent card with NewClientFromCard"
	}
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

// withoutV10Members returns parts without v1.0's mediaType and filename
// on text and data parts, which v0.3 has not (a v0.3 server may refuse an
// unknown member): parts itself when none has them, else a copy.
func withoutV10Members(parts Parts) Parts {
	out := parts
	for i, p := range parts {
		switch q := p.(type) {
		case TextPart:
			if q.MediaType == "" && q.Filename == "" {
				continue
			}
			q.MediaType, q.Filename = "", ""
			p = q
		case DataPart:
			if q.MediaType == "" && q.Filename == "" {
				continue
			}
			q.MediaType, q.Filename = "", ""
			p = q
		default:
			continue
		}
		if &out[0] == &parts[0] {
			out = slices.Clone(parts)
		}
		out[i] = p
	}
	return out
}

// wire returns m in its one-pass form, or false when a part is an
// UnknownPart (or nil), whose bytes only Message.MarshalJSON keeps.
func (m Message) wire() (messageOut, bool) {
	out := messageOut{Kind: kindMessage, MessageID: m.MessageID, Role: m.Role, Parts: make([]partOut, len(m.Parts)),
		TaskID: m.TaskID, ContextID: m.ContextID, ReferenceTaskIDs: m.ReferenceTaskIDs, Extensions: m.Extensions, Metadata: m.Metadata}
	for i, p := range m.Parts {
		switch p := p.(type) {
		case TextPart:
			out.Parts[i] = partOut{Kind: KindText, Text: &p.Text, Metadata: p.Metadata}
		case DataPart:
			data := p.sentData()
			if len(data) == 0 {
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
