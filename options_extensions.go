package a2a

import (
	"fmt"
	"net/url"
	"slices"
)

// The options that activate A2A extensions: the client's set
// (WithExtensions), the card's required ones (WithRequiredExtensions), how
// the header is written (WithExtensionLines), and a call's own additions
// (Extensions). extensions.go sends them and reads the agent's refusal.

// WithExtensions activates the extensions named by uris on every request
// the client sends: every operation (send, stream, get, cancel, list,
// subscribe, the push-config calls, the extended card), not the GET of a
// public agent card. Activating an extension tells the agent the client
// implements it (A2A v1.0.1 §3.2.6, extensions topic); an agent may
// ignore URIs it does not know. The URIs go in the A2A-Extensions header
// on A2A v1.0 and in X-A2A-Extensions on A2A v0.3 (its name then), on
// either transport, as one comma-separated field ([WithExtensionLines]
// for one header line each). It may be given several times; a URI given
// twice is sent once, in the order first given. Each URI must be an
// absolute URI ("https://example.com/ext/v1", "urn:example:ext") of
// printable ASCII without a comma or a space, which NewClient otherwise
// refuses with an error naming it. The header is not a credential: it is
// sent wherever the client's calls go.
func WithExtensions(uris ...string) Option {
	return clientOption(func(c *clientConfig) error {
		if err := checkExtensionURIs(uris); err != nil {
			return err
		}
		c.extensions = appendUnique(c.extensions, uris...)
		return nil
	})
}

// WithRequiredExtensions activates, beside those of [WithExtensions],
// every extension the client's agent card marks required
// ([AgentCard.RequiredExtensions]): the card given to
// [NewClientFromCard], and after [Client.GetExtendedAgentCard] the
// extended card that replaced it. Give it only when the client implements
// every such extension, since activating one says it does. A required URI
// the header cannot carry (not a URI as [WithExtensions] requires) is not
// sent. A client that knows no card activates none by it.
//
// Without it the client sends only what it was told to; an agent that
// requires an extension the request did not activate answers with an
// error matching [ErrExtensionSupportRequired], whose
// [RPCError.RequiredExtensions] names the URIs (docs/extensions.md).
func WithRequiredExtensions() Option {
	return clientOption(func(c *clientConfig) error {
		c.extRequired = true
		return nil
	})
}

// WithExtensionLines writes the activated extensions as one header line
// per URI instead of one comma-separated field. The spec says several
// URIs SHOULD share one field (A2A v1.0.1 §3.2.6), and most agents split
// it; a2a-go v2 servers do not: they compare each header line whole, so
// "a,b" activates neither a nor b there. Agents that split fields read
// repeated lines too (HTTP joins them with commas).
func WithExtensionLines() Option {
	return clientOption(func(c *clientConfig) error {
		c.extLines = true
		return nil
	})
}

// Extensions activates the extensions named by uris for one call, beside
// the client's ([WithExtensions], [WithRequiredExtensions]); a URI
// already activated is sent once. The URIs are checked as WithExtensions
// checks them: a bad one makes the call fail before sending. Every method
// that sends a request uses it.
func Extensions(uris ...string) CallOption {
	return callOption(func(c *callConfig) error {
		if err := checkExtensionURIs(uris); err != nil {
			return err
		}
		c.extensions = appendUnique(c.extensions, uris...)
		return nil
	})
}

// maxExtensionURI bounds the length of one extension URI, in bytes.
const maxExtensionURI = 2048

// checkExtensionURIs refuses a URI the extensions header cannot carry
// (checkExtensionURI).
func checkExtensionURIs(uris []string) error {
	for _, u := range uris {
		if err := checkExtensionURI(u); err != nil {
			return err
		}
	}
	return nil
}

// checkExtensionURI refuses an extension URI that is empty, longer than
// maxExtensionURI, holds a byte outside printable ASCII (a space, a
// control character, which could end the header line) or a comma (the
// field's separator), or is not an absolute URI.
func checkExtensionURI(uri string) error {
	switch {
	case uri == "":
		return fmt.Errorf("a2a: empty extension URI")
	case len(uri) > maxExtensionURI:
		return fmt.Errorf("a2a: extension URI of %d bytes, above %d", len(uri), maxExtensionURI)
	}
	for i := 0; i < len(uri); i++ {
		switch b := uri[i]; {
		case b <= ' ' || b >= 0x7f:
			return fmt.Errorf("a2a: extension URI %q holds a space, a control character or a non-ASCII byte", uri)
		case b == ',':
			return fmt.Errorf("a2a: extension URI %q holds a comma, the header's separator", uri)
		}
	}
	if u, err := url.Parse(uri); err != nil || u.Scheme == "" || u.Opaque == "" && u.Host == "" && u.Path == "" {
		return fmt.Errorf("a2a: extension URI %q is not an absolute URI", uri)
	}
	return nil
}

// appendUnique appends to list each of add not already in it, in order.
func appendUnique(list []string, add ...string) []string {
	for _, s := range add {
		if !slices.Contains(list, s) {
			list = append(list, s)
		}
	}
	return list
}
