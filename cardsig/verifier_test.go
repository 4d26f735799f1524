package cardsig

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// testCard is a v1.0 card with a member of every presence.
const testCard = `{"name":"Signed Agent","description":"signs its card","version":"2.0.0",
 "supportedInterfaces":[{"url":"https://agent.example/a2a/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"},
                        {"url":"https://agent.example/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}],
 "provider":{"organization":"Example","url":"https://example.com"},
 "capabilities":{"streaming":true,"pushNotifications":false},
 "securitySchemes":{"bearer":{"httpAuthSecurityScheme":{"scheme":"Bearer"}}},
 "securityRequirements":[{"schemes":{"bearer":{"list":[]}}}],
 "defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
 "skills":[{"id":"s","name":"S","description":"d","tags":["t"]}]}`

// testKey is a key pair of one algorithm.
type testKey struct {
	alg    jose.SignatureAlgorithm
	signer crypto.Signer
	public Key
}

func newKey(t *testing.T, alg jose.SignatureAlgorithm, kid string) testKey {
	t.Helper()
	var s crypto.Signer
	var err error
	switch alg {
	case jose.ES256:
		s, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case jose.ES384:
		s, err = ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	case jose.ES512:
		s, err = ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	case jose.EdDSA:
		_, s, err = ed25519.GenerateKey(rand.Reader)
	default:
		s, err = rsa.GenerateKey(rand.Reader, 2048)
	}
	if err != nil {
		t.Fatal(err)
	}
	return testKey{alg: alg, signer: s, public: Key{JWK: jose.JSONWebKey{Key: s.Public(), KeyID: kid}}}
}

// sign returns card signed by k over form with the protected header hdr
// (nil: alg, kid, typ JOSE).
func (k testKey) sign(t *testing.T, card string, form Form, hdr map[string]any) string {
	t.Helper()
	tree, err := parse([]byte(card))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := canonical(project(tree, form))
	if err != nil {
		t.Fatal(err)
	}
	if hdr == nil {
		hdr = map[string]any{"alg": string(k.alg), "kid": k.public.JWK.KeyID, "typ": "JOSE"}
	}
	opts := &jose.SignerOptions{}
	for name, v := range hdr {
		if name != "alg" {
			opts = opts.WithHeader(jose.HeaderKey(name), v)
		}
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: k.alg, Key: k.signer}, opts)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	compact, err := jws.DetachedCompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	prot, sig, _ := strings.Cut(compact, "..")
	return addSignature(t, card, prot, sig)
}

// addSignature appends {protected, signature} to card's signatures.
func addSignature(t *testing.T, card, prot, sig string) string {
	t.Helper()
	tree, err := parse([]byte(card))
	if err != nil {
		t.Fatal(err)
	}
	entry := &node{kind: '{', members: []member{{"protected", &node{kind: '"', text: prot}}, {"signature", &node{kind: '"', text: sig}}}}
	if s := tree.get("signatures"); s != nil {
		s.elems = append(s.elems, entry)
	} else {
		tree.members = append(tree.members, member{"signatures", &node{kind: '[', elems: []*node{entry}}})
	}
	var b bytes.Buffer
	tree.write(&b)
	return b.String()
}

// decode reads card as a2a.AgentCard, keeping its bytes.
func decode(t *testing.T, card string) *a2a.AgentCard {
	t.Helper()
	var c a2a.AgentCard
	if err := json.Unmarshal([]byte(card), &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

func verifier(t *testing.T, opts ...Option) *Verifier {
	t.Helper()
	v, err := NewVerifier(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func expect(t *testing.T, got *a2a.CardVerification, want a2a.CardSignatureStatus, errHas string) {
	t.Helper()
	if got.Status != want {
		t.Fatalf("status %s (%v), want %s", got.Status, got.Err, want)
	}
	if errHas != "" && (got.Err == nil || !strings.Contains(got.Err.Error(), errHas)) {
		t.Fatalf("error %v, want one containing %q", got.Err, errHas)
	}
}

// TestVerifyEveryAlgorithm: a card signed with each allowed algorithm,
// with keys generated here, verifies by that kid and alg over the spec
// form, and nothing is unsigned.
func TestVerifyEveryAlgorithm(t *testing.T) {
	for _, alg := range []jose.SignatureAlgorithm{jose.ES256, jose.ES384, jose.ES512, jose.EdDSA, jose.RS256, jose.PS256} {
		t.Run(string(alg), func(t *testing.T) {
			k := newKey(t, alg, "k-"+string(alg))
			card := k.sign(t, testCard, FormSpec, nil)
			got := verifier(t, WithKeys(k.public)).VerifyCard(context.Background(), decode(t, card))
			expect(t, got, a2a.CardSignatureVerified, "")
			if got.KeyID != "k-"+string(alg) || got.Algorithm != string(alg) || got.Form != "spec" || got.Unsigned != nil || got.Warnings != nil {
				t.Fatalf("%+v", got)
			}
		})
	}
}

// TestTampered: every change to what the spec form signs breaks the
// signature (invalid: the key is trusted); reordering an object's members
// does not (JCS sorts them), reordering supportedInterfaces does (its
// order chooses the binding).
func TestTampered(t *testing.T) {
	k := newKey(t, jose.ES256, "k1")
	card := k.sign(t, testCard, FormSpec, nil)
	v := verifier(t, WithKeys(k.public))
	other := newKey(t, jose.ES256, "k1")
	for _, c := range []struct {
		name, card string
		want       a2a.CardSignatureStatus
	}{
		{"member changed", strings.Replace(card, `"Signed Agent"`, `"Signed Agent!"`, 1), a2a.CardSignatureInvalid},
		{"member added", strings.Replace(card, `"version":"2.0.0"`, `"version":"2.0.0","iconUrl":"https://evil.example/i.png"`, 1), a2a.CardSignatureInvalid},
		{"optional false removed", strings.Replace(card, `,"pushNotifications":false`, ``, 1), a2a.CardSignatureInvalid},
		{"scope-less requirement removed", strings.Replace(card, `"securityRequirements":[{"schemes":{"bearer":{"list":[]}}}],`, ``, 1), a2a.CardSignatureInvalid},
		{"interfaces reordered", swapInterfaces(t, card), a2a.CardSignatureInvalid},
		{"object members reordered", strings.Replace(card, `"organization":"Example","url":"https://example.com"`, `"url":"https://example.com","organization":"Example"`, 1), a2a.CardSignatureVerified},
		{"default member added", strings.Replace(card, `"protocolVersion":"1.0"}`, `"protocolVersion":"1.0","tenant":""}`, 1), a2a.CardSignatureVerified},
		{"signature from another key", other.sign(t, testCard, FormSpec, nil), a2a.CardSignatureInvalid},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.card == card {
				t.Fatal("the change did not apply")
			}
			expect(t, v.VerifyCard(context.Background(), decode(t, c.card)), c.want, "")
		})
	}
}

func swapInterfaces(t *testing.T, card string) string {
	t.Helper()
	a := `{"url":"https://agent.example/a2a/v1","protocolBinding":"JSONRPC","protocolVersion":"1.0"}`
	b := `{"url":"https://agent.example/rest","protocolBinding":"HTTP+JSON","protocolVersion":"1.0"}`
	if !strings.Contains(card, a+","+b) {
		t.Fatal("interfaces not found")
	}
	return strings.Replace(card, a+","+b, b+","+a, 1)
}

// TestProtectedHeaderChanged: a protected header swapped for another (the
// signature kept) fails; so does one with a header member added.
func TestProtectedHeaderChanged(t *testing.T) {
	k := newKey(t, jose.ES256, "k1")
	card := k.sign(t, testCard, FormSpec, nil)
	v := verifier(t, WithKeys(k.public))
	c := decode(t, card)
	s := c.Signatures[0]
	for _, hdr := range []string{`{"alg":"ES256","kid":"k1"}`, `{"alg":"ES256","kid":"k1","typ":"JOSE","x":1}`} {
		forged := addSignature(t, testCard, base64.RawURLEncoding.EncodeToString([]byte(hdr)), s.Signature)
		expect(t, v.VerifyCard(context.Background(), decode(t, forged)), a2a.CardSignatureInvalid, "does not verify")
	}
}

// TestAlgorithmConfusion: an alg that does not fit the trusted key, HS256
// keyed with the public key, and "none" never verify: invalid.
func TestAlgorithmConfusion(t *testing.T) {
	ec := newKey(t, jose.ES256, "ec")
	v := verifier(t, WithKeys(ec.public))
	rsaKey := newKey(t, jose.RS256, "ec") // RS256 signature naming the EC key's kid
	expect(t, v.VerifyCard(context.Background(), decode(t, rsaKey.sign(t, testCard, FormSpec, nil))), a2a.CardSignatureInvalid, "does not fit")

	tree, _ := parse([]byte(testCard))
	payload, _ := canonical(project(tree, FormSpec))
	pubDER, err := x509.MarshalPKIXPublicKey(ec.public.JWK.Key)
	if err != nil {
		t.Fatal(err)
	}
	for _, alg := range []string{"HS256", "none"} {
		prot := base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, `{"alg":%q,"kid":"ec","typ":"JOSE"}`, alg))
		input := prot + "." + base64.RawURLEncoding.EncodeToString(payload)
		mac := hmac.New(sha256.New, pubDER)
		mac.Write([]byte(input))
		sig := base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
		if alg == "none" {
			sig = ""
		}
		expect(t, v.VerifyCard(context.Background(), decode(t, addSignature(t, testCard, prot, sig))), a2a.CardSignatureInvalid, "never accepted")
	}
	// An allowed alg the caller narrowed away: unverifiable.
	ed := newKey(t, jose.EdDSA, "ed")
	expect(t, verifier(t, WithKeys(ed.public), WithAlgorithms("ES256")).VerifyCard(context.Background(), decode(t, ed.sign(t, testCard, FormSpec, nil))), a2a.CardSignatureUnverifiable, "not allowed")
	if _, err := NewVerifier(WithAlgorithms("HS256")); err == nil {
		t.Fatal("WithAlgorithms(HS256) accepted")
	}
}

// TestHeaders: kid missing or crit present is invalid; an unknown kid is
// unverifiable; typ other than JOSE is a warning.
func TestHeaders(t *testing.T) {
	k := newKey(t, jose.EdDSA, "k1")
	v := verifier(t, WithKeys(k.public))
	expect(t, v.VerifyCard(context.Background(), decode(t, k.sign(t, testCard, FormSpec, map[string]any{"alg": "EdDSA"}))), a2a.CardSignatureInvalid, "no kid")
	expect(t, v.VerifyCard(context.Background(), decode(t, k.sign(t, testCard, FormSpec, map[string]any{"alg": "EdDSA", "kid": "k1", "crit": []string{"exp"}, "exp": 1}))), a2a.CardSignatureInvalid, "crit")
	expect(t, v.VerifyCard(context.Background(), decode(t, k.sign(t, testCard, FormSpec, map[string]any{"alg": "EdDSA", "kid": "k2"}))), a2a.CardSignatureUnverifiable, "no trusted key")
	got := v.VerifyCard(context.Background(), decode(t, k.sign(t, testCard, FormSpec, map[string]any{"alg": "EdDSA", "kid": "k1"})))
	expect(t, got, a2a.CardSignatureVerified, "")
	if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], `typ is "", not "JOSE"`) {
		t.Fatalf("warnings %q", got.Warnings)
	}
	bad := addSignature(t, testCard, "!!", "x")
	expect(t, v.VerifyCard(context.Background(), decode(t, bad)), a2a.CardSignatureInvalid, "base64url")
}

// TestDuplicateMembers: a signed card repeating a member (one the a2a
// decoder does not know) is invalid whatever its signature.
func TestDuplicateMembers(t *testing.T) {
	k := newKey(t, jose.ES256, "k1")
	card := k.sign(t, testCard, FormSpec, nil)
	dup := strings.Replace(card, `"provider":{`, `"provider":{"x":1,"x":2,`, 1)
	expect(t, verifier(t, WithKeys(k.public)).VerifyCard(context.Background(), decode(t, dup)), a2a.CardSignatureInvalid, "duplicate member")
	// In an object of more than 8 members (checked once read).
	wide := strings.Replace(card, `"provider":{`, `"provider":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"a":10,`, 1)
	expect(t, verifier(t, WithKeys(k.public)).VerifyCard(context.Background(), decode(t, wide)), a2a.CardSignatureInvalid, `duplicate member "/provider/a"`)
}

// TestRotationAndValidity: an old signature beside a good one verifies;
// expired, not yet valid and revoked keys never verify (unverifiable
// alone); a signature that fails under a trusted key beside one whose key
// is unknown is invalid.
func TestRotationAndValidity(t *testing.T) {
	old, cur := newKey(t, jose.ES256, "old"), newKey(t, jose.ES256, "new")
	both := cur.sign(t, old.sign(t, testCard, FormSpec, nil), FormSpec, nil)
	expired := old.public
	expired.NotAfter = time.Now().Add(-time.Hour)
	expect(t, verifier(t, WithKeys(expired, cur.public)).VerifyCard(context.Background(), decode(t, both)), a2a.CardSignatureVerified, "")
	expect(t, verifier(t, WithKeys(cur.public)).VerifyCard(context.Background(), decode(t, both)), a2a.CardSignatureVerified, "")

	oldOnly := old.sign(t, testCard, FormSpec, nil)
	expect(t, verifier(t, WithKeys(expired)).VerifyCard(context.Background(), decode(t, oldOnly)), a2a.CardSignatureUnverifiable, "expired")
	future := old.public
	future.NotBefore = time.Now().Add(time.Hour)
	expect(t, verifier(t, WithKeys(future)).VerifyCard(context.Background(), decode(t, oldOnly)), a2a.CardSignatureUnverifiable, "not yet valid")
	revoked := old.public
	revoked.Revoked = true
	expect(t, verifier(t, WithKeys(revoked)).VerifyCard(context.Background(), decode(t, oldOnly)), a2a.CardSignatureUnverifiable, "revoked")

	stranger := newKey(t, jose.ES256, "stranger")
	forgedCur := newKey(t, jose.ES256, "new") // names the trusted kid, another key
	mixed := forgedCur.sign(t, stranger.sign(t, testCard, FormSpec, nil), FormSpec, nil)
	expect(t, verifier(t, WithKeys(cur.public)).VerifyCard(context.Background(), decode(t, mixed)), a2a.CardSignatureInvalid, "signature 1")
}

// TestBounded: 1,000 signatures are not all tried, and a protected
// header of 100 KB is not decoded.
func TestBounded(t *testing.T) {
	k := newKey(t, jose.ES256, "k1")
	one := decode(t, k.sign(t, testCard, FormSpec, nil)).Signatures[0]
	sigs := make([]string, 1000)
	for i := range sigs {
		sigs[i] = fmt.Sprintf(`{"protected":%q,"signature":%q}`, base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"ES256","kid":"s"}`)), one.Signature)
	}
	many := strings.TrimSuffix(testCard, "}") + `,"signatures":[` + strings.Join(sigs, ",") + `]}`
	expect(t, verifier(t, WithKeys(k.public)).VerifyCard(context.Background(), decode(t, many)), a2a.CardSignatureUnverifiable, "the first 16 were tried")

	big := base64.RawURLEncoding.EncodeToString(bytes.Repeat([]byte("a"), 100<<10))
	expect(t, verifier(t, WithKeys(k.public)).VerifyCard(context.Background(), decode(t, addSignature(t, testCard, big, one.Signature))), a2a.CardSignatureInvalid, "protected header of")
}

// TestAbsentAndNoBytes: no signatures is absent; a signed card built in
// code has no bytes as received: unverifiable.
func TestAbsentAndNoBytes(t *testing.T) {
	v := verifier(t)
	expect(t, v.VerifyCard(context.Background(), decode(t, testCard)), a2a.CardSignatureAbsent, "")
	expect(t, v.VerifyCard(context.Background(), decode(t, strings.TrimSuffix(testCard, "}")+`,"signatures":[]}`)), a2a.CardSignatureAbsent, "")
	built := &a2a.AgentCard{Name: "x", Signatures: []a2a.AgentCardSignature{{Protected: "e30", Signature: "AA"}}}
	expect(t, v.VerifyCard(context.Background(), built), a2a.CardSignatureUnverifiable, "no bytes as received")
}

// TestV03AndDualCards: a v0.3 card signed over its own bytes verifies in
// the spec form (its members outside the v1.0 schema are kept, so
// signed); a dual card whose v0.3 members were added after signing
// (a2a-python's servers) fails the spec form (unverifiable: a trusted
// key signed it, in a form not accepted) and verifies in the a2a-js form
// only where allowed, naming them unsigned.
func TestV03AndDualCards(t *testing.T) {
	k := newKey(t, jose.ES256, "k1")
	v03 := `{"protocolVersion":"0.3.0","name":"Old","description":"d","version":"1","url":"https://old.example/a2a","preferredTransport":"JSONRPC","capabilities":{"streaming":false},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`
	expect(t, verifier(t, WithKeys(k.public)).VerifyCard(context.Background(), decode(t, k.sign(t, v03, FormSpec, nil))), a2a.CardSignatureVerified, "")
	tampered := strings.Replace(k.sign(t, v03, FormSpec, nil), "https://old.example/a2a", "https://evil.example/a2a", 1)
	expect(t, verifier(t, WithKeys(k.public)).VerifyCard(context.Background(), decode(t, tampered)), a2a.CardSignatureInvalid, "")

	signed := k.sign(t, testCard, FormA2AJS, nil)
	dual := strings.Replace(signed, `"name":"Signed Agent"`, `"url":"https://agent.example/a2a/v1","protocolVersion":"0.3.0","name":"Signed Agent"`, 1)
	expect(t, verifier(t, WithKeys(k.public)).VerifyCard(context.Background(), decode(t, dual)), a2a.CardSignatureUnverifiable, "it does over a2a-js's, which this verifier does not accept")
	got := verifier(t, WithKeys(k.public), WithForms(FormA2AJS)).VerifyCard(context.Background(), decode(t, dual))
	expect(t, got, a2a.CardSignatureVerified, "")
	if got.Form != "a2a-js" || strings.Join(got.Unsigned, " ") != "/url /protocolVersion /securityRequirements" {
		t.Fatalf("form %s, unsigned %q", got.Form, got.Unsigned)
	}
}
