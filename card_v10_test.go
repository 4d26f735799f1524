package a2a_test

import (
	"errors"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// jsonrpc is a JSON-RPC interface of version v.
func jsonrpc(url, v string) a2a.AgentInterface {
	return a2a.AgentInterface{URL: url, ProtocolBinding: a2a.TransportJSONRPC, ProtocolVersion: v}
}

// TestInterfaces: a v0.3 card's endpoints are listed as a v1.0 card lists
// them; a v1.0 card's are its supportedInterfaces.
func TestInterfaces(t *testing.T) {
	iface := func(url, binding, version string) a2a.AgentInterface {
		return a2a.AgentInterface{URL: url, Transport: binding, ProtocolBinding: binding, ProtocolVersion: version}
	}
	tests := []struct {
		name string
		card *a2a.AgentCard
		want []a2a.AgentInterface
	}{
		{"nil", nil, nil},
		{"empty", &a2a.AgentCard{}, nil},
		{"v0.3 url only", &a2a.AgentCard{URL: "https://a/rpc"}, []a2a.AgentInterface{iface("https://a/rpc", "JSONRPC", "0.3")}},
		{"v0.3 with version and more", &a2a.AgentCard{URL: "grpc://a", PreferredTransport: "GRPC", ProtocolVersion: "0.3.0",
			AdditionalInterfaces: []a2a.AgentInterface{{URL: "grpc://a", Transport: "grpc"}, {URL: "https://a/rest", Transport: "HTTP+JSON"},
				{URL: "grpc://a", Transport: "JSONRPC"}, {URL: "https://a/x", ProtocolBinding: "JSONRPC", Tenant: "t"}}},
			[]a2a.AgentInterface{iface("grpc://a", "GRPC", "0.3.0"), iface("https://a/rest", "HTTP+JSON", "0.3.0"),
				iface("grpc://a", "JSONRPC", "0.3.0"), iface("https://a/x", "", "0.3.0")}},
		{"v0.3 additional only", &a2a.AgentCard{AdditionalInterfaces: []a2a.AgentInterface{{URL: "https://a", Transport: "JSONRPC"}}},
			[]a2a.AgentInterface{iface("https://a", "JSONRPC", "0.3")}},
		{"v1.0 transport only", &a2a.AgentCard{SupportedInterfaces: []a2a.AgentInterface{{URL: "https://a", Transport: "JSONRPC"}}},
			[]a2a.AgentInterface{iface("https://a", "JSONRPC", "")}},
		{"v1.0 beside v0.3 fields", &a2a.AgentCard{URL: "https://old", SupportedInterfaces: []a2a.AgentInterface{jsonrpc("https://new", "1.0")}},
			[]a2a.AgentInterface{iface("https://new", "JSONRPC", "1.0")}},
		{"empty supportedInterfaces is v0.3", &a2a.AgentCard{URL: "https://old", SupportedInterfaces: []a2a.AgentInterface{}},
			[]a2a.AgentInterface{iface("https://old", "JSONRPC", "0.3")}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.card.Interfaces()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
	// The list is a copy.
	card := &a2a.AgentCard{SupportedInterfaces: []a2a.AgentInterface{jsonrpc("https://a", "1.0")}}
	card.Interfaces()[0].URL = "https://evil"
	if card.SupportedInterfaces[0].URL != "https://a" {
		t.Error("Interfaces() shares the card's array")
	}
}

// TestJSONRPCInterface: the choice of endpoint and dialect: v1.0 preferred
// whatever the order, then card order; versions with a patch; other
// majors skipped; an empty version last, by the card's shape.
func TestJSONRPCInterface(t *testing.T) {
	v10 := func(ifaces ...a2a.AgentInterface) *a2a.AgentCard { return &a2a.AgentCard{SupportedInterfaces: ifaces} }
	chosen := func(url, version, tenant string) a2a.AgentInterface {
		return a2a.AgentInterface{URL: url, Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: version, Tenant: tenant}
	}
	tests := []struct {
		name string
		card *a2a.AgentCard
		want a2a.AgentInterface // zero: ErrNoJSONRPCInterface
	}{
		{"1.0 after 0.3", v10(jsonrpc("https://a/v0", "0.3"), jsonrpc("https://a/v1", "1.0")), chosen("https://a/v1", "1.0", "")},
		{"card order within a version", v10(jsonrpc("https://a/1", "1.0"), jsonrpc("https://a/2", "1.0")), chosen("https://a/1", "1.0", "")},
		{"only GRPC", v10(a2a.AgentInterface{URL: "grpc://a", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"}), a2a.AgentInterface{}},
		{"0.3.0", v10(jsonrpc("https://a", "0.3.0")), chosen("https://a", "0.3", "")},
		{"1.0.1 over 0.3", v10(jsonrpc("https://a/v0", "0.3"), jsonrpc("https://a/v1", "1.0.1")), chosen("https://a/v1", "1.0", "")},
		{"1.1", v10(jsonrpc("https://a", "1.1")), chosen("https://a", "1.0", "")},
		{"0.2 read as 0.3", v10(jsonrpc("https://a", "0.2")), chosen("https://a", "0.3", "")},
		{"2.0 skipped", v10(jsonrpc("https://a/v2", "2.0"), jsonrpc("https://a/v0", "0.3")), chosen("https://a/v0", "0.3", "")},
		{"2.0 alone", v10(jsonrpc("https://a/v2", "2.0")), a2a.AgentInterface{}},
		{"unparsable skipped", v10(jsonrpc("https://a/x", "v1"), jsonrpc("https://a/y", "1"), jsonrpc("https://a/z", "1.0.0.0"), jsonrpc("https://a/w", "1.x")), a2a.AgentInterface{}},
		{"empty version alone on v1.0", v10(jsonrpc("https://a", "")), chosen("https://a", "1.0", "")},
		{"empty version after 0.3", v10(jsonrpc("https://a/e", ""), jsonrpc("https://a/v0", "0.3")), chosen("https://a/v0", "0.3", "")},
		{"binding jsonrpc lowercase", v10(a2a.AgentInterface{URL: "https://a", ProtocolBinding: "jsonrpc", ProtocolVersion: "1.0"}),
			a2a.AgentInterface{URL: "https://a", Transport: "jsonrpc", ProtocolBinding: "jsonrpc", ProtocolVersion: "1.0"}},
		{"binding from transport", v10(a2a.AgentInterface{URL: "https://a", Transport: "JSONRPC", ProtocolVersion: "1.0"}), chosen("https://a", "1.0", "")},
		{"no URL skipped", v10(jsonrpc("", "1.0"), jsonrpc("https://a", "0.3")), chosen("https://a", "0.3", "")},
		{"tenant kept for 1.0", v10(a2a.AgentInterface{URL: "https://a", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "t"}), chosen("https://a", "1.0", "t")},
		{"no tenant for 0.3", v10(a2a.AgentInterface{URL: "https://a", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3", Tenant: "t"}), chosen("https://a", "0.3", "")},
		// v0.3 cards: the URL is what JSONRPCURL always gave.
		{"v0.3", &a2a.AgentCard{URL: "https://a", ProtocolVersion: "0.3.0"}, chosen("https://a", "0.3", "")},
		{"v0.3 without a version", &a2a.AgentCard{URL: "https://a"}, chosen("https://a", "0.3", "")},
		{"v0.3 with an unknown version", &a2a.AgentCard{URL: "https://a", ProtocolVersion: "2.0"}, chosen("https://a", "0.3", "")},
		{"v0.3 labelled 1.0", &a2a.AgentCard{URL: "https://a", ProtocolVersion: "1.0"}, chosen("https://a", "1.0", "")},
		{"v0.3 additional", &a2a.AgentCard{URL: "grpc://a", PreferredTransport: "GRPC", AdditionalInterfaces: []a2a.AgentInterface{
			{URL: "https://a/rest", Transport: "HTTP+JSON"}, {URL: "https://a/jsonrpc", Transport: "jsonrpc"}}},
			a2a.AgentInterface{URL: "https://a/jsonrpc", Transport: "jsonrpc", ProtocolBinding: "jsonrpc", ProtocolVersion: "0.3"}},
		{"v0.3 additional with a v1.0 name only", &a2a.AgentCard{URL: "grpc://a", PreferredTransport: "GRPC", AdditionalInterfaces: []a2a.AgentInterface{
			{URL: "https://a/jsonrpc", ProtocolBinding: "JSONRPC"}}}, a2a.AgentInterface{}},
		{"nil", nil, a2a.AgentInterface{}},
	}
	for _, tt := range tests {
		got, err := tt.card.JSONRPCInterface()
		if tt.want == (a2a.AgentInterface{}) {
			if !errors.Is(err, a2a.ErrNoJSONRPCInterface) {
				t.Errorf("%s: %+v, %v; want ErrNoJSONRPCInterface", tt.name, got, err)
			}
			if url, err := tt.card.JSONRPCURL(); url != "" || !errors.Is(err, a2a.ErrNoJSONRPCInterface) {
				t.Errorf("%s: JSONRPCURL() = %q, %v", tt.name, url, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
		if url, err := tt.card.JSONRPCURL(); url != tt.want.URL || err != nil {
			t.Errorf("%s: JSONRPCURL() = %q, %v", tt.name, url, err)
		}
	}
}
