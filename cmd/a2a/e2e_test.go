package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// TestBinary builds the real a2a once and runs it against an in-process
// fake agent: main's streams, exit codes and Ctrl-C, not just run's.
func TestBinary(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH to build a2a with")
	}
	bin := filepath.Join(t.TempDir(), "a2a")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// a2a runs with no A2A_* variable of the machine's.
	a2aBin := func(args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
		cmd := exec.Command(bin, args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		return cmd, &stdout, &stderr
	}
	exitCode := func(err error) int {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	}
	runBin := func(args ...string) result {
		cmd, stdout, stderr := a2aBin(args...)
		code := exitCode(cmd.Run())
		return result{args: args, code: code, stdout: stdout.String(), stderr: stderr.String()}
	}

	agent := newAgent(t, a2atest.WithCard(caoliaoCard()))
	wait := runBin("send", "--wait", agent.URL, "本月巡检记录")
	wait.wantCode(t, exitOK)
	golden(t, "send_wait", wait) // as run in process
	card := runBin("card", siteOfAgent(agent))
	card.wantCode(t, exitOK)
	if in := a2aCmd(t, "card", siteOfAgent(agent)); card.stdout != in.stdout || card.stderr != in.stderr {
		t.Errorf("the binary's card differs from run's:\n%s\nrun's:\n%s", card.transcript(), in.transcript())
	}
	runBin("frobnicate").wantCode(t, exitUsage)

	// Ctrl-C during a wait: exit 130, the task cancelled first.
	if runtime.GOOS == "windows" {
		return // no os.Interrupt to send
	}
	// once starts a2a with args, waits until agent has been polled, sends
	// sig and returns the exit code and stderr.
	once := func(agent *a2atest.Server, sig os.Signal, args ...string) (int, string) {
		cmd, _, stderr := a2aBin(args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for !slices.Contains(methods(agent), "tasks/get") {
			select {
			case err := <-exited:
				t.Fatalf("a2a %s ended before it polled: exit %d\n%s", args[0], exitCode(err), stderr)
			case <-tick.C:
			}
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		return exitCode(<-exited), stderr.String()
	}
	// fake-agent: the line it prints on stdout once it serves reaches a
	// pipe at once (not held in a buffer), and names an agent that
	// answers.
	fake, _, fakeErr := a2aBin("fake-agent", "--version", "1.0")
	fake.Stdout = nil
	pipe, err := fake.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := fake.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(pipe).ReadString('\n')
	m := readyLine.FindStringSubmatch(line)
	if m == nil {
		fake.Process.Kill()
		fake.Wait()
		t.Fatalf("fake-agent's first line on stdout is %q (%v), want the ready line\n%s", line, err, fakeErr)
	}
	send := runBin("send", "--wait", m[1], "本月巡检记录")
	send.wantCode(t, exitOK)
	if want := ": completed\n"; !strings.Contains(send.stdout, want) {
		t.Errorf("send to the fake's ready line URL:\n%s", send.transcript())
	}
	if err := fake.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	fake.Wait()

	slow := workingAgent(t)
	id := startTask(t, slow, a2a.ProtocolV03, "盘点")
	code, stderr := once(slow, os.Interrupt, "wait", "--protocol", "0.3", "--cancel-on-interrupt", slow.URL, id)
	if code != exitSignal {
		t.Errorf("Ctrl-C: exit %d, want %d\n%s", code, exitSignal, stderr)
	}
	if !slices.Contains(methods(slow), "tasks/cancel") {
		t.Errorf("Ctrl-C with --cancel-on-interrupt sent no tasks/cancel: %q", methods(slow))
	}
	if want := "a2a wait: task " + id + " is canceled\n"; !strings.Contains(stderr, want) {
		t.Errorf("stderr does not hold %q:\n%s", want, stderr)
	}

	// SIGTERM (kill, a container's stop) and SIGHUP (a closed terminal)
	// during send --wait stop it as Ctrl-C does: the id, the context and
	// the resume line are printed; the exit code is 128 + the signal.
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		slow := workingAgent(t)
		code, stderr := once(slow, sig, "send", "--wait", "--protocol", "0.3", slow.URL, "盘点")
		if want := 128 + int(sig); code != want {
			t.Errorf("%v: exit %d, want %d\n%s", sig, code, want, stderr)
		}
		var get struct {
			Params struct{ ID string }
		}
		for _, r := range slow.Requests() {
			if r.Method == "tasks/get" {
				if err := json.Unmarshal(r.Body, &get); err != nil {
					t.Fatal(err)
				}
			}
		}
		if want := "a2a wait --protocol 0.3 " + slow.URL + " " + get.Params.ID + "\n"; get.Params.ID == "" || !strings.Contains(stderr, want) {
			t.Errorf("%v: stderr does not hold the resume line %q:\n%s", sig, want, stderr)
		}
	}
}
