package a2a

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// Agent cards of both versions: reading A2A v0.3, A2A v1.0 and dual cards
// onto the one AgentCard (the wire forms below and their UnmarshalJSON),
// the card's endpoints whatever its shape (Interfaces), and the versions
// their entries name (dialectOf); choice.go chooses among them.
//
// The wire forms are what encoding/json decodes a card through: the model
// type's own fields (an embedded copy of the type without its methods)
// plus the names only the other version uses. names.go derives the name
// check from them (wireFormer), so every name bound is checked.

// readCard reads an agent card served at a well-known URL, of any version:
// r's result is the GET's whole body. It is a *ProtocolError made with
// r.fault when the body is not a JSON object, when its members do not
// decode (jsonResult: the name check, then encoding/json), or when it has
// neither a "url" (A2A v0.3) nor a non-empty "supportedInterfaces" (A2A
// v1.0).
func readCard(r *reply) (*AgentCard, error) {
	if len(r.result) == 0 || r.result[0] != '{' {
		return nil, r.fault("agent card is not a JSON object", nil)
	}
	card, err := jsonResult[AgentCard](r, "agent card", false)
	switch {
	case err != nil:
		return nil, err
	case card.URL == "" && !card.isV10():
		return nil, r.fault(`agent card has no "url" and no "supportedInterfaces"`, nil)
	}
	return card, nil
}

// isV10 reports whether c is an A2A v1.0 card, or a dual one: its
// supportedInterfaces (A2A v1.0 §4.4, AgentCard (supportedInterfaces)),
// which replaced v0.3's url, is present and not empty. The official SDKs
// test the same, and then read SupportedInterfaces alone.
func (c *AgentCard) isV10() bool {
	return c != nil && len(c.SupportedInterfaces) > 0
}

// cardFields is AgentCard without its methods, for the wire form to
// embed.
type cardFields AgentCard

// cardWire is the wire form of an agent card: the fields, and the v1.0
// names that land in a v0.3 field.
type cardWire struct {
	cardFields
	// Security is read in either form (securityEntry).
	Security             []securityEntry       `json:"security"`
	SecurityRequirements []securityRequirement `json:"securityRequirements"`
	// SupportsExtendedAgentCard is a misspelling of
	// supportsAuthenticatedExtendedCard in the A2A v1.0 specification's
	// migration notes (A2A v1.0 §A.2.2); read as the flag.
	SupportsExtendedAgentCard bool `json:"supportsExtendedAgentCard"`
}

func (*AgentCard) wireForms() []reflect.Type { return []reflect.Type{reflect.TypeFor[cardWire]()} }

// UnmarshalJSON decodes a card of either version, or a dual one (see
// [AgentCard]), and keeps a copy of b for [AgentCard.Raw]. It returns
// encoding/json's errors, and an error for a known member repeated or
// written in another case ("Url"), which a card read from an agent may
// not have either.
func (c *AgentCard) UnmarshalJSON(b []byte) error {
	// The names a card read from an agent must have (readCard): a known
	// member in another case ("Url") is refused, never read as the
	// member (encoding/json would) that no signature form covers.
	if err := jsonread.CheckNames(b, schemas.Of(reflect.TypeFor[AgentCard]())); err != nil {
		return fmt.Errorf("a2a: agent card: %w", err)
	}
	var w cardWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*c = AgentCard(w.cardFields)
	c.Security = entries(w.Security)
	if c.Security == nil {
		c.Security = requirements(w.SecurityRequirements)
	}
	c.SupportsAuthenticatedExtendedCard = c.SupportsAuthenticatedExtendedCard || w.SupportsExtendedAgentCard
	c.raw = append(json.RawMessage(nil), b...)
	return nil
}

// skillFields is AgentSkill without its methods.
type skillFields AgentSkill

// skillWire is the wire form of a skill.
type skillWire struct {
	skillFields
	Security             []securityEntry       `json:"security"`
	SecurityRequirements []securityRequirement `json:"securityRequirements"`
}

func (*AgentSkill) wireForms() []reflect.Type { return []reflect.Type{reflect.TypeFor[skillWire]()} }

// UnmarshalJSON decodes a skill of either version: A2A v1.0's
// securityRequirements is read into Security when security is absent. It
// returns encoding/json's errors.
func (s *AgentSkill) UnmarshalJSON(b []byte) error {
	var w skillWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = AgentSkill(w.skillFields)
	s.Security = entries(w.Security)
	if s.Security == nil {
		s.Security = requirements(w.SecurityRequirements)
	}
	return nil
}

// securityRequirement is A2A v1.0's SecurityRequirement: scheme name →
// scopes, under "schemes".
type securityRequirement struct {
	Schemes schemeScopes `json:"schemes"`
}

// securityEntry is one entry of a card's or skill's "security": the v0.3
// JSON form, scheme name → scopes ({"oauth": ["read"]}), or the v0.3
// proto's Security message as ProtoJSON writes it ({"schemes": {"oauth":
// {"list": ["read"]}}}, what GET /v1/card of A2A v0.3 HTTP+JSON serves by
// its proto). The second is an object whose one member "schemes" is an
// object, which the first cannot be (its values are arrays).
type securityEntry map[string][]string

func (*securityEntry) wireForms() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[map[string]scopeForms]()}
}

// UnmarshalJSON reads an entry in either form; its errors are
// schemeScopes' and encoding/json's.
func (e *securityEntry) UnmarshalJSON(b []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		return err
	}
	if s := members["schemes"]; len(members) == 1 && len(s) > 0 && s[0] == '{' {
		b = s
	}
	var m schemeScopes
	if err := m.UnmarshalJSON(b); err != nil {
		return err
	}
	*e = securityEntry(m)
	return nil
}

// entries is a "security" list as the card keeps it: nil for none.
func entries(list []securityEntry) []map[string][]string {
	if list == nil {
		return nil
	}
	out := make([]map[string][]string, len(list))
	for i, e := range list {
		out[i] = e
		if out[i] == nil {
			out[i] = map[string][]string{}
		}
	}
	return out
}

// requirements converts v1.0 security requirements to the v0.3 shape of
// [AgentCard.Security]: nil for none, and an empty map for an entry
// without schemes ({} requires nothing, as in OpenAPI).
func requirements(reqs []securityRequirement) []map[string][]string {
	if reqs == nil {
		return nil
	}
	out := make([]map[string][]string, len(reqs))
	for i, r := range reqs {
		out[i] = r.Schemes
		if out[i] == nil {
			out[i] = map[string][]string{}
		}
	}
	return out
}

// schemeScopes is the schemes of a v1.0 security requirement: scheme name
// → scopes, never a nil list. Servers write the scopes three ways:
// ProtoJSON's {"list":[…]} (A2A v1.0, StringList), {} for no scopes
// (ProtoJSON leaves an empty list out), and a bare array, as a2a-go
// writes them. It is read with the package's JSON reader, into the map
// the card keeps: no value is decoded twice or copied.
type schemeScopes map[string][]string

// scopeForms is the wire form of one scheme's scopes, for the name check
// alone (readScopes reads them): an object {"list":[…]} or an array. Its
// objects are charged as if json.Unmarshal decoded them, a little more
// than readScopes takes.
type scopeForms []string

// scopeObject is the object form of a scheme's scopes.
type scopeObject struct {
	List []string `json:"list"`
}

func (*scopeForms) wireForms() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[scopeObject](), reflect.TypeFor[[]string]()}
}

func (*schemeScopes) wireForms() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[map[string]scopeForms]()}
}

// UnmarshalJSON reads the schemes object, each scheme's scopes in any of
// the three forms; null scopes are none. Member names are matched exactly
// (see [jsonread.Reader]); a value of the wrong type is a
// *json.UnmarshalTypeError, malformed JSON a *json.SyntaxError.
func (m *schemeScopes) UnmarshalJSON(b []byte) error {
	return jsonread.DecodeWhole(b, readSchemeScopes, m, jsonread.Exact)
}

func readSchemeScopes(d *jsonread.Reader, m *schemeScopes) bool {
	out := schemeScopes{}
	ok := d.Container('{', '}', reflect.TypeFor[schemeScopes](), "after object key:value pair", func(int) {
		key, ok := d.Key()
		if !ok {
			return
		}
		name := string(key)
		d.Enter(name)
		out[name] = readScopes(d)
		d.Leave()
	})
	if ok {
		*m = out
	}
	return ok
}

var scopeNames = jsonread.NewNameSet("list")

// readScopes reads one scheme's scopes: an array of strings, or an object
// with the array under "list"; null, {} and a null list are none.
func readScopes(d *jsonread.Reader) []string {
	var list []string
	if d.Peek() == '[' {
		list = d.Strs()
	} else {
		d.Object(scopeNames, reflect.TypeFor[scopeObject](), func(int) { list = d.Strs() })
	}
	if list == nil {
		return []string{}
	}
	return list
}

// schemeFields is SecurityScheme without its methods.
type schemeFields SecurityScheme

// schemeWire is the wire form of a security scheme: v0.3's flat members,
// A2A v1.0's object under the key that names the kind (SecurityScheme, a
// oneof), and the same v1.0 objects under the shorter keys a2a-go's dual
// cards add (not in any specification).
type schemeWire struct {
	schemeFields
	APIKey        *apiKeyScheme `json:"apiKeySecurityScheme"`
	HTTPAuth      *httpScheme   `json:"httpAuthSecurityScheme"`
	OAuth2        *oauth2Scheme `json:"oauth2SecurityScheme"`
	OpenIDConnect *oidcScheme   `json:"openIdConnectSecurityScheme"`
	MTLS          *mtlsScheme   `json:"mtlsSecurityScheme"`

	GoAPIKey        *apiKeyScheme `json:"apiKey"`
	GoHTTP          *httpScheme   `json:"http"`
	GoOAuth2        *oauth2Scheme `json:"oauth2"`
	GoOpenIDConnect *oidcScheme   `json:"openIdConnect"`
	GoMutualTLS     *mtlsScheme   `json:"mutualTLS"`
}

// The v1.0 scheme objects (A2A v1.0, APIKeySecurityScheme,
// HTTPAuthSecurityScheme, OAuth2SecurityScheme,
// OpenIdConnectSecurityScheme, MutualTlsSecurityScheme).
type (
	apiKeyScheme struct {
		Location    string `json:"location"`
		Name        string `json:"name"`
		Description string `json:"description"`
	}
	httpScheme struct {
		Scheme       string `json:"scheme"`
		BearerFormat string `json:"bearerFormat"`
		Description  string `json:"description"`
	}
	oauth2Scheme struct {
		Flows             *OAuthFlows `json:"flows"`
		OAuth2MetadataURL string      `json:"oauth2MetadataUrl"`
		Description       string      `json:"description"`
	}
	oidcScheme struct {
		OpenIDConnectURL string `json:"openIdConnectUrl"`
		Description      string `json:"description"`
	}
	mtlsScheme struct {
		Description string `json:"description"`
	}
)

func (*SecurityScheme) wireForms() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[schemeWire]()}
}

// UnmarshalJSON decodes a security scheme in the v0.3 form, the v1.0 form,
// or both at once (see [SecurityScheme]). It returns encoding/json's
// errors.
func (s *SecurityScheme) UnmarshalJSON(b []byte) error {
	var w schemeWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*s = SecurityScheme(w.schemeFields)
	for _, v := range []*apiKeyScheme{w.APIKey, w.GoAPIKey} {
		if v != nil {
			s.fill("apiKey", v.Description)
			s.In, s.Name = cmp.Or(s.In, v.Location), cmp.Or(s.Name, v.Name)
		}
	}
	for _, v := range []*httpScheme{w.HTTPAuth, w.GoHTTP} {
		if v != nil {
			s.fill("http", v.Description)
			s.Scheme, s.BearerFormat = cmp.Or(s.Scheme, v.Scheme), cmp.Or(s.BearerFormat, v.BearerFormat)
		}
	}
	for _, v := range []*oauth2Scheme{w.OAuth2, w.GoOAuth2} {
		if v != nil {
			s.fill("oauth2", v.Description)
			s.Flows, s.OAuth2MetadataURL = cmp.Or(s.Flows, v.Flows), cmp.Or(s.OAuth2MetadataURL, v.OAuth2MetadataURL)
		}
	}
	for _, v := range []*oidcScheme{w.OpenIDConnect, w.GoOpenIDConnect} {
		if v != nil {
			s.fill("openIdConnect", v.Description)
			s.OpenIDConnectURL = cmp.Or(s.OpenIDConnectURL, v.OpenIDConnectURL)
		}
	}
	for _, v := range []*mtlsScheme{w.MTLS, w.GoMutualTLS} {
		if v != nil {
			s.fill("mutualTLS", v.Description)
		}
	}
	return nil
}

// fill takes a v1.0 object of kind: its kind when s has none yet, its
// description when s has none.
func (s *SecurityScheme) fill(kind, description string) {
	s.Type = cmp.Or(s.Type, kind)
	s.Description = cmp.Or(s.Description, description)
}

// Interfaces returns the card's endpoints in card order (most preferred
// first), each with ProtocolBinding and Transport the same:
//
//   - for an A2A v1.0 or dual card (see [AgentCard]), a copy of
//     SupportedInterfaces, where an entry that sets only one of
//     ProtocolBinding and Transport gets it in the other too; a
//     ProtocolVersion the card leaves empty stays empty;
//   - for an A2A v0.3 card, its endpoints as the official SDKs convert a
//     v0.3 card: first URL with PreferredTransport (or JSONRPC), then each
//     entry of AdditionalInterfaces with its transport, except one that
//     repeats URL with the same transport; every one with ProtocolVersion
//     the card's ProtocolVersion, or "0.3" when that is empty, and no
//     tenant.
//
// It returns nil for a nil card or one without endpoints.
func (c *AgentCard) Interfaces() []AgentInterface {
	switch {
	case c == nil:
		return nil
	case c.isV10():
		out := slices.Clone(c.SupportedInterfaces)
		for i := range out {
			out[i].ProtocolBinding = cmp.Or(out[i].ProtocolBinding, out[i].Transport)
			out[i].Transport = cmp.Or(out[i].Transport, out[i].ProtocolBinding)
		}
		return out
	}
	version := cmp.Or(c.ProtocolVersion, "0.3")
	binding := cmp.Or(c.PreferredTransport, TransportJSONRPC)
	var out []AgentInterface
	if c.URL != "" {
		out = append(out, AgentInterface{URL: c.URL, Transport: binding, ProtocolBinding: binding, ProtocolVersion: version})
	}
	for _, in := range c.AdditionalInterfaces {
		if c.URL != "" && in.URL == c.URL && strings.EqualFold(in.Transport, binding) {
			continue
		}
		out = append(out, AgentInterface{URL: in.URL, Transport: in.Transport, ProtocolBinding: in.Transport, ProtocolVersion: version})
	}
	return out
}

// dialectOf returns the dialect that speaks protocol version v,
// "Major.Minor" with an optional ".Patch", all decimal: ProtocolV10 for
// major 1, ProtocolV03 for major 0 (0.3 is the first version with this
// binding; earlier ones are read as it). It returns false for an empty
// version and one of another major or another form.
func dialectOf(v string) (string, bool) {
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return "", false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return "", false
		}
	}
	switch major, err := strconv.Atoi(parts[0]); {
	case err != nil:
		return "", false
	case major == 1:
		return ProtocolV10, true
	case major == 0:
		return ProtocolV03, true
	}
	return "", false
}
