package a2a

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// RPCError, the agent's error (its codes' names, its v1.0 details), and
// reading a JSON-RPC error object into one, whatever its shape,
// with A2A v1.0's typed details decoded and the binding's hint about the
// other protocol version.

var rpcErrorNames = jsonread.NewNameSet("code", "message", "data")

// rpcError turns the error member of a reply into an *RPCError whatever
// its shape, so the server's words reach the caller: an object gives its
// code (an integer, or a string or a number holding one; 0 when none can
// be read), its message (a string, or the text of any other value) and
// its data; a bare string is the message; any other value is the data,
// its text the message. Only a member name repeated or in another case
// makes it a *ProtocolError, as anywhere in a reply. b, the client's
// binding, adds its hint about the other protocol version.
func (r *reply) rpcError(raw []byte, b binding) error {
	e := &RPCError{Method: r.asked.method, StatusCode: r.status}
	d := jsonread.NewReader(raw)
	defer d.Release()
	switch d.Peek() {
	case '{':
		d.Object(rpcErrorNames, nil, func(i int) {
			switch rpcErrorNames.Name(i) {
			case "code":
				e.Code = readCode(d.Raw())
			case "message":
				if d.Peek() == '"' {
					e.Message = d.Str()
				} else {
					e.Message = string(d.Raw())
				}
			case "data":
				e.Data = d.Raw()
			}
		})
		if d.Fault() != "" {
			return r.fault(d.Fault(), nil)
		}
	case '"':
		e.Message = d.Str()
	default:
		e.Message, e.Data = string(raw), raw
	}
	e.Message, e.Data = r.asked.red.Str(e.Message), r.asked.red.Bytes(e.Data)
	e.Details = errorDetails(e.Data)
	b.hint(e)
	return e
}

// maxDetailsBytes bounds the data errorDetails decodes: encoding/json
// takes tens of times its size for maps of tiny entries, and an error's
// details are small.
const maxDetailsBytes = 64 << 10

// errorDetails decodes an error's data when it is A2A v1.0's array of
// typed details, of at most maxDetailsBytes; nil otherwise.
func errorDetails(data []byte) []ErrorDetail {
	if len(data) == 0 || data[0] != '[' || len(data) > maxDetailsBytes {
		return nil
	}
	var elems []json.RawMessage
	if json.Unmarshal(data, &elems) != nil {
		return nil
	}
	var out []ErrorDetail
	for _, raw := range elems {
		var d struct {
			Type     string                     `json:"@type"`
			Reason   string                     `json:"reason"`
			Domain   string                     `json:"domain"`
			Metadata map[string]json.RawMessage `json:"metadata"`
		}
		if json.Unmarshal(raw, &d) != nil || d.Type == "" {
			continue
		}
		detail := ErrorDetail{Type: d.Type, Raw: raw}
		if d.Type == errorInfoType {
			detail.Reason, detail.Domain = d.Reason, d.Domain
			for k, v := range d.Metadata {
				if detail.Metadata == nil {
					detail.Metadata = map[string]string{}
				}
				var s string
				if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
					s = string(v) // not a string: its JSON text, null included
				}
				detail.Metadata[k] = s
			}
		}
		out = append(out, detail)
	}
	return out
}

// readCode reads a JSON-RPC error code: an integer, a number with no
// fraction, or a string holding an integer ("-32001"); 0 for anything else.
func readCode(raw []byte) int {
	s := string(raw)
	if len(s) > 1 && s[0] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			s = strings.TrimSpace(u)
		}
	}
	if n, err := strconv.ParseInt(s, 10, 0); err == nil {
		return int(n)
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && f == math.Trunc(f) && math.Abs(f) <= math.MaxInt32 {
		return int(f)
	}
	return 0
}

var codeNames = map[int]string{
	-32700: "invalid JSON payload",
	-32600: "invalid request",
	-32601: "method not found",
	-32602: "invalid parameters",
	-32603: "internal error",
	-32001: "task not found",
	-32002: "task cannot be canceled",
	-32003: "push notification is not supported",
	-32004: "this operation is not supported",
	-32005: "incompatible content types",
	-32006: "invalid agent response",
	-32007: "extended agent card is not configured",
	-32008: "extension support required",
	-32009: "protocol version not supported",
}

func codeName(code int) string {
	if n, ok := codeNames[code]; ok {
		return n
	}
	if code <= -32000 && code >= -32099 {
		return "server error"
	}
	return "error"
}

// maxMessageInError bounds how much of a server's error message Error() shows.
const maxMessageInError = 200

// RPCError is a JSON-RPC error returned by the agent, whatever the HTTP
// status it came with. Code is kept as sent, known or not; a code written
// as a string ("-32001") or a number without a fraction is read as the
// integer, and Code is 0 when the error has none that can be read (a bare
// string error, a code like "x"). Message is the server's text: the
// "message" string, or the text of a message of another type, or the bare
// string an error was. Data is the optional "data" member exactly as
// received (any JSON value), nil when absent; when it is A2A v1.0's array
// of typed details, Details holds them decoded. An HTTP+JSON agent's A2A
// error (a google.rpc.Status, an RFC 9457 problem or an A2A v0.3-era
// body; the package documentation says which) is an RPCError too: Code is
// the JSON-RPC code of the error it names, Data the Status object or the
// whole body, Details the Status's details, Status its status name or the
// problem's type. Spec: A2A v0.3 §6.11 (JSONRPCError) and §8; A2A v1.0,
// error handling (error details), §11.6 (HTTP+JSON errors).
type RPCError struct {
	// Method is the call that failed as the client's binding spells it:
	// the JSON-RPC method, "tasks/get" in A2A v0.3 and "GetTask" in v1.0;
	// over HTTP+JSON the proto's RPC name in either version ("GetTask").
	Method  string
	Code    int
	Message string
	Data    json.RawMessage
	// Details is Data decoded when it is an array of objects each with an
	// "@type" (google.protobuf.Any in ProtoJSON), as A2A v1.0 agents send,
	// of at most 64 KiB (for an HTTP+JSON error, the google.rpc.Status's
	// "details" so decoded); nil otherwise (Data keeps it whole). An
	// element that is not such an object is left out.
	Details []ErrorDetail
	// StatusCode is the HTTP status the error came with (200 for most
	// JSON-RPC agents).
	StatusCode int
	// Status is, for an error an HTTP+JSON agent sent, its
	// google.rpc.Status code name ("NOT_FOUND", A2A v1.0 §11.6) or the
	// type URI of an RFC 9457 problem; "" for a JSON-RPC error.
	Status string
	// Hint says what the caller can do when the error shows that the agent
	// speaks another A2A version (e.g. "the agent speaks A2A v1.0: make
	// the client with WithProtocolVersion(ProtocolV10)"), or for an error
	// matching [ErrExtensionSupportRequired], which extensions the agent
	// or its card requires and how to activate them; "" otherwise. It is
	// part of Error(), its text from the network escaped.
	Hint string
	// RequiredExtensions is, for an error matching
	// [ErrExtensionSupportRequired], the URIs of the extensions the agent
	// requires: those its error names (the comma-separated "extensions"
	// metadata of an ErrorInfo detail, as a2atest writes it), or when it
	// names none, those the client's agent card marks required that the
	// call did not activate ([AgentCard.RequiredExtensions]); at most 32,
	// as received. It is nil for other errors, and when the agent names
	// none and the client knows no card or the call activated every
	// required one. Spec: A2A v1.0.1 §3.3.2, §5.4.
	RequiredExtensions []string
}

// ErrorDetail is one element of an A2A v1.0 error's details (the "data"
// array): Type is its "@type" (e.g.
// "type.googleapis.com/google.rpc.ErrorInfo"), Raw the whole element as
// received. For a google.rpc.ErrorInfo, Reason (e.g. "TASK_NOT_FOUND"),
// Domain ("a2a-protocol.org") and Metadata are filled in; a metadata value
// that is not a string is kept as its JSON text. Spec: A2A v1.0, error
// handling; google.rpc.ErrorInfo.
type ErrorDetail struct {
	Type     string
	Reason   string
	Domain   string
	Metadata map[string]string
	Raw      json.RawMessage
}

// errorInfoType is the "@type" of a google.rpc.ErrorInfo detail.
const errorInfoType = "type.googleapis.com/google.rpc.ErrorInfo"

// Reason returns the reason of the error's first ErrorInfo detail (e.g.
// "TASK_NOT_FOUND", "METHOD_NOT_FOUND"), or "" when it has none.
func (e *RPCError) Reason() string {
	for _, d := range e.Details {
		if d.Type == errorInfoType {
			return d.Reason
		}
	}
	return ""
}

// Error returns a short description: method, the server's message
// (truncated) and the code, e.g. "a2a: tasks/get: task not found (code -32001)".
func (e *RPCError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = codeName(e.Code)
	}
	s := fmt.Sprintf("a2a: %s: %s (code %d)", e.Method, inert.Printable(inert.Truncate(msg, maxMessageInError)), e.Code)
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

const codeVersionNotSupported = -32009

// Is reports whether target is the sentinel for e's code, such as
// [ErrTaskNotFound], or an *RPCError with the same code; code -32009, and
// an error with a [RPCError.Hint] about the version, also match
// [ErrVersionMismatch].
func (e *RPCError) Is(target error) bool {
	switch t := target.(type) {
	case rpcCode:
		return int(t) == e.Code
	case *RPCError:
		return t.Code == e.Code
	}
	// A hint on a -32601 with details is the one for a v0.3 client.
	return target == ErrVersionMismatch && (e.Code == codeVersionNotSupported || e.Code == -32601 && e.Hint != "" && len(e.Details) > 0)
}
