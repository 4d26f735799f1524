package a2a

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/httpbody"
	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// The call path's HTTP+JSON half: a call's request is a verb on a URL with
// an optional JSON body (no envelope), and a reply is checked by its
// status and shape before the binding decodes it. A 2xx body is the
// result itself; any other reply is an error read by its shape, never by
// its media type (restError).

// newRESTCall is newCall for an HTTP+JSON spec: the target URL built once
// from the interface URL, the body encoded once, so every retry sends the
// same bytes.
func (c *Client) newRESTCall(spec callSpec) (*call, error) {
	r := spec.rest
	cl := &call{c: c, spec: spec, red: c.red.With(spec.secrets, spec.secretURLs), httpMethod: r.verb,
		target: restTarget(c.restBase, c.base.RawQuery, r.path, r.query), task: spec.taskID}
	if r.otherVerb != "" && c.swapVerb.Load() {
		cl.httpMethod = r.otherVerb
	}
	if r.body != nil {
		payload, err := json.Marshal(r.body)
		if err != nil {
			return nil, fmt.Errorf("a2a: %s: encode request: %w", spec.method, err)
		}
		cl.payload = payload
	}
	return cl, nil
}

// refusedVerb reports whether att shows the agent refusing the call's
// verb where the binding knows another (subscribe: POST or GET): a 405,
// or a 404 whose body names the task's ":subscribe" path (a server that
// routed it as a GetTask of the id "<id>:subscribe", as a2a-js servers
// before 0.3.14 did). It then switches the call to the other verb, for
// this call and the client's later ones (Client.swapVerb), and the caller
// sends it again: once per call, so two servers refusing each other's
// verb cannot make a loop.
func (cl *call) refusedVerb(att *attempt) bool {
	r := cl.spec.rest
	if r == nil || r.otherVerb == "" || cl.triedOther {
		return false
	}
	named := att.status == http.StatusNotFound && cl.task != "" && bytes.Contains(att.Body, []byte(cl.task+":subscribe"))
	if att.status != http.StatusMethodNotAllowed && !named {
		return false
	}
	cl.triedOther = true
	other := r.otherVerb
	if cl.httpMethod == other {
		other = r.verb
	}
	cl.httpMethod = other
	cl.c.swapVerb.Store(other == r.otherVerb)
	return true
}

// restGotJSONRPC is the reason of the *ProtocolError for a JSON-RPC
// response to an HTTP+JSON request.
const restGotJSONRPC = `reply is a JSON-RPC response (it has "jsonrpc") where an HTTP+JSON reply is due: ` +
	`the agent speaks JSON-RPC at this URL; make the client with WithTransports(TransportJSONRPC), or give it the URL of the agent's HTTP+JSON interface`

// restTopNames are the top-level members checkRESTReply looks at: the
// payload members of either version's StreamResponse and
// SendMessageResponse, under their JSON and proto names (the v0.3
// proto's message field is msg), and a bare Task's id.
var restTopNames = jsonread.NewNameSet("jsonrpc", "error", "task", "message", "statusUpdate", "artifactUpdate", "id",
	"msg", "status_update", "artifact_update")

// checkRESTReply is checkReply for an HTTP+JSON call: body is the reply
// att brought (att.Body) or one event of its stream, named errEvent when
// the stream named it "error". A 2xx JSON body is the result; an empty
// one is a null result where the call allows it (a delete answered 204 or
// with an empty 200). A JSON-RPC response is a *ProtocolError (the
// interface speaks JSON-RPC), as is a body that is not JSON. Any other
// reply, and a 2xx body or event that is an error by its shape (an object
// whose "error" is an object, and no payload member), is read by
// restError. Errors: *RPCError, *HTTPError, *ProtocolError.
func (cl *call) checkRESTReply(att *attempt, body []byte, errEvent bool) (*reply, error) {
	status := att.status
	rep := &reply{asked: cl.asked(), status: status, body: body}
	if !httpbody.Is2xx(status) || errEvent {
		return nil, cl.restError(att, body)
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		if cl.spec.nullResult {
			rep.result = json.RawMessage("null")
			return rep, nil
		}
		return nil, rep.fault(fmt.Sprintf("empty body with HTTP %d", status), nil)
	}
	if trimmed[0] != '{' {
		if syntax := jsonSyntax(trimmed); syntax != nil {
			return nil, rep.notJSON(att.header.Get("Content-Type"), syntax)
		}
	} else {
		// One validating pass over an object: its top-level members read,
		// every value skipped (and so validated), the end checked; the
		// decoder's is the only other.
		var rpc, errObj, payload bool
		d := jsonread.NewReader(trimmed)
		rep.ends = jsonread.EndsFor(len(trimmed))
		d.Note(rep.ends)
		d.Object(restTopNames, nil, func(i int) {
			switch restTopNames.Name(i) {
			case "jsonrpc":
				rpc = true
			case "error":
				errObj = d.Peek() == '{'
			default:
				payload = true
			}
			d.Skip()
		})
		d.End()
		syntax := d.SyntaxError()
		d.Release()
		switch {
		case syntax != nil:
			return nil, rep.notJSON(att.header.Get("Content-Type"), syntax)
		case rpc:
			return nil, rep.fault(restGotJSONRPC, ErrTransportMismatch)
		case errObj && !payload:
			return nil, cl.restError(att, body)
		}
	}
	rep.result, rep.valid = trimmed, true // validated above
	return rep, nil
}

// The members of the error bodies restError reads.
var (
	restErrorNames  = jsonread.NewNameSet("error", "type", "title", "status", "detail", "code", "message", "jsonrpc")
	rpcStatusNames  = jsonread.NewNameSet("code", "status", "message", "details")
	problemTypeBase = "https://a2a-protocol.org/errors/"
)

// a2aDomain is the ErrorInfo domain of A2A's errors (A2A v1.0 §11.6).
const a2aDomain = "a2a-protocol.org"

// restError reads an HTTP+JSON error reply by its shape, whatever its
// Content-Type: body is att's body, or an event of its stream that is an
// error (named "error", or an object whose "error" is an object and that
// holds no payload). The shapes, in this order (A2A v1.0 §11.6, and what
// servers send):
//
//   - an object whose "error" is an object: a google.rpc.Status (code,
//     status, message, details); the reason of its ErrorInfo detail
//     decides the code (the first A2A one: domain a2a-protocol.org and a
//     reason this package knows, else the first known reason);
//   - an RFC 9457 problem ("type", "title", "status", "detail"); its type
//     https://a2a-protocol.org/errors/<kebab-name> decides the code;
//   - the A2A v0.3-era shapes, each with a string "message":
//     {"code": <JSON-RPC code>, "message": …} (a2a-js),
//     {"message": …} (a2a-python), {"error": "<class>", "message": …}
//     (a2a-java);
//
// each an *RPCError whose Code is the JSON-RPC code of the A2A error it
// names, so the same sentinels (ErrTaskNotFound, …) match on both
// transports; Status keeps the status name or problem type, Details the
// decoded details, Data the error object (the whole problem, extension
// members included), all redacted. Where the reply names no A2A error (no
// known reason or type, no JSON-RPC code), the HTTP status decides: 401,
// 403, 407, 408, 429, 502, 503 and 504 make it an *HTTPError (an
// authentication, rate or gateway failure, with Challenge and
// RetryAfter), and otherwise the status stands for the code (404 task not
// found, 409 not cancelable, 415 content type, 500 internal, 501
// unsupported operation), or the code stays 0. A reply of any other shape
// (an HTML 404 from a wrong path, a proxy's 502, an empty 401, a body with
// a member repeated) is an *HTTPError. A JSON-RPC response is a
// *ProtocolError matching ErrTransportMismatch. An error event (a 2xx
// reply) that is not an error of these shapes is a *ProtocolError; the
// status its body names stands for the HTTP status.
func (cl *call) restError(att *attempt, body []byte) error {
	ok2xx := httpbody.Is2xx(att.status)
	rep := &reply{asked: cl.asked(), status: att.status, body: body}
	// notA2A is the error of a reply that is no A2A error by its shape.
	notA2A := func(reason string) error {
		if ok2xx {
			return rep.fault(reason, nil)
		}
		return cl.httpError(att)
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' || jsonSyntax(trimmed) != nil {
		return notA2A("error event is not a JSON object")
	}
	e := &RPCError{Method: cl.spec.method, StatusCode: att.status}
	var (
		errStatus, problemType, title, detail, message []byte
		rpc                                            bool
		code, bodyStatus                               int
	)
	d := jsonread.NewReader(trimmed)
	d.Object(restErrorNames, nil, func(i int) {
		switch restErrorNames.Name(i) {
		case "error":
			switch d.Peek() {
			case '{':
				errStatus = d.Raw()
			default: // {"error": "Not Found"} alone is no A2A error
				d.Skip()
			}
		case "type":
			problemType = d.Raw()
		case "title":
			title = d.Raw()
		case "detail":
			detail = d.Raw()
		case "status":
			bodyStatus = readCode(d.Raw())
		case "code":
			if c := readCode(d.Raw()); c >= -32768 && c <= -32000 { // JSON-RPC's, not an HTTP status
				code = c
			}
		case "message":
			if d.Peek() == '"' {
				message = d.Raw()
			} else {
				d.Skip()
			}
		case "jsonrpc":
			rpc = true
			d.Skip()
		}
	})
	fault := d.Fault()
	d.Release()
	switch {
	case fault != "":
		return notA2A(fault)
	case rpc:
		return rep.fault(restGotJSONRPC, ErrTransportMismatch)
	}
	reason := ""
	switch {
	case errStatus != nil:
		reason, bodyStatus = readRPCStatus(e, errStatus)
		e.Data = errStatus
	case problemType != nil || title != nil || detail != nil:
		e.Message = cmp.Or(textOf(detail), textOf(title))
		e.Status = textOf(problemType)
		if t, ok := strings.CutPrefix(e.Status, problemTypeBase); ok {
			reason = strings.ToUpper(strings.ReplaceAll(t, "-", "_"))
		}
		e.Data = trimmed
	case message != nil:
		e.Message, e.Code, e.Data = textOf(message), code, trimmed
	default:
		return notA2A("error event is neither a google.rpc.Status, an RFC 9457 problem nor an A2A v0.3 error")
	}
	if c, ok := reasonCodes[reason]; ok {
		e.Code = c
	}
	if e.Code == 0 {
		switch att.status {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusProxyAuthRequired, http.StatusRequestTimeout,
			http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return cl.httpError(att)
		}
		status := att.status
		if ok2xx { // an error event: the status it names
			status = bodyStatus
		}
		e.Code = statusCodes[status]
	}
	cl.c.proto.hint(e)
	e.Message, e.Data, e.Status = cl.red.Str(e.Message), cl.red.Bytes(e.Data), cl.red.Str(e.Status)
	for i := range e.Details {
		e.Details[i] = redactDetail(cl.red, e.Details[i])
	}
	return cl.extensionError(e)
}

// readRPCStatus reads a google.rpc.Status into e (its message, its status
// name, its details) and returns the reason that decides its code (the
// first A2A ErrorInfo: domain a2a-protocol.org and a reason reasonCodes
// knows; else the first ErrorInfo with a known reason, any domain, as
// servers disagree on it; else the first ErrorInfo's) and its code (the
// HTTP status it names).
func readRPCStatus(e *RPCError, raw []byte) (reason string, code int) {
	var details []byte
	d := jsonread.NewReader(raw)
	d.Object(rpcStatusNames, nil, func(i int) {
		switch rpcStatusNames.Name(i) {
		case "code":
			code = readCode(d.Raw())
		case "status":
			e.Status = textOf(d.Raw())
		case "message":
			e.Message = textOf(d.Raw())
		case "details":
			details = d.Raw()
		}
	})
	d.Release()
	e.Details = errorDetails(details)
	known := ""
	for _, dt := range e.Details {
		if dt.Type != errorInfoType {
			continue
		}
		_, ok := reasonCodes[dt.Reason]
		switch {
		case ok && dt.Domain == a2aDomain:
			return dt.Reason, code
		case ok && known == "":
			known = dt.Reason
		case reason == "":
			reason = dt.Reason
		}
	}
	return cmp.Or(known, reason), code
}

// redactDetail redacts the text of one error detail: its reason,
// domain, metadata values and raw JSON.
func redactDetail(red *redact.Redactor, dt ErrorDetail) ErrorDetail {
	dt.Type, dt.Reason, dt.Domain, dt.Raw = red.Str(dt.Type), red.Str(dt.Reason), red.Str(dt.Domain), red.Bytes(dt.Raw)
	for k, v := range dt.Metadata {
		dt.Metadata[k] = red.Str(v)
	}
	return dt
}

// textOf is the text of a JSON value: a string's contents, any other
// value's JSON text, "" for none or null.
func textOf(raw []byte) string {
	if len(raw) == 0 || isNull(raw) {
		return ""
	}
	var s string
	if raw[0] == '"' && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// reasonCodes maps an A2A error's ErrorInfo reason (A2A v1.0 §5.4, §11.6;
// and the JSON-RPC errors' names as servers write them) to its JSON-RPC
// code.
var reasonCodes = map[string]int{
	"TASK_NOT_FOUND":                             -32001,
	"TASK_NOT_CANCELABLE":                        -32002,
	"PUSH_NOTIFICATION_NOT_SUPPORTED":            -32003,
	"UNSUPPORTED_OPERATION":                      -32004,
	"CONTENT_TYPE_NOT_SUPPORTED":                 -32005,
	"INVALID_AGENT_RESPONSE":                     -32006,
	"EXTENDED_AGENT_CARD_NOT_CONFIGURED":         -32007,
	"AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED": -32007,
	"EXTENSION_SUPPORT_REQUIRED":                 -32008,
	"VERSION_NOT_SUPPORTED":                      codeVersionNotSupported,
	"PARSE_ERROR":                                -32700,
	"INVALID_REQUEST":                            -32600,
	"METHOD_NOT_FOUND":                           -32601,
	"INVALID_PARAMS":                             -32602,
	"INTERNAL_ERROR":                             -32603,
}

// statusCodes maps the HTTP status of an A2A error that names no reason
// to the JSON-RPC code of the error that status stands for (A2A v1.0 §5.4,
// with v1.0.0's 409 and 415).
var statusCodes = map[int]int{
	http.StatusNotFound:             -32001,
	http.StatusConflict:             -32002,
	http.StatusUnsupportedMediaType: -32005,
	http.StatusInternalServerError:  -32603,
	http.StatusNotImplemented:       -32004,
}

// restReplyNames are the members that make a reply to a JSON-RPC request
// an HTTP+JSON one (restShaped).
var restReplyNames = jsonread.NewNameSet("task", "message", "statusUpdate", "artifactUpdate", "tasks", "contextId", "error")

// restShaped reports whether body, a reply to a JSON-RPC request that is
// no JSON-RPC response, is an HTTP+JSON reply: an object holding a
// SendMessageResponse's or StreamResponse's member, a Task's contextId or
// a ListTasksResponse's tasks, or a google.rpc.Status ("error" an object)
// whose ErrorInfo names an A2A error (a gateway's own Status does not).
func restShaped(body []byte) bool {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return false
	}
	found := false
	d := jsonread.NewReader(trimmed)
	d.Object(restReplyNames, nil, func(i int) {
		if restReplyNames.Name(i) != "error" {
			found = true
			d.Skip()
			return
		}
		if d.Peek() != '{' {
			d.Skip()
			return
		}
		reason, _ := readRPCStatus(&RPCError{}, d.Raw())
		_, known := reasonCodes[reason]
		found = found || known
	})
	ok := d.Fault() == "" && d.SyntaxError() == nil
	d.Release()
	return found && ok
}

// restReplyReason is the reason of the *ProtocolError for an HTTP+JSON
// reply to a JSON-RPC request.
const restReplyReason = `reply is an HTTP+JSON (REST) reply, not a JSON-RPC response: the agent speaks HTTP+JSON at this URL; ` +
	`make the client from the agent's card (NewClientFromCard), or with WithTransports(TransportHTTPJSON) and the agent's WithProtocolVersion, or give it the URL of the agent's JSON-RPC interface`
