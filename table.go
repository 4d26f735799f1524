package a2a

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
)

// Table-driven decoding, for any wire version's decoder: a table per wire
// object names each member once with how it is read (wire_v03.go holds
// v0.3's tables), and these functions run a table over a jsonReader.

// field is one member of a wire object: its name and how it is read into
// a T.
type field[T any] struct {
	name string
	read func(d *jsonReader, v *T)
}

// table is what reads one wire object: a fields, or a version's variant
// of it (wire_v10.go's v10Fields).
type table[T any] interface {
	decode(d *jsonReader, v *T) bool
}

// fields is the table of one wire object.
type fields[T any] struct {
	names *nameSet
	read  []func(d *jsonReader, v *T)
}

func newFields[T any](fs []field[T]) *fields[T] {
	t := &fields[T]{}
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
		t.read = append(t.read, f.read)
	}
	t.names = newNameSet(names...)
	return t
}

// decode reads the object at d into v, which it zeroes first (a member
// repeated in bytes read by exact names replaces, never merges); see
// [jsonReader.object] for null and for values that are not objects.
func (t *fields[T]) decode(d *jsonReader, v *T) bool {
	var zero T
	*v = zero
	return d.object(t.names, reflect.TypeFor[T](), func(i int) { t.read[i](d, v) })
}

// readList reads an array of objects of one table: nil for null, empty
// for []. The list grows as jsonReader's grow says, within the budget.
func readList[T any](d *jsonReader, t table[T]) []T {
	out := []T{}
	if !d.array(reflect.TypeFor[[]T](), func() {
		var ok bool
		if out, ok = grow(d, out); ok {
			var zero T
			out = append(out, zero)
			t.decode(d, &out[len(out)-1])
		}
	}) {
		return nil
	}
	return out
}

// decodeWhole decodes b, one JSON value, into v with read (a table's
// decode): it returns the problem that decides the reading (a syntax
// error, a name fault or a mistyped value; see [jsonReader]). v's raw
// members alias b. With exact, names are matched exactly and never a
// fault.
func decodeWhole[T any](b []byte, read func(*jsonReader, *T) bool, v *T, exact bool) error {
	d := newJSONReader(b)
	defer d.release()
	d.exact, d.root, d.budget = exact, reflect.TypeFor[T]().Name(), decodeBudget(len(b))
	read(d, v)
	d.end()
	return d.err()
}

// unmarshalExact is the UnmarshalJSON of the model types: it decodes a
// copy of b (the caller's decoder may reuse b) with read, member names
// matched exactly, and sets *v to it only when it decoded whole; it
// returns the copy, which the raw members share.
func unmarshalExact[T any](b []byte, read func(*jsonReader, *T) bool, v *T) ([]byte, error) {
	return unmarshalStored(b, read, nil, v)
}

// errStoredV03 stops a v1.0 table reading stored bytes at a top-level
// "kind": the bytes are v0.3's (stopAtKind).
var errStoredV03 = errors.New("a2a: A2A v0.3 bytes")

// unmarshalStored is unmarshalExact for bytes of either version: read, a
// v1.0 table, first; when it stops at a v0.3 "kind" (errStoredV03),
// v03 over the same copy. What MarshalJSON writes, and every task or
// message a Caoliao agent sends, has its "kind" first, so the first read
// stops at once.
func unmarshalStored[T any](b []byte, read, v03 func(*jsonReader, *T) bool, v *T) ([]byte, error) {
	own := bytes.Clone(b)
	own = own[:len(own):len(own)]
	out := new(T)
	err := decodeWhole(own, read, out, true)
	if err == errStoredV03 && v03 != nil {
		*out = *new(T)
		err = decodeWhole(own, v03, out, true)
	}
	if err != nil {
		return nil, err
	}
	*v = *out
	return own, nil
}

// stopAtKind is the reader of a top-level "kind" in a v1.0 table used on
// stored bytes (unmarshalStored): it stops the reading with errStoredV03.
func stopAtKind[T any](d *jsonReader, _ *T) {
	d.heavy, d.syntax, d.pos = errStoredV03, errStoredV03, len(d.buf)
}

// decodeResult decodes a result with table t; what names it in errors
// ("task result"). A name fault is reported as it is; any other problem as
// "<what> does not decode".
func decodeResult[T any](r *reply, t table[T], v *T, what string) error {
	err := decodeWhole(r.result, t.decode, v, false)
	if f, ok := err.(nameFault); ok {
		return r.fault(string(f), nil)
	}
	if err != nil {
		return r.fault(what+" does not decode", err)
	}
	return nil
}

// decodeAs decodes a result with table t into a new T.
func decodeAs[T any](r *reply, t table[T], what string) (*T, error) {
	v := new(T)
	if err := decodeResult(r, t, v, what); err != nil {
		return nil, err
	}
	return v, nil
}

// taskResult decodes a result that is a Task with table t; it must have
// an id. The task's Raw is the result's bytes within the reply.
func taskResult(r *reply, t table[Task]) (*Task, error) {
	task, err := decodeAs(r, t, "task result")
	if err != nil {
		return nil, err
	}
	if task.ID == "" {
		return nil, r.fault(`task result has no "id"`, nil)
	}
	task.raw = r.result[:len(r.result):len(r.result)]
	return task, nil
}

// readTimestamp reads a timestamp: a string as it is, null as "", and any
// other JSON value (a number of epoch seconds, say) as its text, with
// invalid UTF-8 replaced by U+FFFD as in any string, so that the value
// encodes and decodes back to itself.
func readTimestamp(d *jsonReader) Timestamp {
	switch d.peek() {
	case '"', 'n':
		return Timestamp(d.str())
	}
	return Timestamp(strings.ToValidUTF8(string(d.raw()), "\uFFFD"))
}

// nonObjectPart reads a part that is not an object, which either
// version keeps as an UnknownPart byte for byte (nil after a syntax
// error).
func nonObjectPart(d *jsonReader) Part {
	raw := d.raw()
	if raw == nil {
		return nil
	}
	return UnknownPart{Raw: raw}
}

// readPartList reads a parts array with read, one version's part reader.
// It grows as readList does; each part is charged for the value its
// interface holds.
func readPartList(d *jsonReader, readPart func(*jsonReader) Part) Parts {
	out := Parts{}
	if !d.array(reflect.TypeFor[Parts](), func() {
		var ok bool
		if out, ok = grow(d, out); !ok {
			return
		}
		if p := readPart(d); p != nil && d.charge(int64(reflect.TypeOf(p).Size())) {
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
func messageMembers(role func(*jsonReader) (Role, string), parts func(*jsonReader) Parts) []field[Message] {
	return []field[Message]{
		{"messageId", func(d *jsonReader, m *Message) { m.MessageID = d.str() }},
		{"role", func(d *jsonReader, m *Message) { m.Role, m.RawRole = role(d) }},
		{"parts", func(d *jsonReader, m *Message) { m.Parts = parts(d) }},
		{"taskId", func(d *jsonReader, m *Message) { m.TaskID = d.str() }},
		{"contextId", func(d *jsonReader, m *Message) { m.ContextID = d.str() }},
		{"referenceTaskIds", func(d *jsonReader, m *Message) { m.ReferenceTaskIDs = d.strs() }},
		{"extensions", func(d *jsonReader, m *Message) { m.Extensions = d.strs() }},
		{"metadata", func(d *jsonReader, m *Message) { m.Metadata = d.raw() }},
	}
}

// statusMembers are a TaskStatus's members: the state read as the
// version reads it, the message with its table.
func statusMembers(state func(*jsonReader) (TaskState, string), messages table[Message]) []field[TaskStatus] {
	return []field[TaskStatus]{
		{"state", func(d *jsonReader, s *TaskStatus) { s.State, s.RawState = state(d) }},
		{"message", func(d *jsonReader, s *TaskStatus) {
			if !d.charge(int64(reflect.TypeFor[Message]().Size())) {
				return
			}
			var m Message
			if messages.decode(d, &m) {
				s.Message = &m
			}
		}},
		{"timestamp", func(d *jsonReader, s *TaskStatus) { s.Timestamp = readTimestamp(d) }},
	}
}

// artifactMembers are an Artifact's members, its parts read as the
// version reads them.
func artifactMembers(parts func(*jsonReader) Parts) []field[Artifact] {
	return []field[Artifact]{
		{"artifactId", func(d *jsonReader, a *Artifact) { a.ArtifactID = d.str() }},
		{"name", func(d *jsonReader, a *Artifact) { a.Name = d.str() }},
		{"description", func(d *jsonReader, a *Artifact) { a.Description = d.str() }},
		{"parts", func(d *jsonReader, a *Artifact) { a.Parts = parts(d) }},
		{"metadata", func(d *jsonReader, a *Artifact) { a.Metadata = d.raw() }},
		{"extensions", func(d *jsonReader, a *Artifact) { a.Extensions = d.strs() }},
	}
}
