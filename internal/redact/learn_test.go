package redact

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// TestLearn: a secret learnt at run time is redacted, in the spellings a
// static one is, by the redactor and by those With made of it before or
// after; only the latest maxLearnt are kept.
func TestLearn(t *testing.T) {
	u, _ := url.Parse("https://agent.example/a2a")
	r := New(u, "", "", nil)
	call := r.With([]string{"pushtoken-abcdef"}, nil) // made before the token is learnt
	tok := "eyJhbGciOi.tok+en/1234567"
	if got := r.Str("echo " + tok); got != "echo "+tok {
		t.Fatalf("before Learn: %q", got)
	}
	r.Learn(tok)
	js, _ := json.Marshal("Bearer " + tok)
	for _, in := range []string{tok, url.QueryEscape(tok), string(js), strings.ToUpper("x") + tok + "x"} {
		for name, red := range map[string]*Redactor{"client": r, "call": call, "later": r.With([]string{"other-secret"}, nil)} {
			if got := red.Str("echo " + in); strings.Contains(got, "1234567") || strings.Contains(got, "eyJhbGciOi") {
				t.Errorf("%s: Str(%q) = %q", name, in, got)
			}
		}
	}
	if got := call.Str("pushtoken-abcdef"); got != redacted {
		t.Errorf("call's own secret: %q", got)
	}
	for i := range maxLearnt {
		r.Learn(fmt.Sprintf("later-token-%06d", i))
	}
	if got := r.Str(tok); got != tok {
		t.Errorf("the oldest of %d more secrets is still redacted: %q", maxLearnt, got)
	}
	if got := r.Str("later-token-000000"); got != redacted {
		t.Errorf("a recent secret is not redacted: %q", got)
	}
	if n := len(r.learnt.recent); n != maxLearnt {
		t.Errorf("kept %d secrets, want %d", n, maxLearnt)
	}
	var nilR *Redactor
	nilR.Learn("x-secret-value") // no panic
	if got := nilR.Str("x-secret-value"); got != "x-secret-value" {
		t.Errorf("nil redactor: %q", got)
	}
}

// TestLearnExcerpt: an excerpt cut inside a learnt secret keeps no part
// of it (reach counts learnt secrets).
func TestLearnExcerpt(t *testing.T) {
	u, _ := url.Parse("https://agent.example/a2a")
	r := New(u, "", "", nil)
	tok := strings.Repeat("Zq9", 30)
	r.Learn(tok)
	body := []byte(strings.Repeat("a", 20) + tok)
	if got := string(r.Excerpt(body, 40)); strings.Contains(got, "Zq9Zq9") {
		t.Errorf("Excerpt = %q", got)
	}
}

// TestLearnConcurrent: Learn and Str from many goroutines at once (run
// with -race), among fewer distinct secrets than are kept, so each is
// redacted once learnt.
func TestLearnConcurrent(t *testing.T) {
	u, _ := url.Parse("https://agent.example/a2a")
	r := New(u, "", "", nil)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				tok := fmt.Sprintf("token-%06d", (g+i)%(maxLearnt/2))
				r.Learn(tok)
				if got := r.Str("echo " + tok); got != "echo "+redacted {
					t.Errorf("Str after Learn = %q", got)
					return
				}
			}
		})
	}
	wg.Wait()
}
