package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// waitStopped is the error of a poll that stopped before its task ended,
// said in the command line's words: the agent's Retry-After when it asked
// for more than the time left of --timeout (the poll stops then rather
// than sleep past it), else --timeout reached; with the attempts, the
// time spent, the last state known (the state the send answered with
// until a poll reads one) and the fault of the last attempt when it read
// no task. It wraps the package's *a2a.PollError, so errors.Is and
// errors.As (the error classification) see what it is.
type waitStopped struct {
	msg string
	err error
}

func (e waitStopped) Error() string { return e.msg }
func (e waitStopped) Unwrap() error { return e.err }

// whyStopped is err, the error of a poll of last with the command's
// context ctx, as a waitStopped when it is a *a2a.PollError, else err as
// it is.
func (o *options) whyStopped(ctx context.Context, err error, last *a2a.Task) error {
	pe, ok := errors.AsType[*a2a.PollError](err)
	if !ok || errors.Is(err, context.Canceled) {
		return err
	}
	state := pe.LastState
	if state == "" {
		state = last.Status.State
	}
	done := fmt.Sprintf("after %d %s in %s, last state %q", pe.Attempts, plural(pe.Attempts, "attempt"), pe.Elapsed.Round(time.Millisecond), string(state))
	he, busy := errors.AsType[*a2a.HTTPError](pe.LastErr)
	dl, hasDeadline := ctx.Deadline()
	var msg string
	switch {
	case busy && hasDeadline && he.RetryAfter > 0 && he.RetryAfter > time.Until(dl):
		retry := he.RetryAfter.String()
		if he.RetryAfter >= 24*time.Hour { // the package's cap: the agent may have asked for more
			retry = "24h or more"
		}
		msg = fmt.Sprintf("wait for task %s: the agent answered HTTP %d and asked to retry after %s, more than the %s left of --timeout %s; stopped %s",
			pe.TaskID, he.StatusCode, retry, time.Until(dl).Round(time.Second), o.timeout, done)
	case errors.Is(err, context.DeadlineExceeded):
		msg = fmt.Sprintf("wait for task %s: --timeout %s reached %s", pe.TaskID, o.timeout, done)
	default:
		msg = fmt.Sprintf("wait for task %s: stopped %s", pe.TaskID, done)
	}
	if pe.LastErr != nil {
		msg += "; the last attempt got " + strings.TrimPrefix(pe.LastErr.Error(), "a2a: ")
	}
	return waitStopped{msg, err}
}
