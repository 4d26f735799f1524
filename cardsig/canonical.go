package cardsig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// The canonical forms a signature is checked over: the card as received
// (never a re-encoding of Go structs) read into a tree that keeps every
// member in order and every number's text, refused when a member repeats
// in one object, projected by a form's rules, then written as RFC 8785
// (JCS) by github.com/gowebpki/jcs.

// Form names a canonical form of an agent card.
type Form string

// The forms this package knows.
const (
	// FormSpec is A2A v1.0 §8.4.1 as written: the signatures member
	// removed, the proto field presence rules applied (REQUIRED members
	// kept even empty, proto3 optional ones kept iff present, others
	// dropped at their default), then JCS. Where the specification leaves
	// a point open this package reads it so: a message member sent as {}
	// (provider, an extension's params) is present and kept; members
	// outside the v1.0 schema (the v0.3 members of a dual card, vendor
	// members) are kept as received, so they are signed too; a REQUIRED
	// list sent empty ("skills":[]) is kept, as §8.4.1's example does.
	FormSpec Form = "spec"
	// FormA2AJS is what @a2a-js/sdk 1.x's canonicalizeAgentCard signs: a
	// round trip through the v1.0 proto (members outside the schema
	// dropped, default values of members that are not optional dropped),
	// then every "", null, [] and {} removed, recursively, then JCS.
	// What it drops is not signed ([a2a.CardVerification.Unsigned]).
	FormA2AJS Form = "a2a-js"
)

// maxDepth bounds how deep a card nests.
const maxDepth = 64

// node is one JSON value of the card as received.
type node struct {
	kind    byte // '{', '[', '"', '0' (number), 'b' (true/false), 'n' (null)
	text    string
	members []member
	elems   []*node
	ptr     string // where it is in the card as received (RFC 6901)
}

type member struct {
	name string
	val  *node
}

// errDuplicate marks a card with a member repeated in one object.
var errDuplicate = errors.New("duplicate member")

// parse reads raw into a tree. It refuses invalid UTF-8, a member repeated
// in one object (errDuplicate), nesting past maxDepth and trailing data.
func parse(raw []byte) (*node, error) {
	if !utf8.Valid(raw) {
		return nil, errors.New("card is not valid UTF-8")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	n, err := parseValue(d, "", 0)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("card has data after its JSON value")
	}
	return n, nil
}

func parseValue(d *json.Decoder, ptr string, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("card nests deeper than %d", maxDepth)
	}
	t, err := d.Token()
	if err != nil {
		return nil, fmt.Errorf("card is not JSON: %w", err)
	}
	n := &node{ptr: ptr}
	switch v := t.(type) {
	case json.Delim:
		switch v {
		case '{':
			n.kind = '{'
			for d.More() {
				t, err := d.Token()
				if err != nil {
					return nil, fmt.Errorf("card is not JSON: %w", err)
				}
				name := t.(string)
				if len(n.members) < 8 && n.get(name) != nil { // larger objects: checked once read
					return nil, fmt.Errorf("%w %s", errDuplicate, strconv.Quote(ptr+"/"+escapePtr(name)))
				}
				val, err := parseValue(d, ptr+"/"+escapePtr(name), depth+1)
				if err != nil {
					return nil, err
				}
				n.members = append(n.members, member{name, val})
			}
			if err := n.unique(); err != nil {
				return nil, err
			}
		case '[':
			n.kind = '['
			for i := 0; d.More(); i++ {
				val, err := parseValue(d, ptr+"/"+strconv.Itoa(i), depth+1)
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, val)
			}
		}
		if _, err := d.Token(); err != nil { // the closing delimiter
			return nil, fmt.Errorf("card is not JSON: %w", err)
		}
	case string:
		n.kind, n.text = '"', v
	case json.Number:
		n.kind, n.text = '0', string(v)
	case bool:
		n.kind, n.text = 'b', strconv.FormatBool(v)
	case nil:
		n.kind = 'n'
	}
	return n, nil
}

// unique returns errDuplicate, naming it, when a member of object n
// repeats (sorting its names: a map would cost several times more).
func (n *node) unique() error {
	if len(n.members) <= 8 { // checked as read
		return nil
	}
	names := make([]string, len(n.members))
	for i, m := range n.members {
		names[i] = m.name
	}
	slices.Sort(names)
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			return fmt.Errorf("%w %s", errDuplicate, strconv.Quote(n.ptr+"/"+escapePtr(names[i])))
		}
	}
	return nil
}

func escapePtr(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// get returns the member of object n named name, or nil.
func (n *node) get(name string) *node {
	if n == nil || n.kind != '{' {
		return nil
	}
	for _, m := range n.members {
		if m.name == name {
			return m.val
		}
	}
	return nil
}

// isDefault reports whether n is its type's default: "", false, 0, null,
// [] or {}.
func (n *node) isDefault() bool {
	switch n.kind {
	case '"':
		return n.text == ""
	case 'b':
		return n.text == "false"
	case 'n':
		return true
	case '0':
		f, err := strconv.ParseFloat(n.text, 64)
		return err == nil && f == 0
	case '[':
		return len(n.elems) == 0
	case '{':
		return len(n.members) == 0
	}
	return false
}

// write appends n as JSON (not yet canonical: jcs.Transform makes it so).
func (n *node) write(b *bytes.Buffer) {
	switch n.kind {
	case '{':
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, m.name)
			b.WriteByte(':')
			m.val.write(b)
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.write(b)
		}
		b.WriteByte(']')
	case '"':
		writeString(b, n.text)
	case '0', 'b':
		b.WriteString(n.text)
	case 'n':
		b.WriteString("null")
	}
}

func writeString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s) // valid UTF-8: cannot fail
	b.Write(q)
}

// canonical returns the JCS bytes of n.
func canonical(n *node) ([]byte, error) {
	var b bytes.Buffer
	n.write(&b)
	out, err := jcs.Transform(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("card cannot be canonicalised (RFC 8785): %w", err)
	}
	return out, nil
}

// project returns the card tree under form's rules, the signatures member
// removed. It never fails: what the schema does not expect is kept as it
// is (spec) or dropped (a2a-js).
func project(card *node, form Form) *node {
	p := projectMessage(card, "AgentCard", form, true)
	if form == FormA2AJS {
		p = cleanEmpty(p)
		if p == nil {
			p = &node{kind: '{'}
		}
	}
	return p
}

// projectMessage projects object n as message msg.
func projectMessage(n *node, msg string, form Form, top bool) *node {
	if n.kind != '{' {
		if form == FormA2AJS {
			return &node{kind: '{', ptr: n.ptr} // ts-proto reads a non-object as an empty message
		}
		return n
	}
	fields := schema[msg]
	out := &node{kind: '{', ptr: n.ptr}
	if form == FormA2AJS {
		taken := false
		for _, m := range n.members {
			name, f, ok := lookup(fields, m.name)
			if !ok || (name != m.name && n.get(name) != nil) {
				continue // unknown, or an alias where the JSON name is present
			}
			if order, isOneof := oneofs[msg]; isOneof {
				if taken || firstOneof(n, fields, order) != name {
					continue
				}
				taken = true
			}
			if v := projectField(m.val, f, form); v != nil {
				out.members = append(out.members, member{name, v})
			}
		}
		return out
	}
	for _, m := range n.members {
		if top && m.name == "signatures" {
			continue
		}
		f, ok := fields[m.name]
		if !ok {
			out.members = append(out.members, m) // outside the schema: kept as received
			continue
		}
		if v := projectField(m.val, f, form); v != nil {
			out.members = append(out.members, member{m.name, v})
		}
	}
	return out
}

// lookup finds a member of fields by its JSON name or its alias.
func lookup(fields map[string]field, name string) (string, field, bool) {
	if f, ok := fields[name]; ok {
		return name, f, true
	}
	for n, f := range fields {
		if f.alias != "" && f.alias == name {
			return n, f, true
		}
	}
	return "", field{}, false
}

// firstOneof returns the first member of order present (not null) in n,
// a message whose fields are fields.
func firstOneof(n *node, fields map[string]field, order []string) string {
	for _, name := range order {
		v := n.get(name)
		if v == nil && fields[name].alias != "" {
			v = n.get(fields[name].alias)
		}
		if v != nil && v.kind != 'n' {
			return name
		}
	}
	return ""
}

// projectField projects the value v of a member with field f; nil drops
// the member.
func projectField(v *node, f field, form Form) *node {
	if v.kind == 'n' {
		return nil // null is the default, whatever the presence
	}
	switch f.kind {
	case message:
		return projectMessage(v, f.msg, form, false) // present: kept, even {}
	case structure:
		return v
	case messages:
		if v.kind != '[' {
			return keepOdd(v, form)
		}
		if len(v.elems) == 0 && (f.presence != required || form == FormA2AJS) {
			return nil
		}
		out := &node{kind: '[', ptr: v.ptr}
		for _, e := range v.elems {
			out.elems = append(out.elems, projectMessage(e, f.msg, form, false))
		}
		return out
	case mapOf:
		if v.kind != '{' {
			return keepOdd(v, form)
		}
		if len(v.members) == 0 && (f.presence != required || form == FormA2AJS) {
			return nil
		}
		out := &node{kind: '{', ptr: v.ptr}
		for _, m := range v.members {
			out.members = append(out.members, member{m.name, projectMessage(m.val, f.msg, form, false)})
		}
		return out
	}
	// scalar, list, scalarMap
	switch {
	case f.presence == required && form == FormSpec:
		return v
	case f.presence == optional:
		return v
	case v.isDefault():
		return nil
	}
	return v
}

// keepOdd is a value of the wrong JSON type for its member: the spec form
// signs it as received; a2a-js's decoder drops it.
func keepOdd(v *node, form Form) *node {
	if form == FormA2AJS {
		return nil
	}
	return v
}

// cleanEmpty is a2a-js's cleanEmpty: "", null, [] and {} removed,
// recursively, an object or array emptied by it removed too; nil when n
// itself goes.
func cleanEmpty(n *node) *node {
	switch n.kind {
	case 'n':
		return nil
	case '"':
		if n.text == "" {
			return nil
		}
	case '[':
		out := &node{kind: '[', ptr: n.ptr}
		for _, e := range n.elems {
			if c := cleanEmpty(e); c != nil {
				out.elems = append(out.elems, c)
			}
		}
		if len(out.elems) == 0 {
			return nil
		}
		return out
	case '{':
		out := &node{kind: '{', ptr: n.ptr}
		for _, m := range n.members {
			if c := cleanEmpty(m.val); c != nil {
				out.members = append(out.members, member{m.name, c})
			}
		}
		if len(out.members) == 0 {
			return nil
		}
		return out
	}
	return n
}

// unsigned returns the pointers of the members of the card as received
// that form leaves out of what it signs, where the spec form would sign
// them: the roots of what was dropped, in card order.
func unsigned(card *node, form Form) []string {
	if form == FormSpec {
		return nil
	}
	kept := map[string]bool{}
	var mark func(n *node)
	mark = func(n *node) {
		kept[n.ptr] = true
		for _, m := range n.members {
			mark(m.val)
		}
		for _, e := range n.elems {
			mark(e)
		}
	}
	mark(project(card, form))
	var out []string
	var walk func(n *node)
	walk = func(n *node) {
		if !kept[n.ptr] {
			out = append(out, n.ptr)
			return
		}
		for _, m := range n.members {
			walk(m.val)
		}
		for _, e := range n.elems {
			walk(e)
		}
	}
	walk(project(card, FormSpec))
	return out
}
