package main

import (
	"bytes"
	"encoding/json"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// -o json prints the agent's own bytes (the specification's §11.3 and
// Appendix B): one document, or one line an event with --stream, each
// compacted onto one line, redacted and made inert (outJSON), never
// re-encoded. In A2A v1.0 (and v0.3 over HTTP+JSON) send's result is
// the SendMessageResponse ({"task":…} or {"message":…}) and a stream's
// events the StreamResponse ({"statusUpdate":…}); in v0.3 over JSON-RPC
// they are the objects themselves, each with its "kind".

// printTaskJSON prints a task as the agent sent it (send: as send's
// result).
func (o *options) printTaskJSON(task *a2a.Task, send bool) {
	raw := task.Raw()
	if raw == nil { // a value folded from events: the package's encoding
		raw, _ = json.Marshal(task)
	}
	if send {
		raw = o.wrapped("task", raw)
	}
	o.outJSON(compact(raw))
}

// printMessageJSON prints a Message as the agent sent it.
func (o *options) printMessageJSON(m *a2a.Message, send bool) {
	raw := rawOf(m)
	if send {
		raw = o.wrapped("message", raw)
	}
	o.outJSON(compact(raw))
}

// printEventJSON prints one stream event as one line.
func (o *options) printEventJSON(ev a2a.Event) {
	member, _ := eventNames(ev)
	o.outJSON(compact(o.wrapped(member, rawOf(ev))))
}

// wrapped is raw under member where the binding wraps it
// (SendMessageResponse, StreamResponse: A2A v1.0, and v0.3 over
// HTTP+JSON, whose objects are the proto's), and raw itself in v0.3 over
// JSON-RPC, whose objects carry their "kind".
func (o *options) wrapped(member string, raw []byte) []byte {
	if o.spoken == a2a.ProtocolV03 && o.spokenTransport == a2a.TransportJSONRPC || member == "" {
		return raw
	}
	b, _ := json.Marshal(member)
	return append(append(append(append([]byte{'{'}, b...), ':'), raw...), '}')
}

// compact is b on one line, or b as it is when it is not JSON.
func compact(b []byte) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}

// resume prints what takes the task up again: the ids and the exact
// command (verb: "answer" a task that waits for input, "get" one not
// finished, "subscribe" after a stream), each word quoted for a shell
// (quote). In text mode a "Resume:" field on stdout, with -o json a line
// on stderr.
func (o *options) resume(task *a2a.Task, verb string) {
	id := quote(task.ID)
	if strings.HasPrefix(task.ID, "-") {
		id = "-- " + id // an id, not a flag
	}
	var line string
	switch verb {
	case "answer":
		line = "a2a send" + o.sameAgent() + " --task-id " + quote(task.ID) + contextFlag(task) + " 'ANSWER'"
	case "subscribe":
		line = "a2a task subscribe" + o.sameAgent() + " " + id
	default:
		line = "a2a task get --wait" + o.sameAgent() + " " + id
	}
	if o.json() {
		o.errf("resume: %s\n", line)
		return
	}
	o.field("Resume", line)
}

func contextFlag(task *a2a.Task) string {
	if task.ContextID == "" {
		return ""
	}
	return " --context-id " + quote(task.ContextID)
}

// sameAgent is the flags, each word quoted and with a space before it,
// that make a printed command reach the agent as this one did: the card
// or endpoint, --a2a-version and --transport when given, the tenant, the
// agent selector and the workspace (the key, the token and the service
// parameters are the user's to give again: they are secrets). A flag
// that came from the environment or a .env file is left out: it will
// come from there again.
func (o *options) sameAgent() string {
	typed := func(name, value string) string {
		if o.source[name] == "flag" {
			return value
		}
		return ""
	}
	agentCard, endpoint := typed("agent-card", o.agentCard), typed("endpoint", o.endpoint)
	if agentCard != "" && strings.Contains(agentCard, "://") {
		agentCard = o.shownURL(agentCard)
	}
	if endpoint != "" {
		endpoint = o.shownURL(endpoint)
	}
	return flagWords("a", agentCard, "e", endpoint, "a2a-version", typed("a2a-version", o.a2aVersion), "transport", typed("transport", o.transport.String()),
		"tenant", typed("tenant", o.tenant), "agent-id", typed("agent-id", o.agentID), "agent-code", typed("agent-code", o.agentCode), "workspace", typed("workspace", o.workspace))
}

// flagWords is " -N VALUE" or " --NAME VALUE" for each pair of
// nameValues whose value is not empty, each value quoted for a shell.
func flagWords(nameValues ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(nameValues); i += 2 {
		if v := nameValues[i+1]; v != "" {
			dash := "--"
			if len(nameValues[i]) == 1 {
				dash = "-"
			}
			b.WriteString(" " + dash + nameValues[i] + " " + quote(v))
		}
	}
	return b.String()
}

// rawOf is v's bytes as the agent sent them (its Raw method), or the
// package's encoding of a value it built or folded.
func rawOf(v any) []byte {
	if r, ok := v.(interface{ Raw() json.RawMessage }); ok {
		if b := r.Raw(); b != nil {
			return b
		}
	}
	b, _ := json.Marshal(v)
	return b
}

// listJSON is a page of tasks as a ListTasksResponse: each task's own
// bytes (the package keeps no bytes of the page itself), with the page's
// token and sizes.
func listJSON(page *a2a.ListTasksResponse) []byte {
	tasks := make([]json.RawMessage, len(page.Tasks))
	for i, t := range page.Tasks {
		tasks[i] = rawOf(t)
	}
	b, _ := json.Marshal(struct {
		Tasks         []json.RawMessage `json:"tasks"`
		NextPageToken string            `json:"nextPageToken"`
		PageSize      int               `json:"pageSize"`
		TotalSize     int               `json:"totalSize"`
	}{tasks, page.NextPageToken, page.PageSize, page.TotalSize})
	return b
}

// eventNames are an event's member in a StreamResponse (A2A v1.0:
// "statusUpdate") and its name in the text output ("status-update").
func eventNames(ev a2a.Event) (member, label string) {
	switch ev.(type) {
	case *a2a.Task:
		return "task", "task"
	case *a2a.Message:
		return "message", "message"
	case *a2a.TaskStatusUpdateEvent:
		return "statusUpdate", "status-update"
	case *a2a.TaskArtifactUpdateEvent:
		return "artifactUpdate", "artifact-update"
	}
	return "", "event"
}
