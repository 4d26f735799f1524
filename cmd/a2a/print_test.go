package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// guarded are the lines outside print.go that hand a command's stream to
// a writer that redacts and makes inert what it prints itself, each with
// the test that holds it to that.
var guarded = map[string]string{
	"debugTransport(rt, o.env.stderr,":     "the --debug wire dump: debugwire_test.go, TestNoSecretPrinted, TestHostileTextInert",
	"renderConfig(o.env.stdout,":           "config show: configshow_test.go, TestNoSecretPrinted",
	"ClientSecret: o.clientSecret, Scopes": "auth login's device prompt, the server's text inert: authlogin_test.go",
	"o.env.stdout.Write([]byte(script))":   "a completion script: the tool's own text",
	"usage(o.env.stdout)":                  "the tool's usage: its own text",
	"groupUsage(o.env.stdout, args)":       "a group's commands: the tool's own text",
	"commandUsage(o.env.stdout, co)":       "a command's usage, the values redacted and inert: TestHelpValuesShownSafely",
}

// TestOnePathToTheTerminal: the command's streams are written in print.go
// alone (outf, errf, outJSON, outInert, logWriter), or by a writer that
// redacts and makes inert what it prints (guarded), so no text reaches
// the terminal without being redacted and made inert there.
func TestOnePathToTheTerminal(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f == "print.go" || strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
	lines:
		for i, line := range strings.Split(string(b), "\n") {
			if !strings.Contains(line, "o.env.stdout,") && !strings.Contains(line, "o.env.stderr,") &&
				!strings.Contains(line, "o.env.stdout.") && !strings.Contains(line, "o.env.stderr.") && !strings.Contains(line, "o.env.stdout)") && !strings.Contains(line, "o.env.stderr)") {
				continue
			}
			for g := range guarded {
				if strings.Contains(line, g) {
					continue lines
				}
			}
			t.Errorf("%s:%d writes a stream outside print.go: %s", f, i+1, strings.TrimSpace(line))
		}
	}
}

// TestHelpValuesShownSafely: a command's usage shows each flag's
// effective value, from the command line, the environment or a file:
// redacted (a URL's password, a credential shown as "set") and inert.
func TestHelpValuesShownSafely(t *testing.T) {
	t.Parallel()
	in := invocation{env: map[string]string{"A2ACLI_TENANT": "t\x1b[2J\u202e", "A2ACLI_BEARER": secretBearer, "A2ACLI_SVC_PARAM": "X-Secret:" + secretHeader}}
	for _, args := range [][]string{
		{"task", "get", "-a", "http://user:" + secretPass + "@agent.example.com/a2a", "-h"},
		{"help", "task", "get"},
	} {
		r := in.run(t, args...)
		r.wantCode(t, exitOK)
		noSecret(t, r, secretPass, secretBearer, secretHeader)
		wantInert(t, r)
		for _, want := range []string{`(t\x1b[2J\u202e, from the environment)`, "(set, from the environment) [A2ACLI_BEARER]"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%q: usage does not show %q:\n%s", args, want, r.stdout)
			}
		}
	}
}
