package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnePathToTheTerminal: the command's streams are written in print.go
// alone (outf, errf, outJSON, outInert, logWriter), so no text reaches the
// terminal without being redacted and made inert there.
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
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "o.env.stdout,") || strings.Contains(line, "o.env.stderr,") ||
				strings.Contains(line, "o.env.stdout.") || strings.Contains(line, "o.env.stderr.") || strings.Contains(line, "o.env.stdout)") || strings.Contains(line, "o.env.stderr)") {
				t.Errorf("%s:%d writes a stream outside print.go: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
