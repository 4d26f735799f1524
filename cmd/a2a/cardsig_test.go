package main

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/cardsig"
)

// TestCardSignature: the card command prints the signature status line
// (absent, unverifiable with why, invalid with why, verified with kid,
// alg and form), refuses an unverified card with --require-signed-card,
// and --json with --card-keys prints the card as received beside its
// verification.
func TestCardSignature(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
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
		{"absent", card, nil, exitOK, "  signature: absent (the card is not signed)\n"},
		{"unverifiable", string(signed), nil, exitOK, `  signature: unverifiable (signature 0: kid "cli-key": no trusted key; give its keys with --card-keys)` + "\n"},
		{"verified", string(signed), []string{"--card-keys", keys}, exitOK, "  signature: verified (kid cli-key, alg EdDSA, form spec)\n"},
		{"invalid", tampered, []string{"--card-keys", keys}, exitError, `signature status invalid: signature 0: kid "cli-key": signature does not verify`},
		{"required", card, []string{"--card-keys", keys, "--require-signed-card"}, exitError, "agent card refused (verified card required): signature status absent"},
	} {
		t.Run(c.name, func(t *testing.T) {
			body = []byte(c.body)
			r := a2aCmd(t, append(append([]string{"card"}, c.args...), srv.URL)...)
			if r.code != c.code || !strings.Contains(r.stdout+r.stderr, c.out) {
				t.Fatalf("exit %d (want %d)\nstdout %s\nstderr %s\nwant %q", r.code, c.code, r.stdout, r.stderr, c.out)
			}
			if strings.Contains(r.stdout+r.stderr, "\x1b") {
				t.Fatal("a control character reached the terminal")
			}
		})
	}

	body = signed
	r := a2aCmd(t, "card", "--json", "--card-keys", keys, srv.URL)
	var out struct {
		Card         json.RawMessage `json:"card"`
		Verification struct {
			Status, Kid, Alg, Form string
		} `json:"verification"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != exitOK {
		t.Fatalf("%d %v: %s %s", r.code, err, r.stdout, r.stderr)
	}
	if string(out.Card) != string(signed) || out.Verification.Status != string(a2a.CardSignatureVerified) || out.Verification.Kid != "cli-key" || out.Verification.Form != "spec" {
		t.Fatalf("%s", r.stdout)
	}
	if r := a2aCmd(t, "card", "--card-keys", filepath.Join(t.TempDir(), "none.json"), srv.URL); r.code != exitUsage {
		t.Fatalf("missing key file: exit %d %s", r.code, r.stderr)
	}
}
