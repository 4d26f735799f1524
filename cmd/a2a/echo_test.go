package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// No secret the user gave is printed even when the agent echoes it, in any
// of the spellings the SDK's redactor knows: in a task's text, a failure
// reason, an id (and the Resume line that holds it), an error message, a
// push config's webhook URL; in text, -o json (and the error envelope),
// --verbose and --debug output (the specification's AUTH_004). The
// secrets: the API key, the bearer token, a --svc-param value whose name
// says nothing of a credential, the endpoint's password (and the Basic
// credential made of it), a webhook path token.

const (
	secretRoute   = "rt-R0ute/Zz81q"            // --svc-param X-Route=…: no credential-like name
	secretWebhook = "whk_Live_9f8e7d6c5b4a3210" // a key in a webhook URL's path
)

// spellings are s as an agent may echo it: plain, %-escaped (query and
// path), JSON-escaped, each ASCII character as \u00XX, and as HTML
// entities.
func spellings(s string) []string {
	var u, html strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&u, `\u%04x`, c)
		fmt.Fprintf(&html, "&#%d;", c)
	}
	return []string{s, url.QueryEscape(s), url.PathEscape(s), js(s)[1 : len(js(s))-1], u.String(), html.String()}
}

func TestEchoedSecretsHidden(t *testing.T) {
	t.Parallel()
	given := []string{secretKey, secretBearer, secretRoute, secretPass}
	basic := base64.StdEncoding.EncodeToString([]byte("user:" + secretPass))
	var echo []string
	for _, s := range given {
		echo = append(echo, spellings(s)...)
	}
	echo = append(echo, basic)
	e := strings.Join(echo, " | ")
	h := js(e)
	task := func(id, state string) a2atest.Raw {
		return rpcResult(`{"kind":"task","id":` + js(id) + `,"contextId":` + h + `,"status":{"state":"` + state + `","message":{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":` + h + `}]}},` +
			`"artifacts":[{"artifactId":"a","name":` + h + `,"parts":[{"kind":"text","text":` + h + `},{"kind":"data","data":{"echo":` + h + `}}]}]}`)
	}
	rpcErr := a2atest.Raw{Status: 200, ContentType: "application/json", EchoID: true, Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32602,"message":` + h + `,"data":` + h + `}}`}
	webhook := "https://hooks.example.com/hooks/" + secretWebhook + "/a2a"
	config := rpcResult(`{"taskId":"t1","pushNotificationConfig":{"id":"c1","url":` + js(webhook+"?sig="+secretWebhook) + `,"token":` + h + `}}`)
	for _, tc := range []struct {
		name  string
		queue []a2atest.Raw
		args  []string
		code  int
	}{
		{"failed task echoing", []a2atest.Raw{task("t1", "failed")}, []string{"send", "你好"}, exitOK},
		{"id echoing, not finished", []a2atest.Raw{task(secretRoute, "working")}, []string{"send", "--async", "你好"}, exitOK},
		{"id echoing, waits for input", []a2atest.Raw{task(secretRoute, "input-required")}, []string{"send", "你好"}, exitOK},
		{"--timeout in the wait", []a2atest.Raw{task("t1", "working"), task("t1", "working")}, []string{"send", "--timeout", "300ms", "--poll-interval", "1h", "你好"}, exitTimeout},
		{"error echoing", []a2atest.Raw{rpcErr}, []string{"task", "get", "t1"}, exitError},
		{"webhook of a config read back", []a2atest.Raw{config}, []string{"task", "push-config", "get", "t1", "c1"}, exitOK},
		{"webhook given", []a2atest.Raw{config}, []string{"task", "push-config", "create", "t1", webhook}, exitOK},
	} {
		for _, mode := range []string{"text", "-o json", "--verbose", "--debug"} {
			t.Run(tc.name+" "+mode, func(t *testing.T) {
				t.Parallel()
				agent := newAgent(t)
				agent.Enqueue(tc.queue...)
				args := append([]string{}, tc.args...)
				args = append(args, "-e", withUser(agent), "--a2a-version", "0.3", "--api-key", secretKey, "--bearer", secretBearer, "--svc-param", "X-Route="+secretRoute)
				if mode != "text" {
					args = append(args, strings.Fields(mode)...)
				}
				r := a2aCmd(t, args...)
				r.wantCode(t, tc.code)
				var forms []string
				for _, s := range given {
					forms = append(forms, spellings(s)...)
				}
				forms = append(forms, basic, "R0ute")
				// The webhook's key: the command shows its URL. --debug's
				// dump shows the agent's bodies as sent, but for the
				// user's secrets: the URL given (create) is one, the URL
				// an agent holds (get) is the agent's text.
				if args[0] == "task" && args[1] == "push-config" && (args[2] == "create" || mode != "--debug") {
					forms = append(forms, spellings(secretWebhook)...)
					forms = append(forms, "9f8e7d6c5b4a")
				}
				for _, f := range forms {
					for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
						if strings.Contains(out, f) {
							t.Errorf("%s shows the secret as %q:\n%s", name, f, out)
						}
					}
				}
			})
		}
	}
}

// TestEchoKeepsTheText: an agent that echoes the key percent-encoded
// beside text holding JSON escapes of its own gets the key hidden where
// it stands and the rest printed as sent: -o json stays valid JSON with
// the agent's text unchanged, and text output shows the escapes as they
// were.
func TestEchoKeepsTheText(t *testing.T) {
	t.Parallel()
	var pct strings.Builder
	for _, c := range []byte(secretKey) {
		fmt.Fprintf(&pct, "%%%02X", c)
	}
	text := `C:\u0041dir ` + pct.String() + ` end`
	task := rpcResult(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"artifacts":[{"artifactId":"a","parts":[{"kind":"text","text":` + js(text) + `}]}]}`)
	for _, mode := range []string{"text", "json"} {
		agent := newAgent(t)
		agent.Enqueue(task)
		args := []string{"send", "-e", agent.URL, "你好", "--a2a-version", "0.3", "--api-key", secretKey, "-o", mode}
		r := a2aCmd(t, args...)
		r.wantCode(t, exitOK)
		if strings.Contains(r.stdout, pct.String()) || strings.Contains(r.stdout, secretKey) {
			t.Errorf("%s: stdout shows the key:\n%s", mode, r.stdout)
		}
		if mode == "json" {
			var v struct {
				Artifacts []struct{ Parts []struct{ Text string } }
			}
			if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
				t.Fatalf("-o json output is not JSON: %v\n%s", err, r.stdout)
			}
			if got := v.Artifacts[0].Parts[0].Text; got != `C:\u0041dir [REDACTED] end` {
				t.Errorf("-o json text = %q", got)
			}
		} else if !strings.Contains(r.stdout, `C:\u0041dir [REDACTED] end`) {
			t.Errorf("text output changed the agent's text:\n%s", r.stdout)
		}
	}
}

// TestDeepDataBounded: a small data part nested thousands deep prints in
// output bounded by a few times its size (compact), not with indentation
// growing with the square of its depth; a shallow one is still indented.
func TestDeepDataBounded(t *testing.T) {
	t.Parallel()
	const depth = 3000
	deep := `{"x":` + strings.Repeat("[", depth) + "1" + strings.Repeat("]", depth) + "}"
	agent := newAgent(t)
	agent.Enqueue(rpcResult(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"artifacts":[{"artifactId":"a","parts":[{"kind":"data","data":`+deep+`}]}]}`),
		rpcResult(`{"kind":"task","id":"t2","contextId":"c2","status":{"state":"completed"},"artifacts":[{"artifactId":"a","parts":[{"kind":"data","data":{"k":[1,2]}}]}]}`))
	r := a2aCmd(t, "send", "-e", agent.URL, "你好", "--a2a-version", "0.3")
	r.wantCode(t, exitOK)
	if n := len(r.stdout); n > 4*len(deep)+64<<10 {
		t.Errorf("%d bytes printed for a %d-byte value", n, len(deep))
	}
	r = a2aCmd(t, "send", "-e", agent.URL, "你好", "--a2a-version", "0.3")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "\"k\": [\n") {
		t.Errorf("a shallow value is no longer indented:\n%s", r.stdout)
	}
}
