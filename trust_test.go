package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// credentialServer answers every JSON-RPC call with a completed task and
// records the credentials each request carried.
type credentialServer struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // X-API-Key and Authorization of each request
}

func newCredentialServer(t *testing.T, tls bool, card func(self string) string) *credentialServer {
	s := &credentialServer{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			io.WriteString(w, card(s.URL))
			return
		}
		s.mu.Lock()
		s.seen = append(s.seen, r.Header.Get("X-Api-Key")+"|"+r.Header.Get("Authorization"))
		s.mu.Unlock()
		var req struct{ ID json.RawMessage }
		json.NewDecoder(r.Body).Decode(&req)
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"kind":"task","id":"t","status":{"state":"completed"}}}`, req.ID)
	})
	if tls {
		s.Server = httptest.NewTLSServer(h)
	} else {
		s.Server = httptest.NewServer(h)
	}
	t.Cleanup(s.Close)
	return s
}

// take returns the credentials seen since the last take.
func (s *credentialServer) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	seen := s.seen
	s.seen = nil
	return seen
}

// TestCardSendsKeyOnlyToItsOrigin: a card read over https that names a
// plain http endpoint on another port must not get the API key sent there.
// (Written with the API before WithTrustedHosts, to fail before the rule.)
func TestCardSendsKeyOnlyToItsOrigin(t *testing.T) {
	elsewhere := newCredentialServer(t, false, nil)
	home := newCredentialServer(t, true, func(string) string {
		return `{"name":"a","url":"` + elsewhere.URL + `/rpc","capabilities":{}}`
	})
	hc := home.Client()
	ctx := context.Background()
	card, err := a2a.ResolveAgentCard(ctx, home.URL, a2a.WithHTTPClient(hc), a2a.WithAPIKey("k-secret-1"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2a.NewClientFromCard(card, a2a.WithHTTPClient(hc), a2a.WithAPIKey("k-secret-1"))
	if err == nil {
		c.GetTask(ctx, "t")
	}
	if got := elsewhere.take(); len(got) != 0 {
		t.Errorf("the card's other host got %q", got)
	}
	if err == nil || strings.Contains(err.Error(), "k-secret-1") {
		t.Errorf("NewClientFromCard = %v, want an error without the key", err)
	}
}

// TestCardEndpointTrust: with credentials, a card's endpoint must be on the
// origin the card was read from or a trusted host, and never http after
// https; without credentials, or for a card the caller built, any endpoint
// is taken. The error names both places, redacted.
func TestCardEndpointTrust(t *testing.T) {
	elsewhere := newCredentialServer(t, false, nil) // plain http, another port
	elsewhereTLS := newCredentialServer(t, true, nil)
	hostOf := func(s *credentialServer) string { u, _ := url.Parse(s.URL); return u.Host }
	key := a2a.WithAPIKey("k-secret-1")
	tests := []struct {
		name      string
		tls       bool // the card is read over https
		endpoint  func(home string) string
		opts      []a2a.Option
		refused   bool
		downgrade bool
		target    *credentialServer // nil: the card's own server
		sent      string
	}{
		{"same origin, key", false, func(home string) string { return home + "/rpc" }, []a2a.Option{key}, false, false, nil, "k-secret-1|"},
		{"same origin over https, bearer", true, func(home string) string { return home + "/rpc" }, []a2a.Option{a2a.WithBearerToken("b-1")}, false, false, nil, "|Bearer b-1"},
		{"another port, key", false, func(string) string { return elsewhere.URL + "/rpc" }, []a2a.Option{key}, true, false, nil, ""},
		{"another port, Authorization header", false, func(string) string { return elsewhere.URL + "/rpc" }, []a2a.Option{a2a.WithHeader("Authorization", "Basic eDp5")}, true, false, nil, ""},
		{"another port, no credentials", false, func(string) string { return elsewhere.URL + "/rpc" }, []a2a.Option{a2a.WithUserAgent("ua/1")}, false, false, elsewhere, "|"},
		{"another port, any header", false, func(string) string { return elsewhere.URL + "/rpc" }, []a2a.Option{a2a.WithHeader("X-Honeycomb-Team", "hc-1")}, true, false, nil, ""},
		{"another port, trusted host", false, func(string) string { return elsewhere.URL + "/rpc" }, []a2a.Option{key, a2a.WithTrustedHosts("127.0.0.1")}, false, false, elsewhere, "k-secret-1|"},
		{"another port, trusted host:port", false, func(string) string { return elsewhere.URL + "/rpc" }, []a2a.Option{key, a2a.WithTrustedHosts("example.com", "127.0.0.1:"+strings.Split(hostOf(elsewhere), ":")[1])}, false, false, elsewhere, "k-secret-1|"},
		{"another port, another trusted port", false, func(string) string { return elsewhere.URL + "/rpc" }, []a2a.Option{key, a2a.WithTrustedHosts("127.0.0.1:1")}, true, false, nil, ""},
		{"https to https elsewhere, trusted", true, func(string) string { return elsewhereTLS.URL + "/rpc" }, []a2a.Option{key, a2a.WithTrustedHosts("127.0.0.1")}, false, false, elsewhereTLS, "k-secret-1|"},
		{"https to http, trusted host", true, func(string) string { return elsewhere.URL + "/rpc" }, []a2a.Option{key, a2a.WithTrustedHosts("127.0.0.1")}, true, true, nil, ""},
		{"https to http on the same port", true, func(home string) string { return strings.Replace(home, "https:", "http:", 1) + "/rpc" }, []a2a.Option{key}, true, true, nil, ""},
		{"a key in the endpoint path", false, func(string) string { return elsewhere.URL + "/agents/sk0live0abcdefghijklmnop/rpc?token=q-1" }, []a2a.Option{key}, true, false, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := newCredentialServer(t, tt.tls, func(self string) string {
				return `{"name":"a","url":"` + tt.endpoint(self) + `","capabilities":{}}`
			})
			hc := home.Client()
			if !tt.tls {
				hc = elsewhereTLS.Client() // trusts the TLS servers' certificate; plain http too
			}
			ctx := context.Background()
			card, err := a2a.ResolveAgentCard(ctx, home.URL, a2a.WithHTTPClient(hc))
			if err != nil {
				t.Fatal(err)
			}
			c, err := a2a.NewClientFromCard(card, append(tt.opts, a2a.WithHTTPClient(hc))...)
			var ue *a2a.UntrustedEndpointError
			if tt.refused {
				if !errors.As(err, &ue) || ue.Downgrade != tt.downgrade {
					t.Fatalf("NewClientFromCard = %v, want an UntrustedEndpointError (downgrade %v)", err, tt.downgrade)
				}
				homeURL, _ := url.Parse(home.URL)
				if ue.CardOrigin != homeURL.Scheme+"://"+homeURL.Host || !strings.Contains(err.Error(), ue.CardOrigin) || !strings.Contains(err.Error(), ue.Endpoint) {
					t.Errorf("error %q, card origin %q, want the origin %s and the endpoint named", err, ue.CardOrigin, home.URL)
				}
				for _, secret := range []string{"k-secret-1", "eDp5", "sk0live0abcdefghijklmnop", "q-1"} {
					if strings.Contains(err.Error(), secret) {
						t.Errorf("error %q shows %s", err, secret)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.GetTask(ctx, "t"); err != nil {
				t.Fatal(err)
			}
			target := tt.target
			if target == nil {
				target = home
			}
			if got := target.take(); len(got) != 1 || got[0] != tt.sent {
				t.Errorf("the endpoint got %q, want [%q]", got, tt.sent)
			}
		})
	}

	// A card the caller built (or decoded) has no origin: the caller
	// vouches for its URL.
	built := &a2a.AgentCard{Name: "a", URL: elsewhere.URL + "/rpc"}
	if _, err := a2a.NewClientFromCard(built, key); err != nil {
		t.Errorf("a built card: %v", err)
	}
}

// TestExtendedCardOrigin: an extended card was read at the client's
// endpoint; the same rule applies to the endpoint it names.
func TestExtendedCardOrigin(t *testing.T) {
	public := caoliaoCard()
	public.SupportsAuthenticatedExtendedCard = true
	extended := caoliaoCard()
	extended.URL = "http://agents.invalid/rpc"
	srv := a2atest.NewServer(a2atest.WithCard(public), a2atest.WithExtendedCard(extended), a2atest.RequireBearer("tok-1"))
	defer srv.Close()
	card, err := a2a.ResolveAgentCard(context.Background(), strings.TrimSuffix(srv.URL, "/a2a/jsonrpc"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2a.NewClientFromCard(card, a2a.WithBearerToken("tok-1"))
	if err != nil {
		t.Fatal(err)
	}
	ext, err := c.GetExtendedAgentCard(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var ue *a2a.UntrustedEndpointError
	if _, err := a2a.NewClientFromCard(ext, a2a.WithBearerToken("tok-1")); !errors.As(err, &ue) {
		t.Errorf("NewClientFromCard(extended) = %v, want an UntrustedEndpointError", err)
	}
	if _, err := a2a.NewClientFromCard(ext, a2a.WithBearerToken("tok-1"), a2a.WithTrustedHosts("AGENTS.invalid")); err != nil {
		t.Errorf("NewClientFromCard(extended, trusted) = %v", err)
	}
}
