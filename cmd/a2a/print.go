package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// The one way text reaches the terminal. Every line a command prints goes
// through outf or errf (stdout, stderr), every --json line through
// outJSON, every -v log record through logWriter: each value they print
// is first stripped of the user's secrets (redactor) and then made inert,
// its control characters (C0, DEL, C1), bidi and other format characters
// and invalid UTF-8 written as visible escapes (\x1b, \u202e, \xff), so
// no text an agent or the network chose can move the cursor, rewrite a
// line, open a hyperlink or reorder what a person reads. The format
// strings are the command's own; only the values are the world's.

// agentText is an agent's text body (a status message, an artifact's
// text): printed with its line breaks and tabs kept, the rest of its
// control characters escaped.
type agentText string

// outf prints to stdout; errf to stderr. See the comment above.
func (o *options) outf(format string, args ...any) { o.printf(o.env.stdout, format, args...) }

// errf takes, with --debug, the lock of the wire dump's writes to stderr
// (dumpStateOf): the dump writes from the HTTP transport's goroutines,
// and a line must not be written in the middle of one of its writes.
func (o *options) errf(format string, args ...any) {
	if o.debug {
		st := dumpStateOf(o.env.stderr)
		st.mu.Lock()
		defer st.mu.Unlock()
	}
	o.printf(o.env.stderr, format, args...)
}

func (o *options) printf(w io.Writer, format string, args ...any) {
	shown := make([]any, len(args))
	for i, a := range args {
		shown[i] = o.shown(a)
	}
	fmt.Fprintf(w, format, shown...)
}

// shown is a value as printed: a string (of any string type), an error
// (its Go options written as flags: inFlags) or a Stringer redacted and
// made inert; an agentText likewise with its line
// breaks and tabs kept; numbers, booleans and durations as they are.
func (o *options) shown(a any) any {
	switch v := a.(type) {
	case nil:
		return a
	case agentText:
		return o.inertText(string(v))
	case error:
		return inert.Printable(o.redactor().Str(inFlags(v.Error())))
	case fmt.Stringer:
		return inert.Printable(o.redactor().Str(v.String()))
	}
	if rv := reflect.ValueOf(a); rv.Kind() == reflect.String {
		return inert.Printable(o.redactor().Str(rv.String()))
	}
	return a
}

// outInert prints s, text made of values already shown (shown,
// inertText) and the command's own words, as it is: for text laid out
// (wrapped) after it was made inert.
func (o *options) outInert(s string) { io.WriteString(o.env.stdout, s) }

// inertText is s redacted and made inert but for its line breaks and tabs.
func (o *options) inertText(s string) string {
	s = o.redactor().Str(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		parts := strings.Split(l, "\t")
		for j, p := range parts {
			parts[j] = inert.Printable(p)
		}
		lines[i] = strings.Join(parts, "\t")
	}
	return strings.Join(lines, "\n")
}

// outJSON prints one line of --json output: b, a JSON value as the agent
// sent it, redacted, with every character that could act on a terminal
// written as a JSON escape (\u001b, \u202e: the same text to a JSON
// reader); a carriage return between tokens is dropped.
func (o *options) outJSON(b []byte) {
	out := inertJSON(o.redactor().Bytes(b))
	o.env.stdout.Write(append(out, '\n'))
}

// inertJSON is b, JSON text, with each rune that is not printable (but
// for the line breaks, tabs and spaces between tokens) written as \uXXXX,
// a pair of them beyond U+FFFF, and each invalid byte as \ufffd. Such
// runes are only valid inside strings, where the escapes mean the same.
func inertJSON(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case r == '\n' || r == '\t' || r == ' ':
			out = append(out, b[i])
		case r == '\r':
		case r == utf8.RuneError && n <= 1:
			out = append(out, `\ufffd`...)
		case unicode.IsPrint(r):
			out = append(out, b[i:i+n]...)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += n
	}
	return out
}

// logWriter is where -v log records go: stderr, each record redacted and
// made inert but for its closing line break.
func (o *options) logWriter() io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		line := strings.TrimSuffix(string(p), "\n")
		o.errf("%s\n", line)
		return len(p), nil
	})
}

// flagWriter is where the flag package writes (a flag error, the usage):
// stderr, made inert but for line breaks and tabs, as the command line
// may hold what the user pasted from anywhere.
func (o *options) flagWriter() io.Writer {
	return writerFunc(func(p []byte) (int, error) {
		o.errf("%s", agentText(p))
		return len(p), nil
	})
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// redactor is the redactor of every secret the user gave the command: the
// API key, the bearer token, every --svc-param and A2ACLI_SVC_PARAM value (by the
// SDK's rule for WithHeader values), the credentials of the URLs among
// the agent's reference and the arguments (userinfo, query values, a
// path segment that looks like a key: the endpoint's, a webhook's), a
// push config's --token and --credentials, an OAuth --client-secret. It is made once the command line is read; until then
// (its errors) it knows what has been read.
func (o *options) redactor() *redact.Redactor {
	if o.red != nil {
		return o.red
	}
	header := http.Header{}
	for _, h := range o.svcParams.kv {
		header.Add(h[0], h[1])
	}
	var urls []string
	for _, a := range append([]string{o.agentCard, o.endpoint, o.pushURL}, o.args...) {
		if strings.Contains(a, "://") || strings.Contains(a, "@") {
			urls = append(urls, a)
		}
	}
	red := redact.New(&url.URL{}, o.apiKey, o.bearer, header).With(nonEmpty(o.token, o.credentials, o.clientSecret), urls)
	if o.args != nil {
		o.red = red // complete: the command line is read
	}
	return red
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// shownURL is a URL as the command shows it: as the SDK's redactor shows
// an endpoint (ShownURL: without userinfo, query or fragment, a path
// segment that looks like a key hidden), with raw's own credentials among
// the secrets. A raw that does not parse as a URL is shown redacted, or
// not at all when it holds an "@" (it may hold a password).
func (o *options) shownURL(raw string) string {
	red := o.redactor().With(nil, []string{raw})
	u, err := url.Parse(raw)
	switch {
	case err == nil:
		return red.ShownURL(*u)
	case strings.Contains(raw, "@"):
		return "(a URL that may hold a password)"
	}
	return red.Str(raw)
}
