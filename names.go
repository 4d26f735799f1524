package a2a

import (
	"bytes"
	"cmp"
	"fmt"
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
// Task, Message and the events need no walk: their decoders (wire_v03.go,
// wire_v10.go) check names as they read, with jsonReader.member (below),
// the one place the rule is applied.

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
	elem   *nameSchema   // an array's elements (nil: nothing to check inside them)
	values *nameSchema   // a map's values (likewise)
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

// schemaOf derives the schema of values of Go type t from its json tags:
// a struct's member names (embedded structs' included), walking members
// whose types have a schema; a slice's elements; a map's values; for a
// [wireFormer], its wire forms'. Types without named members (strings,
// numbers, json.RawMessage) have none (nil). Results are cached; t must not
// be recursive.
func schemaOf(t reflect.Type) *nameSchema {
	if s, ok := schemaCache.Load(t); ok {
		return s.(*nameSchema)
	}
	s := buildSchema(t)
	schemaCache.Store(t, s)
	return s
}

var schemaCache sync.Map // reflect.Type → *nameSchema

// wireFormer is a type whose UnmarshalJSON does not read its own fields'
// names: it decodes through other Go types, its wire forms, which know
// names the type has no field for (a v1.0 card's "securityRequirements", a
// security scheme's "apiKeySecurityScheme"). The name check walks the
// forms' names instead, so that every name the decoder binds is checked.
// wireForms returns at most one struct or map type (the form of a JSON
// object) and one slice type (the form of a JSON array); the method is
// only called on a new zero value.
type wireFormer interface {
	wireForms() []reflect.Type
}

func buildSchema(t reflect.Type) *nameSchema {
	var target int64 // what a pointer's target takes
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
		target = int64(t.Size())
	}
	if w, ok := reflect.New(t).Interface().(wireFormer); ok {
		return formsSchema(w.wireForms(), target)
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
		return &nameSchema{elem: schemaOf(t.Elem()), cost: cost}
	case reflect.Map:
		// A map entry: its key, its value and the map's own bookkeeping;
		// the map itself, measured at about 100 bytes and a group of
		// eight entries.
		entry := int64(t.Key().Size() + t.Elem().Size())
		return &nameSchema{values: schemaOf(t.Elem()), cost: 2 * (entry + 16), open: 128 + 12*entry}
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
			return &nameSchema{set: newNameSet(names...), walk: walk, open: target}
		}
	}
	return nil
}

// formsSchema is the schema of a wireFormer decoded through forms: an
// object is walked with the struct form's names, or as the map form's
// entries; an array is walked and charged as the slice form. An object of
// the struct form costs, besides target, the struct form itself and a
// json.Unmarshal call, with which UnmarshalJSON fills it before it fills
// the value.
func formsSchema(forms []reflect.Type, target int64) *nameSchema {
	s := &nameSchema{}
	for _, f := range forms {
		fs := schemaOf(f)
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

// checkNames walks body with schema before encoding/json decodes it. It
// returns a nameFault for a member name that repeats or differs only in
// case, or errOverBudget for a body whose lists and maps would take more
// memory than its size allows (decodeBudget), or nil. Malformed JSON is
// not its business: it stops there and leaves that to the decoder.
func checkNames(body []byte, schema *nameSchema) error {
	d := newJSONReader(body)
	defer d.release()
	d.budget = decodeBudget(len(body))
	walkNames(d, schema)
	switch {
	case d.heavy != nil:
		return d.heavy
	case d.fault != "":
		return nameFault(d.fault)
	}
	return nil
}

// walkNames reads the value at d, checking names where schema knows them
// and charging d's budget for each element of a list or map.
func walkNames(d *jsonReader, s *nameSchema) {
	switch c := d.peek(); {
	case s == nil:
		d.skip()
	case s.set != nil && c == '{':
		if !d.charge(s.open) {
			return
		}
		d.object(s.set, nil, func(i int) { walkNames(d, s.walk[i]) })
	case s.cost > 0 && c == '{':
		if !d.charge(s.open) {
			return
		}
		d.object(nil, nil, func(int) {
			if d.charge(s.cost) {
				walkNames(d, s.values)
			}
		})
	case s.cost > 0 && c == '[':
		d.array(nil, func() {
			if d.charge(s.cost) {
				walkNames(d, s.elem)
			}
		})
	default:
		d.skip()
	}
}

// member reads the value of the member named key: passes it to read when
// its name is known (as names' index), after the name check, else skips
// it. With names nil it is passed as -1, unchecked.
func (d *jsonReader) member(names *nameSet, key []byte, seen *uint64, read func(i int)) {
	if names == nil { // keys of the sender's choosing
		read(-1)
		return
	}
	i := names.index(key)
	switch {
	case d.exact:
	case i >= 0 && *seen&(1<<i) != 0:
		if d.fault == "" { // the first fault is kept; no need to word the others
			d.nameFault(fmt.Sprintf("member %q appears twice in one object", key))
		}
	case i >= 0:
		*seen |= 1 << i
	default:
		if i = names.fold(key); i >= 0 && d.fault == "" {
			d.nameFault(fmt.Sprintf("member %q is %q in another case (JSON names are case-sensitive)", key, names.names[i]))
		}
	}
	if i < 0 || read == nil {
		d.skip()
		return
	}
	d.path = append(d.path, pathElem{name: names.names[i]})
	read(i)
	d.path = d.path[:len(d.path)-1]
}

func (d *jsonReader) nameFault(f string) {
	if d.fault == "" {
		d.fault = f
	}
}
