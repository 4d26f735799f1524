package a2a

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// JSON member names are case-sensitive (RFC 8259 §4 and every A2A schema),
// but encoding/json binds a member to a field whatever its case ("Status"
// fills Status as "status" does) and, when a name repeats, keeps or merges
// the values. A reply could then be read differently than it was written:
// a "Status" after "status" would decide success. Before a reply is
// decoded, checkNames walks the levels of it that the client decodes into
// named fields (the envelope, the error object, the result, its status,
// messages, artifacts, parts and files) and refuses a member whose name
// matches a known one only without regard to case, or a known member that
// appears twice in one object. Values the client keeps as raw JSON (data,
// metadata, ids) are skipped unread, as are unknown members.

// nameSchema describes one level of a reply: the members of an object, or
// the elements of an array.
type nameSchema struct {
	byLen     [][]int       // bits of the known names, by name length
	names     []string      // the known names, by bit
	nameBytes [][]byte      // and as bytes, for comparing and case folding
	walk      []*nameSchema // by bit: what to walk inside a member; nil: skip it
	elem      *nameSchema   // for an array: each element's schema
	values    *nameSchema   // for an object with keys of the sender's choosing: each value's
}

// bit returns the bit of a known member name, or false.
func (s *nameSchema) bit(name []byte) (int, bool) {
	if len(name) >= len(s.byLen) {
		return 0, false
	}
	for _, b := range s.byLen[len(name)] {
		if string(s.nameBytes[b]) == string(name) {
			return b, true
		}
	}
	return 0, false
}

// object builds the schema of an object from its known member names; a
// name given in walk has its value walked with that schema.
func object(names []string, walk map[string]*nameSchema) *nameSchema {
	if len(names) > 64 {
		panic("a2a: a name schema holds at most 64 names") // the seen set is a uint64
	}
	s := &nameSchema{names: names, walk: make([]*nameSchema, len(names))}
	for i, n := range names {
		for len(s.byLen) <= len(n) {
			s.byLen = append(s.byLen, nil)
		}
		s.byLen[len(n)] = append(s.byLen[len(n)], i)
		s.nameBytes = append(s.nameBytes, []byte(n))
		s.walk[i] = walk[n]
	}
	return s
}

func arrayOf(elem *nameSchema) *nameSchema { return &nameSchema{elem: elem} }

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
			return arrayOf(e)
		}
	case reflect.Map:
		if v := schemaOf(t.Elem()); v != nil {
			return &nameSchema{values: v}
		}
	case reflect.Struct:
		var names []string
		walk := map[string]*nameSchema{}
		var add func(t reflect.Type)
		add = func(t reflect.Type) {
			for f := range t.Fields() {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				switch {
				case name == "-" || !f.IsExported() && !f.Anonymous:
				case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
					add(f.Type)
				default:
					name = cmp.Or(name, f.Name)
					names = append(names, name)
					if fs := schemaOf(f.Type); fs != nil {
						walk[name] = fs
					}
				}
			}
		}
		add(t)
		if len(names) > 0 {
			return object(names, walk)
		}
	}
	return nil
}

// resultNames is the schema of a JSON-RPC reply whose result is a T.
func resultNames[T any]() *nameSchema {
	t := reflect.TypeFor[resultEnvelope[T]]()
	return schemaOf(t)
}

// resultEnvelope is a JSON-RPC reply with a T result, for resultNames.
type resultEnvelope[T any] struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  T               `json:"result"`
	Error   rpcErrorWire    `json:"error"`
}

var (
	fileSchema = object([]string{"name", "mimeType", "bytes", "uri"}, nil)
	partSchema = object([]string{"kind", "text", "data", "file", "metadata"},
		map[string]*nameSchema{"file": fileSchema})
	partsSchema   = arrayOf(partSchema)
	messageSchema = object([]string{"kind", "messageId", "role", "parts", "taskId", "contextId", "referenceTaskIds", "extensions", "metadata"},
		map[string]*nameSchema{"parts": partsSchema})
	statusSchema = object([]string{"state", "message", "timestamp"},
		map[string]*nameSchema{"message": messageSchema})
	artifactSchema = object([]string{"artifactId", "name", "description", "parts", "metadata", "extensions"},
		map[string]*nameSchema{"parts": partsSchema})
	// resultSchema covers every result the client decodes by kind or
	// shape: Task, Message, the two stream events, and the names of the
	// A2A v1.0 wrappers (reply.kind).
	resultSchema = object([]string{"kind", "id", "contextId", "status", "history", "artifacts", "metadata",
		"messageId", "role", "parts", "taskId", "referenceTaskIds", "extensions",
		"final", "artifact", "append", "lastChunk",
		"task", "message", "statusUpdate", "artifactUpdate"},
		map[string]*nameSchema{"status": statusSchema, "history": arrayOf(messageSchema), "artifacts": arrayOf(artifactSchema),
			"parts": partsSchema, "artifact": artifactSchema})
	// envelopeSchema is a reply whose result is not walked (its names are
	// the client's own); replySchema one whose result is a Task, a Message
	// or an event.
	envelopeSchema = resultNames[json.RawMessage]()
	replySchema    = object(envelopeSchema.names, map[string]*nameSchema{"result": resultSchema, "error": schemaOf(reflect.TypeFor[rpcErrorWire]())})
)

// checkNames walks body with schema and returns what is wrong with its
// member names ("" when nothing is). Malformed JSON is not its business:
// it stops and leaves that to the decoder.
func checkNames(body []byte, schema *nameSchema) string {
	w := nameWalker{b: body}
	return w.walk(schema)
}

type nameWalker struct {
	b    []byte
	i    int
	stop bool // malformed JSON: give up, the decoder will say why
}

func (w *nameWalker) space() {
	for w.i < len(w.b) {
		switch w.b[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

// str reads the string starting at w.i and returns its raw contents
// (escapes not undone).
func (w *nameWalker) str() []byte {
	start := w.i + 1
	// Member names and most values are short: a plain loop first, then
	// IndexByte, which is faster over long text.
	for k := start; k < len(w.b) && k < start+32; k++ {
		switch w.b[k] {
		case '"':
			w.i = k + 1
			return w.b[start:k]
		case '\\':
			k++
		}
	}
	for from := start; ; {
		j := bytes.IndexByte(w.b[from:], '"')
		if j < 0 {
			w.stop = true
			return nil
		}
		end := from + j
		backslashes := 0
		for k := end - 1; k >= start && w.b[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			w.i = end + 1
			return w.b[start:end]
		}
		from = end + 1
	}
}

// skip passes over one value without looking into it.
func (w *nameWalker) skip() {
	w.space()
	if w.i >= len(w.b) {
		w.stop = true
		return
	}
	switch w.b[w.i] {
	case '"':
		w.str()
	case '{', '[':
		depth := 0
		for !w.stop && w.i < len(w.b) {
			switch w.b[w.i] {
			case '"':
				w.str()
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					w.i++
					return
				}
			}
			w.i++
		}
		w.stop = true
	default: // a number, true, false or null
		start := w.i
	scalar:
		for w.i < len(w.b) {
			switch w.b[w.i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				break scalar
			}
			w.i++
		}
		if w.i == start {
			w.stop = true
		}
	}
}

// walk checks the value at w.i against s and moves past it.
func (w *nameWalker) walk(s *nameSchema) string {
	w.space()
	if w.i >= len(w.b) {
		w.stop = true
		return ""
	}
	switch {
	case (s.names != nil || s.values != nil) && w.b[w.i] == '{':
		return w.object(s)
	case s.elem != nil && w.b[w.i] == '[':
		w.i++
		for !w.stop {
			w.space()
			switch {
			case w.i >= len(w.b):
				w.stop = true
			case w.b[w.i] == ']':
				w.i++
				return ""
			case w.b[w.i] == ',':
				w.i++
			default:
				if f := w.walk(s.elem); f != "" {
					return f
				}
			}
		}
		return ""
	default:
		w.skip()
		return ""
	}
}

func (w *nameWalker) object(s *nameSchema) string {
	w.i++ // '{'
	var seen uint64
	for !w.stop {
		w.space()
		if w.i >= len(w.b) {
			w.stop = true
			break
		}
		switch w.b[w.i] {
		case '}':
			w.i++
			return ""
		case ',':
			w.i++
			continue
		case '"':
		default:
			w.stop = true
			return ""
		}
		raw := w.str()
		if w.stop {
			break
		}
		if bytes.IndexByte(raw, '\\') >= 0 { // "\u0053tate": undo the escapes
			var name string
			if json.Unmarshal(w.b[w.i-len(raw)-2:w.i], &name) != nil {
				w.stop = true
				break
			}
			raw = []byte(name)
		}
		w.space()
		if w.i >= len(w.b) || w.b[w.i] != ':' {
			w.stop = true
			break
		}
		w.i++
		if s.values != nil { // keys of the sender's choosing
			if f := w.walk(s.values); f != "" {
				return f
			}
			continue
		}
		if bit, ok := s.bit(raw); ok {
			if seen&(1<<bit) != 0 {
				return fmt.Sprintf("member %q appears twice in one object", raw)
			}
			seen |= 1 << bit
			if child := s.walk[bit]; child != nil {
				if f := w.walk(child); f != "" {
					return f
				}
			} else {
				w.skip()
			}
			continue
		}
		for i, known := range s.nameBytes {
			if bytes.EqualFold(raw, known) {
				return fmt.Sprintf("member %q is %q in another case (JSON names are case-sensitive)", raw, s.names[i])
			}
		}
		w.skip()
	}
	return ""
}
