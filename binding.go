package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// The A2A protocol versions this client speaks ([WithProtocolVersion]), as
// sent in the A2A-Version header of every request (A2A v1.0, service
// parameters: Major.Minor, no patch).
const (
	// ProtocolV03 is A2A v0.3, what Caoliao agents and gateways speak.
	ProtocolV03 = "0.3"
	// ProtocolV10 is A2A v1.0.
	ProtocolV10 = "1.0"
)

// bindingFor returns the binding of a version dialectOf returned and a
// transport (TransportJSONRPC or TransportHTTPJSON), with the tenant a
// v1.0 request carries: JSON-RPC v0.3 (v03) or v1.0 (v10), HTTP+JSON
// v0.3 (rest03: /v1/ paths, the v0.3 proto's JSON) or v1.0 (rest10).
func bindingFor(version, transport, tenant string) binding {
	switch {
	case transport == TransportHTTPJSON && version == ProtocolV10:
		return rest10{v10{tenantName: tenant}}
	case transport == TransportHTTPJSON:
		return rest03{}
	case version == ProtocolV10:
		return v10{tenantName: tenant}
	}
	return v03{}
}

// readNotification reads a push notification's body, an event that is no
// JSON-RPC reply, in whichever of the three JSON dialects the agent wrote
// it, starting from the one first's version expects, so nothing is read
// with another dialect's rules and silently lost:
//
//   - with a top-level "kind", or to a v0.3 JSON-RPC client, v0.3
//     JSON-RPC's (a Task or another stream event; a2a-python 0.3's push
//     sender posts its Task model, "kind": "task", whatever the binding
//     the webhook was registered over);
//   - without "kind", to a v0.3 HTTP+JSON client, the v0.3 proto's JSON (a
//     StreamResponse, or a bare Task);
//   - to a v1.0 client, v1.0's StreamResponse.
//
// A body that has another dialect's shape (ErrVersionMismatch) is read with
// the next: v1.0, then v0.3 JSON-RPC (with "kind") or the v0.3 proto (without).
// a is what the decoders know of it (what to call it in errors, the
// redactor), as of a call.
func readNotification(first binding, body []byte, a asked) (Event, *ProtocolError) {
	rep := &reply{asked: a, body: body, result: bytes.TrimSpace(body)}
	kind := !jsonread.LacksMember(rep.result, "kind")
	other := v03{}.event // the v0.3 dialect a v1.0 client falls back to
	if !kind {
		other = protoNotification
	}
	var readers []func(*reply) (Event, error)
	switch {
	case first.version() == ProtocolV10:
		readers = []func(*reply) (Event, error){v10{}.event, other}
	case first.transport() == TransportHTTPJSON && !kind:
		readers = []func(*reply) (Event, error){protoNotification, v10{}.event}
	default:
		readers = []func(*reply) (Event, error){v03{}.event, v10{}.event}
	}
	ev, err := readers[0](rep)
	for _, read := range readers[1:] {
		if !errors.Is(err, ErrVersionMismatch) {
			break
		}
		ev, err = read(rep)
	}
	if err != nil {
		var pe *ProtocolError
		if errors.As(err, &pe) {
			return nil, pe
		}
		return nil, rep.fault("body does not decode", err)
	}
	return ev, nil
}

// protoNotification reads a notification in the v0.3 proto's JSON: a
// StreamResponse when it has one of its members, else a bare Task.
func protoNotification(r *reply) (Event, error) {
	for _, name := range []string{"task", "msg", "message", "statusUpdate", "artifactUpdate", "status_update", "artifact_update"} {
		if !jsonread.LacksMember(r.result, name) {
			return v03pbResults.event(r)
		}
	}
	t, err := v03pbResults.taskOf(r)
	if err != nil {
		return nil, err
	}
	return t, nil
}

// binding is one of A2A's bindings as this package speaks it: a transport
// (JSON-RPC 2.0 or HTTP+JSON) in a protocol version (A2A v0.3 or v1.0),
// and the only code that knows how it spells things: its method names or
// verbs and paths, how params or bodies are encoded, how a result becomes
// the SDK's types (Task, Message, the parts, the events), its enum
// spellings and its agent card. Everything around it is neutral:
//
//	client methods (client.go, push.go, card.go, stream.go, poll.go, list.go)
//	    check the caller's input and ask the binding for a callSpec;
//	the call path (rpc.go: start, send, retries, bounded body reading)
//	    sends the spec in one of two halves and checks the reply: a
//	    JSON-RPC spec in rpc.go (the envelope with the agent selector;
//	    the reply's envelope and id checked), an HTTP+JSON spec
//	    (spec.rest) in restcall.go (the verb on the escaped path and
//	    query, the bare body; the reply checked by status and shape, an
//	    error read by its shape, a refused subscribe verb swapped once);
//	the binding
//	    decodes the checked result with its own wire decoder.
//
// Four implement it, decoding onto the same types:
//
//   - v03, JSON-RPC v0.3 (binding_v03.go with wire_v03.go);
//   - v10, JSON-RPC v1.0 (binding_v10.go with wire_v10.go: method names
//     such as "SendMessage", params in ProtoJSON, results wrapped as
//     {"task": …}, parts without "kind", enums such as
//     "TASK_STATE_COMPLETED");
//   - rest10, HTTP+JSON v1.0 (binding_rest.go: v10's request structs as
//     bodies and query parameters, the tenant as a path prefix; v10's
//     decoders, since its results are v10's without the envelope);
//   - rest03, HTTP+JSON v0.3 (binding_rest03.go with wire_v03pb.go: /v1/
//     paths, the v0.3 proto's JSON; results read by protoresults.go, as
//     v10's are).
//
// NewClient and NewClientFromCard pick one (bindingFor; choice.go for a
// card) and send its version in the A2A-Version header; errors, retries,
// polling, redaction and body reading are the same for all. The model
// types' UnmarshalJSON tell v0.3 and v1.0 stored bytes apart by a
// top-level "kind" (unmarshalStored, table.go).
type binding interface {
	// version is the protocol version, sent as the A2A-Version header.
	version() string
	// transport is the binding's transport as agent cards name it:
	// TransportJSONRPC or TransportHTTPJSON.
	transport() string
	// extensionsHeader is the header that carries the extensions a call
	// activates (A2A v1.0.1 §3.2.6 A2A-Extensions; A2A v0.3's extensions
	// topic, X-A2A-Extensions).
	extensionsHeader() string
	// tenant is the tenant every request carries ("" for none), and
	// withTenant the same binding with another; its error is for a
	// version without tenants given a non-empty one.
	tenant() string
	withTenant(tenant string) (binding, error)

	// The calls. A spec's method name is the binding's spelling.
	// sendMessage's error is for a message this version cannot carry
	// (v0.3 carries any).
	sendMessage(msg Message, cfg callConfig, stream bool) (callSpec, error)
	getTask(id string, historyLength *int) callSpec
	cancelTask(id string) callSpec
	resubscribe(id string) callSpec
	setPushConfig(cfg TaskPushNotificationConfig) (callSpec, error)
	// getPushConfig's error is for a call this version cannot make (v1.0
	// needs the config id).
	getPushConfig(taskID, configID string) (callSpec, error)
	// listPushConfigs asks for the page after pageToken ("" for the
	// first); a version without pages ignores it.
	listPushConfigs(taskID, pageToken string) callSpec
	deletePushConfig(taskID, configID string) callSpec
	extendedCard() callSpec
	// listTasks's error is an *UnsupportedByVersionError on a version
	// without ListTasks, or for a request it cannot carry.
	listTasks(req ListTasksRequest, historyLength *int) (callSpec, error)

	// The results, each from a checked reply. Their errors are
	// *ProtocolErrors made with reply.fault.
	sendResult(r *reply) (SendResult, error)
	task(r *reply) (*Task, error)
	event(r *reply) (Event, error)
	pushConfig(r *reply) (*TaskPushNotificationConfig, error)
	// pushConfigs reads one page of configs and the token of the next
	// ("" on the last, and always on a version without pages).
	pushConfigs(r *reply) ([]TaskPushNotificationConfig, string, error)
	taskPage(r *reply) (*ListTasksResponse, error)
	extendedCardResult(r *reply) (*AgentCard, error)
	// card reads an agent card served at a well-known URL: r's result is
	// the GET's whole body.
	card(r *reply) (*AgentCard, error)
	// requires says which field of card grants need, as this version
	// spells it ("capabilities.streaming"), and whether it does.
	requires(card *AgentCard, need capability) (field string, ok bool)
	// hint fills in e's Hint when e shows that the agent speaks the other
	// version.
	hint(e *RPCError)
}

// jsonResult decodes a result that is a JSON value of type T with
// encoding/json, after checking its member names against T's json tags
// (names.go); what names it in errors ("result", "agent card"). A null
// result is (nil, nil) with nullOK and a *ProtocolError otherwise, as is
// a result that does not decode. For results off the hot path: push
// configs, agent cards.
func jsonResult[T any](r *reply, what string, nullOK bool) (*T, error) {
	if isNull(r.result) {
		if nullOK {
			return nil, nil
		}
		return nil, r.fault(what+" is null", nil)
	}
	switch err := jsonread.CheckNames(r.result, schemas.Of(reflect.TypeFor[T]())); err.(type) {
	case nil:
	case jsonread.NameFault:
		return nil, r.fault(err.Error(), nil)
	default:
		return nil, r.fault(what+" does not decode", err)
	}
	var v T
	if err := json.Unmarshal(r.result, &v); err != nil {
		return nil, r.fault(what+" does not decode", err)
	}
	return &v, nil
}

// requires is the capability check both versions share: the streaming
// and push flags are in capabilities; the extended card's flag moved
// there in v1.0 (extendedField is where this version reads it), and
// either is taken.
func requires(card *AgentCard, need capability, extendedField string) (string, bool) {
	switch need {
	case capStreaming:
		return "capabilities.streaming", card.Capabilities.Streaming
	case capPush:
		return "capabilities.pushNotifications", card.Capabilities.PushNotifications
	case capExtendedCard:
		return extendedField, card.SupportsAuthenticatedExtendedCard || card.Capabilities.ExtendedAgentCard
	}
	return "", true
}

// pushSpec is the spec of a call that creates cfg with method, params the
// version's encoding of it: its token, credentials and webhook URL are
// secrets of the call. It is retried as a send is, only where the agent
// cannot have acted: a second create after a 502 could register the
// webhook twice.
func pushSpec(method string, cfg TaskPushNotificationConfig, params any) callSpec {
	spec := callSpec{method: method, params: params, class: retryUnsafe, needs: capPush, taskID: cfg.TaskID}
	spec.addPushSecrets(&cfg.PushNotificationConfig)
	return spec
}

// addPushSecrets makes the token, credentials and URL of cfg, a webhook
// the call carries, secrets of the call.
func (spec *callSpec) addPushSecrets(cfg *PushNotificationConfig) {
	if cfg.Token != "" {
		spec.secrets = append(spec.secrets, cfg.Token)
	}
	if a := cfg.Authentication; a != nil && a.Credentials != "" {
		spec.secrets = append(spec.secrets, a.Credentials)
	}
	spec.secretURLs = append(spec.secretURLs, cfg.URL)
}
