package a2a_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// snippetsIn returns the code between "// snippet: NAME" and
// "// snippet end" markers in a Go file, dedented, by name.
func snippetsIn(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var name string
	var lines []string
	for _, line := range strings.Split(string(b), "\n") {
		s := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(s, "// snippet: "):
			name, lines = strings.TrimPrefix(s, "// snippet: "), nil
		case s == "// snippet end" && name != "":
			if _, dup := out[name]; dup {
				t.Errorf("%s: snippet %q is defined twice", path, name)
			}
			out[name] = dedent(lines)
			name = ""
		case name != "":
			lines = append(lines, line)
		}
	}
	return out
}

func dedent(lines []string) string {
	indent := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, "\t"))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	for i, l := range lines {
		if len(l) >= indent {
			lines[i] = l[indent:]
		}
	}
	return strings.Join(lines, "\n")
}

// TestReadmeSnippets: every Go block in README.md is marked with the name
// of a snippet in an Example function that go test compiles and runs, and
// matches it word for word.
func TestReadmeSnippets(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	code := map[string]string{}
	files, _ := filepath.Glob("*_test.go")
	more, _ := filepath.Glob("a2atest/*_test.go")
	for _, f := range append(files, more...) {
		for name, body := range snippetsIn(t, f) {
			if _, dup := code[name]; dup {
				t.Errorf("snippet %q is defined in two files", name)
			}
			code[name] = body
		}
	}
	// Every fenced block, whatever its info string: Go blocks must be
	// marked; the only other kind the README may hold is shell.
	block := regexp.MustCompile("(?ms)(<!-- (?:snippet|golden): ([a-z0-9/._-]+) -->\n)?^```([^\n]*)\n(.*?)\n```$")
	goBlocks := 0
	for _, m := range block.FindAllStringSubmatch(string(readme), -1) {
		name, info, body := m[2], strings.TrimSpace(m[3]), m[4]
		switch info {
		case "go":
			goBlocks++
		case "sh":
			continue
		case "console":
			// A terminal transcript: a test's golden file, word for word.
			golden, err := os.ReadFile(name)
			if name == "" || err != nil {
				t.Errorf("README console block without a golden file it copies (<!-- golden: PATH -->): %v\n%s", err, body)
			} else if strings.TrimRight(string(golden), "\n") != body {
				t.Errorf("README transcript differs from %s:\nREADME:\n%s\ngolden:\n%s", name, body, golden)
			}
			continue
		default:
			t.Errorf("README block fenced as %q (want go, with a snippet marker, sh, or console with a golden marker):\n%s", info, body)
			continue
		}
		if name == "" {
			t.Errorf("README Go block without a snippet marker:\n%s", body)
			continue
		}
		want, ok := code[name]
		if !ok {
			t.Errorf("README snippet %q has no Example code", name)
			continue
		}
		if body != want {
			t.Errorf("README snippet %q differs from its Example:\nREADME:\n%s\nExample:\n%s", name, body, want)
		}
	}
	if goBlocks < 10 {
		t.Errorf("README has %d Go blocks, want at least 10", goBlocks)
	}
}
