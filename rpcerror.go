package a2a

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// Reading a JSON-RPC error object into an *RPCError, whatever its shape,
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
