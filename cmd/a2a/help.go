package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// usage prints what the tool does, its commands, its common flags and its
// exit codes.
func usage(w io.Writer) {
	fmt.Fprint(w, `a2a calls A2A agents from a shell (A2A v1.0 and v0.3, JSON-RPC and HTTP+JSON),
as the A2A CLI specification v0.2 describes.

Usage: a2a COMMAND [ARGS] [flags]   (flags may come before or after ARGS)

Commands:
`)
	for _, c := range commands {
		synopsis := strings.TrimSpace(c.name() + " " + c.args)
		if len(synopsis) > 28 {
			fmt.Fprintf(w, "  %s\n  %-28s %s\n", synopsis, "", c.summary)
			continue
		}
		fmt.Fprintf(w, "  %-28s %s\n", synopsis, c.summary)
	}
	fmt.Fprint(w, `
The agent (every command but completion, demo-server, version and help):
  -a, --agent-card REF   its host (example.com), site or card URL, an endpoint URL
                         (its card is looked for), or a card file
  -e, --endpoint URL     call URL directly, without a card (--a2a-version, default
                         1.0, and the first --transport, default JSONRPC, say how)

Each flag also reads A2ACLI_<FLAG> (--api-key: A2ACLI_API_KEY) from the
environment, else from .env files: flag > environment > the local .env (or
--config FILE) > ~/.config/a2a-cli/.env > default. "a2a config show" shows
each value and where it came from; "a2a COMMAND --help" lists a command's
flags with their effective defaults. Credentials on the command line are
visible to other users in the process list and stay in the shell's history:
prefer A2ACLI_BEARER and A2ACLI_API_KEY.

Exit codes:
  0    the command did its job, whatever the task's outcome (a failed or
       waiting task is named on stderr; --task-exit-codes: 10 failed, canceled
       or rejected, 11 waiting for input or authentication, 12 not finished)
  1    it could not: the error is printed (-o json: {"error":{...}} on stdout)
  2    usage: bad arguments, flags or combination; nothing was sent
  3    the agent or its card could not be reached or found
  4    authentication was required and not given, or was refused
  5    --timeout expired before the task ended
  130  stopped by Ctrl-C (143 SIGTERM, 129 SIGHUP); the task's ids and the
       command that resumes are printed once known
`)
}

// commandUsage prints a command's synopsis and its flags, each with its
// effective default and, when it is not the built-in one, where it came
// from.
func commandUsage(w io.Writer, o *options) {
	cmd := o.cmd
	fmt.Fprintf(w, "Usage: a2a %s [flags]\n\n%s.\n", strings.TrimSpace(cmd.name()+" "+cmd.args), upperFirst(cmd.summary))
	base := newOptions(&command{agent: cmd.agent}, o.env)
	own, common := []*flag.Flag{}, []*flag.Flag{}
	o.fs.VisitAll(func(f *flag.Flag) {
		if _, alias := o.short[f.Name]; alias {
			return
		}
		if base.fs.Lookup(f.Name) == nil {
			own = append(own, f)
		} else {
			common = append(common, f)
		}
	})
	if len(own) > 0 {
		fmt.Fprintf(w, "\nFlags of %s:\n", cmd.name())
		o.printFlags(w, own)
	}
	fmt.Fprintf(w, "\nCommon flags:\n")
	o.printFlags(w, common)
}

// printFlags prints flags, sorted, with their short names and effective
// values.
func (o *options) printFlags(w io.Writer, flags []*flag.Flag) {
	shortOf := map[string]string{}
	for s, l := range o.short {
		if len(s) == 1 {
			shortOf[l] = s
		}
	}
	aliases := map[string][]string{}
	for s, l := range o.short {
		if len(s) > 1 {
			aliases[l] = append(aliases[l], "--"+s)
		}
	}
	sort.Slice(flags, func(i, j int) bool { return flags[i].Name < flags[j].Name })
	for _, f := range flags {
		name := "    --" + f.Name
		if s := shortOf[f.Name]; s != "" {
			name = "-" + s + ", --" + f.Name
		}
		if len(aliases[f.Name]) > 0 {
			sort.Strings(aliases[f.Name])
			name += " (" + strings.Join(aliases[f.Name], ", ") + ")"
		}
		// A value from a variable or a .env may hold a URL's password
		// or a key: shown as every output shows it.
		value := f.Value.String()
		if strings.Contains(value, "://") {
			value = o.shownURL(value)
		}
		value = inert.Printable(o.redactor().Str(value))
		shownValue := ""
		switch {
		case secretFlag(f.Name) && value != "":
			shownValue = " (set"
		case value != "" && value != "false" && value != "-1" && value != "0":
			shownValue = " (" + value
		}
		if src := o.source[f.Name]; src != "" && shownValue != "" {
			shownValue += ", from the " + inert.Printable(src)
		}
		if shownValue != "" {
			shownValue += ")"
		}
		env := ""
		if _, alias := o.short[f.Name]; !alias && !notFromEnv[f.Name] {
			env = " [" + envName(f.Name) + "]"
		}
		fmt.Fprintf(w, "  %s\n        %s%s%s\n", name, f.Usage, shownValue, env)
	}
}

// secretFlag reports whether a flag's value is a secret: never printed.
func secretFlag(name string) bool {
	switch name {
	case "bearer", "api-key", "client-secret", "token", "credentials", "svc-param":
		return true
	}
	return false
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// runHelp prints the usage of the tool, or of the command args name.
func runHelp(_ context.Context, o *options, args []string) int {
	if len(args) == 0 {
		usage(o.env.stdout)
		return exitOK
	}
	if isGroup(args) && !isCommand(args) {
		groupUsage(o.env.stdout, args)
		return exitOK
	}
	cmd, _, err := findCommand(args)
	if err != nil {
		return o.fail(err)
	}
	co := commandOptions(&cmd, o.env)
	co.load() // the effective defaults; an error is the command's to report
	commandUsage(o.env.stdout, co)
	return exitOK
}

// groupUsage prints the commands under words ("task"), for "a2a task
// --help" and "a2a help task".
func groupUsage(w io.Writer, words []string) {
	fmt.Fprintf(w, "Usage: a2a %s COMMAND [ARGS] [flags]\n\nCommands:\n", strings.Join(words, " "))
	for _, c := range commands {
		if len(c.path) > len(words) && slices.Equal(c.path[:len(words)], words) {
			fmt.Fprintf(w, "  %-36s %s\n", strings.TrimSpace(c.name()+" "+c.args), c.summary)
		}
	}
	fmt.Fprintf(w, "\n\"a2a %s COMMAND --help\" lists a command's flags; \"a2a --help\" the agent flags and exit codes.\n", strings.Join(words, " "))
}
