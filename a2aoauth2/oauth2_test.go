package a2aoauth2_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2aoauth2"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"go.uber.org/goleak"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(int) {
		http.DefaultClient.CloseIdleConnections() // oauth2's, without a client in ctx
		a2a.CloseIdleConnections()
	}))
}

// newAgent is an a2atest agent issuing tokens, and the client credentials
// config of its token endpoint.
func newAgent(t *testing.T, opts ...a2atest.Option) (*a2atest.Server, *clientcredentials.Config) {
	t.Helper()
	agent := a2atest.NewServer(append(opts, a2atest.IssueTokens("client-1", "secret-1", time.Hour))...)
	t.Cleanup(agent.Close)
	return agent, &clientcredentials.Config{ClientID: "client-1", ClientSecret: "secret-1", TokenURL: agent.TokenURL()}
}

// TestRefreshOnce: after the agent revokes its tokens, 32 calls refused
// at once cause one token fetch, and all succeed; a stream open refused
// too.
func TestRefreshOnce(t *testing.T) {
	agent, cfg := newAgent(t, a2atest.V10())
	c, err := a2a.NewClient(agent.URL, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithCredentials(a2aoauth2.ClientCredentials(cfg)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.SendText(ctx, "hi"); err != nil {
		t.Fatal(err)
	}
	agent.ExpireTokens()
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for range 32 {
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
	if n := agent.TokensIssued(); n != 2 {
		t.Errorf("%d tokens issued, want 2 (one at the start, one after the revocation)", n)
	}
	agent.ExpireTokens()
	for _, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("hi")) {
		if err != nil {
			t.Fatalf("stream: %v", err)
		}
	}
	if n := agent.TokensIssued(); n != 3 {
		t.Errorf("%d tokens issued, want 3", n)
	}
}

// fetching is an oauth2.TokenSource that fetches a new token on every
// call, as FromTokenSource wants.
type fetching struct{ cfg *clientcredentials.Config }

func (f fetching) Token() (*oauth2.Token, error) { return f.cfg.Token(context.Background()) }

// TestFromTokenSource: a source that fetches on every call refreshes a
// revoked token; a caching one (oauth2's own) gives it again, and the
// call fails with ErrNotRefreshed before sending it.
func TestFromTokenSource(t *testing.T) {
	agent, cfg := newAgent(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		ts   oauth2.TokenSource
		want error
	}{
		{"fetching", fetching{cfg}, nil},
		{"caching", cfg.TokenSource(ctx), a2aoauth2.ErrNotRefreshed},
	} {
		c, _ := a2a.NewClient(agent.URL, a2a.WithCredentials(a2aoauth2.FromTokenSource(tt.ts)))
		if _, err := c.SendText(ctx, "hi"); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		agent.ExpireTokens()
		before := len(agent.Requests())
		_, err := c.SendText(ctx, "hi")
		var ce *a2a.CredentialError
		if tt.want == nil && err != nil || tt.want != nil && (!errors.Is(err, tt.want) || !errors.As(err, &ce)) {
			t.Errorf("%s: after a revocation: %v, want %v", tt.name, err, tt.want)
		}
		if sent := len(agent.Requests()) - before; tt.want != nil && sent != 1 {
			t.Errorf("%s: %d requests, want 1 (the refused one)", tt.name, sent)
		}
	}
}

// TestTokenEndpointRefuses: a token endpoint's error reaches the caller as
// a *CredentialError wrapping oauth2's *RetrieveError, without the client
// secret, and nothing is sent to the agent.
func TestTokenEndpointRefuses(t *testing.T) {
	agent, cfg := newAgent(t)
	cfg.ClientSecret = "wrong-secret-9876"
	c, _ := a2a.NewClient(agent.URL, a2a.WithCredentials(a2aoauth2.ClientCredentials(cfg)))
	_, err := c.SendText(context.Background(), "hi")
	var re *oauth2.RetrieveError
	var ce *a2a.CredentialError
	if !errors.As(err, &ce) || !errors.As(err, &re) || re.ErrorCode != "invalid_client" {
		t.Fatalf("err = %v, want a CredentialError wrapping a RetrieveError invalid_client", err)
	}
	if strings.Contains(err.Error(), "wrong-secret") || len(agent.Requests()) != 0 {
		t.Errorf("error %q, %d requests to the agent", err, len(agent.Requests()))
	}
}

// blocking is a token source whose fetch waits for release.
type blocking struct {
	started chan struct{}
	release chan struct{}
	tok     string
}

func (b blocking) Token() (*oauth2.Token, error) {
	close(b.started)
	<-b.release
	return &oauth2.Token{AccessToken: b.tok}, nil
}

// TestWaitHonoursContext: a call waiting for another's fetch returns when
// its ctx is done; once the fetch ends, the next call gets its token
// without fetching again.
func TestWaitHonoursContext(t *testing.T) {
	b := blocking{started: make(chan struct{}), release: make(chan struct{}), tok: "tok-1"}
	src := a2aoauth2.FromTokenSource(b)
	first := make(chan a2a.Credential, 1)
	go func() {
		cred, _ := src.Credential(context.Background(), nil)
		first <- cred
	}()
	<-b.started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := src.Credential(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("waiting call: %v, want context.Canceled", err)
	}
	close(b.release)
	if cred := <-first; cred.Token != "tok-1" || cred.Scheme != "Bearer" {
		t.Errorf("first call got %+v", cred)
	}
	if cred, err := src.Credential(context.Background(), nil); err != nil || cred.Token != "tok-1" {
		t.Errorf("next call: %+v %v", cred, err) // a second fetch would block on started, closed twice: a panic
	}
}

// TestNoToken: a source that gives no access token is ErrNoToken.
func TestNoToken(t *testing.T) {
	src := a2aoauth2.FromTokenSource(oauth2.StaticTokenSource(&oauth2.Token{}))
	if _, err := src.Credential(context.Background(), nil); !errors.Is(err, a2aoauth2.ErrNoToken) {
		t.Errorf("err = %v, want ErrNoToken", err)
	}
}

// TestSecretHidden: a token endpoint that echoes the client secret, as it
// is, Go-quoted (RetrieveError's error_description), JSON-, query- or
// path-escaped, or in the Basic credentials it was sent, gives an error
// whose text hides it; errors.As still finds the *RetrieveError, whose
// Body holds what the endpoint sent.
func TestSecretHidden(t *testing.T) {
	agent := a2atest.NewServer(a2atest.V10())
	t.Cleanup(agent.Close)
	// Its runs of letters and digits are short: only whole spellings hide it.
	const escapable = `Ab1/Cd2+Ef3"Gh4<Ij5&Kl6 Mn7é`
	jsonString := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	for _, tt := range []struct {
		name, secret, contentType string
		body                      func(secret string, r *http.Request) string
	}{
		{"description", "S3cr3tClientSecretXYZ", "application/json", func(s string, _ *http.Request) string {
			return `{"error":"invalid_client","error_description":` + jsonString("bad secret "+s) + `}`
		}},
		{"description escapable", escapable, "application/json", func(s string, _ *http.Request) string {
			return `{"error":"invalid_client","error_description":` + jsonString("bad secret "+s) + `}`
		}},
		{"JSON body", escapable, "application/json", func(s string, _ *http.Request) string {
			return `{"message":` + jsonString("bad secret "+s) + `}`
		}},
		{"JSON body, \\/", escapable, "application/json", func(s string, _ *http.Request) string {
			return `{"message":` + strings.ReplaceAll(jsonString("bad secret "+s), "/", `\/`) + `}`
		}},
		{"query-escaped", escapable, "text/html", func(s string, _ *http.Request) string {
			return "<a href=\"/retry?secret=" + url.QueryEscape(s) + "\">retry</a>"
		}},
		{"path-escaped", escapable, "text/html", func(s string, _ *http.Request) string {
			return "<a href=\"/clients/" + url.PathEscape(s) + "\">retry</a>"
		}},
		{"form", escapable, "application/x-www-form-urlencoded", func(s string, _ *http.Request) string {
			return "error=invalid_client&error_description=" + url.QueryEscape("bad secret "+s)
		}},
		{"Basic credentials", escapable, "text/html", func(_ string, r *http.Request) string {
			return "refused: " + r.Header.Get("Authorization")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var echoed string
			endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				echoed = tt.body(tt.secret, r)
				w.Header().Set("Content-Type", tt.contentType)
				w.WriteHeader(http.StatusUnauthorized)
				io.WriteString(w, echoed)
			}))
			defer endpoint.Close()
			cfg := &clientcredentials.Config{ClientID: "client-1", ClientSecret: tt.secret, TokenURL: endpoint.URL, AuthStyle: oauth2.AuthStyleInHeader}
			c, err := a2a.NewClient(agent.URL, a2a.WithCredentials(a2aoauth2.ClientCredentials(cfg)))
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.GetTask(context.Background(), "task-1")
			var re *oauth2.RetrieveError
			if !errors.As(err, &re) || !bytes.Equal(re.Body, []byte(echoed)) {
				t.Fatalf("err = %v, want one wrapping the RetrieveError of %q", err, echoed)
			}
			text := err.Error()
			if !strings.Contains(text, "[REDACTED]") {
				t.Errorf("nothing redacted: %q", text)
			}
			for _, frag := range strings.FieldsFunc(tt.secret, func(r rune) bool { return strings.ContainsRune(`/+"<& `, r) }) {
				if strings.Contains(text, frag[:3]) {
					t.Errorf("%q holds %q of the secret", text, frag)
				}
			}
			if n := len(agent.Requests()); n != 0 {
				t.Errorf("%d requests reached the agent", n)
			}
			if strings.Contains(tt.name, "Basic") && strings.Contains(text, strings.TrimPrefix(re.Response.Request.Header.Get("Authorization"), "Basic ")) {
				t.Errorf("%q holds the Basic credentials", text)
			}
		})
	}
}
