package a2a

import (
	"encoding/json"
	"net/http"
)

// The fast path decodes an ordinary successful reply (a 2xx JSON-RPC
// response with our id and a task or message result made only of text,
// data and file parts) in one json.Unmarshal of the body, into structs
// without custom unmarshalers. Anything else (errors, odd envelopes, parts
// of unknown kinds or missing fields, decoding errors) falls back to the
// general path (checkResponse, Task.UnmarshalJSON, Parts.UnmarshalJSON),
// which gives the same values and the precise errors. Both paths first
// pass the body through checkNames (names.go): a known member name that
// repeats or appears in another case is refused there, so encoding/json's
// loose matching and its handling of repeated names (merging on one path,
// last-wins on the other) never decide a value. The general path reads
// each byte of a result several times; this one about three times (the
// name check, then json.Unmarshal's validation and decoding).

type fastEnvelope struct {
	JSONRPC *string         `json:"jsonrpc"` // a pointer: a later "jsonrpc": null must clear it
	ID      json.RawMessage `json:"id"`
	Result  *fastResult     `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// fastResult holds the fields of a Task and of a Message; Kind says which.
type fastResult struct {
	Kind      string          `json:"kind"`
	ID        string          `json:"id"`
	ContextID string          `json:"contextId"`
	Status    json.RawMessage `json:"status"` // decoded by TaskStatus.UnmarshalJSON: exact keys
	History   []fastMessage   `json:"history"`
	Artifacts []fastArtifact  `json:"artifacts"`
	Metadata  json.RawMessage `json:"metadata"`
	fastMessageFields
}

type fastMessageFields struct {
	MessageID        string     `json:"messageId"`
	Role             Role       `json:"role"`
	Parts            []fastPart `json:"parts"`
	TaskID           string     `json:"taskId"`
	ReferenceTaskIDs []string   `json:"referenceTaskIds"`
	Extensions       []string   `json:"extensions"`
}

type fastMessage struct {
	fastMessageFields
	ContextID string          `json:"contextId"`
	Metadata  json.RawMessage `json:"metadata"`
}

type fastArtifact struct {
	ArtifactID  string          `json:"artifactId"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parts       []fastPart      `json:"parts"`
	Metadata    json.RawMessage `json:"metadata"`
	Extensions  []string        `json:"extensions"`
}

type fastPart = partWire

// fastReply decodes st.body on the fast path, or returns nil for the
// general path to take over.
func (c *Client) fastReply(st *callState, resp *http.Response) *reply {
	if !is2xx(resp.StatusCode) {
		return nil
	}
	if checkNames(st.body, st.names()) != "" {
		return nil // the general path reports it
	}
	var env fastEnvelope
	if json.Unmarshal(st.body, &env) != nil || env.JSONRPC == nil || *env.JSONRPC != "2.0" || env.Error != nil || env.Result == nil || !sameID(env.ID, st.id) {
		return nil
	}
	rep := &reply{c: c, method: st.method, status: resp.StatusCode, body: st.body}
	r := env.Result
	switch r.Kind {
	case "task":
		if r.ID == "" {
			return nil
		}
		t := &Task{ID: r.ID, ContextID: r.ContextID, Metadata: r.Metadata, kind: r.Kind, body: st.body}
		// The state decides success: the status goes through the same
		// exact-key decoding as on the general path.
		if r.Status != nil && t.Status.UnmarshalJSON(r.Status) != nil {
			return nil
		}
		if r.History != nil {
			t.History = make([]Message, len(r.History))
			for i := range r.History {
				m, ok := r.History[i].message()
				if !ok {
					return nil
				}
				t.History[i] = m
			}
		}
		if r.Artifacts != nil {
			t.Artifacts = make([]Artifact, len(r.Artifacts))
			for i, a := range r.Artifacts {
				parts, ok := fastParts(a.Parts)
				if !ok {
					return nil
				}
				t.Artifacts[i] = Artifact{ArtifactID: a.ArtifactID, Name: a.Name, Description: a.Description,
					Parts: parts, Metadata: a.Metadata, Extensions: a.Extensions}
			}
		}
		rep.task = t
	case "message":
		if st.method != "message/send" {
			return nil // the general path names the wrong kind, or the decoding fault
		}
		m, ok := fastMessage{fastMessageFields: r.fastMessageFields, ContextID: r.ContextID, Metadata: r.Metadata}.message()
		if !ok {
			return nil
		}
		rep.msg = &m
	default:
		return nil
	}
	return rep
}

func (m fastMessage) message() (Message, bool) {
	parts, ok := fastParts(m.Parts)
	role, rawRole := v03Role(m.Role)
	return Message{MessageID: m.MessageID, Role: role, RawRole: rawRole, Parts: parts, TaskID: m.TaskID, ContextID: m.ContextID,
		ReferenceTaskIDs: m.ReferenceTaskIDs, Extensions: m.Extensions, Metadata: m.Metadata}, ok
}

// fastParts converts decoded parts; false means a part the general path
// must judge (an unknown kind, whose bytes it keeps, or a missing field).
func fastParts(in []fastPart) (Parts, bool) {
	if in == nil {
		return nil, true
	}
	out := make(Parts, len(in))
	for i, p := range in {
		switch {
		case p.Kind == KindText && p.Text != nil:
			out[i] = TextPart{Text: *p.Text, Metadata: p.Metadata}
		case p.Kind == KindData && p.Data != nil:
			out[i] = DataPart{Data: p.Data, Metadata: p.Metadata}
		case p.Kind == KindFile && p.File != nil:
			out[i] = FilePart{File: *p.File, Metadata: p.Metadata}
		default:
			return nil, false
		}
	}
	return out, true
}
