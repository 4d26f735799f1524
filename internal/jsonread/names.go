package jsonread

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// The name rule, and the name check for values decoded with encoding/json
// (the SDK's push configs and agent cards). encoding/json binds a member
// to a field whatever its case and keeps the last of a repeated name, so a
// reply could be read otherwise than it was written (a second "url"
// deciding a webhook, a "Streaming" deciding a capability). CheckNames
// walks such a reply before it is decoded, with a schema derived from the
// Go type it decodes into, and reports the first member name that repeats
// or matches a known one only without regard to case (the rule of
// [Reader.Object]). Keys of the sender's choosing (a map's) and values
// kept raw are not checked. Values decoded with a Reader need no walk:
// their decoders check names as they read, with Reader.member (below), the
// one place the rule is applied.

// NameSet is the member names of one kind of JSON object, for looking a
// name up while decoding and for the name check. It holds at most 64.
type NameSet struct {
	names     []string
	nameBytes [][]byte  // names as bytes, for case folding
	byLen     [][]uint8 // indexes into names, by name length
}

// NewNameSet returns the set of names, in their order: a name's index is
// its place among them. It panics with more than 64 names, a programming
// error any test catches.
func NewNameSet(names ...string) *NameSet {
	if len(names) > 64 {
		panic("jsonread: a NameSet holds at most 64 names")
	}
	s := &NameSet{names: names}
	for i, n := range names {
		for len(s.byLen) <= len(n) {
			s.byLen = append(s.byLen, nil)
		}
		s.byLen[len(n)] = append(s.byLen[len(n)], uint8(i))
		s.nameBytes = append(s.nameBytes, []byte(n))
	}
	return s
}

// Name returns the name of index i.
func (s *NameSet) Name(i int) string { return s.names[i] }

// Names returns the names in their order; the caller must not modify
// them.
func (s *NameSet) Names() []string { return s.names }

// Index returns the index of name, or -1.
func (s *NameSet) Index(name []byte) int {
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
func (s *NameSet) fold(name []byte) int {
	for i, n := range s.nameBytes {
		if bytes.EqualFold(name, n) {
			return i
		}
	}
	return -1
}

// Schema describes one level of a value: the members of an object,
// the elements of an array, or the values of a map.
type Schema struct {
	set    *NameSet  // an object's known names
	walk   []*Schema // by index in set: what to walk inside a member; nil: skip it
	elem   *Schema   // an array's elements (nil: nothing to check inside them)
	values *Schema   // a map's values (likewise)
	// cost is what one element of an array, or one entry of a map, takes
	// once decoded by encoding/json, growth of the slice included, in
	// bytes; 0 for a value that is not a list.
	cost int64
	// open is what an object takes before its members, beyond the slot
	// that holds it: a map's own table (encoding/json makes one for every
	// object it fills, even an empty one, and the first entry brings a
	// group of eight slots), or a pointer's target.
	open int64
}

// Set returns the known names of an object, or nil for a schema that is
// not an object's.
func (s *Schema) Set() *NameSet { return s.set }

// Member returns the schema of the member of index i in Set (nil: nothing
// is checked inside it).
func (s *Schema) Member(i int) *Schema { return s.walk[i] }

// Elem returns the schema of an array's elements (nil: nothing is checked
// inside them).
func (s *Schema) Elem() *Schema { return s.elem }

// Values returns the schema of a map's values (nil: nothing is checked
// inside them).
func (s *Schema) Values() *Schema { return s.values }

// Schemas derives the schema of a Go type (Of) and keeps it. A type
// whose UnmarshalJSON does not read its own fields' names decodes through
// other Go types, its wire forms, which know names the type has no field
// for (a v1.0 card's "securityRequirements", a security scheme's
// "apiKeySecurityScheme"); the name check walks the forms' names instead,
// so that every name the decoder binds is checked. Safe for concurrent
// use.
type Schemas struct {
	forms func(t reflect.Type) []reflect.Type
	cache sync.Map // reflect.Type → *Schema
}

// NewSchemas returns the schemas of types whose wire forms are told by
// forms: given a type that is not a pointer, forms returns nil for a type
// decoded by its own fields' names, else its forms, at most one struct or
// map type (the form of a JSON object) and one slice type (the form of a
// JSON array). forms may be nil: no type has forms.
func NewSchemas(forms func(t reflect.Type) []reflect.Type) *Schemas {
	if forms == nil {
		forms = func(reflect.Type) []reflect.Type { return nil }
	}
	return &Schemas{forms: forms}
}

// Of derives the schema of values of Go type t from its json tags: a
// struct's member names (embedded structs' included), walking members
// whose types have a schema; a slice's elements; a map's values; for a
// type with wire forms, its forms'. Types without named members (strings,
// numbers, json.RawMessage) have none (nil). Results are kept; t must not
// be recursive.
func (ss *Schemas) Of(t reflect.Type) *Schema {
	if s, ok := ss.cache.Load(t); ok {
		return s.(*Schema)
	}
	s := ss.build(t)
	ss.cache.Store(t, s)
	return s
}

func (ss *Schemas) build(t reflect.Type) *Schema {
	var target int64 // what a pointer's target takes
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
		target = int64(t.Size())
	}
	if forms := ss.forms(t); forms != nil {
		return ss.formsSchema(forms, target)
	}
	switch t.Kind() {
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return nil // json.RawMessage and []byte: kept whole, not a list
		}
		// encoding/json grows a slice as it reads it, by a quarter at a
		// time once it is long: the arrays it leaves behind add up to
		// four times the last, so count each element five times, and
		// what a pointer element points to.
		cost := 5 * int64(t.Elem().Size())
		if t.Elem().Kind() == reflect.Pointer {
			cost += int64(t.Elem().Elem().Size())
		}
		return &Schema{elem: ss.Of(t.Elem()), cost: cost}
	case reflect.Map:
		// A map entry: its key, its value and the map's own bookkeeping;
		// the map itself, measured at about 100 bytes and a group of
		// eight entries.
		entry := int64(t.Key().Size() + t.Elem().Size())
		return &Schema{values: ss.Of(t.Elem()), cost: 2 * (entry + 16), open: 128 + 12*entry}
	case reflect.Struct:
		var names []string
		var walk []*Schema
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
					walk = append(walk, ss.Of(f.Type))
				}
			}
		}
		add(t)
		if len(names) > 0 {
			return &Schema{set: NewNameSet(names...), walk: walk, open: target}
		}
	}
	return nil
}

// formsSchema is the schema of a type decoded through its wire forms: an
// object is walked with the struct form's names, or as the map form's
// entries; an array is walked and charged as the slice form. An object of
// the struct form costs, besides target, the struct form itself and a
// json.Unmarshal call, with which UnmarshalJSON fills it before it fills
// the value.
func (ss *Schemas) formsSchema(forms []reflect.Type, target int64) *Schema {
	s := &Schema{}
	for _, f := range forms {
		fs := ss.Of(f)
		switch {
		case fs == nil:
		case f.Kind() == reflect.Struct:
			s.set, s.walk, s.open = fs.set, fs.walk, target+int64(f.Size())+unmarshalCost
		case f.Kind() == reflect.Map:
			s.values, s.cost, s.open = fs.values, fs.cost, target+fs.open
		case f.Kind() == reflect.Slice:
			s.elem, s.cost = fs.elem, fs.cost
		}
	}
	return s
}

// unmarshalCost is what an UnmarshalJSON that makes a json.Unmarshal call
// for each object of its type allocates besides the value and its wire
// form: the call's decoder state and scanner stack, and the call into
// UnmarshalJSON (measured at about 260 bytes an object for a skill).
const unmarshalCost = 320

// CheckNames walks body with schema before encoding/json decodes it. It
// returns a NameFault for a member name that repeats or differs only in
// case, or errOverBudget for a body whose lists and maps would take more
// memory than its size allows (DecodeBudget), or nil. Malformed JSON is
// not its business: it stops there and leaves that to the decoder.
func CheckNames(body []byte, schema *Schema) error {
	d := NewReader(body)
	defer d.Release()
	d.budget = DecodeBudget(len(body))
	walkNames(d, schema)
	switch {
	case d.heavy != nil:
		return d.heavy
	case d.fault != "":
		return NameFault(d.fault)
	}
	return nil
}

// walkNames reads the value at d, checking names where schema knows them
// and charging d's budget for each element of a list or map.
func walkNames(d *Reader, s *Schema) {
	switch c := d.Peek(); {
	case s == nil:
		d.Skip()
	case s.set != nil && c == '{':
		if !d.Charge(s.open) {
			return
		}
		d.Object(s.set, nil, func(i int) { walkNames(d, s.walk[i]) })
	case s.cost > 0 && c == '{':
		if !d.Charge(s.open) {
			return
		}
		d.Object(nil, nil, func(int) {
			if d.Charge(s.cost) {
				walkNames(d, s.values)
			}
		})
	case s.cost > 0 && c == '[':
		d.Array(nil, func() {
			if d.Charge(s.cost) {
				walkNames(d, s.elem)
			}
		})
	default:
		d.Skip()
	}
}

// member reads the value of the member named key: passes it to read when
// its name is known (as names' index), after the name check, else skips
// it. With names nil it is passed as -1, unchecked.
func (d *Reader) member(names *NameSet, key []byte, seen *uint64, read func(i int)) {
	if names == nil { // keys of the sender's choosing
		read(-1)
		return
	}
	i := names.Index(key)
	switch {
	case d.exact:
	case i >= 0 && *seen&(1<<i) != 0:
		if d.fault == "" { // the first fault is kept; no need to word the others
			d.SetFault(fmt.Sprintf("member %q appears twice in one object", key))
		}
	case i >= 0:
		*seen |= 1 << i
	default:
		if i = names.fold(key); i >= 0 && d.fault == "" {
			d.SetFault(fmt.Sprintf("member %q is %q in another case (JSON names are case-sensitive)", key, names.names[i]))
		}
	}
	if i < 0 || read == nil {
		d.Skip()
		return
	}
	d.path = append(d.path, pathElem{name: names.names[i]})
	read(i)
	d.path = d.path[:len(d.path)-1]
}

func (d *Reader) SetFault(f string) {
	if d.fault == "" {
		d.fault = f
	}
}
