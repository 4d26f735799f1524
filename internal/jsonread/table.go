package jsonread

import "reflect"

// Table-driven decoding: a table per JSON object names each member once
// with how it is read, and these functions run a table over a Reader.

// Table is what reads one JSON object into a T: a *Fields, or a decoder's
// variant of it.
type Table[T any] interface {
	// Decode reads the object at d into v, which it zeroes first; see
	// [Reader.Object] for its result, for null and for values that are
	// not objects.
	Decode(d *Reader, v *T) bool
}

// Fields is the table of one JSON object: Read[i] reads the member named
// Names.Name(i) into a T.
type Fields[T any] struct {
	Names *NameSet
	Read  []func(d *Reader, v *T)
}

// Decode reads the object at d into v, which it zeroes first (a member
// repeated in bytes read by exact names replaces, never merges); see
// [Reader.Object] for null and for values that are not objects.
func (t *Fields[T]) Decode(d *Reader, v *T) bool {
	var zero T
	*v = zero
	return d.Object(t.Names, reflect.TypeFor[T](), func(i int) { t.Read[i](d, v) })
}

// ReadList reads an array of objects of one table: nil for null, empty
// for []. The list grows as Grow says, within the budget.
func ReadList[T any](d *Reader, t Table[T]) []T {
	out := []T{}
	if !d.Array(reflect.TypeFor[[]T](), func() {
		var ok bool
		if out, ok = Grow(d, out); ok {
			var zero T
			out = append(out, zero)
			t.Decode(d, &out[len(out)-1])
		}
	}) {
		return nil
	}
	return out
}

// Mode is how DecodeWhole reads: 0 (strict names, every byte validated),
// or a sum of Exact and Valid.
type Mode uint8

const (
	// Exact: names are matched exactly and never a fault (JSON handed to
	// an UnmarshalJSON method, which may come from anywhere).
	Exact Mode = 1 << iota
	// Valid: the input is known to be JSON (encoding/json, or an earlier
	// pass of the caller's, validated it); see [Reader.Trust].
	Valid
)

// DecodeWhole decodes b, one JSON value, into v with read (a table's
// Decode), within the budget of b's size (DecodeBudget): it returns the
// problem that decides the reading (see [Reader.Err]: a syntax error, a
// NameFault or a mistyped value, errOverBudget, or the error of a Stop).
// v's raw members alias b. mode says how names are matched and whether
// b is known to be JSON.
func DecodeWhole[T any](b []byte, read func(*Reader, *T) bool, v *T, mode Mode) error {
	d := NewReader(b)
	defer d.Release()
	return DecodeOn(d, read, v, mode)
}

// DecodeOn is DecodeWhole on a reader the caller made (NewReader) and
// releases, at the start of its input, which may have told it more of
// that input (Recall).
func DecodeOn[T any](d *Reader, read func(*Reader, *T) bool, v *T, mode Mode) error {
	d.exact, d.trusted = mode&Exact != 0, d.trusted || mode&Valid != 0
	d.root, d.budget = reflect.TypeFor[T]().Name(), DecodeBudget(len(d.buf))
	read(d, v)
	d.End()
	return d.Err()
}
