package a2a

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/httpbody"
	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
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
		target: restTarget(c.base, r.path, r.query), task: spec.taskID}
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
// or a 404 whose body names the ":subscribe" path (a server that routed
// it as a GetTask of an id ending in ":subscribe"). It then switches the
// call to the other verb, for this call and the client's later ones, and
// the caller sends it again, once.
func (cl *call) refusedVerb(att *attempt) bool {
	r := cl.spec.rest
	if r == nil || r.otherVerb == "" || cl.triedOther {
		return false
	}
	if att.status != http.StatusMethodNotAllowed && (att.status != http.StatusNotFound || !bytes.Contains(att.Body, []byte(":subscribe"))) {
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
	if syntax := jsonSyntax(trimmed); syntax != nil {
		return nil, rep.notJSON(att.header.Get("Content-Type"), syntax)
	}
	if trimmed[0] == '{' {
		var rpc, errObj, payload bool
		d := jsonread.NewReader(trimmed)
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
		d.Release()
		switch {
		case rpc:
			return nil, rep.fault(`reply is a JSON-RPC response ("jsonrpc" member) where an HTTP+JSON reply is due: the agent speaks JSON-RPC at this URL`, nil)
		case errObj && !payload:
			return nil, cl.restError(att, body)
		}
	}
	rep.result = trimmed
	return rep, nil
}

// The members of the error bodies restError reads.
var (
	restErrorNames  = jsonread.NewNameSet("error", "type", "title", "status", "detail", "code", "message")
	rpcStatusNames  = jsonread.NewNameSet("code", "status", "message", "details")
	problemTypeBase = "https://a2a-protocol.org/errors/"
)

// restError reads an HTTP+JSON error reply by its shape, whatever its
// Content-Type, in this order (A2A v1.0 §11.6 and what servers send):
//
//   - an object whose "error" is an object: a google.rpc.Status (code,
//     status, message, details), its ErrorInfo reason deciding the code;
//   - an RFC 9457 problem ("type", "title", "status", "detail"), its type
//     https://a2a-protocol.org/errors/<kebab-name> deciding the code;
//   - the v0.3-era shapes: {"code": <JSON-RPC code>, "message": …},
//     {"message": …}, {"error": "<class>", "message": …};
//
// each an *RPCError whose Code is the JSON-RPC code of the A2A error it
// names, so the same sentinels match on both transports. Where it names
// none, an authentication, rate or gateway status (401, 403, 407, 408,
// 429, 502, 503, 504) makes it an *HTTPError, as is any reply of another
// shape (an HTML 404 from a wrong path, a proxy's 502, an empty 401);
// otherwise the HTTP status decides the code (404 task not found, 409
// not cancelable, 415 content type, 500 internal, 501 unsupported
// operation), or leaves it 0.
func (cl *call) restError(att *attempt, body []byte) error {
	e := &RPCError{Method: cl.spec.method, StatusCode: att.status}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 || trimmed[0] != '{' || jsonSyntax(trimmed) != nil {
		return cl.httpError(att)
	}
	var (
		errStatus, problemType, title, detail, message []byte
		errString                                      string
		shape                                          bool
		bodyStatus                                     int
	)
	d := jsonread.NewReader(trimmed)
	d.Object(restErrorNames, nil, func(i int) {
		switch restErrorNames.Name(i) {
		case "error":
			switch d.Peek() {
			case '{':
				errStatus = d.Raw()
			case '"':
				errString = d.Str()
			default:
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
			e.Code = readCode(d.Raw())
			shape = shape || e.Code != 0
		case "message":
			message = d.Raw()
			shape = true
		}
	})
	fault := d.Fault()
	d.Release()
	if fault != "" {
		return (&reply{asked: cl.asked(), status: att.status, body: body}).fault(fault, nil)
	}
	reason := ""
	switch {
	case errStatus != nil:
		e.Code = 0
		reason, bodyStatus = cl.readRPCStatus(e, errStatus)
		e.Data = errStatus
	case problemType != nil || title != nil || detail != nil:
		e.Code = 0
		e.Message = textOf(detail)
		if e.Message == "" {
			e.Message = textOf(title)
		}
		if t := textOf(problemType); strings.HasPrefix(t, problemTypeBase) {
			reason = strings.ToUpper(strings.ReplaceAll(strings.TrimPrefix(t, problemTypeBase), "-", "_"))
		}
		e.Status = textOf(problemType)
		e.Data = trimmed
	case shape || errString != "":
		e.Message = textOf(message)
		if errString != "" && e.Message == "" {
			e.Message = errString
		}
		e.Data = trimmed
	default:
		return cl.httpError(att)
	}
	if code, ok := reasonCodes[reason]; ok {
		e.Code = code
	}
	if e.Code == 0 {
		switch att.status {
		case http.StatusUnauthorized, http.StatusForbidden, http.StatusProxyAuthRequired, http.StatusRequestTimeout,
			http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return cl.httpError(att)
		}
		status := att.status
		if httpbody.Is2xx(status) { // an error event: the status it names
			status = bodyStatus
		}
		e.Code = statusCodes[status]
	}
	cl.c.proto.hint(e)
	e.Message, e.Data, e.Status = cl.red.Str(e.Message), cl.red.Bytes(e.Data), cl.red.Str(e.Status)
	if len(e.Details) > 0 {
		for i := range e.Details {
			e.Details[i] = redactDetail(cl, e.Details[i])
		}
	}
	return e
}

// readRPCStatus reads a google.rpc.Status into e (its message, its status
// name, its details) and returns the reason of its first ErrorInfo whose
// reason this package knows (any domain: servers disagree on it), or of
// its first ErrorInfo, and its code (the HTTP status it names).
func (cl *call) readRPCStatus(e *RPCError, raw []byte) (reason string, code int) {
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
	for _, dt := range e.Details {
		if dt.Type != errorInfoType {
			continue
		}
		if _, ok := reasonCodes[dt.Reason]; ok {
			return dt.Reason, code
		}
		if reason == "" {
			reason = dt.Reason
		}
	}
	return reason, code
}

// redactDetail redacts the text of one error detail.
func redactDetail(cl *call, dt ErrorDetail) ErrorDetail {
	dt.Reason, dt.Domain, dt.Raw = cl.red.Str(dt.Reason), cl.red.Str(dt.Domain), cl.red.Bytes(dt.Raw)
	for k, v := range dt.Metadata {
		dt.Metadata[k] = cl.red.Str(v)
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
