package main

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// No secret of the command line, the environment or a settings file is
// ever printed, however a command ends (the A2A CLI specification's
// AUTH_004): the API key, the bearer token, a --svc-param value, a URL's
// password, a push config's token and credentials; in text and -o json
// output (the error envelope too), in --debug's log and wire dump, in
// config show and in a Resume line.

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

// secrets: those of every command first, then push-config create's.
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
	auth := []string{"--api-key", secretKey, "--bearer", secretBearer, "--svc-param", "X-Secret=" + secretHeader}
	fromEnv := map[string]string{"A2ACLI_API_KEY": secretKey, "A2ACLI_BEARER": secretBearer, "A2ACLI_SVC_PARAM": "X-Trace:1;X-Secret:" + secretHeader}
	html := a2atest.Raw{Status: http.StatusBadGateway, ContentType: "text/html",
		Body: "<html><body>502: upstream refused key " + secretKey + " bearer " + secretBearer + " " + secretHeader + " " + secretPass + "</body></html>"}
	htmls := func(n int) []a2atest.Raw { return slices.Repeat([]a2atest.Raw{html}, n) }
	v03 := []string{"--a2a-version", "0.3"}

	// Each command reaches the agent at "EP" (-e, its endpoint with a
	// password) or "SITE" (-a, its site with a password) and is given the
	// credentials as flags (auth) or in its environment (env).
	for _, tc := range []struct {
		name  string
		agent []a2atest.Option
		queue []a2atest.Raw
		args  []string
		env   map[string]string
		code  int
	}{
		{name: "401 for a wrong key", agent: []a2atest.Option{a2atest.RequireAPIKey("the-right-key")}, args: []string{"send", "-e", "EP", "你好"}, code: exitAuth},
		{name: "401 for a wrong key, --debug", agent: []a2atest.Option{a2atest.RequireAPIKey("the-right-key")}, args: []string{"task", "get", "--debug", "-e", "EP", "task-1"}, code: exitAuth},
		{name: "401 for a wrong key, a card", agent: []a2atest.Option{a2atest.RequireAPIKey("the-right-key")}, args: []string{"task", "get", "--debug", "-a", "SITE", "task-1"}, code: exitAuth},
		{name: "HTML page echoing the key", queue: htmls(8), args: []string{"task", "get", "--retries", "1", "-e", "EP", "task-1"}, code: exitUnreachable},
		{name: "HTML page echoing the key, --debug", queue: htmls(6), args: []string{"send", "--debug", "-e", "EP", "你好"}, code: exitUnreachable},
		{name: "JSON-RPC error echoing the secrets", queue: []a2atest.Raw{echoing(200, secrets[:4]...)}, args: []string{"task", "get", "-e", "EP", "task-1"}, code: exitError},
		{name: "JSON-RPC error in a 400", queue: []a2atest.Raw{echoing(400, secrets[:4]...)}, args: []string{"send", "--debug", "-e", "EP", "你好"}, code: exitError},
		{name: "stream error echoing the secrets", queue: []a2atest.Raw{echoing(200, secrets[:4]...)}, args: []string{"send", "--stream", "-e", "EP", "你好"}, code: exitError},
		{name: "card page echoing the key", queue: htmls(8), args: []string{"card", "get", "--debug", "-a", "SITE"}, code: exitUnreachable},
		{name: "success, --debug", args: []string{"send", "--debug", "--verbose", "-a", "SITE", "这个二维码是什么？" + a2atest.SeedQRCode}, code: exitOK},
		{name: "success, --stream --debug", args: []string{"send", "--stream", "--debug", "-a", "SITE", "本月巡检记录"}, code: exitOK},
		{name: "input-required prints the answer command", args: []string{"send", "--debug", "-a", "SITE", "查一台设备"}, code: exitOK},
		{name: "not finished prints the wait command", args: []string{"send", "--async", "-a", "SITE", "本月巡检记录"}, code: exitOK},
		{name: "--timeout in the wait prints the wait command", args: []string{"send", "--timeout", "300ms", "--poll-interval", "1h", "-e", "EP", "本月巡检记录"}, code: exitTimeout},
		{name: "push-config create refused, echoing", queue: []a2atest.Raw{echoing(200, secrets...)}, args: []string{"task", "push-config", "create", "--debug", "-e", "EP", "--token", secretToken, "--credentials", secretCreds, "--scheme", "Bearer", "ID", "https://hooks.example.com/a2a?key=" + secretToken}, code: exitError},
		{name: "push-config create", args: []string{"task", "push-config", "create", "--debug", "-e", "EP", "--token", secretToken, "--credentials", secretCreds, "--scheme", "Bearer", "ID", "https://hooks.example.com/a2a?key=" + secretToken}, code: exitOK},
		{name: "config show", args: []string{"config", "show", "-a", "SITE"}, code: exitOK},
		{name: "config show, from the environment", args: []string{"config", "show", "-e", "EP"}, env: fromEnv, code: exitOK},
		{name: "secrets from the environment, flag error", args: []string{"send", "--bogus", "-e", "EP", "你好"}, env: fromEnv, code: exitUsage},
		{name: "secrets from the environment, -h", args: []string{"task", "get", "-h"}, env: fromEnv, code: exitOK},
		{name: "secrets from the environment, 401", agent: []a2atest.Option{a2atest.RequireAPIKey("the-right-key")}, args: []string{"task", "get", "--debug", "-e", "EP", "task-1"}, env: fromEnv, code: exitAuth},
	} {
		for _, mode := range []string{"text", "-o json"} {
			t.Run(tc.name+" "+mode, func(t *testing.T) {
				t.Parallel()
				agent := newAgent(t, append([]a2atest.Option{a2atest.Bindings(a2a.TransportJSONRPC)}, tc.agent...)...) // with a card
				var args []string
				for _, a := range tc.args {
					switch a {
					case "EP":
						a = withUser(agent)
					case "SITE":
						a = strings.TrimSuffix(withUser(agent), "/a2a/jsonrpc")
					case "ID":
						a = startTask(t, agent, a2a.ProtocolV03, "这个二维码是什么？"+a2atest.SeedQRCode)
					}
					args = append(args, a)
				}
				agent.Enqueue(tc.queue...)
				if tc.args[0] != "config" {
					args = append(args, v03...)
				}
				if tc.env == nil {
					args = append(args, auth...)
				}
				if mode != "text" {
					args = append(args, strings.Fields(mode)...)
				}
				r := invocation{env: tc.env}.run(t, args...)
				r.wantCode(t, tc.code)
				noSecret(t, r, secrets...)
				if r.stderr == "" && tc.code != exitOK {
					t.Errorf("exit %d with nothing on stderr", r.code)
				}
				if tc.args[0] == "config" && !regexp.MustCompile(`A2ACLI_API_KEY\W+(value\W+)?\(set\)`).MatchString(r.stdout) {
					t.Errorf("config show does not say the key is set:\n%s", r.stdout)
				}
				if mode == "-o json" && tc.code != exitOK && tc.code != exitUsage {
					if !strings.HasPrefix(lastLine(r.stdout), `{"error":{"code":`) {
						t.Errorf("-o json: the last line is no error envelope:\n%s", r.stdout)
					}
				}
			})
		}
	}
}

// lastLine is the last line of s, its line break left out.
func lastLine(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return s[strings.LastIndex(s, "\n")+1:]
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
		for _, cmd := range [][]string{{"send", "-e", u, "你好"}, {"card", "get", "-a", u}, {"send", "-a", u, "你好"},
			{"task", "push-config", "create", "-e", "http://127.0.0.1:9/a2a", "t1", u}} {
			for _, mode := range [][]string{nil, {"-o", "json"}} {
				r := a2aCmd(t, append(cmd, mode...)...)
				if r.code != exitUsage && r.code != exitUnreachable {
					t.Errorf("a2a %q: exit %d, want a usage error or no card\n%s", r.args, r.code, r.stderr)
				}
				noSecret(t, r, secretPass)
			}
		}
	}
}

// TestNoSecretInSvcParamErrors: a --svc-param or A2ACLI_SVC_PARAM entry
// that is neither K:V nor K=V is refused without being repeated: it may
// be a secret.
func TestNoSecretInSvcParamErrors(t *testing.T) {
	t.Parallel()
	for _, in := range []invocation{
		{env: map[string]string{"A2ACLI_SVC_PARAM": "X-Trace:1;Bearer " + secretBearer}},
		{},
	} {
		args := []string{"send", "-e", "http://127.0.0.1:9/a2a", "你好"}
		if in.env == nil {
			args = append(args, "--svc-param", "Bearer "+secretBearer)
		}
		r := in.run(t, args...)
		r.wantCode(t, exitUsage)
		noSecret(t, r, secretBearer)
		if !strings.Contains(r.stderr, "is not K:V or K=V") {
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

// TestCardGETCarriesNoCredential: the public card GET carries no
// credential, service parameter or gateway header, whatever the command
// and however the agent is named (AUTH_008); the calls to the agent
// carry them all. An API key the card puts in the query goes to the
// calls' URLs alone.
func TestCardGETCarriesNoCredential(t *testing.T) {
	t.Parallel()
	given := []string{"--api-key", "k-1", "--bearer", "b-1", "--svc-param", "X-Secret:s-1", "--workspace", "w-1"}
	agent := newAgent(t, a2atest.V10(), a2atest.RequireAPIKey("k-1"))
	for _, args := range [][]string{
		{"send", "--async", "-a", agent.URL, "你好"}, // an endpoint: its card looked for
		{"task", "get", "-a", siteOfAgent(agent), "task-1"},
		{"card", "get", "-a", siteOfAgent(agent)},
		{"config", "show", "-a", siteOfAgent(agent)},
	} {
		before := len(agent.Requests())
		r := a2aCmd(t, append(args, given...)...)
		if r.code != exitOK && r.code != exitError { // task-1 is not there: the agent took the call
			r.wantCode(t, exitOK)
		}
		cards := 0
		for _, req := range agent.Requests()[before:] {
			isCard := strings.Contains(req.Path, "/.well-known/")
			if isCard {
				cards++
			}
			for _, h := range []string{"Authorization", "X-Api-Key", "X-Secret", "X-Workspace-Id"} {
				if has := req.Header.Get(h) != ""; has == isCard {
					t.Errorf("%q: %s %s: %s present: %v", args, req.HTTPMethod, req.Path, h, has)
				}
			}
		}
		if args[0] != "config" && cards == 0 {
			t.Errorf("%q: no card GET", args)
		}
	}

	card := &a2a.AgentCard{Name: "q", Description: "q", Version: "1",
		SecuritySchemes: map[string]a2a.SecurityScheme{"key": {Type: "apiKey", In: "query", Name: "api_key"}},
		Security:        []map[string][]string{{"key": {}}}}
	query := newAgent(t, a2atest.V10(), a2atest.WithCard(card))
	r := a2aCmd(t, "task", "get", "--debug", "-a", siteOfAgent(query), "--api-key", secretKey, "task-1")
	r.wantCode(t, exitError) // no such task: the call went
	noSecret(t, r, secretKey)
	reqs := query.Requests()
	if len(reqs) != 2 || reqs[0].Query != "" || reqs[1].Query != "api_key="+url.QueryEscape(secretKey) {
		t.Errorf("the key's query: %d requests", len(reqs))
		for _, req := range reqs {
			t.Logf("%s %s?%s", req.HTTPMethod, req.Path, req.Query)
		}
	}
}

// TestNoSecretWithQuotes: a secret holding a quote and a backslash, which
// JSON escapes, is hidden in every spelling an agent's JSON may give it:
// in the error envelope (-o json) as decoded and as written, and in the
// --debug wire dump of the agent's body.
func TestNoSecretWithQuotes(t *testing.T) {
	t.Parallel()
	const key = `sk"q\uo/te-9Z`
	for _, mode := range [][]string{{"-o", "json"}, {"--debug"}, {"-o", "json", "--debug"}} {
		agent := newAgent(t)
		agent.Enqueue(echoing(200, strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(key)))
		r := a2aCmd(t, append([]string{"task", "get", "-e", agent.URL, "--a2a-version", "0.3", "--api-key", key, "t1"}, mode...)...)
		r.wantCode(t, exitError)
		forms := append(spellings(key), `sk\"q\\uo`, `sk\u0022q`, `q\\uo`, `q\uo`)
		for _, f := range forms {
			for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
				if strings.Contains(out, f) {
					t.Errorf("%q: %s shows the key as %q:\n%s", mode, name, f, out)
				}
			}
		}
		if mode[0] == "-o" {
			var env struct{ Error struct{ Message string } }
			if err := json.Unmarshal([]byte(lastLine(r.stdout)), &env); err != nil {
				t.Fatalf("%q: the envelope is not JSON: %v\n%s", mode, err, r.stdout)
			}
			if strings.Contains(env.Error.Message, "q\\uo") || !strings.Contains(env.Error.Message, "[REDACTED]") {
				t.Errorf("%q: the envelope's message: %q", mode, env.Error.Message)
			}
		}
	}
}
