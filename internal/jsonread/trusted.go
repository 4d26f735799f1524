package jsonread

import "encoding/binary"

// Reading input known to be JSON: a reader told so (Trust, or
// DecodeWhole's Valid) skips a value by finding its end, not by checking
// it against the grammar again. What it decodes (objects it reads by a
// table, strings, lists) is read as ever, names and types checked and
// every allocation charged; only the values it skips whole (raw members
// such as data and metadata, unknown members) are not looked at byte by
// byte. For the second and later passes over a reply whose first pass
// validated it, and for the UnmarshalJSON methods, whose input
// encoding/json has validated.

// Trust tells d that its input is known to be valid JSON (an earlier pass
// validated it): Skip then only finds a value's end. On input that is not
// JSON after all it never reads past the input nor loops, and still stops
// with a syntax error at a value that ends early or a byte that cannot
// begin one; a fault inside a skipped value may go unnoticed.
func (d *Reader) Trust() { d.trusted = true }

// skipTrusted returns the index just past the value starting at b[i] (no
// whitespace before it), for input known to be JSON: strings are stepped
// over to their closing quote, containers to the bracket that closes
// them (counted, not matched, and without a stack, so depth costs
// nothing), scalars to the next delimiter.
func (d *Reader) skipTrusted(i int) int {
	b := d.buf
	if i >= len(b) {
		d.failAt(i, "")
		return i
	}
	switch b[i] {
	case '"':
		if j := closeQuote(b, i+1); j < len(b) {
			return j + 1
		}
	case '{', '[':
		if end, _, ok := closeBracket(b, i+1); ok {
			return end
		}
	default:
		j := i
		for j < len(b) && !scalarEnd[b[j]] {
			j++
		}
		if j > i {
			return j
		}
		d.failChar(i, "looking for beginning of value")
		return i
	}
	d.failAt(len(b), "")
	return len(b)
}

// closeQuote returns the index of the quote that closes the string whose
// contents start at b[i], or len(b). A run without a quote or backslash
// goes by eight bytes at a time.
func closeQuote(b []byte, i int) int {
	for {
		for i+8 <= len(b) && quietWord(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		for i < len(b) && !quoteOrEscape[b[i]] {
			i++
		}
		if i >= len(b) || b[i] == '"' {
			return min(i, len(b))
		}
		i += 2 // a backslash and the byte it escapes
	}
}

// quietWord reports whether none of the eight bytes of x is '"' or '\\'
// (SWAR: such a byte is made zero, and a zero byte found by the borrow
// it causes).
func quietWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q := x ^ (ones * '"')
	e := x ^ (ones * '\\')
	return ((q-ones)&^q|(e-ones)&^e)&highs == 0
}

// scalarEnd marks the bytes that end a number or literal, quoteOrEscape
// those closeQuote stops at.
var scalarEnd, quoteOrEscape = func() (e, q [256]bool) {
	q['"'], q['\\'] = true, true
	for _, c := range []byte(",]} \t\r\n:\"[{") {
		e[c] = true
	}
	return e, q
}()
