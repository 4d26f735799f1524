// Package jsonread is the JSON reader the SDK's wire decoders are written
// on: a validating reader of one JSON text held in memory that returns raw
// values without copying, decodes strings as encoding/json does, checks
// member names against the names an object may have (NameSet), and charges
// what its callers allocate to a budget bounded by the input's size. It
// also holds the table machinery the decoders' tables run on (Fields,
// ReadList, DecodeWhole), the name check for values encoding/json decodes
// (CheckNames, with a Schema derived from a Go type) and a quick look at an
// object's top-level members (LacksMember).
//
// It knows JSON, not A2A: which members a wire object has, and what they
// mean, is the decoders' business (the root package's wire tables).
package jsonread

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// Reader reads one JSON text held in memory, for the wire decoders. It
// validates as it reads (the grammar of RFC 8259, nesting bounded at 10000
// levels as encoding/json bounds it), returns raw values as sub-slices of
// its input without copying, and decodes strings as encoding/json does
// (invalid UTF-8 and lone surrogates become U+FFFD).
//
// It also checks member names. JSON names are case-sensitive, but
// encoding/json binds a member to a field whatever its case and, when a
// name repeats, keeps the last value: a "Status" after "status" would then
// decide success. So in an object read against a [NameSet], a known name
// that appears twice, or a name equal to a known one only without regard to
// case, is a name fault. Names inside values read raw (data, metadata) are
// not looked at.
//
// Three kinds of problem are kept apart, each the first of its kind:
//   - syntax: the input is not JSON; reading stops at once and every later
//     read returns a zero value; Err reports it as encoding/json's
//     *json.SyntaxError;
//   - fault: a member name fault; reading goes on;
//   - mistype: a value of the wrong JSON type for what the decoder wants
//     (a number where a string is due), as a *json.UnmarshalTypeError
//     naming the field's path; the value is skipped and reading goes on.
type Reader struct {
	buf   []byte
	pos   int
	depth int    // objects and arrays open around pos
	root  string // the name of the Go type decoded, for a mistyped value

	syntax  error
	heavy   error // the budget ran out, or Stop; reading stopped
	fault   string
	mistype error

	// budget is the bytes of Go values the reader may still allocate for
	// its caller (strings, list elements, boxed parts); < 0: no limit.
	// Lists are counted before they are allocated, so a reply of a
	// million "{}" is refused before it costs a million values.
	budget int64

	// exact: match member names exactly and never report a name fault:
	// a member in another case is an unknown one, and of a repeated name
	// the last is kept. For JSON a caller hands to UnmarshalJSON, which
	// may come from anywhere; a reply is always read strictly.
	exact bool

	// trusted: the input is known to be JSON; Skip only finds a value's
	// end (trusted.go).
	trusted bool

	// ends: where the large values of the input end, noted by a
	// validating pass (Note) or recalled from one (Recall); nil: none.
	ends endsView

	path    []pathElem // where the reader is, for naming a mistyped value
	pathBuf [8]pathElem
}

// pathElem is one step of a path: a member name, or an array index when
// name is "".
type pathElem struct {
	name  string
	index int
}

// maxDepth bounds the nesting of objects and arrays, as in encoding/json.
const maxDepth = 10000

// NewReader returns a reader of b from a pool, without a budget and
// reading names strictly; give it back with Release once done with it.
// The values it returned stay valid: they alias b, not the reader.
func NewReader(b []byte) *Reader {
	d := readerPool.Get().(*Reader)
	*d = Reader{buf: b, budget: -1}
	d.path = d.pathBuf[:0]
	return d
}

var readerPool = sync.Pool{New: func() any { return new(Reader) }}

// Release gives d back to the pool.
func (d *Reader) Release() {
	d.buf = nil
	readerPool.Put(d)
}

// Err returns the problem that decides the reading: the error Stop was
// given or errOverBudget, else a syntax error (SyntaxError), else a name
// fault (a NameFault), else a mistyped value, else nil.
func (d *Reader) Err() error {
	switch {
	case d.heavy != nil:
		return d.heavy
	case d.syntax != nil:
		return d.SyntaxError()
	case d.fault != "":
		return NameFault(d.fault)
	}
	return d.mistype
}

// SyntaxError is the reader's syntax error as encoding/json states it (a
// *json.SyntaxError, offset and all), or nil without one. It runs
// encoding/json over the input, which stops at the fault: an error path.
func (d *Reader) SyntaxError() error {
	if d.syntax == nil || d.heavy != nil {
		return nil
	}
	// Into a struct{}, encoding/json keeps nothing of what it reads.
	if se, ok := errors.AsType[*json.SyntaxError](json.Unmarshal(d.buf, new(struct{}))); ok {
		return se
	}
	return d.syntax // never: FuzzJSONReader holds the two to the same grammar
}

// Stopped reports whether reading has stopped: at a syntax error, the
// budget run out, or Stop. Every read then returns a zero value.
func (d *Reader) Stopped() bool { return d.syntax != nil }

// Stop stops the reader as a syntax error would; Err then returns err.
// For a decoder that finds, part way, that the input is not for it.
func (d *Reader) Stop(err error) {
	d.heavy, d.syntax, d.pos = err, err, len(d.buf)
}

// Fault returns the first member name fault met, or "".
func (d *Reader) Fault() string { return d.fault }

// Exact reports whether d matches member names exactly (DecodeWhole's
// exact), never reporting a name fault.
func (d *Reader) Exact() bool { return d.exact }

// Pos returns the reader's offset in its input, in bytes.
func (d *Reader) Pos() int { return d.pos }

// SetPos moves the reader to offset i of its input, the start of a value
// a decoder reads again or the end of one it read already (an offset Pos
// returned).
func (d *Reader) SetPos(i int) { d.pos = i }

// Since returns the input from offset start (an offset Pos returned) to
// the reader's position, aliasing the input; its capacity ends with it, so
// an append by the caller copies.
func (d *Reader) Since(start int) []byte { return d.buf[start:d.pos:d.pos] }

// Enter adds the member name to the reader's path, which names a mistyped
// value ("artifacts[0].parts[1].text"), for a decoder that reads a member
// without Object; Leave takes it off again.
func (d *Reader) Enter(name string) { d.path = append(d.path, pathElem{name: name}) }

// Leave takes the last name Enter added off the reader's path.
func (d *Reader) Leave() { d.path = d.path[:len(d.path)-1] }

// NameFault is a member-name fault found by a Reader: its text names the
// member and what is wrong with it.
type NameFault string

func (f NameFault) Error() string { return string(f) }

// jsonSyntaxError is input that is not JSON.
type jsonSyntaxError struct {
	msg    string
	offset int
}

func (e *jsonSyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at offset %d: %s", e.offset, e.msg)
}

// WrongType records that the value at the reader is not of the Go type
// want, as encoding/json would: a *json.UnmarshalTypeError naming the
// field's path from the root type, array indices included
// ("artifacts[0].parts[1].text"). It skips the value.
func (d *Reader) WrongType(want reflect.Type) {
	c, offset := d.Peek(), d.pos
	d.Skip()
	if d.syntax != nil || d.mistype != nil {
		return
	}
	got := "number"
	switch c {
	case '{':
		got = "object"
	case '[':
		got = "array"
	case '"':
		got = "string"
	case 't', 'f':
		got = "bool"
	}
	if want == nil { // a caller that looked first: not reached
		want = reflect.TypeFor[any]()
	}
	struc := d.root
	if len(d.path) == 0 {
		struc = "" // the value itself: "into Go value of type …"
	}
	path := d.pathString()
	if d.Charge(int64(len(path)) + errCost) {
		d.mistype = &json.UnmarshalTypeError{Value: got, Type: want, Offset: int64(offset), Struct: struc, Field: path}
	}
}

// Mistyped records a value that is not what is due, at the reader's path,
// unless one came first.
func (d *Reader) Mistyped(what string) {
	if d.mistype != nil || d.syntax != nil {
		return
	}
	path := d.pathString()
	if d.Charge(int64(len(path)+len(what)) + errCost) {
		d.mistype = fmt.Errorf("%s: %s", path, what)
	}
}

// SetMistype records err as the mistyped value, unless one came first.
func (d *Reader) SetMistype(err error) {
	if d.mistype == nil && d.syntax == nil {
		d.mistype = err
	}
}

// Soft runs read and returns the mistyped value it met, if any, instead
// of recording it: for a member that matters only in some cases.
func (d *Reader) Soft(read func()) error {
	saved := d.mistype
	d.mistype = nil
	read()
	err := d.mistype
	d.mistype = saved
	return err
}

// pathString renders the reader's path, e.g. "artifacts[0].parts[1].text".
func (d *Reader) pathString() string {
	var b strings.Builder
	for _, e := range d.path {
		if e.name == "" {
			fmt.Fprintf(&b, "[%d]", e.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.name)
	}
	return b.String()
}

// Array reads an array, calling elem with the reader at each element,
// which elem must read. It returns false, reading nothing more, when the
// value is null, and records a mistyped value (want is the Go type due)
// when it is not an array.
func (d *Reader) Array(want reflect.Type, elem func()) bool {
	return d.Container('[', ']', want, "after array element", func(n int) {
		d.path = append(d.path, pathElem{index: n})
		elem()
		d.path = d.path[:len(d.path)-1]
	})
}

// Object reads an object against names, calling member(i) with the reader
// at the value of each member named names.names[i], which member must read.
// Other members are skipped. With names nil every member is passed, as
// member(-1), unchecked: keys of the sender's choosing. A known name seen
// twice, or one that equals a known name only without regard to case, is
// a name fault; the member is still passed to member (as the known name),
// as encoding/json would take it. It returns false, reading nothing more,
// when the value is null, and records a mistyped value (want is the Go
// type due) when it is not an object.
func (d *Reader) Object(names *NameSet, want reflect.Type, member func(i int)) bool {
	var seen uint64
	return d.Container('{', '}', want, "after object key:value pair", func(int) {
		if key, ok := d.Key(); ok {
			d.member(names, key, &seen, member)
		}
	})
}

// Container reads an array or object (open, close) item by item: item
// reads one element, or one member with its name. It returns false,
// reading nothing more, for null, and records a mistyped value (want is
// the Go type due) for any other value.
func (d *Reader) Container(open, close byte, want reflect.Type, after string, item func(n int)) bool {
	switch d.Peek() {
	case open:
	case 'n':
		d.Null()
		return false
	default:
		d.WrongType(want)
		return false
	}
	if d.depth >= maxDepth {
		d.failAt(d.pos, "exceeded max depth")
		return false
	}
	d.pos++
	d.depth++
	defer func() { d.depth-- }()
	if d.Peek() == close {
		d.pos++
		return true
	}
	for n := 0; d.syntax == nil; n++ {
		d.ws()
		item(n)
		switch d.Peek() {
		case ',':
			d.pos++
		case close:
			d.pos++
			return true
		default:
			d.failChar(d.pos, after)
		}
	}
	return false
}

// Key reads a member name and its colon; the name comes back with its
// escapes undone.
func (d *Reader) Key() ([]byte, bool) {
	end, name := d.memberName(d.pos)
	if d.syntax != nil {
		return nil, false
	}
	d.pos = end
	if bytes.IndexByte(name, '\\') >= 0 {
		return []byte(unquote(name)), true
	}
	return name, true
}
