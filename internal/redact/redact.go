// Package redact removes a client's secrets from text that may reach an
// error or a log record (DESIGN.md behaviour 6): the one redactor every
// error the client builds goes through.
package redact

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// Redactor removes every secret a client knows from text that may reach an
// error or a log record: the API key, the bearer token, the endpoint's
// userinfo and query values, the values of the extra headers (every one
// of a credential-named header; of another, those of minSecretRun bytes
// or more, unless the header only names formats: Accept…), and,
// for one call, the secrets that call carries in its body (a push config's
// token and credentials). It is the only place that does, so every error
// the client builds goes through one of its methods.
//
// Each secret is matched in its Go-quoted, JSON-escaped (with and without
// "\/"), query-escaped and path-escaped spellings, and every run of 6 or
// more letters and digits of it on its own, longest first, so no part of
// one survives in any common encoding (an encoder that writes "+" as
// \u002B, &#43; or %2b leaves only separators and short fragments).
// A nil *Redactor knows no secret: it redacts nothing.
type Redactor struct {
	forms []string // every spelling to replace, longest first
	rep   *strings.Replacer
	// learnt is the secrets learnt while the client runs (Learn): shared
	// by the redactors With makes of this one; nil on a redactor made of
	// them alone.
	learnt *learnt
}

// minSecretRun is the shortest run of letters and digits in a secret that
// is redacted on its own, in bytes.
const minSecretRun = 6

// redacted is what a secret is replaced with.
const redacted = "[REDACTED]"

// New returns the redactor for a client of endpoint u sending the
// given API key, bearer token and extra headers.
func New(u *url.URL, apiKey, bearer string, header http.Header) *Redactor {
	f := formSet{}
	f.secret(apiKey)
	f.secret(bearer)
	f.url(u)
	for name, vs := range header {
		if describesContent(name) {
			continue
		}
		for _, v := range vs {
			if !CredentialName(name) && len(v) < minSecretRun {
				continue // "1", "json": too short to hide everywhere
			}
			f.secret(v) // "sid=…; theme=dark": its long runs too
			scheme, token, ok := strings.Cut(v, " ")
			if !ok {
				continue
			}
			token = strings.TrimSpace(token) // "Bearer <token>"
			f.secret(token)
			if strings.EqualFold(scheme, "Basic") { // and what it encodes
				if b, err := base64.StdEncoding.DecodeString(token); err == nil {
					f.secret(string(b))
				}
			}
		}
	}
	r := f.redactor()
	r.learnt = &learnt{}
	return r
}

// url adds the credentials a URL may carry: its userinfo (and the Basic
// credentials net/http makes of it), its query values (all of those of
// credential-named parameters, the others from 4 bytes up), and the
// segments of its path that look like a key (tokenish).
func (f formSet) url(u *url.URL) {
	for part := range strings.FieldsFuncSeq(u.Path, func(r rune) bool { return strings.ContainsRune("/:;=,@+", r) }) {
		if tokenish(part) {
			f.secret(part)
		}
	}
	if u.User != nil {
		name := u.User.Username()
		f.add(name, 4)
		if len(name) >= minSecretRun { // a token as the user name
			f.secret(name)
		}
		p, ok := u.User.Password()
		if ok {
			f.secret(p)
		}
		// net/http sends userinfo as "Authorization: Basic <this>",
		// password or not.
		f.add(base64.StdEncoding.EncodeToString([]byte(name+":"+p)), 1)
		f.add(u.User.String(), 4) // as written in the URL, escapes and all
	}
	for pair := range strings.SplitSeq(u.RawQuery, "&") {
		rawName, rawValue, _ := strings.Cut(pair, "=")
		name, err1 := url.QueryUnescape(rawName)
		value, err2 := url.QueryUnescape(rawValue)
		switch {
		case CredentialName(name) || err1 != nil:
			f.add(rawValue, 1) // as written, as it goes on the wire
			if err2 == nil {
				f.secret(value)
			}
		default: // perhaps a credential all the same, unless very short
			f.add(rawValue, 4)
			if err2 == nil {
				f.add(value, 4)
			}
		}
	}
}

// With returns a redactor that also removes secrets and the credentials
// in the URLs; r itself is unchanged. With neither it returns r.
func (r *Redactor) With(secrets, urls []string) *Redactor {
	if len(secrets) == 0 && len(urls) == 0 {
		return r
	}
	f := formSet{}
	for _, s := range r.forms {
		f[s] = true
	}
	for _, s := range secrets {
		f.secret(s)
	}
	for _, raw := range urls {
		if u, err := url.Parse(raw); err == nil {
			f.url(u)
		}
	}
	w := f.redactor()
	w.learnt = r.learnt
	return w
}

// formSet collects the spellings of secrets.
type formSet map[string]bool

// add adds s, when at least minLen bytes long, in each of its spellings.
func (f formSet) add(s string, minLen int) {
	if len(s) < max(minLen, 1) {
		return
	}
	q := strconv.Quote(s)
	forms := []string{s, q[1 : len(q)-1], url.QueryEscape(s), url.PathEscape(s)}
	if j, err := json.Marshal(s); err == nil {
		js := string(j[1 : len(j)-1])
		forms = append(forms, js, strings.ReplaceAll(js, "/", `\/`)) // PHP-style "\/"
	}
	for _, form := range forms {
		f[form] = true
	}
}

// secret adds s and each run of minSecretRun or more letters and digits
// in it.
func (f formSet) secret(s string) {
	f.add(s, 1)
	for run := range strings.FieldsFuncSeq(s, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9')
	}) {
		f.add(run, minSecretRun)
	}
}

// redactor is the redactor of the spellings in f, learning nothing.
func (f formSet) redactor() *Redactor {
	forms := slices.SortedFunc(maps.Keys(f), func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(forms))
	for _, s := range forms {
		pairs = append(pairs, s, redacted)
	}
	return &Redactor{forms: forms, rep: strings.NewReplacer(pairs...)}
}

// ShownURL is u as an error may show it: without userinfo, query or
// fragment, redacted. A URL written without "scheme://" as
// "user:password@host/…" parses as scheme "user" and the opaque
// "password@host/…": it is shown from its host on ("host/…").
func (r *Redactor) ShownURL(u url.URL) string {
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	if at := strings.LastIndex(u.Opaque, "@"); at >= 0 {
		u.Scheme, u.Opaque = "", u.Opaque[at+1:]
	}
	return r.Str(u.String())
}

// Str returns s with every secret replaced by "[REDACTED]", each run of
// text that spells one or more secrets (overlapping ones too) by one mark.
// A server can echo a secret with any of its characters escaped
// ("\u0045", "%45", "&#69;", or "\\u0045" inside JSON), which no list
// of spellings foresees: when s holds such escapes of printable ASCII,
// they are undone in a copy, and the spans of s whose copy spells a secret
// are replaced too. The rest of s, escapes included, comes back as it was
// (JSON stays JSON).
func (r *Redactor) Str(s string) string {
	s = r.own(s)
	if r != nil && r.learnt != nil {
		if l := r.learnt.now.Load(); l != nil {
			s = l.own(s)
		}
	}
	return s
}

// own is Str for r's own secrets, without those it learnt.
func (r *Redactor) own(s string) string {
	if r.replace(s) == s {
		plain, ok := unescape(s, nil)
		if !ok || r.replace(plain) == plain {
			return s // no secret: the common case, without allocating
		}
	}
	return r.spans(s)
}

// replace is r.rep.Replace(s) without allocating when no secret is in s,
// the common case (strings.Replacer copies s twice whatever it finds): a
// dry run through unchanged first tells.
func (r *Redactor) replace(s string) string {
	if r == nil || len(r.forms) == 0 { // a nil Redactor knows no secret
		return s
	}
	u := unchanged{s: s}
	r.rep.WriteString(&u, s)
	if !u.changed {
		return s
	}
	return r.rep.Replace(s)
}

// unchanged is the writer of replace's dry run: it compares what the
// replacer writes with s, the input, and notes any difference.
type unchanged struct {
	s       string
	off     int
	changed bool
}

func (u *unchanged) WriteString(p string) (int, error) {
	if !u.changed && strings.HasPrefix(u.s[u.off:], p) {
		u.off += len(p)
	} else {
		u.changed = true
	}
	return len(p), nil
}

func (u *unchanged) Write(p []byte) (int, error) { return u.WriteString(string(p)) }

// Bytes is Str for raw bytes; nil stays nil, and bytes without a secret
// come back as they are.
func (r *Redactor) Bytes(b []byte) []byte {
	if len(b) == 0 {
		return b
	}
	if s := r.Str(string(b)); s != string(b) {
		return []byte(s)
	}
	return b
}

// Quote returns s redacted, cut to 40 bytes and Go-quoted, for naming a
// server-sent value in an error. Redacting before the cut keeps a secret
// cut in two from surviving in part.
func (r *Redactor) Quote(s string) string {
	return strconv.Quote(inert.Truncate(r.Str(inert.Truncate(s, 40+r.reach())), 40))
}

// QuoteStart is Quote of the start of b, without copying the rest.
func (r *Redactor) QuoteStart(b []byte) string {
	return r.Quote(string(b[:min(len(b), 40+r.reach())]))
}

// Excerpt returns the start of a body for an error, redacted, at most n
// bytes (cut on a rune boundary).
func (r *Redactor) Excerpt(b []byte, n int) []byte {
	return []byte(inert.Truncate(r.Str(string(b[:min(len(b), n+r.reach())])), n))
}

// reach is how far past a cut a secret the cut splits can extend, in any
// spelling: ten bytes a character (an HTML entity such as "&#x0041;") of
// the longest form. Redacting the start of a text up to the cut and reach
// bytes more redacts all of what the cut keeps.
func (r *Redactor) reach() int {
	n := 0
	if r != nil && len(r.forms) > 0 {
		n = 10 * len(r.forms[0])
	}
	if r != nil && r.learnt != nil {
		if l := r.learnt.now.Load(); l != nil {
			n = max(n, l.reach())
		}
	}
	return n
}

// Err drops the *url.Error wrapper (its text holds the request URL, which
// may carry credentials) and redacts what is left.
func (r *Redactor) Err(err error) error {
	if err == nil {
		return nil
	}
	if ue, ok := errors.AsType[*url.Error](err); ok {
		err = ue.Err
	}
	if msg := r.Str(err.Error()); msg != err.Error() {
		return errors.New(msg)
	}
	return err
}

// tokenish reports whether part of a URL path (a segment, or a piece of
// one between ":", "=", ";", ",", "@" or "+") looks like a key put there
// ("/agents/sk-live-9f8e7d6c5b4a/…", "/bot123:AAHdqTcv…", "/sk_live_…"):
// 16 bytes or more of letters, digits and "-_.~", with at least two of
// lower case, upper case, digits and "_" among them. A plain word path
// ("get-authenticated-extended-card") is not.
func tokenish(part string) bool {
	if len(part) < 16 {
		return false
	}
	var lower, upper, digit, under int
	for _, r := range part {
		switch {
		case 'a' <= r && r <= 'z':
			lower = 1
		case 'A' <= r && r <= 'Z':
			upper = 1
		case '0' <= r && r <= '9':
			digit = 1
		case r == '_':
			under = 1
		case strings.ContainsRune("-.~", r):
		default:
			return false
		}
	}
	return lower+upper+digit+under >= 2
}

// describesContent reports whether a header names formats the client
// takes (Accept, Accept-Encoding, Accept-Language…): public words, such
// as "application/json", that are no secret and would be redacted from
// every error's text if they were taken for one.
func describesContent(name string) bool {
	return strings.HasPrefix(strings.ToLower(name), "accept")
}

// CredentialName reports whether a header or query parameter name suggests
// a credential: it contains "auth", "key", "token", "secret", "cookie",
// "session", "pass", "pwd", "sig", "credential", "access", "api", "jwt",
// "assertion", "dpop" or "team" (X-Honeycomb-Team), in any case.
func CredentialName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"auth", "key", "token", "secret", "cookie", "session", "pass", "pwd", "sig", "credential", "access", "api", "jwt", "assertion", "dpop", "team"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
