package main

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// Which agent a command speaks to, and how: the card --agent-card names
// (read from a file, the agent's site, its card URL, or found from an
// endpoint URL) and the card's interface the flags choose; or, with
// --endpoint, the URL given in the version and transport named.

// client makes the client for the agent: from its card (--agent-card),
// the interface the flags choose; or at --endpoint. It reports the choice
// with --debug.
func (o *options) client(ctx context.Context) (*a2a.Client, error) {
	if o.endpoint != "" {
		return o.endpointClient()
	}
	if o.agentCard == "" {
		return nil, usagef("which agent? give -a/--agent-card with its host, card URL or card file (or A2ACLI_AGENT_CARD), or -e/--endpoint URL")
	}
	card, ref, err := o.readCard(ctx)
	if err != nil {
		return nil, err
	}
	o.card = card
	in, err := o.cardChoice(card, ref)
	if err != nil {
		return nil, err
	}
	return o.cardClient(card, in)
}

// cardClient is the client for in, the chosen interface of card, with
// the user's credentials as the card's schemes say.
func (o *options) cardClient(card *a2a.AgentCard, in a2a.AgentInterface) (*a2a.Client, error) {
	if err := o.selectorFits(in.ProtocolBinding); err != nil {
		return nil, err
	}
	creds, err := o.credentialOptions(card)
	if err != nil {
		return nil, err
	}
	opts := append(o.clientOptions(in.ProtocolVersion, in.ProtocolBinding), creds...)
	opts = append(opts, o.transportOptions()...)
	if o.tenant == "" && in.Tenant != "" {
		opts = append(opts, a2a.WithTenant(in.Tenant))
	}
	verify, err := o.verifierOptions()
	if err != nil {
		return nil, err
	}
	opts = append(opts, verify...)
	// On the card as read, so that NewClientFromCard checks the
	// entry's origin and the card's signature before any credential
	// goes; an endpoint URL not on the card (a gateway's) is called as
	// given.
	if slices.ContainsFunc(card.Interfaces(), func(e a2a.AgentInterface) bool { return e.URL == in.URL }) {
		pin := []a2a.Option{a2a.WithPreferredTransports(in.ProtocolBinding), a2a.WithProtocolVersion(in.ProtocolVersion)}
		c, err := a2a.NewClientFromCard(card, append(opts, pin...)...)
		if err != nil || c.Interface().URL == in.URL {
			return c, err
		}
	}
	return a2a.NewClient(in.URL, opts...)
}

// endpointClient is the client for --endpoint: the version
// --a2a-version names (1.0 by default), over the first --transport
// (JSON-RPC by default), no card read.
func (o *options) endpointClient() (*a2a.Client, error) {
	if err := o.checkURL("--endpoint", o.endpoint); err != nil {
		return nil, err
	}
	version := cmp.Or(o.a2aVersion, a2a.ProtocolV10)
	transport := cmp.Or(o.transport.first(), a2a.TransportJSONRPC)
	if o.usable != nil && !o.usable(version, transport) {
		return nil, usagef("%s is not in A2A v%s over %s; it is in v1.0 (--a2a-version 1.0) and in v0.3 over HTTP+JSON (--transport HTTP+JSON)", o.name, version, transport)
	}
	if o.tenant != "" && version != a2a.ProtocolV10 {
		return nil, usagef("--tenant needs A2A v1.0; --a2a-version is %s", version)
	}
	if err := o.selectorFits(transport); err != nil {
		return nil, err
	}
	creds, err := o.credentialOptions(nil)
	if err != nil {
		return nil, err
	}
	o.debugf("protocol: v%s over %s at --endpoint, no card read", version, transport)
	opts := append(o.clientOptions(version, transport), creds...)
	return a2a.NewClient(o.endpoint, append(opts, o.transportOptions()...)...)
}

// selectorFits refuses, as a usage error (nothing is sent), the gateway's
// agent selector (--agent-id, --agent-code) on a binding that has no place
// for it: HTTP+JSON, whose requests have no JSON-RPC envelope.
func (o *options) selectorFits(binding string) error {
	if (o.agentID != "" || o.agentCode != "") && strings.EqualFold(binding, a2a.TransportHTTPJSON) {
		return usagef("--agent-id and --agent-code put a member in the JSON-RPC request envelope, which HTTP+JSON requests do not have; " +
			"an HTTP+JSON agent behind a gateway is selected by its URL (or, in A2A v1.0, its tenant: --tenant)")
	}
	return nil
}

// cardChoice is the interface of card the command speaks to:
//   - for an endpoint URL (refEndpoint), among the card's interfaces at
//     that URL (sameEndpoint: a trailing slash aside) the first the flags
//     allow; when the URL is the card's interface for another binding
//     than those allowed, the card's entry for one of them on the same
//     origin (credentials go nowhere else); when the URL is not on the
//     card (a gateway), the card's choice of binding spoken at the URL;
//   - otherwise, the first interface in card order (--transport's order
//     first) whose version and binding the flags allow.
//
// The version is --a2a-version's, or the highest the card offers of
// 1.0: an agent whose card offers only v0.3 is spoken to in v0.3 only
// with --a2a-version 0.3 (the specification's VER_001).
func (o *options) cardChoice(card *a2a.AgentCard, ref agentRef) (a2a.AgentInterface, error) {
	keep := func(in a2a.AgentInterface) bool { return o.versionAllowed(card, in) && o.canUse(card, in) }
	// choose is the client's choice among the interfaces filter keeps:
	// by --transport's order, or (cardOrder) by the card's.
	choose := func(filter func(a2a.AgentInterface) bool, cardOrder bool) (a2a.AgentInterface, bool) {
		var opts []a2a.Option
		if !cardOrder {
			opts = o.choiceOptions()
		}
		c, err := a2a.NewClientFromCard(cardWith(card, filter), opts...)
		if err != nil {
			return a2a.AgentInterface{}, false
		}
		if cardOrder {
			o.debugf("protocol: the card offers no binding --transport names (%s) there: its own order decides", o.transport.String())
		}
		return c.Interface(), true
	}
	// --transport's bindings first, wherever the card has them (on the
	// URL's origin); only when it has none of them, the card's order (the
	// specification's TX_002).
	for _, cardOrder := range []bool{false, true} {
		if cardOrder && len(o.transport.names) == 0 {
			break // the same choice again
		}
		if ref.kind != refEndpoint {
			if in, ok := choose(keep, cardOrder); ok {
				o.debugf("protocol: v%s over %s at %s, the card's choice", in.ProtocolVersion, in.ProtocolBinding, o.shownURL(in.URL))
				return in, nil
			}
			continue
		}
		here := func(in a2a.AgentInterface) bool { return sameEndpoint(in.URL, ref.url) }
		if in, ok := choose(func(in a2a.AgentInterface) bool { return here(in) && keep(in) }, cardOrder); ok {
			o.debugf("protocol: v%s over %s, the card's interface for %s", in.ProtocolVersion, in.ProtocolBinding, o.shownURL(ref.url))
			return in, nil
		}
		if in, ok := choose(keep, cardOrder); ok {
			if !slices.ContainsFunc(card.Interfaces(), here) {
				o.debugf("protocol: v%s over %s, the card's choice, at %s (not on the card)", in.ProtocolVersion, in.ProtocolBinding, o.shownURL(ref.url))
				return a2a.AgentInterface{URL: ref.url, ProtocolVersion: in.ProtocolVersion, ProtocolBinding: in.ProtocolBinding}, nil
			}
			if siteOf(in.URL) != siteOf(ref.url) {
				return in, usagef("%s is not the agent's %s v%s interface: its card gives %s; give that URL", o.shownURL(ref.url), in.ProtocolBinding, in.ProtocolVersion, o.shownURL(in.URL))
			}
			o.debugf("protocol: v%s over %s, the card's interface at %s (not %s)", in.ProtocolVersion, in.ProtocolBinding, o.shownURL(in.URL), o.shownURL(ref.url))
			return in, nil
		}
	}
	return a2a.AgentInterface{}, o.noInterface(card)
}

// noInterface says why no interface of card fits the flags.
func (o *options) noInterface(card *a2a.AgentCard) error {
	var offered []string
	has03 := false
	for _, in := range card.Interfaces() {
		offered = append(offered, fmt.Sprintf("%s v%s", in.ProtocolBinding, cmp.Or(in.ProtocolVersion, "?")))
		if entryVersion(card, in) == a2a.ProtocolV03 && o.canUse(card, in) {
			has03 = true
		}
	}
	if o.a2aVersion == "" && has03 {
		return versionError{fmt.Sprintf("the agent's card offers A2A v0.3 only (%s), and a2a speaks v0.3 only when asked", strings.Join(offered, ", ")),
			"add --a2a-version 0.3 (or A2ACLI_A2A_VERSION=0.3 in .env)", ""}
	}
	if o.usable != nil {
		return versionError{fmt.Sprintf("no interface of the card %s (the card offers %s)", o.usableText, strings.Join(offered, ", ")),
			"an A2A v0.3 agent lists tasks over HTTP+JSON only; its card offers no such interface", "UnsupportedOperationError"}
	}
	return versionError{fmt.Sprintf("no interface of the card fits --a2a-version and --transport (the card offers %s)", strings.Join(offered, ", ")), "", ""}
}

// versionError is a refusal, before anything is sent, to speak to an
// agent in a version or binding the flags do not allow: the
// specification's VersionNotSupportedError.
type versionError struct{ msg, hint, code string } // code: the A2A error's name, VersionNotSupportedError when ""

func (e versionError) Error() string { return e.msg }

// versionAllowed reports whether --a2a-version allows in, an entry of
// card: its version, or 1.x when it names none.
func (o *options) versionAllowed(card *a2a.AgentCard, in a2a.AgentInterface) bool {
	return entryVersion(card, in) == cmp.Or(o.a2aVersion, a2a.ProtocolV10)
}

// canUse reports whether the command can use in, an interface of card:
// any, unless the command says otherwise (usable).
func (o *options) canUse(card *a2a.AgentCard, in a2a.AgentInterface) bool {
	return o.usable == nil || o.usable(entryVersion(card, in), in.ProtocolBinding)
}

// entryVersion is the version a client speaks at in, an interface of
// card: "1.0" for a 1.x entry, "0.3" for a 0.x one; on a v1.0 card
// (supportedInterfaces) an entry without a version is 1.0, as
// NewClientFromCard reads it; every entry of a v0.3 card is 0.3.
func entryVersion(card *a2a.AgentCard, in a2a.AgentInterface) string {
	if len(card.SupportedInterfaces) > 0 && (in.ProtocolVersion == "" || strings.HasPrefix(in.ProtocolVersion, "1.")) {
		return a2a.ProtocolV10
	}
	return a2a.ProtocolV03
}

// sameEndpoint reports whether URLs a and b name one endpoint: equal, or
// but for a trailing slash, or the case of their scheme and host.
func sameEndpoint(a, b string) bool {
	if a == b {
		return true
	}
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil {
		return false
	}
	return strings.EqualFold(ua.Scheme, ub.Scheme) && strings.EqualFold(ua.Host, ub.Host) && ua.User.String() == ub.User.String() &&
		strings.TrimSuffix(ua.EscapedPath(), "/") == strings.TrimSuffix(ub.EscapedPath(), "/") &&
		ua.RawQuery == ub.RawQuery && ua.Fragment == ub.Fragment
}

// choiceOptions are the SDK options that choose an interface on a card
// as the flags ask: --transport's order (with an agent selector and no
// --transport, JSON-RPC first: HTTP+JSON has no place for it) and
// --protocol's version.
func (o *options) choiceOptions() []a2a.Option {
	var opts []a2a.Option
	switch {
	case len(o.transport.names) > 0:
		opts = append(opts, a2a.WithPreferredTransports(o.transport.names...))
	case o.agentID != "" || o.agentCode != "":
		opts = append(opts, a2a.WithPreferredTransports(a2a.TransportJSONRPC, a2a.TransportHTTPJSON))
	}
	return opts
}

// cardWith is card with only the interfaces keep keeps, in the card's
// shape (a v1.0 card's list, or a v0.3 card's additional interfaces with
// its version), for NewClientFromCard to choose among.
func cardWith(card *a2a.AgentCard, keep func(a2a.AgentInterface) bool) *a2a.AgentCard {
	var ins []a2a.AgentInterface
	for _, in := range card.Interfaces() {
		if keep(in) {
			ins = append(ins, in)
		}
	}
	if len(card.SupportedInterfaces) > 0 {
		return &a2a.AgentCard{SupportedInterfaces: ins}
	}
	return &a2a.AgentCard{ProtocolVersion: card.ProtocolVersion, AdditionalInterfaces: ins}
}

// transportList is --transport: the bindings wanted, most wanted first,
// named in any case, repeated or comma-separated (A2ACLI_TRANSPORT);
// none for the card's order. GRPC is accepted and skipped: a2a does not
// speak it (--debug says so). A bad name is kept for check to report.
type transportList struct {
	names   []string // a2a.TransportJSONRPC, a2a.TransportHTTPJSON
	skipped []string // named but not spoken (GRPC)
	bad     string
}

func (l *transportList) String() string {
	if l == nil {
		return ""
	}
	return strings.Join(l.names, ",")
}

func (l *transportList) Set(v string) error {
	for name := range strings.SplitSeq(v, ",") {
		name = strings.TrimSpace(name)
		canon := ""
		switch {
		case strings.EqualFold(name, a2a.TransportJSONRPC) || strings.EqualFold(name, "json-rpc"):
			canon = a2a.TransportJSONRPC
		case strings.EqualFold(name, a2a.TransportHTTPJSON) || strings.EqualFold(name, "rest"):
			canon = a2a.TransportHTTPJSON
		case strings.EqualFold(name, "GRPC"):
			l.skipped = append(l.skipped, "GRPC")
			continue
		}
		switch {
		case l.bad != "":
		case canon == "":
			l.bad = fmt.Sprintf("%s: want JSONRPC or HTTP+JSON (GRPC is skipped: not spoken)", quote(name))
		case !slices.Contains(l.names, canon):
			l.names = append(l.names, canon)
		}
	}
	return nil
}

// first is the most wanted binding, or "".
func (l *transportList) first() string {
	if len(l.names) > 0 {
		return l.names[0]
	}
	return ""
}

// siteOf is the scheme and host of raw: where a site's card is.
func siteOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return u.Scheme + "://" + u.Host
}

// warnExtensions warns on stderr, once a command reads the agent's card,
// of each extension the card marks required that --extension does not
// request: the agent is likely to refuse the call (-32008). The URIs are
// the card's text, printed inert.
func (o *options) warnExtensions(card *a2a.AgentCard) {
	var missing []string
	for _, uri := range card.RequiredExtensions() {
		if !slices.Contains(o.extensions, uri) {
			missing = append(missing, uri)
		}
	}
	if len(missing) > 0 {
		o.errf("a2a: warning: the agent's card marks extensions required that --extension does not request (the agent may refuse the call): %s\n", strings.Join(missing, ", "))
	}
}
