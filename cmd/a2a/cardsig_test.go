package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"github.com/caoliao-a2a/a2a-go/cardsig"
)

// TestCardSignature: card get prints the signature status line (absent,
// unverifiable with why, invalid with why, verified with kid, alg and
// form: the specification's CARD_GET_004), refuses an unverified card
// with --require-signed-card, and -o json prints the card as received.
// The signature flags are global: send verifies the card it reads the
// same way, and sends nothing to an agent whose card it refuses.
func TestCardSignature(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		body  []byte
		posts int
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method != http.MethodGet {
			posts++
			http.Error(w, "no agent here", http.StatusNotFound)
			return
		}
		w.Write(body)
	}))
	defer srv.Close()
	serve := func(b []byte) {
		mu.Lock()
		defer mu.Unlock()
		body = b
	}
	card := `{"name":"Signed","description":"d","version":"1","supportedInterfaces":[{"url":"` + srv.URL + `/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[]}`
	signed, err := cardsig.Sign([]byte(card), jose.SigningKey{Algorithm: jose.EdDSA, Key: priv}, "cli-key")
	if err != nil {
		t.Fatal(err)
	}
	jwk, err := (&jose.JSONWebKey{Key: pub, KeyID: "cli-key"}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	keys := filepath.Join(t.TempDir(), "keys.json")
	if err := os.WriteFile(keys, []byte(`{"keys":[`+string(jwk)+`]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tampered := strings.Replace(string(signed), `"Signed"`, `"Signed\u001b[2J"`, 1)

	for _, c := range []struct {
		name string
		body string
		args []string
		code int
		out  string
	}{
		{"absent", card, nil, exitOK, "Signature: absent (the card is not signed)\n"},
		{"unverifiable", string(signed), nil, exitOK, `Signature: unverifiable (signature 0: kid "cli-key": no trusted key; give its keys with --card-keys)` + "\n"},
		{"verified", string(signed), []string{"--card-keys", keys}, exitOK, "Signature: verified (kid cli-key, alg EdDSA, form spec)\n"},
		{"invalid", tampered, []string{"--card-keys", keys}, exitError, `signature status invalid: signature 0: kid "cli-key": signature does not verify`},
		{"required", card, []string{"--card-keys", keys, "--require-signed-card"}, exitError, "agent card refused (verified card required): signature status absent"},
		{"required, from the environment", card, []string{"--card-keys", keys}, exitError, "agent card refused (verified card required): signature status absent"},
	} {
		t.Run(c.name, func(t *testing.T) {
			serve([]byte(c.body))
			in := invocation{}
			if strings.Contains(c.name, "environment") {
				in.env = map[string]string{"A2ACLI_REQUIRE_SIGNED_CARD": "true"}
			}
			r := in.run(t, append([]string{"card", "get", "-a", srv.URL}, c.args...)...)
			if r.code != c.code || !strings.Contains(r.stdout+r.stderr, c.out) {
				t.Fatalf("exit %d (want %d)\nstdout %s\nstderr %s\nwant %q", r.code, c.code, r.stdout, r.stderr, c.out)
			}
			if strings.Contains(r.stdout+r.stderr, "\x1b") {
				t.Fatal("a control character reached the terminal")
			}
			if c.code == exitError && !strings.Contains(r.stderr, "A2ACLI_ERR_CARD_INVALID") {
				t.Errorf("stderr does not name A2ACLI_ERR_CARD_INVALID:\n%s", r.stderr)
			}
			// send reads the card the same way: refused, nothing sent.
			if c.code == exitError {
				r := in.run(t, append([]string{"send", "-a", srv.URL, "hi"}, c.args...)...)
				r.wantCode(t, exitError)
				if !strings.Contains(r.stderr, c.out) {
					t.Errorf("send: stderr does not say %q:\n%s", c.out, r.stderr)
				}
				mu.Lock()
				defer mu.Unlock()
				if posts != 0 {
					t.Errorf("send sent %d requests to the agent of a refused card", posts)
				}
			}
		})
	}

	serve(signed)
	r := a2aCmd(t, "card", "get", "-o", "json", "--card-keys", keys, "-a", srv.URL)
	r.wantCode(t, exitOK)
	if r.stdout != string(compact(signed))+"\n" {
		t.Fatalf("-o json is not the card as received:\n%s", r.stdout)
	}
	if r := a2aCmd(t, "card", "get", "--card-keys", filepath.Join(t.TempDir(), "none.json"), "-a", srv.URL); r.code != exitUsage {
		t.Fatalf("missing key file: exit %d %s", r.code, r.stderr)
	}
}
