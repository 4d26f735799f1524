package interop

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// needOrSkip skips the test with why, or fails it under CI, where every
// peer must run.
func needOrSkip(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI: %s", why)
	}
	t.Skip(why)
}

// lockedBuffer collects the peer's stderr for failure reports.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startJSPeer starts js/server.js (@a2a-js/sdk) on a free loopback port,
// waits until it listens, and stops it when the test ends. It returns the
// JSON-RPC endpoint.
func startJSPeer(t *testing.T) (base string) {
	t.Helper()
	return startNodePeer(t, "server.js", filepath.Join("@a2a-js", "sdk"))
}

// startNodePeer starts the peer script under js/, which needs the npm
// package pkg (a path under node_modules), with env added to the
// environment, on a free loopback port; it waits until the script prints
// "LISTENING <port>", and stops it when the test ends. It returns the
// peer's base URL.
func startNodePeer(t *testing.T, script, pkg string, env ...string) (base string) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		needOrSkip(t, "node is not installed; the JavaScript peer needs Node 20")
	}
	if _, err := os.Stat(filepath.Join("js", "node_modules", pkg)); err != nil {
		needOrSkip(t, "the JavaScript peer is not installed: run (cd interop/js && npm ci)")
	}
	cmd := exec.Command("node", script)
	cmd.Dir = "js"
	cmd.Env = append(append(os.Environ(), "PORT=0"), env...)
	stdin, err := cmd.StdinPipe() // the peer exits when this closes
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		cmd.Process.Signal(syscall.SIGTERM)
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		<-readDone
		if t.Failed() {
			t.Logf("peer stderr:\n%s", stderr.String())
		}
	})
	select {
	case line := <-lines:
		port, ok := strings.CutPrefix(line, "LISTENING ")
		if !ok {
			t.Fatalf("peer printed %q, want LISTENING <port>", line)
		}
		return "http://127.0.0.1:" + port
	case <-time.After(30 * time.Second):
		t.Fatalf("the JavaScript peer did not start within 30s; stderr:\n%s", stderr.String())
	}
	return ""
}

// TestJSPeer runs the scenario matrix against @a2a-js/sdk (0.3.x, pinned in
// js/package-lock.json) serving JSON-RPC through express.
func TestJSPeer(t *testing.T) {
	base := startJSPeer(t)
	runMatrix(t, base+"/a2a/jsonrpc")
	runSurface(t, base, "Interop Peer (JS, extended)")
}
