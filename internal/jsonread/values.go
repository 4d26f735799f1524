package jsonread

import (
	"bytes"
	"encoding/json"
	"reflect"
	"unicode/utf16"
	"unicode/utf8"
)

// Reading scalar values and raw ones: strings decoded as encoding/json
// decodes them, each charged to the budget.

// Str reads a string value; null reads as "". Any other value is a
// mistyped one.
func (d *Reader) Str() string {
	switch d.Peek() {
	case '"':
		start := d.pos
		end, plain := d.stringEnd(start)
		if d.syntax != nil {
			return ""
		}
		d.pos = end
		if !d.Charge(int64(end - start)) {
			return ""
		}
		if plain {
			return string(d.buf[start+1 : end-1])
		}
		return unquote(d.buf[start+1 : end-1])
	case 'n':
		d.Null()
		return ""
	}
	d.WrongType(reflect.TypeFor[string]())
	return ""
}

// StrIn is Str for a value that is most often one of known: such a value
// comes back as the constant itself, without allocating.
func (d *Reader) StrIn(known ...string) string {
	if d.Peek() == '"' {
		start := d.pos
		end, plain := d.stringEnd(start)
		if d.syntax != nil {
			return ""
		}
		if plain {
			d.pos = end
			raw := d.buf[start+1 : end-1]
			for _, k := range known {
				if k == string(raw) {
					return k
				}
			}
			if !d.Charge(int64(len(raw))) {
				return ""
			}
			return string(raw)
		}
	}
	return d.Str()
}

// Strs reads an array of strings; null reads as nil.
func (d *Reader) Strs() []string {
	out := []string{}
	if !d.Array(reflect.TypeFor[[]string](), func() {
		var ok bool
		if out, ok = Grow(d, out); ok {
			out = append(out, d.Str())
		}
	}) {
		return nil
	}
	return out
}

// Boolean reads true or false; null reads as false.
func (d *Reader) Boolean() bool {
	switch d.Peek() {
	case 't', 'f':
		return string(d.Skip()) == "true"
	case 'n':
		d.Null()
		return false
	}
	d.WrongType(reflect.TypeFor[bool]())
	return false
}

// Raw reads any value and returns its bytes, aliasing the input; null is
// returned as the bytes "null".
func (d *Reader) Raw() json.RawMessage {
	return d.Skip()
}

// unquote decodes the contents of a JSON string (between the quotes,
// already validated) as encoding/json does.
func unquote(s []byte) string {
	// Most strings need no work: no escapes, valid UTF-8.
	i := bytes.IndexByte(s, '\\')
	if i < 0 {
		if utf8.Valid(s) {
			return string(s)
		}
		i = len(s)
	}
	// The work starts at the first escape or invalid byte.
	for j := 0; j < i; {
		if s[j] < utf8.RuneSelf {
			j++
			continue
		}
		r, size := utf8.DecodeRune(s[j:i])
		if r == utf8.RuneError && size == 1 {
			i = j
			break
		}
		j += size
	}
	out := make([]byte, i, len(s)+2*utf8.UTFMax)
	copy(out, s[:i])
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\':
			switch s[i+1] {
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r := hex4(s[i+2:])
				i += 6
				if utf16.IsSurrogate(r) {
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, hex4(s[i+2:])); dec != utf8.RuneError {
							r = dec
							i += 6
						} else {
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
				continue
			default: // '"', '\\', '/'
				out = append(out, s[i+1])
			}
			i += 2
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			out = utf8.AppendRune(out, r) // invalid UTF-8 becomes U+FFFD
			i += size
		}
	}
	return string(out)
}

func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
