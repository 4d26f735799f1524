package a2a

import "slices"

// Choosing the binding: which of a card's interfaces a client calls, and
// in which binding (transport × protocol version) it speaks there. The
// rule is A2A v1.0 §8.3.2's (card order), narrowed by the caller's
// options (WithTransports, WithPreferredTransports, WithProtocolVersion);
// NewClientFromCard applies it and Client.Interface reports the result.

// JSONRPCInterface returns the card's JSON-RPC endpoint to call, and says
// which protocol version to speak there: the interface
// [NewClientFromCard] chooses with [WithTransports]([TransportJSONRPC]),
// by the rule [NewClientFromCard] documents (card order, A2A v1.0
// §8.3.2), among the entries of [AgentCard.Interfaces] whose binding is
// JSONRPC (in any case). A version may carry a patch ("0.3.0", "1.0.1");
// entries of other major versions are skipped.
//
// The entry is returned as the card gives it except for ProtocolVersion,
// which is the version to speak, "1.0" or "0.3" (send it as the
// A2A-Version header), and Tenant, which is what to send in every request
// (A2A v1.0 §8.3.2, AgentInterface (tenant)): empty for 0.3, which has
// no tenant (a 0.3 entry that names one is passed over). It returns [ErrNoSupportedInterface] when there is no such entry
// (for a nil card too).
func (c *AgentCard) JSONRPCInterface() (AgentInterface, error) {
	ch, err := chooseInterface(c, choiceRule{transports: []string{TransportJSONRPC}})
	if err != nil {
		return AgentInterface{}, err
	}
	in := ch.entry
	in.ProtocolVersion = ch.version
	if ch.version != ProtocolV10 {
		in.Tenant = ""
	}
	return in, nil
}

// choiceRule is what a client allows and wants of a card's interfaces.
type choiceRule struct {
	// transports are the bindings allowed, canonical (canonicalTransport),
	// the client's most wanted first; nil allows every one this package
	// speaks.
	transports []string
	// clientOrder: the first allowed transport the card offers wins, and
	// card order only within it; otherwise card order alone.
	clientOrder bool
	// version, when set (ProtocolV03 or ProtocolV10), allows entries of
	// that version alone.
	version string
	// selector: the client sends an agent selector (WithAgentID,
	// WithAgentCode), a member of the JSON-RPC envelope that HTTP+JSON
	// requests cannot carry.
	selector bool
}

// choice is an interface chosen on a card: the entry as the card gives it
// ([AgentCard.Interfaces]: ProtocolVersion possibly empty or with a patch,
// Tenant as given), and the binding to speak there, transport
// (canonical) in version (ProtocolV10 or ProtocolV03).
type choice struct {
	entry              AgentInterface
	transport, version string
}

// chooseInterface chooses the interface to call on card by rule: among
// the entries of card.Interfaces() with a URL, a binding in
// rule.transports (in any case) that this package speaks in the entry's
// version (spoken), the first in card order, or, with rule.clientOrder,
// the first of the earliest transport in rule.transports. An entry of a
// known version (dialectOf: 0.x or 1.x) is preferred to one without: an
// entry of a v1.0 card whose version is empty (which A2A v1.0 does not
// allow; read as 1.0, as a2a-python reads it), or of a v0.3 card whose
// version this package does not know (read as 0.3, which the card's shape
// is), is taken only when no other is left; with rule.selector, an
// HTTP+JSON entry is taken only when no JSON-RPC one is left (its
// requests have no envelope to carry the selector). Entries of a v1.0 card in
// another major version (2.0) are skipped, as are v0.3 entries that name
// a tenant (v0.3 has none to send, and a call without it may reach
// another tenant's agent). It returns
// ErrNoSupportedInterface when nothing is left.
func chooseInterface(card *AgentCard, rule choiceRule) (choice, error) {
	allowed := rule.transports
	if allowed == nil {
		allowed = []string{TransportJSONRPC, TransportHTTPJSON}
	}
	v10 := card.isV10()
	// rank orders the candidates, lowest first: an HTTP+JSON entry after
	// every other when the client has an agent selector; then an entry of
	// a known version before one without; then, in the client's order, by
	// the transport's place in its list. The first of the lowest wins.
	var chosen choice
	var best [3]int
	found := false
	for _, in := range card.Interfaces() {
		t, ok := canonicalTransport(in.ProtocolBinding)
		place := slices.Index(allowed, t)
		if in.URL == "" || !ok || place < 0 {
			continue
		}
		d, known := dialectOf(in.ProtocolVersion)
		switch {
		case known:
		case v10 && in.ProtocolVersion == "":
			d = ProtocolV10
		case !v10:
			d = ProtocolV03
		default:
			continue
		}
		if rule.version != "" && d != rule.version || !spoken(t, d) {
			continue
		}
		if d == ProtocolV03 && in.Tenant != "" {
			continue // v0.3 cannot carry the tenant; without it the call may reach another tenant's agent
		}
		var rank [3]int
		if rule.selector && t == TransportHTTPJSON {
			rank[0] = 1
		}
		if !known {
			rank[1] = 1
		}
		if rule.clientOrder {
			rank[2] = place
		}
		if !found || slices.Compare(rank[:], best[:]) < 0 {
			chosen, best, found = choice{entry: in, transport: t, version: d}, rank, true
		}
	}
	if !found {
		return choice{}, ErrNoSupportedInterface
	}
	return chosen, nil
}

// spoken reports whether this package speaks transport in version (a
// dialectOf result): whether bindingFor has a binding of that transport
// and version.
func spoken(transport, version string) bool {
	b := bindingFor(version, transport, "")
	return b.transport() == transport && b.version() == version
}
