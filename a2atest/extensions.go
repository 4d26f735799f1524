package a2atest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// RequireExtension makes the server require the extension uri, as an
// agent whose card marks it required does (A2A v1.0.1 §3.3.2): every card
// it serves (either version, the extended card too) lists uri in
// capabilities.extensions with required true, and every request but a
// card GET that does not activate it is refused with
// ExtensionSupportRequiredError: JSON-RPC -32008, over HTTP+JSON HTTP 400
// with a google.rpc.Status FAILED_PRECONDITION, its data or details one
// google.rpc.ErrorInfo of reason EXTENSION_SUPPORT_REQUIRED whose metadata
// "extensions" names the URIs missing, comma-separated. A request
// activates an extension with the header of the server's version,
// A2A-Extensions on v1.0 ([V10]), X-A2A-Extensions on v0.3: comma lists
// and repeated lines are both read, each URI trimmed of spaces. It may be
// given several times.
func RequireExtension(uri string) Option {
	return func(s *Server) {
		if !slices.Contains(s.requiredExt, uri) {
			s.requiredExt = append(s.requiredExt, uri)
		}
	}
}

// declareRequired returns a copy of card whose capabilities.extensions
// mark each required extension required, added where the card does not
// list it; card itself when the server requires none.
func (s *Server) declareRequired(card *a2a.AgentCard) *a2a.AgentCard {
	if card == nil || len(s.requiredExt) == 0 {
		return card
	}
	cp := *card
	exts := slices.Clone(cp.Capabilities.Extensions)
	for _, uri := range s.requiredExt {
		i := slices.IndexFunc(exts, func(x a2a.AgentExtension) bool { return x.URI == uri })
		if i < 0 {
			exts = append(exts, a2a.AgentExtension{URI: uri, Required: true})
			continue
		}
		exts[i].Required = true
	}
	cp.Capabilities.Extensions = exts
	return &cp
}

// activated is the extension URIs r activates in the header of the
// server's version: every line split at commas, each trimmed.
func (s *Server) activated(r *http.Request) []string {
	name := "A2a-Extensions" // canonical, as r.Header holds it
	if !s.v10 {
		name = "X-A2a-Extensions"
	}
	var out []string
	for _, line := range r.Header[name] {
		for u := range strings.SplitSeq(line, ",") {
			if u = strings.TrimSpace(u); u != "" {
				out = append(out, u)
			}
		}
	}
	return out
}

// checkExtensions is the server's ExtensionSupportRequiredError for r
// when it does not activate every extension the server requires; nil
// when it does.
func (s *Server) checkExtensions(r *http.Request) *a2a.RPCError {
	if len(s.requiredExt) == 0 {
		return nil
	}
	got := s.activated(r)
	var missing []string
	for _, uri := range s.requiredExt {
		if !slices.Contains(got, uri) {
			missing = append(missing, uri)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	list := strings.Join(missing, ",")
	info := errorDetails(-32008)
	info[0].Metadata = map[string]string{"extensions": list}
	data, _ := json.Marshal(info)
	return &a2a.RPCError{Code: -32008, Message: "extension support required: " + list, Data: data}
}
