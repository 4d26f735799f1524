package a2atest

import (
	"encoding/json"
	"net/http"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The A2A v0.3 HTTP+JSON server: /v1/ paths, bodies read strictly as the
// v0.3 proto's request messages in ProtoJSON (rest_v03json.go writes the
// results), errors as google.rpc.Status, as a2a-go's and a2a-python's
// v0.3 compatibility servers send them. The store is the one JSON-RPC
// uses (tasks.go).

// pushIn03 is PushNotificationConfig, as read and written.
type pushIn03 struct {
	ID             string  `json:"id,omitempty"`
	URL            string  `json:"url"`
	Token          string  `json:"token,omitempty"`
	Authentication *auth03 `json:"authentication,omitempty"`
}

// auth03 is AuthenticationInfo: schemes and credentials.
type auth03 struct {
	Schemes     []string `json:"schemes"`
	Credentials string   `json:"credentials,omitempty"`
}

// stored is the config as the store keeps it.
func (p pushIn03) stored() a2a.PushNotificationConfig {
	cfg := a2a.PushNotificationConfig{ID: p.ID, URL: p.URL, Token: p.Token}
	if a := p.Authentication; a != nil {
		cfg.Authentication = &a2a.PushNotificationAuthenticationInfo{Schemes: a.Schemes, Credentials: a.Credentials}
	}
	return cfg
}

// messageIn03 is a Message as a client sends it: parts under "content".
type messageIn03 struct {
	MessageID        string          `json:"messageId"`
	ContextID        string          `json:"contextId"`
	TaskID           string          `json:"taskId"`
	Role             enumIn          `json:"role"`
	Content          []partIn03      `json:"content"`
	Metadata         json.RawMessage `json:"metadata"`
	Extensions       []string        `json:"extensions"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds"`
}

// partIn03 is a Part: one of text, file and data.
type partIn03 struct {
	Text *string `json:"text"`
	File *struct {
		FileWithURI   *string `json:"fileWithUri"`
		FileWithBytes *string `json:"fileWithBytes"`
		MimeType      string  `json:"mimeType"`
		Name          string  `json:"name"`
	} `json:"file"`
	Data *struct {
		Data json.RawMessage `json:"data"`
	} `json:"data"`
	Metadata json.RawMessage `json:"metadata"`
}

// message checks a user message (role ROLE_USER, a messageId, content
// parts each with one member, a file with one of fileWithUri and
// fileWithBytes, bytes in base64, data holding data) and returns it as the
// a2a type. A file's bytes are kept as sent: the base64 of the proto's
// bytes is FileContent.Bytes.
func (m messageIn03) message(method string) (a2a.Message, *a2a.RPCError) {
	switch {
	case m.Role.name(roleNames) != "ROLE_USER":
		return a2a.Message{}, invalid(codeInvalidParams, `%s: message.role must be "ROLE_USER"`, method)
	case m.MessageID == "":
		return a2a.Message{}, invalid(codeInvalidParams, "%s: message.messageId is missing", method)
	case len(m.Content) == 0:
		return a2a.Message{}, invalid(codeInvalidParams, "%s: message.content is empty", method)
	}
	out := a2a.Message{MessageID: m.MessageID, Role: a2a.RoleUser, TaskID: m.TaskID, ContextID: m.ContextID,
		ReferenceTaskIDs: m.ReferenceTaskIDs, Extensions: m.Extensions, Metadata: m.Metadata, Parts: make(a2a.Parts, len(m.Content))}
	for i, p := range m.Content {
		fault := ""
		switch n := btoi(p.Text != nil) + btoi(p.File != nil) + btoi(p.Data != nil); {
		case n != 1:
			fault = "must have exactly one of text, file and data"
		case p.Text != nil:
			out.Parts[i] = a2a.TextPart{Text: *p.Text, Metadata: p.Metadata}
		case p.Data != nil:
			if len(p.Data.Data) == 0 {
				fault = "has no data.data"
			}
			out.Parts[i] = a2a.DataPart{Data: p.Data.Data, Metadata: p.Metadata}
		default:
			f := p.File
			file := a2a.FileContent{Name: f.Name, MIMEType: f.MimeType}
			switch {
			case (f.FileWithURI == nil) == (f.FileWithBytes == nil):
				fault = "file must have exactly one of fileWithUri and fileWithBytes"
			case f.FileWithBytes != nil && !isBase64(*f.FileWithBytes):
				fault = "file has fileWithBytes that are not base64"
			case f.FileWithBytes != nil:
				file.Bytes = *f.FileWithBytes
			default:
				file.URI = *f.FileWithURI
			}
			out.Parts[i] = a2a.FilePart{File: file, Metadata: p.Metadata}
		}
		if fault != "" {
			return a2a.Message{}, invalid(codeInvalidParams, "%s: message.content[%d] %s", method, i, fault)
		}
	}
	return out, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// serveRESTV03 answers a checked A2A v0.3 HTTP+JSON request for method.
func (s *Server) serveRESTV03(w http.ResponseWriter, rt restRoute, method string, query map[string]string, body []byte) {
	result, rpcErr := s.handleRESTV03(w, rt, method, query, body)
	switch {
	case rpcErr != nil:
		writeStatus(w, rpcErr)
	case result != nil:
		writeResult(w, result)
	}
}

// handleRESTV03 serves method: it returns the result to write, or the
// error, or neither when it wrote a stream.
func (s *Server) handleRESTV03(w http.ResponseWriter, rt restRoute, method string, query map[string]string, body []byte) (any, *a2a.RPCError) {
	id := rt.taskID
	var params json.RawMessage // a GET's: its query and ids
	var q struct {
		Tenant, ID, TaskID string
		HistoryLength      *int32In
		PageSize           *int32In
		PageToken          string
	}
	if restBody[method] == "" {
		var rpcErr *a2a.RPCError
		if params, rpcErr = restParams(rt, method, query, nil); rpcErr != nil {
			return nil, rpcErr
		}
		if method != "ListTasks" {
			if rpcErr := decodeStrict(method, params, &q); rpcErr != nil {
				return nil, rpcErr
			}
		}
	}
	frame := func(ev any) any { return streamResponse03(ev) }
	switch method {
	case "SendMessage", "SendStreamingMessage":
		rep, first, rpcErr := s.sendV03REST(method, body)
		switch {
		case rpcErr != nil:
			return nil, rpcErr
		case method == "SendMessage":
			return streamResponse03(first), nil
		case rep.StreamRaw != "":
			writeStreamRaw(w, rep.StreamRaw, json.RawMessage("null"))
		default:
			sendEvents(w, s.replyEvents(rep, first, true), frame)
		}
		return nil, nil
	case "GetTask":
		n, rpcErr := q.HistoryLength.count(method, "historyLength")
		if rpcErr != nil {
			return nil, rpcErr
		}
		t, rpcErr := s.getTask(id, n)
		if rpcErr != nil {
			return nil, rpcErr
		}
		return taskV03(t), nil
	case "ListTasks":
		page, rpcErr := s.queryTasks(method, params, v03States, stateNames03)
		if rpcErr != nil {
			return nil, rpcErr
		}
		out := struct {
			Tasks         []*task03 `json:"tasks"`
			NextPageToken string    `json:"nextPageToken,omitempty"`
		}{Tasks: []*task03{}, NextPageToken: page.next}
		for _, t := range page.tasks {
			out.Tasks = append(out.Tasks, taskV03(t))
		}
		return out, nil
	case "CancelTask":
		var p struct {
			Name *string `json:"name"`
		}
		if len(body) > 0 {
			if rpcErr := decodeStrict(method, body, &p); rpcErr != nil {
				return nil, rpcErr
			}
		}
		if p.Name != nil && *p.Name != "tasks/"+id {
			return nil, invalid(codeInvalidParams, "%s: name %q in the body is not the path's tasks/%s", method, *p.Name, id)
		}
		t, rpcErr := s.cancelTask(id)
		if rpcErr != nil {
			return nil, rpcErr
		}
		return taskV03(t), nil
	case "SubscribeToTask":
		t, ok := s.snapshot(id)
		if !ok {
			return nil, invalid(codeTaskNotFound, "task not found: %s", id)
		}
		sendEvents(w, append([]any{t}, s.remaining(id, !t.Status.State.Terminal())...), frame)
		return nil, nil
	case "CreateTaskPushNotificationConfig":
		return s.createPushV03(method, id, body)
	case "GetTaskPushNotificationConfig":
		cfg, rpcErr := s.getPush(id, rt.configID)
		if rpcErr != nil {
			return nil, rpcErr
		}
		return pushV03(id, cfg), nil
	case "ListTaskPushNotificationConfigs":
		configs, next, rpcErr := s.pushPage(method, id, q.PageSize, q.PageToken)
		if rpcErr != nil {
			return nil, rpcErr
		}
		out := struct {
			Configs       []push03 `json:"configs"`
			NextPageToken string   `json:"nextPageToken,omitempty"`
		}{Configs: []push03{}, NextPageToken: next}
		for _, c := range configs {
			out.Configs = append(out.Configs, pushV03(id, c))
		}
		return out, nil
	case "DeleteTaskPushNotificationConfig":
		if rpcErr := s.deletePush(id, rt.configID); rpcErr != nil {
			return nil, rpcErr
		}
		return struct{}{}, nil // google.protobuf.Empty
	}
	// GetExtendedAgentCard: GET /v1/card, the card as v0.3 writes it.
	if s.extendedCard == nil {
		return nil, invalid(codeExtendedCardNotConfigured, "authenticated extended card is not configured")
	}
	return s.extendedCard, nil
}

// sendV03REST checks a v0.3 SendMessageRequest and hands the message, and
// the webhook its configuration registers, to accept. A historyLength of
// 0 is all the history (the v0.3 proto's reading); blocking is not
// looked at: the script runs whatever it says, as in v0.3 JSON-RPC.
func (s *Server) sendV03REST(method string, body []byte) (Reply, any, *a2a.RPCError) {
	var p struct {
		Message       *messageIn03 `json:"message"`
		Configuration *struct {
			AcceptedOutputModes []string  `json:"acceptedOutputModes"`
			PushNotification    *pushIn03 `json:"pushNotification"`
			HistoryLength       *int32In  `json:"historyLength"`
			Blocking            bool      `json:"blocking"`
		} `json:"configuration"`
		Metadata json.RawMessage `json:"metadata"`
	}
	if rpcErr := decodeStrict(method, body, &p); rpcErr != nil {
		return Reply{}, nil, rpcErr
	}
	if p.Message == nil {
		return Reply{}, nil, invalid(codeInvalidParams, "%s: message is missing", method)
	}
	m, rpcErr := p.Message.message(method)
	if rpcErr != nil {
		return Reply{}, nil, rpcErr
	}
	var history *int
	var push *a2a.PushNotificationConfig
	if c := p.Configuration; c != nil {
		if history, rpcErr = c.HistoryLength.count(method, "configuration.historyLength"); rpcErr != nil {
			return Reply{}, nil, rpcErr
		}
		if history != nil && *history == 0 {
			history = nil
		}
		if c.PushNotification != nil {
			if c.PushNotification.URL == "" {
				return Reply{}, nil, invalid(codeInvalidParams, "%s: configuration.pushNotification.url is missing", method)
			}
			cfg := c.PushNotification.stored()
			push = &cfg
		}
	}
	rep, first, rpcErr := s.accept(m, push)
	if t, ok := first.(a2a.Task); ok {
		trimHistory(&t, history)
		first = t
	}
	return rep, first, rpcErr
}

// createPushV03 serves CreateTaskPushNotificationConfig in either form a
// v0.3 client sends: the request {"parent": "tasks/{id}", "configId",
// "config": {"name", "pushNotificationConfig"}} (a2a-python 0.3 servers
// parse it; a2a-go's compatibility client sends it) or the bare config
// {"name", "pushNotificationConfig"} (the proto's body: "config"). The
// parent and name must be the path's task; the config id is configId, the
// name's last segment or pushNotificationConfig.id, which must agree.
func (s *Server) createPushV03(method, taskID string, body []byte) (any, *a2a.RPCError) {
	type config struct {
		Name                   *string   `json:"name"`
		PushNotificationConfig *pushIn03 `json:"pushNotificationConfig"`
	}
	var p struct {
		Parent   *string `json:"parent"`
		ConfigID *string `json:"configId"`
		Config   *config `json:"config"`
		config
	}
	if rpcErr := decodeStrict(method, body, &p); rpcErr != nil {
		return nil, rpcErr
	}
	c := p.config
	switch request := p.Parent != nil || p.ConfigID != nil || p.Config != nil; {
	case request && (c.Name != nil || c.PushNotificationConfig != nil):
		return nil, invalid(codeInvalidParams, "%s: the body mixes the request form (parent, configId, config) and the bare config", method)
	case request && (p.Parent == nil || *p.Parent != "tasks/"+taskID):
		return nil, invalid(codeInvalidParams, "%s: parent must be the path's %q", method, "tasks/"+taskID)
	case request && p.Config == nil:
		return nil, invalid(codeInvalidParams, "%s: config is missing", method)
	case request:
		c = *p.Config
	}
	if c.PushNotificationConfig == nil || c.PushNotificationConfig.URL == "" {
		return nil, invalid(codeInvalidParams, "%s: pushNotificationConfig.url is missing", method)
	}
	ids := []string{c.PushNotificationConfig.ID}
	if p.ConfigID != nil {
		ids = append(ids, *p.ConfigID)
	}
	if c.Name != nil {
		prefix := "tasks/" + taskID + "/pushNotificationConfigs/"
		cid, ok := strings.CutPrefix(*c.Name, prefix)
		if !ok {
			return nil, invalid(codeInvalidParams, "%s: name %q is not %s{configId}", method, *c.Name, prefix)
		}
		ids = append(ids, cid)
	}
	cfg := c.PushNotificationConfig.stored()
	for _, id := range ids {
		if id != "" && cfg.ID != "" && id != cfg.ID {
			return nil, invalid(codeInvalidParams, "%s: config ids %q disagree", method, ids)
		}
		if id != "" {
			cfg.ID = id
		}
	}
	stored, rpcErr := s.setPush(taskID, cfg)
	if rpcErr != nil {
		return nil, rpcErr
	}
	return pushV03(taskID, stored), nil
}
