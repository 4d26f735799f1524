package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// No secret the user gave is printed even when the agent echoes it, in any
// of the spellings the SDK's redactor knows: in a task's text, a failure
// reason, an id, an error message, a push config's webhook URL; in text,
// --json and -v output. The secrets: the API key, the bearer token, a
// --header value whose name says nothing of a credential, the endpoint's
// password (and the Basic credential made of it), a webhook path token.

const (
	secretRoute   = "rt-R0ute/Zz81q"            // --header X-Route=…: no credential-like name
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
		{"failed task echoing", []a2atest.Raw{task("t1", "failed")}, []string{"send", "URL", "你好"}, exitFailed},
		{"id echoing, not finished", []a2atest.Raw{task(secretRoute, "working")}, []string{"send", "URL", "你好"}, exitUnfinished},
		{"poll runs out", []a2atest.Raw{task("t1", "working"), task("t1", "working")}, []string{"send", "--wait", "--max-attempts", "1", "URL", "你好"}, exitUnfinished},
		{"error echoing", []a2atest.Raw{rpcErr}, []string{"get", "URL", "t1"}, exitError},
		{"webhook of a config read back", []a2atest.Raw{config}, []string{"push", "get", "URL", "t1", "c1"}, exitOK},
		{"webhook given", []a2atest.Raw{config}, []string{"push", "set", "URL", "t1", webhook}, exitOK},
	} {
		for _, mode := range []string{"text", "--json", "-v"} {
			t.Run(tc.name+" "+mode, func(t *testing.T) {
				t.Parallel()
				agent := newAgent(t)
				agent.Enqueue(tc.queue...)
				args := append([]string{}, tc.args...)
				for i, a := range args {
					if a == "URL" {
						args[i] = withUser(agent)
					}
				}
				args = append(args, "--protocol", "0.3", "--api-key", secretKey, "--bearer", secretBearer, "--header", "X-Route="+secretRoute)
				if mode != "text" {
					args = append(args, mode)
				}
				r := a2aCmd(t, args...)
				r.wantCode(t, tc.code)
				var forms []string
				for _, s := range given {
					forms = append(forms, spellings(s)...)
				}
				forms = append(forms, basic, "R0ute")
				if args[0] == "push" { // the webhook's key: the command shows its URL
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
// it stands and the rest printed as sent: `--json` stays valid JSON with
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
	for _, mode := range []string{"text", "--json"} {
		agent := newAgent(t)
		agent.Enqueue(task)
		args := []string{"send", agent.URL, "你好", "--protocol", "0.3", "--api-key", secretKey}
		if mode != "text" {
			args = append(args, mode)
		}
		r := a2aCmd(t, args...)
		r.wantCode(t, exitOK)
		if strings.Contains(r.stdout, pct.String()) || strings.Contains(r.stdout, secretKey) {
			t.Errorf("%s: stdout shows the key:\n%s", mode, r.stdout)
		}
		if mode == "--json" {
			var v struct {
				Artifacts []struct{ Parts []struct{ Text string } }
			}
			if err := json.Unmarshal([]byte(r.stdout), &v); err != nil {
				t.Fatalf("--json output is not JSON: %v\n%s", err, r.stdout)
			}
			if got := v.Artifacts[0].Parts[0].Text; got != `C:\u0041dir [REDACTED] end` {
				t.Errorf("--json text = %q", got)
			}
		} else if !strings.Contains(r.stdout, `C:\u0041dir [REDACTED] end`) {
			t.Errorf("text output changed the agent's text:\n%s", r.stdout)
		}
	}
}

// TestDataOutRedacted: the file --data-out writes is an output like the
// others: the agent's echo of the key is hidden there, the JSON kept.
func TestDataOutRedacted(t *testing.T) {
	t.Parallel()
	agent := newAgent(t)
	agent.Enqueue(rpcResult(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"},"artifacts":[{"artifactId":"a","parts":[{"kind":"data","data":{"k":` + js(secretKey) + `,"n":1}}]}]}`))
	out := filepath.Join(t.TempDir(), "data.json")
	r := a2aCmd(t, "send", agent.URL, "你好", "--protocol", "0.3", "--api-key", secretKey, "--data-out", out)
	r.wantCode(t, exitOK)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if strings.Contains(string(b), secretKey) || json.Unmarshal(b, &v) != nil || v["k"] != "[REDACTED]" {
		t.Errorf("--data-out wrote:\n%s", b)
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
	r := a2aCmd(t, "send", agent.URL, "你好", "--protocol", "0.3")
	r.wantCode(t, exitOK)
	if n := len(r.stdout); n > 4*len(deep)+64<<10 {
		t.Errorf("%d bytes printed for a %d-byte value", n, len(deep))
	}
	r = a2aCmd(t, "send", agent.URL, "你好", "--protocol", "0.3")
	r.wantCode(t, exitOK)
	if !strings.Contains(r.stdout, "\"k\": [\n") {
		t.Errorf("a shallow value is no longer indented:\n%s", r.stdout)
	}
}
