package a2a

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// Part kinds on the wire (A2A v0.3 §6.5, the "kind" discriminator of Part).
const (
	KindText = "text"
	KindData = "data"
	KindFile = "file"
)

// Part is one piece of a [Message] or an [Artifact]: a [TextPart], a
// [DataPart], a [FilePart], or an [UnknownPart] holding a kind this version
// of the SDK does not know. The set is closed; switch on the concrete type:
//
//	switch p := part.(type) {
//	case a2a.TextPart:
//	case a2a.DataPart:
//	case a2a.FilePart:
//	case a2a.UnknownPart:
//	}
//
// Spec: A2A v0.3 §6.5 (Part union, discriminated by "kind").
type Part interface {
	// Kind reports the wire discriminator: "text", "data", "file", or the
	// unknown kind's own string.
	Kind() string
	isPart()
}

// TextPart is a part holding plain text. In a Caoliao artifact it is the
// one-line summary, usually in Chinese (the Caoliao agent docs, "The two artifact
// parts"). Spec: A2A v0.3 §6.5.1.
type TextPart struct {
	Text string `json:"text"`
	// MediaType and Filename are A2A v1.0's optional media type
	// ("text/markdown") and file name of any part. A v1.0 client sends them
	// when set; v0.3 has neither, and a v0.3 client leaves them out.
	MediaType string          `json:"mediaType,omitempty"`
	Filename  string          `json:"filename,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitzero"`
}

// DataPart is a part holding structured JSON, kept exactly as received so it
// can be decoded straight into a caller's type with [DataPart.Decode] (or,
// for an artifact's, [Artifact.DecodeData]). A2A v0.3 requires a JSON object; A2A v1.0 allows any
// JSON value, null included; every value is kept as it came. In a decoded
// task, Data shares its bytes with [Task.Raw] rather than holding a copy:
// copy it before changing it in place. Spec: A2A v0.3 §6.5.3; A2A v1.0,
// Part (data).
type DataPart struct {
	Data json.RawMessage `json:"data"`
	// MediaType and Filename are as in [TextPart]: A2A v1.0 only.
	MediaType string          `json:"mediaType,omitempty"`
	Filename  string          `json:"filename,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitzero"`
}

// FilePart is a part holding a file, either inline as base64 bytes or by
// URI. An A2A v1.0 part with "raw" (inline bytes) or "url" is a FilePart
// too: its filename is File.Name and its mediaType File.MIMEType. Spec:
// A2A v0.3 §6.5.2 (FileWithBytes, FileWithUri); A2A v1.0, Part (raw, url).
type FilePart struct {
	File     FileContent     `json:"file"`
	Metadata json.RawMessage `json:"metadata,omitzero"`
}

// FileContent is the file inside a [FilePart]. Exactly one of Bytes and URI
// should be set on the wire; a file with both or neither is kept as
// received, and [FileContent.Decode] reports it. Bytes holds the base64
// text exactly as received; use [FileContent.Decode] for the raw bytes and
// [NewFileBytes] to build one.
type FileContent struct {
	Name     string `json:"name,omitempty"`
	MIMEType string `json:"mimeType,omitempty"`
	// Bytes is the content as base64 (RFC 4648), exactly as on the wire:
	// standard base64 with padding when the client builds it; a v1.0
	// agent may send the URL-safe alphabet or leave out the padding, which
	// [FileContent.Decode] accepts too.
	Bytes string `json:"bytes,omitempty"`
	// URI is where the content can be fetched. The SDK never fetches it.
	URI string `json:"uri,omitempty"`
}

// UnknownPart keeps a part whose kind this version of the SDK does not know,
// byte for byte, so the rest of a message or artifact still decodes and a
// re-encoded task loses nothing.
type UnknownPart struct {
	// PartKind is the "kind" string as received ("" when it was absent).
	PartKind string
	// Raw is the part's JSON exactly as received (in a decoded task,
	// sharing its bytes with [Task.Raw]).
	Raw json.RawMessage
}

// Kind returns the part's wire discriminator: "text", "data", "file", or an
// UnknownPart's own kind.
func (TextPart) Kind() string      { return KindText }
func (DataPart) Kind() string      { return KindData }
func (FilePart) Kind() string      { return KindFile }
func (p UnknownPart) Kind() string { return p.PartKind }

func (TextPart) isPart()    {}
func (DataPart) isPart()    {}
func (FilePart) isPart()    {}
func (UnknownPart) isPart() {}

// MarshalJSON encodes the part with "kind": "text".
func (p TextPart) MarshalJSON() ([]byte, error) {
	type plain TextPart // without this method
	return withKind(KindText, plain(p))
}

// MarshalJSON encodes the part with "kind": "data". A nil Data is sent as {}
// (the field is required and must be an object).
func (p DataPart) MarshalJSON() ([]byte, error) {
	type plain DataPart // without this method
	p.Data = p.sentData()
	return withKind(KindData, plain(p))
}

// sentData is Data as sent: {} for nil, the field being required.
func (p DataPart) sentData() json.RawMessage {
	if p.Data == nil {
		return json.RawMessage("{}")
	}
	return p.Data
}

// MarshalJSON encodes the part with "kind": "file".
func (p FilePart) MarshalJSON() ([]byte, error) {
	type plain FilePart // without this method
	return withKind(KindFile, plain(p))
}

// MarshalJSON returns the part's bytes exactly as they were received.
func (p UnknownPart) MarshalJSON() ([]byte, error) {
	if len(p.Raw) == 0 {
		return nil, errors.New("a2a: UnknownPart has no raw JSON")
	}
	return p.Raw, nil
}

// Decode unmarshals the part's data into v, as [encoding/json.Unmarshal]
// does, for a data part of a message or a stream event. It returns
// [ErrNoData] for a part without data, or the [encoding/json] error when
// the data does not fit v.
func (p DataPart) Decode(v any) error {
	if len(p.Data) == 0 {
		return ErrNoData
	}
	return json.Unmarshal(p.Data, v)
}

// NewDataPart encodes v as JSON and returns it as a [DataPart]. It returns the
// [encoding/json.Marshal] error when v cannot be encoded.
func NewDataPart(v any) (DataPart, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return DataPart{}, fmt.Errorf("a2a: encode data part: %w", err)
	}
	return DataPart{Data: b}, nil
}

// NewFileBytes returns a [FilePart] carrying data inline, base64-encoded.
// name and mimeType may be empty.
func NewFileBytes(name, mimeType string, data []byte) FilePart {
	return FilePart{File: FileContent{Name: name, MIMEType: mimeType, Bytes: base64.StdEncoding.EncodeToString(data)}}
}

// Decode returns the file's inline content, decoded from base64. It returns
// an error when the file is given by URI only, has neither bytes nor URI,
// has both (the spec allows one: which one the agent meant cannot be
// known, so neither is taken; the fields keep both as received), or its
// base64 is invalid.
func (f FileContent) Decode() ([]byte, error) {
	switch {
	case f.Bytes != "" && f.URI != "":
		return nil, errors.New("a2a: file content has both bytes and uri; the spec allows one")
	case f.Bytes == "" && f.URI != "":
		return nil, errors.New("a2a: file content is given by uri, not inline bytes")
	case f.Bytes == "":
		return nil, errors.New("a2a: file content has neither bytes nor uri")
	}
	return decodeBase64(f.Bytes)
}

// decodeBase64 decodes s in any form ProtoJSON readers accept (A2A v1.0's
// bytes): the standard or URL-safe alphabet, with or without padding.
func decodeBase64(s string) ([]byte, error) {
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if len(s)%4 != 0 {
		enc = enc.WithPadding(base64.NoPadding)
	}
	b, err := enc.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("a2a: file bytes are not valid base64: %w", err)
	}
	return b, nil
}

// Parts is the ordered list of parts of a [Message] or an [Artifact]. It
// decodes every part by its "kind"; a kind this SDK does not know becomes an
// [UnknownPart] instead of failing the whole response.
type Parts []Part

// UnmarshalJSON decodes a JSON array of parts. A known kind with a missing
// or ill-typed content member ("text" for text, "data" for data, "file"
// for file) is an error naming the part's index; unknown kinds are kept as
// [UnknownPart]. A part without "kind" whose only content member is
// "text", "data" or "file" is read as that kind (a lenient reading of an
// off-spec part); any other kind-less part, such as an A2A v1.0 {"raw": …}
// or {"url": …} part, is kept as an UnknownPart with PartKind "".
func (ps *Parts) UnmarshalJSON(b []byte) error {
	_, err := unmarshalExact(b, func(d *jsonread.Reader, ps *Parts) bool {
		d.Enter("parts")
		*ps = readParts(d)
		return true
	}, ps)
	return err
}

// MarshalJSON encodes the parts as a JSON array; nil encodes as [] because
// "parts" is required on the wire.
func (ps Parts) MarshalJSON() ([]byte, error) {
	if ps == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]Part(ps))
}

// Text joins the text of every [TextPart], in order, with newlines. It
// returns "" when there is none.
func (ps Parts) Text() string {
	var texts []string
	for _, p := range ps {
		if t, ok := p.(TextPart); ok {
			texts = append(texts, t.Text)
		}
	}
	return strings.Join(texts, "\n")
}

// Data returns the first [DataPart] and true, or a zero DataPart and false
// when there is none.
func (ps Parts) Data() (DataPart, bool) {
	for _, p := range ps {
		if d, ok := p.(DataPart); ok {
			return d, true
		}
	}
	return DataPart{}, false
}
