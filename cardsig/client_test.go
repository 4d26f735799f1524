package cardsig

import (
	"context"
	"crypto/x509"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// serveCard serves card's bytes as they are at the well-known path.
func serveCard(t *testing.T, card string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != a2a.AgentCardPath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(card))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// cardAt is testCard with its interfaces on srv (the card's own origin).
func cardAt(srv string) string {
	return strings.ReplaceAll(testCard, "https://agent.example", srv)
}

// TestResolvePinnedPerOrigin: ResolveAgentCard verifies what it reads; a
// key pinned to the card's origin verifies it, the same key pinned to
// another origin does not (unverifiable).
func TestResolvePinnedPerOrigin(t *testing.T) {
	k := newKey(t, jose.ES256, "k1")
	var card string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(card)) }))
	defer srv.Close()
	card = k.sign(t, cardAt(srv.URL), FormSpec, nil)
	ctx := context.Background()

	got, err := a2a.ResolveAgentCard(ctx, srv.URL, a2a.WithCardVerifier(verifier(t, WithOriginKeys(srv.URL, k.public))))
	if err != nil {
		t.Fatal(err)
	}
	expect(t, got.Verification(), a2a.CardSignatureVerified, "")
	if got.Origin() == "" {
		t.Fatal("no origin")
	}
	got, err = a2a.ResolveAgentCard(ctx, srv.URL, a2a.WithCardVerifier(verifier(t, WithOriginKeys("https://elsewhere.example", k.public))))
	if err != nil {
		t.Fatal(err)
	}
	expect(t, got.Verification(), a2a.CardSignatureUnverifiable, "no trusted key")
	_, err = a2a.ResolveAgentCard(ctx, srv.URL, a2a.WithCardVerifier(verifier(t, WithOriginKeys("https://elsewhere.example", k.public))), a2a.WithRequireVerifiedCard())
	if !errors.Is(err, a2a.ErrCardNotVerified) || errors.Is(err, a2a.ErrCardSignatureInvalid) {
		t.Fatalf("required: %v", err)
	}
}

// TestResolveRefusesInvalid: a tampered card is refused by ResolveAgentCard
// with ErrCardSignatureInvalid, and its text from the card is inert.
func TestResolveRefusesInvalid(t *testing.T) {
	k := newKey(t, jose.ES256, "k1\x1b[31m")
	signed := k.sign(t, testCard, FormSpec, nil)
	srv := serveCard(t, strings.Replace(signed, "Signed Agent", "Evil Agent", 1))
	_, err := a2a.ResolveAgentCard(context.Background(), srv.URL, a2a.WithCardVerifier(verifier(t, WithKeys(k.public))))
	var se *a2a.CardSignatureError
	if !errors.Is(err, a2a.ErrCardSignatureInvalid) || !errors.As(err, &se) || se.Status != a2a.CardSignatureInvalid {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(err.Error(), "\x1b") || !strings.Contains(err.Error(), `\x1b`) {
		t.Fatalf("not inert: %q", err.Error())
	}
}

// TestCredentialsNeedVerifiedCard: NewClientFromCard with credentials
// refuses a signed card that does not verify, takes one that does, and
// leaves an unsigned one to the origin rule unless verified cards are
// required.
func TestCredentialsNeedVerifiedCard(t *testing.T) {
	k, stranger := newKey(t, jose.ES256, "k1"), newKey(t, jose.ES256, "k2")
	ctx := context.Background()
	v := verifier(t, WithKeys(k.public))
	for _, c := range []struct {
		name, card string
		opts       []a2a.Option
		want       error
	}{
		{"verified", k.sign(t, testCard, FormSpec, nil), nil, nil},
		{"unverifiable", stranger.sign(t, testCard, FormSpec, nil), nil, a2a.ErrCardNotVerified},
		{"invalid", strings.Replace(k.sign(t, testCard, FormSpec, nil), "2.0.0", "2.0.1", 1), nil, a2a.ErrCardSignatureInvalid},
		{"unsigned", testCard, nil, nil},
		{"unsigned, required", testCard, []a2a.Option{a2a.WithRequireVerifiedCard()}, a2a.ErrCardNotVerified},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := serveCard(t, c.card)
			card, err := a2a.ResolveAgentCard(ctx, srv.URL) // no verifier: read as it is
			if err != nil {
				t.Fatal(err)
			}
			// The card names https://agent.example: a trusted host for the
			// origin rule, so only the signature decides.
			opts := append([]a2a.Option{a2a.WithCardVerifier(v), a2a.WithBearerToken("tok-secret-123456"), a2a.WithTrustedHosts("agent.example")}, c.opts...)
			cl, err := a2a.NewClientFromCard(card, opts...)
			if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
				t.Fatalf("got %v, want %v", err, c.want)
			}
			if err != nil && strings.Contains(err.Error(), "tok-secret") {
				t.Fatal("secret in error")
			}
			if cl != nil && cl.Card().Verification() == nil {
				t.Fatal("client's card has no verification")
			}
			if card.Verification() != nil {
				t.Fatal("the caller's card was written")
			}
			// Without credentials an unverifiable card makes a client.
			if c.name == "unverifiable" {
				if _, err := a2a.NewClientFromCard(card, a2a.WithCardVerifier(v)); err != nil {
					t.Fatalf("no credentials: %v", err)
				}
			}
		})
	}
}

// TestJKU: a jku is followed only to a host the caller names (here an
// https test server on 127.0.0.1), never otherwise; same-origin jku to a
// loopback address is refused at dial time.
func TestJKU(t *testing.T) {
	k := newKey(t, jose.ES256, "jk")
	jwks := `{"keys":[` + jwkJSON(t, k.public) + `]}`
	keys := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, "/jwks.json", http.StatusFound)
			return
		}
		w.Write([]byte(jwks))
	}))
	defer keys.Close()
	pool := x509.NewCertPool()
	pool.AddCert(keys.Certificate())
	host := strings.TrimPrefix(keys.URL, "https://")
	card := k.sign(t, testCard, FormSpec, map[string]any{"alg": "ES256", "kid": "jk", "typ": "JOSE", "jku": keys.URL + "/jwks.json"})
	ctx := context.Background()

	expect(t, verifier(t).VerifyCard(ctx, decode(t, card)), a2a.CardSignatureUnverifiable, "jku not followed")
	expect(t, verifier(t, WithJKUHosts("other.example"), WithJKURootCAs(pool)).VerifyCard(ctx, decode(t, card)), a2a.CardSignatureUnverifiable, "jku host not allowed")
	v := verifier(t, WithJKUHosts(host), WithJKURootCAs(pool))
	expect(t, v.VerifyCard(ctx, decode(t, card)), a2a.CardSignatureVerified, "")
	expect(t, v.VerifyCard(ctx, decode(t, card)), a2a.CardSignatureVerified, "") // cached

	redirected := k.sign(t, testCard, FormSpec, map[string]any{"alg": "ES256", "kid": "jk", "jku": keys.URL + "/redirect"})
	expect(t, v.VerifyCard(ctx, decode(t, redirected)), a2a.CardSignatureUnverifiable, "redirects are not followed")
	plain := k.sign(t, testCard, FormSpec, map[string]any{"alg": "ES256", "kid": "jk", "jku": "http://" + host + "/jwks.json"})
	expect(t, v.VerifyCard(ctx, decode(t, plain)), a2a.CardSignatureUnverifiable, "not an https URL")

	// Same origin, not named: the card's origin is the key server itself
	// (loopback), which the dialer refuses.
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/jwks.json" {
			w.Write([]byte(jwks))
			return
		}
		w.Write([]byte(k.sign(t, testCard, FormSpec, map[string]any{"alg": "ES256", "kid": "jk", "jku": "https://" + r.Host + "/jwks.json"})))
	}))
	defer srv.Close()
	pool.AddCert(srv.Certificate())
	got, err := a2a.ResolveAgentCard(ctx, srv.URL, a2a.WithHTTPClient(srv.Client()),
		a2a.WithCardVerifier(verifier(t, WithSameOriginJKU(), WithJKURootCAs(pool))))
	if err != nil {
		t.Fatal(err)
	}
	expect(t, got.Verification(), a2a.CardSignatureUnverifiable, "loopback")
}

func jwkJSON(t *testing.T, k Key) string {
	t.Helper()
	b, err := k.JWK.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestKeySet: ParseKeySet refuses private and symmetric keys, keys
// without kid and small RSA keys.
func TestKeySet(t *testing.T) {
	k := newKey(t, jose.EdDSA, "ed")
	if keys, err := ParseKeySet([]byte(`{"keys":[` + jwkJSON(t, k.public) + `]}`)); err != nil || len(keys) != 1 {
		t.Fatalf("%v %v", keys, err)
	}
	priv, _ := (&jose.JSONWebKey{Key: k.signer, KeyID: "p"}).MarshalJSON()
	for _, set := range []string{
		`{"keys":[` + string(priv) + `]}`,
		`{"keys":[{"kty":"oct","k":"c2VjcmV0","kid":"h"}]}`,
		`{"keys":[` + strings.Replace(jwkJSON(t, k.public), `"kid":"ed",`, ``, 1) + `]}`,
		`not json`,
	} {
		if _, err := ParseKeySet([]byte(set)); err == nil {
			t.Errorf("accepted %s", set)
		}
	}
	if _, err := NewVerifier(WithOriginKeys("ftp://x", k.public)); err == nil {
		t.Error("ftp origin accepted")
	}
}
