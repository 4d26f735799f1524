package a2atest

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// WithCard serves a copy of card (a GET, no credentials needed) at each of
// paths, default [a2a.AgentCardPath], from the server's root: resolve it
// with [a2a.ResolveAgentCard] on [Server.BaseURL]. Pass [a2a.LegacyAgentCardPath] to play an agent
// from before v0.3.0. An empty URL is set to the server's.
//
// A v0.3 server serves the card as encoding/json writes it. A v1.0 server
// ([V10]) writes it as an A2A v1.0 card: its SupportedInterfaces as given
// (an empty URL is the server's), or when it has none one JSON-RPC
// interface of version 1.0 at its URL with the [RequireTenant] tenant;
// v0.3's security schemes and requirements in v1.0's form; the
// extended-card flag from either version's field. Without WithCard a v1.0
// server serves a card of its own at [a2a.AgentCardPath]: streaming and
// push notifications true, extendedAgentCard when [WithExtendedCard] is
// given; so does a v0.3 server made with [Bindings] or [HTTPJSON].
//
// The interfaces a card lists by default are the server's bindings
// ([Bindings]), in order: a v1.0 card's supportedInterfaces, one entry a
// binding (JSONRPC at /a2a/jsonrpc, HTTP+JSON at /a2a/rest, version 1.0);
// a v0.3 card of a server made with Bindings gets preferredTransport and
// additionalInterfaces where it has none.
func WithCard(card *a2a.AgentCard, paths ...string) Option {
	return func(s *Server) {
		cp := *card
		s.card = &cp
		s.cardPaths = paths
		if len(paths) == 0 {
			s.cardPaths = []string{a2a.AgentCardPath}
		}
	}
}

// WithExtendedCard makes agent/getAuthenticatedExtendedCard
// (GetExtendedAgentCard in v1.0) return a copy of card (checked like every
// call against the Require* options). Without it the method answers
// -32007. An empty URL is set to the server's.
func WithExtendedCard(card *a2a.AgentCard) Option {
	return func(s *Server) {
		cp := *card
		s.extendedCard = &cp
	}
}

// serveCard answers a GET: the card on its paths, 404 elsewhere.
func (s *Server) serveCard(w http.ResponseWriter, r *http.Request) {
	card, paths := s.card, s.cardPaths
	if card == nil && (s.v10 || s.ownCard) {
		card, paths = s.declareRequired(s.defaultCard()), []string{a2a.AgentCardPath}
	}
	if card == nil || !slices.Contains(paths, r.URL.Path) {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if s.v10 {
		json.NewEncoder(w).Encode(s.cardV10(card))
		return
	}
	json.NewEncoder(w).Encode(s.cardV03(card))
}

// cardV03 is card as a v0.3 server serves it: as given, but for a server
// made with Bindings, whose card names its bindings where it names none:
// preferredTransport the first binding (when not JSON-RPC), and
// additionalInterfaces every binding in order, the first at the card's
// URL; protocolVersion "0.3.0" when empty.
func (s *Server) cardV03(card *a2a.AgentCard) *a2a.AgentCard {
	if !s.ownCard {
		return card
	}
	cp := *card
	if cp.PreferredTransport == "" && s.bindings[0] != a2a.TransportJSONRPC {
		cp.PreferredTransport = s.bindings[0]
	}
	if len(cp.AdditionalInterfaces) == 0 && len(s.bindings) > 1 {
		for _, in := range s.interfaces(cp.URL) {
			cp.AdditionalInterfaces = append(cp.AdditionalInterfaces, a2a.AgentInterface{URL: in.URL, Transport: in.ProtocolBinding})
		}
	}
	if cp.ProtocolVersion == "" {
		cp.ProtocolVersion = "0.3.0"
	}
	return &cp
}

// interfaces are the server's bindings as v1.0 interfaces, in order: the
// first at url (the card's), the others at their endpoints; version 1.0,
// the RequireTenant tenant.
func (s *Server) interfaces(url string) []interfaceOut {
	var out []interfaceOut
	for i, b := range s.bindings {
		in := interfaceOut{URL: url, ProtocolBinding: b, ProtocolVersion: a2a.ProtocolV10, Tenant: s.tenant}
		if i > 0 {
			in.URL = s.Endpoint(b)
		}
		out = append(out, in)
	}
	return out
}

// defaultCard is the card a v1.0 server (or a v0.3 one made with
// Bindings) serves without WithCard: a fake agent that can stream and
// take push configs, as this server does.
func (s *Server) defaultCard() *a2a.AgentCard {
	version := "" // a v1.0 card has it in its interfaces
	if !s.v10 {
		version = "0.3.0"
	}
	return &a2a.AgentCard{
		Name: "a2atest", Description: "A scripted fake A2A agent", Version: "1.0.0", URL: s.URL, ProtocolVersion: version,
		Capabilities:      a2a.AgentCapabilities{Streaming: true, PushNotifications: true, ExtendedAgentCard: s.extendedCard != nil},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"application/json", "text/plain"},
		Skills: []a2a.AgentSkill{},
	}
}

// cardOut is an AgentCard as A2A v1.0 writes it.
type cardOut struct {
	Name                 string                    `json:"name"`
	Description          string                    `json:"description"`
	SupportedInterfaces  []interfaceOut            `json:"supportedInterfaces"`
	Provider             *a2a.AgentProvider        `json:"provider,omitempty"`
	Version              string                    `json:"version"`
	DocumentationURL     string                    `json:"documentationUrl,omitempty"`
	Capabilities         capabilitiesOut           `json:"capabilities"`
	SecuritySchemes      map[string]map[string]any `json:"securitySchemes,omitempty"`
	SecurityRequirements []requirementOut          `json:"securityRequirements,omitempty"`
	DefaultInputModes    []string                  `json:"defaultInputModes"`
	DefaultOutputModes   []string                  `json:"defaultOutputModes"`
	Skills               []skillOut                `json:"skills"`
	Signatures           []a2a.AgentCardSignature  `json:"signatures,omitempty"`
	IconURL              string                    `json:"iconUrl,omitempty"`
}

type interfaceOut struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
	ProtocolVersion string `json:"protocolVersion"`
	Tenant          string `json:"tenant,omitempty"`
}

type capabilitiesOut struct {
	Streaming         bool                 `json:"streaming,omitempty"`
	PushNotifications bool                 `json:"pushNotifications,omitempty"`
	ExtendedAgentCard bool                 `json:"extendedAgentCard,omitempty"`
	Extensions        []a2a.AgentExtension `json:"extensions,omitempty"`
}

type skillOut struct {
	ID                   string           `json:"id"`
	Name                 string           `json:"name"`
	Description          string           `json:"description"`
	Tags                 []string         `json:"tags"`
	Examples             []string         `json:"examples,omitempty"`
	InputModes           []string         `json:"inputModes,omitempty"`
	OutputModes          []string         `json:"outputModes,omitempty"`
	SecurityRequirements []requirementOut `json:"securityRequirements,omitempty"`
}

// requirementOut is a SecurityRequirement: scheme name → {"list": scopes}
// (an empty list is {}).
type requirementOut struct {
	Schemes map[string]stringList `json:"schemes"`
}

type stringList struct {
	List []string `json:"list,omitempty"`
}

// cardV10 writes card as an A2A v1.0 card. Its interfaces are the card's
// SupportedInterfaces as given (an empty URL is the server's, an empty
// binding the entry's Transport), or without any, the server's bindings
// in order (interfaces): the first at the card's URL, version 1.0, with
// the server's tenant. The extended-card flag
// is set when either version's field is.
func (s *Server) cardV10(card *a2a.AgentCard) cardOut {
	out := cardOut{
		Name: card.Name, Description: card.Description, Version: card.Version, Provider: card.Provider,
		DocumentationURL: card.DocumentationURL, IconURL: card.IconURL, Signatures: card.Signatures,
		SupportedInterfaces: s.interfaces(card.URL),
		Capabilities: capabilitiesOut{Streaming: card.Capabilities.Streaming, PushNotifications: card.Capabilities.PushNotifications,
			ExtendedAgentCard: card.Capabilities.ExtendedAgentCard || card.SupportsAuthenticatedExtendedCard,
			Extensions:        card.Capabilities.Extensions},
		SecurityRequirements: requirementsV10(card.Security),
		DefaultInputModes:    nonNil(card.DefaultInputModes), DefaultOutputModes: nonNil(card.DefaultOutputModes),
		Skills: []skillOut{},
	}
	if len(card.SupportedInterfaces) > 0 {
		out.SupportedInterfaces = nil
		for _, in := range card.SupportedInterfaces {
			o := interfaceOut{URL: cmp.Or(in.URL, s.URL), ProtocolBinding: cmp.Or(in.ProtocolBinding, in.Transport),
				ProtocolVersion: in.ProtocolVersion, Tenant: in.Tenant}
			out.SupportedInterfaces = append(out.SupportedInterfaces, o)
		}
	}
	for name, sc := range card.SecuritySchemes {
		if w := schemeV10(sc); w != nil {
			if out.SecuritySchemes == nil {
				out.SecuritySchemes = map[string]map[string]any{}
			}
			out.SecuritySchemes[name] = w
		}
	}
	for _, sk := range card.Skills {
		out.Skills = append(out.Skills, skillOut{ID: sk.ID, Name: sk.Name, Description: sk.Description, Tags: nonNil(sk.Tags),
			Examples: sk.Examples, InputModes: sk.InputModes, OutputModes: sk.OutputModes, SecurityRequirements: requirementsV10(sk.Security)})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func requirementsV10(reqs []map[string][]string) []requirementOut {
	var out []requirementOut
	for _, r := range reqs {
		schemes := map[string]stringList{}
		for name, scopes := range r {
			schemes[name] = stringList{List: scopes}
		}
		out = append(out, requirementOut{Schemes: schemes})
	}
	return out
}

// schemeV10 writes a v0.3 security scheme in v1.0's wrapper form ({"in"}
// becomes {"location"}; an oauth2 scheme keeps its first flow, v1.0
// having one); nil for an unknown type.
func schemeV10(sc a2a.SecurityScheme) map[string]any {
	fields := map[string]any{}
	put := func(k, v string) {
		if v != "" {
			fields[k] = v
		}
	}
	put("description", sc.Description)
	var key string
	switch sc.Type {
	case "apiKey":
		key = "apiKeySecurityScheme"
		put("location", sc.In)
		put("name", sc.Name)
	case "http":
		key = "httpAuthSecurityScheme"
		put("scheme", sc.Scheme)
		put("bearerFormat", sc.BearerFormat)
	case "oauth2":
		key = "oauth2SecurityScheme"
		put("oauth2MetadataUrl", sc.OAuth2MetadataURL)
		if f := sc.Flows; f != nil {
			for _, flow := range []struct {
				name string
				f    *a2a.OAuthFlow
			}{{"authorizationCode", f.AuthorizationCode}, {"clientCredentials", f.ClientCredentials}, {"implicit", f.Implicit}, {"password", f.Password}} {
				if flow.f != nil {
					fields["flows"] = map[string]any{flow.name: flow.f}
					break
				}
			}
		}
	case "openIdConnect":
		key = "openIdConnectSecurityScheme"
		put("openIdConnectUrl", sc.OpenIDConnectURL)
	case "mutualTLS":
		key = "mtlsSecurityScheme"
	default:
		return nil
	}
	return map[string]any{key: fields}
}
