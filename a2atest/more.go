package a2atest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// WithCard serves a copy of card (a GET, no credentials needed) at each of
// paths, default [a2a.AgentCardPath], from the server's root: resolve it
// with [a2a.ResolveAgentCard] on the server's URL without its
// "/a2a/jsonrpc" path. Pass [a2a.LegacyAgentCardPath] to play an agent
// from before v0.3.0. An empty URL is set to the server's.
func WithCard(card *a2a.AgentCard, paths ...string) Option {
	return func(s *Server) {
		cp := *card
		s.card = &cp
		s.cardPaths = paths
		if len(paths) == 0 {
			s.cardPaths = []string{a2a.AgentCardPath}
		}
	}
}

// WithExtendedCard makes agent/getAuthenticatedExtendedCard return a copy
// of card (checked like every call against the Require* options). Without
// it the method answers -32007. An empty URL is set to the server's.
func WithExtendedCard(card *a2a.AgentCard) Option {
	return func(s *Server) {
		cp := *card
		s.extendedCard = &cp
	}
}

// serveCard answers a GET: the card on its paths, 404 elsewhere.
func (s *Server) serveCard(w http.ResponseWriter, r *http.Request) {
	if s.card == nil || !slices.Contains(s.cardPaths, r.URL.Path) {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(s.card)
}

// serveStream answers message/stream and tasks/resubscribe with Server-Sent
// Events, or with a JSON-RPC error before any event.
func (s *Server) serveStream(w http.ResponseWriter, env envelope) {
	var events []any
	var raw string
	if *env.Method == "message/stream" {
		rep, first, rpcErr := s.sendReply(env.Params)
		if rpcErr != nil {
			writeJSON(w, env.ID, nil, rpcErr)
			return
		}
		raw = rep.StreamRaw
		switch {
		case rep.StreamRaw != "":
		case len(rep.Events) > 0:
			for _, ev := range rep.Events {
				events = append(events, ev)
			}
		default:
			events = append(events, first)
			if t, ok := first.(a2a.Task); ok {
				events = append(events, s.remaining(t.ID)...)
			}
		}
	} else {
		var p queryParams
		if err := json.Unmarshal(env.Params, &p); err != nil || p.ID == "" {
			writeJSON(w, env.ID, nil, invalid(codeInvalidParams, "tasks/resubscribe: params.id is missing"))
			return
		}
		s.mu.Lock()
		_, ok := s.tasks[p.ID]
		s.mu.Unlock()
		if !ok {
			writeJSON(w, env.ID, nil, invalid(codeTaskNotFound, "task not found: %s", p.ID))
			return
		}
		events = s.remaining(p.ID)
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	if raw != "" {
		w.Write(bytes.ReplaceAll([]byte(raw), []byte("{{id}}"), env.ID))
		return
	}
	for _, ev := range events {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": env.ID, "result": ev})
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
}

// remaining moves a scripted task through the rest of its states and
// returns a status update per state (the artifacts just before the last,
// which is final). A task at its end gives one final status update.
func (s *Server) remaining(taskID string) []any {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.tasks[taskID]
	update := func(final bool) a2a.TaskStatusUpdateEvent {
		t := sc.current()
		return a2a.TaskStatusUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Status: t.Status, Final: final}
	}
	var out []any
	for sc.pos < len(sc.states)-1 {
		sc.pos++
		last := sc.pos == len(sc.states)-1
		if last {
			t := sc.current()
			for _, a := range t.Artifacts {
				out = append(out, a2a.TaskArtifactUpdateEvent{TaskID: t.ID, ContextID: t.ContextID, Artifact: a, LastChunk: true})
			}
		}
		out = append(out, update(last))
	}
	if len(out) == 0 {
		out = append(out, update(true))
	}
	return out
}

// pushConfig serves the four tasks/pushNotificationConfig methods from an
// in-memory store. A config set without an id gets "cfg-N".
func (s *Server) pushConfig(method string, raw json.RawMessage) (any, *a2a.RPCError) {
	var p struct {
		ID                     string                      `json:"id"`
		TaskID                 string                      `json:"taskId"`
		ConfigID               string                      `json:"pushNotificationConfigId"`
		PushNotificationConfig *a2a.PushNotificationConfig `json:"pushNotificationConfig"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, invalid(codeInvalidParams, "%s: %v", method, err)
	}
	taskID := p.ID
	if strings.HasSuffix(method, "/set") {
		taskID = p.TaskID
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.tasks[taskID]; !ok {
		return nil, invalid(codeTaskNotFound, "task not found: %s", taskID)
	}
	configs := s.push[taskID]
	find := func(id string) int {
		return slices.IndexFunc(configs, func(c a2a.PushNotificationConfig) bool { return id == "" || c.ID == id })
	}
	switch method[strings.LastIndex(method, "/")+1:] {
	case "set":
		if p.PushNotificationConfig == nil || p.PushNotificationConfig.URL == "" {
			return nil, invalid(codeInvalidParams, "%s: pushNotificationConfig.url is missing", method)
		}
		cfg := *p.PushNotificationConfig
		if cfg.ID == "" {
			s.nextPush++
			cfg.ID = fmt.Sprintf("cfg-%d", s.nextPush)
		}
		if i := find(cfg.ID); i >= 0 {
			configs[i] = cfg
		} else {
			configs = append(configs, cfg)
		}
		s.push[taskID] = configs
		return a2a.TaskPushNotificationConfig{TaskID: taskID, PushNotificationConfig: cfg}, nil
	case "get":
		i := find(p.ConfigID)
		if i < 0 {
			return nil, invalid(codeInvalidParams, "push notification config %q not found", p.ConfigID)
		}
		return a2a.TaskPushNotificationConfig{TaskID: taskID, PushNotificationConfig: configs[i]}, nil
	case "list":
		out := []a2a.TaskPushNotificationConfig{}
		for _, c := range configs {
			out = append(out, a2a.TaskPushNotificationConfig{TaskID: taskID, PushNotificationConfig: c})
		}
		return out, nil
	default: // delete
		i := find(p.ConfigID)
		if p.ConfigID == "" || i < 0 {
			return nil, invalid(codeInvalidParams, "push notification config %q not found", p.ConfigID)
		}
		s.push[taskID] = slices.Delete(configs, i, i+1)
		return nil, nil
	}
}
