package a2a_test

import (
	"bufio"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestSecretsStayPut: API key, bearer token, URL userinfo and query
// credentials, and credential-like headers never appear in an error string,
// an HTTPError body excerpt, or any log record, even when the server echoes
// them back (DESIGN.md behaviour 6).
func TestSecretsStayPut(t *testing.T) {
	secrets := []string{"sk-live-APIKEY-123", "bearer-TOKEN-456", "url-PASSWORD-789", "query-SECRET-000", "hdr-SIGNATURE-111"}
	echo := strings.Join(secrets, " ")
	replies := []string{
		`<html>bad key ` + echo + `</html>`, // HTTP 500, non-JSON
		`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32600,"message":"bad key ` + echo + `"}}`,
		`{"jsonrpc":"2.0","id":"` + secrets[0] + `","result":{}}`, // id mismatch echoing a key
		`not json ` + echo,
	}
	srv := cyclingReplies(t, replies)

	logger, records := newCapture()
	endpoint := strings.Replace(srv.URL, "http://", "http://user:"+secrets[2]+"@", 1) + "/a2a?key=" + secrets[3]
	c, err := a2a.NewClient(endpoint, a2a.WithAPIKey(secrets[0]), a2a.WithBearerToken(secrets[1]),
		a2a.WithHeader("X-Signature", secrets[4]), a2a.WithLogger(logger), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	texts := getTaskErrors(t, c, len(replies))
	// A transport failure (nothing listening) on the same credentials.
	dead, _ := a2a.NewClient(strings.Replace(closedPortURL(t), "http://", "http://user:"+secrets[2]+"@", 1)+"?key="+secrets[3],
		a2a.WithAPIKey(secrets[0]), a2a.WithLogger(logger), a2a.WithMaxRetries(0))
	_, err = dead.SendText(context.Background(), "hi")
	texts = append(texts, errorTexts(err)...)

	recs := records()
	if len(recs) < 8 {
		t.Errorf("only %d log records captured; the test would not see a leak", len(recs))
	}
	noSecrets(t, append(texts, recs...), secrets...)
}

// TestEveryHeaderValueIsSecret: the value of any WithHeader header is a
// secret, whatever its name (DESIGN.md behaviour 6: no list of names knows
// every vendor's credential header), echoed in an error message, an id, an
// HTML page; a value too short to be one ("1", "json") and the format
// headers (Accept) are left alone.
func TestEveryHeaderValueIsSecret(t *testing.T) {
	secret := "tr-Qz81vX-0042/k"
	replies := []string{
		`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32600,"message":"unknown tenant ` + secret + ` json 1 application/json"}}`,
		`{"jsonrpc":"2.0","id":"` + secret + `","result":{}}`,
		`<html>tenant ` + url.QueryEscape(secret) + `</html>`,
	}
	srv := cyclingReplies(t, replies)
	logger, records := newCapture()
	c, err := a2a.NewClient(srv.URL, a2a.WithHeader("X-Tenant-Route", secret), a2a.WithHeader("X-Flag", "1"),
		a2a.WithHeader("X-Format", "json"), a2a.WithHeader("Accept", "application/json"), a2a.WithLogger(logger), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	texts := getTaskErrors(t, c, len(replies))
	noSecrets(t, append(texts, records()...), secret, "Qz81vX")
	if !strings.Contains(texts[0], "json 1 application/json") {
		t.Errorf("short values or a format header redacted: %q", texts[0])
	}
}

// TestSecretCutByExcerpt: a key that straddles the 512-byte excerpt of an
// HTTPError body is still redacted whole.
func TestSecretCutByExcerpt(t *testing.T) {
	const key = "sk-live-SECRET-KEY-0123456789"
	body := strings.Repeat("x", 500) + key + strings.Repeat("y", 100)
	c, _ := newMock(t, []mockReply{{status: 401, ctype: "text/plain", body: []byte(body)}}, a2a.WithAPIKey(key))
	_, err := c.GetTask(context.Background(), "t")
	he, ok := errors.AsType[*a2a.HTTPError](err)
	if !ok {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(string(he.Body), key[:6]) || !strings.Contains(string(he.Body), "[REDACTED]") {
		t.Errorf("excerpt end %q", he.Body[len(he.Body)-30:])
	}
	if len(he.Body) > 520 {
		t.Errorf("excerpt is %d bytes", len(he.Body))
	}
}

// TestSecretsInEncodings: a server (or an error page) that echoes the
// request as it went on the wire shows credentials escaped, percent-encoded
// or as Basic auth; none of those spellings reaches an error or a record.
func TestSecretsInEncodings(t *testing.T) {
	const (
		apiKey   = "sk/live+KEY=1"
		password = "pw/Secr3t+9"
		query    = "tok/en+Secr3t=="
		cred     = "cred-VALUE-42"
	)
	echo := func(r *http.Request) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s\n", r.Method, r.URL.RequestURI())
		r.Header.Write(&b)
		return b.String()
	}
	var n atomic.Int32
	srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, _ string) {
		io.Copy(io.Discard, r.Body)
		req := echo(r)
		switch n.Add(1) % 3 {
		case 1: // an HTML error page echoing the request
			w.WriteHeader(500)
			io.WriteString(w, "<pre>"+req+"</pre>")
		case 2: // a JSON-RPC error echoing it PHP-style, "/" as "\/"
			msg, _ := json.Marshal(req)
			io.WriteString(w, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":`+strings.ReplaceAll(string(msg), "/", `\/`)+`,"data":`+strings.ReplaceAll(string(msg), "/", `\/`)+`}}`)
		default: // a challenge echoing the Authorization header
			w.Header().Set("WWW-Authenticate", `Basic realm="`+r.Header.Get("Authorization")+`"`)
			w.WriteHeader(401)
		}
	}})

	// A peer that answers with the request line as its status line.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		line, _ := bufio.NewReader(conn).ReadString('\n')
		fields := strings.Fields(line)
		if len(fields) > 1 {
			io.WriteString(conn, "HTTP/1.1 "+fields[1]+"\r\n\r\n")
		}
	})

	logger, records := newCapture()
	userinfo := url.UserPassword("alice", password).String()
	opts := []a2a.Option{a2a.WithAPIKey(apiKey), a2a.WithHeader("X-Credential", cred), a2a.WithLogger(logger), a2a.WithMaxRetries(0)}
	var texts []string
	for _, base := range []string{srv.URL, "http://" + l.Addr().String()} {
		endpoint := strings.Replace(base, "http://", "http://"+userinfo+"@", 1) + "/a2a?access_token=" + url.QueryEscape(query)
		c, err := a2a.NewClient(endpoint, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			_, err := c.GetTask(context.Background(), "t")
			if err == nil {
				t.Fatal("want an error")
			}
			texts = append(texts, errorTexts(err)...)
			if base != srv.URL {
				break // the raw peer answers once
			}
		}
	}
	texts = append(texts, records()...)
	basic := base64.StdEncoding.EncodeToString([]byte("alice:" + password))
	secrets := []string{apiKey, password, query, cred, basic, url.QueryEscape(query), url.QueryEscape(apiKey), url.PathEscape(password),
		strings.ReplaceAll(apiKey, "/", `\/`), strings.ReplaceAll(password, "/", `\/`), "Secr3t"}
	if len(texts) < 10 {
		t.Fatalf("only %d texts to search", len(texts))
	}
	noSecrets(t, texts, secrets...)
}

// TestSecretsInServerText: credentials a server writes back in headers,
// in a task's state, or in encodings no list foresees (\u002B, &#43;,
// lowercase %2b) stay out of errors and records; what is left of a secret
// is separators and fragments under 6 bytes.
func TestSecretsInServerText(t *testing.T) {
	const (
		apiKey = "sk-live-9f8e7d6c5b4a3210"
		bearer = "tok+Zm9vYmFyYmF6/cXV1eA=="
		short  = "s3cr3t"
	)
	enc := strings.NewReplacer("+", `\u002B`, "/", `\u002F`).Replace(bearer)
	html := strings.NewReplacer("+", "&#43;", "/", "&#x2F;", "=", "&#61;").Replace(bearer)
	pct := strings.ToLower(url.QueryEscape(bearer))
	var n atomic.Int32
	srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
		switch n.Add(1) {
		case 1: // the key in the Content-Type of an error page
			w.Header().Set("Content-Type", "text/html; key="+apiKey)
			w.WriteHeader(502)
		case 2: // the key as a Content-Encoding
			w.Header().Set("Content-Encoding", strings.ToUpper(apiKey)+apiKey)
			io.WriteString(w, "{}")
		case 3: // the token in three escapings, the short query value plain
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"token %s from ?k=%s","data":"%s %s"}}`, id, html, short, enc, pct)
		default: // the key as the task's state
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"kind":"task","id":"t","status":{"state":%q}}}`, id, apiKey)
		}
	}})
	logger, records := newCapture()
	c, err := a2a.NewClient(srv.URL+"/a2a?k="+short, a2a.WithAPIKey(apiKey), a2a.WithBearerToken(bearer),
		a2a.WithLogger(logger), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for range 3 {
		_, err := c.GetTask(context.Background(), "t")
		if err == nil {
			t.Fatal("want an error")
		}
		texts = append(texts, errorTexts(err)...)
	}
	_, err = c.WaitTask(context.Background(), "t", a2a.PollMaxAttempts(1))
	if _, ok := errors.AsType[*a2a.PollError](err); !ok {
		t.Fatalf("WaitTask: %v, want a PollError", err)
	}
	texts = append(texts, errorTexts(err)...)
	noSecrets(t, append(texts, records()...), apiKey, strings.ToLower(apiKey), "9f8e7d6c5b4a3210", "Zm9vYmFyYmF6", "cXV1eA", short)
}

// TestSecretsInOddPlaces: secrets echoed in a result kind, in "jsonrpc", as
// a short key, overlapping userinfo, or with quotes inside are still redacted.
func TestSecretsInOddPlaces(t *testing.T) {
	const key, token = "sk-live-KIND-0123456789abcdef0123456789abcdef01234567", `tok"en-secret-123456`
	tests := []struct {
		name   string
		body   string
		opts   []a2a.Option
		secret string
	}{
		{"kind", `{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"` + key + `","id":"t"}}`, []a2a.Option{a2a.WithAPIKey(key)}, key[:12]},
		{"jsonrpc", `{"jsonrpc":"` + key + `","id":{{id}},"result":{}}`, []a2a.Option{a2a.WithAPIKey(key)}, key[:12]},
		{"short key", `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-1,"message":"key k9z rejected"}}`, []a2a.Option{a2a.WithAPIKey("k9z")}, "k9z"},
		{"quoted token", `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-1,"message":"bad token tok\"en-secret-123456"}}`, []a2a.Option{a2a.WithBearerToken(token)}, "en-secret"},
	}
	for _, tt := range tests {
		opts := append([]a2a.Option{a2a.WithHTTPClient(&http.Client{Transport: newEcho(t, tt.body, 0, false)})}, tt.opts...)
		c, err := a2a.NewClient(mockURL, opts...)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.SendText(context.Background(), "x")
		if err == nil {
			t.Fatalf("%s: want an error", tt.name)
		}
		noSecrets(t, errorTexts(err), tt.secret)
	}
	// Userinfo where the user name is a prefix of the password.
	c, _ := a2a.NewClient("http://admin:admin-S3cretPassw0rd@agent.example/a2a", a2a.WithHTTPClient(&http.Client{Transport: newEcho(t,
		`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-1,"message":"auth admin-S3cretPassw0rd"}}`, 0, false)}))
	_, err := c.GetTask(context.Background(), "t")
	if err == nil {
		t.Fatal("userinfo: want an error")
	}
	noSecrets(t, errorTexts(err), "S3cret")
}

// TestSecretsEscapedInReplies: a server that echoes a secret with some of
// its characters escaped (JSON \u, %XX, HTML &#…;), in an id, an error's
// message and data, or an error page, does not get it past the redactor.
func TestSecretsEscapedInReplies(t *testing.T) {
	const key = "sk-live-Ab3dEf9hIjKlMnOp"
	tail := "f9hIjKlMnOp" // what is left of the key after its escaped "E"
	replies := []mockReply{
		{body: []byte(`{"jsonrpc":"2.0","id":"sk-live-Ab3d\u0045f9hIjKlMnOp","result":{}}`)},
		{body: []byte(`{"jsonrpc":"2.0","id":{"sk-live-Ab3d\u0045f9hIjKlMnOp":1},"result":{}}`)},
		{body: []byte(`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32600,"message":"bad key sk-live-Ab3d%45f9hIjKlMnOp","data":"sk-live-Ab3d&#69;f9hIjKlMnOp"}}`)},
		{status: 500, ctype: "text/html", body: []byte(`<p>key sk-live-Ab3d&#x45;f9hIjKlMnOp</p>`)},
	}
	for i, rep := range replies {
		c, _ := newMock(t, []mockReply{rep}, a2a.WithAPIKey(key), a2a.WithMaxRetries(0))
		_, err := c.GetTask(context.Background(), "t")
		if err == nil {
			t.Fatalf("reply %d: no error", i)
		}
		noSecrets(t, errorTexts(err), key, tail)
	}
}

// TestSecretsEscapedMixed: a push token and a Basic credential echoed with
// their "/" as "\/" and another character as a \u escape in upper case,
// and a key in the card URL's path, are redacted everywhere they show.
func TestSecretsEscapedMixed(t *testing.T) {
	const token = "tok/en<12345678"
	const user, pass = "caller", "p/ss?word-9f8e"
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	echo := strings.NewReplacer("/", `\/`, "<", `\u003C`).Replace(token)
	basicEcho := strings.ReplaceAll(basic, "/", `\/`)
	if !strings.Contains(basic, "/") {
		t.Fatalf("pick a password whose Basic form has a /: %s", basic)
	}
	srv, _ := serveFake(t, mockReply{body: []byte(`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32602,"message":"bad","data":"` + echo + ` ` + basicEcho + `"}}`)})
	endpoint := strings.Replace(srv.URL, "http://", "http://"+user+":"+url.PathEscape(pass)+"@", 1)
	c, err := a2a.NewClient(endpoint)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateTaskPushNotificationConfig(context.Background(), a2a.TaskPushNotificationConfig{TaskID: "t",
		PushNotificationConfig: a2a.PushNotificationConfig{URL: "https://hook.example/", Token: token}})
	if _, ok := errors.AsType[*a2a.RPCError](err); !ok {
		t.Fatalf("err = %v", err)
	}
	noSecrets(t, errorTexts(err), token, "12345678", basic, basicEcho, echo)

	const key = "sk-live-9f8e7d6c5b4a3210"
	_, err = a2a.ResolveAgentCard(context.Background(), "http://127.0.0.1:1/agents/"+key+"/", a2a.WithMaxRetries(0))
	if _, ok := errors.AsType[*a2a.CardError](err); !ok {
		t.Fatalf("err = %v, want a CardError", err)
	}
	noSecrets(t, errorTexts(err), key)
}

// TestRedactEveryCredentialShape: a cookie's value among other pairs, the
// user name of a userinfo without password (net/http sends it as Basic),
// what a Basic header encodes, and keys in a path written Telegram-style
// (bot…:…), with underscores and no digits, or as key=…: all redacted when
// echoed back.
func TestRedactEveryCredentialShape(t *testing.T) {
	const (
		cookie  = "Zq8sEssion0fUser77"
		user    = "ghp_Zk3yT0kenAbcdefGhij12"
		basicPW = "alice:Hunter2hunter2"
	)
	userBasic := base64.StdEncoding.EncodeToString([]byte(user + ":"))
	echo := cookie + " " + userBasic + " " + basicPW
	srv, _ := serveFake(t, mockReply{status: 401, ctype: "text/plain", body: []byte("denied: " + echo)})
	endpoint := strings.Replace(srv.URL, "http://", "http://"+user+"@", 1)
	c, err := a2a.NewClient(endpoint, a2a.WithMaxRetries(0),
		a2a.WithHeader("Cookie", "sid="+cookie+"; theme=dark"),
		a2a.WithHeader("X-Upstream-Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(basicPW))))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetTask(context.Background(), "t")
	if _, ok := errors.AsType[*a2a.HTTPError](err); !ok {
		t.Fatalf("err = %v, want an HTTPError", err)
	}
	noSecrets(t, errorTexts(err), cookie, userBasic, "Hunter2hunter2", user)

	for _, key := range []string{"bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw", "sk_live_abcdefghijklmnopqrstuvwx", "key=0123456789abcdef0123"} {
		_, err = a2a.ResolveAgentCard(context.Background(), "http://127.0.0.1:1/agents/"+key+"/", a2a.WithMaxRetries(0))
		if _, ok := errors.AsType[*a2a.CardError](err); !ok {
			t.Fatalf("err = %v, want a CardError", err)
		}
		_, secret, _ := strings.Cut(key, ":")
		if _, v, ok := strings.Cut(key, "="); ok {
			secret = v
		}
		noSecrets(t, errorTexts(err), cmp.Or(secret, key))
	}
}

// TestPushSecretsRedactedV10: on a client that speaks A2A v1.0, a push
// config's token, credentials and webhook URL credentials given to
// CreateTaskPushNotificationConfig never show in the error, when the agent
// echoes them in the message, in the data (plain or escaped), inside the
// ErrorInfo details' metadata and reason, or in a result it gets wrong;
// as for v0.3 (TestPushSecretsScrubbed).
func TestPushSecretsRedactedV10(t *testing.T) {
	const (
		token = "PUSHTOKEN-v10-7f3a9c"
		cred  = "CRED-v10-4b8e21"
		pass  = "HOOKPASS-v10-55d0"
		sig   = "HOOKSIG-v10-9a1c"
	)
	hook := "https://hook:" + pass + "@hooks.example/a2a?sig=" + sig
	esc := strings.NewReplacer("-", `\u002D`, "/", `\/`)
	info := func(metadata string) string {
		return `{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"BAD_TOKEN ` + token + `","domain":"a2a-protocol.org","metadata":` + metadata + `}`
	}
	for name, tt := range map[string]struct {
		reply   mockReply
		details int // how many details the error keeps, redacted
	}{
		"message and details": {mockReply{body: []byte(`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32602,"message":"bad config ` + token + ` ` + cred + ` ` + hook + `","data":[` +
			info(`{"token":"`+token+`","credentials":"`+cred+`","url":"`+hook+`","nested":{"t":"`+token+`"}}`) + `,` +
			`{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"token","description":"` + token + ` is bad"}]}]}}`)}, 2},
		"details escaped": {mockReply{body: []byte(`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32602,"message":"bad config","data":[` +
			info(`{"token":"`+esc.Replace(token)+`","credentials":"`+esc.Replace(cred)+`","url":"`+esc.Replace(hook)+`"}`) + `]}}`)}, 1},
		"data a string":               {mockReply{body: []byte(`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32602,"message":"bad","data":"` + esc.Replace(token) + ` ` + cred + `"}}`)}, 0},
		"error with HTTP 500":         {mockReply{status: 500, body: []byte(`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32603,"message":"` + token + `","data":[` + info(`{"c":"`+cred+`"}`) + `]}}`)}, 1},
		"a result about another task": {mockReply{body: []byte(`{"jsonrpc":"2.0","id":{{id}},"result":{"taskId":"t2","id":"c1","url":"` + hook + `","token":"` + token + `","authentication":{"scheme":"Bearer","credentials":"` + cred + `"}}}`)}, 0},
		"an error page":               {mockReply{status: 502, ctype: "text/html", body: []byte(`<p>bad gateway for ` + token + ` ` + cred + ` ` + hook + `</p>`)}, 0},
	} {
		t.Run(name, func(t *testing.T) {
			c, _ := newMock(t, []mockReply{tt.reply}, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithMaxRetries(0))
			_, err := c.CreateTaskPushNotificationConfig(context.Background(), a2a.TaskPushNotificationConfig{TaskID: "t1",
				PushNotificationConfig: a2a.PushNotificationConfig{URL: hook, Token: token,
					Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: cred}}})
			if err == nil {
				t.Fatal("want an error")
			}
			texts := errorTexts(err)
			var details []a2a.ErrorDetail
			if re, ok := errors.AsType[*a2a.RPCError](err); ok {
				details = re.Details
			}
			if len(details) != tt.details {
				t.Errorf("%d details, want %d: %v", len(details), tt.details, err)
			}
			for _, d := range details {
				texts = append(texts, d.Type, d.Reason, d.Domain, string(d.Raw))
				for k, v := range d.Metadata {
					texts = append(texts, k, v)
				}
			}
			noSecrets(t, texts, token, cred, pass, sig, esc.Replace(token), esc.Replace(cred), "7f3a9c", "4b8e21")
		})
	}
}

// cyclingReplies is an agent answering each request with the next of
// replies, in turn: "{{id}}" becomes the request's id, and a reply that
// starts with "<html>" comes with status 500.
func cyclingReplies(t *testing.T, replies []string) *httptest.Server {
	var mu sync.Mutex
	i := 0
	srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
		mu.Lock()
		body := replies[i%len(replies)]
		i++
		mu.Unlock()
		if strings.HasPrefix(body, "<html>") {
			w.WriteHeader(500)
		}
		w.Write([]byte(strings.ReplaceAll(body, "{{id}}", id)))
	}})
	return srv
}

// getTaskErrors calls c.GetTask n times, each expected to fail, and
// returns the texts of the errors.
func getTaskErrors(t *testing.T, c *a2a.Client, n int) []string {
	var texts []string
	for range n {
		_, err := c.GetTask(context.Background(), "t")
		if err == nil {
			t.Fatal("want an error")
		}
		texts = append(texts, errorTexts(err)...)
	}
	return texts
}
