package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCardCacheTransport: the RoundTripper alone, on a clock the test
// moves: a request with a credential is neither answered from the cache
// nor kept; Expires less Date and the Age received bound freshness; a
// stale card is revalidated; a 304 naming another ETag fetches the card
// again; a body over the cap is handed on whole and not kept; a clock
// gone back makes the card stale.
func TestCardCacheTransport(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	var (
		calls  int
		header http.Header
		body   = []byte(`{"name":"x"}`)
		status = http.StatusOK
		asked  []string
	)
	next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		calls++
		asked = append(asked, r.Header.Get("If-None-Match"))
		return &http.Response{StatusCode: status, Header: header.Clone(), Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
	})
	var lines []string
	rt := newCardCache(next, filepath.Join(t.TempDir(), "a2a-cli", "cards"), 64, func(f string, a ...any) {
		lines = append(lines, f)
	}).(*cardCache)
	rt.now = func() time.Time { return now }
	get := func(h http.Header) string {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, "https://agent.example/.well-known/agent-card.json", nil)
		for k, v := range h {
			req.Header[k] = v
		}
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d, %v", resp.StatusCode, err)
		}
		return string(b)
	}
	date := now.Add(-10 * time.Second).Format(http.TimeFormat)

	// Expires 60s after Date, Date 10s ago, Age 20: fresh for 30s.
	header = http.Header{"Expires": {now.Add(50 * time.Second).Format(http.TimeFormat)}, "Date": {date}, "Age": {"30"}, "Etag": {`"a"`}}
	get(nil)
	for _, cred := range []string{"Authorization", "Cookie", "X-API-Key"} {
		get(http.Header{cred: {"secret"}})
	}
	if calls != 4 {
		t.Fatalf("%d calls: a request with a credential was answered from the cache", calls)
	}
	get(nil)
	now = now.Add(29 * time.Second)
	get(nil)
	if calls != 4 {
		t.Fatalf("%d calls, want 4: the card is fresh for 30s", calls)
	}
	now = now.Add(2 * time.Second)
	status, header = http.StatusNotModified, http.Header{"Etag": {`"a"`}, "Cache-Control": {"max-age=5"}, "Date": {now.Format(http.TimeFormat)}}
	if got := get(nil); got != string(body) || calls != 5 || asked[4] != `"a"` {
		t.Fatalf("stale: %q, %d calls, asked %q", got, calls, asked)
	}
	now = now.Add(4 * time.Second)
	get(nil)
	if calls != 5 {
		t.Fatalf("the 304's max-age=5 is not used: %d calls", calls)
	}

	// A 304 naming another version: asked again plainly.
	now = now.Add(time.Minute)
	status, header = http.StatusNotModified, http.Header{"Etag": {`"b"`}}
	var once bool
	inner := next
	rt.next = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if once {
			status, header = http.StatusOK, http.Header{"Etag": {`"b"`}, "Cache-Control": {"max-age=60"}}
		}
		once = true
		return inner(r)
	})
	if get(nil); calls != 7 || asked[5] != `"a"` || asked[6] != "" {
		t.Fatalf("304 of another ETag: %d calls, asked %q", calls, asked)
	}
	get(nil)
	if calls != 7 {
		t.Fatalf("the refetched card is not kept: %d calls", calls)
	}

	// A clock gone back: stale.
	now = now.Add(-time.Hour)
	status, header = http.StatusNotModified, http.Header{"Etag": {`"b"`}}
	get(nil)
	if calls != 8 {
		t.Fatalf("a clock gone back: %d calls", calls)
	}

	// Over the cap (64 bytes): handed on whole, not kept.
	rt.next = next
	big := bytes.Repeat([]byte("x"), 100)
	body, status, header = big, http.StatusOK, http.Header{"Cache-Control": {"max-age=60"}, "Etag": {`"c"`}}
	now = now.Add(2 * time.Hour)
	if got := get(nil); got != string(big) {
		t.Fatalf("a body over the cap is not handed on whole: %d bytes", len(got))
	}
	if get(nil); calls != 10 {
		t.Fatalf("a body over the cap was kept: %d calls", calls)
	}
	if !strings.Contains(strings.Join(lines, "\n"), "larger than --max-bytes") {
		t.Errorf("the log does not say the card is too large: %q", lines)
	}

	// Freshness from max-age: Expires and s-maxage ignored; a repeated
	// max-age is none.
	for _, c := range []struct {
		cc, expires string
		want        time.Duration
	}{
		{"max-age=60, s-maxage=600", "", time.Minute},
		{"s-maxage=600", "", 0},
		{"max-age=60, max-age=120", "", 0},
		{"max-age=bad", now.Add(time.Hour).Format(http.TimeFormat), 0},
		{"", now.Add(time.Hour).Format(http.TimeFormat), time.Hour},
		{"", "0", 0},
	} {
		e := cardEntry{Header: http.Header{"Date": {now.Format(http.TimeFormat)}}, Received: now}
		if c.cc != "" {
			e.Header.Set("Cache-Control", c.cc)
		}
		if c.expires != "" {
			e.Header.Set("Expires", c.expires)
		}
		if got := e.freshness(); got != c.want {
			t.Errorf("Cache-Control %q, Expires %q: freshness %v, want %v", c.cc, c.expires, got, c.want)
		}
	}
	if got := strconv.Itoa(len(cacheFilesIn(t, rt.dir))); got != "0" {
		t.Errorf("%s cache files, want 0: the card over the cap replaced the one kept", got)
	}
}

// cacheFilesIn are the files in dir.
func cacheFilesIn(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}
