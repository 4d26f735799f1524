// Package interop tests the a2a client against A2A servers written by
// others: the official Go SDK (github.com/a2aproject/a2a-go, in-process) and
// the official JavaScript SDK (@a2a-js/sdk, a Node child process under js/).
// It also validates every request the client sends, and the protocol
// objects in the root testdata/, against the official A2A v0.3.0 JSON
// schema. It is a separate module so the peers stay out of the root
// module's dependencies. Run it with:
//
//	cd interop && (cd js && npm ci) && go test ./...
package interop
