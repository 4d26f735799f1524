package main

import (
	"bytes"
	"fmt"
	"strings"
)

// dotenvEntry is one KEY=value line of a dotenv file.
type dotenvEntry struct {
	key, value string
	line       int // 1-based
}

// parseDotenv reads data, a dotenv file at path (named in warnings
// only), and returns its entries whose key starts "A2ACLI_" in any case,
// in file order, and its warnings in line order: for each line it cannot
// read, file:line and why (never the line's text: it may hold a secret);
// for each entry unknown (when not nil) has words about, those words
// (the entry is then left out). At most maxLineWarnings of them, then
// one that counts the rest.
//
// The format, one per line (LF or CRLF):
//
//	# a comment line; blank lines are skipped
//	export KEY=value          an optional "export " prefix
//	KEY = value # comment     spaces around "=" trimmed; " #" or "\t#" starts a comment
//	KEY=                      an empty value
//	KEY='literal $ \n # '     single quotes: the text as it is
//	KEY="a\nb \"c\" \\"       double quotes: \n, \", \\ (any other \x kept as written)
//
// KEY is a letter or "_" then letters, digits and "_". After a closing
// quote only spaces and a comment may follow. There is no variable
// expansion and no value spans lines.
func parseDotenv(data []byte, path string, unknown func(dotenvEntry) string) ([]dotenvEntry, []string) {
	var (
		entries  []dotenvEntry
		warnings []string
		bad      int
	)
	warn := func(w string) {
		bad++
		if bad <= maxLineWarnings {
			warnings = append(warnings, w)
		}
	}
	for i, raw := range bytes.Split(data, []byte("\n")) {
		n := i + 1
		line := strings.TrimSuffix(string(raw), "\r")
		key, value, why, ok := parseDotenvLine(line)
		switch {
		case why != "":
			warn(fmt.Sprintf("%s:%d: %s; line ignored", quote(path), n, why))
		case ok && strings.HasPrefix(strings.ToUpper(key), "A2ACLI_"):
			en := dotenvEntry{key: key, value: value, line: n}
			if unknown != nil {
				if w := unknown(en); w != "" {
					warn(w)
					continue
				}
			}
			entries = append(entries, en)
		}
	}
	if bad > maxLineWarnings {
		warnings = append(warnings, fmt.Sprintf("%s: %d more lines cannot be read or name no setting; ignored", quote(path), bad-maxLineWarnings))
	}
	return entries, warnings
}

// parseDotenvLine reads one line of a dotenv file (see parseDotenv):
// ok with its key and value, or why it cannot be read (words of the
// parser's own, never the line's text), or neither for a blank or
// comment line.
func parseDotenvLine(line string) (key, value, why string, ok bool) {
	rest := strings.TrimLeft(line, " \t")
	if rest == "" || rest[0] == '#' {
		return "", "", "", false
	}
	if after, found := strings.CutPrefix(rest, "export"); found && after != "" && (after[0] == ' ' || after[0] == '\t') {
		rest = strings.TrimLeft(after, " \t")
	}
	k, v, found := strings.Cut(rest, "=")
	if !found {
		return "", "", "not KEY=value", false
	}
	key = strings.TrimRight(k, " \t")
	if !dotenvKey(key) {
		return "", "", "the key is not a name (a letter or _, then letters, digits or _)", false
	}
	spaced := v != "" && (v[0] == ' ' || v[0] == '\t')
	v = strings.TrimLeft(v, " \t")
	switch {
	case v == "", spaced && v[0] == '#': // "KEY=" or "KEY= # comment"
		return key, "", "", true
	case v[0] == '\'':
		end := strings.IndexByte(v[1:], '\'')
		if end < 0 {
			return "", "", "a single quote is not closed on its line", false
		}
		value, v = v[1:1+end], v[2+end:]
	case v[0] == '"':
		var closed bool
		value, v, closed = dotenvDoubleQuoted(v[1:])
		if !closed {
			return "", "", "a double quote is not closed on its line", false
		}
	default:
		// Unquoted: up to a comment (" #" or "\t#"), trailing spaces trimmed.
		if c := strings.Index(v, " #"); c >= 0 {
			v = v[:c]
		}
		if c := strings.Index(v, "\t#"); c >= 0 {
			v = v[:c]
		}
		return key, strings.TrimRight(v, " \t"), "", true
	}
	if tail := strings.TrimLeft(v, " \t"); tail != "" && tail[0] != '#' {
		return "", "", "text after the closing quote", false
	}
	return key, value, "", true
}

// dotenvDoubleQuoted reads s, the text after an opening double quote, up
// to its closing quote: the value with \n, \" and \\ undone (another
// backslash kept as it is), the text after the quote, and whether the
// quote was closed.
func dotenvDoubleQuoted(s string) (value, rest string, closed bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return b.String(), s[i+1:], true
		case c == '\\' && i+1 < len(s):
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
			case '"', '\\':
				b.WriteByte(s[i+1])
			default:
				b.WriteByte('\\')
				b.WriteByte(s[i+1])
			}
			i++
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false
}

// dotenvKey reports whether k is a variable name: a letter or "_", then
// letters, digits and "_".
func dotenvKey(k string) bool {
	if k == "" {
		return false
	}
	for i, r := range k {
		switch {
		case r == '_', 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z':
		case '0' <= r && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
