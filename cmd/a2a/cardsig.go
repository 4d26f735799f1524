package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/cardsig"
)

// Signed agent cards in the card command (A2A v1.0 §8.4; the A2A CLI
// specification's A2ACLI_CARD_GET_004): every card is verified, with the
// keys of --card-keys when given, and its signature status printed.

// cardVerifier returns the verifier the card command resolves with. It
// accepts the spec's canonical form and a2a-js's (printed, with the
// members that form leaves unsigned).
func (o *options) cardVerifier() (a2a.CardVerifier, error) {
	opts := []cardsig.Option{cardsig.WithForms(cardsig.FormA2AJS)}
	if o.cardKeys != "" {
		b, err := readSmall(o.cardKeys, 1<<20)
		if err != nil {
			return nil, usagef("--card-keys: %v", err)
		}
		opts = append(opts, cardsig.WithKeySet(b))
	}
	if o.jkuHosts != "" {
		opts = append(opts, cardsig.WithJKUHosts(strings.Split(o.jkuHosts, ",")...))
	}
	v, err := cardsig.NewVerifier(opts...)
	if err != nil {
		return nil, usagef("%s", strings.TrimPrefix(err.Error(), "cardsig: "))
	}
	return v, nil
}

// verifierOptions are the options that verify a card as the signature
// flags say.
func (o *options) verifierOptions() ([]a2a.Option, error) {
	v, err := o.cardVerifier()
	if err != nil {
		return nil, err
	}
	opts := []a2a.Option{a2a.WithCardVerifier(v)}
	if o.requireSigned {
		opts = append(opts, a2a.WithRequireVerifiedCard())
	}
	return opts, nil
}

// cardOptions are the options of a card GET: the retries, size cap, user
// agent and --debug log of every request, and the verifier; no
// credential, service parameter or gateway selector (a card is public:
// the specification's AUTH_008).
func (o *options) cardOptions() ([]a2a.Option, error) {
	opts, err := o.verifierOptions()
	if err != nil {
		return nil, err
	}
	return append(opts, o.baseOptions()...), nil
}

// signatureLine is the card's signature status: absent, unverifiable
// (why), invalid (why), verified (kid, alg, form).
func (o *options) signatureLine(v *a2a.CardVerification) string {
	if v == nil {
		return "not checked"
	}
	switch v.Status {
	case a2a.CardSignatureVerified:
		s := fmt.Sprintf("verified (kid %s, alg %s, form %s)", v.KeyID, v.Algorithm, v.Form)
		if len(v.Unsigned) > 0 {
			s += "; unsigned by that form: " + strings.Join(v.Unsigned, ", ")
		}
		return s
	case a2a.CardSignatureAbsent:
		return "absent (the card is not signed)"
	}
	why := "no reason given"
	if v.Err != nil {
		why = v.Err.Error()
	}
	if v.Status == a2a.CardSignatureUnverifiable && o.cardKeys == "" && o.jkuHosts == "" {
		why += "; give its keys with --card-keys"
	}
	return fmt.Sprintf("%s (%s)", v.Status, why)
}

// readSmall reads a file the user names, at most max bytes of it: a
// larger one (or a device such as /dev/zero) is refused, not read on.
func readSmall(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	switch {
	case err != nil:
		return nil, err
	case int64(len(b)) > max:
		return nil, fmt.Errorf("%s is larger than %d bytes", quote(path), max)
	}
	return b, nil
}
