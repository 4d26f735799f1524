package a2a_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// caoliaoCard is a card shaped like Caoliao's: no streaming, no push, no
// extended card (seed 000 "Known limitations").
func caoliaoCard() *a2a.AgentCard {
	return &a2a.AgentCard{
		ProtocolVersion: "0.3.0", Name: "草料二维码", Description: "Reads QR code entities", Version: "1.0.0",
		PreferredTransport: a2a.TransportJSONRPC,
		DefaultInputModes:  []string{"text/plain"}, DefaultOutputModes: []string{"application/json", "text/plain"},
		Skills: []a2a.AgentSkill{{ID: "entity", Name: "Entity", Description: "What a code is", Tags: []string{"qr"}}},
		SecuritySchemes: map[string]a2a.SecurityScheme{
			"key":   {Type: "apiKey", In: "header", Name: "X-API-Key"},
			"oauth": {Type: "oauth2", Flows: &a2a.OAuthFlows{ClientCredentials: &a2a.OAuthFlow{TokenURL: "https://auth.example/token", Scopes: map[string]string{"read": "read data"}}}},
		},
		Security: []map[string][]string{{"key": {}}},
	}
}

func TestResolveAgentCard(t *testing.T) {
	card := caoliaoCard()
	for _, tt := range []struct {
		name  string
		paths []string
		base  string // appended to the server's root
		gets  []string
	}{
		{"current path", nil, "", []string{a2a.AgentCardPath}},
		{"trailing slash", nil, "/", []string{a2a.AgentCardPath}},
		{"legacy fallback", []string{a2a.LegacyAgentCardPath}, "", []string{a2a.AgentCardPath, a2a.LegacyAgentCardPath}},
		{"under a prefix", []string{"/agents/x" + a2a.AgentCardPath}, "/agents/x/", []string{"/agents/x" + a2a.AgentCardPath}},
		{"a card URL", []string{"/custom/card.json"}, "/custom/card.json", []string{"/custom/card.json"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := a2atest.NewServer(a2atest.WithCard(card, tt.paths...))
			defer srv.Close()
			root := strings.TrimSuffix(srv.URL, "/a2a/jsonrpc")
			got, err := a2a.ResolveAgentCard(context.Background(), root+tt.base, a2a.WithAPIKey("k-123"))
			if err != nil {
				t.Fatal(err)
			}
			want := *card
			want.URL = srv.URL // a2atest fills in an empty URL
			if diff := cmp.Diff(&want, got, cmpopts.IgnoreUnexported(a2a.AgentCard{})); diff != "" {
				t.Errorf("card (-want +got):\n%s", diff)
			}
			if !json.Valid(got.Raw()) || !strings.Contains(string(got.Raw()), `"草料二维码"`) {
				t.Errorf("Raw() = %s", got.Raw())
			}
			var paths []string
			for _, r := range srv.Requests() {
				if r.Header.Get("X-Api-Key") != "k-123" {
					t.Error("the card GET lacks the API key")
				}
				paths = append(paths, r.Path)
			}
			if diff := cmp.Diff(tt.gets, paths); diff != "" {
				t.Errorf("GETs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResolveAgentCardErrors(t *testing.T) {
	srv := a2atest.NewServer() // no card
	defer srv.Close()
	root := strings.TrimSuffix(srv.URL, "/a2a/jsonrpc")
	withCreds := strings.Replace(root, "http://", "http://user:pw-secret@", 1) + "?key=q-secret-value"
	_, err := a2a.ResolveAgentCard(context.Background(), withCreds)
	ce, ok := errors.AsType[*a2a.CardError](err)
	if !ok || len(ce.Attempts) != 2 {
		t.Fatalf("err = %v, want *CardError with 2 attempts", err)
	}
	for i, path := range []string{a2a.AgentCardPath, a2a.LegacyAgentCardPath} {
		if a := ce.Attempts[i]; a.URL != root+path || a.StatusCode != 404 {
			t.Errorf("attempt %d: %s %d", i, a.URL, a.StatusCode)
		}
	}
	if msg := err.Error(); strings.Contains(msg, "secret") || !strings.Contains(msg, "agent.json (HTTP 404)") {
		t.Errorf("Error() = %q", msg)
	}
	if _, ok := errors.AsType[*a2a.HTTPError](err); !ok {
		t.Error("the attempts' HTTPErrors are not reachable with errors.As")
	}
	if _, err := a2a.ResolveAgentCard(context.Background(), "not a url"); err == nil {
		t.Error("a bad base URL gave no error")
	}
	// A card that is not JSON is an error naming the URL, not a second try.
	bad := a2atest.NewServer()
	defer bad.Close()
	bad.Enqueue(a2atest.Raw{Body: "<html>hi</html>", ContentType: "text/html"})
	_, err = a2a.ResolveAgentCard(context.Background(), strings.TrimSuffix(bad.URL, "/a2a/jsonrpc"))
	if ce, ok := errors.AsType[*a2a.CardError](err); !ok || len(ce.Attempts) != 1 {
		t.Errorf("non-JSON card: %v", err)
	}
	// A 404 whose body cannot be read is still a 404: its status is kept
	// and the legacy path is tried.
	broken := mockReply{status: 404, header: http.Header{"Content-Encoding": {"gzip"}}, body: []byte("not gzip")}
	srv404, hits := serveFake(t, broken)
	_, err = a2a.ResolveAgentCard(context.Background(), srv404.URL)
	if ce, ok := errors.AsType[*a2a.CardError](err); !ok || len(ce.Attempts) != 2 || ce.Attempts[0].StatusCode != 404 || hits.count() != 2 {
		t.Errorf("404 with a corrupt body: %v (%d requests)", err, hits.count())
	}
}

// TestNewClientFromCardNoInterface: a card without an interface the client
// speaks gives ErrNoSupportedInterface (the choice itself is
// TestJSONRPCInterface's).
func TestNewClientFromCardNoInterface(t *testing.T) {
	if _, err := a2a.NewClientFromCard(&a2a.AgentCard{PreferredTransport: "GRPC", URL: "x"}); !errors.Is(err, a2a.ErrNoSupportedInterface) {
		t.Errorf("NewClientFromCard: %v", err)
	}
}

// TestCardCapabilityRefusal: a client that knows a Caoliao-like card refuses
// streaming, push config (a send with Webhook too) and the extended
// card without sending anything.
func TestCardCapabilityRefusal(t *testing.T) {
	srv := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer srv.Close()
	card := caoliaoCard()
	card.URL = srv.URL
	c, err := a2a.NewClientFromCard(card)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	checks := map[string]func() error{
		"message/stream":    func() error { _, err := collect(c.SendStreamingMessage(ctx, a2a.NewTextMessage("x"))); return err },
		"tasks/resubscribe": func() error { _, err := collect(c.SubscribeToTask(ctx, "t")); return err },
		"tasks/pushNotificationConfig/set": func() error {
			_, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: "t", PushNotificationConfig: a2a.PushNotificationConfig{URL: "https://h/"}})
			return err
		},
		"tasks/pushNotificationConfig/get":    func() error { _, err := c.GetTaskPushNotificationConfig(ctx, "t", ""); return err },
		"tasks/pushNotificationConfig/list":   func() error { _, err := c.ListTaskPushNotificationConfigs(ctx, "t"); return err },
		"tasks/pushNotificationConfig/delete": func() error { return c.DeleteTaskPushNotificationConfig(ctx, "t", "c") },
		"agent/getAuthenticatedExtendedCard":  func() error { _, err := c.GetExtendedAgentCard(ctx); return err },
		"message/send": func() error { // with a webhook: push is ruled out
			_, err := c.SendText(ctx, "x", a2a.Webhook(a2a.PushNotificationConfig{URL: "https://h/"}))
			return err
		},
	}
	for method, call := range checks {
		err := call()
		ue, ok := errors.AsType[*a2a.UnsupportedByCardError](err)
		if !ok || ue.Method != method {
			t.Errorf("%s: err = %v, want *UnsupportedByCardError", method, err)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent; refusals must send nothing", n)
	}
	// What the card allows still works.
	if task, err := c.SendText(ctx, a2atest.SeedQRCode); err != nil || task.Status.State != a2a.TaskStateCompleted {
		t.Errorf("message/send: %v, %v", task, err)
	}
}

func TestExtendedCard(t *testing.T) {
	public := caoliaoCard()
	public.SupportsAuthenticatedExtendedCard = true
	extended := caoliaoCard()
	extended.Name = "草料二维码 (extended)"
	srv := a2atest.NewServer(a2atest.WithCard(public), a2atest.WithExtendedCard(extended), a2atest.RequireBearer("tok-1"))
	defer srv.Close()
	root := strings.TrimSuffix(srv.URL, "/a2a/jsonrpc")
	card, err := a2a.ResolveAgentCard(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2a.NewClientFromCard(card, a2a.WithBearerToken("tok-1"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.GetExtendedAgentCard(context.Background())
	if err != nil || got.Name != extended.Name || c.Card().Name != extended.Name {
		t.Fatalf("extended card: %v, %v; Card() = %v", got, err, c.Card())
	}
	// The extended card leaves supportsAuthenticatedExtendedCard out; that
	// must not lock out the next refresh.
	if _, err := c.GetExtendedAgentCard(context.Background()); err != nil {
		t.Errorf("second fetch: %v", err)
	}
	reqs := srv.Requests()
	if last := string(reqs[len(reqs)-1].Body); strings.Contains(last, `"params"`) {
		t.Errorf("extended card request carries params: %s", last)
	}
	// Without one configured, the agent's -32007 comes back typed.
	plain := a2atest.NewServer()
	defer plain.Close()
	c2, _ := a2a.NewClient(plain.URL)
	if _, err := c2.GetExtendedAgentCard(context.Background()); !errors.Is(err, a2a.ErrExtendedAgentCardNotConfigured) {
		t.Errorf("err = %v", err)
	}
}

// TestCardBodies: bodies that are not a card object of either version are
// refused with a *ProtocolError per URL, never an empty card.
func TestCardBodies(t *testing.T) {
	for body, reason := range map[string]string{
		`null`:                                  "not a JSON object",
		`{}`:                                    `no "url" and no "supportedInterfaces"`,
		`{"name":"x","supportedInterfaces":[]}`: `no "url" and no "supportedInterfaces"`,
		`[1]`:                                   "not a JSON object",
		`<html>hi</html>`:                       "response is not JSON (Content-Type",
	} {
		srv := a2atest.NewServer()
		srv.Enqueue(a2atest.Raw{Body: body, ContentType: "application/json"})
		_, err := a2a.ResolveAgentCard(context.Background(), strings.TrimSuffix(srv.URL, "/a2a/jsonrpc")+"#access_token=frag-secret")
		srv.Close()
		pe, ok := errors.AsType[*a2a.ProtocolError](err)
		if !ok || !strings.Contains(pe.Reason, reason) {
			t.Errorf("%s: err = %v, want a ProtocolError saying %q", body, err, reason)
			continue
		}
		if errors.Is(err, a2a.ErrVersionMismatch) {
			t.Errorf("%s: matches ErrVersionMismatch; cards of both versions are read", body)
		}
		if msg := err.Error(); !strings.Contains(msg, "HTTP 200: ") || strings.Contains(msg, "frag-secret") {
			t.Errorf("%s: Error() = %q", body, msg)
		}
	}
	// One card value serves two servers, each with its own URL.
	card := &a2a.AgentCard{Name: "shared", ProtocolVersion: "0.3.0"}
	a, b := a2atest.NewServer(a2atest.WithCard(card)), a2atest.NewServer(a2atest.WithCard(card))
	defer a.Close()
	defer b.Close()
	got, err := a2a.ResolveAgentCard(context.Background(), strings.TrimSuffix(b.URL, "/a2a/jsonrpc"))
	if err != nil || got.URL != b.URL || card.URL != "" {
		t.Errorf("shared card: %v, %v (caller's card URL %q)", got, err, card.URL)
	}
}

// TestResolveAgentCardVersions: ResolveAgentCard reads v0.3, v1.0 and dual
// cards as servers write them, served on loopback, into the card
// json.Unmarshal gives, keeping the bytes.
func TestResolveAgentCardVersions(t *testing.T) {
	v03, err := json.Marshal(caoliaoCard())
	if err != nil {
		t.Fatal(err)
	}
	bodies := map[string][]byte{"v0.3": []byte(strings.Replace(string(v03), `"url":""`, `"url":"https://caoliao.example/a2a"`, 1))}
	for _, f := range []string{"card_v10.json", "card_dual_go.json", "card_dual_python.json", "card_dual_js.json"} {
		bodies[f] = fixture(t, f)
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			srv, f := serveFake(t, mockReply{ctype: "application/json", body: body})
			got, err := a2a.ResolveAgentCard(context.Background(), srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			var want a2a.AgentCard
			if err := json.Unmarshal(body, &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&want, got, cmpopts.IgnoreUnexported(a2a.AgentCard{})); diff != "" {
				t.Errorf("card (-want +got):\n%s", diff)
			}
			if string(got.Raw()) != strings.TrimSpace(string(body)) {
				t.Errorf("Raw() = %s", got.Raw())
			}
			if _, err := got.JSONRPCInterface(); err != nil {
				t.Error(err)
			}
			if f.count() != 1 {
				t.Errorf("%d GETs, want 1", f.count())
			}
		})
	}
}

// TestV10CardClient: a client built from a v1.0 card read on loopback
// calls the card's chosen JSON-RPC interface, with credentials (the same
// origin), and refuses what the card's v1.0 capability flags rule out.
func TestV10CardClient(t *testing.T) {
	var base string
	card := func(caps string) mockReply {
		return mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"name":"v1","supportedInterfaces":[`+
				`{"url":"%s/a2a/v0","protocolBinding":"JSONRPC","protocolVersion":"0.3"},`+
				`{"url":"%s/a2a/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":"t1"}],"capabilities":%s}`, base, base, caps)
		}}
	}
	extended := mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"name":"v1 extended","supportedInterfaces":[{"url":"%s/a2a/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}}`, id, base)
	}}
	ctx := context.Background()

	t.Run("extendedAgentCard true", func(t *testing.T) {
		srv, f := serveFake(t, card(`{"extendedAgentCard":true}`), extended)
		base = srv.URL
		got, err := a2a.ResolveAgentCard(ctx, srv.URL, a2a.WithAPIKey("k-1"))
		if err != nil {
			t.Fatal(err)
		}
		c, err := a2a.NewClientFromCard(got, a2a.WithAPIKey("k-1"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 { // the extended card leaves the flag out: that must not lock out the next call
			ext, err := c.GetExtendedAgentCard(ctx)
			if err != nil || ext.Name != "v1 extended" {
				t.Fatalf("call %d: %v, %v", i, ext, err)
			}
		}
		if known := c.Card(); known.Name != "v1 extended" || !known.Capabilities.ExtendedAgentCard || known.SupportsAuthenticatedExtendedCard {
			t.Errorf("Card() = %+v", known)
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, r := range f.got[1:] {
			if r.header.Get("X-Api-Key") != "k-1" {
				t.Error("the call lacks the API key")
			}
		}
		if len(f.got) != 3 {
			t.Errorf("%d requests, want 3", len(f.got))
		}
	})

	t.Run("flags false", func(t *testing.T) {
		srv, f := serveFake(t, card(`{}`))
		base = srv.URL
		got, err := a2a.ResolveAgentCard(ctx, srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		c, err := a2a.NewClientFromCard(got)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.GetExtendedAgentCard(ctx)
		if ue, ok := errors.AsType[*a2a.UnsupportedByCardError](err); !ok || ue.Capability != "capabilities.extendedAgentCard" {
			t.Errorf("extended card: %v", err)
		}
		_, err = collect(c.SendStreamingMessage(ctx, a2a.NewTextMessage("x")))
		if ue, ok := errors.AsType[*a2a.UnsupportedByCardError](err); !ok || ue.Capability != "capabilities.streaming" {
			t.Errorf("stream: %v", err)
		}
		if f.count() != 1 {
			t.Errorf("%d requests; refusals must send nothing", f.count())
		}
	})

	// A dual card that sets only the v0.3 flag is believed too.
	t.Run("v0.3 flag on a dual card", func(t *testing.T) {
		f := &fake{t: t, replies: []mockReply{rpcReply([]byte(`{"jsonrpc":"2.0","id":1,"result":{"name":"ext","url":"` + mockURL + `"}}`))}}
		dual := &a2a.AgentCard{URL: mockURL, SupportsAuthenticatedExtendedCard: true, SupportedInterfaces: []a2a.AgentInterface{jsonrpc(mockURL, "1.0")}}
		c, err := a2a.NewClientFromCard(dual, a2a.WithHTTPClient(&http.Client{Transport: f.transport()}))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.GetExtendedAgentCard(ctx); err != nil {
			t.Error(err)
		}
	})
}

// hostsSeen is an http.RoundTripper that records the host of every
// request before sending it.
type hostsSeen struct {
	mu    sync.Mutex
	hosts []string
}

func (h *hostsSeen) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	h.hosts = append(h.hosts, r.URL.Host)
	h.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

// TestResolveAgentCardFromEndpoint: given an endpoint URL, ResolveAgentCard
// looks for the card under the endpoint's path, its prefixes, then the
// site's root, then the legacy paths, in that order, on the endpoint's
// origin alone, stopping at the first card.
func TestResolveAgentCardFromEndpoint(t *testing.T) {
	card := caoliaoCard()
	ac, legacy := a2a.AgentCardPath, a2a.LegacyAgentCardPath
	for _, tt := range []struct {
		name  string
		paths []string // where the card is
		gets  []string
	}{
		{"at the site's root", nil, []string{"/a2a/jsonrpc" + ac, "/a2a" + ac, ac}},
		{"under the path's prefix", []string{"/a2a" + ac}, []string{"/a2a/jsonrpc" + ac, "/a2a" + ac}},
		{"legacy, at the root", []string{legacy}, []string{"/a2a/jsonrpc" + ac, "/a2a" + ac, ac, "/a2a/jsonrpc" + legacy, legacy}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := a2atest.NewServer(a2atest.WithCard(card, tt.paths...))
			defer srv.Close()
			seen := &hostsSeen{}
			got, err := a2a.ResolveAgentCard(context.Background(), srv.URL, // the JSON-RPC endpoint
				a2a.WithHTTPClient(&http.Client{Transport: seen}))
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != card.Name {
				t.Errorf("card %q", got.Name)
			}
			var paths []string
			for _, r := range srv.Requests() {
				paths = append(paths, r.Path)
			}
			if diff := cmp.Diff(tt.gets, paths); diff != "" {
				t.Errorf("GETs (-want +got):\n%s", diff)
			}
			host := strings.TrimPrefix(srv.BaseURL(), "http://")
			for _, h := range seen.hosts {
				if h != host {
					t.Errorf("a request went to %s, not %s", h, host)
				}
			}
		})
	}
}

// TestResolveAgentCardTried: without a card, the *CardError names every
// URL tried, in order, without the base URL's userinfo or query; a 405 is
// passed over like a 404; a deep path is tried at no more than six URLs.
func TestResolveAgentCardTried(t *testing.T) {
	ac, legacy := a2a.AgentCardPath, a2a.LegacyAgentCardPath
	for _, tt := range []struct {
		name, path string
		tried      []string
	}{
		{"endpoint", "/a2a/jsonrpc", []string{"/a2a/jsonrpc" + ac, "/a2a" + ac, ac, "/a2a/jsonrpc" + legacy, legacy}},
		{"bounded", "/a/b/c/d/e/", []string{"/a/b/c/d/e" + ac, "/a/b/c/d" + ac, "/a/b/c" + ac, ac, "/a/b/c/d/e" + legacy, legacy}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var (
				mu   sync.Mutex
				gets []string
			)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				gets = append(gets, r.URL.Path)
				n := len(gets)
				mu.Unlock()
				if n == 1 {
					http.Error(w, "GET not allowed", http.StatusMethodNotAllowed) // as an endpoint may answer
					return
				}
				http.NotFound(w, r)
			}))
			defer srv.Close()
			base := strings.Replace(srv.URL, "http://", "http://user:pw-secret@", 1) + tt.path + "?key=q-secret-value"
			_, err := a2a.ResolveAgentCard(context.Background(), base)
			ce, ok := errors.AsType[*a2a.CardError](err)
			if !ok {
				t.Fatalf("err = %v, want a *CardError", err)
			}
			var tried []string
			for i, a := range ce.Attempts {
				tried = append(tried, strings.TrimPrefix(a.URL, srv.URL))
				if want := map[bool]int{true: 405, false: 404}[i == 0]; a.StatusCode != want {
					t.Errorf("attempt %d: HTTP %d, want %d", i, a.StatusCode, want)
				}
			}
			if diff := cmp.Diff(tt.tried, tried); diff != "" {
				t.Errorf("URLs tried (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.tried, gets); diff != "" {
				t.Errorf("GETs (-want +got):\n%s", diff)
			}
			msg := err.Error()
			if strings.Contains(msg, "secret") {
				t.Errorf("Error() shows a secret: %s", msg)
			}
			for _, p := range tt.tried {
				if !strings.Contains(msg, " "+srv.URL+p+" (HTTP 40") {
					t.Errorf("Error() does not name %s: %s", p, msg)
				}
			}
		})
	}
}

// TestResolveAgentCardLogged: with WithLogger each card GET is logged
// with its URL, without the base URL's userinfo or query, and status, and
// without a JSON-RPC id.
func TestResolveAgentCardLogged(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10())
	defer srv.Close()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	base := strings.Replace(srv.URL, "http://", "http://user:pw-secret@", 1) + "?key=q-secret-value"
	if _, err := a2a.ResolveAgentCard(context.Background(), base, a2a.WithLogger(log)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "secret") || strings.Contains(out, " id=") {
		t.Errorf("the log shows a secret or a JSON-RPC id (a GET has none):\n%s", out)
	}
	for _, want := range []string{
		`msg="a2a agent card" url=` + srv.URL + a2a.AgentCardPath + " status=404 found=false",
		`msg="a2a agent card" url=` + srv.BaseURL() + "/a2a" + a2a.AgentCardPath + " status=404 found=false",
		`msg="a2a agent card" url=` + srv.BaseURL() + a2a.AgentCardPath + " status=200 found=true",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the log lacks %q:\n%s", want, out)
		}
	}
}
