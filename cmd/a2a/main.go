// Command a2a calls A2A agents from a shell: it reads an agent's card,
// sends a message and waits for the task to finish, reads, cancels and
// lists tasks, follows a stream of events, and manages push notification
// configs, over JSON-RPC or HTTP+JSON in A2A v0.3 or v1.0 (the binding
// chosen from the card, or with --transport). It is built on the package
// github.com/caoliao-a2a/a2a-go alone, so it keeps the package's
// behaviour: the gateway's agent selector in every request, retries only
// where they are safe, bounded polling with backoff, unknown states never
// taken for finished, and no secret in any output.
//
// Run "a2a help" for the commands, flags, environment variables and exit
// codes. "a2a fake-agent" starts an offline agent to try them against.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := stopOnSignal(context.Background())
	dir, _ := os.Getwd() // "" when unknown: then no local .env is looked for
	code := run(ctx, os.Args[1:], env{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv, stderrTTY: isTerminal(os.Stderr), stdoutTTY: isTerminal(os.Stdout),
		dir: dir,
	})
	stop()
	if code == exitSignal {
		code = signalExit(context.Cause(ctx))
	}
	os.Exit(code)
}

// stopSignals stop a command as Ctrl-C does: what the command knows of
// its task (the id, the context, the line that resumes) is printed before
// it exits. SIGTERM is what kill, systemd and container runtimes send;
// SIGHUP, a closed terminal or ssh session.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// stoppedBy is the cause of the context a stop signal cancels: the
// signal. It is context.Canceled to errors.Is, as a Ctrl-C is.
type stoppedBy struct{ sig os.Signal }

func (e stoppedBy) Error() string        { return "stopped by signal " + e.sig.String() }
func (e stoppedBy) Is(target error) bool { return target == context.Canceled }

// stopOnSignal returns a copy of parent that the first of stopSignals
// cancels with the signal as its cause (stoppedBy), and the function that
// stops listening and releases the context.
func stopOnSignal(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, stopSignals...)
	go func() {
		select {
		case s := <-sigs:
			cancel(stoppedBy{s})
		case <-ctx.Done():
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		cancel(context.Canceled)
	}
}

// signalExit is the exit code of a command stopped by cause: 128 plus
// the signal's number, as shells report a process a signal ends (130 for
// Ctrl-C, 143 for SIGTERM, 129 for SIGHUP); exitSignal when the signal is
// not known.
func signalExit(cause error) int {
	if e, ok := cause.(stoppedBy); ok {
		if n, ok := e.sig.(syscall.Signal); ok {
			return 128 + int(n)
		}
	}
	return exitSignal
}

// env is what a command runs with: its streams and environment, passed in
// so tests can run commands in process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// stderrTTY: stderr is a terminal, so progress lines go there;
	// stdoutTTY: stdout is, so long text is wrapped to its width.
	stderrTTY, stdoutTTY bool
	// dir is the working directory, where the search for a local .env
	// starts (loadSettings); "" for none.
	dir string
}

// isTerminal reports whether f is a character device (a terminal), by
// the standard library alone: a pipe or file is not.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
