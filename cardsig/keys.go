package cardsig

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// Keys: the public keys a verifier trusts, where they come from, and which
// algorithm each may verify.

// Key is a public key the verifier trusts to sign agent cards. JWK has no
// expiry (RFC 7517), so a key carries its own validity window and a
// revoked flag: A2A v1.0 §8.4.3 forbids verifying with an expired or
// revoked key.
type Key struct {
	// JWK holds the public key and its kid (KeyID, required: a
	// signature names its key by kid). When its Algorithm is set, it is
	// the only alg the key verifies.
	JWK jose.JSONWebKey
	// NotBefore and NotAfter bound when the key may verify; zero for no
	// bound. A key with an x5c certificate chain is also bounded by its
	// first certificate's validity.
	NotBefore, NotAfter time.Time
	// Revoked keys never verify.
	Revoked bool
}

// usable returns why k may not verify at now, or nil.
func (k *Key) usable(now time.Time) error {
	switch {
	case k.Revoked:
		return errors.New("key is revoked")
	case !k.NotBefore.IsZero() && now.Before(k.NotBefore):
		return errors.New("key is not yet valid")
	case !k.NotAfter.IsZero() && now.After(k.NotAfter):
		return errors.New("key has expired")
	}
	if len(k.JWK.Certificates) > 0 {
		c := k.JWK.Certificates[0]
		if now.Before(c.NotBefore) || now.After(c.NotAfter) {
			return errors.New("key's x5c certificate is outside its validity")
		}
	}
	return nil
}

// ParseKeySet reads a JWK Set (RFC 7517 §5) of public keys: each key must
// have a kid and be an EC (P-256, P-384, P-521), OKP (Ed25519) or RSA
// (2048 bits or more) public key. It returns an error naming the first
// key that is not, a private or symmetric key among them, or JSON that is
// not a key set.
func ParseKeySet(jwks []byte) ([]Key, error) {
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(jwks, &set); err != nil {
		return nil, fmt.Errorf("cardsig: key set: %w", err)
	}
	keys := make([]Key, 0, len(set.Keys))
	for i, k := range set.Keys {
		key := Key{JWK: k}
		if err := key.check(); err != nil {
			return nil, fmt.Errorf("cardsig: key set: key %d: %w", i, err)
		}
		keys = append(keys, key)
	}
	return keys, nil
}

// check refuses a key without kid, a private or symmetric key, and key
// types or sizes no allowed algorithm takes.
func (k *Key) check() error {
	if k.JWK.KeyID == "" {
		return errors.New("no kid")
	}
	if !k.JWK.IsPublic() {
		return errors.New("not a public key (private and symmetric keys are refused)")
	}
	if _, ok := keyAlgs(k.JWK.Key); !ok {
		return fmt.Errorf("key type %T is not one an allowed algorithm takes", k.JWK.Key)
	}
	if k.JWK.Algorithm != "" {
		if err := fits(k.JWK.Algorithm, k.JWK.Key); err != nil {
			return err
		}
	}
	return nil
}

// algorithms are the JWS algorithms a verifier accepts unless
// WithAlgorithms narrows them (RFC 7518 §3; EdDSA, RFC 8037): never
// "none", never an HMAC.
var algorithms = []string{"ES256", "ES384", "ES512", "EdDSA", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512"}

// keyAlgs returns the algorithms key may verify with, and whether it is
// a key any of them takes: ES256↔P-256, ES384↔P-384, ES512↔P-521,
// EdDSA↔Ed25519, RS*/PS*↔RSA of 2048 bits or more.
func keyAlgs(key any) ([]string, bool) {
	switch k := key.(type) {
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			return []string{"ES256"}, true
		case elliptic.P384():
			return []string{"ES384"}, true
		case elliptic.P521():
			return []string{"ES512"}, true
		}
	case ed25519.PublicKey:
		return []string{"EdDSA"}, true
	case *rsa.PublicKey:
		if k.N.BitLen() >= 2048 {
			return []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512"}, true
		}
	}
	return nil, false
}

// fits returns an error when alg is not an algorithm key verifies with.
func fits(alg string, key any) error {
	algs, ok := keyAlgs(key)
	if !ok {
		if k, isRSA := key.(*rsa.PublicKey); isRSA {
			return fmt.Errorf("RSA key of %d bits (2048 or more wanted)", k.N.BitLen())
		}
		return fmt.Errorf("key type %T takes no allowed algorithm", key)
	}
	for _, a := range algs {
		if a == alg {
			return nil
		}
	}
	return fmt.Errorf("alg %s does not fit the key (%s)", alg, algs[0])
}

// KeyRequest is what a [KeyResolver] is asked for: the key a signature
// names.
type KeyRequest struct {
	// KeyID is the protected header's kid.
	KeyID string
	// Algorithm is the protected header's alg.
	Algorithm string
	// JKU is the protected header's jku, if any: a hint the signer gave,
	// never a reason to trust what it points to.
	JKU string
	// Origin is where the card was read ([a2a.AgentCard.Origin]), empty
	// for a card the caller built or decoded.
	Origin string
}

// KeyResolver finds trusted keys for callers that keep their own store.
// ResolveKey returns the keys it trusts for req (several when a kid is
// ambiguous), none when it knows no such key, or an error when it could
// not tell (the signature is then unverifiable). It must honour ctx.
type KeyResolver interface {
	ResolveKey(ctx context.Context, req KeyRequest) ([]Key, error)
}

// KeyResolverFunc adapts a function to [KeyResolver].
type KeyResolverFunc func(ctx context.Context, req KeyRequest) ([]Key, error)

// ResolveKey calls f(ctx, req).
func (f KeyResolverFunc) ResolveKey(ctx context.Context, req KeyRequest) ([]Key, error) {
	return f(ctx, req)
}
