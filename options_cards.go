package a2a

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// Signed agent cards (A2A v1.0 §8.4): the seam where a verifier plugs in.
// This package verifies nothing itself and imports no JOSE code; the
// verifier of package cardsig (or the caller's own) implements
// CardVerifier, and ResolveAgentCard, Client.GetExtendedAgentCard and
// NewClientFromCard call it and act on its answer.

// CardVerifier checks the JWS signatures of an agent card (A2A v1.0 §8.4.3)
// and says what it found. Package cardsig has one ([cardsig.NewVerifier]).
//
// VerifyCard must return a non-nil *CardVerification, must honour ctx
// (it may fetch keys) and must not modify card. It reads the card as
// received through [AgentCard.Raw] (the signatures are over those bytes,
// never over a re-encoding) and where it was read through
// [AgentCard.Origin]. It is called from several goroutines at once when
// the clients that hold it are.
type CardVerifier interface {
	VerifyCard(ctx context.Context, card *AgentCard) *CardVerification
}

// CardVerifierFunc adapts a function to [CardVerifier].
type CardVerifierFunc func(ctx context.Context, card *AgentCard) *CardVerification

// VerifyCard calls f(ctx, card).
func (f CardVerifierFunc) VerifyCard(ctx context.Context, card *AgentCard) *CardVerification {
	return f(ctx, card)
}

// CardSignatureStatus is the outcome of verifying an agent card's
// signatures.
type CardSignatureStatus string

// The outcomes (the vocabulary of the A2A CLI specification's
// A2ACLI_CARD_GET_004).
const (
	// CardSignatureVerified: at least one signature verified under a trusted key
	// with an allowed algorithm.
	CardSignatureVerified CardSignatureStatus = "verified"
	// CardSignatureAbsent: the card carries no signatures.
	CardSignatureAbsent CardSignatureStatus = "absent"
	// CardSignatureUnverifiable: no signature could be checked: no trusted key for
	// its kid, a key that is expired, revoked or unreachable, an
	// algorithm not allowed, a trusted key's signature over a canonical
	// form the verifier does not accept (cardsig's a2a-js form unless
	// allowed), or nothing as received to check it over. Not
	// evidence of tampering, not evidence of anything.
	CardSignatureUnverifiable CardSignatureStatus = "unverifiable"
	// CardSignatureInvalid: no signature verified and at least one failed
	// under a trusted key with an allowed algorithm, or the signatures or
	// the card are malformed (a signature entry that does not decode, a
	// forbidden algorithm, a member repeated in one object). Fail closed.
	CardSignatureInvalid CardSignatureStatus = "invalid"
)

// CardVerification is what a [CardVerifier] found on a card.
type CardVerification struct {
	Status CardSignatureStatus
	// KeyID and Algorithm are the kid and alg of the signature that
	// verified (Status [CardSignatureVerified] only).
	KeyID, Algorithm string
	// Form names the canonical form the signature verified over: "spec"
	// (A2A v1.0 §8.4.1 as written) or a form a deployed signer produces
	// that the verifier was allowed to accept (package cardsig: "a2a-js").
	Form string
	// Unsigned lists, as JSON pointers (RFC 6901) into the card as
	// received, the members that Form leaves out of what it signs
	// (members outside the A2A v1.0 schema, empty values). Nothing
	// vouches for them: ignore them, and route only by
	// supportedInterfaces. Empty for the spec form.
	Unsigned []string
	// Warnings are findings that do not change Status, e.g. a protected
	// header without typ "JOSE" (A2A v1.0 §8.4.2 says it SHOULD be).
	Warnings []string
	// Err says why Status is not [CardSignatureVerified] (nil when it is, and for
	// [CardSignatureAbsent]). Its text may quote the card: show it through
	// the error of [CardSignatureError], which makes it inert.
	Err error
}

// Verified reports whether v says the card verified. A nil v did not.
func (v *CardVerification) Verified() bool {
	return v != nil && v.Status == CardSignatureVerified
}

// Verification returns what the client's [CardVerifier] found on the card
// ([WithCardVerifier]), or nil when no verifier has seen it.
func (c *AgentCard) Verification() *CardVerification {
	if c == nil {
		return nil
	}
	return c.verification
}

// Origin returns where the card was read, as "scheme://host:port" (e.g.
// "https://agent.example:443"): the URL [ResolveAgentCard] read it from, or
// the endpoint that served an extended card. It is empty for a card built
// or decoded by the caller. A verifier pins keys per origin with it.
func (c *AgentCard) Origin() string {
	if c == nil {
		return ""
	}
	return c.origin
}

// ErrCardSignatureInvalid matches a *[CardSignatureError] for a card whose
// signatures are invalid ([CardSignatureInvalid]): refused wherever a
// verifier sees it.
var ErrCardSignatureInvalid = errors.New("a2a: agent card signature invalid")

// ErrCardNotVerified matches every *[CardSignatureError]: a card refused
// because it did not verify (invalid, or, where the caller requires a
// verified card or the client carries credentials, unverifiable or
// unsigned).
var ErrCardNotVerified = errors.New("a2a: agent card not verified")

// CardSignatureError is returned by [ResolveAgentCard],
// [Client.GetExtendedAgentCard] and [NewClientFromCard] for a card they
// refuse after verification ([WithCardVerifier]). errors.Is matches it to
// [ErrCardNotVerified], and to [ErrCardSignatureInvalid] when Status is
// [CardSignatureInvalid].
type CardSignatureError struct {
	// Status is the verification's outcome.
	Status CardSignatureStatus
	// Reason says why, inert and redacted; may be empty.
	Reason string
	// Why names the rule that refused it: "invalid signature", "verified
	// card required" or "credentials need a verified card".
	Why string
	// Verification is the verifier's whole answer.
	Verification *CardVerification
}

// Error reads e.g. "a2a: agent card refused (invalid signature): signature
// status invalid: kid "k1": signature does not verify".
func (e *CardSignatureError) Error() string {
	s := fmt.Sprintf("a2a: agent card refused (%s): signature status %s", e.Why, e.Status)
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// Is matches [ErrCardNotVerified], and [ErrCardSignatureInvalid] for an
// invalid card.
func (e *CardSignatureError) Is(target error) bool {
	return target == ErrCardNotVerified || (target == ErrCardSignatureInvalid && e.Status == CardSignatureInvalid)
}

// WithCardVerifier makes [ResolveAgentCard] and [Client.GetExtendedAgentCard]
// verify each card they read (every fetch anew) and [NewClientFromCard]
// verify a card no verifier has seen ([AgentCard.Verification] is nil),
// with v; the result is on the card, [AgentCard.Verification]. A card
// whose signatures are invalid is always refused with a
// *[CardSignatureError]. [WithRequireVerifiedCard] refuses any card that
// did not verify; and [NewClientFromCard] never lets a card that is
// unverifiable (signed, but not by a key the verifier trusts) make the
// client send credentials. A2A v1.0 §8.4.3. NewClientFromCard has no
// ctx: a verifier that fetches keys (a jku) does so there under
// context.Background() and its own time bounds, so verify while resolving
// (ResolveAgentCard with this option) to keep all I/O under your ctx. It
// returns an error for a nil v.
func WithCardVerifier(v CardVerifier) Option {
	return clientOption(func(c *clientConfig) error {
		if v == nil {
			return errors.New("a2a: WithCardVerifier: nil verifier")
		}
		c.cards.verifier = v
		return nil
	})
}

// WithRequireVerifiedCard makes [ResolveAgentCard],
// [Client.GetExtendedAgentCard] and [NewClientFromCard] refuse, with a
// *[CardSignatureError], any card whose verification is not
// [CardSignatureVerified]: unsigned and unverifiable cards too. It needs
// [WithCardVerifier]: without one the options are refused as bad input.
// NewClientFromCard takes a card already verified (by [ResolveAgentCard]
// with a verifier) as it is.
func WithRequireVerifiedCard() Option {
	return clientOption(func(c *clientConfig) error {
		c.cards.require = true
		return nil
	})
}

// cardChecks is what a client does with the cards it reads: the
// verifier of WithCardVerifier and whether WithRequireVerifiedCard holds.
type cardChecks struct {
	verifier CardVerifier
	require  bool
}

// check refuses WithRequireVerifiedCard without a verifier.
func (k cardChecks) check() error {
	if k.require && k.verifier == nil {
		return errors.New("a2a: WithRequireVerifiedCard needs WithCardVerifier")
	}
	return nil
}

// verify runs the verifier, if any, on card (a card no caller holds yet:
// it is written) and returns a *CardSignatureError, showing text through
// red, when the card must be refused (policy).
func (k cardChecks) verify(ctx context.Context, card *AgentCard, red *redact.Redactor) error {
	if k.verifier == nil {
		return nil
	}
	v := k.verifier.VerifyCard(ctx, card)
	if v == nil {
		v = &CardVerification{Status: CardSignatureUnverifiable, Err: errors.New("the verifier returned no result")}
	}
	v = unsignedEndpoints(card, v)
	card.verification = v
	return k.policy(v, red)
}

// unsignedEndpoints returns v, or for a card verified over a form that
// leaves a member the client routes by unsigned (NewClientFromCard,
// choice.go: supportedInterfaces on a v1.0 card; url,
// preferredTransport, additionalInterfaces and protocolVersion on a v0.3
// one), a copy that is [CardSignatureUnverifiable]: a signature that does not
// cover where the client would send its requests vouches for nothing the
// client uses it for.
func unsignedEndpoints(card *AgentCard, v *CardVerification) *CardVerification {
	if v.Status != CardSignatureVerified {
		return v
	}
	routes := []string{"/url", "/preferredTransport", "/additionalInterfaces", "/protocolVersion"}
	if card.isV10() {
		routes = []string{"/supportedInterfaces"}
	}
	for _, p := range v.Unsigned {
		for _, r := range routes {
			if p == r || strings.HasPrefix(p, r+"/") {
				u := *v
				u.Status = CardSignatureUnverifiable
				u.Err = fmt.Errorf("signature by %s verified over the %s form, which leaves %s unsigned: the card's endpoints are not all signed", u.KeyID, u.Form, p)
				return &u
			}
		}
	}
	return v
}

// policy returns the *CardSignatureError for a card verified as v that
// the client must refuse: invalid always, anything not verified under
// WithRequireVerifiedCard; or nil.
func (k cardChecks) policy(v *CardVerification, red *redact.Redactor) error {
	switch {
	case v == nil || k.verifier == nil:
		return nil
	case v.Status == CardSignatureInvalid:
		return cardRefused(v, "invalid signature", red)
	case k.require && !v.Verified():
		return cardRefused(v, "verified card required", red)
	}
	return nil
}

// credentials returns a *CardSignatureError when a client that carries
// credentials would be made from a card that is signed and did not
// verify (DESIGN behaviour 6): a signature the verifier cannot check is
// no ground to send secrets where the card says. An unsigned card is
// left to the origin rule (trust.go) unless verified cards are required.
func (k cardChecks) credentials(v *CardVerification, carries bool, red *redact.Redactor) error {
	// v may be another client's verifier's (ResolveAgentCard's): what it
	// found holds whether or not this client was given a verifier.
	if v == nil || !carries || v.Status == CardSignatureVerified || v.Status == CardSignatureAbsent {
		return nil
	}
	return cardRefused(v, "credentials need a verified card", red)
}

// cardRefused builds the error for v, its reason inert and redacted.
func cardRefused(v *CardVerification, why string, red *redact.Redactor) error {
	reason := ""
	if v.Err != nil {
		reason = inert.Truncate(inert.Printable(red.Str(v.Err.Error())), 400)
	}
	status := v.Status
	if !knownStatus(status) {
		status = CardSignatureStatus(inert.Truncate(inert.Printable(strings.TrimSpace(string(status))), 40))
	}
	return &CardSignatureError{Status: status, Reason: reason, Why: why, Verification: v}
}

func knownStatus(s CardSignatureStatus) bool {
	switch s {
	case CardSignatureVerified, CardSignatureAbsent, CardSignatureUnverifiable, CardSignatureInvalid:
		return true
	}
	return false
}
