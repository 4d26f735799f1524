package cardsig

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// Bounds on what one card may make the verifier do.
const (
	// MaxSignatures is how many of a card's signatures are tried; the
	// rest are not looked at.
	MaxSignatures = 16
	// maxProtected caps a signature's protected header, base64url.
	maxProtected = 4 << 10
	// maxSignature caps a signature value, base64url (an RSA-8192
	// signature is 1366).
	maxSignature = 2 << 10
	// MaxCardBytes is the largest card, in bytes as received, whose
	// signatures are checked: a larger signed card is unverifiable, not
	// read further (real cards are a few KiB). Below it, verifying a card
	// allocates a small multiple of its size.
	MaxCardBytes = 256 << 10
	// MaxKeysPerSignature is how many trusted keys sharing a signature's
	// kid are tried for it; the rest are not.
	MaxKeysPerSignature = 8
)

// Verifier verifies agent card signatures (A2A v1.0 §8.4.3). It implements
// [a2a.CardVerifier]: give it to [a2a.WithCardVerifier]. Make it with
// [NewVerifier]; it is safe for concurrent use.
type Verifier struct {
	keys     []Key
	pinned   map[string][]Key // by card origin
	resolver KeyResolver
	forms    []Form
	algs     map[string]bool
	jku      *jkuFetcher // nil: jku never followed
	now      func() time.Time
}

var _ a2a.CardVerifier = (*Verifier)(nil)

// Option configures a [Verifier].
type Option interface {
	apply(*Verifier) error
}

type option func(*Verifier) error

func (o option) apply(v *Verifier) error { return o(v) }

// NewVerifier returns a verifier that trusts the keys its options give
// (WithKeys, WithKeySet, WithOriginKeys, WithKeyResolver, and where
// allowed keys named by a signature's jku, WithJKUHosts). With no key at
// all every signed card is unverifiable. It checks the spec's canonical
// form ([FormSpec]) and, after it, the forms given to [WithForms]. It
// returns the first option's error.
func NewVerifier(opts ...Option) (*Verifier, error) {
	v := &Verifier{forms: []Form{FormSpec}, algs: map[string]bool{}, pinned: map[string][]Key{}, now: time.Now}
	for _, a := range algorithms {
		v.algs[a] = true
	}
	for _, o := range opts {
		if o == nil {
			return nil, errors.New("cardsig: nil Option")
		}
		if err := o.apply(v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// WithKeys trusts keys for cards read from any origin. It returns an error
// for a key without kid, a private or symmetric key, or a key no allowed
// algorithm takes.
func WithKeys(keys ...Key) Option {
	return option(func(v *Verifier) error {
		for i := range keys {
			if err := keys[i].check(); err != nil {
				return fmt.Errorf("cardsig: WithKeys: key %q: %w", keys[i].JWK.KeyID, err)
			}
		}
		v.keys = append(v.keys, keys...)
		return nil
	})
}

// WithKeySet trusts the keys of a JWK Set ([ParseKeySet]) for cards read
// from any origin.
func WithKeySet(jwks []byte) Option {
	return option(func(v *Verifier) error {
		keys, err := ParseKeySet(jwks)
		if err != nil {
			return err
		}
		v.keys = append(v.keys, keys...)
		return nil
	})
}

// WithOriginKeys trusts keys only for cards read at origin (an http(s)
// URL whose scheme, host and port count, e.g. "https://agent.example"):
// a key pinned to one agent's site never vouches for a card read at
// another (A2A v1.0 §8.4.3 allows a trusted key store per provider).
func WithOriginKeys(origin string, keys ...Key) Option {
	return option(func(v *Verifier) error {
		o, err := canonicalOrigin(origin)
		if err != nil {
			return fmt.Errorf("cardsig: WithOriginKeys: %w", err)
		}
		for i := range keys {
			if err := keys[i].check(); err != nil {
				return fmt.Errorf("cardsig: WithOriginKeys: key %q: %w", keys[i].JWK.KeyID, err)
			}
		}
		v.pinned[o] = append(v.pinned[o], keys...)
		return nil
	})
}

// WithKeyResolver asks r for keys a signature names that the verifier's
// own keys do not have.
func WithKeyResolver(r KeyResolver) Option {
	return option(func(v *Verifier) error {
		if r == nil {
			return errors.New("cardsig: WithKeyResolver: nil resolver")
		}
		v.resolver = r
		return nil
	})
}

// WithForms lets signatures verify over the canonical forms given, tried
// in that order after [FormSpec], which is always tried first. Only
// [FormA2AJS] is known besides it: it accepts cards signed by
// @a2a-js/sdk, whose form leaves members unsigned
// ([a2a.CardVerification.Unsigned]).
func WithForms(forms ...Form) Option {
	return option(func(v *Verifier) error {
		for _, f := range forms {
			switch f {
			case FormSpec:
			case FormA2AJS:
				v.forms = append(v.forms, f)
			default:
				return fmt.Errorf("cardsig: WithForms: unknown form %q", f)
			}
		}
		return nil
	})
}

// WithAlgorithms narrows the JWS algorithms accepted to those given. By
// default they are ES256 (P-256), ES384 (P-384), ES512 (P-521), EdDSA
// (Ed25519), and RS256, RS384, RS512, PS256, PS384, PS512 (RSA of 2048
// bits or more), each bound to that key type (RFC 7518 §3, RFC 8037).
// It returns an error for any other ("none", an HMAC, …) or for none.
func WithAlgorithms(algs ...string) Option {
	return option(func(v *Verifier) error {
		allowed := map[string]bool{}
		for _, a := range algs {
			if !contains(algorithms, a) {
				return fmt.Errorf("cardsig: WithAlgorithms: %q is not an algorithm this package allows", a)
			}
			allowed[a] = true
		}
		if len(allowed) == 0 {
			return errors.New("cardsig: WithAlgorithms: no algorithm")
		}
		v.algs = allowed
		return nil
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// outcome is what one signature came to.
type outcome struct {
	status   a2a.CardSignatureStatus // verified, unverifiable or invalid
	kid, alg string
	form     Form
	err      error
	warning  string
}

// VerifyCard verifies card's signatures (A2A v1.0 §8.4.3) and says what it
// found; it never returns nil. The card is verified when one of its first
// [MaxSignatures] signatures verifies, over one of the verifier's forms,
// under a trusted key that is in its validity window and not revoked,
// with an allowed algorithm that fits the key. Otherwise it is invalid
// when a signature failed under such a key, or is malformed (a protected
// header that does not decode, without alg or kid, with crit or b64,
// naming "none" or an HMAC), or the card is (a member repeated in one
// object, not valid UTF-8); and unverifiable when no signature could be
// checked (no trusted key for its kid, a key expired, revoked or
// unreachable, an algorithm not allowed, a card built in code with no
// bytes as received, a card larger than [MaxCardBytes]). A card without
// signatures is absent. Keys are looked up by kid among the keys pinned
// to the card's origin, then the verifier's, then its resolver's, then
// (where allowed) at the signature's jku; the first
// [MaxKeysPerSignature] found are tried. A card's canonical forms are
// computed only once a signature has a trusted key to check. A signature's
// unprotected header is not read (nothing in it is signed), nor is an
// x5c or x5u in its protected header: trust comes from the caller's keys,
// never from a certificate the signer attaches.
func (v *Verifier) VerifyCard(ctx context.Context, card *a2a.AgentCard) *a2a.CardVerification {
	if card == nil {
		return &a2a.CardVerification{Status: a2a.CardSignatureUnverifiable, Err: errors.New("no card")}
	}
	raw := card.Raw()
	switch {
	case raw == nil && len(card.Signatures) == 0:
		return &a2a.CardVerification{Status: a2a.CardSignatureAbsent}
	case raw == nil:
		return &a2a.CardVerification{Status: a2a.CardSignatureUnverifiable, Err: errors.New("card has no bytes as received to verify (built or encoded in code)")}
	case len(raw) > MaxCardBytes && len(card.Signatures) == 0:
		return &a2a.CardVerification{Status: a2a.CardSignatureAbsent}
	case len(raw) > MaxCardBytes:
		return &a2a.CardVerification{Status: a2a.CardSignatureUnverifiable, Err: fmt.Errorf("card of %d bytes is larger than the %d this verifier checks (cardsig.MaxCardBytes): not verified", len(raw), MaxCardBytes)}
	}
	tree, err := parse(raw)
	if err != nil {
		return &a2a.CardVerification{Status: a2a.CardSignatureInvalid, Err: err}
	}
	if tree.kind != '{' {
		return &a2a.CardVerification{Status: a2a.CardSignatureInvalid, Err: errors.New("card is not a JSON object")}
	}
	sigs := tree.get("signatures")
	switch {
	case sigs == nil || sigs.kind == 'n' || (sigs.kind == '[' && len(sigs.elems) == 0):
		return &a2a.CardVerification{Status: a2a.CardSignatureAbsent}
	case sigs.kind != '[':
		return &a2a.CardVerification{Status: a2a.CardSignatureInvalid, Err: errors.New("signatures is not an array")}
	}
	payloads := &payloads{tree: tree}
	budget := &jkuBudget{}
	defer budget.stop()
	res := &a2a.CardVerification{Status: a2a.CardSignatureUnverifiable}
	var firstInvalid, firstUnverifiable error
	for i, s := range sigs.elems {
		if i == MaxSignatures {
			break
		}
		if ctx.Err() != nil {
			return &a2a.CardVerification{Status: a2a.CardSignatureUnverifiable, Err: ctx.Err()}
		}
		o := v.verifyOne(ctx, card.Origin(), s, payloads, budget)
		if o.warning != "" {
			res.Warnings = append(res.Warnings, fmt.Sprintf("signature %d: %s", i, o.warning))
		}
		switch o.status {
		case a2a.CardSignatureVerified:
			res.Status, res.KeyID, res.Algorithm, res.Form = a2a.CardSignatureVerified, o.kid, o.alg, string(o.form)
			res.Unsigned = unsigned(tree, o.form)
			return res
		case a2a.CardSignatureInvalid:
			if firstInvalid == nil {
				firstInvalid = fmt.Errorf("signature %d: %w", i, o.err)
			}
		default:
			if firstUnverifiable == nil {
				firstUnverifiable = fmt.Errorf("signature %d: %w", i, o.err)
			}
		}
	}
	if firstInvalid != nil {
		res.Status, res.Err = a2a.CardSignatureInvalid, firstInvalid
	} else {
		res.Err = firstUnverifiable
	}
	if len(sigs.elems) > MaxSignatures {
		res.Err = fmt.Errorf("%w (the card has %d signatures; the first %d were tried)", res.Err, len(sigs.elems), MaxSignatures)
	}
	return res
}

// header is a protected header, read.
type header struct {
	alg, kid, typ, jku string
}

// payloads are a card's canonical forms, each computed when a signature
// first has a trusted key to check it with, and once.
type payloads struct {
	tree *node
	done map[Form][]byte
}

// get returns the payload of form f.
func (p *payloads) get(f Form) ([]byte, error) {
	if b, ok := p.done[f]; ok {
		return b, nil
	}
	b, err := canonical(project(p.tree, f))
	if err != nil {
		return nil, err
	}
	if p.done == nil {
		p.done = map[Form][]byte{}
	}
	p.done[f] = b
	return b, nil
}

// verifyOne checks one signature entry s over each form's payload.
func (v *Verifier) verifyOne(ctx context.Context, origin string, s *node, payloads *payloads, budget *jkuBudget) outcome {
	bad := func(format string, args ...any) outcome {
		return outcome{status: a2a.CardSignatureInvalid, err: fmt.Errorf(format, args...)}
	}
	if s.kind != '{' {
		return bad("not an object")
	}
	prot, sig := s.get("protected"), s.get("signature")
	if prot == nil || prot.kind != '"' || sig == nil || sig.kind != '"' {
		return bad("protected and signature must be strings")
	}
	if len(prot.text) > maxProtected {
		return bad("protected header of %d bytes (at most %d)", len(prot.text), maxProtected)
	}
	if len(sig.text) > maxSignature {
		return bad("signature of %d bytes (at most %d)", len(sig.text), maxSignature)
	}
	h, err := readHeader(prot.text)
	if err != nil {
		return bad("protected header: %v", err)
	}
	o := outcome{kid: h.kid, alg: h.alg}
	if h.typ != "JOSE" {
		o.warning = fmt.Sprintf("protected header typ is %s, not \"JOSE\"", shown(h.typ))
	}
	switch {
	case h.alg == "none" || strings.HasPrefix(strings.ToUpper(h.alg), "HS"):
		return bad("alg %s is never accepted", shown(h.alg))
	case !v.algs[h.alg]:
		o.status, o.err = a2a.CardSignatureUnverifiable, fmt.Errorf("alg %s is not allowed", shown(h.alg))
		return o
	}
	keys, err := v.keysFor(ctx, origin, h, budget)
	if err != nil {
		o.status, o.err = a2a.CardSignatureUnverifiable, fmt.Errorf("kid %s: %w", shown(h.kid), err)
		return o
	}
	now := v.now()
	o.status, o.err = a2a.CardSignatureUnverifiable, fmt.Errorf("kid %s: no trusted key", shown(h.kid))
	for _, k := range keys {
		if err := k.usable(now); err != nil {
			if o.status != a2a.CardSignatureInvalid {
				o.err = fmt.Errorf("kid %s: %w", shown(h.kid), err)
			}
			continue
		}
		if err := fits(h.alg, k.JWK.Key); err != nil || (k.JWK.Algorithm != "" && k.JWK.Algorithm != h.alg) {
			if err == nil {
				err = fmt.Errorf("alg %s, but the key is for %s", shown(h.alg), shown(k.JWK.Algorithm))
			}
			o.status, o.err = a2a.CardSignatureInvalid, fmt.Errorf("kid %s: %w", shown(h.kid), err)
			continue
		}
		for _, f := range v.forms {
			payload, err := payloads.get(f)
			if err != nil {
				return bad("%v", err)
			}
			jws, err := jose.ParseDetached(prot.text+".."+sig.text, payload, []jose.SignatureAlgorithm{jose.SignatureAlgorithm(h.alg)})
			if err != nil {
				return bad("kid %s: signature does not decode: %v", shown(h.kid), err)
			}
			if jws.DetachedVerify(payload, k.JWK.Key) == nil {
				o.status, o.err, o.form = a2a.CardSignatureVerified, nil, f
				return o
			}
		}
		o.status, o.err = a2a.CardSignatureInvalid, fmt.Errorf("kid %s: signature does not verify", shown(h.kid))
		if !slices.Contains(v.forms, FormA2AJS) {
			if payload, err := payloads.get(FormA2AJS); err != nil {
				return bad("%v", err)
			} else if jws, err := jose.ParseDetached(prot.text+".."+sig.text, payload, []jose.SignatureAlgorithm{jose.SignatureAlgorithm(h.alg)}); err == nil && jws.DetachedVerify(payload, k.JWK.Key) == nil {
				// Signed, by a trusted key, in a form the caller did not
				// accept: not tampering, so not invalid; not verified
				// either.
				o.status = a2a.CardSignatureUnverifiable
				o.err = fmt.Errorf("kid %s: signature does not verify over the spec's canonical form; it does over a2a-js's, which this verifier does not accept (cardsig.WithForms(cardsig.FormA2AJS))", shown(h.kid))
			}
		}
	}
	return o
}

// readHeader decodes a protected header: base64url without padding, a
// JSON object without repeated members, alg and kid strings, no crit.
func readHeader(b64 string) (header, error) {
	b, err := base64.RawURLEncoding.DecodeString(b64)
	if err != nil {
		return header{}, errors.New("not base64url")
	}
	n, err := parse(b)
	if err != nil {
		return header{}, err
	}
	if n.kind != '{' {
		return header{}, errors.New("not a JSON object")
	}
	var h header
	for _, m := range []struct {
		name string
		to   *string
		need bool
	}{{"alg", &h.alg, true}, {"kid", &h.kid, true}, {"typ", &h.typ, false}, {"jku", &h.jku, false}} {
		switch x := n.get(m.name); {
		case x == nil && m.need:
			return header{}, fmt.Errorf("no %s", m.name)
		case x == nil:
		case x.kind != '"' || (m.need && x.text == ""):
			return header{}, fmt.Errorf("%s is not a non-empty string", m.name)
		default:
			*m.to = x.text
		}
	}
	if n.get("crit") != nil {
		return header{}, errors.New("crit names parameters this verifier does not understand (RFC 7515 §4.1.11)")
	}
	if n.get("b64") != nil {
		return header{}, errors.New("b64 is present: A2A v1.0 §8.4 signs a base64url payload, never an unencoded one (RFC 7797)")
	}
	return h, nil
}

// keysFor returns the trusted keys named by h.kid for a card read at
// origin, at most MaxKeysPerSignature of them.
func (v *Verifier) keysFor(ctx context.Context, origin string, h header, budget *jkuBudget) ([]Key, error) {
	var out []Key
	for _, list := range [][]Key{v.pinned[origin], v.keys} {
		for _, k := range list {
			if k.JWK.KeyID == h.kid && len(out) < MaxKeysPerSignature {
				out = append(out, k)
			}
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	if v.resolver != nil {
		keys, err := v.resolver.ResolveKey(ctx, KeyRequest{KeyID: h.kid, Algorithm: h.alg, JKU: h.jku, Origin: origin})
		if err != nil {
			return nil, fmt.Errorf("key resolver: %w", err)
		}
		for i := range keys {
			if len(out) == MaxKeysPerSignature {
				break
			}
			if keys[i].JWK.KeyID == h.kid && keys[i].check() == nil {
				out = append(out, keys[i])
			}
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	if h.jku != "" {
		if v.jku == nil {
			return nil, errors.New("no trusted key (jku not followed: the verifier allows no jku host)")
		}
		keys, err := v.jku.keys(ctx, h.jku, h.kid, origin, budget)
		return keys[:min(len(keys), MaxKeysPerSignature)], err
	}
	return nil, nil
}

// shown quotes text from the card for an error, inert and cut short.
func shown(s string) string {
	return strconv.Quote(inert.Truncate(s, 80))
}
