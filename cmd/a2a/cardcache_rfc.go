package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The card cache's rules (RFC 9111, a private cache): which request and
// which answer may be kept, a kept answer's freshness and age, its
// update by a 304, and its replay.

// uncacheableRequest says why req is never answered from the cache nor
// kept ("" when it may be): not a GET, a range, a credential (a card is
// public: its GET carries none, and an answer to one that does is not
// anyone's to keep), a URL with a user name.
func uncacheableRequest(req *http.Request) string {
	switch {
	case req.Method != http.MethodGet:
		return "not a GET"
	case req.Header.Get("Range") != "":
		return "a range"
	case req.URL == nil || req.URL.User != nil:
		return "credentials in the URL"
	}
	for k := range req.Header { // any spelling, canonical or not
		for _, cred := range []string{"Authorization", "Proxy-Authorization", "Cookie", "X-API-Key"} {
			if strings.EqualFold(k, cred) {
				return "the request carries " + cred
			}
		}
	}
	return ""
}

// unstorable says why an answer with header h, received at received, to
// a request with header reqH is not kept ("" when it is): no-store (either side), a Vary on
// anything but Accept-Encoding, or nothing that would ever let it be
// used again (no freshness and no validator).
func unstorable(reqH, h http.Header, received time.Time) string {
	cc := cacheControl(h)
	if cc.has("no-store") || cacheControl(reqH).has("no-store") {
		return "no-store"
	}
	for _, v := range h.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" && !strings.EqualFold(f, "Accept-Encoding") {
				return "Vary: " + inertField(f)
			}
		}
	}
	e := cardEntry{Header: h, Received: received}
	if h.Get("ETag") == "" && h.Get("Last-Modified") == "" && (e.freshness() <= 0 || cc.has("no-cache")) {
		return "no freshness (max-age, Expires) and no validator (ETag, Last-Modified)"
	}
	return ""
}

// inertField is a header field name as --debug may print it: at most 64
// printable ASCII bytes.
func inertField(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x21 || r > 0x7e {
			return '?'
		}
		return r
	}, s)
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return s
}

// cardCacheKey is the file name of req's answer: the sha256 of its URL,
// in hex (the URL itself, which may hold a key in its query, is not
// written anywhere).
func cardCacheKey(req *http.Request) string {
	sum := sha256.Sum256([]byte(req.URL.String()))
	return hex.EncodeToString(sum[:]) + ".json"
}

// freshness is e's freshness lifetime (RFC 9111 §4.2.1, a private
// cache): max-age, else Expires less Date; 0 when neither is given or
// is valid (no heuristic freshness).
func (e *cardEntry) freshness() time.Duration {
	if v, ok := cacheControl(e.Header)["max-age"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0
		}
		return time.Duration(min(n, int64(1<<31))) * time.Second // beyond 68 years: as good as forever
	}
	if v := e.Header.Get("Expires"); v != "" {
		exp, err := http.ParseTime(v)
		if err != nil {
			return 0 // an invalid date is in the past
		}
		date := e.Received
		if d, err := http.ParseTime(e.Header.Get("Date")); err == nil {
			date = d
		}
		return exp.Sub(date)
	}
	return 0
}

// age is e's current age at now (RFC 9111 §4.2.3): its corrected
// initial age (the Age received, the request's delay, how old its Date
// said it was) plus the time since it was received. A clock that went
// back before that makes it as old as can be: stale.
func (e *cardEntry) age(now time.Time) time.Duration {
	resident := now.Sub(e.Received)
	if resident < 0 {
		return time.Duration(1<<63 - 1)
	}
	apparent := time.Duration(0)
	if d, err := http.ParseTime(e.Header.Get("Date")); err == nil {
		apparent = max(0, e.Received.Sub(d))
	}
	var ageValue time.Duration
	if n, err := strconv.ParseInt(strings.TrimSpace(e.Header.Get("Age")), 10, 64); err == nil && n >= 0 {
		ageValue = time.Duration(min(n, int64(1<<31))) * time.Second
	}
	corrected := ageValue + max(0, e.Received.Sub(e.Requested))
	return max(apparent, corrected) + resident
}

// update freshens e with a 304's header h (RFC 9111 §4.3.4): each kept
// field it carries replaces e's (the body's own, Content-Type and
// Content-Encoding, stay: they describe the body kept), and a Date or
// Age it lacks is dropped (the old ones speak of the old answer).
func (e *cardEntry) update(h http.Header, requested, received time.Time) {
	for _, k := range cardCacheHeaders {
		if k == "Content-Type" || k == "Content-Encoding" {
			continue
		}
		if v := h.Values(k); len(v) > 0 {
			e.Header[http.CanonicalHeaderKey(k)] = append([]string(nil), v...)
		} else if k == "Date" || k == "Age" {
			e.Header.Del(k)
		}
	}
	e.Requested, e.Received = requested, received
}

// response is e replayed as the 200 answer to req, at now (its Age).
func (e *cardEntry) response(req *http.Request, now time.Time) *http.Response {
	h := e.Header.Clone()
	h.Set("Content-Length", strconv.Itoa(len(e.Body)))
	h.Set("Age", strconv.FormatInt(int64(max(0, min(e.age(now), 1<<31*time.Second))/time.Second), 10))
	return &http.Response{Status: "200 OK", StatusCode: http.StatusOK, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(e.Body)), ContentLength: int64(len(e.Body)), Request: req}
}

// directives is a Cache-Control header's directives: lower-case name →
// argument (unquoted; "" for none).
type directives map[string]string

// cacheControl reads h's Cache-Control fields.
func cacheControl(h http.Header) directives {
	d := directives{}
	for _, v := range h.Values("Cache-Control") {
		for _, part := range strings.Split(v, ",") {
			name, arg, _ := strings.Cut(strings.TrimSpace(part), "=")
			if name = strings.ToLower(strings.TrimSpace(name)); name == "" {
				continue
			}
			if _, dup := d[name]; dup && name == "max-age" {
				d[name] = "invalid" // two max-ages: RFC 9111 §4.2.1, stale
				continue
			}
			d[name] = strings.Trim(strings.TrimSpace(arg), `"`)
		}
	}
	return d
}

func (d directives) has(name string) bool { _, ok := d[name]; return ok }
