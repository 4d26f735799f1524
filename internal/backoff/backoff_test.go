package backoff

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// retryAfterCases are Retry-After values read at retryAfterNow; they seed
// FuzzRetryAfter too.
var retryAfterCases = []struct {
	in   string
	want time.Duration
	ok   bool
}{
	{"", 0, false},
	{"0", 0, true},
	{"3", 3 * time.Second, true},
	{" 7 ", 7 * time.Second, true},
	{"-5", 0, false},
	{"1.5", 0, false},
	{"soon", 0, false},
	{"soon, maybe", 0, false},
	{"3600", time.Hour, true},
	{"99999999999999999999999", maxRetryAfter, true},
	{"86401", maxRetryAfter, true},
	{"Sun, 29 Nov 2026 12:00:30 GMT", 30 * time.Second, true},
	{"Sunday, 29-Nov-26 12:01:00 GMT", time.Minute, true},
	{"Sun Nov 29 12:00:05 2026", 5 * time.Second, true},
	{"Sun, 29 Nov 2026 11:00:00 GMT", 0, true}, // past: now
	{"Wed, 21 Oct 2015 07:28:00 GMT", 0, true},
	{"Fri, 31 Dec 9999 23:59:59 GMT", maxRetryAfter, true},
}

var retryAfterNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func TestParseRetryAfter(t *testing.T) {
	for _, tt := range retryAfterCases {
		got, ok := RetryAfter(tt.in, retryAfterNow)
		if got != tt.want || ok != tt.ok {
			t.Errorf("RetryAfter(%q) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzRetryAfter: any header value gives a delay in [0, 24h] or "absent";
// a plain count of seconds is read exactly; an HTTP date agrees with
// http.ParseTime; and the backoff built on it never exceeds the cap.
func FuzzRetryAfter(f *testing.F) {
	for _, tt := range retryAfterCases {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := RetryAfter(v, retryAfterNow)
		if !ok {
			if d != 0 {
				t.Fatalf("RetryAfter(%q) = %s with ok false", v, d)
			}
		} else if d < 0 || d > maxRetryAfter {
			t.Fatalf("RetryAfter(%q) = %s, outside [0, %s]", v, d, maxRetryAfter)
		}
		trimmed := strings.TrimSpace(v)
		if n, err := strconv.ParseUint(trimmed, 10, 64); err == nil && trimmed != "" && trimmed[0] != '+' {
			want := maxRetryAfter
			if n < uint64(maxRetryAfter/time.Second) {
				want = time.Duration(n) * time.Second
			}
			if !ok || d != want {
				t.Fatalf("RetryAfter(%q) = %s, %v; want %s", v, d, ok, want)
			}
		}
		if tm, err := http.ParseTime(trimmed); err == nil && trimmed != "" && (trimmed[0] < '0' || trimmed[0] > '9') {
			want := min(max(tm.Sub(retryAfterNow), 0), maxRetryAfter)
			if !ok || d != want {
				t.Fatalf("RetryAfter(%q) = %s, %v; want %s (date %v)", v, d, ok, want, tm)
			}
		}
		resp := &http.Response{Header: http.Header{"Retry-After": {v}}}
		for attempt := range 4 {
			if b := Wait(time.Millisecond, 50*time.Millisecond, attempt, resp); b < 0 || b > 50*time.Millisecond {
				t.Fatalf("backoff with Retry-After %q = %s, outside [0, cap]", v, b)
			}
		}
	})
}

func TestBackoff(t *testing.T) {
	lo, hi0 := 100*time.Millisecond, 2*time.Second
	withRA := func(v string) *http.Response {
		return &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {v}}}
	}
	if got := Wait(lo, hi0, 0, withRA("1")); got != time.Second {
		t.Errorf("Retry-After 1 → %s, want 1s", got)
	}
	if got := Wait(lo, hi0, 0, withRA("60")); got != hi0 {
		t.Errorf("Retry-After 60 → %s, want the cap %s", got, hi0)
	}
	if got := Wait(lo, hi0, 0, withRA("0")); got != lo {
		t.Errorf("Retry-After 0 → %s, want the floor %s", got, lo)
	}
	for attempt := 0; attempt < 40; attempt++ {
		d := lo << min(attempt, 30)
		hi := clamp(d, 0, hi0)
		for range 50 {
			got := Wait(lo, hi0, attempt, nil)
			if got < hi/2 || got > hi {
				t.Fatalf("attempt %d: backoff %s outside [%s, %s]", attempt, got, hi/2, hi)
			}
		}
	}
}
