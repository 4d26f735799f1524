// Package backoff says how long a client waits before its next attempt:
// the server's Retry-After, read and clamped, or exponential backoff with
// jitter. It reads a reply's header, never its body.
package backoff

import (
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Wait is the retryablehttp.Backoff of every call: Retry-After when the
// server sent a usable one (never less than min nor more than max), else
// exponential from min with "equal jitter" (a random wait in [d/2, d]),
// at least min/2 and at most max. It reads resp's header only, never its
// body; resp may be nil (no reply).
func Wait(min, max time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := RetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return clamp(d, min, max) // "Retry-After: 0" still waits min
		}
	}
	d := float64(min) * math.Pow(2, float64(attempt))
	if d > float64(max) || math.IsInf(d, 0) {
		d = float64(max)
	}
	half := d / 2
	return clamp(time.Duration(half+rand.Float64()*half), min/2, max)
}

func clamp(d, lo, hi time.Duration) time.Duration {
	return min(max(d, lo), hi)
}

// maxRetryAfter bounds what RetryAfter accepts, so absurd values do not
// overflow time.Duration.
const maxRetryAfter = 24 * time.Hour

// RetryAfter reads a Retry-After header: delay-seconds or an HTTP date
// (RFC 9110 §10.2.3), relative to now. It reports false for an empty,
// negative or unreadable value. Values beyond a day are reported as a day
// (maxRetryAfter).
func RetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if v[0] >= '0' && v[0] <= '9' {
		secs, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			var ne *strconv.NumError
			if errors.As(err, &ne) && ne.Err == strconv.ErrRange {
				return maxRetryAfter, true
			}
			return 0, false
		}
		if secs > uint64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	d := t.Sub(now)
	if d < 0 {
		d = 0
	}
	return min(d, maxRetryAfter), true
}
