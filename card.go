package a2a

import (
	"context"
	"encoding/json"
	"errors"
)

// Discovery paths (A2A v0.3 §5.3; unchanged in A2A v1.0). Agents before
// v0.3.0 serve the legacy one.
const (
	AgentCardPath       = "/.well-known/agent-card.json"
	LegacyAgentCardPath = "/.well-known/agent.json"
)

// Binding names of [AgentInterface] and [AgentCard.PreferredTransport]
// (A2A v0.3 §5.5.5 calls them transports; A2A v1.0, AgentInterface
// (protocolBinding) bindings). This package speaks JSON-RPC and HTTP+JSON
// ([WithTransports]); cards name them in any case.
const (
	TransportJSONRPC  = "JSONRPC"
	TransportGRPC     = "GRPC"
	TransportHTTPJSON = "HTTP+JSON"
)

// AgentCard is an agent's self-description: who it is, where it listens,
// what it can do and how to authenticate (A2A v0.3 §5.5; A2A v1.0,
// AgentCard). One type holds a card of either version, and a dual card
// that carries both shapes in one object:
//
//   - an A2A v0.3 card names its endpoints with URL, PreferredTransport,
//     AdditionalInterfaces and ProtocolVersion;
//   - an A2A v1.0 card lists them in SupportedInterfaces, each with its
//     own protocol version, and has no URL. A card whose
//     supportedInterfaces is present and not empty is read as v1.0 (or
//     dual) and its endpoints are SupportedInterfaces alone, whatever v0.3
//     fields it also has;
//   - [AgentCard.Interfaces] lists the endpoints of either kind alike, and
//     [NewClientFromCard] chooses the one to call ([Client.Interface]
//     says which).
//
// Decoding maps v1.0 members that have a v0.3 field onto it:
// securityRequirements (when security is absent) onto Security, a
// skill's securityRequirements onto its Security, each security scheme's
// v1.0 form onto the flat [SecurityScheme]. v1.0's extended-card flag
// stays where v1.0 puts it, [AgentCapabilities.ExtendedAgentCard].
// Unknown fields are ignored; [AgentCard.Raw] keeps the bytes the card was
// decoded from. Encoding writes the fields as they are, with v0.3 names
// where both versions have one.
type AgentCard struct {
	// ProtocolVersion is the A2A version of URL and AdditionalInterfaces
	// (A2A v0.3 only, e.g. "0.3.0"; a v1.0 card gives a version per
	// interface instead).
	ProtocolVersion string `json:"protocolVersion"`
	Name            string `json:"name"`
	Description     string `json:"description"`
	// Version is the agent's own version, not the protocol's.
	Version string `json:"version"`
	// URL is the main endpoint; it speaks PreferredTransport (A2A v0.3
	// only).
	URL string `json:"url"`
	// PreferredTransport is the transport of URL; empty means JSONRPC (A2A
	// v0.3 only).
	PreferredTransport string `json:"preferredTransport,omitempty"`
	// AdditionalInterfaces are other endpoints, with their transports (A2A
	// v0.3 only).
	AdditionalInterfaces []AgentInterface `json:"additionalInterfaces,omitzero"`
	// SupportedInterfaces are the agent's endpoints, most preferred first,
	// each with its binding, protocol version and tenant (A2A v1.0,
	// AgentCard (supportedInterfaces)); empty on a v0.3 card.
	SupportedInterfaces []AgentInterface          `json:"supportedInterfaces,omitzero"`
	Capabilities        AgentCapabilities         `json:"capabilities"`
	SecuritySchemes     map[string]SecurityScheme `json:"securitySchemes,omitzero"`
	// Security lists the alternatives (any one will do) of security
	// schemes that must all be used, by name, each with its OAuth scopes
	// (A2A v0.3 security; A2A v1.0 securityRequirements, read here when
	// security is absent).
	Security           []map[string][]string `json:"security,omitzero"`
	DefaultInputModes  []string              `json:"defaultInputModes"`
	DefaultOutputModes []string              `json:"defaultOutputModes"`
	Skills             []AgentSkill          `json:"skills"`
	// SupportsAuthenticatedExtendedCard says the agent serves an extended
	// card to authenticated callers (A2A v0.3; also read from the
	// misspelling "supportsExtendedAgentCard" found in the A2A v1.0
	// specification's migration notes). A v1.0 card says it with
	// Capabilities.ExtendedAgentCard.
	SupportsAuthenticatedExtendedCard bool                 `json:"supportsAuthenticatedExtendedCard,omitempty"`
	Provider                          *AgentProvider       `json:"provider,omitempty"`
	IconURL                           string               `json:"iconUrl,omitempty"`
	DocumentationURL                  string               `json:"documentationUrl,omitempty"`
	Signatures                        []AgentCardSignature `json:"signatures,omitzero"`

	raw json.RawMessage
	// origin is where the card was read ("https://host:443"):
	// ResolveAgentCard's card URL, or the endpoint that served an
	// extended card; empty for a card built or decoded by the caller.
	origin string
	// verification is what a CardVerifier found (options_cards.go), nil
	// when none has seen the card.
	verification *CardVerification
}

// Raw returns the JSON the card was decoded from, or nil for a card built in
// code. The returned slice must not be modified.
func (c *AgentCard) Raw() json.RawMessage {
	if c == nil {
		return nil
	}
	return c.raw
}

// AgentInterface is one endpoint of the agent: its URL and the protocol
// binding it speaks there (A2A v0.3 §5.5.5, where the binding is called
// transport; A2A v1.0, AgentInterface, which adds the protocol version
// and a tenant). A v1.0 card fills ProtocolBinding, a v0.3 card
// Transport; [AgentCard.Interfaces] returns them with both filled.
type AgentInterface struct {
	URL string `json:"url"`
	// Transport is the binding, as A2A v0.3 names it ("JSONRPC", "GRPC",
	// "HTTP+JSON").
	Transport string `json:"transport,omitempty"`
	// ProtocolBinding is the binding, as A2A v1.0 names it; the same
	// values, and for custom bindings a URI.
	ProtocolBinding string `json:"protocolBinding,omitempty"`
	// ProtocolVersion is the A2A version spoken here, "Major.Minor" such
	// as "1.0" or "0.3" (A2A v1.0).
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// Tenant is an opaque value the agent wants in every v1.0 request
	// sent to this endpoint (A2A v1.0, AgentInterface (tenant)); empty for
	// none.
	Tenant string `json:"tenant,omitempty"`
}

// AgentCapabilities says which optional A2A features the agent supports
// (A2A v0.3 §5.5.2; A2A v1.0, AgentCapabilities). Absent flags are false.
// Caoliao's card has streaming, pushNotifications and
// stateTransitionHistory all false.
type AgentCapabilities struct {
	Streaming         bool `json:"streaming,omitempty"`
	PushNotifications bool `json:"pushNotifications,omitempty"`
	// StateTransitionHistory is A2A v0.3 only (removed in v1.0).
	StateTransitionHistory bool             `json:"stateTransitionHistory,omitempty"`
	Extensions             []AgentExtension `json:"extensions,omitzero"`
	// ExtendedAgentCard says the agent serves an extended card to
	// authenticated callers (A2A v1.0, AgentCapabilities
	// (extendedAgentCard); v0.3 cards say it with
	// [AgentCard.SupportsAuthenticatedExtendedCard]).
	ExtendedAgentCard bool `json:"extendedAgentCard,omitempty"`
}

// AgentExtension is a protocol extension the agent supports (A2A v0.3 §5.5.2.1).
type AgentExtension struct {
	URI         string          `json:"uri"`
	Description string          `json:"description,omitempty"`
	Required    bool            `json:"required,omitempty"`
	Params      json.RawMessage `json:"params,omitzero"`
}

// AgentSkill is one thing the agent can do (A2A v0.3 §5.5.4; A2A v1.0,
// AgentSkill).
type AgentSkill struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tags        []string `json:"tags"`
	Examples    []string `json:"examples,omitzero"`
	InputModes  []string `json:"inputModes,omitzero"`
	OutputModes []string `json:"outputModes,omitzero"`
	// Security is as [AgentCard.Security], for this skill (A2A v0.3
	// security; A2A v1.0 securityRequirements, read here when security is
	// absent).
	Security []map[string][]string `json:"security,omitzero"`
}

// AgentProvider names the organisation behind the agent (A2A v0.3 §5.5.1).
type AgentProvider struct {
	Organization string `json:"organization"`
	URL          string `json:"url"`
}

// AgentCardSignature is a JWS signature over the card (A2A v0.3 §5.5.6).
// Verify it over [AgentCard.Raw], not over a re-encoding.
type AgentCardSignature struct {
	Protected string          `json:"protected"`
	Signature string          `json:"signature"`
	Header    json.RawMessage `json:"header,omitzero"`
}

// SecurityScheme is one way to authenticate to the agent (A2A v0.3 §5.5.3,
// the OpenAPI 3 security scheme object). Type is "apiKey", "http",
// "oauth2", "openIdConnect" or "mutualTLS"; the other fields belong to the
// types their comments name.
//
// It is read from the v0.3 form ({"type":"apiKey","in":"header",…}), from
// A2A v1.0's (SecurityScheme: an object under one key that names the kind:
// {"apiKeySecurityScheme":{"location":"header",…}}, likewise
// httpAuthSecurityScheme, oauth2SecurityScheme,
// openIdConnectSecurityScheme, mtlsSecurityScheme), and from an object
// carrying both, as dual cards do (also under the keys apiKey, http,
// oauth2, openIdConnect and mutualTLS, which a2a-go's dual cards add).
// Where the forms disagree the v0.3 member wins, and a v1.0 member fills
// only what the v0.3 ones leave empty; v1.0's location is read into In.
// An object naming several kinds (invalid in v1.0) keeps every field,
// with Type the first kind in the order above. It is encoded in the v0.3
// form.
type SecurityScheme struct {
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
	// In and Name: apiKey ("query", "header" or "cookie"; the parameter name).
	In   string `json:"in,omitempty"`
	Name string `json:"name,omitempty"`
	// Scheme and BearerFormat: http (e.g. "Bearer", "JWT").
	Scheme       string `json:"scheme,omitempty"`
	BearerFormat string `json:"bearerFormat,omitempty"`
	// Flows and OAuth2MetadataURL: oauth2.
	Flows             *OAuthFlows `json:"flows,omitempty"`
	OAuth2MetadataURL string      `json:"oauth2MetadataUrl,omitempty"`
	// OpenIDConnectURL: openIdConnect.
	OpenIDConnectURL string `json:"openIdConnectUrl,omitempty"`
}

// OAuthFlows lists the OAuth 2.0 flows an oauth2 [SecurityScheme] supports.
// A v0.3 card may set several; in A2A v1.0 (OAuthFlows, a oneof) there is
// exactly one, and DeviceCode is new while Implicit and Password are
// deprecated. A v1.0 card that sets several is read as it is.
type OAuthFlows struct {
	AuthorizationCode *OAuthFlow `json:"authorizationCode,omitempty"`
	ClientCredentials *OAuthFlow `json:"clientCredentials,omitempty"`
	Implicit          *OAuthFlow `json:"implicit,omitempty"`
	Password          *OAuthFlow `json:"password,omitempty"`
	// DeviceCode is the device authorization grant, RFC 8628 (A2A v1.0,
	// DeviceCodeOAuthFlow).
	DeviceCode *OAuthFlow `json:"deviceCode,omitempty"`
}

// OAuthFlow is one OAuth 2.0 flow: its endpoints and scopes (scope name →
// description).
type OAuthFlow struct {
	AuthorizationURL string            `json:"authorizationUrl,omitempty"`
	TokenURL         string            `json:"tokenUrl,omitempty"`
	RefreshURL       string            `json:"refreshUrl,omitempty"`
	Scopes           map[string]string `json:"scopes"`
	// DeviceAuthorizationURL: the device code flow's (A2A v1.0,
	// DeviceCodeOAuthFlow).
	DeviceAuthorizationURL string `json:"deviceAuthorizationUrl,omitempty"`
	// PKCERequired: the authorization code flow requires PKCE, RFC 7636
	// (A2A v1.0, AuthorizationCodeOAuthFlow).
	PKCERequired bool `json:"pkceRequired,omitempty"`
}

// ErrNoSupportedInterface is returned by [NewClientFromCard] and
// [AgentCard.JSONRPCInterface] for an agent card that offers no interface
// this package speaks (and the options allow): a JSON-RPC or HTTP+JSON
// endpoint in A2A 0.x or 1.x.
var ErrNoSupportedInterface = errors.New("a2a: agent card offers no interface this client speaks (JSON-RPC or HTTP+JSON, A2A v0.3 or v1.0)")

// NewClientFromCard returns a client for the interface of the card it
// chooses, speaking that interface's binding and protocol version at its
// URL and sending its tenant (v1.0); [Client.Interface] says which it
// chose. The rule (A2A v1.0 §8.3.2):
//
//   - the candidates are the entries of [AgentCard.Interfaces] (a v1.0
//     card's supportedInterfaces; a v0.3 card's url with its
//     preferredTransport, then its additionalInterfaces) with a URL, a
//     binding this package speaks, JSONRPC or HTTP+JSON (named in any
//     case), and a version it speaks, 0.x or 1.x (a patch is allowed:
//     "1.0.1"); gRPC, custom bindings and other major versions are
//     skipped, as is a 0.x entry that names a tenant (v0.3 has none to
//     send: a call without it could reach another tenant's agent);
//   - [WithTransports] allows only the transports it names, and
//     [WithProtocolVersion] only the entries of that version (an entry's
//     URL is never spoken to in another entry's version or binding);
//   - the first candidate in card order wins, the agent's preference; with
//     [WithPreferredTransports], the first of the caller's most wanted
//     transport that the card offers;
//   - an entry without a version (which A2A v1.0 does not allow), read as
//     1.0 on a v1.0 card and as 0.3 on a v0.3 card, is taken only when no
//     entry of a known version is left;
//   - with an agent selector ([WithAgentID], [WithAgentCode]), a member
//     of the JSON-RPC envelope that HTTP+JSON requests have no place for,
//     an HTTP+JSON entry is taken only when no JSON-RPC one is left, and
//     then NewClientFromCard refuses the selector as [NewClient] does.
//
// [WithTenant] overrides the entry's tenant. The client knows the card: it
// refuses, without sending anything, calls the card says the agent cannot
// take (streaming and push notification config when those capabilities
// are false, the extended card when neither
// supportsAuthenticatedExtendedCard nor capabilities.extendedAgentCard is
// true) with an *[UnsupportedByCardError]. opts are as for [NewClient].
//
// A card names its endpoint itself, so credentials are sent there only
// where the card came from, whatever the chosen binding. When opts carry
// credentials ([WithAPIKey], [WithBearerToken], or any [WithHeader]: no
// list of names knows every vendor's credential header) and the card was
// read by [ResolveAgentCard] or [Client.GetExtendedAgentCard], the
// endpoint must be on the origin (scheme, host and port) the card was
// read from (or, for a card read over http on port 80, https on port 443
// of the same host), or on a host named with [WithTrustedHosts]; and a
// card read over https never sends them over http, trusted host or not.
// Otherwise it returns an *[UntrustedEndpointError] naming both. A card
// built or decoded by the caller has no origin: the caller vouches for
// its URL. Credentials that an [http.Client] given to [WithHTTPClient]
// adds itself are beyond this check.
//
// With [WithCardVerifier], a card no verifier has seen is verified (on
// a copy: card itself is not written; [Client.Card] holds the result) and
// a *[CardSignatureError] returned for an invalid card, for any card not
// verified under [WithRequireVerifiedCard], and for a signed card that did
// not verify when opts carry credentials.
//
// It also returns [ErrNoSupportedInterface] or NewClient's errors.
func NewClientFromCard(card *AgentCard, opts ...Option) (*Client, error) {
	cfg, err := newClientConfig(opts)
	if err != nil {
		return nil, err
	}
	ch, err := chooseInterface(card, choiceRule{transports: cfg.transports, clientOrder: cfg.clientOrder, version: cfg.version,
		selector: cfg.agentID != "" || cfg.agentCode != ""})
	if err != nil {
		return nil, err
	}
	in := ch.entry
	endpoint := in.URL
	u, cfg, err := checkInput(endpoint, opts)
	if err != nil {
		return nil, err
	}
	cfg.version, cfg.transport = ch.version, ch.transport
	if cfg.tenant == "" && cfg.version == ProtocolV10 && in.Tenant != "" {
		if err := checkHeaderValue("tenant of the card's interface", in.Tenant); err != nil {
			return nil, err
		}
		cfg.tenant = in.Tenant
	}
	if cfg.tenant != "" && cfg.version != ProtocolV10 {
		return nil, errTenantV03
	}
	if err := cfg.checkTransport(); err != nil {
		return nil, err
	}
	c := newClient(endpoint, u, cfg)
	known := *card // the caller's card is not written: it may be shared
	if known.verification == nil {
		if err := cfg.cards.verify(context.Background(), &known, c.red); err != nil {
			return nil, err
		}
	} else if err := cfg.cards.policy(known.verification, c.red); err != nil {
		return nil, err
	}
	if err := cfg.cards.credentials(known.verification, cfg.credentials(), c.red); err != nil {
		return nil, err
	}
	if err := cfg.mayCarryCredentials(card.origin, u, c.red); err != nil {
		return nil, err
	}
	c.card.Store(&known)
	return c, nil
}

// Card returns the agent card the client knows ([NewClientFromCard], updated
// by [Client.GetExtendedAgentCard]), or nil.
func (c *Client) Card() *AgentCard {
	if c == nil {
		return nil
	}
	return c.card.Load()
}

// capability is an optional feature of an agent that its card may rule
// out; a call may need several (a bit each).
type capability int

const (
	capNone      capability = 0
	capStreaming capability = 1 << iota
	capPush
	capExtendedCard
)

// requireCapability returns an *UnsupportedByCardError when the client's
// card rules out one of the capabilities spec's call needs.
func (c *Client) requireCapability(spec callSpec) error {
	card := c.card.Load()
	if card == nil || spec.needs == capNone {
		return nil
	}
	for _, need := range []capability{capStreaming, capPush, capExtendedCard} {
		if spec.needs&need == 0 {
			continue
		}
		if field, ok := c.proto.requires(card, need); !ok {
			return &UnsupportedByCardError{Method: spec.method, Capability: field}
		}
	}
	return nil
}

// GetExtendedAgentCard fetches the card the agent shows to
// authenticated callers (agent/getAuthenticatedExtendedCard, A2A v0.3
// §7.10; GetExtendedAgentCard in A2A v1.0, with the tenant; over
// HTTP+JSON GET /extendedAgentCard, v0.3: GET /v1/card) and makes it the
// client's known card. The client keeps its endpoint and binding. The client's credentials
// options authenticate the call. A client built by [NewClientFromCard] from
// a card with neither supportsAuthenticatedExtendedCard nor
// capabilities.extendedAgentCard refuses with an
// *[UnsupportedByCardError]. With [WithCardVerifier] each card read is
// verified and one refused as [ResolveAgentCard] refuses it (a
// *[CardSignatureError]; the client keeps the card it had), and so is one
// that is not verified when the client's card is. Otherwise the
// errors are those of
// [Client.GetTask], an *[RPCError] matching
// [ErrExtendedAgentCardNotConfigured] among them.
func (c *Client) GetExtendedAgentCard(ctx context.Context, opts ...CallOption) (*AgentCard, error) {
	b, cfg, err := c.callBinding(opts)
	if err != nil {
		return nil, err
	}
	card, err := run(ctx, c, cfg.apply(b.extendedCard()), b.extendedCardResult)
	if err != nil {
		return nil, err
	}
	card.origin = c.origin
	if err := c.cards.verify(ctx, card, c.red); err != nil {
		return nil, err
	}
	if prev := c.card.Load(); c.cards.verifier != nil && prev != nil && prev.verification.Verified() && !card.verification.Verified() {
		return nil, cardRefused(card.verification, "a verified card is replaced only by a verified one", c.red)
	}
	// The agent has just served an extended card; an extended card that
	// leaves the flag out must not lock out the next refresh.
	known := *card
	if known.isV10() {
		known.Capabilities.ExtendedAgentCard = true
	} else {
		known.SupportsAuthenticatedExtendedCard = true
	}
	c.card.Store(&known)
	return card, nil
}
