package redact

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Echoes with escapes: a server may echo a secret with its characters
// escaped in ways no list of spellings foresees; Str undoes the escapes in
// a copy (unescape) and replaces, in the text as it was, the spans whose
// copy spells a secret (spans).

// spans replaces with "[REDACTED]" each run of s covered by a spelling of
// a secret, found in s itself and in its copy with escapes undone (mapped
// back onto the escapes it came from). Every occurrence of every spelling
// is covered, so secrets that overlap are hidden whole.
func (r *Redactor) spans(s string) string {
	hidden := make([]bool, len(s))
	cover := func(text string, mark func(i, j int)) {
		for _, form := range r.forms {
			done := 0 // text[:done] is marked for this form already
			for off := 0; ; {
				i := strings.Index(text[off:], form)
				if i < 0 {
					break
				}
				i += off
				mark(max(i, done), i+len(form))
				done, off = i+len(form), i+1 // overlapping occurrences too
			}
		}
	}
	cover(s, func(i, j int) {
		for k := i; k < j; k++ {
			hidden[k] = true
		}
	})
	var from []int32 // from[k]: where in s the copy's byte k comes from
	if plain, ok := unescape(s, &from); ok {
		from = append(from, int32(len(s)))
		cover(plain, func(i, j int) {
			for k := from[i]; k < from[j]; k++ {
				hidden[k] = true
			}
		})
	}
	var b strings.Builder
	for k := 0; k < len(s); k++ {
		if !hidden[k] {
			b.WriteByte(s[k])
			continue
		}
		b.WriteString(redacted)
		for k+1 < len(s) && hidden[k+1] {
			k++
		}
	}
	return b.String()
}

// unescape returns s with every escape of a printable character or a
// space (a secret may hold one) undone: \uXXXX (a UTF-16 surrogate pair
// too), \UXXXXXXXX, \xXX, \/, \" and \\ (JSON, Go; \uXXXX and \xXX also
// with the backslash itself escaped, as JSON inside JSON writes them), %XX
// (URLs: UTF-8 byte by byte), &#DD;, &#xHH; and &amp; &lt; &gt; &quot;
// &apos; (HTML). ok is false when s
// holds none. With from non-nil, it is given, for each byte of the result,
// the offset in s of the escape or byte it comes from.
func unescape(s string, from *[]int32) (string, bool) {
	var b strings.Builder
	if strings.ContainsAny(s, `\%&`) {
		b.Grow(len(s)) // at most s: no escape is shorter than what it stands for
	}
	done := 0
	for i := 0; i < len(s); i++ {
		dec, n := escaped(s[i:])
		if n == 0 {
			continue
		}
		b.WriteString(s[done:i])
		size := 1
		if dec.byte {
			b.WriteByte(byte(dec.r))
		} else {
			size, _ = b.WriteRune(dec.r)
		}
		if from != nil {
			for k := done; k < i; k++ {
				*from = append(*from, int32(k))
			}
			for range size {
				*from = append(*from, int32(i))
			}
		}
		i += n - 1
		done = i + 1
	}
	if done == 0 {
		return s, false
	}
	b.WriteString(s[done:])
	if from != nil {
		for k := done; k < len(s); k++ {
			*from = append(*from, int32(k))
		}
	}
	return b.String(), true
}

// htmlNamed is the HTML entities of the printable ASCII an HTML escaper
// writes (html.EscapeString, Python's html.escape).
var htmlNamed = []struct {
	name string
	r    rune
}{{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}}

// decoded is what an escape stands for: a character, or one byte of a
// %- or \x-escaped UTF-8 sequence.
type decoded struct {
	r    rune
	byte bool
}

// escaped reads one escape at the start of s: what it stands for (a
// printable character or a space; or one byte of a %- or \x-escaped
// UTF-8 sequence) and the escape's length, or n == 0.
func escaped(s string) (dec decoded, n int) {
	printable := func(v uint64) (decoded, bool) {
		r := rune(v)
		return decoded{r: r}, v <= unicode.MaxRune && (unicode.IsPrint(r) || r == ' ')
	}
	hexRune := func(h string) (decoded, bool) {
		v, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			return decoded{}, false
		}
		return printable(v)
	}
	hexByte := func(h string) (decoded, bool) { // a byte: ASCII, or part of UTF-8
		v, err := strconv.ParseUint(h, 16, 8)
		return decoded{r: rune(v), byte: true}, err == nil && v >= 0x20 && v != 0x7f
	}
	if len(s) >= 3 && s[0] == '\\' && s[1] == '\\' && strings.IndexByte("uUx", s[2]) >= 0 {
		if len(s) >= 14 && s[2] == 'u' && s[7:10] == `\\u` { // a surrogate pair, JSON inside JSON
			if dec, n := escaped(s[1:7] + s[8:14]); n == 12 {
				return dec, 14
			}
		}
		if dec, n := escaped(s[1:]); n > 0 { // \\u0041: JSON of \u0041
			return dec, n + 1
		}
	}
	switch {
	case len(s) >= 2 && s[0] == '\\' && (s[1] == '/' || s[1] == '"' || s[1] == '\\'):
		return decoded{r: rune(s[1])}, 2 // \/, \" and \\ (JSON of a Go-quoted secret: \\\" is \")
	case len(s) >= 12 && s[0] == '\\' && s[1] == 'u' && s[6] == '\\' && s[7] == 'u':
		hi, err1 := strconv.ParseUint(s[2:6], 16, 16)
		lo, err2 := strconv.ParseUint(s[8:12], 16, 16)
		if err1 == nil && err2 == nil && utf16.IsSurrogate(rune(hi)) {
			if dec, ok := printable(uint64(utf16.DecodeRune(rune(hi), rune(lo)))); ok {
				return dec, 12
			}
		}
		if dec, ok := hexRune(s[2:6]); ok {
			return dec, 6
		}
	case len(s) >= 10 && s[0] == '\\' && s[1] == 'U':
		if dec, ok := hexRune(s[2:10]); ok {
			return dec, 10
		}
		fallthrough
	case len(s) >= 6 && s[0] == '\\' && (s[1] == 'u' || s[1] == 'U'):
		if dec, ok := hexRune(s[2:6]); ok {
			return dec, 6
		}
	case len(s) >= 4 && s[0] == '\\' && s[1] == 'x':
		if dec, ok := hexByte(s[2:4]); ok {
			return dec, 4
		}
	case len(s) >= 3 && s[0] == '%':
		if dec, ok := hexByte(s[1:3]); ok {
			return dec, 3
		}
	case len(s) >= 4 && s[0] == '&' && s[1] != '#':
		for _, e := range htmlNamed {
			if strings.HasPrefix(s, e.name) {
				return decoded{r: e.r}, len(e.name)
			}
		}
	case len(s) >= 4 && s[0] == '&' && s[1] == '#':
		end := strings.IndexByte(s[:min(len(s), 12)], ';')
		if end < 3 {
			break
		}
		num, base := s[2:end], 10
		if num[0] == 'x' || num[0] == 'X' {
			num, base = num[1:], 16
		}
		if v, err := strconv.ParseUint(num, base, 32); err == nil {
			if dec, ok := printable(v); ok {
				return dec, end + 1
			}
		}
	}
	return decoded{}, 0
}
