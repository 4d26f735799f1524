package a2a

import (
	"bytes"
	"reflect"
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
// for []. The elements are decoded into scratch (the reader's, reused from
// call to call) and copied out into a slice of their exact length; scratch
// is left as it was found, its used part zeroed. An element is decoded in
// place at the end of scratch, so its table must not read a list into the
// same scratch: no wire object holds a list of its own type.
func readList[T any](d *jsonReader, t *fields[T], scratch *[]T) []T {
	base := len(*scratch)
	ok := d.array(reflect.TypeFor[[]T](), func() {
		var zero T
		*scratch = append(*scratch, zero)
		t.decode(d, &(*scratch)[len(*scratch)-1])
	})
	got := (*scratch)[base:]
	var out []T
	if ok {
		out = append(make([]T, 0, len(got)), got...)
	}
	clear(got)
	*scratch = (*scratch)[:base]
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
	d.exact, d.root = exact, reflect.TypeFor[T]().Name()
	read(d, v)
	d.end()
	return d.err()
}

// unmarshalExact is the UnmarshalJSON of the model types: it decodes a
// copy of b (the caller's decoder may reuse b) with read, member names
// matched exactly, and sets *v to it only when it decoded whole; it
// returns the copy, which the raw members share.
func unmarshalExact[T any](b []byte, read func(*jsonReader, *T) bool, v *T) ([]byte, error) {
	own := bytes.Clone(b)
	own = own[:len(own):len(own)]
	out := new(T)
	if err := decodeWhole(own, read, out, true); err != nil {
		return nil, err
	}
	*v = *out
	return own, nil
}
