package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocCommandLines checks that every a2a command line in the README's
// and docs/*.md's shell blocks (```sh, ```bash, ```shell; and "$ a2a"
// lines of ```console blocks) is one the CLI takes: the command exists,
// its flags parse with the command's flag set, and it has as many
// positional arguments as the command takes. Nothing is run: placeholders
// such as REF, TASKID and URL are arguments like any other.
func TestDocCommandLines(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append([]string{filepath.Join("..", "..", "README.md")}, files...)
	checked := 0
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range docShellLines(string(b)) {
			for _, args := range docA2ACommands(line.text) {
				checked++
				t.Logf("%s:%d: a2a %s", file, line.n, strings.Join(args, " "))
				if err := checkCommandLine(args); err != nil {
					t.Errorf("%s:%d: %s\n\ta2a %s", file, line.n, err, strings.Join(args, " "))
				}
			}
		}
	}
	if checked < 4 {
		t.Errorf("only %d a2a command lines found in the docs' shell blocks: is the extraction broken?", checked)
	}
}

// checkCommandLine parses the arguments of one a2a command line as run
// does, without running it: the command, its flags, its positional
// arguments' count.
func checkCommandLine(args []string) error {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-v" || args[0] == "--version") {
		return nil
	}
	cmd, rest, err := findCommand(args)
	if err != nil {
		return err
	}
	o := newOptions(&cmd, env{getenv: func(string) string { return "" }})
	if cmd.flags != nil {
		cmd.flags(o)
	}
	pos, err := o.parse(rest)
	switch {
	case errors.Is(err, errHelp), errors.Is(err, errVersion):
		return nil
	case err != nil:
		return err
	case len(pos) < cmd.nargs[0] || len(pos) > cmd.nargs[1]:
		return fmt.Errorf("%d positional arguments; a2a %s takes %d to %d (%s)", len(pos), cmd.name(), cmd.nargs[0], cmd.nargs[1], cmd.args)
	}
	return nil
}

// docLine is a line of a shell block, continuations joined, and the number
// of its first line in the file.
type docLine struct {
	n    int
	text string
}

// docShellLines are the lines of the shell blocks of a Markdown text, and
// the "$ " command lines of its console blocks (without the "$ ").
func docShellLines(md string) []docLine {
	var out []docLine
	lang, inBlock := "", false
	var pending *docLine
	for i, l := range strings.Split(md, "\n") {
		if fence, ok := strings.CutPrefix(strings.TrimSpace(l), "```"); ok {
			if inBlock {
				inBlock, pending = false, nil
			} else {
				inBlock, lang = true, strings.TrimSpace(fence)
			}
			continue
		}
		if !inBlock {
			continue
		}
		switch lang {
		case "sh", "bash", "shell", "console":
		default:
			continue
		}
		if lang == "console" {
			cmd, ok := strings.CutPrefix(l, "$ ")
			if !ok {
				continue
			}
			l = cmd
		}
		if pending != nil {
			pending.text += " " + l
		} else {
			out = append(out, docLine{n: i + 1, text: l})
			pending = &out[len(out)-1]
		}
		if strings.HasSuffix(strings.TrimRight(pending.text, " "), "\\") {
			pending.text = strings.TrimSuffix(strings.TrimRight(pending.text, " "), "\\")
		} else {
			pending = nil
		}
	}
	return out
}

// redirection is a shell redirection word: "2>/dev/null", ">", "<&3".
var redirection = regexp.MustCompile(`^[0-9]*(>>?|<)&?`)

// assignment is a shell variable assignment before a command: "X=1".
var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// docA2ACommands are the arguments of each a2a command in one shell line:
// its simple commands split at |, ||, &&, ;, (, ), { and }, each with its
// leading "exec" and VAR=value words dropped, its redirections and a
// trailing # comment left out; the simple commands whose first word is
// a2a.
func docA2ACommands(line string) [][]string {
	var out [][]string
	for _, words := range shellCommands(line) {
		for len(words) > 0 && (words[0] == "exec" || words[0] == "command" || assignment.MatchString(words[0])) {
			words = words[1:]
		}
		if len(words) == 0 || words[0] != "a2a" {
			continue
		}
		var args []string
		for i := 1; i < len(words); i++ {
			w := words[i]
			if m := redirection.FindString(w); m != "" {
				if m == w {
					i++ // the file follows: "> FILE"
				}
				continue
			}
			args = append(args, w)
		}
		out = append(out, args)
	}
	return out
}

// shellCommands splits a line into simple commands of words, as a POSIX
// shell would for the cases the docs use: single and double quotes,
// backslash escapes, # comments at a word's start, and the operators
// |, ||, &, &&, ;, (, ), { and } between commands. Quoted text is kept
// as it is (no expansion: "$VAR" stays "$VAR").
func shellCommands(line string) [][]string {
	var (
		cmds    [][]string
		words   []string
		word    strings.Builder
		inWord  bool
		quote   rune
		escaped bool
	)
	endWord := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	endCmd := func() {
		endWord()
		if len(words) > 0 {
			cmds = append(cmds, words)
			words = nil
		}
	}
	for _, r := range line {
		switch {
		case escaped:
			word.WriteRune(r)
			escaped = false
		case quote != 0:
			if r == quote {
				quote = 0
			} else if r == '\\' && quote == '"' {
				escaped = true
			} else {
				word.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			endCmd()
			return cmds
		case r == ' ' || r == '\t':
			endWord()
		case strings.ContainsRune("|&;()", r) || (r == '{' || r == '}') && !inWord:
			endCmd()
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	endCmd()
	return cmds
}

// TestShellCommands checks the splitting TestDocCommandLines relies on.
func TestShellCommands(t *testing.T) {
	for line, want := range map[string]string{
		`a2a send -a example.com 本月巡检记录  # send, then wait`:               `[a2a send -a example.com 本月巡检记录]`,
		`coproc DEMO { exec a2a demo-server 2>/dev/null; }`:               `[a2a demo-server]`,
		`a2a completion bash > ~/.local/share/a2a   # or zsh`:             `[a2a completion bash]`,
		`X=1 a2a send --metadata '{"k": "v"}' "two words" && a2a version`: `[a2a send --metadata {"k": "v"} two words] [a2a version]`,
		`read -r line <&"${DEMO[0]}" && export $line`:                     ``,
		`echo '#' | a2a send --data - hi\ there`:                          `[a2a send --data - hi there]`,
	} {
		var got []string
		for _, args := range docA2ACommands(line) {
			got = append(got, "[a2a "+strings.Join(args, " ")+"]")
		}
		if g := strings.Join(got, " "); g != want {
			t.Errorf("%s\n got %s\nwant %s", line, g, want)
		}
	}
}

// TestCheckCommandLine checks that checkCommandLine refuses what run
// would, and takes placeholders as arguments.
func TestCheckCommandLine(t *testing.T) {
	for _, line := range []string{
		"a2a task get -a REF TASKID", "a2a send -a REF --text T --file PATH --media-type M TEXT", "a2a --help", "a2a send --help",
		"a2a task push-config create TASKID WEBHOOK --config-id ID", "a2a help task get", "a2a card get --validate -o json",
	} {
		if err := checkCommandLine(strings.Fields(line)[1:]); err != nil {
			t.Errorf("%s: %v", line, err)
		}
	}
	for _, line := range []string{
		"a2a get URL ID", "a2a send --json hi", "a2a task get", "a2a task get A B", "a2a task", "a2a card get URL", "a2a send hi x", "a2a send --header K=V hi",
	} {
		if err := checkCommandLine(strings.Fields(line)[1:]); err == nil {
			t.Errorf("%s: taken", line)
		}
	}
}
