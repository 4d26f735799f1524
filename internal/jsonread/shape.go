package jsonread

import "bytes"

// A quick look at the top of an object, for the UnmarshalJSON methods
// that tell stored bytes apart by a member before they decode them.

// LacksMember reports whether b, an object, has no member called name at
// its top: true at once for bytes without the text "name" (quoted)
// anywhere; others are looked at member name by member name at the top,
// values skipped without validating them, so it costs a small part of the
// decoding that follows, which validates everything and reports what is
// malformed. Input that is not an object, or that the look finds
// malformed, does not lack one (false), unless it has no quoted name
// anywhere. A name spelled with escapes is missed.
func LacksMember(b []byte, name string) bool {
	if !bytes.Contains(b, []byte(`"`+name+`"`)) {
		return true // not anywhere: found at memory speed
	}
	s := shapeScan{b: b}
	return !s.has(name) && !s.bad
}

// shapeScan reads just enough of a JSON value to find a few members.
type shapeScan struct {
	b   []byte
	i   int
	bad bool // the input is not what a decoder would take
}

// has reports whether the object at s.i has a member called name. A value
// that is not an object counts as having one: the caller's decoder for
// such values reports it.
func (s *shapeScan) has(name string) bool {
	if !s.open('{') {
		return true
	}
	for {
		key, ok := s.key()
		switch {
		case !ok:
			return false
		case key == name:
			return true
		default:
			s.skip()
		}
		if s.bad {
			return false
		}
	}
}

// open consumes the opening byte c after any space, or reports false.
func (s *shapeScan) open(c byte) bool {
	if s.peek() != c {
		return false
	}
	s.i++
	return true
}

// key reads the next member name and its colon, consuming a comma before
// it; false at the end of the object or on malformed input.
func (s *shapeScan) key() (string, bool) {
	switch s.peek() {
	case ',':
		s.i++
	case '}':
		s.i++
		return "", false
	}
	if s.peek() != '"' {
		s.bad = true
		return "", false
	}
	start := s.i + 1
	s.i = closeQuote(s.b, start)
	if s.i >= len(s.b) {
		s.bad = true
		return "", false
	}
	key := s.b[start:s.i]
	s.i++
	if s.peek() != ':' {
		s.bad = true
		return "", false
	}
	s.i++
	return string(key), true // no allocation: compared, never kept
}

// peek returns the next byte that is not space, or 0 at the end.
func (s *shapeScan) peek() byte {
	s.i = skipSpace(s.b, s.i)
	if s.i >= len(s.b) {
		return 0
	}
	return s.b[s.i]
}

// skip passes over one value without validating it.
func (s *shapeScan) skip() {
	switch s.peek() {
	case 0:
		s.bad = true
	case '"':
		s.i = closeQuote(s.b, s.i+1) + 1
	case '{', '[':
		end, _, ok := closeBracket(s.b, s.i+1)
		s.i = end
		s.bad = s.bad || !ok
	default: // a number, true, false, null
		for s.i < len(s.b) && !countStop[s.b[s.i]] && s.b[s.i] > ' ' {
			s.i++
		}
	}
}
