package a2aoauth2

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// A token endpoint may echo the client secret it refused ("bad secret
// …"), and oauth2's *RetrieveError puts what it sent in its text. The
// client's redactor does not know the secret (a credential source hands
// out tokens), so ClientCredentials hides it from its errors itself.

// redacted is what a spelling of the secret is replaced with, as the
// client's redactor writes it.
const redacted = "[REDACTED]"

// minRun is the shortest run of letters and digits of the secret hidden
// on its own, in characters: what survives an escaping not foreseen
// below (\u002B for "+", %2b) is separators and short fragments.
const minRun = 6

// secretHidden is an error of a token fetch whose text hides the client
// secret. Unwrap gives the error as oauth2 returned it: errors.As finds
// its *oauth2.RetrieveError, whose Body and fields hold what the token
// endpoint sent, the secret too when it echoed it.
type secretHidden struct {
	err  error
	hide *strings.Replacer
}

func (e *secretHidden) Error() string { return e.hide.Replace(e.err.Error()) }
func (e *secretHidden) Unwrap() error { return e.err }

// hideSecret returns err with every spelling of secret hidden from its
// text (secretSpellings), or err itself when it is nil or secret empty.
func hideSecret(err error, clientID, secret string) error {
	if err == nil || secret == "" {
		return err
	}
	var pairs []string
	for _, s := range secretSpellings(clientID, secret) {
		pairs = append(pairs, s, redacted)
	}
	return &secretHidden{err: err, hide: strings.NewReplacer(pairs...)}
}

// secretSpellings is how secret may appear in an error's text, longest
// first (a Replacer takes the first that matches): as it is; Go-quoted
// (%q, as RetrieveError writes an error_description), also in ASCII;
// JSON-escaped, with and without HTML escapes, with "/" as "\/" too;
// query- and path-escaped; the HTTP Basic credentials oauth2 sends
// (base64 of the escaped "id:secret"); and each run of minRun or more
// letters and digits.
func secretSpellings(clientID, secret string) []string {
	inner := func(q string) string { return q[1 : len(q)-1] }
	forms := []string{
		secret,
		inner(strconv.Quote(secret)),
		inner(strconv.QuoteToASCII(secret)),
		url.QueryEscape(secret),
		url.PathEscape(secret),
		base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(clientID) + ":" + url.QueryEscape(secret))),
	}
	if b, err := json.Marshal(secret); err == nil {
		forms = append(forms, inner(string(b)))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(secret) == nil {
		forms = append(forms, inner(strings.TrimSuffix(buf.String(), "\n")))
	}
	for _, f := range slices.Clone(forms) {
		forms = append(forms, strings.ReplaceAll(f, "/", `\/`))
	}
	runs := strings.FieldsFunc(secret, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, r := range runs {
		if len([]rune(r)) >= minRun {
			forms = append(forms, r)
		}
	}
	slices.SortFunc(forms, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(forms)
}
