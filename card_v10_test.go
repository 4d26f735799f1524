package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// ignoreRaw compares cards by their fields.
var ignoreRaw = cmpopts.IgnoreUnexported(a2a.AgentCard{})

// jsonrpc is a JSON-RPC interface of version v.
func jsonrpc(url, v string) a2a.AgentInterface {
	return a2a.AgentInterface{URL: url, ProtocolBinding: a2a.TransportJSONRPC, ProtocolVersion: v}
}

// TestCardShapes: v0.3, v1.0 and dual cards as servers write them decode
// onto one AgentCard, list their endpoints alike, and choose the same
// JSON-RPC endpoint a v1.0 client would.
func TestCardShapes(t *testing.T) {
	tests := []struct {
		file   string
		want   *a2a.AgentCard
		ifaces []a2a.AgentInterface // Interfaces()
		choice a2a.AgentInterface   // JSONRPCInterface()
	}{
		{
			file: "card_v10.json",
			want: &a2a.AgentCard{
				Name: "QR Agent", Description: "Reads QR code entities", Version: "2.1.0",
				SupportedInterfaces: []a2a.AgentInterface{
					{URL: "https://agent.example/a2a/grpc", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"},
					{URL: "https://agent.example/a2a/v1", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "acme"},
					{URL: "https://agent.example/a2a/rest", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "1.0", Tenant: "acme"},
				},
				Provider:         &a2a.AgentProvider{URL: "https://example.com", Organization: "Example Org"},
				DocumentationURL: "https://agent.example/docs",
				Capabilities: a2a.AgentCapabilities{Streaming: true, ExtendedAgentCard: true,
					Extensions: []a2a.AgentExtension{{URI: "https://ext.example/trace", Required: true, Params: json.RawMessage(`{"level":2}`)}}},
				SecuritySchemes: map[string]a2a.SecurityScheme{
					"key":    {Type: "apiKey", In: "header", Name: "X-API-Key", Description: "gateway key"},
					"bearer": {Type: "http", Scheme: "Bearer", BearerFormat: "JWT"},
					"device": {Type: "oauth2", OAuth2MetadataURL: "https://auth.example/.well-known/oauth-authorization-server",
						Flows: &a2a.OAuthFlows{DeviceCode: &a2a.OAuthFlow{DeviceAuthorizationURL: "https://auth.example/device",
							TokenURL: "https://auth.example/token", Scopes: map[string]string{"read": "read data"}}}},
					"code": {Type: "oauth2", Flows: &a2a.OAuthFlows{AuthorizationCode: &a2a.OAuthFlow{AuthorizationURL: "https://auth.example/authorize",
						TokenURL: "https://auth.example/token", Scopes: map[string]string{}, PKCERequired: true}}},
					"oidc": {Type: "openIdConnect", OpenIDConnectURL: "https://auth.example/.well-known/openid-configuration"},
					"mtls": {Type: "mutualTLS"},
				},
				Security:          []map[string][]string{{"device": {"read"}}, {"key": {}, "mtls": {}}, {"oidc": {"openid", "profile"}}},
				DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"application/json", "text/plain"},
				Skills: []a2a.AgentSkill{{ID: "entity", Name: "Entity", Description: "What a code is", Tags: []string{"qr"},
					Examples: []string{"这个二维码是什么？"}, Security: []map[string][]string{{"bearer": {}}}}},
				Signatures: []a2a.AgentCardSignature{{Protected: "eyJhbGciOiJFUzI1NiJ9", Signature: "c2lnbmF0dXJl"}},
			},
			ifaces: []a2a.AgentInterface{
				{URL: "https://agent.example/a2a/grpc", Transport: "GRPC", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"},
				{URL: "https://agent.example/a2a/v1", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "acme"},
				{URL: "https://agent.example/a2a/rest", Transport: "HTTP+JSON", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "1.0", Tenant: "acme"},
			},
			choice: a2a.AgentInterface{URL: "https://agent.example/a2a/v1", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "acme"},
		},
		{
			// a2a-go's compat producer: v0.3 members beside the v1.0 ones,
			// schemes in the type form with a v1.0 copy under "apiKey" and
			// "http", scopes as bare arrays.
			file: "card_dual_go.json",
			want: &a2a.AgentCard{
				ProtocolVersion: "0.3", Name: "Go Agent", Description: "a2a-go compat card: v1.0 fields with v0.3 ones added", Version: "1.0.0",
				URL: "https://go.example/a2a/v0", PreferredTransport: "JSONRPC",
				SupportedInterfaces:               []a2a.AgentInterface{jsonrpc("https://go.example/a2a/v1", "1.0"), jsonrpc("https://go.example/a2a/v0", "0.3")},
				Capabilities:                      a2a.AgentCapabilities{Streaming: true, PushNotifications: true, ExtendedAgentCard: true},
				SupportsAuthenticatedExtendedCard: true,
				SecuritySchemes: map[string]a2a.SecurityScheme{
					"key":    {Type: "apiKey", In: "header", Name: "X-API-Key"},
					"bearer": {Type: "http", Scheme: "Bearer"},
					"oauth": {Type: "oauth2", Flows: &a2a.OAuthFlows{ClientCredentials: &a2a.OAuthFlow{TokenURL: "https://auth.example/token",
						Scopes: map[string]string{"read": "read data"}}}},
				},
				Security:          []map[string][]string{{"key": {}}, {"oauth": {"read"}}},
				DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain", "application/json"},
				Skills: []a2a.AgentSkill{{ID: "lookup", Name: "Lookup", Description: "Looks up a QR code", Tags: []string{"qr"},
					Security: []map[string][]string{{"key": {}}}}},
			},
			ifaces: []a2a.AgentInterface{
				{URL: "https://go.example/a2a/v1", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"},
				{URL: "https://go.example/a2a/v0", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3"},
			},
			choice: a2a.AgentInterface{URL: "https://go.example/a2a/v1", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0"},
		},
		{
			// a2a-python's merged card: each scheme has the wrapper key and
			// the v0.3 members; the 0.3 interface comes first and is chosen
			// (card order, A2A v1.0 §8.3.2; before 0.2.0 the 1.0 one was).
			file: "card_dual_python.json",
			want: &a2a.AgentCard{
				ProtocolVersion: "0.3", Name: "Python Agent", Description: "a2a-python card: v1.0 with the v0.3 rendering merged in", Version: "0.9.0",
				URL: "https://py.example/a2a", PreferredTransport: "JSONRPC",
				AdditionalInterfaces: []a2a.AgentInterface{{URL: "https://py.example/a2a", Transport: "JSONRPC"}},
				SupportedInterfaces: []a2a.AgentInterface{jsonrpc("https://py.example/a2a", "0.3"),
					{URL: "https://py.example/a2a", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "t-1"}},
				Capabilities:                      a2a.AgentCapabilities{PushNotifications: true, ExtendedAgentCard: true},
				SupportsAuthenticatedExtendedCard: true,
				SecuritySchemes: map[string]a2a.SecurityScheme{
					"key":  {Type: "apiKey", In: "query", Name: "api_key"},
					"oidc": {Type: "openIdConnect", OpenIDConnectURL: "https://py.example/oidc"},
				},
				Security:          []map[string][]string{{"oidc": {"openid"}}, {"key": {}}},
				DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
				Skills: []a2a.AgentSkill{{ID: "s", Name: "S", Description: "d", Tags: []string{"t"}}},
			},
			ifaces: []a2a.AgentInterface{
				{URL: "https://py.example/a2a", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3"},
				{URL: "https://py.example/a2a", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "t-1"},
			},
			choice: a2a.AgentInterface{URL: "https://py.example/a2a", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3"},
		},
		{
			// a2a-js's legacy card with a copy of supportedInterfaces that
			// has only v0.3 entries: the card is read by supportedInterfaces,
			// and speaks 0.3.
			file: "card_dual_js.json",
			want: &a2a.AgentCard{
				ProtocolVersion: "0.3.0", Name: "JS Agent", Description: "a2a-js legacy card, with a copy of supportedInterfaces that lists only v0.3",
				Version: "1.0.0", URL: "https://js.example/jsonrpc", PreferredTransport: "JSONRPC",
				AdditionalInterfaces: []a2a.AgentInterface{{URL: "https://js.example/jsonrpc", Transport: "JSONRPC"}, {URL: "https://js.example/rest", Transport: "HTTP+JSON"}},
				SupportedInterfaces: []a2a.AgentInterface{jsonrpc("https://js.example/jsonrpc", "0.3"),
					{URL: "https://js.example/rest", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "0.3"}},
				Capabilities:      a2a.AgentCapabilities{Streaming: true},
				SecuritySchemes:   map[string]a2a.SecurityScheme{"bearer": {Type: "http", Scheme: "bearer"}},
				Security:          []map[string][]string{{"bearer": {}}},
				DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
				Skills: []a2a.AgentSkill{},
			},
			ifaces: []a2a.AgentInterface{
				{URL: "https://js.example/jsonrpc", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3"},
				{URL: "https://js.example/rest", Transport: "HTTP+JSON", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "0.3"},
			},
			choice: a2a.AgentInterface{URL: "https://js.example/jsonrpc", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			raw := fixture(t, tt.file)
			var got a2a.AgentCard
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, &got, ignoreRaw); diff != "" {
				t.Errorf("card (-want +got):\n%s", diff)
			}
			if string(got.Raw()) != strings.TrimSpace(string(raw)) {
				t.Errorf("Raw() is not the bytes decoded")
			}
			if diff := cmp.Diff(tt.ifaces, got.Interfaces()); diff != "" {
				t.Errorf("Interfaces() (-want +got):\n%s", diff)
			}
			choice, err := got.JSONRPCInterface()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.choice, choice); diff != "" {
				t.Errorf("JSONRPCInterface() (-want +got):\n%s", diff)
			}
			// Encoded (v0.3 names where both versions have one) and decoded
			// again, the card is the same.
			b, err := json.Marshal(&got)
			if err != nil {
				t.Fatal(err)
			}
			var again a2a.AgentCard
			if err := json.Unmarshal(b, &again); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&got, &again, ignoreRaw); diff != "" {
				t.Errorf("re-decoded card (-first +second):\n%s", diff)
			}
		})
	}
}

// TestSecuritySchemeForms: a scheme in the v0.3 form, the v1.0 form,
// both, or a2a-go's nested copy, decodes onto the flat SecurityScheme.
func TestSecuritySchemeForms(t *testing.T) {
	flows := &a2a.OAuthFlows{ClientCredentials: &a2a.OAuthFlow{TokenURL: "https://t", Scopes: map[string]string{}}}
	tests := []struct {
		name, json string
		want       a2a.SecurityScheme
	}{
		{"v0.3 apiKey", `{"type":"apiKey","in":"cookie","name":"sid"}`, a2a.SecurityScheme{Type: "apiKey", In: "cookie", Name: "sid"}},
		{"v0.3 unknown type kept", `{"type":"custom","name":"x"}`, a2a.SecurityScheme{Type: "custom", Name: "x"}},
		{"v0.3 empty", `{}`, a2a.SecurityScheme{}},
		{"v1.0 apiKey", `{"apiKeySecurityScheme":{"location":"query","name":"k","description":"d"}}`,
			a2a.SecurityScheme{Type: "apiKey", In: "query", Name: "k", Description: "d"}},
		{"v1.0 http", `{"httpAuthSecurityScheme":{"scheme":"Basic","description":"d"}}`, a2a.SecurityScheme{Type: "http", Scheme: "Basic", Description: "d"}},
		{"v1.0 oauth2", `{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"https://t","scopes":{}}},"oauth2MetadataUrl":"https://m"}}`,
			a2a.SecurityScheme{Type: "oauth2", Flows: flows, OAuth2MetadataURL: "https://m"}},
		{"v1.0 openIdConnect", `{"openIdConnectSecurityScheme":{"openIdConnectUrl":"https://o"}}`, a2a.SecurityScheme{Type: "openIdConnect", OpenIDConnectURL: "https://o"}},
		{"v1.0 mtls", `{"mtlsSecurityScheme":{"description":"client cert"}}`, a2a.SecurityScheme{Type: "mutualTLS", Description: "client cert"}},
		{"v1.0 mtls empty", `{"mtlsSecurityScheme":{}}`, a2a.SecurityScheme{Type: "mutualTLS"}},
		{"v1.0 wrapper null", `{"apiKeySecurityScheme":null}`, a2a.SecurityScheme{}},
		{"a2a-python merged", `{"httpAuthSecurityScheme":{"scheme":"Bearer","bearerFormat":"JWT"},"type":"http","scheme":"Bearer","bearerFormat":"JWT"}`,
			a2a.SecurityScheme{Type: "http", Scheme: "Bearer", BearerFormat: "JWT"}},
		{"a2a-go nested apiKey", `{"type":"apiKey","in":"header","name":"X","apiKey":{"location":"header","name":"X"}}`,
			a2a.SecurityScheme{Type: "apiKey", In: "header", Name: "X"}},
		{"a2a-go nested only", `{"oauth2":{"flows":{"clientCredentials":{"tokenUrl":"https://t","scopes":{}}}},"openIdConnect":null}`,
			a2a.SecurityScheme{Type: "oauth2", Flows: flows}},
		{"a2a-go nested mutualTLS and openIdConnect", `{"type":"mutualTLS","mutualTLS":{"description":"d"}}`, a2a.SecurityScheme{Type: "mutualTLS", Description: "d"}},
		{"a2a-go nested http", `{"http":{"scheme":"Bearer"}}`, a2a.SecurityScheme{Type: "http", Scheme: "Bearer"}},
		{"a2a-go nested openIdConnect", `{"openIdConnect":{"openIdConnectUrl":"https://o"}}`, a2a.SecurityScheme{Type: "openIdConnect", OpenIDConnectURL: "https://o"}},
		// Where the forms disagree, the v0.3 members win; the v1.0 object
		// fills only what they leave empty.
		{"v0.3 members win", `{"type":"apiKey","in":"header","apiKeySecurityScheme":{"location":"query","name":"k"}}`,
			a2a.SecurityScheme{Type: "apiKey", In: "header", Name: "k"}},
		{"type and another kind", `{"type":"http","scheme":"Bearer","apiKeySecurityScheme":{"location":"query","name":"k"}}`,
			a2a.SecurityScheme{Type: "http", Scheme: "Bearer", In: "query", Name: "k"}},
		// Two kinds in one v1.0 oneof: every field kept, Type the first
		// kind in the documented order.
		{"two kinds", `{"openIdConnectSecurityScheme":{"openIdConnectUrl":"https://o"},"apiKeySecurityScheme":{"location":"query","name":"k"}}`,
			a2a.SecurityScheme{Type: "apiKey", In: "query", Name: "k", OpenIDConnectURL: "https://o"}},
		{"two flows in a v1.0 oneof", `{"oauth2SecurityScheme":{"flows":{"clientCredentials":{"tokenUrl":"https://t","scopes":{}},"deviceCode":{"deviceAuthorizationUrl":"https://d","tokenUrl":"https://t","scopes":{}}}}}`,
			a2a.SecurityScheme{Type: "oauth2", Flows: &a2a.OAuthFlows{ClientCredentials: flows.ClientCredentials,
				DeviceCode: &a2a.OAuthFlow{DeviceAuthorizationURL: "https://d", TokenURL: "https://t", Scopes: map[string]string{}}}}},
	}
	for _, tt := range tests {
		var got a2a.SecurityScheme
		if err := json.Unmarshal([]byte(tt.json), &got); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestSecurityRequirementForms: securityRequirements in ProtoJSON's
// {"list":…}, a bare array or {} for no scopes decodes into Security when
// security is absent; security, when present, is what counts.
func TestSecurityRequirementForms(t *testing.T) {
	tests := []struct {
		name, members string
		want          []map[string][]string
	}{
		{"list", `"securityRequirements":[{"schemes":{"g":{"list":["openid","profile"]}}}]`, []map[string][]string{{"g": {"openid", "profile"}}}},
		{"bare array", `"securityRequirements":[{"schemes":{"g":["openid"]}}]`, []map[string][]string{{"g": {"openid"}}}},
		{"no scopes", `"securityRequirements":[{"schemes":{"k":{}}},{"schemes":{"m":[]}}]`, []map[string][]string{{"k": {}}, {"m": {}}}},
		{"null scopes", `"securityRequirements":[{"schemes":{"k":null,"m":{"list":null}}}]`, []map[string][]string{{"k": {}, "m": {}}}},
		{"AND of two", `"securityRequirements":[{"schemes":{"k":{},"g":{"list":["a"]}}}]`, []map[string][]string{{"k": {}, "g": {"a"}}}},
		{"no schemes: nothing required", `"securityRequirements":[{},{"schemes":{}}]`, []map[string][]string{{}, {}}},
		{"empty list", `"securityRequirements":[]`, []map[string][]string{}},
		{"absent", ``, nil},
		{"null", `"securityRequirements":null`, nil},
		{"security wins", `"security":[{"k":[]}],"securityRequirements":[{"schemes":{"g":{"list":["x"]}}}]`, []map[string][]string{{"k": {}}}},
		{"empty security wins", `"security":[],"securityRequirements":[{"schemes":{"g":{"list":["x"]}}}]`, []map[string][]string{}},
	}
	for _, tt := range tests {
		members := strings.TrimPrefix(tt.members+",", ",")
		var card a2a.AgentCard
		if err := json.Unmarshal([]byte(`{`+members+`"url":"u","skills":[{"id":"s",`+members+`"tags":[]}]}`), &card); err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if diff := cmp.Diff(tt.want, card.Security); diff != "" {
			t.Errorf("%s: card (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.want, card.Skills[0].Security); diff != "" {
			t.Errorf("%s: skill (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestExtendedCardFlags: each version's flag is read where it is, and the
// misspelling in the v1.0 specification's migration notes counts as the
// v0.3 flag.
func TestExtendedCardFlags(t *testing.T) {
	for body, want := range map[string][2]bool{ // {SupportsAuthenticatedExtendedCard, Capabilities.ExtendedAgentCard}
		`{"url":"u","supportsAuthenticatedExtendedCard":true}`:                                   {true, false},
		`{"url":"u","supportsExtendedAgentCard":true}`:                                           {true, false},
		`{"supportedInterfaces":[{"url":"u"}],"capabilities":{"extendedAgentCard":true}}`:        {false, true},
		`{"url":"u","supportsAuthenticatedExtendedCard":false,"supportsExtendedAgentCard":true}`: {true, false},
		`{"url":"u"}`: {false, false},
	} {
		var card a2a.AgentCard
		if err := json.Unmarshal([]byte(body), &card); err != nil {
			t.Fatal(err)
		}
		if got := [2]bool{card.SupportsAuthenticatedExtendedCard, card.Capabilities.ExtendedAgentCard}; got != want {
			t.Errorf("%s: flags %v, want %v", body, got, want)
		}
	}
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

// TestJSONRPCInterface: the choice of endpoint and dialect: card order
// whatever the versions; versions with a patch; other majors skipped; an
// empty version last, by the card's shape.
func TestJSONRPCInterface(t *testing.T) {
	v10 := func(ifaces ...a2a.AgentInterface) *a2a.AgentCard { return &a2a.AgentCard{SupportedInterfaces: ifaces} }
	chosen := func(url, version, tenant string) a2a.AgentInterface {
		return a2a.AgentInterface{URL: url, Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: version, Tenant: tenant}
	}
	tests := []struct {
		name string
		card *a2a.AgentCard
		want a2a.AgentInterface // zero: ErrNoSupportedInterface
	}{
		{"0.3 before 1.0: card order", v10(jsonrpc("https://a/v0", "0.3"), jsonrpc("https://a/v1", "1.0")), chosen("https://a/v0", "0.3", "")},
		{"1.0 before 0.3", v10(jsonrpc("https://a/v1", "1.0"), jsonrpc("https://a/v0", "0.3")), chosen("https://a/v1", "1.0", "")},
		{"JSON-RPC after HTTP+JSON", v10(a2a.AgentInterface{URL: "https://a/rest", ProtocolBinding: "HTTP+JSON", ProtocolVersion: "1.0"}, jsonrpc("https://a/v0", "0.3")),
			chosen("https://a/v0", "0.3", "")},
		{"card order within a version", v10(jsonrpc("https://a/1", "1.0"), jsonrpc("https://a/2", "1.0")), chosen("https://a/1", "1.0", "")},
		{"only GRPC", v10(a2a.AgentInterface{URL: "grpc://a", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"}), a2a.AgentInterface{}},
		{"0.3.0", v10(jsonrpc("https://a", "0.3.0")), chosen("https://a", "0.3", "")},
		{"1.0.1 before 0.3", v10(jsonrpc("https://a/v1", "1.0.1"), jsonrpc("https://a/v0", "0.3")), chosen("https://a/v1", "1.0", "")},
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
		{"a 0.3 entry naming a tenant is not spoken (v0.3 cannot send it)", v10(a2a.AgentInterface{URL: "https://a", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3", Tenant: "t"}), a2a.AgentInterface{}},
		// v0.3 cards: URL when it speaks JSON-RPC, else the first JSON-RPC
		// entry of additionalInterfaces.
		{"v0.3 preferred JSONRPC", &a2a.AgentCard{URL: "https://a/rpc", PreferredTransport: "JSONRPC"}, a2a.AgentInterface{URL: "https://a/rpc", Transport: "JSONRPC", ProtocolBinding: "JSONRPC", ProtocolVersion: "0.3"}},
		{"v0.3 only gRPC", &a2a.AgentCard{URL: "grpc://a", PreferredTransport: "GRPC"}, a2a.AgentInterface{}},
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
			if !errors.Is(err, a2a.ErrNoSupportedInterface) {
				t.Errorf("%s: %+v, %v; want ErrNoSupportedInterface", tt.name, got, err)
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
	}
}

// TestHostileCards: v1.0 members a server gets wrong are refused with a
// *ProtocolError naming the fault, or read as they are; never a panic, never
// a card that reads otherwise than it was written.
func TestHostileCards(t *testing.T) {
	const ifaces = `"supportedInterfaces":[{"url":"https://a/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]`
	tests := []struct {
		name, body string
		reason     string                                  // the *ProtocolError's reason contains it
		check      func(t *testing.T, card *a2a.AgentCard) // or the card read
	}{
		{name: "supportedInterfaces not an array", body: `{"supportedInterfaces":{"url":"https://a"}}`, reason: "agent card does not decode"},
		{name: "supportedInterfaces a string", body: `{"url":"https://a","supportedInterfaces":"JSONRPC"}`, reason: "agent card does not decode"},
		{name: "interface url not a string", body: `{"supportedInterfaces":[{"url":1,"protocolBinding":"JSONRPC"}]}`, reason: "agent card does not decode"},
		{name: "interface not an object", body: `{"supportedInterfaces":["https://a"]}`, reason: "agent card does not decode"},
		{name: "supportedInterfaces twice", body: `{` + ifaces + `,"supportedInterfaces":[{"url":"https://evil/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`,
			reason: `member "supportedInterfaces" appears twice`},
		{name: "SupportedInterfaces", body: `{"url":"https://a","SupportedInterfaces":[{"url":"https://evil"}]}`,
			reason: `member "SupportedInterfaces" is "supportedInterfaces" in another case`},
		{name: "interface url twice", body: `{"supportedInterfaces":[{"url":"https://a","url":"https://evil","protocolBinding":"JSONRPC"}]}`,
			reason: `member "url" appears twice`},
		{name: "Tenant", body: `{"supportedInterfaces":[{"url":"https://a","tenant":"t","Tenant":"evil"}]}`, reason: `member "Tenant" is "tenant" in another case`},
		{name: "SecurityRequirements", body: `{` + ifaces + `,"SecurityRequirements":[]}`, reason: `member "SecurityRequirements" is "securityRequirements" in another case`},
		{name: "skill securityRequirements twice", body: `{` + ifaces + `,"skills":[{"id":"s","securityRequirements":[],"securityRequirements":[{}]}]}`,
			reason: `member "securityRequirements" appears twice`},
		{name: "scopes list twice", body: `{` + ifaces + `,"securityRequirements":[{"schemes":{"g":{"list":["a"],"list":["b"]}}}]}`, reason: `member "list" appears twice`},
		{name: "scopes LIST", body: `{` + ifaces + `,"securityRequirements":[{"schemes":{"g":{"LIST":["a"]}}}]}`, reason: `member "LIST" is "list" in another case`},
		{name: "Schemes", body: `{` + ifaces + `,"securityRequirements":[{"Schemes":{}}]}`, reason: `member "Schemes" is "schemes" in another case`},
		{name: "scopes a string", body: `{` + ifaces + `,"securityRequirements":[{"schemes":{"g":"openid"}}]}`, reason: "agent card does not decode"},
		{name: "scopes of numbers", body: `{` + ifaces + `,"securityRequirements":[{"schemes":{"g":[1]}}]}`, reason: "agent card does not decode"},
		{name: "securityRequirements an object", body: `{` + ifaces + `,"securityRequirements":{"schemes":{}}}`, reason: "agent card does not decode"},
		{name: "wrapper in another case", body: `{` + ifaces + `,"securitySchemes":{"k":{"ApiKeySecurityScheme":{"location":"query"}}}}`,
			reason: `member "ApiKeySecurityScheme" is "apiKeySecurityScheme" in another case`},
		{name: "location twice", body: `{` + ifaces + `,"securitySchemes":{"k":{"apiKeySecurityScheme":{"location":"query","location":"header"}}}}`,
			reason: `member "location" appears twice`},
		{name: "wrapper not an object", body: `{` + ifaces + `,"securitySchemes":{"k":{"apiKeySecurityScheme":"header"}}}`, reason: "agent card does not decode"},
		{name: "ExtendedAgentCard", body: `{` + ifaces + `,"capabilities":{"extendedAgentCard":false,"ExtendedAgentCard":true}}`,
			reason: `member "ExtendedAgentCard" is "extendedAgentCard" in another case`},
		{name: "empty supportedInterfaces, no url", body: `{"supportedInterfaces":[]}`, reason: `no "url" and no "supportedInterfaces"`},
		{name: "null supportedInterfaces, no url", body: `{"supportedInterfaces":null}`, reason: `no "url" and no "supportedInterfaces"`},
		// Read as they are.
		{name: "two OAuth flows in a v1.0 oneof", body: `{` + ifaces + `,"securitySchemes":{"o":{"oauth2SecurityScheme":{"flows":{` +
			`"authorizationCode":{"authorizationUrl":"https://a/auth","tokenUrl":"https://a/token","scopes":{}},` +
			`"clientCredentials":{"tokenUrl":"https://a/token","scopes":{}}}}}}}`,
			check: func(t *testing.T, card *a2a.AgentCard) {
				f := card.SecuritySchemes["o"].Flows
				if card.SecuritySchemes["o"].Type != "oauth2" || f == nil || f.AuthorizationCode == nil || f.ClientCredentials == nil {
					t.Errorf("scheme %+v", card.SecuritySchemes["o"])
				}
			}},
		{name: "a null interface", body: `{"supportedInterfaces":[null]}`, check: func(t *testing.T, card *a2a.AgentCard) {
			if _, err := card.JSONRPCInterface(); !errors.Is(err, a2a.ErrNoSupportedInterface) {
				t.Errorf("JSONRPCInterface: %v", err)
			}
		}},
		{name: "only unknown versions", body: `{"supportedInterfaces":[{"url":"https://a","protocolBinding":"JSONRPC","protocolVersion":"9.9"}]}`,
			check: func(t *testing.T, card *a2a.AgentCard) {
				if _, err := card.JSONRPCInterface(); !errors.Is(err, a2a.ErrNoSupportedInterface) {
					t.Errorf("JSONRPCInterface: %v", err)
				}
			}},
		{name: "url beside supportedInterfaces", body: `{"url":"https://old/v0",` + ifaces + `}`, check: func(t *testing.T, card *a2a.AgentCard) {
			if in, _ := card.JSONRPCInterface(); in.URL != "https://a/v1" {
				t.Errorf("JSONRPCInterface = %q, want the supportedInterfaces entry", in.URL)
			}
		}},
		{name: "unknown members", body: `{` + ifaces + `,"protocolVersions":["1.0"],"securitySchemes":{"k":{"fooSecurityScheme":{}}}}`,
			check: func(t *testing.T, card *a2a.AgentCard) {
				if diff := cmp.Diff(map[string]a2a.SecurityScheme{"k": {}}, card.SecuritySchemes); diff != "" {
					t.Errorf("schemes (-want +got):\n%s", diff)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := serveFake(t, mockReply{ctype: "application/json", body: []byte(tt.body)})
			card, err := a2a.ResolveAgentCard(context.Background(), srv.URL)
			if tt.check != nil {
				if err != nil {
					t.Fatal(err)
				}
				tt.check(t, card)
				return
			}
			pe, ok := errors.AsType[*a2a.ProtocolError](err)
			if !ok || card != nil || !strings.Contains(pe.Reason, tt.reason) {
				t.Errorf("%v, %v; want a *ProtocolError saying %q", card, err, tt.reason)
			}
		})
	}
}
