package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// Exit codes, one per way a command can end (see usage).
const (
	exitOK          = 0   // done: the task completed, or the command did what it was asked
	exitError       = 1   // no answer to the question: a transport, HTTP, protocol or JSON-RPC error
	exitUsage       = 2   // bad command line or input; nothing was sent
	exitFailed      = 3   // the task failed, was canceled or rejected (a value: its reason is printed)
	exitInterrupted = 4   // the task waits for input or authentication (its question is printed)
	exitUnfinished  = 5   // the task is not finished: the poll ran out, or it is still submitted or working
	exitSignal      = 130 // stopped by Ctrl-C (main makes it 128+n for signal n: signalExit)
)

// command is one subcommand: what it takes, and how it runs with its
// parsed flags and positional arguments.
type command struct {
	args    string // the positional arguments, for usage
	summary string
	flags   func(*options) // adds the command's own flags
	nargs   [2]int         // the least and most positional arguments
	run     func(ctx context.Context, o *options, args []string) int
}

var commands map[string]command

func init() {
	commands = map[string]command{
		"card":        {args: "[--card-keys FILE] [--jku-host H,...] [--require-signed-card] URL", summary: "read the agent's card, check its signatures and summarise it", flags: cardFlags, nargs: [2]int{1, 1}, run: runCard},
		"send":        {args: "[--wait] [--data FILE|-] [--task ID --context ID] URL TEXT", summary: "send a message; with --wait, poll the task to its end", flags: sendFlags, nargs: [2]int{2, 2}, run: runSend},
		"get":         {args: "[--history N] URL TASKID", summary: "read a task", flags: historyFlag, nargs: [2]int{2, 2}, run: runGet},
		"cancel":      {args: "URL TASKID", summary: "ask the agent to cancel a task", nargs: [2]int{2, 2}, run: runCancel},
		"wait":        {args: "[--max-attempts N] [--cancel-on-interrupt] URL TASKID", summary: "poll a task until it ends or waits for input", flags: pollFlags, nargs: [2]int{2, 2}, run: runWait},
		"tasks":       {args: "[--context ID] [--status STATE] [--page-size N] [--page-token T] [--limit N] URL", summary: "list tasks (A2A v1.0, or v0.3 over HTTP+JSON)", flags: tasksFlags, nargs: [2]int{1, 1}, run: runTasks},
		"stream":      {args: "URL TEXT", summary: "send a message and print its events as they arrive", flags: streamFlags, nargs: [2]int{2, 2}, run: runStream},
		"resubscribe": {args: "URL TASKID", summary: "follow the events of a running task again", flags: streamFlags, nargs: [2]int{2, 2}, run: runResubscribe},
		"push":        {args: "set|get|list|delete URL TASKID [WEBHOOK|CONFIGID]", summary: "manage a task's push notification configs", flags: pushFlags, nargs: [2]int{3, 4}, run: runPush},
		"fake-agent":  {args: "[--version 0.3|1.0] [--transport T,...] [--addr HOST:PORT] [--step D]", summary: "serve an offline Caoliao-style agent until Ctrl-C; its URL on stdout", flags: fakeFlags, nargs: [2]int{0, 0}, run: runFakeAgent},
	}
}

// run runs the command line args and returns the exit code.
func run(ctx context.Context, args []string, e env) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(e)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	name := args[0]
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(e.stderr, "a2a: unknown command %q (run \"a2a help\")\n", name)
		return exitUsage
	}
	o := newOptions(name, e)
	if cmd.flags != nil {
		cmd.flags(o)
	}
	o.fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: a2a %s\n%s.\n\nFlags (common ones: see \"a2a help\"):\n", strings.TrimSpace(name+" "+cmd.args), cmd.summary)
		o.fs.PrintDefaults()
	}
	pos, err := o.parse(args[1:])
	switch {
	case errors.Is(err, errHelp):
		return exitOK
	case err != nil:
		o.errf("a2a %s: %v\n", name, err)
		return exitUsage
	case len(pos) < cmd.nargs[0] || len(pos) > cmd.nargs[1]:
		o.errf("a2a %s: want %s (run \"a2a %s -h\")\n", name, cmd.args, name)
		return exitUsage
	}
	if err := o.check(); err != nil {
		o.errf("a2a %s: %s\n", name, strings.TrimPrefix(inFlags(err.Error()), "a2a: ")) // the package's prefix: the command's comes first
		return exitUsage
	}
	o.args = append([]string{}, pos...) // the redactor is complete
	return cmd.run(ctx, o, pos)
}

// usage prints the commands, the common flags, their environment
// variables and the exit codes.
func usage(e env) {
	w := e.stdout
	fmt.Fprint(w, `a2a calls A2A agents (JSON-RPC and HTTP+JSON, A2A v0.3 and v1.0) from a shell.

Usage: a2a COMMAND [flags] ARGS...   (flags may come before or after ARGS)

Commands:
`)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  %-12s %s\n  %-12s   %s\n", n, c.summary, "", strings.TrimSpace(n+" "+c.args))
	}
	fmt.Fprint(w, `
URL is the agent's endpoint (for "card", also the agent's site or card URL).
"a2a COMMAND -h" lists a command's own flags.

Common flags (each also read from the environment variable shown):
  --api-key KEY        X-API-Key header                        A2A_API_KEY
  --bearer TOKEN       Authorization: Bearer TOKEN             A2A_BEARER_TOKEN
  --workspace ID       X-Workspace-ID header                   A2A_WORKSPACE_ID
  --agent-id ID        "agent_id" in every request body        A2A_AGENT_ID
  --agent-code CODE    "agent_code" in every request body      A2A_AGENT_CODE
  --header K=V         an extra header; repeatable             A2A_HEADERS (K=V;K2=V2)
  --protocol P         auto, 0.3 or 1.0 (default auto)         A2A_PROTOCOL
  --transport T,...    auto, or jsonrpc and http+json, most    A2A_TRANSPORT
                       wanted first (default auto)
  --tenant T           the tenant of a v1.0 endpoint           A2A_TENANT
  --timeout D          bound on the whole command (default 2m) A2A_TIMEOUT
  --retries N          retries of a safe request (default 3)   A2A_RETRIES
  --max-bytes N        cap on a reply's size (default 10 MiB)  A2A_MAX_BYTES
  --json               print the agent's bytes as received     A2A_JSON (1)
  -v                   log each attempt to stderr              A2A_VERBOSE (1)

--protocol auto reads the agent's card (under the endpoint, then its site) and
speaks the binding (transport and version) of the card's first interface for
that endpoint (a trailing slash aside), in card order; --transport names the
transports allowed, most wanted first. When the endpoint is the card's
interface for another transport than those named, the card's interface for
one of them is called instead, at its own URL on the same site (-v says so).
Without a card it speaks v0.3 over the first transport named (JSON-RPC by
default) and, if the agent answers as a v1.0 agent, says so and speaks v1.0.

Exit codes:
  0    done: the task completed, or the command did what it was asked
  1    error: transport, HTTP, protocol or JSON-RPC (the error is printed)
  2    usage: bad command line or input; nothing was sent
  3    the task failed, was canceled or rejected (its reason is printed;
       for "cancel", a canceled task is 0: what was asked)
  4    the task waits for input or authentication (its question, and the
       command that answers it, are printed)
  5    the task is not finished: the poll ran out of attempts or of
       --timeout, or it is still submitted or working (the task's id, its
       context and the command that resumes waiting are printed)
  130  stopped by Ctrl-C (the task's id, its context and the command that
       resumes are printed once the id is known; so too after an error)
  143  stopped by SIGTERM, as by Ctrl-C
  129  stopped by SIGHUP (the terminal closed), as by Ctrl-C
`)
}

// errUsage marks an error of the command line.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// stateExit is the exit code a task's state ends a command with.
func stateExit(s a2a.TaskState) int {
	switch {
	case s == a2a.TaskStateCompleted:
		return exitOK
	case s.Terminal():
		return exitFailed
	case s.Interrupted():
		return exitInterrupted
	}
	return exitUnfinished
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
