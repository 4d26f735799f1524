package a2a

import (
	"errors"
	"net/url"
	"testing"

	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// TestCredentialRule: the rule of NewClientFromCard for every kind of
// origin and endpoint, spellings included, without a server.
func TestCredentialRule(t *testing.T) {
	const (
		ok        = "ok"
		refused   = "refused"
		downgrade = "downgrade"
	)
	tests := []struct {
		card, endpoint string
		trusted        []string
		want           string
	}{
		{"https://a.example/.well-known/agent-card.json", "https://a.example/rpc", nil, ok},
		{"https://a.example/", "https://A.EXAMPLE:443/rpc", nil, ok},
		{"https://a.example/", "https://a.example./rpc", nil, ok},
		{"http://a.example/", "https://a.example/rpc", nil, ok}, // the https twin
		{"http://a.example:8080/", "https://a.example/rpc", nil, refused},
		{"https://a.example/", "http://a.example/rpc", nil, downgrade},
		{"https://a.example/", "http://a.example:443/rpc", nil, downgrade},
		{"https://a.example/", "https://a.example:8443/rpc", nil, refused},
		{"https://a.example/", "https://b.example/rpc", nil, refused},
		{"https://a.example/", "https://b.example/rpc", []string{"B.example."}, ok},
		{"https://a.example/", "https://b.example:8443/rpc", []string{"b.example:443"}, refused},
		{"https://a.example/", "http://b.example/rpc", []string{"b.example"}, downgrade},
		{"https://a.example/", "https://a.example.evil.test/rpc", nil, refused},
		{"https://a.example/", "https://user:pw@b.example/rpc", nil, refused},
		{"https://[::1]:8443/", "https://[0:0::1]:8443/rpc", nil, ok},
		{"https://127.0.0.1:8443/", "https://localhost:8443/rpc", nil, refused},
		{"https://a.example/", "https://[::1]:9/rpc", []string{"::1"}, ok},
	}
	for _, tt := range tests {
		cu, _ := url.Parse(tt.card)
		eu, _ := url.Parse(tt.endpoint)
		cfg := clientConfig{apiKey: "k-1"}
		for _, h := range tt.trusted {
			th, err := parseTrustedHost(h)
			if err != nil {
				t.Fatal(err)
			}
			cfg.trustedHosts = append(cfg.trustedHosts, th)
		}
		err := cfg.mayCarryCredentials(originOf(cu), eu, redact.New(eu, cfg.apiKey, "", nil))
		got := ok
		if ue, isUE := errors.AsType[*UntrustedEndpointError](err); isUE {
			got = refused
			if ue.Downgrade {
				got = downgrade
			}
		} else if err != nil {
			t.Fatalf("%s → %s: %v", tt.card, tt.endpoint, err)
		}
		if got != tt.want {
			t.Errorf("card %s, endpoint %s, trusted %q: %s, want %s (%v)", tt.card, tt.endpoint, tt.trusted, got, tt.want, err)
		}
	}
}
