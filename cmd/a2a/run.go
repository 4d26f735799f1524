package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// Exit codes: the A2A CLI specification's (v0.2 §11.6). The command
// reports whether it did its job, not how the agent's task turned out: a
// failed or waiting task is 0 (its outcome is printed and named on
// stderr), unless --task-exit-codes asks for the codes 10–12.
const (
	exitOK          = 0   // the command did its job, whatever the task's outcome
	exitError       = 1   // it could not: nothing more specific applies
	exitUsage       = 2   // bad arguments, flags or combination: nothing was sent
	exitUnreachable = 3   // the agent or its card could not be reached or resolved
	exitAuth        = 4   // authentication was required and not given, or was refused
	exitTimeout     = 5   // --timeout expired before the task was terminal
	exitSignal      = 130 // stopped by Ctrl-C (main makes it 128+n for signal n: signalExit)

	// With --task-exit-codes: the task's outcome, off the reserved 3–5.
	exitTaskFailed      = 10 // failed, canceled or rejected
	exitTaskInterrupted = 11 // input-required or auth-required
	exitTaskUnfinished  = 12 // not terminal when the command ended
)

// command is one command of the tree: its words ("task", "get"), its
// positional arguments, what it does, its own flags, how many positional
// arguments it takes and how it runs. A command with no run is a group
// ("task"): it names its subcommands.
type command struct {
	path    []string
	args    string // the positional arguments, for usage
	summary string
	flags   func(*options) // adds the command's own flags
	nargs   [2]int         // the least and most positional arguments
	run     func(ctx context.Context, o *options, args []string) int
	// agent: the command talks to an agent, so takes the agent flags.
	agent bool
}

func (c command) name() string { return strings.Join(c.path, " ") }

// commands is the command tree, in the order help lists it.
var commands []command

func init() {
	commands = []command{
		{path: []string{"send"}, args: "[TEXT]", summary: "send a message (TEXT and the part flags, in order) and wait for the task to end or wait for you", flags: sendFlags, nargs: [2]int{0, 1}, run: runSend, agent: true},
		{path: []string{"card", "get"}, summary: "read the agent's card, check its signatures and show it", flags: cardGetFlags, run: runCardGet, agent: true},
		{path: []string{"task", "get"}, args: "TASKID", summary: "read a task; with --wait, poll it until it ends or waits for you", flags: taskGetFlags, nargs: [2]int{1, 1}, run: runTaskGet, agent: true},
		{path: []string{"task", "cancel"}, args: "TASKID", summary: "ask the agent to cancel a task", nargs: [2]int{1, 1}, run: runTaskCancel, agent: true},
		{path: []string{"task", "list"}, summary: "list tasks, one page (A2A v1.0, or v0.3 over HTTP+JSON)", flags: taskListFlags, run: runTaskList, agent: true},
		{path: []string{"task", "subscribe"}, args: "TASKID", summary: "follow the events of a running task", flags: subscribeFlags, nargs: [2]int{1, 1}, run: runTaskSubscribe, agent: true},
		{path: []string{"task", "download"}, args: "TASKID", summary: "save a task's artifacts to files", flags: downloadFlags, nargs: [2]int{1, 1}, run: runTaskDownload, agent: true},
		{path: []string{"task", "push-config", "create"}, args: "TASKID WEBHOOK", summary: "ask the agent to push the task's updates to WEBHOOK", flags: pushCreateFlags, nargs: [2]int{2, 2}, run: runPushCreate, agent: true},
		{path: []string{"task", "push-config", "get"}, args: "TASKID CONFIGID", summary: "read one of a task's push notification configs", nargs: [2]int{2, 2}, run: runPushGet, agent: true},
		{path: []string{"task", "push-config", "list"}, args: "TASKID", summary: "list a task's push notification configs", nargs: [2]int{1, 1}, run: runPushList, agent: true},
		{path: []string{"task", "push-config", "delete"}, args: "TASKID CONFIGID", summary: "delete one of a task's push notification configs", nargs: [2]int{2, 2}, run: runPushDelete, agent: true},
		{path: []string{"auth", "login"}, summary: "get a token by the OAuth 2.0 flow the card declares and keep it for this agent", flags: authLoginFlags, run: runAuthLogin, agent: true},
		{path: []string{"auth", "logout"}, summary: "forget the token kept for this agent", run: runAuthLogout, agent: true},
		{path: []string{"config", "show"}, summary: "show each setting, its value and where it came from (read-only)", run: runConfigShow, agent: true},
		{path: []string{"conformance"}, summary: "check a live agent without changing anything: its card, bindings and capabilities", run: runConformance, agent: true},
		{path: []string{"completion"}, args: "bash|zsh|fish", summary: "print a shell completion script", nargs: [2]int{1, 1}, run: runCompletion},
		{path: []string{"demo-server"}, summary: "serve an offline Caoliao-style agent until Ctrl-C; its URL on stdout", flags: demoFlags, run: runDemoServer},
		{path: []string{"version"}, summary: "print the version, the protocol versions and the bindings spoken", run: runVersion},
		{path: []string{"help"}, args: "[COMMAND...]", summary: "show usage for the tool or a command", nargs: [2]int{0, 3}, run: runHelp},
	}
}

// renamed are the commands of releases before the A2A CLI specification
// and what they are now, so that a user who types one is told.
var renamed = map[string]string{
	"card": "card get", "get": "task get", "cancel": "task cancel", "wait": "task get --wait",
	"tasks": "task list", "stream": "send --stream", "resubscribe": "task subscribe",
	"push": "task push-config", "fake-agent": "demo-server",
}

// run runs the command line args and returns the exit code.
func run(ctx context.Context, args []string, e env) int {
	if len(args) == 0 {
		usage(e.stdout)
		return exitUsage
	}
	switch args[0] {
	case "-h", "--help":
		if words := leadingWords(args[1:]); len(words) > 0 {
			return run(ctx, append([]string{"help"}, words...), e) // "a2a --help task get"
		}
		usage(e.stdout)
		return exitOK
	case "-v", "--version":
		return runVersion(ctx, newOptions(nil, e), nil)
	}
	args = commandFirst(args)
	cmd, rest, err := findCommand(args)
	if err != nil {
		if slices.Contains(args, "-h") || slices.Contains(args, "--help") {
			if words := leadingWords(args); isGroup(words) {
				groupUsage(e.stdout, words) // "a2a task --help"
			} else {
				usage(e.stdout)
			}
			return exitOK
		}
		return usageFail(e, args, err)
	}
	o := commandOptions(&cmd, e)
	pos, err := o.parse(rest)
	switch {
	case errors.Is(err, errHelp):
		o.load() // the effective defaults; an error is the command's to report
		commandUsage(e.stdout, o)
		return exitOK
	case errors.Is(err, errVersion):
		return runVersion(ctx, o, nil)
	case err != nil:
		o.output = outputIn(rest, e) // a flag error before -o json still gets the envelope
		return o.fail(usageError{msg: err.Error()})
	case len(pos) < cmd.nargs[0] || len(pos) > cmd.nargs[1]:
		return o.fail(usagef("want: a2a %s (a2a %s --help)", strings.TrimSpace(cmd.name()+" "+cmd.args), cmd.name()))
	}
	if err := o.load(); err != nil {
		return o.fail(err)
	}
	if err := o.check(); err != nil {
		return o.fail(err)
	}
	o.args = append([]string{}, pos...) // the redactor is complete
	return cmd.run(ctx, o, pos)
}

// outputIn is the -o/--output args give, else A2ACLI_OUTPUT's, read
// without the flag set (for an error that stopped the parse before it).
func outputIn(args []string, e env) string {
	out := "text"
	if e.getenv != nil && e.getenv("A2ACLI_OUTPUT") == "json" {
		out = "json" // the .env files are not read yet: the variable alone
	}
	for i, a := range args {
		switch {
		case a == "--":
			return out
		case a == "-o=json" || a == "--output=json" || a == "-output=json":
			return "json"
		case (a == "-o" || a == "--output" || a == "-output") && i+1 < len(args) && args[i+1] == "json":
			return "json"
		case a == "-o=text" || a == "--output=text" || (a == "-o" || a == "--output") && i+1 < len(args) && args[i+1] == "text":
			return "text"
		}
	}
	return out
}

// leadingWords are the words args start with, before any flag.
func leadingWords(args []string) []string {
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			return args[:i]
		}
	}
	return args
}

// commandFirst is args with the flags given before the command's words
// moved after them ("a2a -o json send hi" is "a2a send hi -o json"):
// each flag that takes a value takes the next word with it.
func commandFirst(args []string) []string {
	var flags []string
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "--" {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		flags = append(flags, args[i])
		i++
		if !hasValue && valueFlags()[name] && i < len(args) {
			flags = append(flags, args[i])
			i++
		}
	}
	if len(flags) == 0 || i == len(args) {
		return args
	}
	words := leadingWords(args[i:])
	out := append(append([]string{}, words...), flags...)
	return append(out, args[i+len(words):]...)
}

// valueFlags are the flags, of any command, that take a value.
var valueFlags = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, o := range defaultOptions() {
		o.fs.VisitAll(func(f *flag.Flag) {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				m[f.Name] = true
			}
		})
	}
	return m
})

// findCommand finds the command args start with (its words come first,
// before any flag: "a2a task get -a HOST ID") and returns it with the
// rest of args. An unknown or incomplete command is a usage error naming
// the closest command, or the one that replaced it.
func findCommand(args []string) (command, []string, error) {
	var words []string
	for len(words) < len(args) {
		a := args[len(words)]
		next := append(words[:len(words):len(words)], a)
		if strings.HasPrefix(a, "-") || !isGroup(next) && !isCommand(next) {
			break
		}
		words = next
	}
	if c, ok := lookup(words); ok {
		return c, args[len(words):], nil
	}
	typed := ""
	if len(words) < len(args) && !strings.HasPrefix(args[len(words)], "-") {
		typed = args[len(words)]
	}
	switch {
	case len(words) > 0 && typed != "":
		subs := subcommands(words)
		if s := closest(typed, subs); s != "" {
			return command{}, nil, usagef("unknown command %q; did you mean %q? (a2a %s --help)", strings.Join(append(words, typed), " "), "a2a "+strings.Join(append(words, s), " "), strings.Join(words, " "))
		}
		return command{}, nil, usagef("unknown command %q: %q takes %s (a2a %s --help)", strings.Join(append(words, typed), " "), strings.Join(words, " "), strings.Join(subs, ", "), strings.Join(words, " "))
	case len(words) > 0:
		return command{}, nil, usagef("%q needs a subcommand: %s (a2a %s --help)", strings.Join(words, " "), strings.Join(subcommands(words), ", "), strings.Join(words, " "))
	case typed == "":
		return command{}, nil, usagef("no command given before the flags (a2a --help)")
	case renamed[typed] != "":
		return command{}, nil, usagef("%q is now %q (the A2A CLI specification's names; a2a --help)", typed, "a2a "+renamed[typed])
	}
	if s := closest(typed, topWords()); s != "" {
		return command{}, nil, usagef("unknown command %q; did you mean %q? (a2a --help)", typed, "a2a "+s)
	}
	return command{}, nil, usagef("unknown command %q (a2a --help)", typed)
}

// lookup is the runnable command whose path is words.
func lookup(words []string) (command, bool) {
	for _, c := range commands {
		if c.run != nil && strings.Join(c.path, " ") == strings.Join(words, " ") {
			return c, true
		}
	}
	return command{}, false
}

// isCommand reports whether words is a command's path; isGroup, whether
// it is the start of a longer one.
func isCommand(words []string) bool { _, ok := lookup(words); return ok }

func isGroup(words []string) bool { return len(subcommands(words)) > 0 }

// subcommands are the words that may follow words.
func subcommands(words []string) []string {
	var out []string
	for _, c := range commands {
		if len(c.path) > len(words) && strings.Join(c.path[:len(words)], " ") == strings.Join(words, " ") {
			w := c.path[len(words)]
			if len(out) == 0 || out[len(out)-1] != w {
				out = append(out, w)
			}
		}
	}
	return out
}

// topWords are the first words of the commands.
func topWords() []string { return subcommands(nil) }

// closest is the word among words nearest to s (by edit distance, at most
// a third of its length, and at least 1), or "".
func closest(s string, words []string) string {
	best, bestD := "", max(1, utf8.RuneCountInString(s)/3)+1
	for _, w := range words {
		if d := distance(strings.ToLower(s), strings.ToLower(w)); d < bestD {
			best, bestD = w, d
		}
	}
	return best
}

// distance is the edit distance between a and b, in runes: insertions,
// deletions, substitutions and swaps of two neighbours ("sned" is one
// from "send"; optimal string alignment).
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// usageFail reports a usage error found before any command's flags are
// read: one line on stderr and where to get help.
func usageFail(e env, args []string, err error) int {
	o := newOptions(nil, e)
	o.output = outputIn(args, e)
	return o.fail(err)
}

// usageError is an error of the command line: exit 2, A2ACLI_ERR_USAGE.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// outcomeExit is the exit code a task's state ends a command with: 0, or
// with --task-exit-codes the state's own code.
func (o *options) outcomeExit(s a2a.TaskState) int {
	if !o.taskExitCodes {
		return exitOK
	}
	switch {
	case s == a2a.TaskStateCompleted:
		return exitOK
	case s.Terminal():
		return exitTaskFailed
	case s.Interrupted():
		return exitTaskInterrupted
	}
	return exitTaskUnfinished
}

// quote returns s as one shell word that a shell reads back as s
// exactly, on one line and inert: as it is when it holds only letters,
// digits and "-_./:=@%+,"; else in single quotes ('\” for a quote) when
// every character is printable; else, for a word with control, format or
// invalid bytes, in ANSI-C quotes ($'…', read by bash, zsh, ksh and
// POSIX.1-2024 shells), each such byte written \xHH (\n and \t as such),
// and a quote and a backslash too (\x27, \x5c), so that a shell that does
// not read $'…' (dash) reads one wrong but inert word: with no ' inside,
// the word is a '…' string behind a "$".
func quote(s string) string {
	safe, printable := s != "", true
	for _, r := range s {
		switch {
		case r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ':
			safe, printable = false, false
		case r < utf8.RuneSelf && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("-_./:=@%+,", r)):
			safe = false
		}
	}
	switch {
	case safe:
		return s
	case printable:
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r != utf8.RuneError && r != '\\' && r != '\'' && (unicode.IsPrint(r) || r == ' '):
			b.WriteString(s[i : i+n])
		default:
			for _, c := range []byte(s[i : i+n]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		}
		i += n
	}
	b.WriteString("'")
	return b.String()
}
