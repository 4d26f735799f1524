package a2atest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// streamReply answers message/stream (SendStreamingMessage) with the
// Reply's events: StreamRaw as given, else Events, else first (the task or
// message a send would return) and, for a task, its remaining states.
func (s *Server) streamReply(w http.ResponseWriter, id json.RawMessage, rep Reply, first any) {
	if rep.StreamRaw != "" {
		startEvents(w)
		w.Write(bytes.ReplaceAll([]byte(rep.StreamRaw), []byte("{{id}}"), id))
		return
	}
	var events []any
	if len(rep.Events) > 0 {
		for _, ev := range rep.Events {
			events = append(events, ev)
		}
	} else {
		events = append(events, first)
		if t, ok := first.(a2a.Task); ok {
			events = append(events, s.remaining(t.ID, !s.v10)...)
		}
	}
	s.writeEvents(w, id, events)
}

// startEvents writes the headers of a Server-Sent Events reply.
func startEvents(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
}

// writeEvents writes events as Server-Sent Events, each the result of a
// JSON-RPC response with id in the server's version, and ends the stream.
func (s *Server) writeEvents(w http.ResponseWriter, id json.RawMessage, events []any) {
	startEvents(w)
	flusher, _ := w.(http.Flusher)
	for _, ev := range events {
		if s.v10 {
			ev = streamResponseOf(ev)
		}
		b, _ := json.Marshal(s.response(id, ev, nil))
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
}
