package a2a

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestChooseInterface: chooseInterface returns the entry as the card gives
// it and the binding beside it, for NewClientFromCard to speak.
func TestChooseInterface(t *testing.T) {
	tests := []struct {
		name    string
		card    *AgentCard
		want    AgentInterface
		dialect string // "": ErrNoSupportedInterface
	}{
		{"1.0 with a patch and a tenant", &AgentCard{SupportedInterfaces: []AgentInterface{
			{URL: "https://a/v1", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0.1", Tenant: "t"},
			{URL: "https://a/v0", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3.0"}}},
			AgentInterface{URL: "https://a/v1", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0.1", Tenant: "t"}, ProtocolV10},
		{"0.3 with a tenant is not spoken: v0.3 cannot send it", &AgentCard{SupportedInterfaces: []AgentInterface{
			{URL: "https://a/v0", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3", Tenant: "t"}}}, AgentInterface{}, ""},
		{"0.3 REST with a tenant is passed over for the next entry", &AgentCard{SupportedInterfaces: []AgentInterface{
			{URL: "https://a/v0", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "0.3", Tenant: "acme"},
			{URL: "https://a/v1", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "acme"}}},
			AgentInterface{URL: "https://a/v1", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "acme"}, ProtocolV10},
		{"empty version on a v1.0 card", &AgentCard{SupportedInterfaces: []AgentInterface{{URL: "https://a", ProtocolBinding: "JSONRPC"}}},
			AgentInterface{URL: "https://a", Transport: "JSONRPC", ProtocolBinding: "JSONRPC"}, ProtocolV10},
		{"v0.3 card", &AgentCard{URL: "https://a", ProtocolVersion: "0.3.0"},
			AgentInterface{URL: "https://a", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3.0"}, ProtocolV03},
		{"v0.3 card of an unknown version", &AgentCard{URL: "https://a", ProtocolVersion: "latest"},
			AgentInterface{URL: "https://a", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "latest"}, ProtocolV03},
		{"http+json in another case", &AgentCard{SupportedInterfaces: []AgentInterface{{URL: "https://a/rest", ProtocolBinding: "http+json", ProtocolVersion: "1.0"}}},
			AgentInterface{URL: "https://a/rest", Transport: "http+json", ProtocolBinding: "http+json", ProtocolVersion: "1.0"}, ProtocolV10},
		{"none", &AgentCard{SupportedInterfaces: []AgentInterface{{URL: "https://a", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"}}}, AgentInterface{}, ""},
		{"nil", nil, AgentInterface{}, ""},
	}
	for _, tt := range tests {
		ch, err := chooseInterface(tt.card, choiceRule{})
		got, dialect := ch.entry, ch.version
		if tt.dialect == "" {
			if !errors.Is(err, ErrNoSupportedInterface) || ch != (choice{}) {
				t.Errorf("%s: %+v, %v; want ErrNoSupportedInterface", tt.name, ch, err)
			}
			continue
		}
		if want, _ := canonicalTransport(tt.want.ProtocolBinding); ch.transport != want {
			t.Errorf("%s: transport %q, want %q", tt.name, ch.transport, want)
		}
		if err != nil || dialect != tt.dialect {
			t.Errorf("%s: dialect %q, %v; want %q", tt.name, dialect, err, tt.dialect)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestChooseUnspoken: an entry of a binding this package does not speak
// in the entry's version is skipped: a v0.3 card whose url is HTTP+JSON
// and whose additionalInterfaces list JSON-RPC is spoken to over
// HTTP+JSON only where bindingFor has A2A v0.3's HTTP+JSON binding.
func TestChooseUnspoken(t *testing.T) {
	card := &AgentCard{URL: "https://a/rest", PreferredTransport: "HTTP+JSON", ProtocolVersion: "0.3.0",
		AdditionalInterfaces: []AgentInterface{{URL: "https://a/rpc", Transport: "JSONRPC"}}}
	want := choice{entry: AgentInterface{URL: "https://a/rpc", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3.0"},
		transport: TransportJSONRPC, version: ProtocolV03}
	if spoken(TransportHTTPJSON, ProtocolV03) {
		want = choice{entry: AgentInterface{URL: "https://a/rest", Transport: "HTTP+JSON", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "0.3.0"},
			transport: TransportHTTPJSON, version: ProtocolV03}
	}
	got, err := chooseInterface(card, choiceRule{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(choice{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
