package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Each dotenv form gives the value it says.
func TestParseDotenvForms(t *testing.T) {
	for _, tc := range []struct{ line, key, value string }{
		{"A2ACLI_X=plain", "A2ACLI_X", "plain"},
		{"A2ACLI_X=", "A2ACLI_X", ""},
		{"A2ACLI_X = spaced  ", "A2ACLI_X", "spaced"},
		{"\t A2ACLI_X\t=\tv", "A2ACLI_X", "v"},
		{"export A2ACLI_X=exported", "A2ACLI_X", "exported"},
		{"export\tA2ACLI_X=tab", "A2ACLI_X", "tab"},
		{"A2ACLI_X=value # a comment", "A2ACLI_X", "value"},
		{"A2ACLI_X=value\t# a comment", "A2ACLI_X", "value"},
		{"A2ACLI_X=a#b", "A2ACLI_X", "a#b"},
		{"A2ACLI_X=#not-a-comment", "A2ACLI_X", "#not-a-comment"},
		{"A2ACLI_X= # only a comment", "A2ACLI_X", ""},
		{"A2ACLI_X=a=b=c", "A2ACLI_X", "a=b=c"},
		{"A2ACLI_X=it's", "A2ACLI_X", "it's"},
		{"A2ACLI_X=https://h/p?a=1&b=2", "A2ACLI_X", "https://h/p?a=1&b=2"},
		{`A2ACLI_X='single # kept \n $HOME "q"'`, "A2ACLI_X", `single # kept \n $HOME "q"`},
		{`A2ACLI_X='' # empty`, "A2ACLI_X", ""},
		{`A2ACLI_X="line1\nline2"`, "A2ACLI_X", "line1\nline2"},
		{`A2ACLI_X="say \"hi\" \\ done"`, "A2ACLI_X", `say "hi" \ done`},
		{`A2ACLI_X="keep \t and \$"`, "A2ACLI_X", `keep \t and \$`},
		{`A2ACLI_X="# not a comment" # a comment`, "A2ACLI_X", "# not a comment"},
		{`A2ACLI_X="  padded  "`, "A2ACLI_X", "  padded  "},
		{"A2ACLI_X=crlf\r", "A2ACLI_X", "crlf"},
		{"A2ACLI_X=中文", "A2ACLI_X", "中文"},
		{"export=1", "", ""}, // a variable named export: not ours
	} {
		entries, warnings := parseDotenv([]byte(tc.line), "/f", nil)
		if len(warnings) != 0 {
			t.Errorf("%q: warnings %q", tc.line, warnings)
			continue
		}
		if tc.key == "" {
			if len(entries) != 0 {
				t.Errorf("%q: entries %+v; want none", tc.line, entries)
			}
			continue
		}
		want := []dotenvEntry{{key: tc.key, value: tc.value, line: 1}}
		if !slices.Equal(entries, want) {
			t.Errorf("%q: %+v; want %+v", tc.line, entries, want)
		}
	}
}

// A quoted value may span lines; an unclosed quote spoils its own line
// only; another program's lines that cannot be read are passed over in
// silence.
func TestParseDotenvMultiline(t *testing.T) {
	data := strings.Join([]string{
		`PRIVATE_KEY="-----BEGIN KEY-----`, // 1: another program's, spanning lines
		`abc=`,
		`-----END KEY-----"`,
		`A2ACLI_CACERT='first`, // 4
		`second # kept'  # comment`,
		`A2ACLI_METADATA="{`, // 6
		`  \"k\": 1`,
		`}" trailing`,                 // 8: text after the quote
		`A2ACLI_TENANT="never closed`, // 9
		`A2ACLI_TIMEOUT=5s`,           // 10: still read
		`OTHER='never closed`,         // 11: another program's: silent
		`my-key=1`,                    // 12: not a name, not ours: silent
		`A2ACLI_OUTPUT=json`,          // 13
	}, "\r\n")
	entries, warnings := parseDotenv([]byte(data), "/f", nil)
	want := []dotenvEntry{
		{key: "A2ACLI_CACERT", value: "first\nsecond # kept", line: 4},
		{key: "A2ACLI_TIMEOUT", value: "5s", line: 10},
		{key: "A2ACLI_OUTPUT", value: "json", line: 13},
	}
	if !slices.Equal(entries, want) {
		t.Errorf("entries %+v; want %+v", entries, want)
	}
	wantW := []string{"/f:6: text after the closing quote; line ignored", "/f:9: a double quote is not closed; line ignored"}
	if !slices.Equal(warnings, wantW) {
		t.Errorf("warnings %q; want %q", warnings, wantW)
	}

	// A quote closes within dotenvQuotedLines lines, or not at all.
	long := "A2ACLI_X=\"" + strings.Repeat("\n", dotenvQuotedLines) + "\""
	if entries, _ := parseDotenv([]byte(long), "/f", nil); len(entries) != 1 || entries[0].value != strings.Repeat("\n", dotenvQuotedLines) {
		t.Errorf("%d lines: %+v", dotenvQuotedLines, entries)
	}
	tooLong := "A2ACLI_X=\"" + strings.Repeat("\n", dotenvQuotedLines+1) + "\""
	if entries, warnings := parseDotenv([]byte(tooLong), "/f", nil); len(entries) != 0 || len(warnings) != 2 {
		t.Errorf("%d lines: %+v %q", dotenvQuotedLines+1, entries, warnings)
	}
}

// A whole file: comments, blank lines and other tools' keys skipped,
// line numbers kept, CRLF read, the last of a repeated key wins (in the
// order loadSettings applies them).
func TestParseDotenvFile(t *testing.T) {
	data := "# settings for the agent\r\n\r\nA2ACLI_AGENT_CARD=localhost:8080\r\n   # indented comment\r\nDATABASE_URL=postgres://x\r\nexport A2ACLI_TIMEOUT=30s\r\nA2ACLI_TIMEOUT=45s"
	entries, warnings := parseDotenv([]byte(data), "/f", nil)
	want := []dotenvEntry{
		{key: "A2ACLI_AGENT_CARD", value: "localhost:8080", line: 3},
		{key: "A2ACLI_TIMEOUT", value: "30s", line: 6},
		{key: "A2ACLI_TIMEOUT", value: "45s", line: 7},
	}
	if len(warnings) != 0 || !slices.Equal(entries, want) {
		t.Errorf("entries %+v, warnings %q; want %+v", entries, warnings, want)
	}

	w := newConfigWorld(t)
	path := w.write(t, "proj/.env", data, 0o600)
	s, _ := w.load(t, "")
	wantSetting(t, s, "A2ACLI_TIMEOUT", "45s", "file "+path)
}

// A line that cannot be read is warned about by file:line and why, never
// with its text (it may hold a secret), and skipped; the rest is read.
func TestParseDotenvMalformed(t *testing.T) {
	const secret = "s3cr3t-t0ken"
	lines := []struct{ line, why string }{
		{"A2ACLI_BEARER " + secret, "not KEY=value"},
		{"A2ACLI_BEARER='" + secret, "a single quote is not closed"},
		{`A2ACLI_BEARER="` + secret, "a double quote is not closed"},
		{`A2ACLI_BEARER="` + secret + `\"`, "a double quote is not closed"},
		{`A2ACLI_BEARER="` + secret + `"x`, "text after the closing quote"},
		{"A2ACLI_BEARER='" + secret + "' trailing", "text after the closing quote"},
		{"A2ACLI-BEARER=" + secret, "the key is not a name (a letter or _, then letters, digits or _)"},
		{"=" + secret, "the key is not a name (a letter or _, then letters, digits or _)"},
		{"1A2ACLI=" + secret, "the key is not a name (a letter or _, then letters, digits or _)"},
		{"\x1b[31mA2ACLI_X=" + secret, "the key is not a name (a letter or _, then letters, digits or _)"},
	}
	for _, l := range lines {
		// Each in a file of its own, followed by a line that is read.
		entries, warnings := parseDotenv([]byte(l.line+"\nA2ACLI_TENANT=ok"), "/dir/my.env", nil)
		want := []string{"/dir/my.env:1: " + l.why + "; line ignored"}
		if !slices.Equal(warnings, want) {
			t.Errorf("%q: warnings %q; want %q", l.line, warnings, want)
		}
		if wantE := []dotenvEntry{{key: "A2ACLI_TENANT", value: "ok", line: 2}}; !slices.Equal(entries, wantE) {
			t.Errorf("%q: entries %+v; want %+v", l.line, entries, wantE)
		}
		if all := strings.Join(warnings, "\n"); strings.Contains(all, "s3cr3t") || strings.Contains(all, "\x1b") {
			t.Errorf("a warning shows a line's text:\n%s", all)
		}
	}

	// A path with a control character is shown inert.
	_, warnings := parseDotenv([]byte("junk"), "/tmp/\x1b]8;;x\a.env", nil)
	if len(warnings) != 1 || strings.ContainsAny(warnings[0], "\x1b\a") {
		t.Errorf("warnings = %q; want one, inert", warnings)
	}
}

// A file of junk gives maxLineWarnings warnings and one that counts the
// rest, not one a line.
func TestParseDotenvWarningsBounded(t *testing.T) {
	data := strings.Repeat("junk line\n", 1000) + "\x00\xff\xfe binary"
	entries, warnings := parseDotenv([]byte(data), "/f", nil)
	if len(entries) != 0 || len(warnings) != maxLineWarnings+1 {
		t.Fatalf("%d entries, %d warnings; want 0 and %d", len(entries), len(warnings), maxLineWarnings+1)
	}
	if want := "/f: 991 more lines cannot be read or name no setting; ignored"; warnings[maxLineWarnings] != want {
		t.Errorf("last warning %q; want %q", warnings[maxLineWarnings], want)
	}
}

// dotenvWhys are the reasons parseDotenvLine gives.
var dotenvWhys = []string{
	"not KEY=value", "the key is not a name (a letter or _, then letters, digits or _)",
	"a single quote is not closed", "a double quote is not closed", "text after the closing quote",
}

var fuzzWarning = regexp.MustCompile(`^/p:(?:\d+: (.*); line ignored| \d+ more lines cannot be read or name no setting; ignored())$`)

// Whatever the bytes, parseDotenv returns, and no warning holds a byte
// of a line's text beyond the words of the parser's own.
func FuzzParseDotenv(f *testing.F) {
	for _, s := range []string{
		"A2ACLI_X=1", "export A2ACLI_X='a'", `A2ACLI_X="a\"b\\"`, "A2ACLI_X=\"\\", "#c\n\nA2ACLI_X= # c",
		"\x00\xff=\"", "A2ACLI_X='", "=",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, warnings := parseDotenv(data, "/p", nil)
		for _, w := range warnings {
			m := fuzzWarning.FindStringSubmatch(w)
			if m == nil || m[1] != "" && !slices.Contains(dotenvWhys, m[1]) {
				t.Fatalf("warning %q is not one of the parser's own", w)
			}
		}
		for _, e := range entries {
			if !dotenvKey(e.key) || !strings.HasPrefix(strings.ToUpper(e.key), "A2ACLI_") || e.line < 1 {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}
