package a2a

import (
	"bytes"
	"errors"
	"reflect"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// The model types' side of table-driven decoding (the tables' machinery is
// internal/jsonread's: Fields, ReadList, DecodeWhole): how a table is
// written (field), stored bytes of either version, results decoded by a
// table, and the members both versions' tables share.

// field is one member of a wire object: its name and how it is read into
// a T. A table is written as a list of them (newFields).
type field[T any] struct {
	name string
	read func(d *jsonread.Reader, v *T)
}

// newFields is the table of the members fs.
func newFields[T any](fs []field[T]) *jsonread.Fields[T] {
	names := make([]string, len(fs))
	read := make([]func(d *jsonread.Reader, v *T), len(fs))
	for i, f := range fs {
		names[i], read[i] = f.name, f.read
	}
	return &jsonread.Fields[T]{Names: jsonread.NewNameSet(names...), Read: read}
}

// unmarshalExact is the UnmarshalJSON of the model types: it decodes a
// copy of b (the caller's decoder may reuse b) with read, member names
// matched exactly, and sets *v to it only when it decoded whole; it
// returns the copy, which the raw members share. b is taken to be JSON,
// as encoding/json validates what it hands an UnmarshalJSON method: the
// values it skips or keeps raw are not validated again (jsonread.Valid).
func unmarshalExact[T any](b []byte, read func(*jsonread.Reader, *T) bool, v *T) ([]byte, error) {
	return unmarshalStored(b, read, nil, v, jsonread.Valid)
}

// errStoredV03 stops a v1.0 table reading stored bytes at a top-level
// "kind": the bytes are v0.3's (stopAtKind).
var errStoredV03 = errors.New("a2a: A2A v0.3 bytes")

// v10Stored reports whether b, a task or message handed to UnmarshalJSON,
// is to be read as A2A v1.0 JSON: the client knows the version of every
// reply it reads, but stored bytes carry none. What MarshalJSON writes, and
// every v0.3 task or message, has "kind" at its top; a v1.0 one has none
// (jsonread.LacksMember looks). The v1.0 decoder reads the few v0.3 objects
// that lack their own "kind" (an agent the v0.3 client read by shape) as
// the v0.3 one does: their states and roles in either spelling, their
// parts by their kinds. Input that is not an object is left to the v0.3
// reader. (A "kind" spelled with escapes is missed here; the v1.0 reading
// stops at it and the bytes are read again as v0.3: unmarshalStored.)
func v10Stored(b []byte) bool { return jsonread.LacksMember(b, "kind") }

// unmarshalStored is unmarshalExact for bytes of either version: read, a
// v1.0 table, first; when it stops at a v0.3 "kind" (errStoredV03),
// v03 over the same copy. What MarshalJSON writes, and every task or
// message a Caoliao agent sends, has its "kind" first, so the first read
// stops at once. mode adds to jsonread.Exact: jsonread.Valid for the
// bytes encoding/json hands an UnmarshalJSON method, which it has
// validated; 0 to check them whole (ParseTask).
func unmarshalStored[T any](b []byte, read, v03 func(*jsonread.Reader, *T) bool, v *T, mode jsonread.Mode) ([]byte, error) {
	own := bytes.Clone(b)
	own = own[:len(own):len(own)]
	// Read into v itself, which is put back as it was unless the reading
	// succeeds: no T on the heap besides v.
	old := *v
	err := jsonread.DecodeWhole(own, read, v, jsonread.Exact|mode)
	if err == errStoredV03 && v03 != nil {
		err = jsonread.DecodeWhole(own, v03, v, jsonread.Exact|mode)
	}
	if err != nil {
		*v = old
		return nil, err
	}
	return own, nil
}

// stopAtKind is the reader of a top-level "kind" in a v1.0 table used on
// stored bytes (unmarshalStored): it stops the reading with errStoredV03.
func stopAtKind[T any](d *jsonread.Reader, _ *T) {
	d.Stop(errStoredV03)
}

// decodeResult decodes a result with table t; what names it in errors
// ("task result"). A name fault is reported as it is; any other problem as
// "<what> does not decode".
func decodeResult[T any](r *reply, t jsonread.Table[T], v *T, what string) error {
	d := r.reader()
	err := jsonread.DecodeOn(d, t.Decode, v, 0) // r.reader trusts a validated reply
	d.Release()
	if f, ok := err.(jsonread.NameFault); ok {
		return r.fault(string(f), nil)
	}
	if err != nil {
		return r.fault(what+" does not decode", err)
	}
	return nil
}

// decodeAs decodes a result with table t into a new T.
func decodeAs[T any](r *reply, t jsonread.Table[T], what string) (*T, error) {
	v := new(T)
	if err := decodeResult(r, t, v, what); err != nil {
		return nil, err
	}
	return v, nil
}

// taskResult decodes a result that is a Task with table t; it must have
// an id. The task's Raw is the result's bytes within the reply.
func taskResult(r *reply, t jsonread.Table[Task]) (*Task, error) {
	task, err := decodeAs(r, t, "task result")
	if err != nil {
		return nil, err
	}
	if task.ID == "" {
		return nil, r.fault(`task result has no "id"`, nil)
	}
	task.raw = r.own()
	return task, nil
}

// readTimestamp reads a timestamp: a string as it is, null as "", and any
// other JSON value (a number of epoch seconds, say) as its text, with
// invalid UTF-8 replaced by U+FFFD as in any string, so that the value
// encodes and decodes back to itself.
func readTimestamp(d *jsonread.Reader) Timestamp {
	switch d.Peek() {
	case '"', 'n':
		return Timestamp(d.Str())
	}
	return Timestamp(strings.ToValidUTF8(string(d.Raw()), "\uFFFD"))
}

// nonObjectPart reads a part that is not an object, which either
// version keeps as an UnknownPart byte for byte (nil after a syntax
// error).
func nonObjectPart(d *jsonread.Reader) Part {
	raw := d.Raw()
	if raw == nil {
		return nil
	}
	return UnknownPart{Raw: raw}
}

// readPartList reads a parts array with read, one version's part reader.
// It grows as jsonread.ReadList does; each part is charged for the value its
// interface holds.
func readPartList(d *jsonread.Reader, readPart func(*jsonread.Reader) Part) Parts {
	out := Parts{}
	if !d.Array(reflect.TypeFor[Parts](), func() {
		var ok bool
		if out, ok = jsonread.Grow(d, out); !ok {
			return
		}
		if p := readPart(d); p != nil && d.Charge(int64(reflect.TypeOf(p).Size())) {
			out = append(out, p)
		}
	}) {
		return nil
	}
	return out
}

// The members both versions' tables share, each version giving how it
// reads what it spells its own way (roles, states, parts) and the table
// of what they hold.

// messageMembers are a Message's members: role and parts read as the
// version reads them.
func messageMembers(role func(*jsonread.Reader) (Role, string), parts func(*jsonread.Reader) Parts) []field[Message] {
	return []field[Message]{
		{"messageId", func(d *jsonread.Reader, m *Message) { m.MessageID = d.Str() }},
		{"role", func(d *jsonread.Reader, m *Message) { m.Role, m.RawRole = role(d) }},
		{"parts", func(d *jsonread.Reader, m *Message) { m.Parts = parts(d) }},
		{"taskId", func(d *jsonread.Reader, m *Message) { m.TaskID = d.Str() }},
		{"contextId", func(d *jsonread.Reader, m *Message) { m.ContextID = d.Str() }},
		{"referenceTaskIds", func(d *jsonread.Reader, m *Message) { m.ReferenceTaskIDs = d.Strs() }},
		{"extensions", func(d *jsonread.Reader, m *Message) { m.Extensions = d.Strs() }},
		{"metadata", func(d *jsonread.Reader, m *Message) { m.Metadata = d.Raw() }},
	}
}

// statusMembers are a TaskStatus's members: the state read as the
// version reads it, the message with its table.
func statusMembers(state func(*jsonread.Reader) (TaskState, string), messages jsonread.Table[Message]) []field[TaskStatus] {
	return []field[TaskStatus]{
		{"state", func(d *jsonread.Reader, s *TaskStatus) { s.State, s.RawState = state(d) }},
		{"message", func(d *jsonread.Reader, s *TaskStatus) {
			if !d.Charge(int64(reflect.TypeFor[Message]().Size())) {
				return
			}
			var m Message
			if messages.Decode(d, &m) {
				s.Message = &m
			}
		}},
		{"timestamp", func(d *jsonread.Reader, s *TaskStatus) { s.Timestamp = readTimestamp(d) }},
	}
}

// artifactMembers are an Artifact's members, its parts read as the
// version reads them.
func artifactMembers(parts func(*jsonread.Reader) Parts) []field[Artifact] {
	return []field[Artifact]{
		{"artifactId", func(d *jsonread.Reader, a *Artifact) { a.ArtifactID = d.Str() }},
		{"name", func(d *jsonread.Reader, a *Artifact) { a.Name = d.Str() }},
		{"description", func(d *jsonread.Reader, a *Artifact) { a.Description = d.Str() }},
		{"parts", func(d *jsonread.Reader, a *Artifact) { a.Parts = parts(d) }},
		{"metadata", func(d *jsonread.Reader, a *Artifact) { a.Metadata = d.Raw() }},
		{"extensions", func(d *jsonread.Reader, a *Artifact) { a.Extensions = d.Strs() }},
	}
}
