package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// fail reports err, the failure of the command, and returns its exit code
// (the specification's §11.4, §11.6): on stderr one line, "a2a COMMAND:
// CODE: message", and a "hint:" line when there is something to do about
// it; with -o json the error envelope on stdout as well, as the one
// document. Ctrl-C is 130 (nothing more to say than that it stopped).
func (o *options) fail(err error) int {
	if errors.Is(err, context.Canceled) {
		o.errf("a2a %s: stopped\n", o.name)
		return exitSignal
	}
	ce := o.classify(err)
	name := cmp.Or(o.name, "a2a")
	if o.name != "" {
		name = "a2a " + o.name
	}
	ce.Message = strings.TrimPrefix(strings.TrimPrefix(ce.Message, name+": "), "a2a: ")
	o.errf("%s: %s: %s\n", name, ce.Code, inFlags(ce.Message))
	if len(o.args) > 0 && o.cmd != nil && o.cmd.path[0] == "task" {
		ce.Hint = strings.ReplaceAll(ce.Hint, "TASKID", quote(o.args[0])) // the id given, to paste
	}
	switch {
	case strings.Contains(ce.Message, "--help)"):
		ce.Hint = "" // the message says where help is
	case ce.Code == cliErrUsage && o.name != "":
		ce.Hint = "a2a " + o.name + " --help"
	}
	if ce.Hint != "" {
		o.errf("hint: %s\n", ce.Hint)
	}
	if o.json() {
		// Redacted before it is JSON: a secret holding a quote or a
		// backslash is escaped in JSON, past the redactor's reach.
		ce.Message = o.redactor().Str(inFlags(strings.TrimPrefix(ce.Message, "a2a: ")))
		ce.Hint = o.redactor().Str(ce.Hint)
		o.outJSON(ce.envelope())
	}
	return ce.Exit
}

// classify is the failure as the specification names it: the CLI's own
// errors first (a card not found or invalid, a version refused before
// anything was sent), then the package's (classify).
func (o *options) classify(err error) cliError {
	var (
		nf errCardNotFound
		ci cardInvalid
		ve versionError
		cm credentialsMissing
		wt waitTimeout
	)
	switch {
	case errors.As(err, &wt):
		return cliError{Code: cliErrTimeout, Message: wt.Error(), Hint: fmt.Sprintf("give it longer than --timeout %s, or take the task up again with the Resume command", o.timeout), Exit: exitTimeout}
	case errors.As(err, &cm):
		hint := "give --bearer or --api-key (or A2ACLI_BEARER, A2ACLI_API_KEY)"
		if o.card != nil {
			hint = credentialsHint(o.card)
		}
		return cliError{Code: cliErrCredentialsMissing, Message: err.Error(), Hint: hint, Exit: exitAuth}
	case errors.As(err, &nf):
		if _, ok := errors.AsType[*a2a.CardError](err); !ok {
			return cliError{Code: cliErrCardNotFound, Message: err.Error(), Hint: "check the path; a card file is a path or file://PATH", Exit: exitUnreachable}
		}
		// The card search failed: by its last attempt (a TLS failure, a
		// refusal, a 502 are not "no card").
		ce := classify(err, false)
		if ce.Code == cliErrCardNotFound {
			ce.Hint = "if the URL is the agent's endpoint and it has no card, call it with -e/--endpoint URL (add --a2a-version 0.3 for an A2A v0.3 agent)"
		}
		return ce
	case errors.As(err, &ci):
		return cliError{Code: cliErrCardInvalid, Message: err.Error(), Exit: exitError}
	case errors.As(err, &ve):
		return cliError{Code: cmp.Or(ve.code, "VersionNotSupportedError"), Message: ve.msg, Hint: ve.hint, Exit: exitError}
	}
	ce := classify(err, o.credentialGiven() || o.storedUsed)
	if ce.Exit == exitTimeout && ce.Hint == "" {
		ce.Hint = fmt.Sprintf("give it longer than --timeout %s", o.timeout)
	}
	return ce
}
