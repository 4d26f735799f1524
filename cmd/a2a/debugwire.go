package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
	"github.com/hashicorp/go-cleanhttp"
)

// The --debug wire dump (A2A CLI spec §7.2, §12.3: OUT_007, AUTH_004):
// every HTTP exchange the command makes, written to stderr as it happens,
// its credentials redacted whatever the flags, every line inert.
//
//	#3 > POST http://127.0.0.1:8080/a2a?api_key=(redacted)
//	#3 > Authorization: (redacted)
//	#3 > Content-Type: application/json
//	#3 >
//	#3 > {"jsonrpc":"2.0","method":"SendMessage",…}
//	#3 < HTTP/1.1 200 OK (12ms)
//	#3 < Content-Type: text/event-stream
//	#3 <
//	#3 < data: {"jsonrpc":"2.0","result":{…}}
//	#3 < … 1234 more bytes
//
// Each line starts with the exchange's number (1, 2, … in the order the
// requests are made) and its direction (">" sent, "<" received, "!" a
// transport error), so the exchanges of concurrent requests, whose lines
// arrive interleaved (a stream's events as they come), can be told apart.
// The numbers are shared by every debugTransport writing to the same
// writer (the card's client and the agent's), so they never repeat there.

// debugRedactMargin is how many bytes past the shown limit a body line is
// kept before it is cut, so that a secret the cut splits is redacted whole
// before the cut keeps its start: the dump buffers at most limit plus this
// many bytes of each body.
const debugRedactMargin = 4096

// debugTransport returns a RoundTripper that sends each request through
// next (a fresh pooled transport when nil) and writes the exchange to w,
// the command's stderr, as it happens: "> METHOD URL" (the URL without
// userinfo or fragment, the values of credential-named query parameters
// shown as "(redacted)"), the request headers, the request body as the
// transport reads it; then "< PROTO STATUS (duration)" once the response
// headers are in (duration in milliseconds), the response headers, and the
// response body as the client reads it (a stream's events appear as they
// arrive: the dump never reads ahead of the client), or "! error" when the
// transport fails. A header is shown as "(redacted)" when it bears a
// credential (credentialHeader) or when redact changes any of its values.
// Each body shows at most limit bytes (a negative limit counts as 0), then
// "… N more bytes" (N: those the client or transport read past the limit);
// at most limit+debugRedactMargin bytes of each are buffered. A response
// body in gzip (which the SDK asks for) is shown decoded once it is read
// to its end, then its size on the wire; one in another Content-Encoding
// only by its size. Every line
// goes through redact (the user's secrets; nil redacts nothing) and is made
// inert (control and format characters escaped), and is prefixed with
// "#N >", "#N <" or "#N !", N the exchange's number. Safe for concurrent
// use; each write to w is one or more whole lines of one exchange. Errors
// writing to w are ignored: the dump never fails a request.
func debugTransport(next http.RoundTripper, w io.Writer, redact func(string) string, limit int) http.RoundTripper {
	if next == nil {
		next = cleanhttp.DefaultPooledTransport()
	}
	if redact == nil {
		redact = func(s string) string { return s }
	}
	return &debugRT{next: next, w: w, redact: redact, limit: max(limit, 0), dumpState: dumpStateOf(w)}
}

// debugRT is debugTransport's RoundTripper.
type debugRT struct {
	next   http.RoundTripper
	w      io.Writer
	redact func(string) string
	limit  int
	*dumpState
}

// dumpState is what the dumps to one writer share.
type dumpState struct {
	mu  sync.Mutex   // held while writing to the writer
	seq atomic.Int64 // the last exchange number given
}

// dumpStates holds the dumpState of each writer dumped to: a process has
// one or two (its stderr; a test's buffers).
var dumpStates struct {
	sync.Mutex
	m map[io.Writer]*dumpState
}

// dumpStateOf is w's dumpState; a new one for a writer that cannot be a
// map key (a func, a struct holding one).
func dumpStateOf(w io.Writer) *dumpState {
	if w == nil || !reflect.TypeOf(w).Comparable() {
		return &dumpState{}
	}
	dumpStates.Lock()
	defer dumpStates.Unlock()
	if dumpStates.m == nil {
		dumpStates.m = map[io.Writer]*dumpState{}
	}
	st := dumpStates.m[w]
	if st == nil {
		st = &dumpState{}
		dumpStates.m[w] = st
	}
	return st
}

// RoundTrip dumps req, sends it through next and dumps the response head;
// the bodies are dumped as they are read (debugBody).
func (d *debugRT) RoundTrip(req *http.Request) (*http.Response, error) {
	id := d.seq.Add(1)
	head := d.lines(id, '>')
	head.add(req.Method + " " + d.shownURL(req.URL))
	if req.Host != "" && req.URL != nil && req.Host != req.URL.Host {
		head.add("Host: " + d.headerValue("Host", req.Host))
	}
	head.headers(req.Header)
	d.write(head)
	out := req
	if req.Body != nil && req.Body != http.NoBody {
		out = req.Clone(req.Context())
		out.Body = &debugBody{rc: req.Body, d: d, id: id, dir: '>'}
	}
	start := time.Now()
	resp, err := d.next.RoundTrip(out)
	if err != nil {
		l := d.lines(id, '!')
		l.add("error: " + err.Error())
		d.write(l)
		return resp, err
	}
	l := d.lines(id, '<')
	l.add(fmt.Sprintf("%s %s (%dms)", resp.Proto, resp.Status, time.Since(start).Milliseconds()))
	l.headers(resp.Header)
	d.write(l)
	if resp.Body != nil && resp.Body != http.NoBody {
		enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding")))
		if enc == "identity" {
			enc = ""
		}
		resp.Body = &debugBody{rc: resp.Body, d: d, id: id, dir: '<', enc: enc}
	}
	return resp, nil
}

// shownURL is u as the dump shows it: without userinfo or fragment, the
// values of the query parameters whose name suggests a credential
// (redact.CredentialName: key, token, sig, …) written "(redacted)".
func (d *debugRT) shownURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	c := *u
	c.User, c.Fragment, c.RawFragment = nil, "", ""
	if c.RawQuery != "" {
		pairs := strings.Split(c.RawQuery, "&")
		for i, pair := range pairs {
			rawName, _, hasValue := strings.Cut(pair, "=")
			name, err := url.QueryUnescape(rawName)
			if hasValue && (err != nil || redact.CredentialName(name)) {
				pairs[i] = rawName + "=(redacted)"
			}
		}
		c.RawQuery = strings.Join(pairs, "&")
	}
	return c.String()
}

// credentialHeader reports whether a header bears a credential whatever
// its value: Authorization, Proxy-Authorization, Cookie, Set-Cookie,
// X-API-Key, and any name holding "auth", "key", "token", "secret",
// "cookie", "session" or "pass", in any case; but for the challenges
// WWW-Authenticate and Proxy-Authenticate, which carry none (a scheme, a
// realm, an error) and tell why a request was refused.
func credentialHeader(name string) bool {
	n := strings.ToLower(name)
	if n == "www-authenticate" || n == "proxy-authenticate" {
		return false
	}
	for _, w := range []string{"auth", "key", "token", "secret", "cookie", "session", "pass"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// headerValue is a header's value as the dump shows it: "(redacted)" for
// a credential header or a value that holds a secret, else the value.
func (d *debugRT) headerValue(name, v string) string {
	if credentialHeader(name) || d.redact(v) != v {
		return "(redacted)"
	}
	return v
}

// write writes l's lines to w in one call.
func (d *debugRT) write(l *dumpLines) {
	if l.b.Len() == 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	io.WriteString(d.w, l.b.String())
}

// dumpLines collects lines of one exchange and one direction for one write.
type dumpLines struct {
	d      *debugRT
	prefix string
	b      strings.Builder
}

func (d *debugRT) lines(id int64, dir byte) *dumpLines {
	return &dumpLines{d: d, prefix: fmt.Sprintf("#%d %c", id, dir)}
}

// add adds one line: s redacted and made inert ("" gives the bare prefix).
func (l *dumpLines) add(s string) {
	s = inert.Printable(l.d.redact(s))
	l.b.WriteString(l.prefix)
	if s != "" {
		l.b.WriteByte(' ')
		l.b.WriteString(s)
	}
	l.b.WriteByte('\n')
}

// headers adds a line per header value, names sorted, values as
// headerValue shows them.
func (l *dumpLines) headers(h http.Header) {
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range h {
			if !yield(k) {
				return
			}
		}
	}) {
		for _, v := range h[name] {
			l.add(name + ": " + l.d.headerValue(name, v))
		}
	}
}

// debugBody is a request or response body that dumps what is read from it
// as it is read: whole lines, the last one at the end of the body, up to
// the limit in all. A gzip-encoded body (the SDK asks for gzip and decodes
// it itself) is shown decoded at its end, from its first
// limit+debugRedactMargin bytes, with its size on the wire; a body in
// another encoding is not shown, only its size.
type debugBody struct {
	rc   io.ReadCloser
	d    *debugRT
	id   int64
	dir  byte
	enc  string // the response's Content-Encoding; "" for none
	comp []byte // the start of a gzip body, at most limit+debugRedactMargin bytes

	mu      sync.Mutex // Read and Close may come from different goroutines
	pending []byte     // the start of a line not yet shown
	shown   int        // bytes of the body shown so far, line breaks included
	seen    int64      // bytes given to the lines (decoded, for gzip)
	total   int64      // bytes read so far
	started bool       // the blank line before the body is written
	cut     bool       // the limit is reached: bytes are only counted
	done    bool       // the end is written
}

// Read reads from the body and dumps the lines it completes; at the end of
// the body (or an error) it dumps the last line and what was not shown.
func (b *debugBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return n, err
	}
	l := b.d.lines(b.id, b.dir)
	if n > 0 {
		b.feed(l, p[:n])
	}
	if err != nil {
		b.finish(l, err)
	}
	b.d.write(l)
	return n, err
}

// Close dumps what is left, as at the end of the body, and closes it.
func (b *debugBody) Close() error {
	b.mu.Lock()
	if !b.done {
		l := b.d.lines(b.id, b.dir)
		b.finish(l, nil)
		b.d.write(l)
	}
	b.mu.Unlock()
	return b.rc.Close()
}

// room is how many more bytes of the body may be shown.
func (b *debugBody) room() int { return b.d.limit - b.shown }

// feed takes p, bytes just read: a gzip body's are kept (up to the
// bound) for finish, another encoding's counted, the rest fed to lines.
func (b *debugBody) feed(l *dumpLines, p []byte) {
	b.total += int64(len(p))
	switch b.enc {
	case "":
		b.lines(l, p)
	case "gzip", "x-gzip":
		b.comp = append(b.comp, p[:min(len(p), b.d.limit+debugRedactMargin-len(b.comp))]...)
	}
}

// lines takes p, bytes of the body as sent, adding to l each line it
// completes.
func (b *debugBody) lines(l *dumpLines, p []byte) {
	b.seen += int64(len(p))
	if b.cut {
		return
	}
	keep := min(len(p), b.room()+debugRedactMargin-len(b.pending))
	b.pending = append(b.pending, p[:keep]...)
	for {
		i := bytes.IndexByte(b.pending, '\n')
		switch {
		case i >= 0 && i+1 <= b.room():
			b.line(l, b.pending[:i])
			b.shown += i + 1
			b.pending = b.pending[i+1:]
			continue
		case i >= 0:
			b.cutLine(l, b.pending[:i])
		case len(b.pending) > b.room() && keep < len(p):
			b.cutLine(l, b.pending) // no room left to wait for the line's end
		}
		return
	}
}

// finish adds to l the last line and, past the limit, how many bytes were
// not shown; err, unless nil or io.EOF, too.
func (b *debugBody) finish(l *dumpLines, err error) {
	b.done = true
	switch b.enc {
	case "":
	case "gzip", "x-gzip":
		b.gunzip(l)
	default:
		b.start(l)
		l.add(fmt.Sprintf("(%d bytes in Content-Encoding %s: not shown)", b.total, b.enc))
	}
	if !b.cut && len(b.pending) > 0 {
		if len(b.pending) <= b.room() {
			b.line(l, b.pending)
			b.shown += len(b.pending)
		} else {
			b.cutLine(l, b.pending)
		}
	}
	b.pending = nil
	switch {
	case b.enc == "gzip" || b.enc == "x-gzip":
		b.start(l)
		l.add(fmt.Sprintf("(%d bytes gzip-compressed on the wire)", b.total))
	case b.cut:
		l.add(fmt.Sprintf("… %d more bytes", b.seen-int64(b.d.limit)))
	}
	if err != nil && err != io.EOF {
		b.start(l)
		l.add("(body read error: " + err.Error() + ")")
	}
}

// gunzip feeds lines the start of the gzip body kept, decoded: at most
// limit+debugRedactMargin+1 bytes of it (enough to cut at the limit), so
// a small body that decodes to a huge one costs no more. A body cut short
// decodes as far as it goes.
func (b *debugBody) gunzip(l *dumpLines) {
	zr, err := gzip.NewReader(bytes.NewReader(b.comp))
	if err != nil {
		b.start(l)
		l.add("(a gzip body that does not decode: " + err.Error() + ")")
		return
	}
	dec, _ := io.ReadAll(io.LimitReader(zr, int64(b.d.limit+debugRedactMargin+1)))
	b.lines(l, dec)
}

// line adds one line of the body (its "\r\n" ending dropped).
func (b *debugBody) line(l *dumpLines, p []byte) {
	b.start(l)
	l.add(strings.TrimSuffix(string(p), "\r"))
}

// cutLine adds the start of p that the limit leaves room for: redacted
// whole first, so that a secret the cut splits shows no part of itself,
// then cut on a rune boundary ("…" after). The rest of the body is only
// counted.
func (b *debugBody) cutLine(l *dumpLines, p []byte) {
	b.start(l)
	s := inert.Truncate(b.d.redact(strings.TrimSuffix(string(p), "\r")), b.room())
	l.add(s)
	b.cut, b.pending = true, nil
}

// start adds the blank line that parts a body from its headers, once.
func (b *debugBody) start(l *dumpLines) {
	if !b.started {
		b.started = true
		l.add("")
	}
}
