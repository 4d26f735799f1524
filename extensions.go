package a2a

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// A2A extensions on the call path: which URIs a call activates, the
// header that carries them (the binding names it), and what an agent's
// refusal (ErrExtensionSupportRequired) says about them. The options are
// in options_extensions.go.

// RequiredExtensions returns the URIs of the extensions the card marks
// required (capabilities.extensions with required true), in card order,
// each once; nil when none is. A client must activate each of them
// ([WithExtensions], [WithRequiredExtensions]) for the agent to take its
// requests (A2A v1.0.1 §3.3.2). The URIs are as received: text from the
// network, to be escaped before printing.
func (c *AgentCard) RequiredExtensions() []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, x := range c.Capabilities.Extensions {
		if x.Required && x.URI != "" {
			out = appendUnique(out, x.URI)
		}
	}
	return out
}

// extensionsFor is the URIs a call with spec activates: the client's, the
// call's, and with WithRequiredExtensions those the known card marks
// required that the header can carry; each once, in that order.
func (c *Client) extensionsFor(spec callSpec) []string {
	out := appendUnique(append([]string(nil), c.extensions...), spec.extensions...)
	if c.extRequired {
		for _, u := range c.card.Load().RequiredExtensions() {
			if checkExtensionURI(u) == nil {
				out = appendUnique(out, u)
			}
		}
	}
	return out
}

// setExtensions writes the call's activated extensions into h: in the
// binding's header (extensionsHeader), one comma-separated field, or with
// WithExtensionLines one line per URI. Nothing when there are none.
func (cl *call) setExtensions(h http.Header) {
	if len(cl.extensions) == 0 {
		return
	}
	name := cl.c.proto.extensionsHeader()
	if cl.c.extLines {
		h[http.CanonicalHeaderKey(name)] = append([]string(nil), cl.extensions...)
		return
	}
	h.Set(name, strings.Join(cl.extensions, ","))
}

// Bounds on what an ExtensionSupportRequired error keeps of the URIs it
// names: how many, and how many of them Error() prints.
const (
	maxRequiredExtensions = 32
	maxExtensionsInError  = 4
)

// extensionError completes err when it is an *RPCError matching
// ErrExtensionSupportRequired: its RequiredExtensions are the URIs the
// agent named (extensionsNamed), or when it named none, those the client's
// card marks required that the call did not activate; its Hint says
// which, and how to activate them. Any other err is returned as it is.
func (cl *call) extensionError(err error) error {
	e, ok := err.(*RPCError)
	if !ok || e.Code != -32008 {
		return err
	}
	named := extensionsNamed(e.Details)
	var missing []string
	for _, u := range cl.c.card.Load().RequiredExtensions() {
		if !slices.Contains(cl.extensions, u) {
			missing = appendUnique(missing, u)
		}
	}
	switch {
	case len(named) > 0:
		e.RequiredExtensions = named
		e.Hint = "the agent requires " + listURIs(named)
	case len(missing) > 0:
		e.RequiredExtensions = bounded(missing)
		e.Hint = "the agent's card marks " + listURIs(e.RequiredExtensions) + " required"
	default:
		e.Hint = "the agent named no extension; its card's capabilities.extensions lists those it requires"
		return e
	}
	if len(named) > 0 {
		// The card's, once: only those the agent did not name.
		var also []string
		for _, u := range missing {
			if !slices.Contains(named, u) {
				also = append(also, u)
			}
		}
		if len(also) > 0 {
			e.Hint += "; its card also marks " + listURIs(bounded(also)) + " required"
		}
	}
	e.Hint += ", not activated by this call: activate what the client implements with WithExtensions or Extensions"
	return e
}

// extensionsNamed is the extension URIs an error's details name: the
// comma-separated "extensions" metadata of its ErrorInfo details, trimmed,
// each once, at most maxRequiredExtensions; nil when none does.
func extensionsNamed(details []ErrorDetail) []string {
	var out []string
	for _, d := range details {
		if d.Type != errorInfoType {
			continue
		}
		// Its value must be a JSON string: Metadata keeps another value
		// as its JSON text, which is no list of URIs.
		var named struct {
			Metadata struct {
				Extensions *string `json:"extensions"`
			} `json:"metadata"`
		}
		if json.Unmarshal(d.Raw, &named) != nil || named.Metadata.Extensions == nil {
			continue
		}
		for u := range strings.SplitSeq(*named.Metadata.Extensions, ",") {
			if u = strings.TrimSpace(u); u != "" {
				out = appendUnique(out, u)
			}
		}
	}
	return bounded(out)
}

// bounded is list cut to maxRequiredExtensions.
func bounded(list []string) []string {
	if len(list) > maxRequiredExtensions {
		return list[:maxRequiredExtensions:maxRequiredExtensions]
	}
	return list
}

// listURIs writes URIs from the network for an error's text: each
// escaped (inert) and cut, at most maxExtensionsInError of them.
func listURIs(uris []string) string {
	var b strings.Builder
	for i, u := range uris {
		if i == maxExtensionsInError {
			b.WriteString(" and others")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(inert.Printable(inert.Truncate(u, maxMessageInError)))
	}
	return b.String()
}
