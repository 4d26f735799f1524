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
	// a2a runs with no A2ACLI_* variable of the machine's, in an empty
	// directory, with a HOME and XDG_CONFIG_HOME of its own: no .env file
	// or kept token of the developer's is read.
	home, work := t.TempDir(), t.TempDir()
	a2aBin := func(args ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
		cmd := exec.Command(bin, args...)
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
		cmd.Dir = work
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

	// The binary prints what run prints, and exits as it does: each
	// against an agent of its own, so that the task ids are the same.
	binAgent, runAgent := demoAgent(t, a2a.ProtocolV10), demoAgent(t, a2a.ProtocolV10)
	for _, args := range []func(site string) []string{
		func(site string) []string { return []string{"card", "get", "-a", site} },
		func(site string) []string { return []string{"send", "-a", site, "本月巡检记录"} },
		func(site string) []string {
			return []string{"send", "-a", site, "--stream", "-o", "json", "本月巡检记录"}
		},
		func(site string) []string { return []string{"send", "-a", site, "查一台设备"} },
		func(site string) []string { return []string{"task", "get", "-a", site, "-o", "json", "no-such-task"} },
		func(site string) []string { return []string{"task", "get", "-a", site, "task-3", "--task-exit-codes"} },
		func(string) []string { return []string{"frobnicate"} },
		func(string) []string { return []string{"--help"} },
	} {
		bin, in := runBin(args(siteOfAgent(binAgent))...), a2aCmd(t, args(siteOfAgent(runAgent))...)
		if got, want := bin.transcript(), in.transcript(); got != want {
			t.Errorf("the binary's transcript differs from run's:\n%s\nrun's:\n%s", got, want)
		}
	}
	runBin("frobnicate").wantCode(t, exitUsage)
	// The output is text, with no control sequence: stderr is no terminal.
	if r := runBin("send", "-a", siteOfAgent(binAgent), "本月巡检记录"); strings.Contains(r.stdout+r.stderr, "\x1b") {
		t.Errorf("a control sequence in the output of a command not run on a terminal:\n%q", r.stdout+r.stderr)
	}

	// Ctrl-C during a wait: exit 130, the task cancelled first.
	if runtime.GOOS == "windows" {
		return // no os.Interrupt to send
	}
	// once starts a2a with args, waits until agent has been polled, sends
	// sig and returns the exit code, stdout and stderr.
	once := func(agent *a2atest.Server, sig os.Signal, args ...string) (int, string, string) {
		cmd, stdout, stderr := a2aBin(args...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for !slices.Contains(methods(agent), "tasks/get") && !slices.Contains(methods(agent), "GetTask") {
			select {
			case err := <-exited:
				t.Fatalf("a2a %s ended before it polled: exit %d\n%s", strings.Join(args, " "), exitCode(err), stderr)
			case <-tick.C:
			}
		}
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		return exitCode(<-exited), stdout.String(), stderr.String()
	}
	// demo-server: the line it prints on stdout once it serves reaches a
	// pipe at once (not held in a buffer), and names an agent that
	// answers, through the variable it names.
	fake, _, fakeErr := a2aBin("demo-server")
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
		t.Fatalf("demo-server's first line on stdout is %q (%v), want the ready line\n%s", line, err, fakeErr)
	}
	sendCmd, sendOut, sendErr := a2aBin("send", "本月巡检记录")
	sendCmd.Env = append(sendCmd.Env, strings.Fields(line)...) // export $line
	if code := exitCode(sendCmd.Run()); code != exitOK || !strings.Contains(sendOut.String(), "\nStatus: completed\n") {
		t.Errorf("send to the demo-server the ready line names: exit %d\n%s%s", code, sendOut, sendErr)
	}
	if err := fake.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	fake.Wait()

	slow := workingAgent(t, a2atest.V10(), a2atest.WithCard(demoCard()))
	id := startTask(t, slow, a2a.ProtocolV10, "盘点")
	code, _, stderr := once(slow, os.Interrupt, "task", "get", "--wait", "--poll-interval", "10ms", "-a", siteOfAgent(slow), "--cancel-on-interrupt", id)
	if code != exitSignal {
		t.Errorf("Ctrl-C: exit %d, want %d\n%s", code, exitSignal, stderr)
	}
	if !slices.Contains(methods(slow), "CancelTask") {
		t.Errorf("Ctrl-C with --cancel-on-interrupt sent no CancelTask: %q", methods(slow))
	}
	if want := "a2a task get: task " + id + " is canceled\n"; !strings.Contains(stderr, want) {
		t.Errorf("stderr does not hold %q:\n%s", want, stderr)
	}

	// SIGTERM (kill, a container's stop) and SIGHUP (a closed terminal)
	// during a send's wait stop it as Ctrl-C does: the id, the context and
	// the resume line are printed; the exit code is 128 + the signal.
	noStream := demoCard()
	noStream.Capabilities.Streaming = false // the send polls
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		slow := workingAgent(t, a2atest.WithCard(noStream))
		code, stdout, stderr := once(slow, sig, "send", "-a", siteOfAgent(slow), "--a2a-version", "0.3", "--poll-interval", "10ms", "盘点")
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
		want := "Task: " + get.Params.ID + "\nContext: ctx-1\nStatus: working\nResume: a2a task get --wait -a " + siteOfAgent(slow) + " --a2a-version 0.3 " + get.Params.ID + "\n"
		if get.Params.ID == "" || !strings.HasSuffix(stdout, want) {
			t.Errorf("%v: stdout does not end with the ids and the resume line %q:\n%s\nstderr:\n%s", sig, want, stdout, stderr)
		}
	}
}
