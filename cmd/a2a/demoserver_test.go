package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// "a2a demo-server", and the commands it suggests run against it.

// syncBuffer is a bytes.Buffer a command writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// readyLine is the line demo-server prints on stdout once it serves:
// its card's URL as A2ACLI_AGENT_CARD, and its first endpoint.
var readyLine = regexp.MustCompile(`^A2ACLI_AGENT_CARD=(\S+) A2A_DEMO_SERVER_URL=(\S+)( A2ACLI_A2A_VERSION=0\.3)?\n$`)

// startDemoServer runs "a2a demo-server args..." until the test ends
// (its Ctrl-C), and returns its card URL and endpoint, read from the
// line it prints on stdout once it serves, and a func that stops it and
// returns how it ended.
func startDemoServer(t *testing.T, args ...string) (card, endpoint string, stop func() result) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	args = append([]string{"demo-server"}, args...)
	getenv := hermetic(t, nil)
	go func() {
		done <- run(ctx, args, env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: getenv})
	}()
	stop = func() result {
		cancel()
		return result{args: args, code: <-done, stdout: stdout.String(), stderr: stderr.String()}
	}
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for !strings.HasSuffix(stdout.String(), "\n") {
		select {
		case <-tick.C:
		case code := <-done:
			done <- code
			r := stop()
			t.Fatalf("a2a demo-server ended at once: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}
	m := readyLine.FindStringSubmatch(stdout.String())
	if m == nil {
		stop()
		t.Fatalf("a2a demo-server printed no ready line on stdout:\n%s", stdout.String())
	}
	return m[1], m[2], stop
}

// shell is results as a terminal shows them: each command and its
// output (stdout and stderr in the order written), then "echo $?" and the
// last one's exit code, and every other one's when it is not 0.
func shell(results ...result) string {
	var b strings.Builder
	for i, r := range results {
		words := make([]string, len(r.args))
		for i, a := range r.args {
			words[i] = quote(a)
		}
		b.WriteString("$ a2a " + strings.Join(words, " ") + "\n" + r.output)
		if r.code != exitOK || i == len(results)-1 {
			b.WriteString("$ echo $?\n" + strconv.Itoa(r.code) + "\n")
		}
	}
	return stable(b.String())
}

// TestDemoServer runs the offline agent "a2a demo-server" serves and the
// commands it suggests: testdata/readme.txt is the transcript docs/cli.md
// shows, testdata/demo_server.txt what demo-server prints.
func TestDemoServer(t *testing.T) {
	t.Parallel()
	card, endpoint, stop := startDemoServer(t)
	if !strings.HasSuffix(endpoint, "/a2a/jsonrpc") || card != siteOf(endpoint)+a2a.AgentCardPath {
		t.Errorf("ready line: card %s, endpoint %s", card, endpoint)
	}
	site := siteOf(endpoint)
	get := a2aCmd(t, "card", "get", "-a", site)
	get.wantCode(t, exitOK)
	records := a2aCmd(t, "send", "-a", site, "本月巡检记录")
	records.wantCode(t, exitOK)
	ask := a2aCmd(t, "send", "-a", site, "查一台设备")
	ask.wantCode(t, exitOK) // the spec's exit code: the command did its job
	demo := stop()
	demo.wantCode(t, exitOK)
	golden(t, "demo_server", demo)
	goldenText(t, "readme", shell(get, records, ask))
	if !strings.Contains(get.stdout, "Interface: "+endpoint+" JSONRPC 1.0 (chosen)\n") {
		t.Errorf("demo-server does not speak A2A v1.0 by default:\n%s", get.stdout)
	}

	// The card the ready line names, from the environment as a script
	// that exports the line reads it.
	card, _, stop = startDemoServer(t, "--a2a-version", "0.3")
	r := invocation{env: map[string]string{"A2ACLI_AGENT_CARD": card, "A2ACLI_A2A_VERSION": "0.3"}}.run(t, "send", "这个二维码是什么？"+a2atest.SeedQRCode)
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "Status: completed\n") {
		t.Errorf("send to the v0.3 demo-server:\n%s", r.transcript())
	}
	stop().wantCode(t, exitOK)

	for _, bad := range [][]string{{"--a2a-version", "2"}, {"--protocol", "1.0"}, {"--transport", "grpc-web"}} {
		r := a2aCmd(t, append([]string{"demo-server"}, bad...)...)
		r.wantCode(t, exitUsage)
		if r.stdout != "" {
			t.Errorf("a2a demo-server %s printed on stdout:\n%s", strings.Join(bad, " "), r.stdout)
		}
	}
}

// TestDemoServerTransport: demo-server serves the bindings --transport
// names, in that order on its card.
func TestDemoServerTransport(t *testing.T) {
	t.Parallel()
	_, endpoint, stop := startDemoServer(t, "--transport", "http+json,jsonrpc")
	if !strings.HasSuffix(endpoint, "/a2a/rest") {
		t.Errorf("first endpoint %s, want the HTTP+JSON one", endpoint)
	}
	card := a2aCmd(t, "card", "get", "-a", siteOf(endpoint))
	card.wantCode(t, exitOK)
	for _, want := range []string{"Interface: " + endpoint + " HTTP+JSON 1.0 (chosen)\n", "Interface: " + strings.TrimSuffix(endpoint, "/rest") + "/jsonrpc JSONRPC 1.0\n"} {
		if !strings.Contains(card.stdout, want) {
			t.Errorf("card does not list %q:\n%s", want, card.stdout)
		}
	}
	send := a2aCmd(t, "send", "--debug", "-a", endpoint, "本月巡检记录")
	send.wantCode(t, exitOK)
	if want := "a2a: protocol: v1.0 over HTTP+JSON, the card's interface for " + endpoint + "\n"; !strings.Contains(send.stderr, want) {
		t.Errorf("--debug does not say %q:\n%s", want, send.stderr)
	}
	demo := stop()
	demo.wantCode(t, exitOK)
	for _, want := range []string{"An offline A2A v1.0 agent", "  endpoint: " + endpoint + " (HTTP+JSON)\n", "/a2a/jsonrpc (JSONRPC)\n"} {
		if !strings.Contains(demo.stderr, want) {
			t.Errorf("demo-server does not print %q on stderr:\n%s", want, demo.stderr)
		}
	}
}

// TestDemoServerCard: the card at the URL of the ready line is the
// Caoliao-style one, skills included, in both versions.
func TestDemoServerCard(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"0.3", "1.0"} {
		cardURL, _, stop := startDemoServer(t, "--a2a-version", version)
		resp, err := http.Get(cardURL)
		if err != nil {
			t.Fatal(err)
		}
		var card struct {
			Name   string
			Skills []struct{ ID string }
		}
		err = json.NewDecoder(resp.Body).Decode(&card)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("v%s card: %v", version, err)
		}
		var ids []string
		for _, sk := range card.Skills {
			ids = append(ids, sk.ID)
		}
		if card.Name != "草料二维码 (offline fake)" || strings.Join(ids, ",") != "entity,records" {
			t.Errorf("v%s card: name %q, skills %q; want the Caoliao-style card with skills entity, records", version, card.Name, ids)
		}
		stop().wantCode(t, exitOK)
	}
	http.DefaultClient.CloseIdleConnections()
}

// TestDemoServerPush: a push config created on a task of the demo agent
// receives the task's next states as its timer moves it, with nobody
// polling: the notifications carry the task to completed.
func TestDemoServerPush(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ version, completed string }{{"0.3", `"state":"completed"`}, {"1.0", `"state":"TASK_STATE_COMPLETED"`}} {
		t.Run(c.version, func(t *testing.T) {
			t.Parallel()
			bodies := make(chan string, 16)
			hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				bodies <- string(b)
			}))
			defer hook.Close()
			// The task takes 3 steps of 3s to complete: time enough to
			// create the config after the send answers, even on a loaded
			// machine.
			card, _, stop := startDemoServer(t, "--a2a-version", c.version, "--step", "3s")
			flags := []string{"-a", card, "--a2a-version", c.version}
			send := a2aCmd(t, append([]string{"send", "--async", "本月巡检记录"}, flags...)...)
			m := regexp.MustCompile(`^Task: (\S+)\n`).FindStringSubmatch(send.stdout)
			if m == nil {
				stop()
				t.Fatalf("send:\n%s", send.transcript())
			}
			set := a2aCmd(t, append([]string{"task", "push-config", "create", m[1], hook.URL + "/hook"}, flags...)...)
			set.wantCode(t, exitOK)
			for done := false; !done; {
				select {
				case b := <-bodies:
					done = strings.Contains(b, c.completed)
				case <-time.After(2 * time.Minute): // a guard against a hang, not a measure
					stop()
					t.Fatal("no notification of the task completed")
				}
			}
			stop().wantCode(t, exitOK)
		})
	}
}

// TestDemoServerAddr: demo-server listens where --addr says, and refuses
// an address other than loopback unless --allow-non-loopback is given.
func TestDemoServerAddr(t *testing.T) {
	t.Parallel()
	_, endpoint, stop := startDemoServer(t, "--addr", "localhost:0")
	if !strings.HasPrefix(endpoint, "http://127.0.0.1:") {
		t.Errorf("--addr localhost:0: endpoint %s, want one on 127.0.0.1", endpoint)
	}
	a2aCmd(t, "card", "get", "-a", siteOf(endpoint)).wantCode(t, exitOK)
	stop().wantCode(t, exitOK)

	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:8080", "example.com:80"} {
		bad := a2aCmd(t, "demo-server", "--addr", addr)
		bad.wantCode(t, exitUsage)
		if want := "a2a demo-server: A2ACLI_ERR_USAGE: --addr " + addr + " is not a loopback address: the fake agent has no authentication and answers anyone who reaches it; add --allow-non-loopback to serve there anyway\nhint: a2a demo-server --help\n"; bad.stderr != want {
			t.Errorf("stderr %q, want %q", bad.stderr, want)
		}
	}
	bad := a2aCmd(t, "demo-server", "--addr", "8080")
	bad.wantCode(t, exitUsage)
	bad = a2aCmd(t, "demo-server", "--step", "-1s")
	bad.wantCode(t, exitUsage)
}
