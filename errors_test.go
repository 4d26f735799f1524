package a2a_test

import (
	"bufio"
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
	"syscall"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// TestRPCErrorIs: every standard JSON-RPC and A2A code matches its sentinel
// and no other; unknown codes are kept as numbers.
func TestRPCErrorIs(t *testing.T) {
	sentinels := map[int]error{
		-32700: a2a.ErrParse, -32600: a2a.ErrInvalidRequest, -32601: a2a.ErrMethodNotFound,
		-32602: a2a.ErrInvalidParams, -32603: a2a.ErrInternal, -32001: a2a.ErrTaskNotFound,
		-32002: a2a.ErrTaskNotCancelable, -32003: a2a.ErrPushNotificationNotSupported,
		-32004: a2a.ErrUnsupportedOperation, -32005: a2a.ErrContentTypeNotSupported,
		-32006: a2a.ErrInvalidAgentResponse, -32007: a2a.ErrAuthenticatedExtendedCardNotConfigured,
	}
	for code, sentinel := range sentinels {
		var err error = fmt.Errorf("wrapped: %w", &a2a.RPCError{Method: "tasks/get", Code: code, Message: "m"})
		for other, s := range sentinels {
			if got := errors.Is(err, s); got != (other == code) {
				t.Errorf("code %d: errors.Is(err, sentinel %d) = %v", code, other, got)
			}
		}
		if !strings.Contains(sentinel.Error(), fmt.Sprint(code)) {
			t.Errorf("sentinel %d Error() = %q", code, sentinel.Error())
		}
	}
	unknown := &a2a.RPCError{Method: "message/send", Code: -32050, Message: "quota exceeded"}
	for _, s := range sentinels {
		if errors.Is(unknown, s) {
			t.Errorf("code -32050 matched %v", s)
		}
	}
	if got, want := unknown.Error(), "a2a: message/send: quota exceeded (code -32050)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := (&a2a.RPCError{Method: "tasks/get", Code: -32001}).Error(), "a2a: tasks/get: task not found (code -32001)"; got != want {
		t.Errorf("Error() without message = %q, want %q", got, want)
	}
	long := &a2a.RPCError{Method: "m", Code: 1, Message: strings.Repeat("错", 300)}
	if len(long.Error()) > 300 || !strings.HasSuffix(long.Error(), "… (code 1)") {
		t.Errorf("long message not truncated on a rune boundary: %q", long.Error())
	}
}

func TestErrorStrings(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&a2a.HTTPError{Method: "tasks/get", StatusCode: 502, Body: []byte("<html>")}, "a2a: tasks/get: HTTP 502 Bad Gateway"},
		{&a2a.HTTPError{Method: "tasks/get", StatusCode: 429, RetryAfter: 30 * time.Second}, "a2a: tasks/get: HTTP 429 Too Many Requests (retry after 30s)"},
		{&a2a.ProtocolError{Method: "tasks/get", Reason: "response is not JSON", Body: []byte("x")}, "a2a: tasks/get: bad response: response is not JSON"},
		{&a2a.BodyTooLargeError{Method: "tasks/get", Limit: 10}, "a2a: tasks/get: response body exceeds 10 bytes"},
		{&a2a.TransportError{Method: "message/send", Attempts: 4, Err: syscall.ECONNREFUSED}, "a2a: message/send: transport: connection refused (after 4 attempts)"},
		{&a2a.PollError{TaskID: "t1", LastState: "working", Attempts: 5, Elapsed: 2100 * time.Millisecond, Limit: a2a.PollLimitDeadline},
			`a2a: wait for task t1: poll timeout reached after 5 attempts in 2.1s, last state "working"`},
		{&a2a.PollError{TaskID: "t1", Attempts: 1, Limit: a2a.PollLimitContext, Err: context.Canceled},
			`a2a: wait for task t1: context canceled after 1 attempt in 0s, last state ""`},
		{&a2a.PollError{TaskID: "t1", LastState: "paused", Attempts: 3, Limit: a2a.PollLimitAttempts},
			`a2a: wait for task t1: attempt limit reached after 3 attempts in 0s, last state "paused"`},
		{&a2a.MessageReplyError{}, "a2a: message/send: agent replied with a message, not a task"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%T.Error() = %q, want %q", tt.err, got, tt.want)
		}
	}
	inner := errors.New("inner")
	if !errors.Is(&a2a.ProtocolError{Err: inner}, inner) || !errors.Is(&a2a.TransportError{Err: inner}, inner) ||
		!errors.Is(&a2a.PollError{Err: context.Canceled}, context.Canceled) {
		t.Error("Unwrap chain broken")
	}
}

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
	var mu sync.Mutex
	i := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := requestID(r)
		mu.Lock()
		body := replies[i%len(replies)]
		i++
		mu.Unlock()
		if strings.HasPrefix(body, "<html>") {
			w.WriteHeader(500)
		}
		w.Write([]byte(strings.ReplaceAll(body, "{{id}}", id)))
	}))
	defer srv.Close()

	logger, records := newCapture()
	endpoint := strings.Replace(srv.URL, "http://", "http://user:"+secrets[2]+"@", 1) + "/a2a?key=" + secrets[3]
	c, err := a2a.NewClient(endpoint, a2a.WithAPIKey(secrets[0]), a2a.WithBearerToken(secrets[1]),
		a2a.WithHeader("X-Signature", secrets[4]), a2a.WithLogger(logger), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for range replies {
		_, err := c.GetTask(context.Background(), "t")
		if err == nil {
			t.Fatal("want an error")
		}
		texts = append(texts, errorTexts(err)...)
	}
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

// rejectTransport is a stand-in for a replaced http.DefaultTransport.
type rejectTransport struct{}

func (rejectTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("http.DefaultTransport must not be used")
}

// TestReplacedDefaultTransport: NewClient neither panics nor uses
// http.DefaultTransport when a test or tracing library has replaced it.
func TestReplacedDefaultTransport(t *testing.T) {
	saved := http.DefaultTransport
	http.DefaultTransport = rejectTransport{}
	t.Cleanup(func() { http.DefaultTransport = saved })
	srv := a2atest.NewServer()
	defer srv.Close()
	c, err := a2a.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendText(context.Background(), "hi"); err != nil {
		t.Fatal(err)
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
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
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
	}))
	defer srv.Close()

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
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := requestID(r)
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
	}))
	defer srv.Close()
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
