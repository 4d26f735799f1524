// Package inert makes text from the network safe to show: on one line of
// a log or a terminal, escaped where it could act (DESIGN.md behaviour
// 10), and cut to a bound without breaking a character.
package inert

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Printable returns server text fit for one line of a log: line breaks,
// other control characters, format characters such as bidi overrides,
// terminal escape sequences and invalid UTF-8 are written as Go escapes
// (\n, \x1b, \u202e, \xff), as strconv.Quote writes them; everything else,
// quotes and Chinese included, stays as it is, so JSON text stays
// readable. The redactor's Quote is for a value shown in quotes.
func Printable(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

// Truncate returns s cut to at most n bytes, on a rune boundary so that
// Chinese text stays valid UTF-8, with "…" after a cut; s as it is when it
// fits.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
