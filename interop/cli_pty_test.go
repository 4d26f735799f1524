//go:build unix

package interop

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
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
	stdout string // stdout, when it was a pipe (ptyOpts.pipedStdout)
	code   int
}

// ptyOpts are the ways a run under the terminal may differ.
type ptyOpts struct {
	// pipedStdout runs the command with stdout a pipe and only stdin and
	// stderr the terminal: "a2a send … | cat".
	pipedStdout bool
	// interact, when set, runs while the command does: a user at the
	// terminal (waitFor what the screen shows, then type).
	interact func(term *ptyTerm)
}

// ptyTerm is the user's side of a running terminal: what it has shown so
// far, and the keyboard.
type ptyTerm struct {
	ptmx *os.File

	mu      sync.Mutex
	screen  bytes.Buffer
	closed  bool          // the terminal is closed (the command exited) or too much was read
	changed chan struct{} // closed, and replaced, at each change
}

// read copies the terminal into screen (at most 4 MiB) until it closes:
// EIO once the last process holding it exits.
func (p *ptyTerm) read() {
	buf := make([]byte, 32<<10)
	for {
		n, err := p.ptmx.Read(buf)
		p.mu.Lock()
		p.screen.Write(buf[:n])
		if err != nil || p.screen.Len() > 4<<20 {
			p.closed = true
		}
		closed := p.closed
		close(p.changed)
		p.changed = make(chan struct{})
		p.mu.Unlock()
		if closed {
			return
		}
	}
}

// waitFor blocks until the screen shows s (true), or the terminal closes
// or 10 s pass first (false).
func (p *ptyTerm) waitFor(s string) bool {
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		p.mu.Lock()
		found, closed, changed := bytes.Contains(p.screen.Bytes(), []byte(s)), p.closed, p.changed
		p.mu.Unlock()
		switch {
		case found:
			return true
		case closed:
			return false
		}
		select {
		case <-changed:
		case <-deadline.C:
			return false
		}
	}
}

// typeKeys writes keys to the terminal as a user types them: "\x03" is
// Ctrl-C, which the terminal turns into SIGINT for the command.
func (p *ptyTerm) typeKeys(keys string) error {
	_, err := p.ptmx.Write([]byte(keys))
	return err
}

// runPTY runs bin with args in env under a fresh pseudo-terminal of 24
// rows and 60 columns, as the session's controlling terminal (so Ctrl-C
// typed there is a SIGINT): stdin and stderr are the terminal, and stdout
// too unless opts.pipedStdout. It reads the terminal until the command
// exits (all of it: the terminal is drained before it is closed). The run
// is bounded by testCtx: a command still running then is killed and the
// test fails.
func runPTY(t *testing.T, bin string, env []string, opts ptyOpts, args ...string) ptyRun {
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
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true} // stdin (fd 0) the controlling terminal
	var stdout bytes.Buffer
	if opts.pipedStdout {
		cmd.Stdout = &stdout
	}
	err = cmd.Start()
	tty.Close() // the child holds it now; once it exits, reading ptmx ends (EIO)
	if err != nil {
		t.Fatal(err)
	}
	term := &ptyTerm{ptmx: ptmx, changed: make(chan struct{})}
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		term.read()
	}()
	if opts.interact != nil {
		opts.interact(term)
	}
	err = cmd.Wait()
	select {
	case <-drained:
	case <-time.After(10 * time.Second):
		ptmx.Close()
		<-drained
		t.Fatalf("a2a %s: the terminal was not closed 10s after the command exited", strings.Join(args, " "))
	}
	res := ptyRun{screen: term.screen.Bytes(), stdout: stdout.String()}
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
		r := runPTY(t, bin, env, ptyOpts{}, "send", "本月巡检记录")
		if r.code != 0 {
			t.Fatalf("exit %d; screen:\n%q", r.code, r.screen)
		}
		s := onlyText(t, r.screen)
		inOrder(t, "the screen", s, "Task: ", "\nContext: ", "\nStatus: completed\n", "Artifact: records\n", "Data:\n", "Text:\n  共 2 条记录")
	})

	// --stream under a terminal: each event as text fields, the last
	// one restated.
	t.Run("send --stream", func(t *testing.T) {
		r := runPTY(t, bin, env, ptyOpts{}, "send", "--stream", "本月巡检记录")
		if r.code != 0 {
			t.Fatalf("exit %d; screen:\n%q", r.code, r.screen)
		}
		s := onlyText(t, r.screen)
		inOrder(t, "the screen", s, "Event: task\n", "Status: submitted\n", "Event: artifact-update\n", "Artifact: records\n",
			"Event: status-update\n", "Status: completed\n", "Task: ", "Status: completed\n")
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
		r := runPTY(t, bin, env, ptyOpts{}, "task", "get", "--wait", "--poll-interval", "100ms", reply.Task.ID)
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
		r := runPTY(t, bin, env, ptyOpts{}, args...)
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
		r := runPTY(t, bin, env, ptyOpts{pipedStdout: true}, args...)
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

// hostileState is a task state no version of A2A has, built to take over
// the terminal (an OSC that sets the window's title): the agent keeps
// its task in it, and the CLI keeps waiting (an unknown state is not an
// end) and shows it as received, escaped.
const hostileState = "\x1b]0;pwned\x07"

// TestCLIPTYInterrupt types Ctrl-C at the terminal while send polls a
// task that never ends (submitted, then hostileState for good): the
// command stops with 130 and prints the task's ids, its state and the
// command that resumes the wait; the progress line showed the hostile
// state escaped, and nothing but text reached the screen.
func TestCLIPTYInterrupt(t *testing.T) {
	bin := cliBinary(t)
	card := &a2a.AgentCard{
		Name: "stuck", Description: "a task that never ends", Version: "1.0.0",
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"}, Skills: []a2a.AgentSkill{},
	}
	agent := a2atest.NewServer(a2atest.V10(), a2atest.WithCard(card), a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: &a2a.Task{}, States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskState(hostileState)}}
	}))
	t.Cleanup(agent.Close)
	env := cliEnv(t, "A2ACLI_AGENT_CARD="+agent.BaseURL())
	escaped := `\x1b]0;pwned\a`

	typed := false
	r := runPTY(t, bin, env, ptyOpts{interact: func(term *ptyTerm) {
		// Once a poll has shown the hostile state, the user presses Ctrl-C.
		if !term.waitFor(progressSeq + "poll 2: " + escaped) {
			return // the run's checks below say what the screen showed
		}
		if err := term.typeKeys("\x03"); err != nil {
			t.Errorf("typing Ctrl-C: %v", err)
		}
		typed = true
	}}, "send", "--poll-interval", "100ms", "inspect")
	if !typed {
		t.Fatalf("the progress line never showed the escaped state (exit %d); screen:\n%q", r.code, r.screen)
	}
	if r.code != 130 {
		t.Fatalf("exit %d after Ctrl-C, want 130; screen:\n%q", r.code, r.screen)
	}
	s := onlyText(t, r.screen)
	inOrder(t, "the screen", s, "Task: task-1\n", "Context: ctx-1\n", "Status: "+escaped+"\n", "Resume: a2a task get --wait task-1")
	if got := agent.Requests(); len(got) < 3 {
		t.Errorf("the agent got %d requests, want the card, the send and the polls", len(got))
	}
}
