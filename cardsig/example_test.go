package cardsig_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/go-jose/go-jose/v4"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/cardsig"
)

// An agent signs its card; a client resolves it with a verifier that
// trusts the agent's key, pinned to the agent's origin, and reads the
// result on the card.
func Example() {
	// The signer's side (the Ed25519 test key of RFC 8037 A.1: never use
	// it for anything real).
	seed, _ := base64.RawURLEncoding.DecodeString("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A")
	private := ed25519.NewKeyFromSeed(seed)
	var signed []byte
	agent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(signed)
	}))
	defer agent.Close()
	card := `{"name":"Echo Agent","description":"","version":"1.0.0",` +
		`"supportedInterfaces":[{"url":"` + agent.URL + `/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],` +
		`"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`
	signed, err := cardsig.Sign([]byte(card), jose.SigningKey{Algorithm: jose.EdDSA, Key: private}, "key-1")
	if err != nil {
		fmt.Println(err)
		return
	}

	// snippet: cardsig-verify
	// The client's side: the agent's public key, trusted for its origin.
	key := cardsig.Key{JWK: jose.JSONWebKey{Key: private.Public(), KeyID: "key-1"}}
	verifier, err := cardsig.NewVerifier(cardsig.WithOriginKeys(agent.URL, key))
	if err != nil {
		fmt.Println(err)
		return
	}
	got, err := a2a.ResolveAgentCard(context.Background(), agent.URL,
		a2a.WithCardVerifier(verifier), a2a.WithRequireVerifiedCard())
	if err != nil {
		fmt.Println(err) // errors.Is(err, a2a.ErrCardNotVerified)
		return
	}
	v := got.Verification()
	fmt.Println(v.Status, v.KeyID, v.Algorithm, v.Form)
	// snippet end

	// Output: verified key-1 EdDSA spec
}
