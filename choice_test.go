package a2a_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// rest is an HTTP+JSON interface of version v.
func rest(url, v string) a2a.AgentInterface {
	return a2a.AgentInterface{URL: url, ProtocolBinding: a2a.TransportHTTPJSON, ProtocolVersion: v}
}

// spoken is the interface a client reports it speaks.
func spoken(url, binding, version, tenant string) a2a.AgentInterface {
	return a2a.AgentInterface{URL: url, Transport: binding, ProtocolBinding: binding, ProtocolVersion: version, Tenant: tenant}
}

// TestChooseBinding: NewClientFromCard takes the card's first interface
// it speaks (card order, A2A v1.0 §8.3.2) across bindings and versions,
// with that entry's URL, version and tenant together; WithTransports
// narrows the candidates, WithPreferredTransports puts the caller's order
// first, WithProtocolVersion narrows the versions; Client.Interface says
// what was chosen.
func TestChooseBinding(t *testing.T) {
	card := func(ifaces ...a2a.AgentInterface) *a2a.AgentCard { return &a2a.AgentCard{SupportedInterfaces: ifaces} }
	withTenant := func(in a2a.AgentInterface, tenant string) a2a.AgentInterface { in.Tenant = tenant; return in }
	grpc := a2a.AgentInterface{URL: "https://a/grpc", ProtocolBinding: a2a.TransportGRPC, ProtocolVersion: "1.0"}
	both := card(jsonrpc("https://a/rpc", "1.0"), rest("https://a/rest", "1.0"))
	tests := []struct {
		name string
		card *a2a.AgentCard
		opts []a2a.Option
		want a2a.AgentInterface // zero: ErrNoSupportedInterface
	}{
		{name: "JSON-RPC 0.3 first, then HTTP+JSON 1.0", card: card(jsonrpc("https://a/rpc", "0.3"), rest("https://a/rest", "1.0")),
			want: spoken("https://a/rpc", "JSONRPC", "0.3", "")},
		{name: "HTTP+JSON 1.0 first, then JSON-RPC 0.3", card: card(rest("https://a/rest", "1.0"), jsonrpc("https://a/rpc", "0.3")),
			want: spoken("https://a/rest", "HTTP+JSON", "1.0", "")},
		{name: "gRPC skipped", card: card(grpc, rest("https://a/rest", "1.0.1")), want: spoken("https://a/rest", "HTTP+JSON", "1.0", "")},
		{name: "gRPC only", card: card(grpc), want: a2a.AgentInterface{}},
		{name: "a custom binding only", card: card(a2a.AgentInterface{URL: "https://a/x", ProtocolBinding: "https://example.com/binding", ProtocolVersion: "1.0"}),
			want: a2a.AgentInterface{}},
		{name: "2.0 skipped", card: card(rest("https://a/v2", "2.0"), jsonrpc("https://a/rpc", "1.0")), want: spoken("https://a/rpc", "JSONRPC", "1.0", "")},
		{name: "binding names in any case", card: card(a2a.AgentInterface{URL: "https://a/rest", ProtocolBinding: "http+json", ProtocolVersion: "1.0"}),
			want: spoken("https://a/rest", "HTTP+JSON", "1.0", "")},
		{name: "JsonRpc", card: card(a2a.AgentInterface{URL: "https://a/rpc", ProtocolBinding: "JsonRpc", ProtocolVersion: "1.0"}),
			want: spoken("https://a/rpc", "JSONRPC", "1.0", "")},
		{name: "tenant kept with its entry", card: card(withTenant(jsonrpc("https://a/rpc", "1.0"), "t-rpc"), withTenant(rest("https://a/rest", "1.0"), "t-rest")),
			opts: []a2a.Option{a2a.WithTransports(a2a.TransportHTTPJSON)}, want: spoken("https://a/rest", "HTTP+JSON", "1.0", "t-rest")},
		{name: "URL with a path and a query", card: card(rest("https://a/x/rest?key=k", "1.0")), want: spoken("https://a/x/rest?key=k", "HTTP+JSON", "1.0", "")},
		{name: "empty version after a known one", card: card(rest("https://a/rest", ""), jsonrpc("https://a/rpc", "0.3")),
			want: spoken("https://a/rpc", "JSONRPC", "0.3", "")},
		{name: "empty version alone", card: card(rest("https://a/rest", "")), want: spoken("https://a/rest", "HTTP+JSON", "1.0", "")},
		{name: "dual card: supportedInterfaces, not url",
			card: &a2a.AgentCard{URL: "https://a/old", ProtocolVersion: "0.3.0", SupportedInterfaces: []a2a.AgentInterface{rest("https://a/rest", "1.0"), jsonrpc("https://a/old", "0.3")}},
			want: spoken("https://a/rest", "HTTP+JSON", "1.0", "")},

		// The caller's transports: allowed in card order, or preferred.
		{name: "WithTransports: card order wins", card: both, opts: []a2a.Option{a2a.WithTransports("HTTP+JSON", "JSONRPC")},
			want: spoken("https://a/rpc", "JSONRPC", "1.0", "")},
		{name: "WithTransports: only those", card: both, opts: []a2a.Option{a2a.WithTransports("http+json")},
			want: spoken("https://a/rest", "HTTP+JSON", "1.0", "")},
		{name: "WithTransports: none offered", card: card(jsonrpc("https://a/rpc", "1.0")), opts: []a2a.Option{a2a.WithTransports(a2a.TransportHTTPJSON)},
			want: a2a.AgentInterface{}},
		{name: "WithPreferredTransports: the caller's order wins", card: both, opts: []a2a.Option{a2a.WithPreferredTransports("HTTP+JSON", "JSONRPC")},
			want: spoken("https://a/rest", "HTTP+JSON", "1.0", "")},
		{name: "WithPreferredTransports: the next when the first is not offered", card: card(grpc, jsonrpc("https://a/rpc", "0.3")),
			opts: []a2a.Option{a2a.WithPreferredTransports("HTTP+JSON", "JSONRPC")}, want: spoken("https://a/rpc", "JSONRPC", "0.3", "")},
		{name: "WithPreferredTransports: card order within a transport", card: card(jsonrpc("https://a/rpc0", "0.3"), rest("https://a/rest", "1.0"), jsonrpc("https://a/rpc1", "1.0")),
			opts: []a2a.Option{a2a.WithPreferredTransports("JSONRPC")}, want: spoken("https://a/rpc0", "JSONRPC", "0.3", "")},
		{name: "the last of the two options counts", card: both,
			opts: []a2a.Option{a2a.WithPreferredTransports("HTTP+JSON", "JSONRPC"), a2a.WithTransports("HTTP+JSON", "JSONRPC")},
			want: spoken("https://a/rpc", "JSONRPC", "1.0", "")},

		// WithProtocolVersion with them.
		{name: "WithProtocolVersion across bindings", card: card(jsonrpc("https://a/rpc0", "0.3"), rest("https://a/rest", "1.0"), jsonrpc("https://a/rpc1", "1.0")),
			opts: []a2a.Option{a2a.WithProtocolVersion("1.0")}, want: spoken("https://a/rest", "HTTP+JSON", "1.0", "")},
		{name: "WithProtocolVersion and WithTransports", card: card(jsonrpc("https://a/rpc0", "0.3"), rest("https://a/rest", "1.0"), jsonrpc("https://a/rpc1", "1.0")),
			opts: []a2a.Option{a2a.WithProtocolVersion("1.0"), a2a.WithTransports(a2a.TransportJSONRPC)}, want: spoken("https://a/rpc1", "JSONRPC", "1.0", "")},
		{name: "WithProtocolVersion: none of that version", card: card(rest("https://a/rest", "1.0")), opts: []a2a.Option{a2a.WithProtocolVersion("0.3")},
			want: a2a.AgentInterface{}},
		{name: "a tenant option over the entry's", card: card(withTenant(rest("https://a/rest", "1.0"), "card")), opts: []a2a.Option{a2a.WithTenant("mine")},
			want: spoken("https://a/rest", "HTTP+JSON", "1.0", "mine")},
		// An agent selector is a JSON-RPC envelope member.
		{name: "an agent selector: JSON-RPC before HTTP+JSON", card: card(rest("https://a/rest", "1.0"), jsonrpc("https://a/rpc", "0.3")),
			opts: []a2a.Option{a2a.WithAgentID("agent-7")}, want: spoken("https://a/rpc", "JSONRPC", "0.3", "")},
		{name: "an agent code, preferred HTTP+JSON", card: both,
			opts: []a2a.Option{a2a.WithAgentCode("c"), a2a.WithPreferredTransports("HTTP+JSON", "JSONRPC")}, want: spoken("https://a/rpc", "JSONRPC", "1.0", "")},
		{name: "nil card", want: a2a.AgentInterface{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := a2a.NewClientFromCard(tt.card, tt.opts...)
			if tt.want == (a2a.AgentInterface{}) {
				if !errors.Is(err, a2a.ErrNoSupportedInterface) {
					t.Fatalf("NewClientFromCard = %v, %v; want ErrNoSupportedInterface", c, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, c.Interface()); diff != "" {
				t.Errorf("Interface() (-want +got):\n%s", diff)
			}
			if c.ProtocolVersion() != tt.want.ProtocolVersion || c.Tenant() != tt.want.Tenant {
				t.Errorf("ProtocolVersion() %q, Tenant() %q; want Interface()'s", c.ProtocolVersion(), c.Tenant())
			}
		})
	}
}

// TestTransportOptionErrors: both transport options refuse an empty list,
// a transport this package does not speak and one named twice, naming
// themselves.
func TestTransportOptionErrors(t *testing.T) {
	for _, tc := range []struct {
		opt  a2a.Option
		want string
	}{
		{a2a.WithTransports(), "WithTransports: no transport named"},
		{a2a.WithPreferredTransports(), "WithPreferredTransports: no transport named"},
		{a2a.WithTransports("GRPC"), `WithTransports: transport "GRPC" is not one this client speaks`},
		{a2a.WithPreferredTransports("JSONRPC", "grpc"), `WithPreferredTransports: transport "grpc" is not one this client speaks`},
		{a2a.WithPreferredTransports("JSONRPC", "jsonrpc"), `WithPreferredTransports: transport "jsonrpc" is named twice`},
	} {
		_, err := a2a.NewClient(mockURL, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewClient = %v; want an error saying %q", err, tc.want)
		}
		_, err = a2a.NewClientFromCard(&a2a.AgentCard{SupportedInterfaces: []a2a.AgentInterface{jsonrpc(mockURL, "1.0")}}, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewClientFromCard = %v; want an error saying %q", err, tc.want)
		}
	}
}

// TestClientInterface: NewClient speaks JSON-RPC v0.3 at its URL unless
// told otherwise, and says so; a Client not made by NewClient has none.
func TestClientInterface(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []a2a.Option
		want a2a.AgentInterface
	}{
		{"default", nil, spoken(mockURL, "JSONRPC", "0.3", "")},
		{"v1.0 with a tenant", []a2a.Option{a2a.WithProtocolVersion("1.0.1"), a2a.WithTenant("t")}, spoken(mockURL, "JSONRPC", "1.0", "t")},
		{"HTTP+JSON v1.0", []a2a.Option{a2a.WithTransports("http+json", "JSONRPC"), a2a.WithProtocolVersion("1.0")}, spoken(mockURL, "HTTP+JSON", "1.0", "")},
		{"preferred: the first", []a2a.Option{a2a.WithPreferredTransports("JSONRPC", "HTTP+JSON")}, spoken(mockURL, "JSONRPC", "0.3", "")},
	} {
		c, err := a2a.NewClient(mockURL, tc.opts...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if diff := cmp.Diff(tc.want, c.Interface()); diff != "" {
			t.Errorf("%s: Interface() (-want +got):\n%s", tc.name, diff)
		}
	}
	var zero *a2a.Client
	if got := zero.Interface(); got != (a2a.AgentInterface{}) {
		t.Errorf("nil Client: Interface() = %+v", got)
	}
	if got := new(a2a.Client).Interface(); got != (a2a.AgentInterface{}) {
		t.Errorf("zero Client: Interface() = %+v", got)
	}
}

// TestClientFromCardREST: a card that lists HTTP+JSON first is spoken to
// over HTTP+JSON end to end: the card read from the agent, GetTask sent
// as GET on the entry's URL (its path and query kept) under the entry's
// tenant, the task read; the key goes there, the card's own origin.
func TestClientFromCardREST(t *testing.T) {
	type seen struct{ Method, Path, Query, Version, Key string }
	var (
		mu  sync.Mutex
		got []seen
	)
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.HandleFunc("GET "+a2a.AgentCardPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"name":"r","supportedInterfaces":[
			{"url":"` + srv.URL + `/a2a/rest?region=eu","protocolBinding":"HTTP+JSON","protocolVersion":"1.0","tenant":"projects/p 1"},
			{"url":"` + srv.URL + `/a2a/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`))
	})
	mux.HandleFunc("/a2a/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, seen{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, r.Header.Get("A2A-Version"), r.Header.Get("X-API-Key")})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"t/1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}`))
	})
	ctx := context.Background()
	card, err := a2a.ResolveAgentCard(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2a.NewClientFromCard(card, a2a.WithAPIKey("k-1"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(spoken(srv.URL+"/a2a/rest?region=eu", "HTTP+JSON", "1.0", "projects/p 1"), c.Interface()); diff != "" {
		t.Errorf("Interface() (-want +got):\n%s", diff)
	}
	task, err := c.GetTask(ctx, "t/1", a2a.HistoryLength(2))
	if err != nil {
		t.Fatal(err)
	}
	if task.ID != "t/1" || task.Status.State != a2a.TaskStateCompleted {
		t.Errorf("task %+v", task)
	}
	want := []seen{{"GET", "/a2a/rest/projects/p%201/tasks/t%2F1", "region=eu&historyLength=2", "1.0", "k-1"}}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestClientFromCardRESTOtherOrigin: the credentials rule holds for the
// chosen entry whatever its binding: a REST entry on another origin than
// the card's gets no credentials unless its host is trusted.
func TestClientFromCardRESTOtherOrigin(t *testing.T) {
	srv, _ := serveFake(t, mockReply{ctype: "application/json", body: []byte(`{"name":"r","supportedInterfaces":[
		{"url":"https://rest.other.example/a2a","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}]}`)})
	card, err := a2a.ResolveAgentCard(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a2a.NewClientFromCard(card, a2a.WithBearerToken("tok-secret"))
	var ue *a2a.UntrustedEndpointError
	if !errors.As(err, &ue) {
		t.Fatalf("NewClientFromCard = %v; want an *UntrustedEndpointError", err)
	}
	if strings.Contains(err.Error(), "tok-secret") {
		t.Errorf("error shows the token: %v", err)
	}
	c, err := a2a.NewClientFromCard(card, a2a.WithBearerToken("tok-secret"), a2a.WithTrustedHosts("rest.other.example"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Interface().ProtocolBinding != a2a.TransportHTTPJSON {
		t.Errorf("Interface() = %+v; want the HTTP+JSON entry", c.Interface())
	}
	if _, err := a2a.NewClientFromCard(card); err != nil {
		t.Errorf("without credentials: %v", err)
	}
}

// TestChooseSelectorREST: an agent selector on a card whose only interface
// is HTTP+JSON chooses it, and NewClientFromCard then refuses the selector
// (HTTP+JSON requests have no envelope to carry it) rather than pass it
// over in silence.
func TestChooseSelectorREST(t *testing.T) {
	card := &a2a.AgentCard{SupportedInterfaces: []a2a.AgentInterface{rest("https://a/rest", "1.0")}}
	if _, err := a2a.NewClientFromCard(card, a2a.WithAgentID("agent-7")); err == nil || !strings.Contains(err.Error(), "WithAgentID") {
		t.Errorf("NewClientFromCard = %v; want the selector refused", err)
	}
}
