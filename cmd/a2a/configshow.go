package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// configRow is one line of `config show`: a setting's name
// ("A2ACLI_TIMEOUT"), its flag ("--timeout", or "" for none), its
// effective value, where that value came from ("flag", "environment",
// "file PATH", "default") and whether it is a secret, shown only as
// "(set)" (a row whose Name secretSetting names is one whatever Secret
// says).
type configRow struct {
	Name, Flag, Value, Source string
	Secret                    bool
}

// configValueWidth is the widest NAME=value column `config show` aligns
// the rest of its lines to, in characters: a longer one pushes its own
// line's comment out, not the others'.
const configValueWidth = 48

// renderConfig writes rows, the settings in the order given, to w as
// `config show` prints them; the error is w's.
//
// Text: one line a setting, a dotenv line followed by a comment that
// names its flag and source, the comments aligned:
//
//	A2ACLI_AGENT_CARD=localhost:8080  # --agent-card  file /home/me/proj/.env
//	A2ACLI_BEARER=(set)               # --bearer      environment
//	A2ACLI_TIMEOUT=2m0s               # --timeout     default
//
// A value holding spaces, "#", quotes, backslashes or line breaks is
// written double-quoted with \n, \" and \\ escapes, as a dotenv file
// reads it back.
//
// With asJSON: one JSON document, an object from each name to
// {"value": …, "source": …}, in the order given, one setting a line.
//
// Either way: a secret's value is "(set)" (or "" when it has none); the
// secrets' values and the credentials in URL values (userinfo, query
// values) are redacted from every other value; every character that
// could act on a terminal is written as an escape (\x1b in text, \u001b
// in JSON).
func renderConfig(w io.Writer, rows []configRow, asJSON bool) error {
	red := configRedactor(rows)
	values := make([]string, len(rows))
	for i, r := range rows {
		switch {
		case r.Value == "":
		case r.Secret || secretSetting(r.Name):
			values[i] = "(set)"
		default:
			values[i] = red.Str(r.Value)
		}
	}
	if asJSON {
		return renderConfigJSON(w, rows, values)
	}
	lefts := make([]string, len(rows))
	leftW, flagW := 0, 0
	for i, r := range rows {
		lefts[i] = inert.Printable(r.Name) + "=" + dotenvShown(values[i])
		if n := utf8.RuneCountInString(lefts[i]); n <= configValueWidth {
			leftW = max(leftW, n)
		}
		flagW = max(flagW, utf8.RuneCountInString(configFlagShown(r.Flag)))
	}
	var b strings.Builder
	for i, r := range rows {
		left, flag := lefts[i], configFlagShown(r.Flag)
		fmt.Fprintf(&b, "%s%s  # %s%s  %s\n",
			left, strings.Repeat(" ", max(0, leftW-utf8.RuneCountInString(left))),
			flag, strings.Repeat(" ", flagW-utf8.RuneCountInString(flag)),
			inert.Printable(r.Source))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// configFlagShown is flag as the text of `config show` shows it: "-"
// for none.
func configFlagShown(flag string) string {
	if flag == "" {
		return "-"
	}
	return inert.Printable(flag)
}

// renderConfigJSON writes rows with their shown values as the JSON
// document of renderConfig.
func renderConfigJSON(w io.Writer, rows []configRow, values []string) error {
	var b strings.Builder
	b.WriteString("{")
	for i, r := range rows {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n  %s: {\"value\": %s, \"source\": %s}", jsonInertString(r.Name), jsonInertString(values[i]), jsonInertString(r.Source))
	}
	if len(rows) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// configRedactor is the redactor of rows' secrets: each secret row's
// value (and, for the service parameters "K:V;K2:V2", each V), and the
// credentials of each value that looks like a URL.
func configRedactor(rows []configRow) *redact.Redactor {
	var secrets, urls []string
	for _, r := range rows {
		switch {
		case r.Value == "":
		case r.Secret || secretSetting(r.Name):
			secrets = append(secrets, r.Value)
			for _, kv := range strings.Split(r.Value, ";") {
				if i := strings.IndexAny(kv, ":="); i >= 0 && strings.TrimSpace(kv[i+1:]) != "" {
					secrets = append(secrets, strings.TrimSpace(kv[i+1:]))
				}
			}
		case strings.Contains(r.Value, "://") || strings.Contains(r.Value, "@"):
			urls = append(urls, r.Value)
		}
	}
	return redact.New(&url.URL{}, "", "", nil).With(secrets, urls)
}

// dotenvShown is v, a value, as a dotenv line shows it and parseDotenv
// reads it back: as it is when it is plain, else double-quoted with \n,
// \" and \\ escapes; made inert either way (a control character as \x1b,
// which reads back as those four characters: inert beats exact).
func dotenvShown(v string) string {
	plain := v == "" || v[0] != '\''
	for _, r := range v {
		if r == ' ' || r == '\t' || r == '#' || r == '"' || r == '\\' || r == utf8.RuneError || !unicode.IsPrint(r) {
			plain = false
			break
		}
	}
	if plain {
		return v
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, part := range strings.SplitAfter(v, "\n") {
		line, nl := strings.CutSuffix(part, "\n")
		line = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(line)
		b.WriteString(inert.Printable(line))
		if nl {
			b.WriteString(`\n`)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jsonInertString is s as a JSON string in which every rune that is not
// printable is a \u escape (a surrogate pair beyond U+FFFF) and invalid
// UTF-8 is \ufffd, so no character of it acts on a terminal; "<", ">"
// and "&" are kept as they are.
func jsonInertString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	var b strings.Builder
	for _, r := range strings.TrimSuffix(buf.String(), "\n") {
		switch {
		case unicode.IsPrint(r):
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
