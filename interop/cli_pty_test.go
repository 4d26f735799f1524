//go:build unix

package interop

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/creack/pty"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// The built a2a command under a real terminal (a pseudo-terminal from
// github.com/creack/pty): the progress line appears on it, and nothing
// but text (the progress line's "\r\x1b[K" aside) reaches the screen,
// whatever the agent's text holds.

// ptyRun is how a run under the pseudo-terminal ended.
type ptyRun struct {
	screen []byte // every byte written to the terminal, as the terminal got them
	stdout string // stdout, when it was a pipe (ptyStdoutPiped)
	code   int
}

// ptyStdoutPiped runs the command with stdout a pipe and only stderr the
// terminal: "a2a send … | cat".
const ptyStdoutPiped = true

// runPTY runs bin with args in env under a fresh pseudo-terminal of 24
// rows and 60 columns: stdin and stderr are the terminal, and stdout too
// unless pipedStdout. It reads the terminal until the command exits (all
// of it: the terminal is drained before it is closed). The run is bounded
// by testCtx: a command still running then is killed and the test fails.
func runPTY(t *testing.T, bin string, env []string, pipedStdout bool, args ...string) ptyRun {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		needOrSkip(t, "no pseudo-terminal: "+err.Error())
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 60}); err != nil {
		tty.Close()
		t.Fatal(err)
	}
	ctx := testCtx(t)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env, cmd.Dir, cmd.WaitDelay = env, t.TempDir(), 5*time.Second
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	var stdout bytes.Buffer
	if pipedStdout {
		cmd.Stdout = &stdout
	}
	err = cmd.Start()
	tty.Close() // the child holds it now; once it exits, reading ptmx ends (EIO)
	if err != nil {
		t.Fatal(err)
	}
	var screen bytes.Buffer
	drained := make(chan error, 1)
	go func() {
		_, err := io.Copy(&screen, io.LimitReader(ptmx, 4<<20))
		drained <- err
	}()
	err = cmd.Wait()
	select {
	case <-drained: // EIO once the last holder of the terminal closed it
	case <-time.After(10 * time.Second):
		ptmx.Close()
		<-drained
		t.Fatalf("a2a %s: the terminal was not closed 10s after the command exited", strings.Join(args, " "))
	}
	res := ptyRun{screen: screen.Bytes(), stdout: stdout.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("a2a %s: still running at the test's deadline (killed); screen:\n%q", strings.Join(args, " "), res.screen)
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("a2a %s: %v", strings.Join(args, " "), err)
	}
	return res
}

// progressSeq is the one control sequence the CLI may write, on stderr
// and only when it is a terminal: back to the line's start, erase it.
const progressSeq = "\r\x1b[K"

// onlyText fails the test unless screen holds nothing but text (see
// screenText), and returns the text.
func onlyText(t *testing.T, screen []byte) string {
	t.Helper()
	s, err := screenText(screen)
	if err != nil {
		t.Error(err)
	}
	return s
}

// screenText returns screen with progressSeq and the "\r" of "\r\n"
// taken out, and an error unless what is left is nothing but text: line
// breaks (which the terminal's output processing writes as "\r\n"),
// tabs and printable characters. Any other control character (an ESC
// starting a CSI or OSC sequence, BEL, a bare CR, DEL, a C1 control),
// invalid UTF-8 or a bidirectional control (U+202E…) is an error naming
// it and where.
func screenText(screen []byte) (string, error) {
	s := strings.ReplaceAll(string(screen), "\r\n", "\n")
	s = strings.ReplaceAll(s, progressSeq, "")
	for i, r := range s {
		bad := false
		switch {
		case r == '\n' || r == '\t':
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			bad = true // invalid UTF-8
		case unicode.IsControl(r): // C0 (ESC, BEL, CR…), DEL, C1
			bad = true
		case unicode.Is(unicode.Bidi_Control, r): // U+202E and its kind
			bad = true
		}
		if bad {
			return s, fmt.Errorf("the screen holds %U at byte %d: %q", r, i, s[max(0, i-40):min(len(s), i+40)])
		}
	}
	return s, nil
}

// TestScreenText checks the screen check itself: each control a hostile
// agent could send is caught, the progress line and line breaks are not.
func TestScreenText(t *testing.T) {
	for _, ok := range []string{"Task: t1\r\nStatus: completed\r\n", progressSeq + "poll 1: working, 0s" + progressSeq + "Task: t\r\n", "共 2 条\t\\x1b[2J\r\n"} {
		if _, err := screenText([]byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"\x1b]8;;http://evil\x07x", "a\x1b[2Jb", "a\u202eb", "a\rb", "\x1b[K", "\r\x1b[2K", "a\x07", "\u009b2J", "a\x7f", "\xff"} {
		if _, err := screenText([]byte(bad)); err == nil {
			t.Errorf("%q passed as text", bad)
		}
	}
}

// TestCLIPTYDemoServer runs the a2a command under a terminal against "a2a
// demo-server" (A2A v1.0, a step every 300ms): send's output is text
// only; task get --wait polls with the progress line on the terminal.
func TestCLIPTYDemoServer(t *testing.T) {
	bin := cliBinary(t)
	demo := startDemoServer(t, bin, "--step", "300ms")
	env := cliEnv(t, "A2ACLI_AGENT_CARD="+demo.card)

	// OUT_005: under a terminal the default send (which streams: the
	// demo's card says streaming) prints its fields and blocks as text.
	t.Run("send", func(t *testing.T) {
		r := runPTY(t, bin, env, false, "send", "本月巡检记录")
		if r.code != 0 {
			t.Fatalf("exit %d; screen:\n%q", r.code, r.screen)
		}
		s := onlyText(t, r.screen)
		inOrder(t, "the screen", s, "Task: ", "\nContext: ", "\nStatus: completed\n", "Artifact: records\n", "Data:\n", "Text:\n  共 2 条记录")
	})

	// The progress line: task get --wait polls, and each poll rewrites the
	// line on the terminal ("\r\x1b[K" then "poll N: STATE, ELAPSED"),
	// erased before the task is printed.
	t.Run("task get --wait", func(t *testing.T) {
		args := []string{"send", "--async", "-o", "json", "本月巡检记录"}
		sent := runCLI(t, bin, env, args...)
		sent.wantExit(t, 0, args...)
		var reply struct{ Task struct{ ID string } }
		oneDocument(t, sent.stdout, &reply)
		if reply.Task.ID == "" {
			t.Fatalf("send --async -o json has no task: %s", sent.stdout)
		}
		r := runPTY(t, bin, env, false, "task", "get", "--wait", "--poll-interval", "100ms", reply.Task.ID)
		if r.code != 0 {
			t.Fatalf("exit %d; screen:\n%q", r.code, r.screen)
		}
		inOrder(t, "the screen", string(r.screen), progressSeq+"poll 1: ", progressSeq, "Task: "+reply.Task.ID)
		s := onlyText(t, r.screen)
		inOrder(t, "the screen", s, "poll 1: ", "Task: "+reply.Task.ID+"\n", "Status: completed\n")
	})
}

// hostileText is an agent's text built to take over a terminal: an OSC 8
// hyperlink to http://evil ended by BEL, a CSI that clears the screen, a
// right-to-left override and a bare carriage return that would overwrite
// the line. Each must reach the screen escaped, as text.
const hostileText = "see \x1b]8;;http://evil\x07here\x1b]8;;\x07 \x1b[2J gone \u202eeulav\u202c back\rOVERWRITE"

// hostileEscaped are the forms of hostileText's controls as the CLI
// prints them (Go's escapes).
var hostileEscaped = []string{`\x1b]8;;http://evil\a`, `\x1b[2J`, `\u202e`, `\rOVERWRITE`}

// longText is one line of text longer than the terminal (and $COLUMNS)
// is wide: wrapped when stdout is a terminal, kept whole when it is not.
var longText = strings.Repeat("巡检记录合格", 12)

// hostileAgent is an in-process A2A v1.0 agent (a2atest) whose card says
// no streaming, so send waits by polling: each GetTask moves the task on
// (submitted, working, completed), and the task's status message,
// artifact name and text are hostileText, with a text part longText.
func hostileAgent(t *testing.T) *a2atest.Server {
	t.Helper()
	card := &a2a.AgentCard{
		Name: "hostile", Description: "an agent whose text holds control sequences", Version: "1.0.0",
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}, Skills: []a2a.AgentSkill{},
	}
	agent := a2atest.NewServer(a2atest.V10(), a2atest.WithCard(card), a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		task := a2atest.StatusTask(a2a.TaskStateCompleted, hostileText)
		task.Artifacts = []a2a.Artifact{{ArtifactID: "a1", Name: "name " + hostileText,
			Parts: a2a.Parts{a2a.TextPart{Text: hostileText}, a2a.TextPart{Text: longText}}}}
		return a2atest.Reply{Task: task, States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted}}
	}))
	t.Cleanup(agent.Close)
	return agent
}

// TestCLIPTYHostileAgent runs send under a terminal against an agent whose
// text is hostile (OUT_005, INTERACT_002's printing rule): every control
// is shown escaped, the progress line is the only sequence, long text is
// wrapped on a terminal only; with stdout a pipe ("a2a send … | cat")
// stdout holds neither the progress line nor a wrapped line, and the
// progress line stays on the terminal (stderr).
func TestCLIPTYHostileAgent(t *testing.T) {
	bin := cliBinary(t)
	agent := hostileAgent(t)
	env := cliEnv(t, "A2ACLI_AGENT_CARD="+agent.BaseURL(), "COLUMNS=40")
	args := []string{"send", "--poll-interval", "100ms", "inspect"}

	t.Run("terminal", func(t *testing.T) {
		r := runPTY(t, bin, env, false, args...)
		if r.code != 0 {
			t.Fatalf("exit %d; screen:\n%q", r.code, r.screen)
		}
		inOrder(t, "the screen", string(r.screen), progressSeq+"poll 1: ", progressSeq, "Task: ")
		s := onlyText(t, r.screen)
		inOrder(t, "the screen", s, "Status: completed\n", "Message:\n  see ")
		// A block's wrapping may cut an escape ("\\" at a line's end, "a"
		// on the next): the escapes are looked for with the wrapping undone.
		unwrapped := strings.ReplaceAll(s, "\n  ", "")
		for _, esc := range hostileEscaped {
			if n := strings.Count(unwrapped, esc); n != 3 { // the status message, the artifact's name and its text
				t.Errorf("the screen shows %q %d times, want 3 (message, artifact name, text):\n%s", esc, n, s)
			}
		}
		// Wrapped to $COLUMNS (40, less the block's 2-column indent): 19
		// wide characters a line, each continuation indented.
		long := []rune(longText)
		inOrder(t, "the screen", s, "Text:\n  "+string(long[:19])+"\n  "+string(long[19:38])+"\n  ")
	})

	t.Run("stdout piped", func(t *testing.T) {
		r := runPTY(t, bin, env, ptyStdoutPiped, args...)
		if r.code != 0 {
			t.Fatalf("exit %d; stdout:\n%q\nscreen:\n%q", r.code, r.stdout, r.screen)
		}
		// The terminal (stderr) still shows the progress line, then is
		// cleared; nothing of the task reaches it.
		inOrder(t, "the terminal", string(r.screen), progressSeq+"poll 1: ")
		if s := onlyText(t, r.screen); strings.Contains(s, "Task: ") {
			t.Errorf("the task reached the terminal, not stdout:\n%s", s)
		}
		// stdout: text only, no progress, the long line whole.
		if strings.ContainsAny(r.stdout, "\x1b\r\a\u202e") {
			t.Errorf("a control character on stdout:\n%q", r.stdout)
		}
		if strings.Contains(r.stdout, "poll ") {
			t.Errorf("the progress line on stdout:\n%s", r.stdout)
		}
		inOrder(t, "stdout", r.stdout, "Status: completed\n", "Text:\n  "+longText+"\n\n")
		for _, esc := range hostileEscaped {
			if !strings.Contains(r.stdout, esc) {
				t.Errorf("stdout does not show %q:\n%s", esc, r.stdout)
			}
		}
	})

	// Neither stream a terminal: no progress line at all.
	t.Run("no terminal", func(t *testing.T) {
		r := runCLI(t, bin, env, args...)
		r.wantExit(t, 0, args...)
		if strings.Contains(r.stderr, "poll ") || strings.ContainsRune(r.stderr+r.stdout, 0x1b) {
			t.Errorf("a progress line off a terminal:\nstdout %q\nstderr %q", r.stdout, r.stderr)
		}
		inOrder(t, "stdout", r.stdout, "Status: completed\n", "Text:\n  "+longText+"\n\n")
	})
}
