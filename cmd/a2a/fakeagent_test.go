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
)

// "a2a fake-agent", and the commands it suggests run against it.

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

// startFakeAgent runs "a2a fake-agent args..." until the test ends (its
// Ctrl-C), and returns its endpoint, read from the line it prints on
// stdout once it serves, and a func that stops it and returns how it
// ended.
func startFakeAgent(t *testing.T, args ...string) (endpoint string, stop func() result) {
	t.Helper()
	endpoint, _, stop = startFakeAgentCard(t, args...)
	return endpoint, stop
}

// readyLine is the line fake-agent prints on stdout once it serves.
var readyLine = regexp.MustCompile(`^A2A_FAKE_AGENT_URL=(\S+) A2A_FAKE_AGENT_CARD_URL=(\S+)\n$`)

// startFakeAgentCard is startFakeAgent that also returns the card URL
// the ready line names.
func startFakeAgentCard(t *testing.T, args ...string) (endpoint, card string, stop func() result) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	args = append([]string{"fake-agent"}, args...)
	go func() {
		done <- run(ctx, args, env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }})
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
			t.Fatalf("a2a fake-agent ended at once: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
	}
	m := readyLine.FindStringSubmatch(stdout.String())
	if m == nil {
		stop()
		t.Fatalf("a2a fake-agent printed no ready line on stdout:\n%s", stdout.String())
	}
	return m[1], m[2], stop
}

// shell is results as a terminal shows them: each command, its output
// (stderr after stdout) and, when it is not 0, its exit code.
func shell(results ...result) string {
	var b strings.Builder
	for _, r := range results {
		words := make([]string, len(r.args))
		for i, a := range r.args {
			words[i] = quote(a)
		}
		b.WriteString("$ a2a " + strings.Join(words, " ") + "\n" + r.stdout + r.stderr)
		if r.code != exitOK {
			b.WriteString("$ echo $?\n" + strconv.Itoa(r.code) + "\n")
		}
	}
	return stable(b.String())
}

// TestFakeAgent runs the offline agent "a2a fake-agent" serves and the
// commands it suggests: testdata/readme.txt is the transcript docs/cli.md
// shows.
func TestFakeAgent(t *testing.T) {
	t.Parallel()
	endpoint, stop := startFakeAgent(t)
	site := strings.TrimSuffix(endpoint, "/a2a/jsonrpc")
	card := a2aCmd(t, "card", site)
	card.wantCode(t, exitOK)
	wait := a2aCmd(t, "send", "--wait", endpoint, "本月巡检记录")
	wait.wantCode(t, exitOK)
	ask := a2aCmd(t, "send", endpoint, "查一台设备")
	ask.wantCode(t, exitInterrupted)
	fake := stop()
	fake.wantCode(t, exitOK)
	golden(t, "fake_agent", fake)
	goldenText(t, "readme", shell(card, wait, ask))

	endpoint, stop = startFakeAgent(t, "--version", "1.0")
	r := a2aCmd(t, "tasks", endpoint)
	r.wantCode(t, exitOK)
	stop().wantCode(t, exitOK)

	bad := a2aCmd(t, "fake-agent", "--version", "2")
	bad.wantCode(t, exitUsage)
}

// TestFakeAgentTransport: fake-agent serves the transports --transport
// names, in that order on its card, and the version --protocol names
// when --version is not given; the two contradicting each other is a
// usage error.
func TestFakeAgentTransport(t *testing.T) {
	t.Parallel()
	endpoint, stop := startFakeAgent(t, "--transport", "http+json,jsonrpc", "--protocol", "1.0")
	if !strings.HasSuffix(endpoint, "/a2a/rest") {
		t.Errorf("first endpoint %s, want the HTTP+JSON one", endpoint)
	}
	card := a2aCmd(t, "card", siteOf(endpoint))
	card.wantCode(t, exitOK)
	for _, want := range []string{"   * " + endpoint + "  HTTP+JSON 1.0\n", "     " + strings.TrimSuffix(endpoint, "/rest") + "/jsonrpc  JSONRPC 1.0\n"} {
		if !strings.Contains(card.stdout, want) {
			t.Errorf("card does not list %q:\n%s", want, card.stdout)
		}
	}
	send := a2aCmd(t, "send", "--wait", "-v", endpoint, "本月巡检记录")
	send.wantCode(t, exitOK)
	if want := "a2a: protocol: v1.0, from the card's interface for " + endpoint + " (HTTP+JSON)\n"; !strings.Contains(send.stderr, want) {
		t.Errorf("-v does not say %q:\n%s", want, send.stderr)
	}
	fake := stop()
	fake.wantCode(t, exitOK)
	for _, want := range []string{"An offline A2A v1.0 agent", "  endpoint: " + endpoint + " (HTTP+JSON)\n", "/a2a/jsonrpc (JSONRPC)\n"} {
		if !strings.Contains(fake.stderr, want) {
			t.Errorf("fake-agent does not print %q on stderr:\n%s", want, fake.stderr)
		}
	}

	// Refused before it serves: with a context already done, an agent
	// that served would stop at once, with exit 0.
	done, cancel := context.WithCancel(t.Context())
	cancel()
	bad := invocation{ctx: done}.run(t, "fake-agent", "--protocol", "1.0", "--version", "0.3")
	bad.wantCode(t, exitUsage)
	if want := "a2a fake-agent: --protocol 1.0 and --version 0.3 disagree: give one\n"; bad.stderr != want {
		t.Errorf("stderr %q, want %q", bad.stderr, want)
	}
}

// TestFakeAgentCard: the card at the URL of the ready line is the
// Caoliao-style one, skills included, in both versions.
func TestFakeAgentCard(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"0.3", "1.0"} {
		_, cardURL, stop := startFakeAgentCard(t, "--version", version)
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

// TestFakeAgentPush: a push config set on a task of the fake agent
// receives the task's next states as its timer moves it, with nobody
// polling: the notifications carry the task to completed.
func TestFakeAgentPush(t *testing.T) {
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
			// set the webhook after the send answers, even on a loaded
			// machine.
			endpoint, stop := startFakeAgent(t, "--version", c.version, "--step", "3s")
			send := a2aCmd(t, "send", endpoint, "本月巡检记录")
			m := regexp.MustCompile(`^task (\S+): submitted\n`).FindStringSubmatch(send.stdout)
			if m == nil {
				stop()
				t.Fatalf("send:\n%s", send.transcript())
			}
			set := a2aCmd(t, "push", "set", endpoint, m[1], hook.URL+"/hook")
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

// TestFakeAgentAddr: fake-agent listens where --addr says, and refuses
// an address other than loopback unless --allow-non-loopback is given.
func TestFakeAgentAddr(t *testing.T) {
	t.Parallel()
	endpoint, stop := startFakeAgent(t, "--addr", "localhost:0")
	if !strings.HasPrefix(endpoint, "http://127.0.0.1:") {
		t.Errorf("--addr localhost:0: endpoint %s, want one on 127.0.0.1", endpoint)
	}
	a2aCmd(t, "card", siteOf(endpoint)).wantCode(t, exitOK)
	stop().wantCode(t, exitOK)

	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:8080", "example.com:80"} {
		bad := a2aCmd(t, "fake-agent", "--addr", addr)
		bad.wantCode(t, exitUsage)
		if want := "a2a fake-agent: --addr " + addr + " is not a loopback address: the fake agent has no authentication and answers anyone who reaches it; add --allow-non-loopback to serve there anyway\n"; bad.stderr != want {
			t.Errorf("stderr %q, want %q", bad.stderr, want)
		}
	}
	bad := a2aCmd(t, "fake-agent", "--addr", "8080")
	bad.wantCode(t, exitUsage)
	bad = a2aCmd(t, "fake-agent", "--step", "-1s")
	bad.wantCode(t, exitUsage)
}
