package main

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// width is the terminal's width in columns: $COLUMNS, or 100.
func (o *options) width() int {
	if n, err := strconv.Atoi(o.env.getenv("COLUMNS")); err == nil && n >= 20 {
		return n
	}
	return 100
}

// indentJSON is b indented, or b as it is when it is not valid JSON.
func indentJSON(b []byte) []byte {
	var out bytes.Buffer
	if indentedSize(b) > 4*len(b)+64<<10 { // deep nesting: the indentation would dwarf the value
		if json.Compact(&out, b) != nil {
			return b
		}
		return out.Bytes()
	}
	if json.Indent(&out, b, "", "  ") != nil {
		return b
	}
	return out.Bytes()
}

// indentedSize is about how long b, JSON, is once indented by two spaces
// a level: each line break with its indentation counted. It grows with
// the square of the nesting where each level holds a line, so a small
// value nested thousands deep would print megabytes; indentJSON prints
// such a value compact.
func indentedSize(b []byte) int {
	size, depth, inString, escaped := len(b), 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			size += 1 + 2*depth
		case c == ',':
			size += 1 + 2*depth
		case c == '}' || c == ']':
			depth--
			size += 1 + 2*max(depth, 0)
		case c == ':':
			size++
		}
	}
	return size
}

func indentLines(s, indent string) string {
	return indent + strings.ReplaceAll(s, "\n", "\n"+indent)
}

// wrap breaks s into lines of at most width columns (a wide rune, such as
// a Chinese character, counts two), the later lines starting with indent.
func wrap(s string, width int, indent string) string {
	if width < 10 {
		width = 10
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		w := 1
		if r >= 0x1100 && isWide(r) {
			w = 2
		}
		if col+w > width {
			b.WriteString("\n" + indent)
			col = 0
			if r == ' ' {
				continue
			}
		}
		b.WriteRune(r)
		col += w
	}
	return b.String()
}

// isWide reports whether r takes two columns: the East Asian wide and
// full-width ranges.
func isWide(r rune) bool {
	return r <= 0x115f || r >= 0x2e80 && r <= 0xa4cf || r >= 0xac00 && r <= 0xd7a3 ||
		r >= 0xf900 && r <= 0xfaff || r >= 0xfe30 && r <= 0xfe4f || r >= 0xff00 && r <= 0xff60 ||
		r >= 0xffe0 && r <= 0xffe6 || r >= 0x1f300 && r <= 0x1faff || r >= 0x20000 && r <= 0x3fffd
}

// plural is word, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
