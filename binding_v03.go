package a2a

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
)

// The A2A v0.3 JSON-RPC binding (A2A v0.3 §7): its method names and
// params, its results told apart by "kind" (or, without one, by shape),
// and its agent card. Its wire objects are read by the tables of
// wire_v03.go.

// ProtocolVersion is the A2A version this client speaks, sent in the
// A2A-Version header of every request. v0.3 servers ignore the header; a
// v1.0 server answers -32009 ([ErrVersionNotSupported]).
const ProtocolVersion = "0.3"

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

func (v03) version() string { return ProtocolVersion }

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
}

func (v03) sendMessage(msg Message, cfg callConfig, stream bool) (callSpec, error) {
	var wire any = msg
	if out, ok := msg.wire(); ok {
		wire = out
	}
	spec := callSpec{
		method: methodSend,
		params: messageSendParams{Message: wire, Configuration: sendConfiguration{
			AcceptedOutputModes: cfg.outputModes,
			HistoryLength:       cfg.historyLength,
			Blocking:            cfg.blocking,
		}},
		class: retryUnsafe,
	}
	if cfg.retrySend {
		spec.class = retryIdempotent
	}
	if stream {
		spec.method, spec.stream, spec.needs = methodStream, true, capStreaming
	}
	return spec, nil
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
	return callSpec{method: methodGetTask, params: taskQueryParams{ID: id, HistoryLength: historyLength}, class: retryIdempotent}
}

func (v03) cancelTask(id string) callSpec {
	return callSpec{method: methodCancelTask, params: taskIDParams{ID: id}, class: retryIdempotent}
}

func (v03) resubscribe(id string) callSpec {
	return callSpec{method: methodResubscribe, params: taskIDParams{ID: id}, class: retryIdempotent, stream: true, needs: capStreaming}
}

func (v03) setPushConfig(cfg TaskPushNotificationConfig) callSpec {
	var secrets []string
	if cfg.PushNotificationConfig.Token != "" {
		secrets = append(secrets, cfg.PushNotificationConfig.Token)
	}
	if a := cfg.PushNotificationConfig.Authentication; a != nil && a.Credentials != "" {
		secrets = append(secrets, a.Credentials)
	}
	return callSpec{method: methodSetPushConfig, params: cfg, class: retryIdempotent, needs: capPush, secrets: secrets}
}

func (v03) getPushConfig(taskID, configID string) callSpec {
	return callSpec{method: methodGetPushConfig, params: pushConfigParams{ID: taskID, ConfigID: configID}, class: retryIdempotent, needs: capPush}
}

func (v03) listPushConfigs(taskID string) callSpec {
	return callSpec{method: methodListPushConfigs, params: pushConfigParams{ID: taskID}, class: retryIdempotent, needs: capPush}
}

func (v03) deletePushConfig(taskID, configID string) callSpec {
	return callSpec{method: methodDeletePushConfig, params: pushConfigParams{ID: taskID, ConfigID: configID}, class: retryIdempotent,
		needs: capPush, nullResult: true}
}

func (v03) extendedCard() callSpec {
	return callSpec{method: methodExtendedCard, class: retryIdempotent, needs: capExtendedCard}
}

// resultNames are the members a task, message or event result may have at
// its top level, and the names of the A2A v1.0 wrappers: what kindOf
// reads, and checks, before the result is decoded by its kind.
var resultNames = newNameSet(slices.Compact(slices.Sorted(slices.Values(slices.Concat(
	taskFields.names.names, messageFields.names.names, statusEventFields.names.names, artifactEventFields.names.names,
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
	d := newJSONReader(r.result)
	defer d.release()
	if d.peek() != '{' {
		return "", r.fault("result is not a JSON object", nil)
	}
	var kind *string
	kindBad := false
	var first [64]byte // the first byte of each member's value, by index
	d.object(resultNames, "", func(i int) {
		first[i] = d.peek()
		if resultNames.names[i] != "kind" {
			d.skip()
			return
		}
		switch first[i] {
		case '"':
			s := d.str()
			kind, kindBad = &s, false
		case 'n':
			d.null()
			kind = nil
		default:
			d.skip()
			kindBad = true
		}
	})
	switch {
	case d.fault != "":
		return "", r.fault(d.fault, nil)
	case kindBad:
		return "", r.fault(`result "kind" is not a string`, nil)
	case kind != nil:
		return *kind, nil
	}
	is := func(name string, c byte) bool { return first[resultNames.index([]byte(name))] == c }
	switch {
	case is("id", '"') && is("status", '{'):
		return "task", nil
	case is("messageId", '"') && is("parts", '['):
		return "message", nil
	case is("taskId", '"') && is("status", '{'):
		return "status-update", nil
	case is("taskId", '"') && is("artifact", '{'):
		return "artifact-update", nil
	}
	for _, name := range []string{"task", "message", "statusUpdate", "artifactUpdate"} {
		if is(name, '{') {
			return "", r.fault(fmt.Sprintf(`result is wrapped as {%q: …}, an A2A v1.0 shape`, name), ErrVersionMismatch)
		}
	}
	return "", nil
}

// decodeResult decodes a result with table t; what names it in errors
// ("task result"). A name fault is reported as it is; any other problem as
// "<what> does not decode".
func decodeResult[T any](r *reply, t *fields[T], v *T, what string) error {
	err := decodeWhole(r.result, t.decode, v, false)
	if f, ok := err.(nameFault); ok {
		return r.fault(string(f), nil)
	}
	if err != nil {
		return r.fault(what+" does not decode", err)
	}
	return nil
}

// taskResult decodes a result whose kind is "task"; it must have an id.
// The task's Raw is the result's bytes within the reply.
func taskResult(r *reply) (*Task, error) {
	var t Task
	if err := decodeResult(r, taskFields, &t, "task result"); err != nil {
		return nil, err
	}
	if t.ID == "" {
		return nil, r.fault(`task result has no "id"`, nil)
	}
	t.raw = r.result
	return &t, nil
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
	taskResults = resultKinds{[]string{"task"}, "result is null where a Task is due",
		`result has no "kind" and is not shaped like a Task`, "result kind %s where a Task is due", "result"}
	sendResults = resultKinds{[]string{"task", "message"}, "result is null where a Task or Message is due",
		`result has no "kind" and is shaped like neither a Task nor a Message`, "result kind %s is neither task nor message", "result"}
	eventResults = resultKinds{[]string{"task", "message", "status-update", "artifact-update"}, "result is null where an event is due",
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
		return nil, r.fault(fmt.Sprintf(k.badKind, r.cl.red.quote(kind)), nil)
	}
	switch kind {
	case "task":
		return orNil(taskResult(r))
	case "message":
		return orNil(decodeAs(r, messageFields, "message "+k.what))
	case "status-update":
		return orNil(decodeAs(r, statusEventFields, "status-update event"))
	default:
		return orNil(decodeAs(r, artifactEventFields, "artifact-update event"))
	}
}

// decodeAs decodes a result with table t into a new T.
func decodeAs[T any](r *reply, t *fields[T], what string) (*T, error) {
	v := new(T)
	if err := decodeResult(r, t, v, what); err != nil {
		return nil, err
	}
	return v, nil
}

// orNil returns v as an any, or a nil any when err is set: never a typed
// nil inside an interface.
func orNil[T any](v *T, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	return v, nil
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

func (v03) pushConfig(r *reply) (*TaskPushNotificationConfig, error) {
	return jsonResult[TaskPushNotificationConfig](r, false)
}

func (v03) pushConfigs(r *reply) ([]TaskPushNotificationConfig, error) {
	list, err := jsonResult[[]TaskPushNotificationConfig](r, true)
	if err != nil {
		return nil, err
	}
	if list == nil || *list == nil {
		return []TaskPushNotificationConfig{}, nil
	}
	return *list, nil
}

func (v03) extendedCardResult(r *reply) (*AgentCard, error) {
	return jsonResult[AgentCard](r, false)
}

// card reads a well-known agent card: a JSON object with a "url". A v1.0
// card (supportedInterfaces, no url) gives a *ProtocolError matching
// [ErrVersionMismatch].
func (v03) card(cl *call, body []byte) (*AgentCard, error) {
	raw := body
	perr := func(reason string, err error) error { return cl.protocolError(cl.att.status, raw, reason, err) }
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return nil, perr("agent card is not a JSON object", nil)
	}
	if fault := checkNames(body, schemaOf(reflect.TypeFor[AgentCard]())); fault != "" {
		return nil, perr(fault, nil)
	}
	var card AgentCard
	if err := json.Unmarshal(body, &card); err != nil {
		return nil, perr("agent card does not decode", err)
	}
	if card.URL == "" {
		var v1 struct {
			SupportedInterfaces json.RawMessage `json:"supportedInterfaces"`
		}
		if json.Unmarshal(body, &v1) == nil && v1.SupportedInterfaces != nil {
			return nil, perr("agent card is A2A v1.0 (supportedInterfaces, no url)", ErrVersionMismatch)
		}
		return nil, perr(`agent card has no "url"`, nil)
	}
	return &card, nil
}
