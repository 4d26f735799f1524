package a2a

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/caoliao-a2a/a2a-go/internal/httpbody"
	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// The call path's JSON-RPC half: a call's request is a JSON-RPC 2.0
// envelope POSTed to the endpoint, and a reply is checked as a JSON-RPC
// response (envelope, id, result or error) before the binding decodes
// it. restcall.go is the HTTP+JSON half; rpc.go what both share.

// request is the JSON-RPC 2.0 request envelope (JSON-RPC 2.0 §4), with a
// gateway's agent selector at the top level.
type request struct {
	JSONRPC   string `json:"jsonrpc"`
	ID        int64  `json:"id"`
	Method    string `json:"method"`
	Params    any    `json:"params,omitempty"`
	AgentID   string `json:"agent_id,omitempty"`
	AgentCode string `json:"agent_code,omitempty"`
}

// newRPCCall encodes spec's JSON-RPC envelope with a fresh id and the
// agent selector.
func (c *Client) newRPCCall(spec callSpec) (*call, error) {
	env := request{JSONRPC: "2.0", ID: c.nextID.Add(1), Method: spec.method, Params: spec.params,
		AgentID: c.agentID, AgentCode: c.agentCode}
	payload, err := json.Marshal(env)
	if err != nil {
		return nil, fmt.Errorf("a2a: %s: encode request: %w", spec.method, err)
	}
	return &call{c: c, spec: spec, red: c.red.With(spec.secrets, spec.secretURLs), id: env.ID,
		httpMethod: http.MethodPost, target: c.endpoint, payload: payload, task: spec.taskID}, nil
}

// envelope is a JSON-RPC response envelope as read; nil members were
// absent.
type envelope struct {
	jsonrpc    *string
	jsonrpcBad bool // present and neither a string nor null
	id         []byte
	result     []byte
	resultAt   int // result's offset in the body
	error      []byte
}

var envelopeNames = jsonread.NewNameSet("jsonrpc", "id", "result", "error")

// readEnvelope reads body as a JSON-RPC response envelope in one validating
// pass, leaving result and error unread, and noting in ends where the
// large values in them end (for the decoders' later passes). A member
// spelled in another case is taken as the member (as encoding/json would
// take it) and reported in fault. syntax is the error of a body that is
// not JSON.
func readEnvelope(body []byte, ends *jsonread.Ends) (env envelope, isObject bool, fault string, syntax error) {
	d := jsonread.NewReader(body)
	defer d.Release()
	d.Note(ends)
	isObject = d.Peek() == '{'
	if !isObject {
		d.Skip()
	} else {
		d.Object(envelopeNames, nil, func(i int) {
			switch envelopeNames.Name(i) {
			case "jsonrpc":
				switch d.Peek() {
				case '"':
					s := d.Str()
					env.jsonrpc, env.jsonrpcBad = &s, false
				case 'n':
					d.Null()
					env.jsonrpc = nil
				default:
					d.Skip()
					env.jsonrpcBad = true
				}
			case "id":
				env.id = d.Raw()
			case "result":
				env.result = d.Raw()
				env.resultAt = d.Pos() - len(env.result)
			case "error":
				env.error = d.Raw()
			}
		})
	}
	d.End()
	return env, isObject, d.Fault(), d.SyntaxError()
}

// checkReply is the one place that decides between a JSON-RPC result, a
// JSON-RPC error, an HTTP error and a protocol error, for body as the reply
// att brought (att.Body, or one event of its stream). A body that is a JSON-RPC
// response is believed whatever the HTTP status (a failed task comes as a
// result; some agents send errors with 4xx/5xx); a non-2xx reply whose body
// is not one is an *HTTPError, a 2xx one a *ProtocolError. The envelope and
// the id are checked here, before the binding decodes the result. An
// HTTP+JSON reply (restShaped: {"task": …}, or a google.rpc.Status naming
// an A2A error, whatever the status) is a *ProtocolError matching
// ErrTransportMismatch. The reply of an HTTP+JSON call (spec.rest) is
// handed to checkRESTReply (restcall.go) instead, with name, the event's
// SSE type ("" for a whole body). Errors: *RPCError, *HTTPError,
// *ProtocolError.
func (cl *call) checkReply(att *attempt, body []byte, name string) (*reply, error) {
	if cl.spec.rest != nil {
		return cl.checkRESTReply(att, body, name == "error")
	}
	status := att.status
	rep := &reply{asked: cl.asked(), status: status, body: body}
	rep.ends = jsonread.EndsFor(len(body))
	env, isObject, fault, syntax := readEnvelope(body, rep.ends)
	ok2xx := httpbody.Is2xx(status)
	looksRPC := syntax == nil && isObject && !env.jsonrpcBad && (env.jsonrpc != nil || env.result != nil || env.error != nil)
	if !ok2xx && (env.jsonrpc == nil || *env.jsonrpc != "2.0") {
		// A gateway's own JSON error ({"error":{"code":"UNAUTHORIZED"}}) on
		// a 401/429 is an HTTP failure, not a JSON-RPC reply.
		looksRPC = false
	}
	if !looksRPC {
		switch {
		case syntax == nil && restShaped(body):
			return nil, rep.fault(restReplyReason, ErrTransportMismatch)
		case !ok2xx:
			return nil, cl.httpError(att)
		case len(bytes.TrimSpace(body)) == 0:
			return nil, rep.fault(fmt.Sprintf("empty body with HTTP %d", status), nil)
		case syntax != nil:
			return nil, rep.notJSON(att.header.Get("Content-Type"), syntax)
		default:
			return nil, rep.fault("response is not a JSON-RPC response object", nil)
		}
	}
	switch {
	case fault != "":
		return nil, rep.fault(fault, nil)
	case env.jsonrpc == nil && env.result == nil && restShaped(body):
		return nil, rep.fault(restReplyReason, ErrTransportMismatch) // an HTTP+JSON error object, or an event
	case env.jsonrpc == nil:
		return nil, rep.fault(`"jsonrpc" member is missing`, nil)
	case *env.jsonrpc != "2.0":
		return nil, rep.fault(fmt.Sprintf(`"jsonrpc" is %s, want "2.0"`, cl.red.Quote(*env.jsonrpc)), nil)
	}
	// Lax servers write the absent member as null ("error": null beside a
	// result); a null error is taken as absent.
	if isNull(env.error) {
		env.error = nil
	}
	switch {
	case env.result != nil && env.error != nil && !isNull(env.result):
		return nil, rep.fault("both result and error are present", nil)
	case env.result == nil && env.error == nil && cl.spec.nullResult:
		env.result = json.RawMessage("null")
	case env.result == nil && env.error == nil:
		return nil, rep.fault("neither result nor error is present", nil)
	}
	idOK := sameID(env.id, cl.id)
	if env.error != nil {
		// JSON-RPC 2.0 §5: the id is null when the server could not read ours.
		if !idOK && !isNull(env.id) {
			return nil, rep.fault(cl.idMismatch(env.id), nil)
		}
		return nil, cl.extensionError(rep.rpcError(env.error, cl.c.proto))
	}
	if !idOK {
		return nil, rep.fault(cl.idMismatch(env.id), nil)
	}
	rep.result, rep.valid, rep.base = env.result, true, env.resultAt // readEnvelope validated the body
	return rep, nil
}

func (cl *call) idMismatch(got []byte) string {
	g := string(bytes.TrimSpace(got))
	if g == "" {
		g = "absent"
	}
	return fmt.Sprintf("response id %s does not match request id %d", inert.Printable(inert.Truncate(cl.red.Str(g), 40)), cl.id)
}

// sameID reports whether a response id is the JSON number want.
func sameID(raw []byte, want int64) bool {
	if len(raw) == 0 || raw[0] == '"' {
		return false
	}
	got, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && got == want
}
