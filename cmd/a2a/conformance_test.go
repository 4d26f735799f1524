package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// conformanceClient makes a client for one interface as the core would,
// without credentials: its binding, version and tenant, no retries.
func conformanceClient(in a2a.AgentInterface) (*a2a.Client, error) {
	v := a2a.ProtocolV03
	if strings.HasPrefix(in.ProtocolVersion, "1") {
		v = a2a.ProtocolV10
	}
	opts := []a2a.Option{a2a.WithTransports(canonicalBinding(in.ProtocolBinding)), a2a.WithProtocolVersion(v), a2a.WithMaxRetries(0)}
	if in.Tenant != "" {
		opts = append(opts, a2a.WithTenant(in.Tenant))
	}
	return a2a.NewClient(in.URL, opts...)
}

// resolveTestCard reads the card of the agent serving at endpoint.
func resolveTestCard(t *testing.T, endpoint string) *a2a.AgentCard {
	t.Helper()
	u, _ := url.Parse(endpoint)
	card, err := a2a.ResolveAgentCard(context.Background(), "http://"+u.Host)
	if err != nil {
		t.Fatal(err)
	}
	return card
}

func resultsByID(t *testing.T, results []checkResult) map[string]checkResult {
	t.Helper()
	m := map[string]checkResult{}
	for _, r := range results {
		if _, dup := m[r.ID]; dup {
			t.Errorf("check %s twice", r.ID)
		}
		m[r.ID] = r
		if strings.ContainsFunc(r.Title+r.Detail, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) {
			t.Errorf("%s: not inert: %q %q", r.ID, r.Title, r.Detail)
		}
	}
	return m
}

func TestConformanceGoodAgents(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []a2atest.Option
		want []string // check IDs, each must pass (not skipped unless listed in skipped)
		skip []string
	}{
		{"v1.0 JSON-RPC and HTTP+JSON", []a2atest.Option{a2atest.V10(), a2atest.Bindings(a2a.TransportJSONRPC, a2a.TransportHTTPJSON), a2atest.WithExtendedCard(vcCaoliaoCard())},
			[]string{"card.schema", "card.interfaces", "binding.JSONRPC.reachable", "binding.HTTP+JSON.reachable",
				"capability.streaming.JSONRPC", "capability.pushNotifications.JSONRPC", "capability.extendedAgentCard.JSONRPC",
				"capability.streaming.HTTP+JSON", "capability.pushNotifications.HTTP+JSON", "capability.extendedAgentCard.HTTP+JSON"}, nil},
		{"v0.3 JSON-RPC Caoliao", []a2atest.Option{a2atest.WithCard(vcCaoliaoCard())},
			[]string{"card.schema", "card.interfaces", "binding.JSONRPC.reachable", "capability.streaming.JSONRPC", "capability.pushNotifications.JSONRPC"},
			[]string{"capability.extendedAgentCard.JSONRPC"}},
		{"v0.3 HTTP+JSON and JSON-RPC", []a2atest.Option{a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC)},
			[]string{"card.schema", "binding.HTTP+JSON.reachable", "binding.JSONRPC.reachable", "capability.streaming.HTTP+JSON", "capability.pushNotifications.JSONRPC"},
			[]string{"capability.extendedAgentCard.HTTP+JSON"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := a2atest.NewServer(tc.opts...)
			defer srv.Close()
			results := conformance(context.Background(), resolveTestCard(t, srv.URL), conformanceClient)
			got := resultsByID(t, results)
			for _, id := range tc.want {
				if r, ok := got[id]; !ok || !r.Pass || r.Skipped {
					t.Errorf("%s: %+v, want a pass", id, r)
				}
			}
			for _, id := range tc.skip {
				if r := got[id]; !r.Pass || !r.Skipped {
					t.Errorf("%s: %+v, want skipped", id, r)
				}
			}
			for _, r := range results {
				if !r.Pass {
					t.Errorf("failed: %+v", r)
				}
			}
			for _, req := range srv.Requests() {
				if strings.Contains(req.Method, "Send") || strings.Contains(req.Method, "message/") || strings.Contains(req.Method, "Cancel") ||
					strings.Contains(req.Method, "Create") || strings.Contains(req.Method, "Delete") || strings.Contains(req.Method, "/set") {
					t.Errorf("conformance sent %s: it must change nothing", req.Method)
				}
			}
		})
	}
}

func TestConformanceUndeclaredServed(t *testing.T) {
	card := vcCaoliaoCard()
	card.Capabilities = a2a.AgentCapabilities{}
	srv := a2atest.NewServer(a2atest.WithCard(card), a2atest.V10())
	defer srv.Close()
	got := resultsByID(t, conformance(context.Background(), resolveTestCard(t, srv.URL), conformanceClient))
	for _, id := range []string{"capability.streaming.JSONRPC", "capability.pushNotifications.JSONRPC"} {
		if r := got[id]; !r.Pass || !strings.Contains(r.Detail, "does not declare") {
			t.Errorf("%s: %+v", id, r)
		}
	}
}

// brokenAgent serves a v1.0 card listing: a JSON-RPC interface that
// answers GetTask right but refuses the streaming and push it declares
// and wants credentials for its extended card; an HTTP+JSON URL that
// 404s; a v0.3 JSON-RPC URL that answers HTML; a gRPC one.
func brokenAgent(t *testing.T) (*httptest.Server, *a2a.AgentCard) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			json.NewDecoder(r.Body).Decode(&req)
			code := map[string]int{"GetTask": -32001, "SubscribeToTask": -32601, "ListTaskPushNotificationConfigs": -32003}[req.Method]
			if code == 0 {
				w.Header().Set("WWW-Authenticate", "Bearer")
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":"no \u001b[2J"}}`, req.ID, code)
		case "/html":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html>\x1b[2Jgone\u202e</html>")
		default:
			http.NotFound(w, r)
		}
	}))
	raw := fmt.Sprintf(`{"name":"broken","description":"d","version":"1","supportedInterfaces":[
		{"url":"%[1]s/ok","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
		{"url":"%[1]s/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"},
		{"url":"%[1]s/html","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
		{"url":"https://grpc.example","protocolBinding":"GRPC","protocolVersion":"1.0"}],
		"capabilities":{"streaming":true,"pushNotifications":true,"extendedAgentCard":true},
		"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`, srv.URL)
	var card a2a.AgentCard
	if err := json.Unmarshal([]byte(raw), &card); err != nil {
		t.Fatal(err)
	}
	return srv, &card
}

func TestConformanceBrokenAgent(t *testing.T) {
	srv, card := brokenAgent(t)
	defer srv.Close()
	got := resultsByID(t, conformance(context.Background(), card, conformanceClient))
	for _, tc := range []struct {
		id            string
		pass, skipped bool
		detail        string
	}{
		{"card.schema", true, false, "no problems"},
		{"binding.JSONRPC@1.0.reachable", true, false, "TaskNotFoundError (JSON-RPC -32001)"},
		{"capability.streaming.JSONRPC@1.0", false, false, "declares streaming but the agent refuses it: MethodNotFoundError"},
		{"capability.pushNotifications.JSONRPC@1.0", false, false, "PushNotificationNotSupportedError"},
		{"capability.extendedAgentCard.JSONRPC@1.0", true, true, "needs credentials (HTTP 401)"},
		{"binding.HTTP+JSON.reachable", false, false, "404"},
		{"capability.streaming.HTTP+JSON", true, true, "does not answer"},
		{"binding.JSONRPC@0.3.reachable", false, false, `\x1b[2Jgone\u202e`},
		{"binding.GRPC.reachable", true, true, "does not speak"},
	} {
		r, ok := got[tc.id]
		if !ok || r.Pass != tc.pass || r.Skipped != tc.skipped || !strings.Contains(r.Detail, tc.detail) {
			t.Errorf("%s = %+v, want pass %v skipped %v detail with %q", tc.id, r, tc.pass, tc.skipped, tc.detail)
		}
	}
}

func TestConformanceSchemaAndHangingStream(t *testing.T) {
	// A stream that opens and says nothing fails its check at the probe's
	// bound; a card without a version's required members fails card.schema.
	defer func(d time.Duration) { conformanceProbeTimeout = d }(conformanceProbeTimeout)
	conformanceProbeTimeout = 200 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if req.Method == "SubscribeToTask" {
			w.Header().Set("Content-Type", "text/event-stream")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32001,"message":"not found"}}`, req.ID)
	}))
	defer srv.Close()
	var card a2a.AgentCard
	json.Unmarshal(fmt.Appendf(nil, `{"name":"n","supportedInterfaces":[{"url":"%s","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],
		"capabilities":{"streaming":true,"pushNotifications":true}}`, srv.URL), &card)
	got := resultsByID(t, conformance(context.Background(), &card, conformanceClient))
	if r := got["card.schema"]; r.Pass || !strings.Contains(r.Detail, "/description: required member") {
		t.Errorf("card.schema = %+v", r)
	}
	if r := got["capability.streaming.JSONRPC"]; r.Pass || r.Detail == "" {
		t.Errorf("hanging stream = %+v", r)
	}
	if r := got["capability.pushNotifications.JSONRPC"]; !r.Pass {
		t.Errorf("push = %+v", r)
	}
}

func TestConformanceNoSpokenInterface(t *testing.T) {
	var card a2a.AgentCard
	json.Unmarshal([]byte(`{"name":"n","description":"d","version":"1","supportedInterfaces":[{"url":"https://g.example","protocolBinding":"GRPC","protocolVersion":"1.0"}],
		"capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}`), &card)
	called := false
	got := resultsByID(t, conformance(context.Background(), &card, func(a2a.AgentInterface) (*a2a.Client, error) { called = true; return nil, nil }))
	if r := got["card.interfaces"]; r.Pass || called {
		t.Errorf("card.interfaces = %+v, client made: %v", r, called)
	}
}
