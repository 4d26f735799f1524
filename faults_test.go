package a2a_test

import (
	"bufio"
	"context"
	"errors"
	"math"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/jarcoal/httpmock"
)

// TestSwitchingProtocols: a 101 reply hands over a raw connection; the call
// must end with an *HTTPError at once, not wait for the peer to close.
func TestSwitchingProtocols(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	conns := make(chan net.Conn, 1)
	go func() {
		conn, err := l.Accept()
		if err != nil {
			return
		}
		req, err := http.ReadRequest(bufio.NewReader(conn))
		if err == nil {
			req.Body.Close()
			conn.Write([]byte("HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n"))
		}
		conns <- conn // held open until the test ends
	}()
	c, _ := a2a.NewClient("http://"+l.Addr().String()+"/a2a", a2a.WithMaxRetries(0))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = c.GetTask(ctx, "t")
	if he, ok := errors.AsType[*a2a.HTTPError](err); !ok || he.StatusCode != 101 {
		t.Errorf("err = %v, want *HTTPError 101", err)
	}
	(<-conns).Close()
}

// TestSendNotRetriedWhenAgentAnswered: a 429 or 503 whose body is a JSON-RPC
// response came from the agent; message/send is not sent again and the body
// is believed (a failed task stays a value).
func TestSendNotRetriedWhenAgentAnswered(t *testing.T) {
	failed := fixture(t, "send_failed.json")
	rpcErr := []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"overloaded"}}`)
	for _, status := range []int{429, 503} {
		rep := rpcReply(failed)
		rep.status = status
		c, rec := newMock(t, []mockReply{rep})
		task, err := c.SendText(context.Background(), "hi")
		if err != nil || task.Status.State != a2a.TaskStateFailed {
			t.Errorf("%d with a result: %v, %v", status, task, err)
		}
		if len(rec.got) != 1 {
			t.Errorf("%d with a result: %d POSTs, want 1", status, len(rec.got))
		}
		rep = rpcReply(rpcErr)
		rep.status = status
		c, rec = newMock(t, []mockReply{rep})
		if _, err := c.SendText(context.Background(), "hi"); !errors.Is(err, a2a.ErrInternal) || len(rec.got) != 1 {
			t.Errorf("%d with an error: %v after %d POSTs, want ErrInternal after 1", status, err, len(rec.got))
		}
	}
}

// TestHugeCaps: a cap near MaxInt64 and a lying Content-Length neither
// overflow nor panic.
func TestHugeCaps(t *testing.T) {
	body := withID(fixture(t, "get_task.json"), []byte("1"))
	tr := httpmock.NewMockTransport()
	tr.RegisterResponder(http.MethodPost, mockURL, func(req *http.Request) (*http.Response, error) {
		resp := httpmock.NewBytesResponse(200, body)
		resp.ContentLength = math.MaxInt64 / 2
		return resp, nil
	})
	for _, limit := range []int64{math.MaxInt64, math.MaxInt64 / 2, 1 << 62} {
		c, _ := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: tr}), a2a.WithMaxResponseBytes(limit))
		if task, err := c.GetTask(context.Background(), "t"); err != nil || task.ID == "" {
			t.Errorf("cap %d: %v, %v", limit, task, err)
		}
	}
}

// TestTaskWithoutID: a "task" result with no id cannot be polled or
// followed up; it is a protocol error, never an empty task.
func TestTaskWithoutID(t *testing.T) {
	c, _ := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: newEchoTransport(
		`{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","status":{"state":"completed"}}}`)}))
	_, err := c.SendText(context.Background(), "x")
	if pe, ok := errors.AsType[*a2a.ProtocolError](err); !ok || !strings.Contains(pe.Reason, `no "id"`) {
		t.Errorf("err = %v", err)
	}
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
		opts := append([]a2a.Option{a2a.WithHTTPClient(&http.Client{Transport: newEchoTransport(tt.body)})}, tt.opts...)
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
	c, _ := a2a.NewClient("http://admin:admin-S3cretPassw0rd@agent.example/a2a", a2a.WithHTTPClient(&http.Client{Transport: newEchoTransport(
		`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-1,"message":"auth admin-S3cretPassw0rd"}}`)}))
	_, err := c.GetTask(context.Background(), "t")
	if err == nil {
		t.Fatal("userinfo: want an error")
	}
	noSecrets(t, errorTexts(err), "S3cret")
}
