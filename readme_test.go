package a2a_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// The README and the guides under docs/ are checked by the same rules:
// every Go block is a snippet of an Example that go test compiles and
// runs, word for word; every console block is a test's golden file, word
// for word; every Example snippet appears in one of them; every relative
// link leads somewhere.

// docFiles returns README.md and every guide under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	guides, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(guides)
	return append([]string{"README.md"}, guides...)
}

// snippet is the code between "// snippet: NAME" and "// snippet end" in
// an Example, dedented, and the file it is in.
type snippet struct{ code, file string }

// exampleSnippets returns every snippet of the test files whose snippets
// the markdown may show: the root package's, a2atest's, docs/'s,
// cardsig's, and those of the nested modules a2aotel and a2aoauth2
// (their files are read, not compiled, here).
func exampleSnippets(t *testing.T) map[string]snippet {
	t.Helper()
	var files []string
	for _, pattern := range []string{"*_test.go", "a2atest/*_test.go", "docs/*_test.go", "a2aotel/*_test.go", "cardsig/*_test.go", "a2aoauth2/*_test.go"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	out := map[string]snippet{}
	for _, f := range files {
		for name, code := range snippetsIn(t, f) {
			if prev, dup := out[name]; dup {
				t.Errorf("snippet %q is defined in %s and in %s", name, prev.file, f)
				continue
			}
			out[name] = snippet{code, f}
		}
	}
	return out
}

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
	for i, line := range strings.Split(string(b), "\n") {
		s := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(s, "// snippet: "):
			if name != "" {
				t.Errorf("%s:%d: snippet %q starts inside snippet %q", path, i+1, strings.TrimPrefix(s, "// snippet: "), name)
			}
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
	if name != "" {
		t.Errorf("%s: snippet %q has no \"// snippet end\"", path, name)
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

// fence is a fenced block with the marker line before it, if any:
// <!-- snippet: NAME --> or <!-- golden: PATH -->.
var fence = regexp.MustCompile("(?ms)(<!-- (?:snippet|golden): ([a-z0-9/._-]+) -->\n)?^```([^\n]*)\n(.*?)\n```$")

// lineOf returns the line number of byte offset i in text.
func lineOf(text string, i int) int { return strings.Count(text[:i], "\n") + 1 }

// minGoBlocks is how many Go blocks a file must hold at least: the
// README's quick start and its three calls.
var minGoBlocks = map[string]int{"README.md": 4}

// TestDocSnippets: in README.md and docs/*.md every Go block is marked
// with the name of a snippet in an Example function that go test compiles
// and runs, and matches it word for word; every console block matches the
// golden file its marker names; no other kind of block but sh is there;
// and every Example snippet is shown somewhere.
func TestDocSnippets(t *testing.T) {
	code := exampleSnippets(t)
	shown := map[string]string{} // snippet name → the first file showing it
	for _, file := range docFiles(t) {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		goBlocks := 0
		for _, m := range fence.FindAllStringSubmatchIndex(text, -1) {
			at := fmt.Sprintf("%s:%d", file, lineOf(text, m[6]))
			sub := func(k int) string {
				if m[2*k] < 0 {
					return ""
				}
				return text[m[2*k]:m[2*k+1]]
			}
			name, info, body := sub(2), strings.TrimSpace(sub(3)), sub(4)
			marker := sub(1)
			switch info {
			case "go":
				goBlocks++
			case "sh":
				if marker != "" {
					t.Errorf("%s: a sh block carries a marker (%s); only go and console blocks do", at, strings.TrimSpace(marker))
				}
				continue
			case "console":
				// A terminal transcript: a test's golden file, word for word.
				if name == "" || !strings.HasPrefix(marker, "<!-- golden: ") {
					t.Errorf("%s: console block without a golden file it copies (<!-- golden: PATH -->):\n%s", at, body)
					continue
				}
				golden, err := os.ReadFile(name)
				if err != nil {
					t.Errorf("%s: console block's golden file: %v", at, err)
				} else if strings.TrimRight(string(golden), "\n") != body {
					t.Errorf("%s: transcript differs from %s:\n%s:\n%s\ngolden:\n%s", at, name, file, body, golden)
				}
				continue
			default:
				t.Errorf("%s: block fenced as %q (want go, with a snippet marker, sh, or console with a golden marker):\n%s", at, info, body)
				continue
			}
			if name == "" || !strings.HasPrefix(marker, "<!-- snippet: ") {
				t.Errorf("%s: Go block without a snippet marker (<!-- snippet: NAME -->):\n%s", at, body)
				continue
			}
			want, ok := code[name]
			if !ok {
				t.Errorf("%s: snippet %q has no Example code (// snippet: %s … // snippet end in a _test.go file)", at, name, name)
				continue
			}
			if _, seen := shown[name]; !seen {
				shown[name] = file
			}
			if body != want.code {
				t.Errorf("%s: snippet %q differs from its Example in %s:\n%s:\n%s\nExample:\n%s",
					at, name, want.file, file, body, want.code)
			}
		}
		if goBlocks < minGoBlocks[file] {
			t.Errorf("%s has %d Go blocks, want at least %d", file, goBlocks, minGoBlocks[file])
		}
	}
	names := make([]string, 0, len(code))
	for name := range code {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := shown[name]; !ok {
			t.Errorf("snippet %q (%s) is shown in neither README.md nor docs/*.md: show it, or drop its markers", name, code[name].file)
		}
	}
}

// link is a markdown link or image: [text](target).
var link = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// scheme starts a link that is not the repository's: https:, mailto:.
var scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)

// inlineCode is a code span on one line.
var inlineCode = regexp.MustCompile("`[^`\n]*`")

// heading is an ATX heading.
var heading = regexp.MustCompile(`(?m)^#{1,6}[ \t]+(.+?)[ \t#]*$`)

// prose returns text with its fenced blocks and code spans blanked out
// (line breaks kept), so that links and headings are read from the prose
// only.
func prose(text string) string {
	blank := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '\n' {
				return r
			}
			return ' '
		}, s)
	}
	text = fence.ReplaceAllStringFunc(text, blank)
	return inlineCode.ReplaceAllStringFunc(text, blank)
}

// anchors returns the anchors GitHub gives the headings of a markdown
// file: lower case, punctuation dropped, spaces made hyphens, a repeat
// suffixed -1, -2, ….
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	// Headings are read outside fenced blocks, code spans and all: their
	// text, backticks aside, is in the anchor.
	for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '_', r == '-':
				b.WriteRune(r)
			case r == ' ':
				b.WriteByte('-')
			}
		}
		a := b.String()
		for i := 1; out[a]; i++ {
			a = fmt.Sprintf("%s-%d", b.String(), i)
		}
		out[a] = true
	}
	return out
}

// TestDocLinks: every relative link in README.md and docs/*.md leads to
// a file or folder of the repository, and a link with #anchor into a
// markdown file to one of its headings.
func TestDocLinks(t *testing.T) {
	files := docFiles(t)
	anchorsOf := map[string]map[string]bool{}
	headingsIn := func(path string) (map[string]bool, error) {
		if a, ok := anchorsOf[path]; ok {
			return a, nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		anchorsOf[path] = anchors(string(b))
		return anchorsOf[path], nil
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		text := prose(string(b))
		for _, m := range link.FindAllStringSubmatchIndex(text, -1) {
			target := text[m[2]:m[3]]
			at := fmt.Sprintf("%s:%d", file, lineOf(text, m[0]))
			if scheme.MatchString(target) {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			dest := file
			if path != "" {
				if strings.HasPrefix(path, "/") {
					t.Errorf("%s: link %q is absolute; make it relative to %s", at, target, file)
					continue
				}
				dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s: link %q leads nowhere: %v", at, target, err)
					continue
				}
			}
			if anchor == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				t.Errorf("%s: link %q has an anchor into a file that is not markdown", at, target)
				continue
			}
			heads, err := headingsIn(dest)
			if err != nil {
				t.Errorf("%s: link %q: %v", at, target, err)
				continue
			}
			if !heads[anchor] {
				known := make([]string, 0, len(heads))
				for a := range heads {
					known = append(known, a)
				}
				slices.Sort(known)
				t.Errorf("%s: link %q: %s has no heading with anchor %q (it has %s)", at, target, dest, anchor, strings.Join(known, ", "))
			}
		}
	}
}
