package a2atest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The JSON-RPC envelope, the same for both versions: reading and checking
// a request's, writing a response's.

type envelope struct {
	JSONRPC   *string         `json:"jsonrpc"`
	ID        json.RawMessage `json:"id"`
	Method    *string         `json:"method"`
	Params    json.RawMessage `json:"params"`
	AgentID   *string         `json:"agent_id"`
	AgentCode *string         `json:"agent_code"`
}

// writeJSON writes one JSON-RPC response: result, or rpcErr when it is
// not nil. A v1.0 server adds the ErrorInfo detail of the code to an error
// without Data.
func (s *Server) writeJSON(w http.ResponseWriter, id json.RawMessage, result any, rpcErr *a2a.RPCError) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(s.response(id, result, rpcErr))
}

// response is the JSON-RPC response object writeJSON and the streams write.
func (s *Server) response(id json.RawMessage, result any, rpcErr *a2a.RPCError) map[string]any {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	out := map[string]any{"jsonrpc": "2.0", "id": id}
	if rpcErr == nil {
		out["result"] = result
		return out
	}
	e := map[string]any{"code": rpcErr.Code, "message": rpcErr.Message}
	switch {
	case rpcErr.Data != nil:
		e["data"] = rpcErr.Data
	case s.v10:
		if d := errorDetails(rpcErr.Code); d != nil {
			e["data"] = d
		}
	}
	out["error"] = e
	return out
}

func invalid(code int, format string, args ...any) *a2a.RPCError {
	return &a2a.RPCError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// checkEnvelope checks the JSON-RPC members every request needs.
func checkEnvelope(env envelope) *a2a.RPCError {
	if env.JSONRPC == nil || *env.JSONRPC != "2.0" {
		return invalid(codeInvalidRequest, `"jsonrpc" must be "2.0"`)
	}
	if !validID(env.ID) {
		return invalid(codeInvalidRequest, `"id" must be a string or an integer`)
	}
	if env.Method == nil {
		return invalid(codeInvalidRequest, `"method" is missing`)
	}
	return nil
}

// checkSelector checks the agent selector (RequireAgentID,
// RequireAgentCode).
func (s *Server) checkSelector(env envelope) *a2a.RPCError {
	if s.selectorKey == "" {
		return nil
	}
	got := env.AgentID
	if s.selectorKey == "agent_code" {
		got = env.AgentCode
	}
	if got == nil || *got != s.selectorVal {
		return invalid(codeInvalidParams, "%s missing or wrong on %s", s.selectorKey, *env.Method)
	}
	return nil
}

// checkParamsObject refuses params that are absent or not an object.
func checkParamsObject(env envelope) *a2a.RPCError {
	if len(env.Params) == 0 || env.Params[0] != '{' {
		return invalid(codeInvalidParams, `"params" must be an object`)
	}
	return nil
}

func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		var s string
		return json.Unmarshal(raw, &s) == nil
	}
	_, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil
}
