package main

import (
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
// quote only spaces and a comment may follow. A quoted value may span
// lines (a PEM block) when its quote closes within dotenvQuotedLines
// lines; else its first line is one that cannot be read, and reading
// goes on at the next. There is no variable expansion.
//
// A line of another program's key (one not starting "A2ACLI_" whose
// value cannot be read, or a key that is not a name and does not
// mention A2ACLI) is passed over in silence: a project's .env is shared.
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
	lines := strings.Split(string(data), "\n")
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\r")
	}
	for i := 0; i < len(lines); i++ {
		n := i + 1
		key, value, why, used := parseDotenvLine(lines[i], lines[i+1:])
		ours := strings.HasPrefix(strings.ToUpper(key), "A2ACLI_")
		switch {
		case why == "" && key == "": // blank or comment
		case why != "":
			if key == "" || ours || !dotenvKey(key) && strings.Contains(strings.ToUpper(key), "A2ACLI") {
				warn(fmt.Sprintf("%s:%d: %s; line ignored", quote(path), n, why))
			}
		case ours:
			en := dotenvEntry{key: key, value: value, line: n}
			if unknown != nil {
				if w := unknown(en); w != "" {
					warn(w)
					break
				}
			}
			entries = append(entries, en)
		}
		i += used
	}
	if bad > maxLineWarnings {
		warnings = append(warnings, fmt.Sprintf("%s: %d more lines cannot be read or name no setting; ignored", quote(path), bad-maxLineWarnings))
	}
	return entries, warnings
}

// dotenvQuotedLines is how many lines a quoted value may span.
const dotenvQuotedLines = 200

// parseDotenvLine reads line, one line of a dotenv file (see
// parseDotenv), and as many of the lines after it, more, as a quoted
// value spans: its key and value and how many of more it used, or why it
// cannot be read (words of the parser's own, never the line's text) with
// its key when it has one, or nothing for a blank or comment line.
func parseDotenvLine(line string, more []string) (key, value, why string, used int) {
	rest := strings.TrimLeft(line, " \t")
	if rest == "" || rest[0] == '#' {
		return "", "", "", 0
	}
	if after, found := strings.CutPrefix(rest, "export"); found && after != "" && (after[0] == ' ' || after[0] == '\t') {
		rest = strings.TrimLeft(after, " \t")
	}
	k, v, found := strings.Cut(rest, "=")
	if !found {
		return "", "", "not KEY=value", 0
	}
	key = strings.TrimRight(k, " \t")
	if !dotenvKey(key) {
		return key, "", "the key is not a name (a letter or _, then letters, digits or _)", 0
	}
	spaced := v != "" && (v[0] == ' ' || v[0] == '\t')
	v = strings.TrimLeft(v, " \t")
	if v == "" || spaced && v[0] == '#' { // "KEY=" or "KEY= # comment"
		return key, "", "", 0
	}
	if q := v[0]; q == '\'' || q == '"' {
		// The quote closes on this line or on one of the next few: read
		// them as one text once, so that a file of unclosed quotes costs
		// a bounded amount of work a line.
		text := v
		if len(more) > 0 {
			text += "\n" + strings.Join(more[:min(len(more), dotenvQuotedLines)], "\n")
		}
		var closed bool
		if q == '\'' {
			if end := strings.IndexByte(text[1:], '\''); end >= 0 {
				value, rest, closed = text[1:1+end], text[2+end:], true
			}
		} else {
			value, rest, closed = dotenvDoubleQuoted(text[1:])
		}
		if !closed {
			if q == '\'' {
				return key, "", "a single quote is not closed", 0
			}
			return key, "", "a double quote is not closed", 0
		}
		tail, _, _ := strings.Cut(rest, "\n")
		used = strings.Count(text, "\n") - strings.Count(rest, "\n")
		if tail = strings.TrimLeft(tail, " \t"); tail != "" && tail[0] != '#' {
			return key, "", "text after the closing quote", used
		}
		return key, value, "", used
	}
	// Unquoted: up to a comment (" #" or "\t#"), trailing spaces trimmed.
	if c := strings.Index(v, " #"); c >= 0 {
		v = v[:c]
	}
	if c := strings.Index(v, "\t#"); c >= 0 {
		v = v[:c]
	}
	return key, strings.TrimRight(v, " \t"), "", 0
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
