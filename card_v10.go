package a2a

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Agent cards of both versions: the card's endpoints whatever its shape
// (Interfaces), and the choice of the JSON-RPC endpoint and the dialect to
// speak there (chooseJSONRPC).

// isV10 reports whether c is an A2A v1.0 card, or a dual one: its
// supportedInterfaces (A2A v1.0 §4.4, AgentCard (supportedInterfaces)),
// which replaced v0.3's url, is present and not empty. The official SDKs
// test the same, and then read SupportedInterfaces alone.
func (c *AgentCard) isV10() bool {
	return c != nil && len(c.SupportedInterfaces) > 0
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

// JSONRPCInterface returns the card's JSON-RPC endpoint to call, and says
// which protocol version to speak there. Among the entries of
// [AgentCard.Interfaces] with a URL whose binding is JSONRPC (in any
// case), it prefers an A2A v1.0 one (protocol version 1.x) to an A2A v0.3
// one (0.x), as the official SDKs do, and otherwise takes card order, the
// agent's preference (A2A v1.0 §8.3.1, §8.3.2). A version may
// carry a patch ("0.3.0", "1.0.1"); entries of other major versions are
// skipped. An entry whose version is empty, which A2A v1.0 does not allow,
// is taken only when no entry of a known version is left: as 1.0 on a v1.0
// card (as a2a-python reads it) and as 0.3 on a v0.3 card (whose
// endpoints are v0.3 by the card's shape, as are those of a v0.3 card
// with a version this package does not know). For a v0.3 card the URL is
// [AgentCard.JSONRPCURL]'s as it always was.
//
// The entry is returned as the card gives it except for ProtocolVersion,
// which is the version to speak, "1.0" or "0.3" (send it as the
// A2A-Version header), and Tenant, which is what to send in every request
// (A2A v1.0 §8.3.2, AgentInterface (tenant)): empty for 0.3, which has
// no tenant. It returns [ErrNoJSONRPCInterface] when there is no such entry
// (for a nil card too).
func (c *AgentCard) JSONRPCInterface() (AgentInterface, error) {
	in, dialect, err := chooseJSONRPC(c)
	if err != nil {
		return AgentInterface{}, err
	}
	in.ProtocolVersion = dialect
	if dialect != dialect10 {
		in.Tenant = ""
	}
	return in, nil
}

// The dialects of the JSON-RPC binding: the A2A versions a client speaks,
// as sent in the A2A-Version header.
const (
	dialect10 = "1.0"
	dialect03 = "0.3"
)

// chooseJSONRPC chooses the JSON-RPC endpoint to call on card, by the rule
// [AgentCard.JSONRPCInterface] documents, and returns it as the card gives
// it ([AgentCard.Interfaces]: ProtocolVersion possibly empty or with a
// patch, Tenant as given) with the dialect to speak there, dialect10 or
// dialect03. It returns ErrNoJSONRPCInterface when there is none.
func chooseJSONRPC(card *AgentCard) (AgentInterface, string, error) {
	// rank: 3 a 1.x entry, 2 a 0.x entry, 1 an entry of unknown version
	// (on a v0.3 card, of any version not 0.x or 1.x), 0 none. The first
	// of the highest rank wins.
	var chosen AgentInterface
	var dialect string
	best := 0
	v10 := card.isV10()
	for _, in := range card.Interfaces() {
		if in.URL == "" || !strings.EqualFold(in.ProtocolBinding, TransportJSONRPC) {
			continue
		}
		d, known := dialectOf(in.ProtocolVersion)
		rank := 0
		switch {
		case known && d == dialect10:
			rank = 3
		case known:
			rank = 2
		case v10 && in.ProtocolVersion == "":
			rank, d = 1, dialect10
		case !v10:
			rank, d = 1, dialect03
		}
		if rank > best {
			chosen, dialect, best = in, d, rank
		}
	}
	if best == 0 {
		return AgentInterface{}, "", ErrNoJSONRPCInterface
	}
	return chosen, dialect, nil
}

// dialectOf returns the dialect that speaks protocol version v,
// "Major.Minor" with an optional ".Patch", all decimal: dialect10 for
// major 1, dialect03 for major 0 (0.3 is the first version with this
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
		return dialect10, true
	case major == 0:
		return dialect03, true
	}
	return "", false
}
