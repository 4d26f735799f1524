package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The built a2a command (cmd/a2a) the CLI tests run as a subprocess: built
// once per test process, from the root module this module replaces, into
// a temporary directory removed by TestMain.
var cliBuild struct {
	once sync.Once
	dir  string // the temporary directory holding the binary
	bin  string // the binary's path, "" when the build failed
	err  error  // why the build failed
}

// cliBinary returns the path of the a2a command, built on first use (with
// a 2-minute deadline). It skips the test when no go command is on PATH
// (fails under CI) and fails it when the build fails.
func cliBinary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		needOrSkip(t, "no go command on PATH to build a2a with")
	}
	cliBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "a2a-cli-interop-")
		if err != nil {
			cliBuild.err = err
			return
		}
		cliBuild.dir = dir
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		bin := filepath.Join(dir, "a2a")
		out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/caoliao-a2a/a2a-go/cmd/a2a").CombinedOutput()
		if err != nil {
			cliBuild.err = errors.New("go build: " + err.Error() + "\n" + string(out))
			return
		}
		cliBuild.bin = bin
	})
	if cliBuild.err != nil {
		t.Fatal(cliBuild.err)
	}
	return cliBuild.bin
}

// removeCLIBuild deletes the built binary's directory (TestMain, after
// every test ran).
func removeCLIBuild() {
	if cliBuild.dir != "" {
		os.RemoveAll(cliBuild.dir)
	}
}

// cliEnv is a hermetic environment for the a2a command: PATH, a HOME and
// XDG_CONFIG_HOME of their own (so no global .env and no token store of
// the machine's is read), then extra ("A2ACLI_AGENT_CARD=…"). No A2ACLI_*
// variable of the machine's gets through.
func cliEnv(t *testing.T, extra ...string) []string {
	home := t.TempDir()
	return append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}, extra...)
}

// cliResult is how a run of the a2a command ended.
type cliResult struct {
	stdout, stderr string
	code           int // the exit code; -1 when it was killed
}

// runCLI runs the a2a command bin with args in env, in an empty working
// directory (no .env above it but the machine's /tmp), with stdin empty,
// and returns its output and exit code. The run is bounded by testCtx: a
// command still running then is killed and the test fails.
func runCLI(t *testing.T, bin string, env []string, args ...string) cliResult {
	t.Helper()
	ctx := testCtx(t)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env, cmd.Dir, cmd.WaitDelay = env, t.TempDir(), 5*time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := cliResult{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("a2a %s: still running at the test's deadline (killed)\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), &stdout, &stderr)
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("a2a %s: %v", strings.Join(args, " "), err)
	}
	return res
}

// wantExit fails the test unless the run ended with code.
func (r cliResult) wantExit(t *testing.T, code int, args ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("a2a %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), r.code, code, r.stdout, r.stderr)
	}
}

// inOrder fails the test unless s holds each of want, in order.
func inOrder(t *testing.T, what, s string, want ...string) {
	t.Helper()
	rest := s
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("%s does not hold %q after what came before:\n%s", what, w, s)
		}
		rest = rest[i+len(w):]
	}
}

// errorEnvelope is the -o json error document (contract: "Errors").
type errorEnvelope struct {
	Error struct {
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Hint    *string         `json:"hint"`
		A2ACode json.RawMessage `json:"a2aCode"`
	} `json:"error"`
}

// oneDocument decodes stdout as exactly one JSON document (nothing but
// white space after it) into v.
func oneDocument(t *testing.T, stdout string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("stdout is not a JSON document: %v\n%s", err, stdout)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("stdout holds more than one JSON document (%v):\n%s", err, stdout)
	}
}

// wantEnvelope checks a failed -o json run: stdout is exactly one error
// envelope with code and a2aCode (the JSON-RPC number; nil: null, an
// error of the CLI's own), and stderr holds the text line
// "a2a <cmd>: <code>: ".
func wantEnvelope(t *testing.T, r cliResult, cmd, code string, a2aCode any) {
	t.Helper()
	var env errorEnvelope
	oneDocument(t, r.stdout, &env)
	if env.Error.Code != code {
		t.Errorf("a2a %s: error code %q, want %q\nstdout: %s\nstderr: %s", cmd, env.Error.Code, code, r.stdout, r.stderr)
	}
	if got := strings.TrimSpace(string(env.Error.A2ACode)); got != strings.TrimSpace(mustJSON(a2aCode)) {
		t.Errorf("a2a %s: a2aCode %s, want %s", cmd, got, mustJSON(a2aCode))
	}
	if env.Error.Message == "" {
		t.Errorf("a2a %s: the envelope has no message: %s", cmd, r.stdout)
	}
	if want := "a2a " + cmd + ": " + code + ": "; !strings.Contains(r.stderr, want) {
		t.Errorf("a2a %s: stderr does not hold %q:\n%s", cmd, want, r.stderr)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// compact is b compacted, or the test fails when b is not JSON.
func compact(t *testing.T, b []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, bytes.TrimSpace(b)); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return out.String()
}

// rawRPC posts one JSON-RPC request (method, params) to endpoint with the
// headers given (key, value, …) and returns its result's bytes as the
// peer sent them: the peer's own JSON, for comparing with what the CLI
// prints.
func rawRPC(t *testing.T, endpoint, method string, params any, header ...string) []byte {
	t.Helper()
	body := mustJSON(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, err := http.NewRequestWithContext(testCtx(t), http.MethodPost, endpoint, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Close = true // no idle connection outlives the test
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&reply); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	if reply.Result == nil {
		t.Fatalf("%s: no result: %s", method, reply.Error)
	}
	return reply.Result
}

// httpGet returns the body of a GET of url (at most 1 MiB).
func httpGet(t *testing.T, url string) []byte {
	t.Helper()
	req, err := http.NewRequestWithContext(testCtx(t), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Close = true
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return b
}

// demoServer is a running "a2a demo-server" subprocess.
type demoServer struct {
	card     string // A2ACLI_AGENT_CARD of its ready line
	endpoint string // A2A_DEMO_SERVER_URL of its ready line
}

// startDemoServer runs "a2a demo-server --addr 127.0.0.1:0 args…" and
// reads its ready line "A2ACLI_AGENT_CARD=… A2A_DEMO_SERVER_URL=…" from
// stdout (within 30 s). It is stopped (SIGINT, then killed after 5 s) when
// the test ends.
func startDemoServer(t *testing.T, bin string, args ...string) *demoServer {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"demo-server", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Env, cmd.Dir = cliEnv(t), t.TempDir()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	first := make(chan string, 1)
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() { // the first line, then drain until it exits
			select {
			case first <- sc.Text():
			default:
			}
		}
		close(first)
	}()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
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
			t.Logf("demo-server stderr:\n%s", stderr.String())
		}
	})
	timer := time.NewTimer(30 * time.Second)
	defer timer.Stop()
	select {
	case line, ok := <-first:
		d := &demoServer{}
		for f := range strings.FieldsSeq(line) {
			if v, ok := strings.CutPrefix(f, "A2ACLI_AGENT_CARD="); ok {
				d.card = v
			}
			if v, ok := strings.CutPrefix(f, "A2A_DEMO_SERVER_URL="); ok {
				d.endpoint = v
			}
		}
		if !ok || d.card == "" || d.endpoint == "" {
			t.Fatalf("demo-server's first line is %q, want A2ACLI_AGENT_CARD=… A2A_DEMO_SERVER_URL=…; stderr:\n%s", line, stderr.String())
		}
		return d
	case <-timer.C:
		t.Fatalf("demo-server printed no ready line within 30s; stderr:\n%s", stderr.String())
	}
	return nil
}
