package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// tokenSource is a CredentialSource as the contract asks one to be: it
// caches its token, and fetches a new one from the a2atest agent's token
// endpoint only when the agent refused the token it holds.
type tokenSource struct {
	srv     *a2atest.Server
	mu      sync.Mutex
	cur     string
	calls   atomic.Int32
	refused atomic.Int32 // calls with refused set
}

func (s *tokenSource) Credential(ctx context.Context, refused *a2a.Credential) (a2a.Credential, error) {
	s.calls.Add(1)
	if refused != nil {
		s.refused.Add(1)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == "" || refused != nil && refused.Token == s.cur {
		form := url.Values{"grant_type": {"client_credentials"}}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.srv.TokenURL(), strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth("client-1", "secret-1")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return a2a.Credential{}, err
		}
		defer resp.Body.Close()
		var tr struct {
			AccessToken string `json:"access_token"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&tr); err != nil {
			return a2a.Credential{}, err
		}
		s.cur = tr.AccessToken
	}
	return a2a.Credential{Scheme: "Bearer", Token: s.cur}, nil
}

// credBindings are the four bindings: the a2atest options serving one and
// the client options speaking it.
var credBindings = []struct {
	name   string
	server []a2atest.Option
	client []a2a.Option
}{
	{"v03", nil, nil},
	{"v10", []a2atest.Option{a2atest.V10()}, []a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10)}},
	{"rest10", []a2atest.Option{a2atest.V10(), a2atest.HTTPJSON()}, []a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON)}},
	{"rest03", []a2atest.Option{a2atest.HTTPJSON()}, []a2a.Option{a2a.WithTransports(a2a.TransportHTTPJSON)}},
}

// streamAll runs a streaming send to its end and returns its error.
func streamAll(ctx context.Context, c *a2a.Client) error {
	for _, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("hi")) {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestCredentialsRefreshOn401: on every binding, unary and streaming, a
// call whose token the agent no longer takes is answered 401, asks the
// source again with the refused token, and succeeds with the new one;
// sixteen calls refused at once cause one token fetch.
func TestCredentialsRefreshOn401(t *testing.T) {
	defer http.DefaultClient.CloseIdleConnections()
	ctx := context.Background()
	for _, b := range credBindings {
		t.Run(b.name, func(t *testing.T) {
			srv := a2atest.NewServer(append(b.server, a2atest.IssueTokens("client-1", "secret-1", time.Hour))...)
			defer srv.Close()
			src := &tokenSource{srv: srv}
			c, err := a2a.NewClient(srv.URL, append(b.client, a2a.WithCredentials(src))...)
			if err != nil {
				t.Fatal(err)
			}
			for _, call := range []struct {
				name string
				run  func() error
			}{
				{"unary", func() error { _, err := c.SendText(ctx, "hi"); return err }},
				{"stream", func() error { return streamAll(ctx, c) }},
			} {
				if err := call.run(); err != nil {
					t.Fatalf("%s: %v", call.name, err)
				}
				issued, before := srv.TokensIssued(), len(srv.Requests())
				srv.ExpireTokens()
				if err := call.run(); err != nil {
					t.Fatalf("%s after ExpireTokens: %v", call.name, err)
				}
				reqs := srv.Requests()[before:]
				if srv.TokensIssued() != issued+1 || len(reqs) != 2 {
					t.Errorf("%s: %d tokens fetched, %d requests; want 1 and 2 (refused, then sent again)", call.name, srv.TokensIssued()-issued, len(reqs))
				}
				if len(reqs) == 2 && (len(reqs[0].Body) == 0 || string(reqs[0].Body) != string(reqs[1].Body) ||
					reqs[0].Header.Get("Authorization") == reqs[1].Header.Get("Authorization")) {
					t.Errorf("%s: the request sent again is not the same bytes with another token", call.name)
				}
			}

			srv.ExpireTokens()
			issued := srv.TokensIssued()
			var wg sync.WaitGroup
			errs := make(chan error, 16)
			for range 16 {
				wg.Go(func() {
					if _, err := c.SendText(ctx, "hi"); err != nil {
						errs <- err
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			if n := srv.TokensIssued() - issued; n != 1 {
				t.Errorf("16 calls refused at once fetched %d tokens, want 1", n)
			}
		})
	}
}

// TestCredentialsSecond401: a second 401 is the call's *HTTPError naming
// the scheme the agent asks for, never the token; the source was asked
// twice, the second time with the token refused; the request went twice.
// A client with static credentials sends a refused request once.
func TestCredentialsSecond401(t *testing.T) {
	ctx := context.Background()
	for _, b := range credBindings {
		t.Run(b.name, func(t *testing.T) {
			srv := a2atest.NewServer(append(b.server, a2atest.IssueTokens("client-1", "secret-1", time.Hour))...)
			defer srv.Close()
			var mu sync.Mutex
			var asked []string
			src := a2a.CredentialFunc(func(_ context.Context, refused *a2a.Credential) (a2a.Credential, error) {
				mu.Lock()
				defer mu.Unlock()
				asked = append(asked, fmt.Sprint(refused))
				return a2a.Credential{Scheme: "Bearer", Token: "tok-never-issued-42"}, nil
			})
			for _, call := range []struct {
				name string
				run  func(c *a2a.Client) error
			}{
				{"unary", func(c *a2a.Client) error { _, err := c.SendText(ctx, "hi"); return err }},
				{"stream", func(c *a2a.Client) error { return streamAll(ctx, c) }},
			} {
				asked = nil
				c, _ := a2a.NewClient(srv.URL, append(b.client, a2a.WithCredentials(src))...)
				before := len(srv.Requests())
				err := call.run(c)
				var he *a2a.HTTPError
				if !errors.As(err, &he) || he.StatusCode != http.StatusUnauthorized {
					t.Fatalf("%s: %v, want an *HTTPError 401", call.name, err)
				}
				if !strings.Contains(err.Error(), "asks for Bearer") || strings.Contains(err.Error()+he.Challenge+string(he.Body), "never-issued") {
					t.Errorf("%s: error %q, challenge %q", call.name, err, he.Challenge)
				}
				want := []string{"<nil>", "&{ Bearer tok-never-issued-42}"}
				if fmt.Sprint(asked) != fmt.Sprint(want) || len(srv.Requests())-before != 2 {
					t.Errorf("%s: source asked %q, %d requests; want %q and 2", call.name, asked, len(srv.Requests())-before, want)
				}

				static, _ := a2a.NewClient(srv.URL, append(b.client, a2a.WithBearerToken("static-tok-1"))...)
				before = len(srv.Requests())
				if err := call.run(static); !errors.As(err, &he) || he.StatusCode != 401 || len(srv.Requests())-before != 1 {
					t.Errorf("%s, static token: %v after %d requests, want a 401 after 1", call.name, err, len(srv.Requests())-before)
				}
			}
		})
	}
}

// TestCredentials401WithReason: an HTTP+JSON 401 carrying a
// google.rpc.Status (UNAUTHENTICATED) takes the same path as a bare one.
func TestCredentials401WithReason(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.HTTPJSON())
	defer srv.Close()
	status := `{"error":{"code":401,"status":"UNAUTHENTICATED","message":"token expired","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"UNAUTHENTICATED","domain":"a2a-protocol.org"}]}}`
	srv.Enqueue(a2atest.Raw{Status: 401, ContentType: "application/json", Header: http.Header{"Www-Authenticate": {`Bearer error="invalid_token"`}}, Body: status})
	var n atomic.Int32
	src := a2a.CredentialFunc(func(context.Context, *a2a.Credential) (a2a.Credential, error) {
		return a2a.Credential{Scheme: "Bearer", Token: fmt.Sprintf("tok-%d", n.Add(1))}, nil
	})
	c, _ := a2a.NewClient(srv.URL, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithCredentials(src))
	if _, err := c.SendText(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Header.Get("Authorization") != "Bearer tok-1" || reqs[1].Header.Get("Authorization") != "Bearer tok-2" {
		t.Errorf("requests %d, want 2 with tok-1 then tok-2", len(reqs))
	}
}

// TestCredentialsEveryAttempt: the source is asked before every attempt,
// so a retry after a 503 carries the credential it gives then; its header
// replaces the same header of WithBearerToken and keeps the others. The
// card GETs of ResolveAgentCard carry it too, and are sent again on a 401.
func TestCredentialsEveryAttempt(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10())
	defer srv.Close()
	var n atomic.Int32
	src := a2a.CredentialFunc(func(context.Context, *a2a.Credential) (a2a.Credential, error) {
		return a2a.Credential{Scheme: "Bearer", Token: fmt.Sprintf("tok-%d", n.Add(1))}, nil
	})
	opts := []a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithCredentials(src), a2a.WithRetryWait(time.Millisecond, time.Millisecond),
		a2a.WithBearerToken("static-1"), a2a.WithAPIKey("key-1")}
	c, err := a2a.NewClient(srv.URL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	srv.Enqueue(a2atest.Raw{Status: 503, Body: "busy"}, a2atest.Raw{Status: 503, Body: "busy"})
	if _, err := c.GetTask(context.Background(), "t-none"); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("GetTask = %v", err)
	}
	var got []string
	for _, r := range srv.Requests() {
		got = append(got, r.Header.Get("Authorization")+"|"+r.Header.Get("X-Api-Key"))
	}
	if want := "[Bearer tok-1|key-1 Bearer tok-2|key-1 Bearer tok-3|key-1]"; fmt.Sprint(got) != want {
		t.Errorf("attempts carried %s, want %s", got, want)
	}

	srv.Enqueue(a2atest.Raw{Status: 401, Body: "who?"})
	before := len(srv.Requests())
	if _, err := a2a.ResolveAgentCard(context.Background(), srv.BaseURL(), opts...); err != nil {
		t.Fatalf("ResolveAgentCard: %v", err)
	}
	reqs := srv.Requests()[before:]
	if len(reqs) != 2 || reqs[0].Header.Get("Authorization") != "Bearer tok-4" || reqs[1].Header.Get("Authorization") != "Bearer tok-5" {
		t.Errorf("card GETs: %d, want 2 with tok-4 then tok-5", len(reqs))
	}
}

// errVault is a credential source's own error.
var errVault = errors.New("vault sealed")

// TestCredentialSourceError: a source's error, or a credential that cannot
// be sent, stops the call before the attempt, first or retry, as a
// *CredentialError that reaches the source's error and shows no secret
// of the client's: a static one, or a token the source gave earlier.
func TestCredentialSourceError(t *testing.T) {
	secret := "tok-leaked-in-error-77"
	for _, tt := range []struct {
		name     string
		fail     int // the source fails from this call on
		cred     a2a.Credential
		err      error
		requests int
	}{
		{"error first", 1, a2a.Credential{}, fmt.Errorf("refresh %s: %w", secret, errVault), 0},
		{"error on the retry", 2, a2a.Credential{}, fmt.Errorf("refresh %s: %w", secret, errVault), 1},
		{"control character", 1, a2a.Credential{Scheme: "Bearer", Token: secret + "\n"}, nil, 0},
		{"empty token", 1, a2a.Credential{Scheme: "Bearer"}, nil, 0},
		{"bad header", 1, a2a.Credential{Header: "X Bad", Token: secret}, nil, 0},
		{"client's header", 1, a2a.Credential{Header: "content-type", Token: secret}, nil, 0},
		{"extensions header", 1, a2a.Credential{Header: "A2A-Extensions", Token: secret}, nil, 0},
		{"v0.3 extensions header", 1, a2a.Credential{Header: "x-a2a-extensions", Token: secret}, nil, 0},
		{"hop-by-hop header", 1, a2a.Credential{Header: "Transfer-Encoding", Token: secret}, nil, 0},
		{"Accept", 1, a2a.Credential{Header: "accept", Token: secret}, nil, 0},
		{"User-Agent", 1, a2a.Credential{Header: "User-Agent", Token: secret}, nil, 0},
		{"bad scheme", 1, a2a.Credential{Scheme: "Bear er", Token: secret}, nil, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := a2atest.NewServer()
			defer srv.Close()
			var n int
			src := a2a.CredentialFunc(func(context.Context, *a2a.Credential) (a2a.Credential, error) {
				if n++; n >= tt.fail {
					return tt.cred, tt.err
				}
				return a2a.Credential{Scheme: "Bearer", Token: secret}, nil
			})
			opts := []a2a.Option{a2a.WithCredentials(src), a2a.WithRetryWait(time.Millisecond, time.Millisecond)}
			if tt.fail == 1 { // a secret the client knows before it asks the source
				opts = append(opts, a2a.WithAPIKey(secret))
			}
			c, _ := a2a.NewClient(srv.URL, opts...)
			srv.Enqueue(a2atest.Raw{Status: 503})
			_, err := c.SendText(context.Background(), "hi")
			var ce *a2a.CredentialError
			if !errors.As(err, &ce) || ce.Method != "message/send" {
				t.Fatalf("err = %v, want a *CredentialError", err)
			}
			if tt.err != nil && !errors.Is(err, errVault) {
				t.Errorf("errors.Is(%v, errVault) = false", err)
			}
			if strings.Contains(err.Error(), "leaked") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q", err)
			}
			if got := len(srv.Requests()); got != tt.requests {
				t.Errorf("%d requests, want %d", got, tt.requests)
			}
		})
	}
}

// TestCredentialsRedacted: a token the source handed out is redacted like
// a static one wherever an agent echoes it: an RPCError's message and
// data, URL-escaped and JSON-escaped; a ProtocolError's body; an
// HTTPError's body and challenge; the client's log records.
func TestCredentialsRedacted(t *testing.T) {
	tok := "Ab3/kQ+9xZ_tokenvalue.778899"
	srv := a2atest.NewServer()
	defer srv.Close()
	log, lines := newCapture()
	src := a2a.CredentialFunc(func(context.Context, *a2a.Credential) (a2a.Credential, error) {
		return a2a.Credential{Scheme: "Bearer", Token: tok}, nil
	})
	c, _ := a2a.NewClient(srv.URL, a2a.WithCredentials(src), a2a.WithLogger(log))
	jsonEsc := ""
	for _, r := range tok {
		jsonEsc += fmt.Sprintf(`\u%04x`, r)
	}
	srv.Enqueue(
		a2atest.Raw{Status: 200, ContentType: "application/json", EchoID: true,
			Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32603,"message":"bad ` + tok + `","data":{"u":"` + url.QueryEscape(tok) + `","j":"` + jsonEsc + `"}}}`},
		a2atest.Raw{Status: 200, ContentType: "application/json", Body: `not json ` + tok},
		a2atest.Raw{Status: 401, Header: http.Header{"Www-Authenticate": {`Bearer error="invalid_token", token="` + tok + `"`}}, Body: "refused " + tok},
		a2atest.Raw{Status: 401, Header: http.Header{"Www-Authenticate": {`Bearer error="invalid_token", token="` + tok + `"`}}, Body: "refused " + jsonEsc},
	)
	leaks := func(s string) bool {
		return strings.Contains(s, "tokenvalue") || strings.Contains(s, "778899") || strings.Contains(s, `\u0074\u006f`) || strings.Contains(s, "kQ%2B9xZ")
	}
	ctx := context.Background()
	for i := range 3 {
		_, err := c.SendText(ctx, "hi")
		if err == nil {
			t.Fatalf("call %d: no error", i)
		}
		shown := fmt.Sprintf("%v %+v", err, err)
		var re *a2a.RPCError
		var pe *a2a.ProtocolError
		var he *a2a.HTTPError
		switch {
		case errors.As(err, &re):
			shown += re.Message + string(re.Data)
		case errors.As(err, &pe):
			shown += string(pe.Body)
		case errors.As(err, &he):
			shown += he.Challenge + string(he.Body)
		default:
			t.Errorf("call %d: %T %v", i, err, err)
		}
		if leaks(shown) {
			t.Errorf("call %d shows the token: %s", i, shown)
		}
	}
	for _, l := range lines() {
		if leaks(l) {
			t.Errorf("log record shows the token: %s", l)
		}
	}
}

// TestCredentialsTrust: a client with a source carries credentials for
// NewClientFromCard's rule: a card naming an endpoint off its origin is
// refused, over https to http too, before the source is ever asked.
func TestCredentialsTrust(t *testing.T) {
	elsewhere := newCredentialServer(t, false, nil)
	for _, tls := range []bool{false, true} {
		home := newCredentialServer(t, tls, func(string) string {
			return `{"name":"a","url":"` + elsewhere.URL + `/rpc","capabilities":{}}`
		})
		hc := home.Client()
		var asked atomic.Int32
		src := a2a.CredentialFunc(func(context.Context, *a2a.Credential) (a2a.Credential, error) {
			asked.Add(1)
			return a2a.Credential{Scheme: "Bearer", Token: "tok-1"}, nil
		})
		card, err := a2a.ResolveAgentCard(context.Background(), home.URL, a2a.WithHTTPClient(hc))
		if err != nil {
			t.Fatal(err)
		}
		_, err = a2a.NewClientFromCard(card, a2a.WithHTTPClient(hc), a2a.WithCredentials(src))
		var ue *a2a.UntrustedEndpointError
		if !errors.As(err, &ue) || ue.Downgrade != tls {
			t.Errorf("tls %v: NewClientFromCard = %v, want an *UntrustedEndpointError (downgrade %v)", tls, err, tls)
		}
		if asked.Load() != 0 || len(elsewhere.take()) != 0 {
			t.Errorf("tls %v: the source was asked %d times", tls, asked.Load())
		}
	}
}

// TestHostileChallenge: a 401's WWW-Authenticate of a megabyte, with a
// bidi override, C1 controls (CSI, NEL) and a tab (net/http refuses other
// control bytes in a header), is kept as an inert,
// bounded Challenge; Error names no scheme unless the challenge starts
// with one.
func TestHostileChallenge(t *testing.T) {
	for _, tt := range []struct{ challenge, scheme string }{
		{"\u202eBearer\u009b31m realm=\"x\"\t" + strings.Repeat("A", 1<<20), ""},
		{"Bearer realm=\"\u202e\u009b]0;pwned\u0085\"" + strings.Repeat(",x", 1<<19), "Bearer"},
		{"DPoP algs=\"ES256\"", "DPoP"},
		{strings.Repeat("B", 40) + " realm=x", ""},
	} {
		hs := newRawHeaderServer(t, tt.challenge)
		src := a2a.CredentialFunc(func(context.Context, *a2a.Credential) (a2a.Credential, error) {
			return a2a.Credential{Scheme: "Bearer", Token: "tok-1"}, nil
		})
		c, _ := a2a.NewClient(hs, a2a.WithCredentials(src))
		_, err := c.GetTask(context.Background(), "t1")
		var he *a2a.HTTPError
		if !errors.As(err, &he) || he.StatusCode != 401 {
			t.Fatalf("%.200v, want a 401", err)
		}
		if len(he.Challenge) > 4*512+8 || strings.ContainsAny(he.Challenge, "\u009b\u0085\u202e\t") {
			t.Errorf("Challenge (%d bytes) %q", len(he.Challenge), he.Challenge[:min(len(he.Challenge), 80)])
		}
		want := "HTTP 401 Unauthorized"
		if tt.scheme != "" {
			want += " (agent asks for " + tt.scheme + ")"
		}
		if !strings.HasSuffix(err.Error(), want) {
			t.Errorf("Error() = %q, want it to end %q", err, want)
		}
	}
}

// newRawHeaderServer answers every request 401 with challenge as its
// WWW-Authenticate, written raw (net/http's header writer would refuse
// some of its bytes).
func newRawHeaderServer(t *testing.T, challenge string) string {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		fmt.Fprintf(buf, "HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", challenge)
		buf.Flush()
	}))
	t.Cleanup(s.Close)
	return s.URL
}

// TestCredentialsEveryOperation: push config calls, the extended card,
// get, list and subscribe each carry the source's credential and, the
// agent having revoked it, fetch one new token and succeed.
func TestCredentialsEveryOperation(t *testing.T) {
	defer http.DefaultClient.CloseIdleConnections()
	ctx := context.Background()
	for _, b := range credBindings[1:3] { // v1.0, both transports: every operation there
		t.Run(b.name, func(t *testing.T) {
			srv := a2atest.NewServer(append(b.server, a2atest.IssueTokens("client-1", "secret-1", time.Hour),
				a2atest.WithExtendedCard(&a2a.AgentCard{Name: "extended", Capabilities: a2a.AgentCapabilities{Streaming: true, PushNotifications: true}}),
				a2atest.OnSend(func(a2a.Message) a2atest.Reply {
					return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateWorking, ""), States: []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateWorking, a2a.TaskStateCompleted}}
				}))...)
			defer srv.Close()
			c, _ := a2a.NewClient(srv.URL, append(b.client, a2a.WithCredentials(&tokenSource{srv: srv}))...)
			task, err := c.SendText(ctx, "hi")
			if err != nil {
				t.Fatal(err)
			}
			var cfgID string
			for _, op := range []struct {
				name string
				run  func() error
			}{
				{"create push config", func() error {
					cfg, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: task.ID,
						PushNotificationConfig: a2a.PushNotificationConfig{URL: "https://hooks.example/a2a", Token: "hook-token-1"}})
					if err == nil {
						cfgID = cfg.PushNotificationConfig.ID
					}
					return err
				}},
				{"get push config", func() error { _, err := c.GetTaskPushNotificationConfig(ctx, task.ID, cfgID); return err }},
				{"list push configs", func() error { _, err := c.ListTaskPushNotificationConfigs(ctx, task.ID); return err }},
				{"delete push config", func() error { return c.DeleteTaskPushNotificationConfig(ctx, task.ID, cfgID) }},
				{"extended card", func() error { _, err := c.GetExtendedAgentCard(ctx); return err }},
				{"get", func() error { _, err := c.GetTask(ctx, task.ID); return err }},
				{"list", func() error { _, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{}); return err }},
				{"subscribe", func() error {
					for _, err := range c.SubscribeToTask(ctx, task.ID) {
						if err != nil {
							return err
						}
					}
					return nil
				}},
			} {
				srv.ExpireTokens()
				issued := srv.TokensIssued()
				if err := op.run(); err != nil {
					t.Errorf("%s: %v", op.name, err)
				}
				if n := srv.TokensIssued() - issued; n != 1 {
					t.Errorf("%s: %d tokens fetched, want 1", op.name, n)
				}
			}
		})
	}
}

// TestWithCredentialsRefuses: a nil source, or a second one, is an error
// from NewClient.
func TestWithCredentialsRefuses(t *testing.T) {
	src := a2a.CredentialFunc(func(context.Context, *a2a.Credential) (a2a.Credential, error) { return a2a.Credential{Token: "x"}, nil })
	for name, opts := range map[string][]a2a.Option{
		"nil":   {a2a.WithCredentials(nil)},
		"twice": {a2a.WithCredentials(src), a2a.WithCredentials(src)},
	} {
		if _, err := a2a.NewClient("https://agent.example/a2a", opts...); err == nil {
			t.Errorf("%s: NewClient succeeded", name)
		}
	}
}

// TestCredentialsObserved: the request sent again after a 401 is an
// attempt the observer sees, numbered on, carrying the header it adds
// (trace context) and the new credential.
func TestCredentialsObserved(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	srv.Enqueue(a2atest.Raw{Status: 401, Header: http.Header{"Www-Authenticate": {"Bearer"}}})
	var n atomic.Int32
	src := a2a.CredentialFunc(func(context.Context, *a2a.Credential) (a2a.Credential, error) {
		return a2a.Credential{Scheme: "Bearer", Token: fmt.Sprintf("tok-%d", n.Add(1))}, nil
	})
	var attempts []string
	obs := a2a.ObserverFunc(func(ctx context.Context, op a2a.Operation) (context.Context, *a2a.OperationHooks) {
		return ctx, &a2a.OperationHooks{
			Attempt: func(a a2a.HTTPAttempt) {
				a.Header.Set("Traceparent", fmt.Sprintf("00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333%d-01", a.N))
			},
			AttemptDone: func(a a2a.HTTPAttempt) { attempts = append(attempts, fmt.Sprintf("%d:%d", a.N, a.StatusCode)) },
		}
	})
	c, _ := a2a.NewClient(srv.URL, a2a.WithCredentials(src), a2a.WithObserver(obs))
	if _, err := c.SendText(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(attempts) != "[1:401 2:200]" {
		t.Errorf("observed attempts %v, want [1:401 2:200]", attempts)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[1].Header.Get("Authorization") != "Bearer tok-2" || !strings.HasSuffix(reqs[1].Header.Get("Traceparent"), "3332-01") {
		t.Errorf("requests: %d; the second's Authorization %q, traceparent %q", len(reqs), reqs[len(reqs)-1].Header.Get("Authorization"), reqs[len(reqs)-1].Header.Get("Traceparent"))
	}
}

// TestCredentialsUnverifiedCard: a card whose signature is invalid, or
// unverifiable, never makes a client with a credential source send: the
// source counts as credentials for the signed-card rule too, and is never
// asked.
func TestCredentialsUnverifiedCard(t *testing.T) {
	srv := a2atest.NewServer(a2atest.WithCard(caoliaoCard()))
	defer srv.Close()
	card, err := a2a.ResolveAgentCard(context.Background(), srv.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	var asked, seen atomic.Int32
	src := a2a.CredentialFunc(func(context.Context, *a2a.Credential) (a2a.Credential, error) {
		asked.Add(1)
		return a2a.Credential{Scheme: "Bearer", Token: "tok-1"}, nil
	})
	for _, status := range []a2a.CardSignatureStatus{a2a.CardSignatureInvalid, a2a.CardSignatureUnverifiable} {
		_, err := a2a.NewClientFromCard(card, a2a.WithCardVerifier(fixedVerifier(status, nil, &seen)), a2a.WithCredentials(src))
		if !errors.Is(err, a2a.ErrCardNotVerified) {
			t.Errorf("%s: NewClientFromCard = %v, want ErrCardNotVerified", status, err)
		}
	}
	if asked.Load() != 0 {
		t.Errorf("the source was asked %d times", asked.Load())
	}
}

// TestCredentialSourceBoundedByAttempt: asking the source is part of an
// attempt, bounded by WithAttemptTimeout even when the caller's ctx has no
// deadline (new-user trial: a hanging token endpoint held the call
// forever).
func TestCredentialSourceBoundedByAttempt(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	src := a2a.CredentialFunc(func(ctx context.Context, _ *a2a.Credential) (a2a.Credential, error) {
		<-ctx.Done() // a token endpoint that never answers
		return a2a.Credential{}, ctx.Err()
	})
	c, err := a2a.NewClient(srv.URL, a2a.WithCredentials(src), a2a.WithAttemptTimeout(20*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetTask(context.Background(), "t1")
	var ce *a2a.CredentialError
	if !errors.As(err, &ce) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a *CredentialError matching context.DeadlineExceeded", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
