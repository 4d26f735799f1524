package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// clierrBinding is one of the four bindings a2atest speaks, and the
// client options that speak it.
type clierrBinding struct {
	name   string
	server []a2atest.Option
	client []a2a.Option
	rest   bool
}

var clierrBindings = []clierrBinding{
	{name: "v0.3 JSON-RPC"},
	{name: "v0.3 HTTP+JSON", server: []a2atest.Option{a2atest.HTTPJSON()},
		client: []a2a.Option{a2a.WithTransports(a2a.TransportHTTPJSON)}, rest: true},
	{name: "v1.0 JSON-RPC", server: []a2atest.Option{a2atest.V10()},
		client: []a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10)}},
	{name: "v1.0 HTTP+JSON", server: []a2atest.Option{a2atest.V10(), a2atest.HTTPJSON()},
		client: []a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON)}, rest: true},
}

// sendError is an OnSend handler whose every send is refused with code.
func sendError(code int, msg string) a2atest.Option {
	return a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Error: &a2a.RPCError{Code: code, Message: msg}}
	})
}

// completedSend is an OnSend handler whose every send completes its task.
var completedSend = a2atest.OnSend(func(a2a.Message) a2atest.Reply {
	return a2atest.Reply{Task: a2atest.CompletedTask("r", map[string]any{"ok": true}, "done")}
})

// TestClassifySameOnEveryBinding: the same A2A error, provoked on each of
// the four bindings, is classified the same (code, hint, exit); only
// a2aCode is the binding's own (the JSON-RPC code, or the HTTP status).
func TestClassifySameOnEveryBinding(t *testing.T) {
	const ext = "https://ext.example/required v1"
	cases := []struct {
		name       string
		server     []a2atest.Option
		call       func(ctx context.Context, c *a2a.Client) error
		code, hint string
		rpcCode    int
		httpStatus int
	}{
		{name: "task not found",
			call: func(ctx context.Context, c *a2a.Client) error { _, err := c.GetTask(ctx, "no-such-task"); return err },
			code: "TaskNotFoundError", hint: "check the task id; --debug shows the agent's error", rpcCode: -32001, httpStatus: 404},
		{name: "task not cancelable", server: []a2atest.Option{completedSend},
			call: func(ctx context.Context, c *a2a.Client) error {
				task, err := c.SendText(ctx, "hi")
				if err != nil {
					return fmt.Errorf("send: %v", err) // not the error under test
				}
				_, err = c.CancelTask(ctx, task.ID)
				return err
			},
			code: "TaskNotCancelableError", hint: a2aErrorHints[-32002], rpcCode: -32002, httpStatus: 400},
		{name: "push not supported", server: []a2atest.Option{sendError(-32003, "push notifications are not supported")},
			call: func(ctx context.Context, c *a2a.Client) error { _, err := c.SendText(ctx, "hi"); return err },
			code: "PushNotificationNotSupportedError", hint: a2aErrorHints[-32003], rpcCode: -32003, httpStatus: 400},
		{name: "unsupported operation", server: []a2atest.Option{sendError(-32004, "not supported")},
			call: func(ctx context.Context, c *a2a.Client) error { _, err := c.SendText(ctx, "hi"); return err },
			code: "UnsupportedOperationError", hint: a2aErrorHints[-32004], rpcCode: -32004, httpStatus: 400},
		{name: "content type", server: []a2atest.Option{sendError(-32005, "no such media type")},
			call: func(ctx context.Context, c *a2a.Client) error { _, err := c.SendText(ctx, "hi"); return err },
			code: "ContentTypeNotSupportedError", hint: a2aErrorHints[-32005], rpcCode: -32005, httpStatus: 400},
		{name: "invalid agent response", server: []a2atest.Option{sendError(-32006, "the model said nothing")},
			call: func(ctx context.Context, c *a2a.Client) error { _, err := c.SendText(ctx, "hi"); return err },
			code: "InvalidAgentResponseError", hint: a2aErrorHints[-32006], rpcCode: -32006, httpStatus: 500},
		{name: "extended card not configured",
			call: func(ctx context.Context, c *a2a.Client) error { _, err := c.GetExtendedAgentCard(ctx); return err },
			code: "ExtendedAgentCardNotConfiguredError", hint: a2aErrorHints[-32007], rpcCode: -32007, httpStatus: 400},
		{name: "extension required", server: []a2atest.Option{a2atest.RequireExtension(ext), completedSend},
			call: func(ctx context.Context, c *a2a.Client) error { _, err := c.SendText(ctx, "hi"); return err },
			code: "ExtensionSupportRequiredError", hint: "add --extension 'https://ext.example/required v1'", rpcCode: -32008, httpStatus: 400},
		{name: "version not supported", server: []a2atest.Option{sendError(-32009, "version refused")},
			call: func(ctx context.Context, c *a2a.Client) error { _, err := c.SendText(ctx, "hi"); return err },
			code: "VersionNotSupportedError", rpcCode: -32009, httpStatus: 400}, // hint: TestClassifyVersionMismatch
		{name: "invalid params", server: []a2atest.Option{sendError(-32602, "bad params")},
			call: func(ctx context.Context, c *a2a.Client) error { _, err := c.SendText(ctx, "hi"); return err },
			code: "InvalidParamsError", hint: a2aErrorHints[-32602], rpcCode: -32602, httpStatus: 400},
		{name: "internal", server: []a2atest.Option{sendError(-32603, "boom")},
			call: func(ctx context.Context, c *a2a.Client) error { _, err := c.SendText(ctx, "hi"); return err },
			code: "InternalError", hint: a2aErrorHints[-32603], rpcCode: -32603, httpStatus: 500},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var first *cliError
			for _, b := range clierrBindings {
				srv := a2atest.NewServer(append(append([]a2atest.Option{}, b.server...), tc.server...)...)
				c, err := a2a.NewClient(srv.URL, append([]a2a.Option{a2a.WithMaxRetries(0)}, b.client...)...)
				if err != nil {
					srv.Close()
					t.Fatal(err)
				}
				err = tc.call(t.Context(), c)
				srv.Close()
				if err == nil {
					t.Fatalf("%s: no error", b.name)
				}
				got := classify(err, false)
				if got.Code != tc.code || got.Exit != 1 {
					t.Errorf("%s: classify(%v) = %#v, want code %s, exit 1", b.name, err, got, tc.code)
				}
				if tc.hint != "" && got.Hint != tc.hint {
					t.Errorf("%s: hint %q, want %q", b.name, got.Hint, tc.hint)
				}
				want := any(tc.rpcCode)
				if b.rest {
					want = tc.httpStatus
				}
				if got.A2ACode != want {
					t.Errorf("%s: a2aCode %v, want %v", b.name, got.A2ACode, want)
				}
				if got.Message == "" {
					t.Errorf("%s: empty message", b.name)
				}
				if first == nil {
					first = &got
				} else if got.Code != first.Code || got.Hint != first.Hint && tc.hint != "" || got.Exit != first.Exit {
					t.Errorf("%s: %#v differs from %s's %#v", b.name, got, clierrBindings[0].name, *first)
				}
			}
		})
	}
}

// TestClassifyVersionMismatch: an agent that refuses the version spoken
// (-32009 from a v1.0 agent to a v0.3 client) gives the --a2a-version it
// speaks; so does a reply in the other version's shapes.
func TestClassifyVersionMismatch(t *testing.T) {
	cases := []struct {
		name   string
		server []a2atest.Option
		client []a2a.Option
		hint   string
	}{
		{"v1.0 agent, v0.3 client", []a2atest.Option{a2atest.V10()}, nil, "--a2a-version 1.0"},
		{"v1.0 agent refusing, v1.0 client", []a2atest.Option{a2atest.V10(), sendError(-32009, "version refused")},
			[]a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10)}, "--a2a-version 0.3"},
		{"v0.3 HTTP+JSON agent refusing, v0.3 client", []a2atest.Option{a2atest.HTTPJSON(), sendError(-32009, "version refused")},
			[]a2a.Option{a2a.WithTransports(a2a.TransportHTTPJSON)}, "--a2a-version 1.0"},
		{"v1.0 HTTP+JSON agent refusing, v1.0 client", []a2atest.Option{a2atest.V10(), a2atest.HTTPJSON(), sendError(-32009, "version refused")},
			[]a2a.Option{a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithProtocolVersion(a2a.ProtocolV10)}, "--a2a-version 0.3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := a2atest.NewServer(tc.server...)
			defer srv.Close()
			c, err := a2a.NewClient(srv.URL, tc.client...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.SendText(t.Context(), "hi")
			got := classify(err, false)
			if got.Code != "VersionNotSupportedError" || got.Hint != tc.hint || got.Exit != 1 {
				t.Errorf("classify(%v) = %#v, want VersionNotSupportedError, hint %q", err, got, tc.hint)
			}
		})
	}
	// A v0.3 agent asked a v1.0 method: the agent's MethodNotFoundError,
	// with the version to try.
	old := a2atest.NewServer()
	defer old.Close()
	c10, err := a2a.NewClient(old.URL, a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c10.GetTask(t.Context(), "t1")
	if got := classify(err, false); got.Code != "MethodNotFoundError" || !strings.HasSuffix(got.Hint, "--a2a-version 0.3") || got.A2ACode != -32601 {
		t.Errorf("v1.0 method to a v0.3 agent: classify(%v) = %#v", err, got)
	}
	// A v1.0 client reading a v0.3 JSON-RPC result ("kind"): the agent
	// speaks v0.3.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"}}}`)
	}))
	defer srv.Close()
	c, err := a2a.NewClient(srv.URL, a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetTask(t.Context(), "t1")
	if got := classify(err, false); got.Code != "VersionNotSupportedError" || got.Hint != "--a2a-version 0.3" || got.A2ACode != nil {
		t.Errorf("v0.3 shapes to a v1.0 client: classify(%v) = %#v", err, got)
	}
}

// rawAgent is a loopback agent answering every request with status,
// header and body.
func rawAgent(t *testing.T, status int, header map[string]string, body string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestClassifyFailures: failures that are not the agent's A2A errors, each
// met for real (loopback servers, a closed port, a TLS server, a
// deadline), get their Appendix D code, exit status and hint.
func TestClassifyFailures(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String()
	closed.Close()
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshake the client refuses
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	html := `<html><body>hello</body></html>`
	getTask := func(url string, creds bool, opts ...a2a.Option) func(context.Context) error {
		return func(ctx context.Context) error {
			opts = append([]a2a.Option{a2a.WithMaxRetries(0)}, opts...)
			if creds {
				opts = append(opts, a2a.WithBearerToken("s3cret-token"))
			}
			c, err := a2a.NewClient(url, opts...)
			if err != nil {
				return err
			}
			_, err = c.GetTask(ctx, "t1")
			return err
		}
	}
	bearer := map[string]string{"WWW-Authenticate": `Bearer realm="a2a"`}
	cases := []struct {
		name    string
		creds   bool
		call    func(context.Context) error
		code    string
		exit    int
		a2aCode any
		hint    string // a substring
	}{
		{"401 without credentials", false, getTask(rawAgent(t, 401, bearer, "no"), false),
			cliErrCredentialsMissing, 4, 401, "--bearer TOKEN"},
		{"401 with credentials", true, getTask(rawAgent(t, 401, bearer, "no"), true),
			cliErrAuthFailed, 4, 401, "refused"},
		{"403 with credentials", true, getTask(rawAgent(t, 403, nil, "no"), true),
			cliErrAuthFailed, 4, 403, "not allowed"},
		{"403 without credentials, HTTP+JSON", false, getTask(rawAgent(t, 403, nil, `{"error":{"code":403,"status":"PERMISSION_DENIED","message":"no"}}`), false, a2a.WithTransports(a2a.TransportHTTPJSON)),
			cliErrCredentialsMissing, 4, 403, "--api-key KEY"},
		{"a2a-go's -31401", false, getTask(rawAgent(t, 200, map[string]string{"Content-Type": "application/json"}, `{"jsonrpc":"2.0","id":1,"error":{"code":-31401,"message":"unauthenticated"}}`), false),
			cliErrCredentialsMissing, 4, -31401, "--bearer"},
		{"credential source failed", true, getTask(rawAgent(t, 200, nil, ""), false, a2a.WithCredentials(a2a.CredentialFunc(
			func(context.Context, *a2a.Credential) (a2a.Credential, error) {
				return a2a.Credential{}, errors.New("refresh token expired")
			}))), cliErrAuthFailed, 4, nil, "a2a auth login"},
		{"closed port", false, getTask(closedURL, false), cliErrUnreachable, 3, nil, "check the agent's URL"},
		{"unknown CA", false, getTask(tlsSrv.URL, false), cliErrUnreachable, 3, nil, "--insecure skips verification (for development only)"},
		{"HTML 200 reply", false, getTask(rawAgent(t, 200, map[string]string{"Content-Type": "text/html"}, html), false),
			"InvalidAgentResponseError", 1, nil, "--debug"},
		{"truncated JSON", false, getTask(rawAgent(t, 200, map[string]string{"Content-Type": "application/json"}, `{"jsonrpc":"2.0","id":1,"result":{"id":`), false),
			"InvalidAgentResponseError", 1, nil, "--debug"},
		{"HTML 500", false, getTask(rawAgent(t, 500, map[string]string{"Content-Type": "text/html"}, html), false),
			"InternalError", 1, 500, "--debug"},
		{"HTML 502", false, getTask(rawAgent(t, 502, map[string]string{"Content-Type": "text/html"}, html), false),
			cliErrUnreachable, 3, 502, "gateway"},
		{"429", false, getTask(rawAgent(t, 429, map[string]string{"Retry-After": "7"}, "slow down"), false),
			cliErrInternal, 1, 429, "try again after 7s"},
		{"HTML 404 at the endpoint", false, getTask(rawAgent(t, 404, map[string]string{"Content-Type": "text/html"}, html), false),
			cliErrInternal, 1, 404, "check the endpoint URL"},
		{"unknown JSON-RPC code", false, getTask(rawAgent(t, 200, map[string]string{"Content-Type": "application/json"}, `{"jsonrpc":"2.0","id":1,"error":{"code":-32099,"message":"quota"}}`), false),
			cliErrInternal, 1, -32099, "--debug"},
		{"unknown code, known reason", false, getTask(rawAgent(t, 200, map[string]string{"Content-Type": "application/json"},
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32099,"message":"gone","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}`), false),
			"TaskNotFoundError", 1, -32099, "check the task id"},
		{"reply over --max-bytes", false, getTask(rawAgent(t, 200, map[string]string{"Content-Type": "application/json"}, strings.Repeat(" ", 4096)+"{}"), false, a2a.WithMaxResponseBytes(1024)),
			cliErrInternal, 1, nil, "--max-bytes"},
		{"deadline", false, func(ctx context.Context) error {
			ctx, cancel := context.WithDeadline(ctx, time.Now().Add(-time.Second))
			defer cancel()
			return getTask(rawAgent(t, 200, nil, ""), false)(ctx)
		}, cliErrTimeout, 5, nil, ""},
		{"poll out of its budget", false, func(ctx context.Context) error {
			srv := a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
				return a2atest.Reply{Task: &a2a.Task{}, States: []a2a.TaskState{a2a.TaskStateWorking}}
			}))
			defer srv.Close()
			c, err := a2a.NewClient(srv.URL)
			if err != nil {
				return err
			}
			task, err := c.SendText(ctx, "hi")
			if err != nil {
				return err
			}
			_, err = c.WaitTask(ctx, task.ID, a2a.PollMaxAttempts(1), a2a.PollInterval(time.Millisecond))
			return err
		}, cliErrTimeout, 5, nil, ""},
		{"canceled", false, func(ctx context.Context) error {
			ctx, cancel := context.WithCancel(ctx)
			cancel()
			return getTask(rawAgent(t, 200, nil, ""), false)(ctx)
		}, cliErrInternal, 130, nil, ""},
		{"capability refused by the card", false, func(ctx context.Context) error {
			c, err := a2a.NewClientFromCard(&a2a.AgentCard{Name: "x", URL: "http://127.0.0.1:1/a2a", ProtocolVersion: "0.3.0"})
			if err != nil {
				return err
			}
			for _, err := range c.SubscribeToTask(ctx, "t1") {
				return err
			}
			return nil
		}, "UnsupportedOperationError", 1, nil, "drop --stream"},
		{"407 from a proxy", false, getTask(rawAgent(t, 407, map[string]string{"Proxy-Authenticate": "Basic"}, "no"), false),
			cliErrCredentialsMissing, 4, 407, "HTTPS_PROXY"},
		{"a2a-go's -31403 with credentials", true, getTask(rawAgent(t, 200, map[string]string{"Content-Type": "application/json"}, `{"jsonrpc":"2.0","id":1,"error":{"code":-31403,"message":"forbidden"}}`), true),
			cliErrAuthFailed, 4, -31403, "not allowed"},
		{"HTTP+JSON reply to a JSON-RPC client", false, getTask(rawAgent(t, 200, map[string]string{"Content-Type": "application/json"}, `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}`), false),
			"InvalidAgentResponseError", 1, nil, "--transport HTTP+JSON"},
		{"JSON-RPC reply to an HTTP+JSON client", false, getTask(rawAgent(t, 200, map[string]string{"Content-Type": "application/json"}, `{"jsonrpc":"2.0","id":1,"result":{}}`), false, a2a.WithTransports(a2a.TransportHTTPJSON)),
			"InvalidAgentResponseError", 1, nil, "--transport JSONRPC"},
		{"ListTasks in v0.3 JSON-RPC", false, func(ctx context.Context) error {
			c, err := a2a.NewClient("http://127.0.0.1:1/a2a")
			if err != nil {
				return err
			}
			_, err = c.ListTasksPage(ctx, a2a.ListTasksRequest{})
			return err
		}, "UnsupportedOperationError", 1, nil, "--a2a-version 1.0"},
		{"card with no interface spoken", false, func(context.Context) error {
			_, err := a2a.NewClientFromCard(&a2a.AgentCard{Name: "x", SupportedInterfaces: []a2a.AgentInterface{
				{URL: "https://agent.example/grpc", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"}}})
			return err
		}, cliErrInternal, 1, nil, "a2a card get"},
		{"untrusted endpoint", false, func(context.Context) error {
			return &a2a.UntrustedEndpointError{CardOrigin: "https://a.example:443", Endpoint: "https://b.example/rpc"}
		}, cliErrInternal, 1, nil, "--endpoint URL"},
		{"untrusted plain http endpoint", false, func(context.Context) error {
			return &a2a.UntrustedEndpointError{CardOrigin: "https://a.example:443", Endpoint: "http://a.example/rpc", Downgrade: true}
		}, cliErrInternal, 1, nil, ""},
		{"usage", false, func(context.Context) error { return fmt.Errorf("parse: %w", usagef("--history must be a number")) },
			cliErrUsage, 2, nil, "a2a help"},
		{"a cliError as it is", false, func(context.Context) error {
			return fmt.Errorf("wrapped: %w", cliError{Code: "VersionNotSupportedError", Message: "card offers 0.3 only", Hint: "--a2a-version 0.3", Exit: 1})
		}, "VersionNotSupportedError", 1, nil, "--a2a-version 0.3"},
		{"anything else", false, func(context.Context) error { return errors.New("a2a: something odd") }, cliErrInternal, 1, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call(t.Context())
			if err == nil {
				t.Fatal("no error")
			}
			got := classify(err, tc.creds)
			if got.Code != tc.code || got.Exit != tc.exit || got.A2ACode != tc.a2aCode || !strings.Contains(got.Hint, tc.hint) {
				t.Errorf("classify(%v) = %#v, want code %s, exit %d, a2aCode %v, hint with %q", err, got, tc.code, tc.exit, tc.a2aCode, tc.hint)
			}
			if tc.hint == "" && got.Hint != "" {
				t.Errorf("hint %q, want none", got.Hint)
			}
			if got.Message == "" || strings.Contains(got.Message, "s3cret-token") || strings.HasPrefix(got.Message, "a2a: ") {
				t.Errorf("message %q: empty, with the secret, or with the package's prefix", got.Message)
			}
		})
	}
}

// TestClassifyCards: the card's URL gives no card (404s, no reply, a
// refusal), a reply that is no card, or a card its signatures refuse.
func TestClassifyCards(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String()
	closed.Close()
	resolve := func(url string, opts ...a2a.Option) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := a2a.ResolveAgentCard(ctx, url, append([]a2a.Option{a2a.WithMaxRetries(0)}, opts...)...)
			return err
		}
	}
	cases := []struct {
		name    string
		call    func(context.Context) error
		code    string
		exit    int
		a2aCode any
	}{
		{"404 everywhere", resolve(rawAgent(t, 404, nil, "no")), cliErrCardNotFound, 3, 404},
		{"500", resolve(rawAgent(t, 500, nil, "no")), cliErrCardNotFound, 3, 500},
		{"no reply", resolve(closedURL), cliErrUnreachable, 3, nil},
		{"401", resolve(rawAgent(t, 401, map[string]string{"WWW-Authenticate": "Bearer"}, "no")), cliErrCredentialsMissing, 4, 401},
		{"HTML", resolve(rawAgent(t, 200, map[string]string{"Content-Type": "text/html"}, "<html></html>")), cliErrCardInvalid, 1, nil},
		{"502", resolve(rawAgent(t, 502, nil, "no")), cliErrUnreachable, 3, 502},
		{"unknown CA", func(ctx context.Context) error {
			srv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
			srv.Config.ErrorLog = log.New(io.Discard, "", 0)
			srv.StartTLS()
			defer srv.Close()
			return resolve(srv.URL)(ctx)
		}, cliErrUnreachable, 3, nil},
		{"credential source failed", resolve(rawAgent(t, 200, nil, ""), a2a.WithCredentials(a2a.CredentialFunc(
			func(context.Context, *a2a.Credential) (a2a.Credential, error) {
				return a2a.Credential{}, errors.New("no token")
			}))),
			cliErrCredentialsMissing, 4, nil},
		{"JSON but no card", resolve(rawAgent(t, 200, map[string]string{"Content-Type": "application/json"}, `{"name":"x"}`)), cliErrCardInvalid, 1, nil},
		{"signature required", func(ctx context.Context) error {
			srv := a2atest.NewServer(a2atest.V10())
			defer srv.Close()
			return resolve(srv.BaseURL(), a2a.WithCardVerifier(a2a.CardVerifierFunc(unsigned)), a2a.WithRequireVerifiedCard())(ctx)
		}, cliErrCardInvalid, 1, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call(t.Context())
			if err == nil {
				t.Fatal("no error")
			}
			got := classify(err, false)
			if got.Code != tc.code || got.Exit != tc.exit || got.A2ACode != tc.a2aCode || got.Message == "" {
				t.Errorf("classify(%v) = %#v, want code %s, exit %d, a2aCode %v", err, got, tc.code, tc.exit, tc.a2aCode)
			}
		})
	}
}

// unsigned is a card verifier to which every card is unsigned.
func unsigned(context.Context, *a2a.AgentCard) *a2a.CardVerification {
	return &a2a.CardVerification{Status: a2a.CardSignatureAbsent}
}

// TestEnvelope: the Appendix B object's exact bytes: null hint and
// a2aCode, numbers, control and bidi characters escaped, one line.
func TestEnvelope(t *testing.T) {
	cases := []struct {
		e    cliError
		want string
	}{
		{cliError{Code: cliErrUsage, Message: "unknown flag --x", Exit: 2},
			`{"error":{"code":"A2ACLI_ERR_USAGE","message":"unknown flag --x","hint":null,"a2aCode":null}}`},
		{cliError{Code: "TaskNotFoundError", Message: "Task not found: t-404", Hint: "check the task id; --debug shows the agent's error", A2ACode: -32001, Exit: 1},
			`{"error":{"code":"TaskNotFoundError","message":"Task not found: t-404","hint":"check the task id; --debug shows the agent's error","a2aCode":-32001}}`},
		{cliError{Code: "TaskNotFoundError", Message: "没有 <task> & \"quotes\" \\", A2ACode: 404},
			`{"error":{"code":"TaskNotFoundError","message":"没有 <task> & \"quotes\" \\","hint":null,"a2aCode":404}}`},
		{cliError{Code: cliErrInternal, Message: "a\x1b[31mb\nc\u202ed\xffe\U0001F600\u0085", A2ACode: "UNAVAILABLE"},
			`{"error":{"code":"A2ACLI_ERR_INTERNAL","message":"a\u001b[31mb\nc\u202ed\ufffde` + "\U0001F600" + `\u0085","hint":null,"a2aCode":"UNAVAILABLE"}}`},
		{cliError{Code: cliErrInternal, A2ACode: 1.5},
			`{"error":{"code":"A2ACLI_ERR_INTERNAL","message":"A2ACLI_ERR_INTERNAL","hint":null,"a2aCode":null}}`},
	}
	for _, tc := range cases {
		if got := string(tc.e.envelope()); got != tc.want {
			t.Errorf("envelope(%+v)\n got %s\nwant %s", tc.e, got, tc.want)
		}
	}
}

// TestClassifyHostile: an agent's error text never grows a cliError past
// its bound, and its own "a2a: " advice to Go callers is left out.
func TestClassifyHostile(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	got := classify(&a2a.RPCError{Method: "GetTask", Code: -32001, Message: long}, false)
	if len(got.Message) > maxErrorMessage+len("…") {
		t.Errorf("message of %d bytes", len(got.Message))
	}
	if got := classify(nil, false); got != (cliError{}) {
		t.Errorf("classify(nil) = %#v", got)
	}
	many := make([]string, 100)
	for i := range many {
		many[i] = fmt.Sprintf("https://e.example/%d", i)
	}
	got = classify(&a2a.RPCError{Code: -32008, RequiredExtensions: many}, false)
	if n := strings.Count(got.Hint, "--extension"); n != maxHintExtensions {
		t.Errorf("hint names %d extensions: %s", n, got.Hint)
	}
	got = classify(&a2a.RPCError{Code: -32008, RequiredExtensions: []string{"https://x/\x1b]8;;evil\x07"}}, false)
	if strings.ContainsAny(got.Hint, "\x1b\x07") {
		t.Errorf("hint holds a control character: %q", got.Hint)
	}
	for _, s := range []string{
		"GetTask: bad response: part has \"raw\", an A2A v1.0 part (make the client with WithProtocolVersion(ProtocolV10))",
		"tasks/get: the agent speaks JSON-RPC at this URL; make the client with WithTransports(TransportJSONRPC), or give it the URL",
	} {
		if g := goFree(s); strings.Contains(g, "With") || strings.Contains(g, "make the client") || g == "" {
			t.Errorf("goFree(%q) = %q", s, g)
		}
	}
}
