package a2a

import (
	"context"
	"net/http"
	"testing"
	"time"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	tests := []struct {
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
		{"99999999999999999999999", maxRetryAfter, true},
		{"86401", maxRetryAfter, true},
		{"Sun, 29 Nov 2026 12:00:30 GMT", 30 * time.Second, true},
		{"Sunday, 29-Nov-26 12:01:00 GMT", time.Minute, true},
		{"Sun Nov 29 12:00:05 2026", 5 * time.Second, true},
		{"Sun, 29 Nov 2026 11:00:00 GMT", 0, true}, // past: now
		{"Fri, 31 Dec 9999 23:59:59 GMT", maxRetryAfter, true},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseRetryAfter(%q) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoff(t *testing.T) {
	lo, hi0 := 100*time.Millisecond, 2*time.Second
	withRA := func(v string) *http.Response {
		return &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {v}}}
	}
	if got := backoff(lo, hi0, 0, withRA("1")); got != time.Second {
		t.Errorf("Retry-After 1 → %s, want 1s", got)
	}
	if got := backoff(lo, hi0, 0, withRA("60")); got != hi0 {
		t.Errorf("Retry-After 60 → %s, want the cap %s", got, hi0)
	}
	for attempt := 0; attempt < 40; attempt++ {
		d := lo << min(attempt, 30)
		hi := clamp(d, 0, hi0)
		for range 50 {
			got := backoff(lo, hi0, attempt, nil)
			if got < hi/2 || got > hi {
				t.Fatalf("attempt %d: backoff %s outside [%s, %s]", attempt, got, hi/2, hi)
			}
		}
	}
}

func TestCheckRetryContextFirst(t *testing.T) {
	c, err := NewClient("http://127.0.0.1:1/")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	retry, err := c.checkRetry(ctx, &http.Response{StatusCode: 503, Header: http.Header{}}, nil)
	if retry || err != context.Canceled {
		t.Errorf("checkRetry on a cancelled ctx = %v, %v", retry, err)
	}
}
