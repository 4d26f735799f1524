package cardsig

import (
	"context"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
)

// BenchmarkVerifyCard: one card verified, its canonical forms included,
// per algorithm; and a card of 1,000 signatures none of which verifies
// (the cost MaxSignatures bounds).
func BenchmarkVerifyCard(b *testing.B) {
	t := &testing.T{}
	for _, alg := range []jose.SignatureAlgorithm{jose.ES256, jose.EdDSA, jose.RS256} {
		k := newKey(t, alg, "k1")
		card := decode(t, k.sign(t, testCard, FormSpec, nil))
		v, _ := NewVerifier(WithKeys(k.public))
		b.Run(string(alg), func(b *testing.B) {
			for b.Loop() {
				if got := v.VerifyCard(context.Background(), card); !got.Verified() {
					b.Fatal(got.Err)
				}
			}
		})
	}
	k := newKey(t, jose.ES256, "k1")
	other := newKey(t, jose.ES256, "k1")
	forged := decode(t, other.sign(t, testCard, FormSpec, nil)).Signatures[0]
	sigs := make([]string, 1000)
	for i := range sigs {
		sigs[i] = `{"protected":"` + forged.Protected + `","signature":"` + forged.Signature + `"}`
	}
	many := decode(t, strings.TrimSuffix(testCard, "}")+`,"signatures":[`+strings.Join(sigs, ",")+`]}`)
	v, _ := NewVerifier(WithKeys(k.public))
	b.Run("1000-signatures", func(b *testing.B) {
		for b.Loop() {
			if got := v.VerifyCard(context.Background(), many); got.Status != "invalid" {
				b.Fatal(got.Status)
			}
		}
	})
}
