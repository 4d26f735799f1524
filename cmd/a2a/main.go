// Command a2a calls A2A agents from a shell: it reads an agent's card,
// sends a message and waits for the task to finish, reads, cancels and
// lists tasks, follows a stream of events, and manages push notification
// configs, over A2A v0.3 or v1.0 JSON-RPC. It is built on the package
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
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], env{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv: os.Getenv, stderrTTY: isTerminal(os.Stderr), stdoutTTY: isTerminal(os.Stdout),
	})
	stop()
	os.Exit(code)
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
}

// isTerminal reports whether f is a character device (a terminal), by
// the standard library alone: a pipe or file is not.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
