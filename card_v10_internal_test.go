package a2a

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestChooseJSONRPC: chooseJSONRPC returns the entry as the card gives it
// and the dialect beside it, for NewClientFromCard to speak.
func TestChooseJSONRPC(t *testing.T) {
	tests := []struct {
		name    string
		card    *AgentCard
		want    AgentInterface
		dialect string // "": ErrNoSupportedInterface
	}{
		{"1.0 with a patch and a tenant", &AgentCard{SupportedInterfaces: []AgentInterface{
			{URL: "https://a/v0", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3.0"},
			{URL: "https://a/v1", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0.1", Tenant: "t"}}},
			AgentInterface{URL: "https://a/v1", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0.1", Tenant: "t"}, ProtocolV10},
		{"0.3 keeps its tenant here", &AgentCard{SupportedInterfaces: []AgentInterface{
			{URL: "https://a/v0", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3", Tenant: "t"}}},
			AgentInterface{URL: "https://a/v0", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3", Tenant: "t"}, ProtocolV03},
		{"empty version on a v1.0 card", &AgentCard{SupportedInterfaces: []AgentInterface{{URL: "https://a", ProtocolBinding: "JSONRPC"}}},
			AgentInterface{URL: "https://a", Transport: "JSONRPC", ProtocolBinding: "JSONRPC"}, ProtocolV10},
		{"v0.3 card", &AgentCard{URL: "https://a", ProtocolVersion: "0.3.0"},
			AgentInterface{URL: "https://a", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3.0"}, ProtocolV03},
		{"v0.3 card of an unknown version", &AgentCard{URL: "https://a", ProtocolVersion: "latest"},
			AgentInterface{URL: "https://a", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "latest"}, ProtocolV03},
		{"none", &AgentCard{SupportedInterfaces: []AgentInterface{{URL: "https://a", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"}}}, AgentInterface{}, ""},
		{"nil", nil, AgentInterface{}, ""},
	}
	for _, tt := range tests {
		got, dialect, err := chooseJSONRPC(tt.card, "")
		if tt.dialect == "" {
			if !errors.Is(err, ErrNoSupportedInterface) || got != (AgentInterface{}) || dialect != "" {
				t.Errorf("%s: %+v, %q, %v; want ErrNoSupportedInterface", tt.name, got, dialect, err)
			}
			continue
		}
		if err != nil || dialect != tt.dialect {
			t.Errorf("%s: dialect %q, %v; want %q", tt.name, dialect, err, tt.dialect)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestDialectOf(t *testing.T) {
	for v, want := range map[string]string{
		"1.0": ProtocolV10, "1.0.1": ProtocolV10, "1.12": ProtocolV10, "01.0": ProtocolV10,
		"0.3": ProtocolV03, "0.3.0": ProtocolV03, "0.2": ProtocolV03, "0.10.4": ProtocolV03,
		"": "", "1": "", "2.0": "", "1.0.0.0": "", "v1.0": "", "1.x": "", "-1.0": "", "+1.0": "", "1..0": "", " 1.0": "",
		"99999999999999999999.0": "",
	} {
		got, ok := dialectOf(v)
		if got != want || ok != (want != "") {
			t.Errorf("dialectOf(%q) = %q, %v; want %q", v, got, ok, want)
		}
	}
}
