package main

import "strings"

// The package's errors say what a Go caller can do ("make the client with
// WithTransports(TransportJSONRPC)"); a command-line user has flags
// instead. inFlags writes the one as the other.

// inFlags is text, the text of one of the package's errors, with each Go
// option or constructor its hints name written as the flag that does the
// same: "use --transport JSONRPC" for "make the client with
// WithTransports(TransportJSONRPC)". TestErrorsSpeakFlags holds it to
// every such name among the package's error texts.
func inFlags(text string) string { return goHints.Replace(text) }

// goHints are the package's Go words and their command-line equivalents,
// the longer of two that start alike first (a Replacer takes the first
// that matches).
var goHints = strings.NewReplacer(
	// A v0.3 HTTP+JSON agent exists too: the transport alone says it.
	"make the client with WithTransports(TransportHTTPJSON) and WithProtocolVersion(ProtocolV10)", "use --transport HTTP+JSON",
	"make the client with ", "use ",
	"or give it the URL", "or give the URL",
	"or from its agent card with NewClientFromCard", "or -a/--agent-card to read its card",
	"WithTransports(TransportJSONRPC)", "--transport JSONRPC",
	"WithTransports(TransportHTTPJSON)", "--transport HTTP+JSON",
	"WithTransports", "--transport",
	"WithPreferredTransports", "--transport",
	"WithProtocolVersion(ProtocolV10)", "--a2a-version 1.0",
	"WithProtocolVersion(ProtocolV03)", "--a2a-version 0.3",
	"WithProtocolVersion", "--a2a-version",
	"NewClientFromCard", "-a/--agent-card",
	"WithAgentID/WithAgentCode", "--agent-id/--agent-code",
	"WithAgentID", "--agent-id",
	"WithAgentCode", "--agent-code",
	"WithTenant", "--tenant",
	"WithExtensions or Extensions", "--extension",
	"WithExtensions", "--extension",
	"WithRequireVerifiedCard", "--require-signed-card",
	"WithCardVerifier", "--card-keys",
	"WithHeader", "--svc-param",
	"WithAPIKey", "--api-key",
	"WithBearerToken", "--bearer",
	// Not met on the command line: it reads a card for its binding and
	// sends credentials only to the card's interface or the URL given;
	// and it makes its clients itself.
	" and hosts given to WithTrustedHosts", "",
	"; make one with NewClient", "",
)
