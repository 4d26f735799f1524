package main

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// Which binding and endpoint a command speaks to: the client made from
// --protocol and --transport, or from the card's interface for the URL
// given (cardChoice), and the --transport list.

// client makes the client for endpoint in the version --protocol says,
// over the transport --transport says. With --protocol auto, or several
// transports to choose among, it takes the binding (and the tenant) of
// the card's interface for this URL (cardChoice), at the URL the card
// gives it; otherwise, or without a card, the version named or v0.3, over
// the transport named or JSON-RPC, at endpoint. It reports the choice
// with -v.
func (o *options) client(ctx context.Context, endpoint string) (*a2a.Client, error) {
	if err := o.checkURL(endpoint); err != nil {
		return nil, err
	}
	in := a2a.AgentInterface{ProtocolVersion: o.protocol, ProtocolBinding: o.transport.only()}
	if in.ProtocolVersion == "auto" || len(o.transport.names) > 1 {
		var err error
		if in, err = o.cardChoice(ctx, endpoint); err != nil {
			return nil, err
		}
	}
	version := in.ProtocolVersion
	if o.tenant != "" && version != a2a.ProtocolV10 {
		return nil, usagef("--tenant needs an A2A v1.0 endpoint; this one speaks v%s (--protocol 1.0 to insist)", version)
	}
	opts := o.clientOptions(version, in.ProtocolBinding)
	if o.tenant == "" && in.Tenant != "" {
		opts = append(opts, a2a.WithTenant(in.Tenant))
	}
	return a2a.NewClient(cmp.Or(in.URL, endpoint), opts...)
}

// cardChoice is the interface the agent's card gives endpoint, its
// binding and version chosen as NewClientFromCard chooses (card order;
// --transport's order first when it names transports; --protocol's
// version alone when it names one; only those the command can use,
// usable), read by ResolveAgentCard from endpoint (its path, the path's
// prefixes, then the site's root):
//   - among the card's interfaces at this URL (sameEndpoint: a trailing
//     slash aside), the entry chosen, with its URL and tenant;
//   - when endpoint is one of the card's interfaces but none there fits
//     (--transport jsonrpc at its HTTP+JSON URL), the entry the card
//     gives the binding asked for, with its URL and tenant, when it is
//     on endpoint's origin (the credentials go nowhere else); on another
//     origin, a usage error naming its URL;
//   - when endpoint is not on the card (a gateway's URL), the card's
//     choice of binding and version, spoken at endpoint (URL empty),
//     without a tenant.
//
// Without a card, or one with nothing that fits, it is the version named
// (or the command's, autoVersion) or v0.3, over the first transport
// named or JSON-RPC, at endpoint.
func (o *options) cardChoice(ctx context.Context, endpoint string) (a2a.AgentInterface, error) {
	ctx, cancel := context.WithTimeout(ctx, min(o.timeout, 10*time.Second))
	defer cancel()
	opts := append(o.clientOptions("", ""), a2a.WithMaxRetries(0))
	what := "no agent card"
	// One read: ResolveAgentCard tries the endpoint's path, its prefixes
	// and the site's root in turn.
	if card, err := a2a.ResolveAgentCard(ctx, endpoint, opts...); err == nil {
		o.warnExtensions(card)
		what = "no interface of the card fits"
		if o.usable != nil {
			what = "no interface of the card " + o.usableText
		}
		here := func(in a2a.AgentInterface) bool { return sameEndpoint(in.URL, endpoint) }
		if c, err := a2a.NewClientFromCard(cardWith(card, func(in a2a.AgentInterface) bool { return here(in) && o.canUse(card, in) }), o.choiceOptions()...); err == nil {
			in := c.Interface()
			at := ""
			if in.URL != endpoint {
				at = ", at " + o.shownURL(in.URL) + " as the card writes it"
			}
			o.debugf("protocol: v%s, from the card's interface for %s (%s)%s", in.ProtocolVersion, o.shownURL(endpoint), in.ProtocolBinding, at)
			o.spokenByCard = true
			return in, nil
		}
		if c, err := a2a.NewClientFromCard(cardWith(card, func(in a2a.AgentInterface) bool { return o.canUse(card, in) }), o.choiceOptions()...); err == nil {
			in := c.Interface()
			o.spokenByCard = true
			if !slices.ContainsFunc(card.Interfaces(), here) {
				o.debugf("protocol: v%s, the card's choice (%s)", in.ProtocolVersion, in.ProtocolBinding)
				return a2a.AgentInterface{ProtocolVersion: in.ProtocolVersion, ProtocolBinding: in.ProtocolBinding}, nil
			}
			// endpoint is the card's interface for another binding than the
			// one asked for, which the card serves at in.URL.
			if siteOf(in.URL) != siteOf(endpoint) {
				return in, usagef("%s is not the agent's %s v%s interface: its card gives %s; give that URL", o.shownURL(endpoint), in.ProtocolBinding, in.ProtocolVersion, o.shownURL(in.URL))
			}
			o.debugf("protocol: v%s, the card's %s interface, at %s (not %s)", in.ProtocolVersion, in.ProtocolBinding, o.shownURL(in.URL), o.shownURL(endpoint))
			return in, nil
		}
	}
	in := a2a.AgentInterface{ProtocolVersion: or(o.autoVersion, a2a.ProtocolV03), ProtocolBinding: a2a.TransportJSONRPC}
	if o.protocol != "auto" {
		in.ProtocolVersion = o.protocol
	}
	if len(o.transport.names) > 0 {
		in.ProtocolBinding = o.transport.names[0]
	}
	o.debugf("protocol: v%s (%s; %s)", in.ProtocolVersion, what, in.ProtocolBinding)
	return in, nil
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
	if o.protocol != "auto" {
		opts = append(opts, a2a.WithProtocolVersion(o.protocol))
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

// transportList is --transport: the transports to speak, most wanted
// first, named in any case, comma-separated or the flag repeated; none
// for auto (the card's choice). The command line replaces the
// environment's list. A bad name is kept for check to report.
type transportList struct {
	names   []string // a2a.TransportJSONRPC, a2a.TransportHTTPJSON
	bad     string
	flagged bool // set from the command line
}

func (l *transportList) String() string {
	if l == nil || len(l.names) == 0 {
		return "auto"
	}
	return strings.Join(l.names, ",")
}

func (l *transportList) Set(v string) error {
	if !l.flagged {
		*l = transportList{flagged: true}
	}
	l.add(v)
	return nil
}

// fromEnv sets the list from A2A_TRANSPORT.
func (l *transportList) fromEnv(v string) {
	if v != "" {
		l.add(v)
	}
}

func (l *transportList) add(v string) {
	for name := range strings.SplitSeq(v, ",") {
		name = strings.TrimSpace(name)
		canon := ""
		switch {
		case strings.EqualFold(name, "auto"):
			if l.bad == "" && (len(l.names) > 0 || strings.Contains(v, ",")) {
				l.bad = "auto stands alone: it is the card's choice"
			}
			continue
		case strings.EqualFold(name, a2a.TransportJSONRPC):
			canon = a2a.TransportJSONRPC
		case strings.EqualFold(name, a2a.TransportHTTPJSON):
			canon = a2a.TransportHTTPJSON
		}
		switch {
		case l.bad != "":
		case canon == "":
			l.bad = fmt.Sprintf("%s: want auto, or jsonrpc and http+json in the order wanted", quote(name))
		case slices.Contains(l.names, canon):
			l.bad = fmt.Sprintf("%s is named twice", quote(name))
		default:
			l.names = append(l.names, canon)
		}
	}
}

// only is the one transport named, or "" for auto or several.
func (l *transportList) only() string {
	if len(l.names) == 1 {
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
