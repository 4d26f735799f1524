package redact

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestEscapedSpace: a secret with a space in it, echoed with every
// character escaped (the space as \u0020, %20 or &#32;), is redacted.
func TestEscapedSpace(t *testing.T) {
	u, _ := url.Parse("https://agent.example/a2a")
	r := New(u, "sk K3y 9z", "", nil)
	for _, in := range []string{`\u0073\u006b\u0020\u004b\u0033\u0079\u0020\u0039\u007a`, "sk%20K3y%209z", "sk&#32;K3y&#32;9z"} {
		if got := r.Str("echo " + in); got != "echo "+redacted {
			t.Errorf("Str(%q) = %q", in, got)
		}
	}
}

// TestEscapedEchoKeepsTheRest: a secret echoed with its characters
// escaped is replaced where it stands, and only there: the text around it,
// its own escapes included, comes back as it was, so JSON stays valid
// JSON; a secret escaped inside JSON (\\u0073: a JSON string holding
// \u0073) is found too.
func TestEscapedEchoKeepsTheRest(t *testing.T) {
	u, _ := url.Parse("https://agent.example/a2a")
	r := New(u, "sk-SECRETAPIKEY123456", "", nil)
	pct := "%73%6B%2D%53%45%43%52%45%54%41%50%49%4B%45%59%31%32%33%34%35%36"
	var dbl strings.Builder
	for _, c := range "sk-SECRETAPIKEY123456" {
		fmt.Fprintf(&dbl, `\\u%04x`, c)
	}
	for _, tt := range []struct{ in, want string }{
		{`{"text":"C:\\u0041dir ` + pct + ` \u00e9"}`, `{"text":"C:\\u0041dir ` + redacted + ` \u00e9"}`},
		{`{"text":"see ` + dbl.String() + `, C:\\u0041dir"}`, `{"text":"see ` + redacted + `, C:\\u0041dir"}`},
		{`a %41 b ` + pct + `%20c`, `a %41 b ` + redacted + `%20c`},
	} {
		got := r.Str(tt.in)
		if got != tt.want {
			t.Errorf("Str(%q)\n = %q\nwant %q", tt.in, got, tt.want)
		}
		if strings.HasPrefix(tt.in, "{") && !json.Valid([]byte(got)) {
			t.Errorf("Str(%q) = %q is no longer JSON", tt.in, got)
		}
	}
}

// TestOverlappingSecrets: secrets that overlap in an echo (one's end is
// the other's start; one inside another's escaped spelling) are hidden
// whole, not the first found and the rest of the other shown.
func TestOverlappingSecrets(t *testing.T) {
	u, _ := url.Parse("https://agent.example/a2a")
	r := New(u, "Xk9mQ2", "bearer-OPQRSTuvw", http.Header{"X-Route": {"Q2pLongHeaderSecretValue0123456789"}})
	for _, in := range []string{
		"echo: Xk9mQ2pLongHeaderSecretValue0123456789 end",
		"echo: Q2pLongHeaderSecretValue0123456789Xk9mQ2 end",
		"echo: bearer-OPQRSTuvwXk9mQ2pLongHeaderSecretValue0123456789 end",
		`echo: \u0058k9mQ2pLongHeaderSecretValue0123456789 end`,
	} {
		got := r.Str(in)
		if got != "echo: "+redacted+" end" {
			t.Errorf("Str(%q) = %q", in, got)
		}
	}
}

// TestQuotedSecretInJSON: a secret holding a quote and a backslash, echoed
// Go-quoted inside text that is itself sent as JSON (so escaped twice), is
// found.
func TestQuotedSecretInJSON(t *testing.T) {
	u, _ := url.Parse("https://agent.example/a2a")
	secret := `ab"cd\ef12XY`
	r := New(u, secret, "", nil)
	text := "q=" + strconv.Quote(secret) + " end"
	b, _ := json.Marshal(map[string]string{"text": text})
	got := r.Str(string(b))
	if strings.Contains(got, "cd") || !json.Valid([]byte(got)) {
		t.Errorf("Str(%s) = %s", b, got)
	}
}

// TestEscapedNonASCIISecret: a secret with letters beyond ASCII, echoed
// with them escaped (\u00e4 as JSON encoders write by default, &#228;,
// %C3%A4, a surrogate pair for one beyond the BMP, or JSON inside JSON),
// is redacted, the text around it kept.
func TestEscapedNonASCIISecret(t *testing.T) {
	u, _ := url.Parse("https://agent.example/a2a")
	r := New(u, "pässwörd123😀", "", nil)
	for _, in := range []string{
		`p\u00e4ssw\u00f6rd123\ud83d\ude00`,
		`p&#228;ssw&#xf6;rd123&#128512;`,
		`p%C3%A4ssw%C3%B6rd123%F0%9F%98%80`,
		`p\\u00e4ssw\\u00f6rd123\\ud83d\\ude00`,
		`p\U000000e4ssw\u00f6rd123\U0001F600`,
	} {
		if got := r.Str("a " + in + " b"); got != "a "+redacted+" b" {
			t.Errorf("Str(%q) = %q", in, got)
		}
	}
}

// TestHTMLEscapedSecret: a secret holding HTML's special characters,
// echoed through an HTML escaper (named entities), is redacted.
func TestHTMLEscapedSecret(t *testing.T) {
	u, _ := url.Parse("https://agent.example/a2a")
	secret := `ab/cd+ef=gh&i<j>"k'l`
	r := New(u, secret, "", nil)
	in := "<p>" + html.EscapeString(secret) + "</p>"
	if got := r.Str(in); got != "<p>"+redacted+"</p>" {
		t.Errorf("Str(%q) = %q", in, got)
	}
}
