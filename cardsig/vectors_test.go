package cardsig_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/cardsig"
)

// vectorDirEnv names a directory of vectors to check instead of
// testdata/a2ajs: the interop module's live check signs a fresh set with
// a2a-js into a temporary directory and runs TestA2AJSVectors on it.
const vectorDirEnv = "CARDSIG_A2AJS_DIR"

// manifest is testdata/a2ajs/manifest.json (see its README.md), written
// by interop/js/sign-cards.mjs.
type manifest struct {
	Generator string   `json:"generator"`
	Vectors   []vector `json:"vectors"`
}

type vector struct {
	Name     string   `json:"name"`
	Card     string   `json:"card"`
	JWKS     string   `json:"jwks"`
	Expect   string   `json:"expect"`
	Form     string   `json:"form"`
	Alg      string   `json:"alg"`
	KID      string   `json:"kid"`
	Unsigned []string `json:"unsigned"`
	Warn     bool     `json:"warn"`
	Note     string   `json:"note"`
}

func readVectors(t *testing.T) (dir string, m manifest) {
	t.Helper()
	dir = os.Getenv(vectorDirEnv)
	if dir == "" {
		dir = filepath.Join("testdata", "a2ajs")
	}
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	// Every outcome and every algorithm in use must be covered: a
	// manifest cut short must not pass quietly.
	seen := map[string]bool{}
	for _, v := range m.Vectors {
		seen[v.Expect] = true
		if v.Expect == "verified" {
			seen[v.Alg] = true
			seen["form "+v.Form] = true
		}
	}
	for _, want := range []string{"verified", "invalid", "unverifiable", "absent", "ES256", "ES384", "ES512", "EdDSA", "RS256", "PS256", "form spec", "form a2a-js"} {
		if !seen[want] {
			t.Fatalf("%s: no vector for %s", dir, want)
		}
	}
	return dir, m
}

// verifyVector decodes v's card as an agent would serve it and verifies
// it with a verifier that trusts v's key set, built with opts. ok is
// false when the card does not decode as an agent card at all: the SDK
// refuses it before any verifier sees it.
func verifyVector(t *testing.T, dir string, v vector, opts ...cardsig.Option) (got *a2a.CardVerification, ok bool) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, v.Card))
	if err != nil {
		t.Fatal(err)
	}
	jwks, err := os.ReadFile(filepath.Join(dir, v.JWKS))
	if err != nil {
		t.Fatal(err)
	}
	var card a2a.AgentCard
	if err := json.Unmarshal(raw, &card); err != nil {
		t.Logf("the card does not decode: %v", err)
		return nil, false
	}
	ver, err := cardsig.NewVerifier(append([]cardsig.Option{cardsig.WithKeySet(jwks)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return ver.VerifyCard(context.Background(), &card), true
}

// TestA2AJSVectors checks every vector of testdata/a2ajs (cards signed by
// @a2a-js/sdk 1.3.0's generateAgentCardSignature, cards signed over the
// spec's form by the generator itself, and variants of them that change
// one thing each: see its README.md) against a verifier that trusts the
// vectors' key set and accepts the a2a-js form: the status, the form
// and key that verified, and the members reported unsigned.
func TestA2AJSVectors(t *testing.T) {
	dir, m := readVectors(t)
	t.Logf("%s: %d vectors, %s", dir, len(m.Vectors), m.Generator)
	for _, v := range m.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			got, ok := verifyVector(t, dir, v, cardsig.WithForms(cardsig.FormA2AJS))
			if !ok {
				if v.Expect != "invalid" {
					t.Fatalf("%s: the card does not decode, want %s", v.Note, v.Expect)
				}
				return
			}
			if string(got.Status) != v.Expect {
				t.Fatalf("%s: status %s (%v), want %s", v.Note, got.Status, got.Err, v.Expect)
			}
			if v.Expect != "verified" {
				if got.Form != "" || got.KeyID != "" {
					t.Errorf("%s: status %s with form %q and kid %q", v.Note, got.Status, got.Form, got.KeyID)
				}
				return
			}
			if got.Form != v.Form || got.KeyID != v.KID || got.Algorithm != v.Alg {
				t.Errorf("%s: verified in form %q by %s %s, want form %q by %s %s", v.Note, got.Form, got.KeyID, got.Algorithm, v.Form, v.KID, v.Alg)
			}
			for _, p := range v.Unsigned {
				if !slices.Contains(got.Unsigned, p) {
					t.Errorf("%s: %s not among the unsigned members %q", v.Note, p, got.Unsigned)
				}
			}
			if v.Warn != (len(got.Warnings) != 0) {
				t.Errorf("%s: warnings %q", v.Note, got.Warnings)
			}
			if v.Form == "spec" && len(got.Unsigned) != 0 {
				t.Errorf("%s: the spec form leaves %q unsigned", v.Note, got.Unsigned)
			}
		})
	}
}

// TestA2AJSVectorsSpecFormOnly checks the same vectors with a verifier
// that accepts only the spec's form (the default): a card signed by
// a2a-js over its own form no longer verifies; it is unverifiable (a
// trusted key signed it, over a form not accepted: not tampering). Every
// other vector keeps its outcome.
func TestA2AJSVectorsSpecFormOnly(t *testing.T) {
	dir, m := readVectors(t)
	for _, v := range m.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			got, ok := verifyVector(t, dir, v)
			want := v.Expect
			if v.Form == "a2a-js" {
				// Signed by a trusted key in a form this verifier
				// does not accept: not verified, not tampering.
				want = "unverifiable"
			}
			if !ok {
				if want != "invalid" {
					t.Fatalf("%s: the card does not decode, want %s", v.Note, want)
				}
				return
			}
			if string(got.Status) != want {
				t.Fatalf("%s: status %s (%v), want %s", v.Note, got.Status, got.Err, want)
			}
			if want == "verified" && got.Form != "spec" {
				t.Errorf("%s: verified in form %q", v.Note, got.Form)
			}
		})
	}
}
