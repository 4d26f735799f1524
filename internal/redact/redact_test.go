package redact

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

const key = "sk-live-9f8e7d6c5b4a+/="

func newTest(t *testing.T) *Redactor {
	t.Helper()
	u, err := url.Parse("https://user:pa55w0rd@agent.example/a2a?token=qs-token-1234&page=2")
	if err != nil {
		t.Fatal(err)
	}
	return New(u, key, "bearer-token-abcdef", http.Header{"X-Api-Key": {"hdr-secret-777"}, "Accept": {"application/json"}})
}

// TestStrSpellings: each secret is removed in its plain, Go-quoted,
// JSON-escaped, query-escaped and path-escaped spellings, each long run of
// it on its own, and spelled with escapes of printable ASCII.
func TestStrSpellings(t *testing.T) {
	r := newTest(t)
	for _, s := range []string{
		key, `sk-live-9f8e7d6c5b4a+\/=`, url.QueryEscape(key), url.PathEscape(key), "9f8e7d6c5b4a",
		`sk-live-9f8e7d6c5b4a\u002B/=`, "sk-live-9f8e7d6c5b4a%2b/=", "sk-live-9f8e7d6c5b4a&#43;/=",
		"bearer-token-abcdef", "hdr-secret-777", "pa55w0rd", "qs-token-1234",
	} {
		if got := r.Str("echo: " + s + " end"); strings.Contains(got, "9f8e7d6c5b4a") || strings.Contains(got, "abcdef") ||
			strings.Contains(got, "secret-777") || strings.Contains(got, "pa55w0rd") || strings.Contains(got, "token-1234") {
			t.Errorf("Str(%q) = %q: a secret survived", s, got)
		}
	}
	if got := r.Str("nothing to hide here"); got != "nothing to hide here" {
		t.Errorf("Str changed text without a secret: %q", got)
	}
	if got := r.Str("Accept: application/json"); got != "Accept: application/json" {
		t.Errorf("a header that is no credential was redacted: %q", got)
	}
}

// TestWith: With adds a call's secrets to a copy; the client's redactor
// is unchanged, and With of nothing is the redactor itself.
func TestWith(t *testing.T) {
	r := newTest(t)
	if r.With(nil, nil) != r {
		t.Error("With(nil, nil) is not r")
	}
	call := r.With([]string{"push-token-xyz789"}, []string{"https://hook.example/cb?sig=hooksig123456"})
	for _, s := range []string{"push-token-xyz789", "hooksig123456", key} {
		if got := call.Str(s); got != redacted {
			t.Errorf("call redactor: Str(%q) = %q", s, got)
		}
	}
	if got := r.Str("push-token-xyz789"); got != "push-token-xyz789" {
		t.Errorf("With changed the client's redactor: %q", got)
	}
}

// TestCuts: Quote, QuoteStart and Excerpt cut after redacting, so a
// secret the cut splits leaves no part of itself.
func TestCuts(t *testing.T) {
	r := newTest(t)
	long := strings.Repeat("a", 30) + key
	for name, got := range map[string]string{
		"Quote":      r.Quote(long),
		"QuoteStart": r.QuoteStart([]byte(long)),
		"Excerpt":    string(r.Excerpt([]byte(long), 36)),
	} {
		if strings.Contains(got, "sk-l") || strings.Contains(got, "9f8e") {
			t.Errorf("%s = %q: part of the key survived the cut", name, got)
		}
	}
	if got := r.Bytes(nil); got != nil {
		t.Errorf("Bytes(nil) = %q", got)
	}
}

// TestErrAndURL: Err drops a *url.Error's URL and redacts the rest;
// ShownURL drops userinfo, query and fragment.
func TestErrAndURL(t *testing.T) {
	r := newTest(t)
	err := r.Err(&url.Error{Op: "Post", URL: "https://user:pa55w0rd@agent.example/a2a?token=qs-token-1234", Err: errors.New("refused for bearer-token-abcdef")})
	if got := err.Error(); got != "refused for "+redacted {
		t.Errorf("Err = %q", got)
	}
	plain := errors.New("plain")
	if r.Err(plain) != plain || r.Err(nil) != nil {
		t.Error("Err wrapped an error without a secret, or made one of nil")
	}
	for raw, want := range map[string]string{
		"https://user:pa55w0rd@agent.example/a2a?token=qs-token-1234#frag": "https://agent.example/a2a",
		// Without "scheme://", "user:password@host" parses as scheme
		// "user" and an opaque "password@host/…": both go.
		"admin:hunter2-pw@agent.example/a2a?q=1": "agent.example/a2a",
		"admin:p@ss@agent.example:8443/a2a":      "agent.example:8443/a2a",
		"mailto:ops@agent.example":               "agent.example",
		"urn:a2a:agent":                          "urn:a2a:agent",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.ShownURL(*u); got != want {
			t.Errorf("ShownURL(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestEveryHeader: the value of a header of any name is a secret when it
// is 6 bytes or more (every one of a credential-named header); shorter
// ones, and the Accept headers' media types, are not.
func TestEveryHeader(t *testing.T) {
	u, _ := url.Parse("https://agent.example/a2a")
	r := New(u, "", "", http.Header{"X-Route": {"rt-9Qx7/zz"}, "X-Flag": {"1"}, "X-Format": {"json"}, "X-Pwd": {"abc"},
		"Accept": {"application/json"}, "Accept-Language": {"zh-CN"}})
	for in, want := range map[string]string{
		"route rt-9Qx7/zz":        "route " + redacted,
		"route rt-9Qx7%2Fzz":      "route " + redacted,
		"pwd abc":                 "pwd " + redacted,
		"1 json application/json": "1 json application/json",
		"zh-CN":                   "zh-CN",
	} {
		if got := r.Str(in); got != want {
			t.Errorf("Str(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestNilRedactor: a nil *Redactor (an error value the caller built)
// redacts nothing and does not panic.
func TestNilRedactor(t *testing.T) {
	var r *Redactor
	if got := r.Str("sk-abc"); got != "sk-abc" {
		t.Errorf("Str = %q", got)
	}
	if got := r.Quote("t1"); got != `"t1"` {
		t.Errorf("Quote = %q", got)
	}
}
