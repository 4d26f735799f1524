package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// dumpBuffer is a bytes.Buffer safe for the dump's writes and the test's
// reads from different goroutines.
type dumpBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *dumpBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *dumpBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// debugClient is an HTTP client whose transport dumps to a new buffer,
// redacting the given secrets, each body cut at limit bytes.
func debugClient(t *testing.T, limit int, secrets ...string) (*http.Client, *dumpBuffer) {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	var out dumpBuffer
	red := redact.New(&url.URL{}, "", "", nil).With(secrets, nil)
	return &http.Client{Transport: debugTransport(tr, &out, red.Str, limit)}, &out
}

// noRawControl fails the test when the dump holds a control character
// other than its line breaks.
func noRawControl(t *testing.T, dump string) {
	t.Helper()
	for _, r := range dump {
		if r != '\n' && (r < 0x20 || r == 0x7f || 0x80 <= r && r < 0xa0) {
			t.Fatalf("dump holds control character %U:\n%s", r, dump)
		}
	}
}

// TestDebugTransportRedactsCredentials sends a request carrying a bearer
// token, an API key, a cookie, a service parameter, userinfo and a
// credential query parameter to an agent that echoes them back: none of
// them is in the dump, while the rest of the exchange is.
func TestDebugTransportRedactsCredentials(t *testing.T) {
	const bearer, apiKey, svc, queryKey, password = "tok-abcdef123456", "key-XYZ987654", "svcsecretvalue42", "qkey5556667778", "pw-hunter2hunter2"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Set-Cookie", "sid=servercookie1234")
		w.Header().Set("WWW-Authenticate", `Bearer realm="agents"`)
		fmt.Fprintf(w, `{"echo":%q,"auth":%q,"key":%q}`, body, r.Header.Get("Authorization"), r.Header.Get("X-API-Key"))
	}))
	defer srv.Close()
	hc, out := debugClient(t, 64<<10, bearer, apiKey, svc, queryKey, password)
	u, _ := url.Parse(srv.URL)
	u.User = url.UserPassword("alice", password)
	u.Path, u.RawQuery = "/a2a", "api_key="+queryKey+"&page=2"
	req, _ := http.NewRequest("POST", u.String(), strings.NewReader(`{"method":"SendMessage","params":{"token":"`+bearer+`","text":"hello agent"}}`))
	req.Header.Set("Authorization", "Bearer "+bearer)
	req.Header.Set("X-API-Key", apiKey)
	req.Header.Set("Cookie", "session=abc")
	req.Header.Set("X-Tenant-Param", svc) // a --svc-param: a secret by value only
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(got), apiKey) {
		t.Fatalf("the client did not get the body as sent: %s", got)
	}
	dump := out.String()
	for _, secret := range []string{bearer, apiKey, svc, queryKey, password, "alice", "session=abc", "servercookie1234"} {
		if strings.Contains(dump, secret) {
			t.Errorf("dump shows %q:\n%s", secret, dump)
		}
	}
	for _, want := range []string{
		"#1 > POST " + srv.URL + "/a2a?api_key=(redacted)&page=2\n",
		"#1 > Authorization: (redacted)\n",
		"#1 > X-Api-Key: (redacted)\n",
		"#1 > Cookie: (redacted)\n",
		"#1 > X-Tenant-Param: (redacted)\n",
		"#1 > Content-Type: application/json\n",
		"#1 >\n#1 > {\"method\":\"SendMessage\",\"params\":{\"token\":\"[REDACTED]\",\"text\":\"hello agent\"}}\n",
		"#1 < Set-Cookie: (redacted)\n",
		"#1 < Www-Authenticate: Bearer realm=\"agents\"\n",
		"#1 <\n#1 < {\"echo\":",
	} {
		if !strings.Contains(dump, want) {
			t.Errorf("dump lacks %q:\n%s", want, dump)
		}
	}
	if !regexp.MustCompile(`(?m)^#1 < HTTP/1\.1 200 OK \(\d+ms\)$`).MatchString(dump) {
		t.Errorf("dump lacks the status line:\n%s", dump)
	}
}

// TestDebugTransportStreamAsItArrives reads the first event of an SSE
// stream before the agent sends the second: the first is in the dump then,
// the second only once it is read.
func TestDebugTransportStreamAsItArrives(t *testing.T) {
	second := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"event\":\"first\"}\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-second:
		case <-r.Context().Done():
			return
		}
		io.WriteString(w, "data: {\"event\":\"second\"}\r\n\r\n")
	}))
	defer srv.Close()
	defer close(second) // before srv.Close, should a check fail
	hc, out := debugClient(t, 64<<10)
	resp, err := hc.Get(srv.URL + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the first event: %v", err)
		}
		if line == "\n" {
			break
		}
	}
	if dump := out.String(); !strings.Contains(dump, "#1 < data: {\"event\":\"first\"}\n#1 <\n") || strings.Contains(dump, "second") {
		t.Fatalf("after the first event, dump:\n%s", dump)
	}
	second <- struct{}{}
	if _, err := io.ReadAll(br); err != nil {
		t.Fatal(err)
	}
	if dump := out.String(); !strings.Contains(dump, "#1 < data: {\"event\":\"second\"}\n#1 <\n") {
		t.Fatalf("after the second event, dump:\n%s", dump)
	}
}

// TestDebugTransportInert checks that control characters, bidi overrides
// and invalid UTF-8 in a body and a header are shown escaped.
func TestDebugTransportInert(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Note", "a\u202eb\u0085c") // the client refuses C0 controls in a header
		io.WriteString(w, "{\"text\":\"\x1b[2J\x1b[31mred\u202eevil\xff\tend\"}")
	}))
	defer srv.Close()
	hc, out := debugClient(t, 64<<10)
	resp, err := hc.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	dump := out.String()
	noRawControl(t, dump)
	for _, want := range []string{`#1 < {"text":"\x1b[2J\x1b[31mred\u202eevil\xff\tend"}` + "\n", `#1 < X-Note: a\u202eb\u0085c` + "\n"} {
		if !strings.Contains(dump, want) {
			t.Errorf("dump lacks %q:\n%s", want, dump)
		}
	}
	if strings.Contains(dump, "\u202e") {
		t.Errorf("dump holds a raw bidi override:\n%s", dump)
	}
}

// TestDebugTransportLimit sends a 1 MiB one-line body and a body of many
// lines: each is shown up to the limit, then the count of bytes not shown;
// the client gets every byte.
func TestDebugTransportLimit(t *testing.T) {
	const limit = 1000
	big := strings.Repeat("a", 1<<20)
	lines := strings.Repeat("0123456789abcdefghi\n", 200) // 4000 bytes, 20 a line
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/big" {
			io.WriteString(w, big)
			return
		}
		io.WriteString(w, lines)
	}))
	defer srv.Close()
	hc, out := debugClient(t, limit)
	for _, path := range []string{"/big", "/lines"} {
		resp, err := hc.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if len(got) != map[string]int{"/big": len(big), "/lines": len(lines)}[path] {
			t.Errorf("%s: the client got %d bytes", path, len(got))
		}
	}
	dump := out.String()
	if !strings.Contains(dump, "#1 < "+strings.Repeat("a", limit)+"…\n#1 < … 1047576 more bytes\n") {
		t.Errorf("the big body is not cut at %d bytes:\n%.3000s", limit, dump)
	}
	if strings.Contains(dump, strings.Repeat("a", limit+1)) {
		t.Errorf("the big body is shown past %d bytes", limit)
	}
	// 50 whole lines are 1000 bytes: the 51st has no room.
	if n := strings.Count(dump, "#2 < 0123456789abcdefghi\n"); n != 50 {
		t.Errorf("%d lines of the second body shown, want 50", n)
	}
	if !strings.Contains(dump, "#2 < …\n#2 < … 3000 more bytes\n") {
		t.Errorf("the second body's cut is not shown:\n%s", dump)
	}
	if len(dump) > 6*limit {
		t.Errorf("dump is %d bytes for a limit of %d", len(dump), limit)
	}
}

// TestDebugTransportCutRedactsWhole cuts a body in the middle of a secret:
// no part of the secret is shown.
func TestDebugTransportCutRedactsWhole(t *testing.T) {
	const secret = "sk-LIVEabcdefghijklmnop0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, strings.Repeat("x", 95)+secret+strings.Repeat("y", 5000))
	}))
	defer srv.Close()
	hc, out := debugClient(t, 100, secret)
	resp, err := hc.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	dump := out.String()
	if strings.Contains(dump, "sk-LIVE") || strings.Contains(dump, "abcdef") {
		t.Errorf("a part of the cut secret is shown:\n%s", dump)
	}
	if !strings.Contains(dump, "#1 < "+strings.Repeat("x", 95)+"[REDA…\n") {
		t.Errorf("dump:\n%s", dump)
	}
}

// TestDebugTransportConcurrent makes requests at once: each exchange's
// lines carry one number, its own, and the numbers are 1 to n.
func TestDebugTransportConcurrent(t *testing.T) {
	const n = 8
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "reply to %s\n", body)
	}))
	defer srv.Close()
	hc, out := debugClient(t, 64<<10)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			resp, err := hc.Post(fmt.Sprintf("%s/r/%d", srv.URL, i), "text/plain", strings.NewReader(fmt.Sprintf("request %d", i)))
			if err != nil {
				errs <- err
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	dump := out.String()
	ids := map[string]bool{}
	for i := range n {
		m := regexp.MustCompile(fmt.Sprintf(`(?m)^#(\d+) > POST \S+/r/%d$`, i)).FindStringSubmatch(dump)
		if m == nil {
			t.Fatalf("no request line for /r/%d:\n%s", i, dump)
		}
		id := m[1]
		ids[id] = true
		for _, want := range []string{fmt.Sprintf("#%s > request %d\n", id, i), fmt.Sprintf("#%s < reply to request %d\n", id, i)} {
			if !strings.Contains(dump, want) {
				t.Errorf("dump lacks %q:\n%s", want, dump)
			}
		}
	}
	for i := 1; i <= n; i++ {
		if !ids[fmt.Sprint(i)] {
			t.Errorf("no exchange #%d: %v", i, ids)
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(dump, "\n"), "\n") {
		if !regexp.MustCompile(`^#\d+ [<>]( |$)`).MatchString(line) {
			t.Errorf("line without an exchange prefix: %q", line)
		}
	}
}

// failingRT fails every request, closing its body as a RoundTripper must.
type failingRT struct{}

func (failingRT) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		r.Body.Close()
	}
	return nil, errors.New("dial tcp: connection refused by tok-abcdef123456")
}

// closeCounter is a request body that counts its Close calls.
type closeCounter struct {
	io.Reader
	closed int
}

func (c *closeCounter) Close() error { c.closed++; return nil }

// TestDebugTransportError checks a transport error: shown on a "!" line,
// redacted, the request body closed once.
func TestDebugTransportError(t *testing.T) {
	var out dumpBuffer
	red := redact.New(&url.URL{}, "", "tok-abcdef123456", nil)
	rt := debugTransport(failingRT{}, &out, red.Str, 100)
	body := &closeCounter{Reader: strings.NewReader("ping")}
	req, _ := http.NewRequest("POST", "http://127.0.0.1:1/a2a", body)
	if _, err := rt.RoundTrip(req); err == nil {
		t.Fatal("no error")
	}
	if body.closed != 1 {
		t.Errorf("request body closed %d times", body.closed)
	}
	dump := out.String()
	if !strings.Contains(dump, "#1 ! error: dial tcp: connection refused by [REDACTED]\n") || strings.Contains(dump, "tok-abcdef") {
		t.Errorf("dump:\n%s", dump)
	}
}

// TestDebugTransportStreamedRequestBody dumps a request body the transport
// reads from a pipe (no GetBody, unknown length) as it is read.
func TestDebugTransportStreamedRequestBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%d", len(b))
	}))
	defer srv.Close()
	hc, out := debugClient(t, 64<<10)
	pr, pw := io.Pipe()
	go func() {
		io.WriteString(pw, "line one\nline two")
		pw.Close()
	}()
	resp, err := hc.Post(srv.URL, "text/plain", pr)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != "17" {
		t.Errorf("server got %s bytes", got)
	}
	if dump := out.String(); !strings.Contains(dump, "#1 >\n#1 > line one\n#1 > line two\n") || !strings.Contains(dump, "#1 < 17\n") {
		t.Errorf("dump:\n%s", dump)
	}
}

// TestDebugTransportEncodings checks a gzip response body (shown decoded,
// with its size on the wire, a decompression bomb costing no more than the
// limit) and one in another encoding (not shown).
func TestDebugTransportEncodings(t *testing.T) {
	gz := func(s string) []byte {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		io.WriteString(zw, s)
		zw.Close()
		return b.Bytes()
	}
	small, bomb := gz("{\"a\":1}\n{\"b\":\"\x1b\"}"), gz(strings.Repeat("z", 4<<20))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gzip":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(small)
		case "/bomb":
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(bomb)
		case "/br":
			w.Header().Set("Content-Encoding", "br")
			w.Write([]byte("\x1b\x00binary"))
		}
	}))
	defer srv.Close()
	hc, out := debugClient(t, 100)
	for _, path := range []string{"/gzip", "/bomb", "/br"} {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", "gzip") // as the SDK does: no transparent decoding
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	dump := out.String()
	noRawControl(t, dump)
	for _, want := range []string{
		fmt.Sprintf("#1 <\n#1 < {\"a\":1}\n#1 < {\"b\":\"\\x1b\"}\n#1 < (%d bytes gzip-compressed on the wire)\n", len(small)),
		fmt.Sprintf("#2 < %s…\n#2 < (%d bytes gzip-compressed on the wire)\n", strings.Repeat("z", 100), len(bomb)),
		"#3 <\n#3 < (8 bytes in Content-Encoding br: not shown)\n",
	} {
		if !strings.Contains(dump, want) {
			t.Errorf("dump lacks %q:\n%s", want, dump)
		}
	}
}

// TestDebugTransportSharedNumbers checks that two transports dumping to
// one writer (the card's client and the agent's) number their exchanges
// in one sequence.
func TestDebugTransportSharedNumbers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	var out dumpBuffer
	first := &http.Client{Transport: debugTransport(tr, &out, nil, 100)}
	second := &http.Client{Transport: debugTransport(tr, &out, nil, 100)}
	for _, c := range []*http.Client{first, second, first} {
		resp, err := c.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if got := regexp.MustCompile(`(?m)^#(\d+) > GET`).FindAllStringSubmatch(out.String(), -1); len(got) != 3 || got[0][1] != "1" || got[1][1] != "2" || got[2][1] != "3" {
		t.Errorf("exchange numbers %v:\n%s", got, out.String())
	}
}
