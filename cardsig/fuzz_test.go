package cardsig

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/go-jose/go-jose/v4"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// FuzzVerifyCard: whatever bytes a card holds, verification ends with one
// of the four outcomes (a reason with each failure), never a panic.
func FuzzVerifyCard(f *testing.F) {
	k := newKey(&testing.T{}, jose.EdDSA, "k1")
	f.Add([]byte(k.sign(&testing.T{}, testCard, FormSpec, nil)))
	f.Add([]byte(k.sign(&testing.T{}, a3Card, FormA2AJS, nil)))
	f.Add([]byte(testCard))
	f.Add([]byte(`{"name":"x","signatures":[{"protected":"e30","signature":""}]}`))
	v, err := NewVerifier(WithKeys(k.public), WithForms(FormA2AJS))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var card a2a.AgentCard
		if json.Unmarshal(raw, &card) != nil {
			return
		}
		got := v.VerifyCard(context.Background(), &card)
		switch got.Status {
		case a2a.CardSignatureVerified, a2a.CardSignatureAbsent:
		case a2a.CardSignatureUnverifiable, a2a.CardSignatureInvalid:
			if got.Err == nil {
				t.Fatalf("%s without a reason", got.Status)
			}
		default:
			t.Fatalf("status %q", got.Status)
		}
	})
}
