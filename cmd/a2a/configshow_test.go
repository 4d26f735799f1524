package main

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// configShowRows are rows of every source, with a secret, a URL holding
// credentials, values a dotenv line must quote, and a control sequence.
var configShowRows = []configRow{
	{Name: "A2ACLI_AGENT_CARD", Flag: "--agent-card", Value: "https://user:pa55word@agent.example/card.json?key=qk-998877", Source: "flag"},
	{Name: "A2ACLI_BEARER", Flag: "--bearer", Value: "tok-SECRET-123456", Source: "environment", Secret: true},
	{Name: "A2ACLI_API_KEY", Flag: "--api-key", Value: "", Source: "default", Secret: true},
	{Name: "A2ACLI_SVC_PARAM", Flag: "--svc-param", Value: "X-Trace:abc123;X-Auth:hdr-SECRET-777", Source: "file /home/me/.env"},
	{Name: "A2ACLI_TENANT", Flag: "--tenant", Value: "acme \x1b[31mred\x1b[0m # \"q\"", Source: "file /home/me/proj/.env"},
	{Name: "A2ACLI_METADATA", Flag: "--metadata", Value: "{\"note\":\"tok-SECRET-123456\"}\nline2", Source: "file /tmp/\x1b]0;title\a/.env"},
	{Name: "A2ACLI_TIMEOUT", Flag: "--timeout", Value: "2m0s", Source: "default"},
	{Name: "A2ACLI_CONFIG_ONLY", Flag: "", Value: "'x", Source: "default"},
}

// The text form: one dotenv line a setting, comments aligned, secrets
// "(set)", credentials in URLs and secrets elsewhere redacted, nothing
// that acts on a terminal.
func TestRenderConfigText(t *testing.T) {
	var b strings.Builder
	if err := renderConfig(&b, configShowRows, false); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	want := `A2ACLI_AGENT_CARD=https://[REDACTED]@agent.example/card.json?key=[REDACTED]  # --agent-card  flag
A2ACLI_BEARER=(set)                              # --bearer      environment
A2ACLI_API_KEY=                                  # --api-key     default
A2ACLI_SVC_PARAM=(set)                           # --svc-param   file /home/me/.env
A2ACLI_TENANT="acme \x1b[31mred\x1b[0m # \"q\""  # --tenant      file /home/me/proj/.env
A2ACLI_METADATA="{\"note\":\"[REDACTED]\"}\nline2"  # --metadata    file /tmp/\x1b]0;title\a/.env
A2ACLI_TIMEOUT=2m0s                              # --timeout     default
A2ACLI_CONFIG_ONLY="'x"                          # -             default
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	configShowSafe(t, got)

	// A plain value reads back as it was shown, by the dotenv rules.
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		if key, _, why, _ := parseDotenvLine(line, nil); key == "" || why != "" {
			t.Errorf("line %q does not read back as dotenv: %s", line, why)
		}
	}
	if _, v, _, _ := parseDotenvLine(strings.Split(got, "\n")[6], nil); v != "2m0s" {
		t.Errorf("A2ACLI_TIMEOUT reads back as %q", v)
	}
}

// The JSON form: one document, name → {value, source} in the rows'
// order, the same values as the text form, escapes for what could act
// on a terminal.
func TestRenderConfigJSON(t *testing.T) {
	var b strings.Builder
	if err := renderConfig(&b, configShowRows, true); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	configShowSafe(t, got)
	if strings.ContainsAny(got, "\x1b\a") {
		t.Errorf("raw control characters in the JSON:\n%s", got)
	}

	dec := json.NewDecoder(strings.NewReader(got))
	var doc map[string]struct{ Value, Source string }
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got)
	}
	if dec.More() {
		t.Errorf("more than one document:\n%s", got)
	}
	for name, want := range map[string]struct{ Value, Source string }{
		"A2ACLI_AGENT_CARD": {"https://[REDACTED]@agent.example/card.json?key=[REDACTED]", "flag"},
		"A2ACLI_BEARER":     {"(set)", "environment"},
		"A2ACLI_API_KEY":    {"", "default"},
		"A2ACLI_SVC_PARAM":  {"(set)", "file /home/me/.env"},
		"A2ACLI_TENANT":     {"acme \x1b[31mred\x1b[0m # \"q\"", "file /home/me/proj/.env"}, // the escape, decoded
		"A2ACLI_TIMEOUT":    {"2m0s", "default"},
	} {
		if doc[name] != want {
			t.Errorf("%s = %+v; want %+v", name, doc[name], want)
		}
	}
	if len(doc) != len(configShowRows) {
		t.Errorf("%d settings; want %d", len(doc), len(configShowRows))
	}
	// In the rows' order, one a line.
	lines := strings.Split(got, "\n")
	if lines[0] != "{" || !strings.HasPrefix(lines[1], `  "A2ACLI_AGENT_CARD": {"value": `) ||
		lines[7] != `  "A2ACLI_TIMEOUT": {"value": "2m0s", "source": "default"},` {
		t.Errorf("layout:\n%s", got)
	}

	b.Reset()
	if err := renderConfig(&b, nil, true); err != nil || b.String() != "{}\n" {
		t.Errorf("no rows: %q, %v", b.String(), err)
	}
}

// A secret row is "(set)" whatever the row's Secret says when its name
// is a credential's; renderConfig's error is the writer's.
func TestRenderConfigSecretByName(t *testing.T) {
	rows := []configRow{{Name: "A2ACLI_CLIENT_SECRET", Flag: "--client-secret", Value: "cs-0123456789", Source: "flag"}}
	for _, asJSON := range []bool{false, true} {
		var b strings.Builder
		if err := renderConfig(&b, rows, asJSON); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "0123456789") || !strings.Contains(b.String(), "(set)") {
			t.Errorf("json %v: %s", asJSON, b.String())
		}
	}
	boom := errors.New("boom")
	if err := renderConfig(configFailingWriter{boom}, rows, false); err != boom {
		t.Errorf("err = %v; want the writer's", err)
	}
}

// configShowSafe fails t when out shows a secret of configShowRows or a
// control character other than a line break.
func configShowSafe(t *testing.T, out string) {
	t.Helper()
	for _, s := range []string{"tok-SECRET", "123456", "pa55word", "qk-998877", "hdr-SECRET", "777"} {
		if strings.Contains(out, s) {
			t.Errorf("shows %q:\n%s", s, out)
		}
	}
	for _, r := range out {
		if r < 0x20 && r != '\n' || r == 0x7f {
			t.Errorf("control character %U in:\n%s", r, out)
			break
		}
	}
}

// configFailingWriter fails every write with its error.
type configFailingWriter struct{ err error }

func (w configFailingWriter) Write([]byte) (int, error) { return 0, w.err }
