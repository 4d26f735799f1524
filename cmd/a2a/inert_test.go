package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// No control sequence from the network reaches the terminal (DESIGN.md
// behaviour 10; the A2A CLI specification's OUTPUT_005): every text an
// agent chooses (ids, states, names, card fields, URLs, error texts) is
// printed with its control characters (C0, DEL, C1), bidi and other
// format characters escaped, in text, -o json (and its error envelope),
// --verbose and --debug output, on stdout and stderr; an agent's text
// body keeps only its line breaks and tabs.

// hostile holds what a terminal acts on: a CSI that clears the screen, an
// OSC 8 hyperlink, BEL, the one-byte CSI (U+009B), a bidi override and an
// isolate, a zero-width space, a carriage return, a line break with a
// forged line after it, DEL and a byte that is not UTF-8.
const hostile = "h\x1b[2J\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07\u009b31m\u202egnp.exe\u2066\u200bx\r\nFORGED line\x7f\xff"

// hostileID is hostile as valid UTF-8, for an id the command is given
// and the agent echoes (the SDK reads a bad byte as U+FFFD).
const hostileID = "h\x1b[2J\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07\u009b31m\u202egnp.exe\u2066\u200bx\r\nFORGED line\x7f"

// rawControl returns the first character of s that would act on a
// terminal: a control character other than a line break or a tab, a
// format character (bidi, zero width), or a byte that is not UTF-8.
func rawControl(s string) (string, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return fmt.Sprintf("byte %#x at %d", s[i], i), true
		case r == '\n' || r == '\t':
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			return fmt.Sprintf("%U at %d", r, i), true
		}
	}
	return "", false
}

// wantInert fails the test when r's output holds a raw control character,
// or a line that the hostile text's line break forged.
func wantInert(t *testing.T, r result) {
	t.Helper()
	for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
		if what, ok := rawControl(out); ok {
			t.Errorf("a2a %s: %s holds %s:\n%q", strings.Join(r.args, " "), name, what, out)
		}
		// An agent's text body keeps its line breaks, each line after the
		// first indented under the field: never one that starts a line.
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "FORGED") {
				t.Errorf("a2a %s: %s has a line the agent forged:\n%q", strings.Join(r.args, " "), name, out)
			}
		}
	}
}

// js is s as a JSON string.
func js(s string) string {
	b, _ := json.Marshal(strings.ToValidUTF8(s, "\xff")) // \xff: kept as the agent's bad byte below
	return strings.ReplaceAll(string(b), `\ufffd`, "\xff")
}

// hostileTask is a v0.3 task whose every string is hostile text, in state.
func hostileTask(id, state string) string {
	h := js(hostile)
	return `{"kind":"task","id":` + js(id) + `,"contextId":` + h + `,"status":{"state":` + js(state) + `,"timestamp":` + h +
		`,"message":{"kind":"message","messageId":"m1","role":"agent","parts":[{"kind":"text","text":` + h + `}]}},` +
		`"artifacts":[{"artifactId":` + h + `,"name":` + h + `,"parts":[{"kind":"text","text":` + h + `},{"kind":"data","data":{"k":` + h + `}},` +
		`{"kind":"file","file":{"name":` + h + `,"mimeType":` + h + `,"uri":` + h + `}}]}]}`
}

func rpcResult(result string) a2atest.Raw {
	return a2atest.Raw{Status: 200, ContentType: "application/json", EchoID: true, Body: `{"jsonrpc":"2.0","id":{{id}},"result":` + result + `}`}
}

// TestHostileTextInert: every command, in every output mode (text, -o
// json, --verbose, --debug's wire dump), prints the agent's hostile text
// inert, on stdout and stderr, whether it succeeds or fails: the
// specification's OUTPUT_005 (the text floor carries no control sequence).
func TestHostileTextInert(t *testing.T) {
	t.Parallel()
	h := js(hostile)
	task := func(state string) a2atest.Raw { return rpcResult(hostileTask(hostileID, state)) }
	rpcErr := a2atest.Raw{Status: 200, ContentType: "application/json", EchoID: true, Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32001,"message":` + h + `,"data":` + h + `}}`}
	page := a2atest.Raw{Status: 200, ContentType: "text/html", Body: "<html>" + hostile + "</html>"}
	badHeader := a2atest.Raw{Status: 200, ContentType: "text/html\x1b[31m\u202e", Body: "<html>" + hostile + "</html>"} // a transport error quoting it
	gateway := a2atest.Raw{Status: 502, ContentType: "text/html", Body: "<html>" + hostile + "</html>"}
	config := `{"taskId":` + js(hostileID) + `,"pushNotificationConfig":{"id":` + h + `,"url":"https://hooks.example/` + strings.Trim(h, `"`) + `","authentication":{"schemes":[` + h + `]}}}`
	events := "data: " + `{"jsonrpc":"2.0","id":{{id}},"result":` + hostileTask(hostileID, "working") + "}\n\n" +
		"data: " + `{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"status-update","taskId":` + js(hostileID) + `,"contextId":` + h + `,"final":false,"status":{"state":` + h + `,"message":{"kind":"message","messageId":"m2","role":"agent","parts":[{"kind":"text","text":` + h + `}]}}}}` + "\n\n" +
		"data: " + `{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"artifact-update","taskId":` + js(hostileID) + `,"contextId":` + h + `,"artifact":{"artifactId":` + h + `,"name":` + h + `,"parts":[{"kind":"text","text":` + h + `}]}}}` + "\n\n"
	stream := a2atest.Raw{Status: 200, ContentType: "text/event-stream", EchoID: true, Body: events}
	v10Task := `{"id":` + h + `,"contextId":` + h + `,"status":{"state":"TASK_STATE_WORKING","message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":` + h + `}]}}}`
	list := rpcResult(`{"tasks":[` + v10Task + `],"nextPageToken":` + h + `,"pageSize":1,"totalSize":1}`)

	card := &a2a.AgentCard{
		Name: hostile, Description: hostile, Version: hostile, ProtocolVersion: "0.3.0", URL: "http://127.0.0.1:9/" + hostile,
		Provider:          &a2a.AgentProvider{Organization: hostile, URL: "https://p.example/" + hostile},
		DefaultInputModes: []string{hostile}, DefaultOutputModes: []string{hostile},
		Capabilities:         a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{URI: "urn:" + hostile, Required: true}}},
		Skills:               []a2a.AgentSkill{{ID: hostile, Name: hostile, Description: hostile, Examples: []string{hostile}}},
		SecuritySchemes:      map[string]a2a.SecurityScheme{hostile: {Type: "apiKey", Name: hostile, In: hostile}, "oidc": {Type: "openIdConnect", OpenIDConnectURL: "https://o.example/" + hostile}},
		AdditionalInterfaces: []a2a.AgentInterface{{URL: "http://127.0.0.1:9/" + hostile, Transport: hostile}},
	}

	// Each command speaks A2A v0.3 at the endpoint (-e, no card read), but
	// for task list (v1.0) and card get (the hostile card); "ID" is
	// hostileID. The exit codes are the specification's: the task's
	// outcome is 0 (named on stderr).
	for _, tc := range []struct {
		name  string
		queue []a2atest.Raw
		args  []string
		code  int
	}{
		{name: "send --async, unknown state", queue: []a2atest.Raw{task(hostile)}, args: []string{"send", "--async", "你好"}, code: exitOK},
		{name: "send, input-required", queue: []a2atest.Raw{task("input-required")}, args: []string{"send", "你好"}, code: exitOK},
		{name: "send, failed", queue: []a2atest.Raw{task("failed")}, args: []string{"send", "你好"}, code: exitOK},
		{name: "send, completed", queue: []a2atest.Raw{task("completed")}, args: []string{"send", "你好"}, code: exitOK},
		{name: "send, a message", queue: []a2atest.Raw{rpcResult(`{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":` + h + `},{"kind":"data","data":{"k":` + h + `}}]}`)}, args: []string{"send", "你好"}, code: exitOK},
		{name: "send, --timeout in the wait", queue: []a2atest.Raw{task("working"), task("working")}, args: []string{"send", "--timeout", "300ms", "--poll-interval", "1h", "你好"}, code: exitTimeout},
		{name: "send, JSON-RPC error", queue: []a2atest.Raw{rpcErr}, args: []string{"send", "你好"}, code: exitError},
		{name: "send, HTML on a 200", queue: []a2atest.Raw{page}, args: []string{"send", "你好"}, code: exitError},
		{name: "send, a header with controls", queue: []a2atest.Raw{badHeader}, args: []string{"send", "你好"}, code: exitUnreachable},
		{name: "task get, HTML on a 502", queue: []a2atest.Raw{gateway}, args: []string{"task", "get", "--retries", "0", "ID"}, code: exitUnreachable},
		{name: "task get", queue: []a2atest.Raw{task("working")}, args: []string{"task", "get", "ID"}, code: exitOK},
		{name: "task cancel", queue: []a2atest.Raw{task("canceled")}, args: []string{"task", "cancel", "ID"}, code: exitOK},
		{name: "task get --wait", queue: []a2atest.Raw{task("auth-required")}, args: []string{"task", "get", "--wait", "ID"}, code: exitOK},
		{name: "task get --wait, id in the error", queue: []a2atest.Raw{rpcResult(hostileTask("other", "working"))}, args: []string{"task", "get", "--wait", "ID"}, code: exitError},
		{name: "send --stream", queue: []a2atest.Raw{stream}, args: []string{"send", "--stream", "你好"}, code: exitError},
		{name: "task subscribe --stream", queue: []a2atest.Raw{stream}, args: []string{"task", "subscribe", "--stream", "ID"}, code: exitError},
		{name: "task subscribe", queue: []a2atest.Raw{stream}, args: []string{"task", "subscribe", "ID"}, code: exitError},
		{name: "push-config get", queue: []a2atest.Raw{rpcResult(config)}, args: []string{"task", "push-config", "get", "ID", "ID"}, code: exitOK},
		{name: "push-config list", queue: []a2atest.Raw{rpcResult(`[` + config + `]`)}, args: []string{"task", "push-config", "list", "ID"}, code: exitOK},
		{name: "push-config delete, error", queue: []a2atest.Raw{rpcErr}, args: []string{"task", "push-config", "delete", "ID", "ID"}, code: exitError},
		{name: "task list", queue: []a2atest.Raw{list}, args: []string{"task", "list"}, code: exitOK},
		{name: "card get", args: []string{"card", "get"}, code: exitOK},
		{name: "task download", queue: []a2atest.Raw{task("completed")}, args: []string{"task", "download", "--dir", "DIR", "ID"}, code: exitError}, // the file URI is no URL,
		{name: "conformance", args: []string{"conformance", "--a2a-version", "0.3", "--retries", "0", "--timeout", "20s", "-a"}, code: exitError},
	} {
		for _, mode := range []string{"text", "-o json", "--verbose", "--debug"} {
			t.Run(tc.name+" "+mode, func(t *testing.T) {
				t.Parallel()
				agent := newAgent(t, a2atest.WithCard(card))
				agent.Enqueue(tc.queue...)
				var args []string
				for _, a := range tc.args {
					switch a {
					case "ID":
						a = hostileID
					case "DIR":
						a = t.TempDir()
					}
					args = append(args, a)
				}
				switch args[len(args)-1] {
				case "-a":
					args = append(args, siteOfAgent(agent))
				case "list":
					args = append(args, "-e", agent.URL)
				case "get":
					args = append(args, "-a", siteOfAgent(agent))
				default:
					args = append(args, "-e", agent.URL, "--a2a-version", "0.3")
				}
				if mode != "text" {
					args = append(args, strings.Fields(mode)...)
				}
				r := a2aCmd(t, args...)
				r.wantCode(t, tc.code)
				if r.stdout+r.stderr == "" {
					t.Fatalf("a2a %s printed nothing", strings.Join(args, " "))
				}
				wantInert(t, r)
				if mode == "text" || mode == "--verbose" {
					wantTextFloor(t, r)
				}
			})
		}
	}
}

// floorLine is a line of the text floor (the specification's OUTPUT_005):
// "Label: value", a block's "Label:", a block's content line (indented by
// two spaces: "  " when empty), or the empty line that ends a block.
var floorLine = regexp.MustCompile(`^([A-Z][A-Za-z -]*:( .*)?|  .*|)$`)

// wantTextFloor fails the test when a line of r's stdout is not a line of
// the text floor, or a block is not closed by an empty line.
func wantTextFloor(t *testing.T, r result) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	inBlock := false
	for i, l := range lines {
		if !floorLine.MatchString(l) {
			t.Errorf("a2a %s: stdout line %d is not Label: value: %q", strings.Join(r.args, " "), i+1, l)
		}
		switch {
		case strings.HasSuffix(l, ":") && !strings.HasPrefix(l, " "):
			inBlock = true
		case inBlock && l == "":
			inBlock = false
		case inBlock && !strings.HasPrefix(l, "  "):
			t.Errorf("a2a %s: stdout line %d is in a block not closed by an empty line: %q", strings.Join(r.args, " "), i+1, l)
		}
	}
}

// TestResumeLinePastes: a Resume line (to wait again, or to answer a
// task that waits for input), pasted into a shell, gives back the task id
// and context id exactly, one word each, whatever the agent put in them:
// spaces, quotes, $(…), backticks, ;, a line break, terminal escapes, a
// bidi override, bytes that are not UTF-8. Pasted into a POSIX sh that
// does not read $'…' (dash), it runs nothing either.
func TestResumeLinePastes(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to paste into")
	}
	sh, _ := exec.LookPath("sh") // dash on Debian: no $'…'
	ids := []string{"plain-1", "with space", "it's", `"dq"`, "$(touch pwned)", "`id`", "a;b&&c|d", "x\ny", "tab\there",
		"back\\slash", "~home", "#hash", "*glob?", "中文任务", hostile, "\xff\xfe", "-n", "--timeout=1", "'", "",
		"\x01';touch pwned;#", "\x01\\';touch pwned;#", "\x01\\\\';touch pwned;#", "\n'$(touch pwned)'", "\x01'`touch pwned`'"}
	for _, id := range ids {
		// quote alone, the line that waits again, and the line that
		// answers a question.
		words := []string{quote(id)}
		var agent *a2atest.Server
		if id != "" {
			agent = newAgent(t)
			reply := rpcResult(`{"kind":"task","id":` + js(id) + `,"contextId":"c1","status":{"state":"working"}}`)
			agent.Enqueue(reply, reply) // the send's, and the pasted get's

			r := a2aCmd(t, "send", "--async", "-e", agent.URL, "--a2a-version", "0.3", "你好")
			r.wantCode(t, exitOK)
			wantInert(t, r)
			words = append(words, printedLine(t, r.stdout, "\nResume: a2a task get --wait "))

			asks := newAgent(t)
			asks.Enqueue(rpcResult(`{"kind":"task","id":"t1","contextId":` + js(id) + `,"status":{"state":"input-required"}}`))
			r = a2aCmd(t, "send", "-e", asks.URL, "--a2a-version", "0.3", "你好")
			r.wantCode(t, exitOK)
			if line := printedLine(t, r.stdout, "\nResume: a2a send "); strings.Contains(line, "'ANSWER'") {
				words = append(words, line)
			} else {
				t.Fatalf("no answer line:\n%s", r.stdout)
			}
		}
		for i, w := range words {
			if sh != "" {
				pasted(t, sh, w) // inert; what it reads back is not asked
			}
			out := pasted(t, bash, w)
			got := strings.Split(string(out), "\x00")
			if i > 0 && len(got) > 4 && got[0] == "-e" && got[2] == "--a2a-version" { // sameAgent's flags: this send's
				got = got[4:]
			}
			if i == 1 && len(got) > 1 && got[0] == "--" { // an id that starts with "-"
				got = got[1:]
			}
			var sent string // the id as the agent's JSON spelled it
			if err := json.Unmarshal([]byte(js(id)), &sent); err != nil {
				t.Fatal(err)
			}
			want := []string{id}
			switch i {
			case 1: // the id
				want = []string{sent}
			case 2: // --task-id t1, --context-id, then the id, then ANSWER
				want = []string{"--task-id", "t1", "--context-id", sent, "ANSWER"}
			}
			if len(got) != len(want)+1 || !slices.Equal(got[:len(want)], want) {
				t.Errorf("%q pasted (%s) reads back as %q, want %q", id, w, got[:len(got)-1], want)
			}
			if i == 1 { // and the words, run, read that task: the agent's reply matches the id asked
				words := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
				r := a2aCmd(t, append([]string{"task", "get"}, words...)...)
				r.wantCode(t, exitOK)
				if m := methods(agent); len(m) != 2 || m[1] != "tasks/get" {
					t.Errorf("%q: the pasted words called %q", id, m)
				}
			}
		}
	}
}

// printedLine is the rest of the line of out that starts with prefix.
func printedLine(t *testing.T, out, prefix string) string {
	t.Helper()
	_, line, ok := strings.Cut(out, prefix)
	if !ok {
		t.Fatalf("no line %q in:\n%s", prefix, out)
	}
	line, _, _ = strings.Cut(line, "\n")
	return line
}

// pasted runs printf of the words w in shell, in an empty directory, and
// returns what printf printed, each word ended by a NUL. It fails the
// test if the line ran a command: a file appeared, or the shell failed.
func pasted(t *testing.T, shell, w string) []byte {
	t.Helper()
	cmd := exec.Command(shell, "-c", `printf '%s\0' `+w)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		t.Errorf("%s -c of %s: %v", shell, w, err)
	}
	if made, _ := os.ReadDir(cmd.Dir); len(made) > 0 {
		t.Errorf("%s -c of %s ran a command: it made %s", shell, w, made[0].Name())
	}
	return out
}

// TestFlagErrorsInert: a flag error echoes the command line; what the
// user pasted there (an escape sequence) reaches stderr escaped.
func TestFlagErrorsInert(t *testing.T) {
	t.Parallel()
	r := a2aCmd(t, "send", "--bad\x1b[2J\u202e", "-e", "http://127.0.0.1:1/", "hi")
	r.wantCode(t, exitUsage)
	if strings.ContainsAny(r.stderr, "\x1b\u202e") || !strings.Contains(r.stderr, `\x1b[2J`) {
		t.Errorf("stderr:\n%q", r.stderr)
	}
}
