package a2atest

import (
	"encoding/json"
	"net/http"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The A2A v0.3 server: v0.3 method names, params read leniently as a
// v0.3 server does, results encoded by the a2a types' own MarshalJSON
// (with "kind").

// serveV03 answers a parsed JSON-RPC request in A2A v0.3.
func (s *Server) serveV03(w http.ResponseWriter, env envelope) {
	if rpcErr := s.checkV03(env); rpcErr != nil {
		s.writeJSON(w, env.ID, nil, rpcErr)
		return
	}
	switch *env.Method {
	case "message/stream":
		rep, first, rpcErr := s.sendV03(env.Params)
		if rpcErr != nil {
			s.writeJSON(w, env.ID, nil, rpcErr)
			return
		}
		s.streamReply(w, env.ID, rep, first)
		return
	case "tasks/resubscribe":
		var p queryParams
		if err := json.Unmarshal(env.Params, &p); err != nil || p.ID == "" {
			s.writeJSON(w, env.ID, nil, invalid(codeInvalidParams, "tasks/resubscribe: params.id is missing"))
			return
		}
		if _, ok := s.snapshot(p.ID); !ok {
			s.writeJSON(w, env.ID, nil, invalid(codeTaskNotFound, "task not found: %s", p.ID))
			return
		}
		s.writeEvents(w, env.ID, s.remaining(p.ID, true))
		return
	}
	result, rpcErr := s.handleV03(env)
	s.writeJSON(w, env.ID, result, rpcErr)
}

// checkV03 checks the envelope, the agent selector and the params.
func (s *Server) checkV03(env envelope) *a2a.RPCError {
	if rpcErr := checkEnvelope(env); rpcErr != nil {
		return rpcErr
	}
	if rpcErr := s.checkSelector(env); rpcErr != nil {
		return rpcErr
	}
	if *env.Method == "agent/getAuthenticatedExtendedCard" {
		return nil // the one method without params
	}
	return checkParamsObject(env)
}

// handleV03 dispatches a checked unary request on its method.
func (s *Server) handleV03(env envelope) (any, *a2a.RPCError) {
	switch *env.Method {
	case "message/send":
		_, result, rpcErr := s.sendV03(env.Params)
		return result, rpcErr
	case "tasks/get":
		var p queryParams
		if err := json.Unmarshal(env.Params, &p); err != nil || p.ID == "" {
			return nil, invalid(codeInvalidParams, "tasks/get: params.id is missing")
		}
		if p.HistoryLength != nil && *p.HistoryLength < 0 {
			return nil, invalid(codeInvalidParams, "tasks/get: historyLength is negative")
		}
		return orNil(s.getTask(p.ID, p.HistoryLength))
	case "tasks/cancel":
		var p queryParams
		if err := json.Unmarshal(env.Params, &p); err != nil || p.ID == "" {
			return nil, invalid(codeInvalidParams, "tasks/cancel: params.id is missing")
		}
		return orNil(s.cancelTask(p.ID))
	case "tasks/pushNotificationConfig/set", "tasks/pushNotificationConfig/get",
		"tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/delete":
		return s.pushConfigV03(*env.Method, env.Params)
	case "agent/getAuthenticatedExtendedCard":
		if s.extendedCard == nil {
			return nil, invalid(codeExtendedCardNotConfigured, "authenticated extended card is not configured")
		}
		return s.extendedCard, nil
	default:
		return nil, invalid(codeMethodNotFound, "method not found: %s", *env.Method)
	}
}

// orNil returns t as a result, or nil with the error.
func orNil(t a2a.Task, rpcErr *a2a.RPCError) (any, *a2a.RPCError) {
	if rpcErr != nil {
		return nil, rpcErr
	}
	return t, nil
}

type queryParams struct {
	ID            string `json:"id"`
	HistoryLength *int   `json:"historyLength"`
}

type sendParams struct {
	// Message's kind is read apart (sendV03): a2a.Message has its own
	// UnmarshalJSON, so it cannot be embedded beside a Kind field.
	Message       *a2a.Message `json:"message"`
	Configuration *struct {
		Blocking               *bool                       `json:"blocking"`
		PushNotificationConfig *a2a.PushNotificationConfig `json:"pushNotificationConfig"`
	} `json:"configuration"`
}

// sendV03 checks a message/send or message/stream request and hands the
// message, and the webhook its configuration registers, to accept.
func (s *Server) sendV03(raw json.RawMessage) (Reply, any, *a2a.RPCError) {
	var p sendParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return Reply{}, nil, invalid(codeInvalidParams, "message/send params: %v", err)
	}
	if p.Message == nil {
		return Reply{}, nil, invalid(codeInvalidParams, "message/send: params.message is missing")
	}
	var kind struct {
		Message struct {
			Kind string `json:"kind"`
		} `json:"message"`
	}
	json.Unmarshal(raw, &kind) // raw decoded above
	m := *p.Message
	switch {
	case kind.Message.Kind != "message":
		return Reply{}, nil, invalid(codeInvalidParams, `message/send: message.kind must be "message"`)
	case m.Role != a2a.RoleUser || m.RawRole != "": // "ROLE_USER" is v1.0, not v0.3
		return Reply{}, nil, invalid(codeInvalidParams, `message/send: message.role must be "user"`)
	case m.MessageID == "":
		return Reply{}, nil, invalid(codeInvalidParams, "message/send: message.messageId is missing")
	case len(m.Parts) == 0:
		return Reply{}, nil, invalid(codeInvalidParams, "message/send: message.parts is empty")
	}
	for i, part := range m.Parts {
		if _, ok := part.(a2a.UnknownPart); ok {
			return Reply{}, nil, invalid(codeInvalidParams, "message/send: part %d has unknown kind %q", i, part.Kind())
		}
	}
	var push *a2a.PushNotificationConfig
	if c := p.Configuration; c != nil && c.PushNotificationConfig != nil {
		if push = c.PushNotificationConfig; push.URL == "" {
			return Reply{}, nil, invalid(codeInvalidParams, "message/send: configuration.pushNotificationConfig.url is missing")
		}
	}
	return s.accept(m, push)
}

// pushConfigV03 serves the four tasks/pushNotificationConfig methods.
func (s *Server) pushConfigV03(method string, raw json.RawMessage) (any, *a2a.RPCError) {
	var p struct {
		ID                     string                      `json:"id"`
		TaskID                 string                      `json:"taskId"`
		ConfigID               string                      `json:"pushNotificationConfigId"`
		PushNotificationConfig *a2a.PushNotificationConfig `json:"pushNotificationConfig"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, invalid(codeInvalidParams, "%s: %v", method, err)
	}
	bound := func(cfg a2a.PushNotificationConfig) a2a.TaskPushNotificationConfig {
		return a2a.TaskPushNotificationConfig{TaskID: p.ID, PushNotificationConfig: cfg}
	}
	switch method[strings.LastIndex(method, "/")+1:] {
	case "set":
		if _, ok := s.snapshot(p.TaskID); !ok {
			return nil, invalid(codeTaskNotFound, "task not found: %s", p.TaskID)
		}
		if p.PushNotificationConfig == nil || p.PushNotificationConfig.URL == "" {
			return nil, invalid(codeInvalidParams, "%s: pushNotificationConfig.url is missing", method)
		}
		cfg, rpcErr := s.setPush(p.TaskID, *p.PushNotificationConfig)
		if rpcErr != nil {
			return nil, rpcErr
		}
		return a2a.TaskPushNotificationConfig{TaskID: p.TaskID, PushNotificationConfig: cfg}, nil
	case "get":
		cfg, rpcErr := s.getPush(p.ID, p.ConfigID)
		if rpcErr != nil {
			return nil, rpcErr
		}
		return bound(cfg), nil
	case "list":
		configs, rpcErr := s.pushConfigs(p.ID)
		if rpcErr != nil {
			return nil, rpcErr
		}
		out := []a2a.TaskPushNotificationConfig{}
		for _, c := range configs {
			out = append(out, bound(c))
		}
		return out, nil
	default: // delete
		return nil, s.deletePush(p.ID, p.ConfigID)
	}
}
