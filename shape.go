package a2a

// Telling stored bytes apart by version, for the UnmarshalJSON methods of
// Task, Message and TaskStatus: the client knows the version of every
// reply it reads, but bytes handed to json.Unmarshal carry no version.
// What MarshalJSON writes, and every v0.3 task or message, has "kind";
// a v1.0 one has none and spells its enums TASK_STATE_* and ROLE_* (or
// writes their numbers).

// v10Stored reports whether b, a task, message or status, is A2A v1.0
// JSON. path names the enum that decides: a task's "status", "state"; a
// message's "role"; a status's "state". A "kind" member at the top, or in
// the "message" beside the enum, makes b v0.3 at once; else the enum
// does: one of v0.3's spellings ("completed", "agent") makes b v0.3, and
// anything else (a TASK_STATE_* or ROLE_* name, a number, a state nobody
// knows, no enum at all) v1.0.
//
// It looks only at the members on path and skips the rest without
// validating them, so it costs a small part of the decoding that follows,
// which validates everything and reports what is malformed. Input that is
// not an object is left to the v0.3 reader.
func v10Stored(b []byte, path ...string) bool {
	s := shapeScan{b: b}
	v03, _ := s.object(0, path)
	return !v03 && !s.bad
}

// shapeScan reads just enough of a JSON value to find a few members.
type shapeScan struct {
	b   []byte
	i   int
	bad bool // the input is not what a decoder would take
}

// object reads the object at s.i at depth (0 for the top) for the members
// of path[depth:]. v03 says a "kind" or a v0.3 enum spelling was found;
// enum that the enum at the end of path was there.
func (s *shapeScan) object(depth int, path []string) (v03, enum bool) {
	if !s.open('{') {
		return depth == 0, false // not an object: the v0.3 reader reports it
	}
	last := len(path) - 1
	for {
		key, ok := s.key()
		if !ok {
			return false, enum
		}
		switch {
		case key == "kind" && depth <= last+1:
			return true, enum
		case key == "message" && depth == last && s.peek() == '{':
			if v03, _ := s.object(last+1, path); v03 {
				return true, enum
			}
		case depth <= last && key == path[depth] && depth < last:
			if s.peek() == '{' {
				v03, _ := s.object(depth+1, path)
				if v03 {
					return true, enum
				}
				continue
			}
			s.skip()
		case depth <= last && key == path[depth]:
			enum = true
			if s.peek() == '"' {
				start := s.i + 1
				s.i = stringClose(s.b, start)
				v := s.b[start:min(s.i, len(s.b))]
				s.i++
				if v03Spelling(v) {
					return true, enum
				}
				continue
			}
			s.skip()
		default:
			s.skip()
		}
		if s.bad {
			return false, enum
		}
	}
}

// v03Spelling reports whether v is a state or role as v0.3 spells it.
func v03Spelling(v []byte) bool {
	switch string(v) {
	case string(RoleUser), string(RoleAgent):
		return true
	}
	return TaskState(v).Known()
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
	s.i = stringClose(s.b, start)
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
		s.i = stringClose(s.b, s.i+1) + 1
	case '{', '[':
		depth := 0
		for ; s.i < len(s.b); s.i++ {
			for s.i < len(s.b) && !countStop[s.b[s.i]] {
				s.i++
			}
			if s.i >= len(s.b) {
				break
			}
			switch s.b[s.i] {
			case '"':
				s.i = stringClose(s.b, s.i+1)
			case '[', '{':
				depth++
			case ']', '}':
				if depth--; depth == 0 {
					s.i++
					return
				}
			}
		}
		s.bad = true
	default: // a number, true, false, null
		for s.i < len(s.b) && !countStop[s.b[s.i]] && s.b[s.i] > ' ' {
			s.i++
		}
	}
}
