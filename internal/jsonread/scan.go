package jsonread

import (
	"fmt"
	"strconv"
)

// The validating half of Reader: whitespace, skipping one value whole
// (checking it against the grammar) and the syntax errors it reports.

// failAt stops the reader with a syntax error at byte i.
func (d *Reader) failAt(i int, msg string) {
	if d.syntax == nil {
		if i >= len(d.buf) {
			msg = "unexpected end of JSON input"
		}
		d.syntax = &jsonSyntaxError{msg: msg, offset: i}
	}
	d.pos = len(d.buf)
}

// failChar stops the reader at an unexpected byte.
func (d *Reader) failChar(i int, context string) {
	if i >= len(d.buf) {
		d.failAt(i, "")
		return
	}
	d.failAt(i, fmt.Sprintf("invalid character %s %s", quoteChar(d.buf[i]), context))
}

func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

func (d *Reader) ws() {
	for d.pos < len(d.buf) {
		switch d.buf[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// Peek returns the first byte of the next value, or 0 at the end of input.
func (d *Reader) Peek() byte {
	d.ws()
	if d.pos < len(d.buf) {
		return d.buf[d.pos]
	}
	return 0
}

// End checks that nothing but whitespace follows the value just read.
func (d *Reader) End() {
	if d.ws(); d.pos < len(d.buf) {
		d.failChar(d.pos, "after top-level value")
	}
}

// Null reads a null if one is next and reports whether it did.
func (d *Reader) Null() bool {
	if d.Peek() == 'n' {
		d.Skip()
		return d.syntax == nil
	}
	return false
}

// Skip reads past one value and returns its bytes (their capacity ends
// with them). It validates the value unless the reader trusts its input
// (Trust) or a validating pass noted where the value ends (Recall); nil
// after a syntax error.
func (d *Reader) Skip() []byte {
	d.ws()
	start := d.pos
	var end int
	if e, ok := d.ends.end(start); ok && start < e && e <= len(d.buf) {
		end = e
	} else if d.trusted {
		end = d.skipTrusted(start)
	} else {
		end = d.skipValue(start)
	}
	if d.syntax != nil {
		return nil
	}
	d.pos = end
	return d.buf[start:end:end] // its capacity ends with it: an append by the caller copies
}

// skipValue validates the value starting at b[i] (no whitespace before it)
// and returns the index just past it. It keeps its own stack of open
// containers rather than recursing, so deep nesting costs no Go stack.
func (d *Reader) skipValue(i int) int {
	b := d.buf
	var stackBuf [32]byte
	stack := stackBuf[:0]
	for {
		// A value starts at i.
		i = skipSpace(b, i)
		if i >= len(b) {
			d.failAt(i, "")
			return i
		}
		switch c := b[i]; c {
		case '{', '[':
			if d.depth+len(stack) >= maxDepth {
				d.failAt(i, "exceeded max depth")
				return i
			}
			if d.ends.noting && len(stack) < endsDepth {
				d.ends.ends.starts[len(stack)] = i
			}
			stack = append(stack, c)
			i = skipSpace(b, i+1)
			if i >= len(b) {
				d.failAt(i, "")
				return i
			}
			if c == '[' {
				if b[i] == ']' {
					i++
					stack = stack[:len(stack)-1]
					break
				}
				continue
			}
			if b[i] == '}' {
				i++
				stack = stack[:len(stack)-1]
				break
			}
			if i, _ = d.memberName(i); d.syntax != nil {
				return i
			}
			continue
		case '"':
			start := i
			if i, _ = d.stringEnd(i); d.syntax != nil {
				return i
			}
			d.ends.note(start, i)
		case 't':
			i = d.literal(i, "true")
		case 'f':
			i = d.literal(i, "false")
		case 'n':
			i = d.literal(i, "null")
		default:
			i = d.numberEnd(i)
		}
		if d.syntax != nil {
			return i
		}
		// After a value: close containers, or go on to the next element.
		for {
			if len(stack) == 0 {
				return i
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				d.failAt(i, "")
				return i
			}
			top := stack[len(stack)-1]
			c := b[i]
			if c == ',' {
				i++
				if top == '{' {
					if i, _ = d.memberName(skipSpace(b, i)); d.syntax != nil {
						return i
					}
				}
				break
			}
			if top == '{' && c == '}' || top == '[' && c == ']' {
				i++
				stack = stack[:len(stack)-1]
				if d.ends.noting && len(stack) < endsDepth {
					d.ends.note(d.ends.ends.starts[len(stack)], i)
				}
				continue
			}
			if top == '{' {
				d.failChar(i, "after object key:value pair")
			} else {
				d.failChar(i, "after array element")
			}
			return i
		}
	}
}

// memberName validates `"name" :` starting at b[i] and returns the index
// after the colon, and the name's contents (between its quotes, escapes
// not undone).
func (d *Reader) memberName(i int) (int, []byte) {
	b := d.buf
	if i >= len(b) || b[i] != '"' {
		d.failChar(i, "looking for beginning of object key string")
		return i, nil
	}
	end, _ := d.stringEnd(i)
	if d.syntax != nil {
		return end, nil
	}
	name := b[i+1 : end-1]
	j := skipSpace(b, end)
	if j >= len(b) || b[j] != ':' {
		d.failChar(j, "after object key")
		return j, nil
	}
	return j + 1, name
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// strPlain marks the bytes a string can hold without a closer look: not
// '"', not '\\', not a control character. strASCII is the same for
// ASCII only: a string made of those alone needs no decoding.
var strPlain, strASCII = func() (plain, ascii [256]bool) {
	for c := 0x20; c < 256; c++ {
		plain[c] = c != '"' && c != '\\'
		ascii[c] = plain[c] && c < 0x80
	}
	return plain, ascii
}()

// stringEnd validates the string starting at b[i] (a '"') and returns the
// index after its closing quote, and whether its contents are plain ASCII
// with no escapes (so they are the string's value as they stand).
func (d *Reader) stringEnd(i int) (int, bool) {
	b := d.buf
	j := i + 1
	for j < len(b) && strASCII[b[j]] {
		j++
	}
	if j < len(b) && b[j] == '"' {
		return j + 1, true
	}
	for {
		for j < len(b) && strPlain[b[j]] {
			j++
		}
		if j >= len(b) {
			d.failAt(j, "")
			return j, false
		}
		switch b[j] {
		case '"':
			return j + 1, false
		case '\\':
			if j+1 >= len(b) {
				d.failAt(j+1, "")
				return j, false
			}
			switch b[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				for k := j + 2; k < j+6; k++ {
					if k >= len(b) {
						d.failAt(k, "")
						return k, false
					}
					if !isHex(b[k]) {
						d.failChar(k, "in \\u hexadecimal character escape")
						return k, false
					}
				}
				j += 6
			default:
				d.failChar(j+1, "in string escape code")
				return j, false
			}
		default: // a control character
			d.failChar(j, "in string literal")
			return j, false
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func (d *Reader) literal(i int, lit string) int {
	b := d.buf
	for k := 1; k < len(lit); k++ {
		if i+k >= len(b) {
			d.failAt(i+k, "")
			return i + k
		}
		if b[i+k] != lit[k] {
			d.failChar(i+k, fmt.Sprintf("in literal %s (expecting %s)", lit, quoteChar(lit[k])))
			return i + k
		}
	}
	return i + len(lit)
}

// numberEnd validates the number starting at b[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *Reader) numberEnd(i int) int {
	b := d.buf
	start := i
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digitsEnd(b, i+1)
	default:
		if i == start {
			d.failChar(i, "looking for beginning of value")
		} else {
			d.failChar(i, "in numeric literal")
		}
		return i
	}
	if i < len(b) && b[i] == '.' {
		if j := digitsEnd(b, i+1); j > i+1 {
			i = j
		} else {
			d.failChar(j, "after decimal point in numeric literal")
			return j
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digitsEnd(b, i)
		if j == i {
			d.failChar(i, "in exponent of numeric literal")
			return i
		}
		i = j
	}
	return i
}

// digitsEnd returns the index of the first byte from b[i] that is not a
// decimal digit.
func digitsEnd(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}

// countRest counts the elements of an array from b[i], the start of one
// of them, to the array's end, stepping over strings and nested values
// without checking them: a quick look ahead so a long list can be
// allocated once, at its length. On malformed input the count may be off;
// the reading that goes on, which validates, reports the fault.
func countRest(b []byte, i int) int {
	n, _ := countAhead(b, i, len(b))
	return n
}

// countAhead is countRest looking at most limit bytes ahead: done is
// false when the array goes on past them, and n then counts the elements
// that end within them.
func countAhead(b []byte, i, limit int) (n int, done bool) {
	if limit < len(b)-i {
		b = b[:i+limit]
	}
	_, commas, done := closeBracket(b, i)
	return commas + 1, done
}

// closeBracket steps from b[i], inside an array or object whose opening
// bracket is just before, over strings and nested values without checking
// them, to just past the bracket that closes it (counted, not matched, and
// without a stack, so depth costs nothing). commas counts the commas at
// its own level; done is false when b ends first (end is then len(b)).
func closeBracket(b []byte, i int) (end, commas int, done bool) {
	depth := 1
	for ; i < len(b); i++ {
		for i < len(b) && !countStop[b[i]] { // nothing that matters here
			i++
		}
		if i >= len(b) {
			break
		}
		switch b[i] {
		case '"':
			i = closeQuote(b, i+1)
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				return i + 1, commas, true
			}
		case ',':
			if depth == 1 {
				commas++
			}
		}
	}
	return len(b), commas, false
}

// countStop marks the bytes closeBracket must look at.
var countStop = func() (t [256]bool) {
	for _, c := range []byte(`"[]{},`) {
		t[c] = true
	}
	return t
}()
