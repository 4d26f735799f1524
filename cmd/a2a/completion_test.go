package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sampleCommands is a command table shaped like the CLI's: global flags on
// every command, groups of subcommands, choices, file and directory flags.
func sampleCommands() []cmdInfo {
	global := []flagInfo{
		{Name: "agent-card", Short: "a", Usage: "the agent's card", TakesValue: true},
		{Name: "output", Short: "o", Usage: "output format", TakesValue: true, Choices: []string{"text", "json"}},
		{Name: "transport", Usage: "binding, most wanted first", TakesValue: true, Choices: []string{"JSONRPC", "HTTP+JSON"}},
		{Name: "config", Usage: "dotenv file", TakesValue: true},
		{Name: "cacert", Usage: "extra CA", TakesValue: true},
		{Name: "debug", Usage: "log the wire"},
		{Name: "help", Short: "h", Usage: "show help"},
	}
	with := func(fs ...flagInfo) []flagInfo { return append(slices.Clone(global), fs...) }
	return []cmdInfo{
		{Summary: "a2a", Flags: []flagInfo{{Name: "help", Short: "h", Usage: "show help"}, {Name: "version", Short: "v", Usage: "print the version"}}},
		{Path: []string{"send"}, Args: "[TEXT]", Summary: "send a message", Flags: with(
			flagInfo{Name: "file", Usage: "a file part", TakesValue: true}, flagInfo{Name: "data", Usage: "a data part", TakesValue: true},
			flagInfo{Name: "task-id", Usage: "the task", TakesValue: true}, flagInfo{Name: "stream", Usage: "live events"})},
		{Path: []string{"card", "get"}, Summary: "read the card", Flags: with(flagInfo{Name: "validate", Usage: "check it"})},
		{Path: []string{"task", "get"}, Args: "TASKID", Summary: "read a task", Flags: with(flagInfo{Name: "history", Usage: "messages", TakesValue: true})},
		{Path: []string{"task", "cancel"}, Args: "TASKID", Summary: "cancel a task", Flags: with()},
		{Path: []string{"task", "list"}, Summary: "list tasks", Flags: with(flagInfo{Name: "status", Usage: "state", TakesValue: true, Choices: []string{"working", "completed"}})},
		{Path: []string{"task", "subscribe"}, Args: "TASKID", Summary: "follow a task", Flags: with()},
		{Path: []string{"task", "download"}, Args: "TASKID", Summary: "save artifacts", Flags: with(flagInfo{Name: "dir", Usage: "where", TakesValue: true}, flagInfo{Name: "force", Usage: "overwrite"})},
		{Path: []string{"task", "push-config", "create"}, Args: "TASKID WEBHOOK", Summary: "add a push config", Flags: with(flagInfo{Name: "token", Usage: "token", TakesValue: true})},
		{Path: []string{"task", "push-config", "get"}, Args: "TASKID CONFIGID", Summary: "read one", Flags: with()},
		{Path: []string{"task", "push-config", "list"}, Args: "TASKID", Summary: "list them", Flags: with()},
		{Path: []string{"task", "push-config", "delete"}, Args: "TASKID CONFIGID", Summary: "delete one", Flags: with()},
		{Path: []string{"completion"}, Args: "bash|zsh|fish", Summary: "print a completion script", Flags: []flagInfo{{Name: "help", Short: "h", Usage: "show help"}}},
		{Path: []string{"help"}, Args: "[COMMAND [SUBCOMMAND]]", Summary: "show help"},
		{Path: []string{"version"}, Summary: "print the version", Flags: []flagInfo{{Name: "output", Short: "o", Usage: "format", TakesValue: true, Choices: []string{"text", "json"}}}},
	}
}

// completionCase is a command line being completed: its words, the last
// being the word under the cursor, and the candidates wanted, in any order
// ("<files>"/"<dirs>" where the shell's own file completion is wanted).
type completionCase struct {
	words []string
	want  []string
}

var allTaskFlags = []string{"--agent-card", "-a", "--output", "-o", "--transport", "--config", "--cacert", "--debug", "--help", "-h"}

// completionCases are asked of every shell; the directory holds card.json,
// cards.txt and the directory out/.
var completionCases = []completionCase{
	{[]string{"a2a", "ta"}, []string{"task"}},
	{[]string{"a2a", ""}, []string{"send", "card", "task", "completion", "help", "version"}},
	{[]string{"a2a", "task", ""}, []string{"get", "cancel", "list", "subscribe", "download", "push-config"}},
	{[]string{"a2a", "task", "push-config", ""}, []string{"create", "get", "list", "delete"}},
	{[]string{"a2a", "card", "g"}, []string{"get"}},
	{[]string{"a2a", "task", "get", "--o"}, []string{"--output"}},
	{[]string{"a2a", "task", "get", "-"}, append(slices.Clone(allTaskFlags), "--history")},
	{[]string{"a2a", "task", "-"}, allTaskFlags},
	{[]string{"a2a", "-"}, []string{"--help", "-h", "--version", "-v"}},
	{[]string{"a2a", "task", "get", "--output", ""}, []string{"text", "json"}},
	{[]string{"a2a", "task", "get", "-o", "j"}, []string{"json"}},
	{[]string{"a2a", "send", "--transport", "H"}, []string{"HTTP+JSON"}},
	{[]string{"a2a", "task", "list", "--status", "w"}, []string{"working"}},
	{[]string{"a2a", "--output", "json", "ta"}, []string{"task"}},
	{[]string{"a2a", "task", "--output", "json", "g"}, []string{"get"}},
	{[]string{"a2a", "completion", ""}, []string{"bash", "zsh", "fish"}},
	{[]string{"a2a", "completion", "z"}, []string{"zsh"}},
	{[]string{"a2a", "help", ""}, []string{"send", "card", "task", "completion", "help", "version"}},
	{[]string{"a2a", "help", "task", "p"}, []string{"push-config"}},
	{[]string{"a2a", "task", "get", "t1", ""}, nil},
	{[]string{"a2a", "send", "--", "--o"}, nil},
	{[]string{"a2a", "card", "get", "--agent-card", ""}, []string{"<files>"}},
	{[]string{"a2a", "card", "get", "--history", ""}, nil},
	{[]string{"a2a", "task", "get", "--history", ""}, nil},
	{[]string{"a2a", "send", "--task-id", "get", ""}, nil},
	{[]string{"a2a", "send", "--file", "car"}, []string{"card.json", "cards.txt"}},
	{[]string{"a2a", "send", "--config", ""}, []string{"<files>"}},
	{[]string{"a2a", "task", "download", "t1", "--dir", ""}, []string{"<dirs>"}},
}

// completionDir makes the directory the cases complete file names in.
func completionDir(t *testing.T) string {
	dir := t.TempDir()
	for _, f := range []string{"card.json", "cards.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeScript writes shell's script of the sample table to a file.
func writeScript(t *testing.T, shell string) string {
	t.Helper()
	s, err := completionScript(shell, sampleCommands())
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "a2a."+shell)
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// lookShell finds shell or skips the test, naming the Debian package.
func lookShell(t *testing.T, shell string) string {
	t.Helper()
	p, err := exec.LookPath(shell)
	if err != nil {
		t.Skipf("%s is not installed (Debian package %q): its completion script is not tested", shell, shell)
	}
	return p
}

// candidates reads the shell's output, one candidate a line (a fish
// description after a tab dropped), with the file cases' wants made
// concrete for that shell's file listing.
func sameCandidates(t *testing.T, shell string, c completionCase, out string) {
	t.Helper()
	var got []string
	for l := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		if l = strings.TrimSpace(strings.SplitN(l, "\t", 2)[0]); l != "" {
			got = append(got, l)
		}
	}
	want := slices.Clone(c.want)
	if slices.Equal(want, []string{"<files>"}) && shell != "zsh" {
		want = []string{"card.json", "cards.txt", "out"}
		if shell == "fish" {
			want[2] = "out/"
		}
	}
	if slices.Equal(want, []string{"<dirs>"}) && shell != "zsh" {
		want = []string{"out"}
		if shell == "fish" {
			want[0] = "out/"
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: %q: candidates (-want +got):\n%s", shell, strings.Join(c.words, " "), diff)
	}
}

// runBash completes words in bash as bash does: COMP_WORDS, COMP_CWORD,
// the function, COMPREPLY.
func runBash(t *testing.T, bash, script, dir string, words []string) string {
	t.Helper()
	cmd := exec.Command(bash, append([]string{"--norc", "--noprofile", "-c",
		`source "$1" || exit 9; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _a2a; printf '%s\n' "${COMPREPLY[@]}"`, "bash", script}, words...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash %q: %v\n%s", words, err, out)
	}
	return string(out)
}

// TestCompletionBash runs the bash script in a real bash.
func TestCompletionBash(t *testing.T) {
	bash := lookShell(t, "bash")
	script, dir := writeScript(t, "bash"), completionDir(t)
	for _, c := range completionCases {
		sameCandidates(t, "bash", c, runBash(t, bash, script, dir, c.words))
	}
	// "--flag=value" as one word, and as bash splits it at "=" (COMP_WORDBREAKS).
	for _, c := range []completionCase{
		{[]string{"a2a", "task", "get", "--output=j"}, []string{"--output=json"}},
		{[]string{"a2a", "task", "get", "--output", "="}, []string{"text", "json"}},
		{[]string{"a2a", "task", "get", "--output", "=", "t"}, []string{"text"}},
		{[]string{"a2a", "task", "get", "--output", "=", "json", "-"}, append(slices.Clone(allTaskFlags), "--history")},
		{[]string{"a2a", "--output", "=", "json", "task", "l"}, []string{"list"}},
	} {
		sameCandidates(t, "bash", c, runBash(t, bash, script, dir, c.words))
	}
	if out, err := exec.Command(bash, "--norc", "--noprofile", "-c", `source "$1" && complete -p a2a`, "bash", script).CombinedOutput(); err != nil || !strings.Contains(string(out), "-F _a2a a2a") {
		t.Errorf("the script does not register _a2a for a2a: %v\n%s", err, out)
	}
}

// TestCompletionZsh loads the zsh script after compinit (it registers
// itself with compdef) and calls it, case by case, with the completion
// builtins replaced by functions that print what they are given, filtered
// by PREFIX as compadd would. One zsh runs every case: compinit is slow.
func TestCompletionZsh(t *testing.T) {
	zsh := lookShell(t, "zsh")
	script, dir, home := writeScript(t, "zsh"), completionDir(t), t.TempDir()
	cases := append(slices.Clone(completionCases), completionCase{[]string{"a2a", "task", "get", "--output=j"}, []string{"json"}})
	var prog strings.Builder
	prog.WriteString(`autoload -U compinit && compinit -u -D || exit 8
source "$1" || exit 9
[[ $_comps[a2a] == _a2a ]] || { print "not registered"; exit 7 }
compadd() { while [[ $1 == -* && $1 != -- ]]; do shift; done; [[ $1 == -- ]] && shift; local w; for w in "$@"; do [[ $w == ${PREFIX}* ]] && print -r -- $w; done; return 0 }
_files() { if [[ $1 == -/ ]]; then print '<dirs>'; else print '<files>'; fi }
compset() { [[ $1 == -P ]] && PREFIX=${PREFIX#*=} }
`)
	for i, c := range cases {
		q := make([]string, len(c.words))
		for j, w := range c.words {
			q[j] = "'" + w + "'" // the cases hold no quote
		}
		fmt.Fprintf(&prog, "print -r -- '=== %d'\n( words=(%s); CURRENT=%d; PREFIX=${words[CURRENT]}; _a2a )\n", i, strings.Join(q, " "), len(c.words))
	}
	cmd := exec.Command(zsh, "-f", "-c", prog.String(), "zsh", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("zsh: %v\n%s", err, out)
	}
	parts := strings.Split(string(out), "=== ")
	if len(parts) != len(cases)+1 || strings.TrimSpace(parts[0]) != "" {
		t.Fatalf("zsh printed %d parts for %d cases:\n%s", len(parts)-1, len(cases), out)
	}
	for i, c := range cases {
		if slices.Contains(c.want, "card.json") {
			c.want = []string{"<files>"} // _files does the matching
		}
		num, got, _ := strings.Cut(parts[i+1], "\n")
		if num != fmt.Sprint(i) {
			t.Fatalf("zsh part %d is numbered %q", i, num)
		}
		sameCandidates(t, "zsh", c, got)
	}
}

// TestCompletionFish checks the fish script's syntax (fish -n) and asks
// fish itself for the candidates (complete -C).
func TestCompletionFish(t *testing.T) {
	fish := lookShell(t, "fish")
	script, dir, home := writeScript(t, "fish"), completionDir(t), t.TempDir()
	if out, err := exec.Command(fish, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("fish -n: %v\n%s", err, out)
	}
	cases := append(slices.Clone(completionCases), completionCase{[]string{"a2a", "task", "get", "--output=j"}, []string{"--output=json"}})
	for _, c := range cases {
		cmd := exec.Command(fish, "--no-config", "-c", `source $argv[1]; or exit 9; complete -C $argv[2]`, script, strings.Join(c.words, " "))
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("fish %q: %v\n%s", c.words, err, out)
		}
		sameCandidates(t, "fish", c, string(out))
	}
	out, err := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C 'a2a ta'`, script).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "task") {
		t.Errorf("complete -C 'a2a ta' = %q, %v", out, err)
	}
}

// TestCompletionScriptErrors checks the unknown shell and the table
// entries that cannot be written into a script.
func TestCompletionScriptErrors(t *testing.T) {
	_, err := completionScript("powershell", sampleCommands())
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "bash, zsh or fish") || !strings.Contains(err.Error(), `"powershell"`) {
		t.Errorf("unknown shell: %v", err)
	}
	for name, cmds := range map[string][]cmdInfo{
		"word with a quote":   {{Path: []string{"ta'sk"}}},
		"word with a space":   {{Path: []string{"task get"}}},
		"flag with $":         {{Path: []string{"send"}, Flags: []flagInfo{{Name: "$(rm)"}}}},
		"long short name":     {{Path: []string{"send"}, Flags: []flagInfo{{Name: "output", Short: "oo"}}}},
		"choice with ;":       {{Path: []string{"send"}, Flags: []flagInfo{{Name: "output", TakesValue: true, Choices: []string{"a;b"}}}}},
		"command given twice": {{Path: []string{"send"}}, {Path: []string{"send"}}},
		"dash word":           {{Path: []string{"-x"}}},
	} {
		for _, shell := range completionShells {
			if _, err := completionScript(shell, cmds); err == nil {
				t.Errorf("%s, %s: no error", name, shell)
			}
		}
	}
	for _, shell := range completionShells {
		s, err := completionScript(shell, sampleCommands())
		if err != nil || len(s) == 0 {
			t.Errorf("%s: %d bytes, %v", shell, len(s), err)
		}
	}
}

// TestArgChoices checks how positional arguments' synopses are read.
func TestArgChoices(t *testing.T) {
	for in, want := range map[string][][]string{
		"bash|zsh|fish":          {{"bash", "zsh", "fish"}},
		"TASKID CONFIGID":        {nil, nil},
		"[TEXT]":                 {nil},
		"[--dir DIR] TASKID":     {nil},
		"[COMMAND [SUBCOMMAND]]": {nil, nil},
		"get|list TASKID":        {{"get", "list"}, nil},
		"":                       nil,
	} {
		if diff := cmp.Diff(want, argChoices(in)); diff != "" {
			t.Errorf("argChoices(%q) (-want +got):\n%s", in, diff)
		}
	}
}
