package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// No secret of the command line or the environment is ever printed,
// however a command ends: the API key, the bearer token, a --header
// value, a URL's password, a push config's token and credentials.

// The secrets, each with characters that %-escaping changes, so an
// escaped copy would show as well.
const (
	secretKey    = "sk-live/K3y+9 z"
	secretBearer = "bt-T0k3n/x+y"
	secretHeader = "hs-s3cr3t@v/l"
	secretPass   = "pa55word"
	secretToken  = "pt-Pu5h/t0k+en"
	secretCreds  = "pc-Cr3d/s+x"
)

// secrets: those of every command first, then push set's.
var secrets = []string{secretKey, secretBearer, secretHeader, secretPass, secretToken, secretCreds}

// withUser is agent's endpoint with user and secretPass in it.
func withUser(agent *a2atest.Server) string {
	return strings.Replace(agent.URL, "http://", "http://user:"+secretPass+"@", 1)
}

// echoing is a JSON-RPC error that repeats the secrets back, as a
// careless gateway or agent might.
func echoing(status int, secrets ...string) a2atest.Raw {
	return a2atest.Raw{Status: status, ContentType: "application/json", EchoID: true,
		Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32602,"message":"bad credentials: ` + strings.Join(secrets, " ") + `"}}`}
}

func TestNoSecretPrinted(t *testing.T) {
	t.Parallel()
	auth := []string{"--api-key", secretKey, "--bearer", secretBearer, "--header", "X-Secret=" + secretHeader}
	html := a2atest.Raw{Status: http.StatusBadGateway, ContentType: "text/html",
		Body: "<html><body>502: upstream refused key " + secretKey + " bearer " + secretBearer + " " + secretHeader + " " + secretPass + "</body></html>"}

	for _, tc := range []struct {
		name  string
		agent []a2atest.Option
		queue []a2atest.Raw
		args  []string // after the command, before the URL
		cmd   string
		rest  []string
		env   map[string]string
		code  int
	}{
		{name: "401 for a wrong key", agent: []a2atest.Option{a2atest.RequireAPIKey("the-right-key")}, cmd: "send", rest: []string{"你好"}, code: exitError},
		{name: "401 for a wrong key, -v", agent: []a2atest.Option{a2atest.RequireAPIKey("the-right-key")}, cmd: "get", args: []string{"-v", "--protocol", "0.3"}, rest: []string{"task-1"}, code: exitError},
		{name: "HTML page echoing the key", queue: []a2atest.Raw{html, html, html, html, html, html, html, html}, cmd: "get", args: []string{"--retries", "1", "--protocol", "0.3"}, rest: []string{"task-1"}, code: exitError},
		{name: "HTML page echoing the key, -v", queue: []a2atest.Raw{html, html, html, html, html, html}, cmd: "send", args: []string{"-v"}, rest: []string{"你好"}, code: exitError},
		{name: "JSON-RPC error echoing the secrets", queue: []a2atest.Raw{echoing(200, secrets[:4]...)}, cmd: "get", args: []string{"--protocol", "0.3"}, rest: []string{"task-1"}, code: exitError},
		{name: "JSON-RPC error in a 400", queue: []a2atest.Raw{echoing(400, secrets[:4]...)}, cmd: "send", args: []string{"-v", "--protocol", "0.3"}, rest: []string{"你好"}, code: exitError},
		{name: "stream error echoing the secrets", queue: []a2atest.Raw{echoing(200, secrets[:4]...)}, cmd: "stream", args: []string{"--protocol", "0.3"}, rest: []string{"你好"}, code: exitError},
		{name: "card page echoing the key", queue: []a2atest.Raw{html}, cmd: "card", args: []string{"-v"}, code: exitError},
		{name: "success, -v", cmd: "send", args: []string{"-v"}, rest: []string{"这个二维码是什么？" + a2atest.SeedQRCode}, code: exitOK},
		{name: "input-required prints the answer command", cmd: "send", args: []string{"-v"}, rest: []string{"查一台设备"}, code: exitInterrupted},
		{name: "not finished prints the wait command", cmd: "send", args: []string{"--no-block"}, rest: []string{"本月巡检记录"}, code: exitUnfinished},
		{name: "poll runs out", cmd: "send", args: []string{"--wait", "--max-attempts", "1"}, rest: []string{"本月巡检记录"}, code: exitUnfinished},
		{name: "push set refused, echoing", queue: []a2atest.Raw{echoing(200, secrets...)}, cmd: "push", args: []string{"-v", "--protocol", "0.3", "--token", secretToken, "--credentials", secretCreds, "--scheme", "Bearer"}, code: exitError},
		{name: "secrets from the environment, flag error", cmd: "send", args: []string{"--bogus"}, rest: []string{"你好"}, env: map[string]string{"A2A_API_KEY": secretKey, "A2A_BEARER_TOKEN": secretBearer, "A2A_HEADERS": "X-Secret=" + secretHeader}, code: exitUsage},
		{name: "secrets from the environment, -h", cmd: "get", args: []string{"-h"}, env: map[string]string{"A2A_API_KEY": secretKey, "A2A_BEARER_TOKEN": secretBearer}, code: exitOK},
		{name: "secrets from the environment, 401", agent: []a2atest.Option{a2atest.RequireAPIKey("the-right-key")}, cmd: "get", args: []string{"-v"}, rest: []string{"task-1"}, env: map[string]string{"A2A_API_KEY": secretKey, "A2A_BEARER_TOKEN": secretBearer, "A2A_HEADERS": "X-Secret=" + secretHeader}, code: exitError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			agent := newAgent(t, tc.agent...)
			url := withUser(agent)
			var args []string
			switch tc.cmd {
			case "card":
				args = []string{"card", strings.TrimSuffix(url, "/a2a/jsonrpc")}
			case "push":
				id := startTask(t, agent, a2a.ProtocolV03, "这个二维码是什么？"+a2atest.SeedQRCode)
				args = []string{"push", "set", url, id, "https://hooks.example.com/a2a?key=" + secretToken}
			default:
				args = append([]string{tc.cmd, url}, tc.rest...)
			}
			agent.Enqueue(tc.queue...)
			args = append(args, tc.args...)
			if tc.env == nil {
				args = append(args, auth...)
			}
			r := invocation{env: tc.env}.run(t, args...)
			r.wantCode(t, tc.code)
			noSecret(t, r, secrets...)
			if r.stderr == "" && tc.code != exitOK {
				t.Errorf("exit %d with nothing on stderr", r.code)
			}
		})
	}
}

// TestNoSecretInUsageErrors: a URL given without "http://" still hides
// its password.
func TestNoSecretInUsageErrors(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"user:" + secretPass + "@127.0.0.1:9/a2a/jsonrpc",
		"user:" + secretPass + "@agent.example.com/a2a",
		"ftp://user:" + secretPass + "@agent.example.com/a2a",
		"//user:" + secretPass + "@agent.example.com/a2a",
	} {
		for _, cmd := range [][]string{{"send", u, "你好"}, {"card", u}, {"push", "set", "http://127.0.0.1:9/a2a", "t1", u}} {
			r := a2aCmd(t, cmd...)
			r.wantCode(t, exitUsage)
			noSecret(t, r, secretPass)
		}
	}
}

// TestNoSecretInHeaderErrors: a --header or A2A_HEADERS entry that is not
// K=V ("Authorization: Bearer …", a colon for the "=") is refused
// without being repeated: it may be a secret.
func TestNoSecretInHeaderErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []invocation{
		{env: map[string]string{"A2A_HEADERS": "X-Trace=1;Authorization: Bearer " + secretBearer}},
		{},
	} {
		args := []string{"send", "http://127.0.0.1:9/a2a", "你好"}
		if in.env == nil {
			args = append(args, "--header", "Authorization: Bearer "+secretBearer)
		}
		r := in.run(t, args...)
		r.wantCode(t, exitUsage)
		noSecret(t, r, secretBearer)
		if !strings.Contains(r.stderr, "is not K=V") {
			t.Errorf("stderr does not say what is wrong:\n%s", r.stderr)
		}
	}
}

// noSecret fails the test when any of secrets, or one of its %-escaped
// forms, appears in r's output.
func noSecret(t *testing.T, r result, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		for _, form := range []string{s, url.QueryEscape(s), url.PathEscape(s), (&url.URL{User: url.User(s)}).String()[2 : len(s)+2]} {
			for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
				if strings.Contains(out, form) {
					t.Errorf("a2a %s: %s shows the secret %q:\n%s", r.args[0], name, form, out)
				}
			}
		}
	}
}
