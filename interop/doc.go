// Package interop tests the a2a client against A2A servers written by
// others: the official Go SDK on A2A v0.3 (github.com/a2aproject/a2a-go,
// in-process) and on A2A v1.0 (github.com/a2aproject/a2a-go/v2, in-process),
// and the official JavaScript SDK (@a2a-js/sdk, a Node child process under
// js/). It validates every v0.3 request the client sends, and the protocol
// objects in the root testdata/, against the official A2A v0.3.0 JSON
// schema, and every v1.0 request against the v1.0 proto (a2a-go v2's
// generated types, read with protojson). Over HTTP+JSON (a2a-go v2's REST
// handlers, v1.0 and its v0.3 compat layer) every request the peer
// receives is checked against the proto's google.api.http rules, read
// from the compiled descriptors. It is a separate module so the
// peers stay out of the root module's dependencies. Run it with:
//
//	cd interop && (cd js && npm ci) && go test ./...
package interop
