package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
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

func TestJSONRPCURL(t *testing.T) {
	tests := []struct {
		card *a2a.AgentCard
		want string
	}{
		{&a2a.AgentCard{URL: "https://a/rpc"}, "https://a/rpc"},
		{&a2a.AgentCard{URL: "https://a/rpc", PreferredTransport: "JSONRPC"}, "https://a/rpc"},
		{&a2a.AgentCard{URL: "grpc://a", PreferredTransport: "GRPC", AdditionalInterfaces: []a2a.AgentInterface{
			{URL: "https://a/rest", Transport: "HTTP+JSON"}, {URL: "https://a/jsonrpc", Transport: "JSONRPC"}}}, "https://a/jsonrpc"},
		{&a2a.AgentCard{URL: "grpc://a", PreferredTransport: "GRPC"}, ""},
		{nil, ""},
	}
	for _, tt := range tests {
		got, err := tt.card.JSONRPCURL()
		if got != tt.want || (tt.want == "") != errors.Is(err, a2a.ErrNoJSONRPCInterface) {
			t.Errorf("%+v: %q, %v", tt.card, got, err)
		}
	}
	if _, err := a2a.NewClientFromCard(&a2a.AgentCard{PreferredTransport: "GRPC", URL: "x"}); !errors.Is(err, a2a.ErrNoJSONRPCInterface) {
		t.Errorf("NewClientFromCard: %v", err)
	}
}

// TestCardCapabilityRefusal: a client that knows a Caoliao-like card refuses
// streaming, push config and the extended card without sending anything.
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
		"message/stream":    func() error { _, err := collect(c.StreamMessage(ctx, a2a.NewTextMessage("x"))); return err },
		"tasks/resubscribe": func() error { _, err := collect(c.Resubscribe(ctx, "t")); return err },
		"tasks/pushNotificationConfig/set": func() error {
			_, err := c.SetTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: "t", PushNotificationConfig: a2a.PushNotificationConfig{URL: "https://h/"}})
			return err
		},
		"tasks/pushNotificationConfig/get":    func() error { _, err := c.GetTaskPushNotificationConfig(ctx, "t", ""); return err },
		"tasks/pushNotificationConfig/list":   func() error { _, err := c.ListTaskPushNotificationConfigs(ctx, "t"); return err },
		"tasks/pushNotificationConfig/delete": func() error { return c.DeleteTaskPushNotificationConfig(ctx, "t", "c") },
		"agent/getAuthenticatedExtendedCard":  func() error { _, err := c.GetAuthenticatedExtendedCard(ctx); return err },
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
	got, err := c.GetAuthenticatedExtendedCard(context.Background())
	if err != nil || got.Name != extended.Name || c.Card().Name != extended.Name {
		t.Fatalf("extended card: %v, %v; Card() = %v", got, err, c.Card())
	}
	// The extended card leaves supportsAuthenticatedExtendedCard out; that
	// must not lock out the next refresh.
	if _, err := c.GetAuthenticatedExtendedCard(context.Background()); err != nil {
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
	if _, err := c2.GetAuthenticatedExtendedCard(context.Background()); !errors.Is(err, a2a.ErrAuthenticatedExtendedCardNotConfigured) {
		t.Errorf("err = %v", err)
	}
}

// TestCardBodies: bodies that are not a v0.3 card object are refused with a
// *ProtocolError per URL, never an empty card.
func TestCardBodies(t *testing.T) {
	for body, reason := range map[string]string{
		`null`: "not a JSON object",
		`{}`:   `no "url"`,
		`[1]`:  "not a JSON object",
		`{"name":"x","supportedInterfaces":[{"url":"https://a","protocolBinding":"JSONRPC"}]}`: "A2A v1.0",
		`<html>hi</html>`: "not a JSON object",
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
		if v1 := reason == "A2A v1.0"; errors.Is(err, a2a.ErrVersionMismatch) != v1 {
			t.Errorf("%s: errors.Is(err, ErrVersionMismatch) = %v, want %v", body, !v1, v1)
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
