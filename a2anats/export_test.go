package a2anats

import "time"

// MarkerTTL sets the bucket's marker TTL, the least TTL of a record, so
// that a test sees a record expire in seconds (a bucket's is a minute).
func MarkerTTL(d time.Duration) Option {
	return func(c *config) error { c.markerTTL = d; return nil }
}

// Backoff is the backoff of a Relay whose RedeliverAfter is redeliver.
func Backoff(redeliver time.Duration, tries int) time.Duration {
	return (&Relay{redeliver: redeliver}).backoff(tries)
}
