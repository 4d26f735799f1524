package a2a

import (
	"bytes"
	"cmp"
	"reflect"
	"strings"
	"sync"
)

// The name check for results decoded with encoding/json (push configs,
// agent cards). encoding/json binds a member to a field whatever its case
// and keeps the last of a repeated name, so a reply could be read
// otherwise than it was written (a second "url" deciding a webhook, a
// "Streaming" deciding a capability). checkNames walks such a reply
// before it is decoded, with a schema derived from the Go type it decodes
// into, and reports the first member name that repeats or matches a known
// one only without regard to case (the rule of [jsonReader.object]). Keys
// of the sender's choosing (a map's) and values kept raw are not checked.
// Task, Message and the events need no walk: their decoder (wire_v03.go)
// checks names as it reads.

// nameSet is the member names of one kind of JSON object, for looking a
// name up while decoding and for the name check. It holds at most 64.
type nameSet struct {
	names     []string
	nameBytes [][]byte  // names as bytes, for case folding
	byLen     [][]uint8 // indexes into names, by name length
}

func newNameSet(names ...string) *nameSet {
	if len(names) > 64 {
		panic("a2a: a nameSet holds at most 64 names") // a programming error, caught by any test
	}
	s := &nameSet{names: names}
	for i, n := range names {
		for len(s.byLen) <= len(n) {
			s.byLen = append(s.byLen, nil)
		}
		s.byLen[len(n)] = append(s.byLen[len(n)], uint8(i))
		s.nameBytes = append(s.nameBytes, []byte(n))
	}
	return s
}

// index returns the index of name, or -1.
func (s *nameSet) index(name []byte) int {
	if len(name) >= len(s.byLen) {
		return -1
	}
	for _, i := range s.byLen[len(name)] {
		if s.names[i] == string(name) {
			return int(i)
		}
	}
	return -1
}

// fold returns the index of a name equal to name without regard to case
// (Unicode simple folding, as encoding/json matches names), or -1.
func (s *nameSet) fold(name []byte) int {
	for i, n := range s.nameBytes {
		if bytes.EqualFold(name, n) {
			return i
		}
	}
	return -1
}

// nameSchema describes one level of a value: the members of an object,
// the elements of an array, or the values of a map.
type nameSchema struct {
	set    *nameSet      // an object's known names
	walk   []*nameSchema // by index in set: what to walk inside a member; nil: skip it
	elem   *nameSchema   // an array's elements
	values *nameSchema   // a map's values
}

// schemaOf derives the schema of values of Go type t from its json tags:
// a struct's member names (embedded structs' included), walking members
// whose types have a schema; a slice's elements; a map's values. Types
// without named members (strings, numbers, json.RawMessage) have none (nil).
// Results are cached; t must not be recursive.
func schemaOf(t reflect.Type) *nameSchema {
	if s, ok := schemaCache.Load(t); ok {
		return s.(*nameSchema)
	}
	s := buildSchema(t)
	schemaCache.Store(t, s)
	return s
}

var schemaCache sync.Map // reflect.Type → *nameSchema

func buildSchema(t reflect.Type) *nameSchema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if e := schemaOf(t.Elem()); e != nil {
			return &nameSchema{elem: e}
		}
	case reflect.Map:
		if v := schemaOf(t.Elem()); v != nil {
			return &nameSchema{values: v}
		}
	case reflect.Struct:
		var names []string
		var walk []*nameSchema
		var add func(t reflect.Type)
		add = func(t reflect.Type) {
			for f := range t.Fields() {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				switch {
				case name == "-" || !f.IsExported() && !f.Anonymous:
				case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
					add(f.Type)
				default:
					names = append(names, cmp.Or(name, f.Name))
					walk = append(walk, schemaOf(f.Type))
				}
			}
		}
		add(t)
		if len(names) > 0 {
			return &nameSchema{set: newNameSet(names...), walk: walk}
		}
	}
	return nil
}

// checkNames walks body with schema and returns what is wrong with its
// member names ("" when nothing is). Malformed JSON is not its business:
// it stops there and leaves that to the decoder.
func checkNames(body []byte, schema *nameSchema) string {
	d := newJSONReader(body)
	defer d.release()
	walkNames(d, schema)
	return d.fault
}

// walkNames reads the value at d, checking names where schema knows them.
func walkNames(d *jsonReader, s *nameSchema) {
	switch c := d.peek(); {
	case s == nil:
		d.skip()
	case s.set != nil && c == '{':
		d.object(s.set, nil, func(i int) { walkNames(d, s.walk[i]) })
	case s.values != nil && c == '{':
		d.object(nil, nil, func(int) { walkNames(d, s.values) })
	case s.elem != nil && c == '[':
		d.array(nil, func() { walkNames(d, s.elem) })
	default:
		d.skip()
	}
}
