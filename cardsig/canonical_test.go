package cardsig

import (
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"slices"
	"testing"

	"github.com/go-jose/go-jose/v4"
)

// a3Card is the worked example of the reference notes (A3): empties,
// defaults and an em dash.
const a3Card = `{"name":"Echo Agent","description":"","version":"1.0.0",
 "supportedInterfaces":[{"url":"https://agent.example/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":""}],
 "capabilities":{"streaming":true,"pushNotifications":false,"extensions":[]},
 "defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],
 "skills":[{"id":"echo","name":"Echo","description":"Repeats the input — verbatim","tags":["demo"],"examples":[]}]}`

const a3Spec = `{"capabilities":{"pushNotifications":false,"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"description":"","name":"Echo Agent","skills":[{"description":"Repeats the input — verbatim","id":"echo","name":"Echo","tags":["demo"]}],"supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"1.0","url":"https://agent.example/a2a"}],"version":"1.0.0"}`

// rfc8037Key is the Ed25519 test key of RFC 8037 Appendix A.1 (public:
// never use it for anything real).
func rfc8037Key(t *testing.T) ed25519.PrivateKey {
	t.Helper()
	d, err := base64.RawURLEncoding.DecodeString("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A")
	if err != nil {
		t.Fatal(err)
	}
	return ed25519.NewKeyFromSeed(d)
}

func canon(t *testing.T, card string, form Form) string {
	t.Helper()
	tree, err := parse([]byte(card))
	if err != nil {
		t.Fatal(err)
	}
	b, err := canonical(project(tree, form))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSpecFormWorkedExample: the spec form of the A3 card is the 401
// bytes the reference computed, and an Ed25519 signature with the RFC
// 8037 key over it is the reference's.
func TestSpecFormWorkedExample(t *testing.T) {
	got := canon(t, a3Card, FormSpec)
	if got != a3Spec || len(got) != 401 {
		t.Fatalf("spec form (%d bytes):\n%s\nwant (401 bytes):\n%s", len(got), got, a3Spec)
	}
	key := rfc8037Key(t)
	if x := base64.RawURLEncoding.EncodeToString(key.Public().(ed25519.PublicKey)); x != "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" {
		t.Fatalf("public key %s", x)
	}
	const prot = "eyJhbGciOiJFZERTQSIsImtpZCI6ImtleS0xIiwidHlwIjoiSk9TRSJ9"
	input := prot + "." + base64.RawURLEncoding.EncodeToString([]byte(got))
	sig := base64.RawURLEncoding.EncodeToString(ed25519.Sign(key, []byte(input)))
	if want := "46E_xW_KP-3ZzAMhjZjPj77wP1FrVzrlvJQktiPN0DngmUGgDM1TcWbz63OS6SM4AvBEeoBHgk_WlNrQMJ_QAA"; sig != want {
		t.Fatalf("signature %s, want %s", sig, want)
	}
	// go-jose agrees, over the detached payload.
	jws, err := jose.ParseDetached(prot+".."+sig, []byte(got), []jose.SignatureAlgorithm{jose.EdDSA})
	if err != nil {
		t.Fatal(err)
	}
	if err := jws.DetachedVerify([]byte(got), key.Public()); err != nil {
		t.Fatal(err)
	}
}

// TestSpecExample: §8.4.1's own example.
func TestSpecExample(t *testing.T) {
	got := canon(t, `{"name":"Example Agent","description":"","capabilities":{"streaming":false,"pushNotifications":false,"extensions":[]},"skills":[]}`, FormSpec)
	if want := `{"capabilities":{"pushNotifications":false,"streaming":false},"description":"","name":"Example Agent","skills":[]}`; got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// TestSpecFormSecuritySchemes: REQUIRED scopes kept even {}, the
// deprecated flows' (not REQUIRED) dropped; a scheme kind present as {}
// kept; descriptions "" dropped.
func TestSpecFormSecuritySchemes(t *testing.T) {
	got := canon(t, `{"securitySchemes":{"a":{"oauth2SecurityScheme":{"description":"","flows":{"authorizationCode":{"authorizationUrl":"https://a","tokenUrl":"https://t","refreshUrl":"","scopes":{},"pkceRequired":false}}}},"i":{"oauth2SecurityScheme":{"flows":{"implicit":{"authorizationUrl":"","scopes":{}}}}},"m":{"mtlsSecurityScheme":{}}}}`, FormSpec)
	want := `{"securitySchemes":{"a":{"oauth2SecurityScheme":{"flows":{"authorizationCode":{"authorizationUrl":"https://a","scopes":{},"tokenUrl":"https://t"}}}},"i":{"oauth2SecurityScheme":{"flows":{"implicit":{}}}},"m":{"mtlsSecurityScheme":{}}}}`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// TestA2AJSForm: a2a-js drops description:"" from the A3 card (384
// bytes), and the members it leaves unsigned are named.
func TestA2AJSForm(t *testing.T) {
	got := canon(t, a3Card, FormA2AJS)
	if len(got) != 384 {
		t.Fatalf("a2a-js form (%d bytes, want 384): %s", len(got), got)
	}
	card := `{"name":"A","description":"","version":"1","url":"https://v03.example","supportedInterfaces":[{"url":"https://a.example","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"defaultInputModes":["t"],"defaultOutputModes":["t"],"skills":[],"securityRequirements":[{"schemes":{"bearer":{"list":[]}}},{"schemes":{"oauth":{"list":["read"]}}}],"x-vendor":{"a":1}}`
	tree, err := parse([]byte(card))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/description", "/url", "/capabilities", "/skills", "/securityRequirements/0", "/x-vendor"}
	if got := unsigned(tree, FormA2AJS); !slices.Equal(got, want) {
		t.Fatalf("unsigned %q, want %q", got, want)
	}
	if got := canon(t, card, FormSpec); got != `{"capabilities":{},"defaultInputModes":["t"],"defaultOutputModes":["t"],"description":"","name":"A","securityRequirements":[{"schemes":{"bearer":{}}},{"schemes":{"oauth":{"list":["read"]}}}],"skills":[],"supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"1.0","url":"https://a.example"}],"url":"https://v03.example","version":"1","x-vendor":{"a":1}}` {
		t.Fatalf("spec form: %s", got)
	}
}

// TestCanonicalNumbersAndOrder: numbers as ECMAScript writes them, members
// sorted by UTF-16 code units (U+1F600 before U+FB33, unlike code point order), object member order of the input
// irrelevant.
func TestCanonicalNumbersAndOrder(t *testing.T) {
	a := canon(t, `{"name":"n","capabilities":{"extensions":[{"uri":"u","params":{"b":1.0,"a":1e-7,"c":1e21,"\ufb33":0,"\ud83d\ude00":1}}]}}`, FormSpec)
	b := canon(t, `{"capabilities":{"extensions":[{"params":{"\ud83d\ude00":1,"\ufb33":0,"c":1e21,"a":1e-7,"b":1.0},"uri":"u"}]},"name":"n"}`, FormSpec)
	want := `{"capabilities":{"extensions":[{"params":{"a":1e-7,"b":1,"c":1e+21,"😀":1,"דּ":0},"uri":"u"}]},"name":"n"}`
	if a != want || b != want {
		t.Fatalf("got\n%s\n%s\nwant\n%s", a, b, want)
	}
}

// TestParseRefuses: repeated members anywhere, invalid UTF-8, trailing
// data.
func TestParseRefuses(t *testing.T) {
	for _, card := range []string{
		`{"name":"a","name":"b"}`,
		`{"skills":[{"id":"a","tags":[],"id":"b"}]}`,
		"{\"name\":\"\xff\"}",
		`{"name":"a"} {}`,
		`{"name":`,
	} {
		_, err := parse([]byte(card))
		if err == nil {
			t.Errorf("%q: parsed", card)
		}
	}
	if _, err := parse([]byte(`{"a":{"b":1,"b":2}}`)); !errors.Is(err, errDuplicate) {
		t.Errorf("duplicate: %v", err)
	}
}
