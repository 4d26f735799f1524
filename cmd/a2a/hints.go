package main

import (
	"errors"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The package's errors say what a Go caller can do ("make the client with
// WithTransports(TransportJSONRPC)"); a command-line user has flags
// instead. inFlags writes the one as the other.

// inFlags is text, the text of one of the package's errors, with each Go
// option or constructor its hints name written as the flag that does the
// same: "use --transport jsonrpc" for "make the client with
// WithTransports(TransportJSONRPC)". TestErrorsSpeakFlags holds it to
// every such name among the package's error texts.
func inFlags(text string) string { return goHints.Replace(text) }

// goHints are the package's Go words and their command-line equivalents,
// the longer of two that start alike first (a Replacer takes the first
// that matches).
var goHints = strings.NewReplacer(
	// A v0.3 HTTP+JSON agent exists too: the transport alone says it.
	"make the client with WithTransports(TransportHTTPJSON) and WithProtocolVersion(ProtocolV10)", "use --transport http+json",
	"make the client with ", "use ",
	"or give it the URL", "or give the URL",
	"or from its agent card with NewClientFromCard", "or --protocol auto to read its card",
	"WithTransports(TransportJSONRPC)", "--transport jsonrpc",
	"WithTransports(TransportHTTPJSON)", "--transport http+json",
	"WithTransports", "--transport",
	"WithPreferredTransports", "--transport",
	"WithProtocolVersion(ProtocolV10)", "--protocol 1.0",
	"WithProtocolVersion(ProtocolV03)", "--protocol 0.3",
	"WithProtocolVersion", "--protocol",
	"NewClientFromCard", "--protocol auto",
	"WithAgentID/WithAgentCode", "--agent-id/--agent-code",
	"WithAgentID", "--agent-id",
	"WithAgentCode", "--agent-code",
	"WithTenant", "--tenant",
	"WithExtensions or Extensions", "--extension",
	"WithExtensions", "--extension",
	"WithRequireVerifiedCard", "--require-signed-card",
	"WithCardVerifier", "--card-keys",
	// Not met on the command line: it reads a card for its binding and
	// sends credentials only to the URL given or, when the card says
	// the binding asked for is elsewhere, to its URL on the same origin
	// (cardChoice); and it makes its clients with NewClient.
	" and hosts given to WithTrustedHosts", "",
	"; make one with NewClient", "",
)

// hint prints, after err, what the command line can do about it: for an
// agent that requires extensions (-32008), the --extension flags that
// activate those it named; for a refusal of the version spoken (or a
// bare -32601 in v1.0, which may be one), the --protocol to try, never
// the one already in use (--protocol auto, its card read or not).
func (o *options) hint(err error) {
	var rpcErr *a2a.RPCError
	if !errors.As(err, &rpcErr) && !errors.Is(err, a2a.ErrVersionMismatch) {
		return
	}
	if rpcErr != nil && errors.Is(err, a2a.ErrExtensionSupportRequired) {
		if len(rpcErr.RequiredExtensions) == 0 {
			o.errf("(the agent named no extension; `a2a card` lists those its card marks required: add --extension URI for each the command may activate)\n")
			return
		}
		o.errf("(to activate the extensions the agent requires, add --extension %s)\n", strings.Join(rpcErr.RequiredExtensions, " --extension "))
		return
	}
	other := map[string]string{a2a.ProtocolV03: a2a.ProtocolV10, a2a.ProtocolV10: a2a.ProtocolV03}[o.spoken]
	versionHint := errors.Is(err, a2a.ErrVersionMismatch) || rpcErr != nil && rpcErr.Code == -32601 && rpcErr.Hint != ""
	switch {
	case !versionHint || other == "":
	case o.usable != nil && !o.usable(other, o.spokenTransport):
		// tasks, spoken to in v1.0 over JSON-RPC: v0.3 lists over HTTP+JSON alone.
		o.errf("(spoken to in A2A v%s over %s; if the agent speaks v%s, it lists tasks over HTTP+JSON alone: --protocol %s --transport http+json)\n",
			o.spoken, o.spokenTransport, other, other)
	case o.askedAgain:
		o.errf("(asked in A2A v0.3, then in v1.0: the agent took neither)\n")
	case o.protocol == "auto" && o.spokenByCard:
		o.errf("(spoken to in A2A v%s, as the agent's card says; if the agent speaks v%s nonetheless, add --protocol %s)\n", o.spoken, other, other)
	case o.protocol == "auto":
		o.errf("(spoken to in A2A v%s, no card saying which; the agent may speak v%s: add --protocol %s)\n", o.spoken, other, other)
	default:
		o.errf("(spoken to in A2A v%s; the agent may speak v%s: add --protocol %s, or --protocol auto to read its card)\n", o.spoken, other, other)
	}
}
