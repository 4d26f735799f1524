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
		writeStreamRaw(w, rep.StreamRaw, id)
		return
	}
	s.writeEvents(w, id, s.replyEvents(rep, first, !s.v10))
}

// writeStreamRaw writes a Reply's StreamRaw as an event stream, {{id}}
// replaced by id.
func writeStreamRaw(w http.ResponseWriter, raw string, id json.RawMessage) {
	startEvents(w)
	w.Write(bytes.ReplaceAll([]byte(raw), []byte("{{id}}"), id))
}

// replyEvents are the events of a stream answering rep: its Events, else
// first and, for a task, a status update per remaining state (atEnd: a
// final one when none remains, as v0.3 needs).
func (s *Server) replyEvents(rep Reply, first any, atEnd bool) []any {
	var events []any
	if len(rep.Events) > 0 {
		for _, ev := range rep.Events {
			events = append(events, ev)
		}
		return events
	}
	events = append(events, first)
	if t, ok := first.(a2a.Task); ok {
		events = append(events, s.remaining(t.ID, atEnd)...)
	}
	return events
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
	sendEvents(w, events, func(ev any) any {
		if s.v10 {
			ev = streamResponseOf(ev)
		}
		return s.response(id, ev, nil)
	})
}

// sendEvents writes events as Server-Sent Events, each as frame makes it
// (encoded with encoding/json), flushing each, and ends the stream.
func sendEvents(w http.ResponseWriter, events []any, frame func(any) any) {
	startEvents(w)
	flusher, _ := w.(http.Flusher)
	for _, ev := range events {
		b, _ := json.Marshal(frame(ev))
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
}
