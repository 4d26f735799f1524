package a2atest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The A2A v1.0 reader: request members as the proto declares them, read
// with decodeStrict (unknown members refused), and turned into the a2a
// types the OnSend handler sees. Names are ProtoJSON's lowerCamelCase;
// enums may be names or numbers, int32s numbers or strings, as ProtoJSON
// readers must accept.

// stateNames and roleNames are the v1.0 enums by number.
var (
	stateNames = []string{"TASK_STATE_UNSPECIFIED", "TASK_STATE_SUBMITTED", "TASK_STATE_WORKING",
		"TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_INPUT_REQUIRED",
		"TASK_STATE_REJECTED", "TASK_STATE_AUTH_REQUIRED"}
	roleNames = []string{"ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"}
)

// enumIn is a ProtoJSON enum as received: its name, or its number as text.
type enumIn string

func (e *enumIn) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		err := json.Unmarshal(b, &s)
		*e = enumIn(s)
		return err
	}
	if _, err := strconv.Atoi(string(b)); err != nil {
		return fmt.Errorf("enum value %s is neither a name nor a number", b)
	}
	*e = enumIn(b)
	return nil
}

// name is the enum's name in names; a number outside names, or a name not
// in them, is returned as received.
func (e enumIn) name(names []string) string {
	if n, err := strconv.Atoi(string(e)); err == nil && n >= 0 && n < len(names) {
		return names[n]
	}
	return string(e)
}

// int32In is a ProtoJSON int32: a number, or a string holding one.
type int32In int

func (n *int32In) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
	if err != nil {
		return fmt.Errorf("%s is not an int32", b)
	}
	*n = int32In(v)
	return nil
}

// count reads an optional count such as historyLength: nil when absent,
// -32602 when negative.
func (n *int32In) count(method, name string) (*int, *a2a.RPCError) {
	if n == nil {
		return nil, nil
	}
	if *n < 0 {
		return nil, invalid(codeInvalidParams, "%s: %s is negative", method, name)
	}
	v := int(*n)
	return &v, nil
}

// messageIn is a Message as a client sends it.
type messageIn struct {
	MessageID        string          `json:"messageId"`
	Role             enumIn          `json:"role"`
	Parts            []partIn        `json:"parts"`
	TaskID           string          `json:"taskId"`
	ContextID        string          `json:"contextId"`
	ReferenceTaskIDs []string        `json:"referenceTaskIds"`
	Extensions       []string        `json:"extensions"`
	Metadata         json.RawMessage `json:"metadata"`
}

// partIn is a Part: one content member (a null one is unset).
type partIn struct {
	Text      *string         `json:"text"`
	Raw       *string         `json:"raw"`
	URL       *string         `json:"url"`
	Data      json.RawMessage `json:"data"` // "null" for a data part holding null
	MediaType string          `json:"mediaType"`
	Filename  string          `json:"filename"`
	Metadata  json.RawMessage `json:"metadata"`
}

// message checks a user message (role ROLE_USER, a messageId, parts each
// with one content member, raw bytes in base64) and returns it as the
// a2a type: role [a2a.RoleUser], a raw or url part as an [a2a.FilePart].
func (m messageIn) message(method string) (a2a.Message, *a2a.RPCError) {
	switch {
	case m.Role.name(roleNames) != "ROLE_USER":
		return a2a.Message{}, invalid(codeInvalidParams, `%s: message.role must be "ROLE_USER"`, method)
	case m.MessageID == "":
		return a2a.Message{}, invalid(codeInvalidParams, "%s: message.messageId is missing", method)
	case len(m.Parts) == 0:
		return a2a.Message{}, invalid(codeInvalidParams, "%s: message.parts is empty", method)
	}
	out := a2a.Message{MessageID: m.MessageID, Role: a2a.RoleUser, TaskID: m.TaskID, ContextID: m.ContextID,
		ReferenceTaskIDs: m.ReferenceTaskIDs, Extensions: m.Extensions, Metadata: m.Metadata, Parts: make(a2a.Parts, len(m.Parts))}
	for i, p := range m.Parts {
		part, fault := p.part()
		if fault != "" {
			return a2a.Message{}, invalid(codeInvalidParams, "%s: message.parts[%d] %s", method, i, fault)
		}
		out.Parts[i] = part
	}
	return out, nil
}

// part returns the part, or why it is not one.
func (p partIn) part() (a2a.Part, string) {
	var set []string
	for _, c := range []struct {
		name string
		ok   bool
	}{{"text", p.Text != nil}, {"raw", p.Raw != nil}, {"url", p.URL != nil}, {"data", p.Data != nil}} {
		if c.ok {
			set = append(set, c.name)
		}
	}
	if len(set) != 1 {
		return nil, fmt.Sprintf("has %d content members %v; A2A v1.0 wants exactly one of text, raw, url and data", len(set), set)
	}
	file := a2a.FileContent{Name: p.Filename, MIMEType: p.MediaType}
	switch set[0] {
	case "text":
		return a2a.TextPart{Text: *p.Text, MediaType: p.MediaType, Filename: p.Filename, Metadata: p.Metadata}, ""
	case "data":
		return a2a.DataPart{Data: p.Data, MediaType: p.MediaType, Filename: p.Filename, Metadata: p.Metadata}, ""
	case "raw":
		if !isBase64(*p.Raw) {
			return nil, "has raw bytes that are not base64"
		}
		file.Bytes = *p.Raw
	default:
		file.URI = *p.URL
	}
	return a2a.FilePart{File: file, Metadata: p.Metadata}, ""
}

// isBase64 reports whether s is base64 in a form ProtoJSON readers take:
// the standard or URL-safe alphabet, with or without padding.
func isBase64(s string) bool {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if _, err := enc.DecodeString(s); err == nil {
			return true
		}
	}
	return false
}
