package a2atest

import (
	"encoding/json"
	"net/http"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The A2A v1.0 HTTP+JSON server: a request's path, query and body become
// the params of the JSON-RPC method of the same name (the proto's request
// message, read as strictly), handled as that method is; the result is
// written without the envelope, and an error as a google.rpc.Status.

// serveRESTV10 answers a checked A2A v1.0 HTTP+JSON request for method.
func (s *Server) serveRESTV10(w http.ResponseWriter, rt restRoute, method string, query map[string]string, body []byte) {
	params, rpcErr := restParams(rt, method, query, body)
	if rpcErr != nil {
		writeStatus(w, rpcErr)
		return
	}
	switch method {
	case "SendStreamingMessage":
		rep, first, rpcErr := s.sendV10(method, params)
		if rpcErr != nil {
			writeStatus(w, rpcErr)
			return
		}
		if rep.StreamRaw != "" {
			writeStreamRaw(w, rep.StreamRaw, json.RawMessage("null"))
			return
		}
		sendEvents(w, s.replyEvents(rep, first, false), func(ev any) any { return streamResponseOf(ev) })
	case "SubscribeToTask":
		events, rpcErr := s.subscribeV10(rt.taskID)
		if rpcErr != nil {
			writeStatus(w, rpcErr)
			return
		}
		sendEvents(w, events, func(ev any) any { return streamResponseOf(ev) })
	default:
		result, rpcErr := s.handleV10(method, params)
		if rpcErr != nil {
			writeStatus(w, rpcErr)
			return
		}
		writeResult(w, result)
	}
}

// restParams makes the params of method's JSON-RPC request from an
// HTTP+JSON request: the body with the path's members set (a send's
// tenant, a cancel's id, a push config's taskId), or the path's ids and
// the query for a request without a body (includeArtifacts "true" or
// "false"; other values as strings, which ProtoJSON readers take for
// numbers and enums).
func restParams(rt restRoute, method string, query map[string]string, body []byte) (json.RawMessage, *a2a.RPCError) {
	fields := map[string]string{"tenant": rt.tenant}
	switch method {
	case "SendMessage", "SendStreamingMessage":
		return withPath(method, body, fields)
	case "CancelTask":
		fields["id"] = rt.taskID
		return withPath(method, body, fields)
	case "CreateTaskPushNotificationConfig":
		fields["taskId"] = rt.taskID
		return withPath(method, body, fields)
	}
	params := map[string]any{"tenant": rt.tenant}
	switch method {
	case "GetTask", "SubscribeToTask":
		params["id"] = rt.taskID
	case "ListTaskPushNotificationConfigs":
		params["taskId"] = rt.taskID
	case "GetTaskPushNotificationConfig", "DeleteTaskPushNotificationConfig":
		params["taskId"], params["id"] = rt.taskID, rt.configID
	}
	for name, v := range query {
		params[name] = v
		if name == "includeArtifacts" {
			if v != "true" && v != "false" {
				return nil, invalid(codeInvalidParams, "%s: includeArtifacts %q is not true or false", method, v)
			}
			params[name] = v == "true"
		}
	}
	out, _ := json.Marshal(params)
	return out, nil
}
