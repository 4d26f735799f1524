package cardsig

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/go-jose/go-jose/v4"
)

// Sign returns card (an agent card's JSON) with one more signature in its
// signatures member: a JWS with detached payload over the spec's canonical
// form ([FormSpec]) of card without its signatures, made with key under a
// protected header {"alg", "kid", "typ":"JOSE"} (A2A v1.0 §8.4.2). The
// members keep their order; whitespace is not kept. It is for agents that
// serve signed cards and for tests. It returns an error when card is not
// a JSON object (or repeats a member), kid is empty, or go-jose cannot
// sign with key (an HMAC or "none" algorithm is refused).
func Sign(card []byte, key jose.SigningKey, kid string) ([]byte, error) {
	if kid == "" {
		return nil, errors.New("cardsig: Sign: empty kid")
	}
	if !contains(algorithms, string(key.Algorithm)) {
		return nil, fmt.Errorf("cardsig: Sign: algorithm %q is not one this package allows", key.Algorithm)
	}
	tree, err := parse(card)
	if err != nil {
		return nil, fmt.Errorf("cardsig: Sign: %w", err)
	}
	if tree.kind != '{' {
		return nil, errors.New("cardsig: Sign: card is not a JSON object")
	}
	payload, err := canonical(project(tree, FormSpec))
	if err != nil {
		return nil, fmt.Errorf("cardsig: Sign: %w", err)
	}
	signer, err := jose.NewSigner(key, (&jose.SignerOptions{}).WithType("JOSE").WithHeader("kid", kid))
	if err != nil {
		return nil, fmt.Errorf("cardsig: Sign: %w", err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return nil, fmt.Errorf("cardsig: Sign: %w", err)
	}
	compact, err := jws.DetachedCompactSerialize()
	if err != nil {
		return nil, fmt.Errorf("cardsig: Sign: %w", err)
	}
	prot, sig, _ := strings.Cut(compact, "..")
	entry := &node{kind: '{', members: []member{
		{"protected", &node{kind: '"', text: prot}},
		{"signature", &node{kind: '"', text: sig}},
	}}
	if sigs := tree.get("signatures"); sigs != nil && sigs.kind == '[' {
		sigs.elems = append(sigs.elems, entry)
	} else {
		kept := tree.members[:0]
		for _, m := range tree.members {
			if m.name != "signatures" {
				kept = append(kept, m)
			}
		}
		tree.members = append(kept, member{"signatures", &node{kind: '[', elems: []*node{entry}}})
	}
	var b bytes.Buffer
	tree.write(&b)
	return b.Bytes(), nil
}
