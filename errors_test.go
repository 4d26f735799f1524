package a2a_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestRPCErrorIs: every standard JSON-RPC and A2A code matches its sentinel
// and no other; unknown codes are kept as numbers.
func TestRPCErrorIs(t *testing.T) {
	sentinels := map[int]error{
		-32700: a2a.ErrParse, -32600: a2a.ErrInvalidRequest, -32601: a2a.ErrMethodNotFound,
		-32602: a2a.ErrInvalidParams, -32603: a2a.ErrInternal, -32001: a2a.ErrTaskNotFound,
		-32002: a2a.ErrTaskNotCancelable, -32003: a2a.ErrPushNotificationNotSupported,
		-32004: a2a.ErrUnsupportedOperation, -32005: a2a.ErrContentTypeNotSupported,
		-32006: a2a.ErrInvalidAgentResponse, -32007: a2a.ErrExtendedAgentCardNotConfigured,
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

// TestRPCErrorPrintable: the server's message cannot forge log lines or
// terminal output: control characters and escape sequences come out as Go
// escapes, other text as it is.
func TestRPCErrorPrintable(t *testing.T) {
	e := &a2a.RPCError{Method: "tasks/get", Code: -32603, Message: "boom\nINFO forged line\r\x1b[31mred\x1b[0m \"查询\" \xff"}
	want := `a2a: tasks/get: boom\nINFO forged line\r\x1b[31mred\x1b[0m "查询" \xff (code -32603)`
	if got := e.Error(); got != want {
		t.Errorf("Error() = %s\nwant     %s", got, want)
	}
}

// TestServerTextOnOneLine: server text that reaches an error's text by
// another way than RPCError's message (a response id, a task id in a poll
// that ran out) is escaped the same way: no line break, terminal escape or
// bidi override reaches a log.
func TestServerTextOnOneLine(t *testing.T) {
	c, _ := newMock(t, []mockReply{{status: 200, ctype: "application/json", body: []byte("{\"jsonrpc\":\"2.0\",\"id\":{\n\"INFO all good\u202e\":1},\"result\":{}}")}})
	_, err := c.GetTask(context.Background(), "t")
	pe := &a2a.PollError{TaskID: "t\x1b[2J\x1b]0;pwned\x07", Limit: a2a.PollLimitAttempts, Attempts: 1}
	for _, e := range []error{err, pe} {
		if e == nil || strings.ContainsAny(e.Error(), "\n\x1b\x07\u202e") {
			t.Errorf("error text %q carries raw control or format characters", e)
		}
	}
}

// TestLargeErrorDetails: error data over 64 KiB is kept raw and not
// decoded into Details (decoding maps of tiny entries takes tens of times
// their size).
func TestLargeErrorDetails(t *testing.T) {
	meta := strings.Repeat(`"k":1,`, 20000)
	data := `[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"R","metadata":{` + meta + `"z":1}}]`
	c, _ := newMock(t, []mockReply{rpcReply([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"no","data":` + data + `}}`))},
		a2a.WithProtocolVersion(a2a.ProtocolV10))
	_, err := c.GetTask(context.Background(), "t1")
	var re *a2a.RPCError
	if !errors.As(err, &re) || re.Details != nil || string(re.Data) != data || re.Reason() != "" {
		t.Errorf("got %v (details %d, data %d bytes); want the data raw and no details", err, len(re.Details), len(re.Data))
	}
}

// TestTransportErrorPrintable: a TLS certificate's names are the server's
// text; one holding a terminal escape, a bidi override or a line break
// reaches TransportError.Error() escaped, as RPCError's message does.
func TestTransportErrorPrintable(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	hostile := "evil\x1b]8;;http://x\x07\x1b[31m\x7f\nINFO forged" // a DNS name is ASCII (IA5) only
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "a2a test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{hostile}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	srv.StartTLS()
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, ServerName: "agent.example"}}}
	defer hc.CloseIdleConnections()
	c, err := a2a.NewClient(srv.URL, a2a.WithHTTPClient(hc), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetTask(t.Context(), "t1")
	var te *a2a.TransportError
	if !errors.As(err, &te) {
		t.Fatalf("err = %v (%T), want a *TransportError", err, err)
	}
	if !strings.Contains(te.Err.Error(), hostile) {
		t.Fatalf("the certificate's name is not in the TLS error, the test checks nothing: %v", te.Err)
	}
	got := te.Error()
	if strings.ContainsAny(got, "\x1b\x07\n\x7f") {
		t.Errorf("TransportError.Error() = %q: raw control or format characters", got)
	}
	if !strings.Contains(got, `evil\x1b]8;;http://x\a\x1b[31m\x7f\nINFO forged`) {
		t.Errorf("TransportError.Error() = %q: the name is not shown escaped", got)
	}
}

// TestTransportErrorPrintableBuilt: the same for an error made by hand.
func TestTransportErrorPrintableBuilt(t *testing.T) {
	e := &a2a.TransportError{Method: "tasks/get", Attempts: 1, Err: errors.New("proxy says \x1b[2J\u200bhi\r")}
	if got, want := e.Error(), `a2a: tasks/get: transport: proxy says \x1b[2J\u200bhi\r (after 1 attempt)`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestHTTPErrorHeadersBounded: the headers an *HTTPError keeps
// (Challenge, ContentType) are excerpts, as Body is, whatever the agent
// sends: an 8 MiB WWW-Authenticate does not land whole in the error.
func TestHTTPErrorHeadersBounded(t *testing.T) {
	huge := "Bearer realm=\"" + strings.Repeat("r", 8<<20) + "\""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", huge)
		w.Header().Set("Content-Type", "text/plain; x="+strings.Repeat("c", 64<<10))
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer srv.Close()
	c, err := a2a.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetTask(context.Background(), "t1")
	he, ok := errors.AsType[*a2a.HTTPError](err)
	if !ok || he.StatusCode != 401 {
		t.Fatalf("err = %v, want an HTTPError 401", err)
	}
	if len(he.Challenge) > 520 || !strings.HasPrefix(he.Challenge, "Bearer realm=") || len(he.ContentType) > 520 {
		t.Errorf("Challenge %d bytes, ContentType %d bytes: want excerpts of at most 512 and a mark", len(he.Challenge), len(he.ContentType))
	}
}
