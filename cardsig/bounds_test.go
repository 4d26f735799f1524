package cardsig

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// wideCard is testCard padded with "xN":{} members to about size bytes
// (each a node to parse and canonicalise, the costliest bytes a card can
// hold), with MaxSignatures signatures by k, each naming kid.
func wideCard(t *testing.T, k testKey, kid string, size int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(testCard, "}"))
	for i := 0; b.Len() < size-4<<10; i++ {
		fmt.Fprintf(&b, `,"x%d":{}`, i)
	}
	card := b.String() + "}"
	signed := k.sign(t, card, FormSpec, map[string]any{"alg": string(k.alg), "kid": kid, "typ": "JOSE"})
	one := decode(t, signed).Signatures[0]
	sigs := make([]string, MaxSignatures)
	for i := range sigs {
		sigs[i] = fmt.Sprintf(`{"protected":%q,"signature":%q}`, one.Protected, one.Signature)
	}
	return strings.TrimSuffix(card, "}") + `,"signatures":[` + strings.Join(sigs, ",") + `]}`
}

// allocated returns the fewest bytes one of three calls of f allocated.
func allocated(f func()) uint64 {
	least := ^uint64(0)
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// TestVerifyMemoryBounded: a card at MaxCardBytes made of the costliest
// members, with MaxSignatures signatures, costs a bounded multiple of its
// size in bytes allocated: when no signature names a trusted key (no
// canonical form is computed) and when every one does and fails (both
// forms computed, once); a card past MaxCardBytes is unverifiable without
// being read.
func TestVerifyMemoryBounded(t *testing.T) {
	k := newKey(t, jose.ES256, "k1")
	other := newKey(t, jose.ES256, "k1") // same kid, another key: every signature fails
	for _, c := range []struct {
		name  string
		kid   string
		want  a2a.CardSignatureStatus
		ratio uint64
	}{
		{"untrusted kid", "nobody", a2a.CardSignatureUnverifiable, 40},
		{"trusted kid, wrong key", "k1", a2a.CardSignatureInvalid, 160},
	} {
		t.Run(c.name, func(t *testing.T) {
			card := decode(t, wideCard(t, other, c.kid, MaxCardBytes))
			size := uint64(len(card.Raw()))
			if size > MaxCardBytes || size < MaxCardBytes-8<<10 {
				t.Fatalf("card of %d bytes", size)
			}
			v := verifier(t, WithKeys(k.public))
			var got *a2a.CardVerification
			n := allocated(func() { got = v.VerifyCard(context.Background(), card) })
			expect(t, got, c.want, "")
			t.Logf("card %d bytes, %d members: %d bytes allocated (%.1f×)", size, strings.Count(string(card.Raw()), ":{}"), n, float64(n)/float64(size))
			if raceOn {
				return // the race detector's own allocations count too: the bound is checked without it
			}
			if n > c.ratio*size {
				t.Fatalf("%d bytes allocated for a card of %d: more than %d×", n, size, c.ratio)
			}
		})
	}
	t.Run("past MaxCardBytes", func(t *testing.T) {
		card := decode(t, wideCard(t, other, "k1", 4*MaxCardBytes))
		v := verifier(t, WithKeys(k.public))
		var got *a2a.CardVerification
		n := allocated(func() { got = v.VerifyCard(context.Background(), card) })
		expect(t, got, a2a.CardSignatureUnverifiable, "cardsig.MaxCardBytes")
		if n > 4<<10 && !raceOn {
			t.Fatalf("%d bytes allocated refusing a card past MaxCardBytes", n)
		}
	})
}

// TestUnencodedPayloadRefused: a protected header with b64 (RFC 7797),
// without crit, signed by a trusted key over the unencoded payload, is
// invalid: A2A v1.0 §8.4 signs base64url payloads only.
func TestUnencodedPayloadRefused(t *testing.T) {
	k := newKey(t, jose.EdDSA, "k1")
	tree, err := parse([]byte(testCard))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := canonical(project(tree, FormSpec))
	if err != nil {
		t.Fatal(err)
	}
	prot := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"EdDSA","kid":"k1","typ":"JOSE","b64":false}`))
	sig, err := k.signer.Sign(rand.Reader, append([]byte(prot+"."), payload...), crypto.Hash(0))
	if err != nil {
		t.Fatal(err)
	}
	card := addSignature(t, testCard, prot, base64.RawURLEncoding.EncodeToString(sig))
	expect(t, verifier(t, WithKeys(k.public)).VerifyCard(context.Background(), decode(t, card)), a2a.CardSignatureInvalid, "b64")
}

// TestKeysPerSignatureCapped: of the trusted keys sharing a kid, the
// first MaxKeysPerSignature are tried and no more: the signing key in
// that place verifies, one place later it is not tried.
func TestKeysPerSignatureCapped(t *testing.T) {
	k := newKey(t, jose.ES256, "k1")
	card := decode(t, k.sign(t, testCard, FormSpec, nil))
	decoys := make([]Key, MaxKeysPerSignature)
	for i := range decoys {
		decoys[i] = newKey(t, jose.ES256, "k1").public
	}
	last := append(append([]Key{}, decoys[:MaxKeysPerSignature-1]...), k.public)
	expect(t, verifier(t, WithKeys(last...)).VerifyCard(context.Background(), card), a2a.CardSignatureVerified, "")
	past := append(append([]Key{}, decoys...), k.public)
	expect(t, verifier(t, WithKeys(past...)).VerifyCard(context.Background(), card), a2a.CardSignatureInvalid, "does not verify")
	resolver := WithKeyResolver(KeyResolverFunc(func(context.Context, KeyRequest) ([]Key, error) { return past, nil }))
	expect(t, verifier(t, resolver).VerifyCard(context.Background(), card), a2a.CardSignatureInvalid, "does not verify")
}

// TestOptionsRefuseLooseInput: WithJKUHosts takes host[:port] only
// (no wildcard, a port from 1 to 65535); WithOriginKeys takes
// scheme://host[:port] only (no user, path, query or fragment).
func TestOptionsRefuseLooseInput(t *testing.T) {
	k := newKey(t, jose.EdDSA, "ed")
	for _, h := range []string{"*.example", "*", "x:99999", "x:0", "x:", "x:-1", "user@x", "x/p", "x?q", "a b", "x_y.example"} {
		if _, err := NewVerifier(WithJKUHosts(h)); err == nil {
			t.Errorf("WithJKUHosts(%q) accepted", h)
		}
	}
	for _, h := range []string{"keys.example", "keys.example:8443", "127.0.0.1:1", "[::1]:65535", "xn--bcher-kva.example"} {
		if _, err := NewVerifier(WithJKUHosts(h)); err != nil {
			t.Errorf("WithJKUHosts(%q): %v", h, err)
		}
	}
	for _, o := range []string{"https://user@a.example", "https://a.example/path", "https://a.example?q", "https://a.example/?q=1", "https://a.example#f", "https://*.example", "https://a.example:99999", "ftp://a.example"} {
		if _, err := NewVerifier(WithOriginKeys(o, k.public)); err == nil {
			t.Errorf("WithOriginKeys(%q) accepted", o)
		}
	}
	for _, o := range []string{"https://a.example", "https://a.example/", "http://127.0.0.1:8080"} {
		if _, err := NewVerifier(WithOriginKeys(o, k.public)); err != nil {
			t.Errorf("WithOriginKeys(%q): %v", o, err)
		}
	}
}

// jkuCard is testCard with MaxSignatures signatures by k, each naming
// its own jku path at base.
func jkuCard(t *testing.T, k testKey, base string) *a2a.AgentCard {
	t.Helper()
	card := testCard
	for i := range MaxSignatures {
		card = k.sign(t, card, FormSpec, map[string]any{"alg": "ES256", "kid": "jk", "typ": "JOSE", "jku": fmt.Sprintf("%s/k%d.json", base, i)})
	}
	return decode(t, card)
}

// TestJKUBudget: a card whose MaxSignatures signatures each name their
// own jku on an allowed host makes at most jkuPerCard fetches when each
// fails at once, and one when the host stalls (it spends the time all
// fetches of a card share), with context.Background(); unverifiable.
func TestJKUBudget(t *testing.T) {
	k := newKey(t, jose.ES256, "jk")
	var failing, stalling atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/stall/") {
			stalling.Add(1)
			<-r.Context().Done()
			return
		}
		failing.Add(1)
		http.NotFound(w, r)
	}))
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	host := strings.TrimPrefix(srv.URL, "https://")

	v := verifier(t, WithJKUHosts(host), WithJKURootCAs(pool))
	expect(t, v.VerifyCard(context.Background(), jkuCard(t, k, srv.URL+"/fail")), a2a.CardSignatureUnverifiable, "HTTP 404")
	if n := failing.Load(); n != jkuPerCard {
		t.Fatalf("%d jku fetches for one card, want %d", n, jkuPerCard)
	}

	v = verifier(t, WithJKUHosts(host), WithJKURootCAs(pool))
	v.jku.timeout = 300 * time.Millisecond // the budget, shortened: the count is what is checked
	expect(t, v.VerifyCard(context.Background(), jkuCard(t, k, srv.URL+"/stall")), a2a.CardSignatureUnverifiable, "key unreachable at jku")
	if n := stalling.Load(); n != 1 {
		t.Fatalf("%d jku fetches to a stalling host for one card, want 1", n)
	}
}
