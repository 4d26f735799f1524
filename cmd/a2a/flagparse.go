package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"
)

// Reading a command line: flags anywhere among the arguments, their
// errors said in the command line's words.

type discard struct{}

// parse parses args, flags anywhere among the positional arguments ("--"
// ends the flags), and returns the positional ones. A flag error is said
// in one line, with the closest flag when the name is unknown.
func (o *options) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := o.fs.Parse(args); err != nil {
			return nil, o.flagError(err)
		}
		args = o.fs.Args()
		if o.showVersion {
			return nil, errVersion
		}
		if len(args) == 0 {
			break
		}
		if args[0] == "--" {
			pos = append(pos, args[1:]...)
			break
		}
		pos, args = append(pos, args[0]), args[1:]
	}
	o.fs.Visit(func(f *flag.Flag) { o.source[o.long(f.Name)] = "flag" })
	return pos, nil
}

// long is the long name of flag name.
func (o *options) long(name string) string {
	if l, ok := o.short[name]; ok {
		return l
	}
	return name
}

// renamedFlags are the flags of releases before the A2A CLI
// specification and what replaced them.
var renamedFlags = map[string]string{
	"json": "-o json", "header": "--svc-param K:V", "task": "--task-id", "context": "--context-id",
	"no-block": "--async", "protocol": "--a2a-version (or -e/--endpoint URL)", "max-attempts": "--timeout",
	"data-out": `"a2a task download"`, "limit": "one page a call (--page-size, --page-token)",
}

// flagError rewrites the flag package's error in this command line's
// words: --name for -name, the closest flag for an unknown one.
func (o *options) flagError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		name = strings.TrimLeft(name, "-")
		if now, ok := renamedFlags[name]; ok {
			return usagef("--%s is now %s (the A2A CLI specification's names; a2a %s --help)", name, now, o.name)
		}
		var names []string
		o.fs.VisitAll(func(f *flag.Flag) {
			if len(f.Name) > 1 {
				names = append(names, f.Name)
			}
		})
		if s := closest(name, names); s != "" {
			return usagef("unknown flag --%s; did you mean --%s? (a2a %s --help)", name, s, o.name)
		}
		return usagef("unknown flag --%s (a2a %s --help)", name, o.name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return usagef("--%s needs a value (a2a %s --help)", o.long(strings.TrimLeft(name, "-")), o.name)
	}
	// "invalid value "x" for flag -timeout: parse error"
	if i := strings.Index(msg, " for flag -"); i >= 0 {
		rest := msg[i+len(" for flag -"):]
		name, why, _ := strings.Cut(rest, ": ")
		if f := o.fs.Lookup(name); f != nil && strings.Contains(fmt.Sprintf("%T", f.Value), "duration") {
			why = "want a duration such as 30s, 500ms or 2m"
		}
		return usagef("--%s: %s%s", o.long(name), strings.TrimPrefix(msg[:i], "invalid value "), ifNotEmpty(": ", why))
	}
	return usagef("%s", msg)
}

func ifNotEmpty(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}
