package httpbody

import (
	"context"
	"fmt"
	"time"
)

// TimeoutError is an attempt or a stream that outlasted the client's own
// bound on it (WithAttemptTimeout, WithStreamIdleTimeout): like a deadline
// of ctx, it matches context.DeadlineExceeded, and as a net.Error its
// Timeout is true. It reaches the caller inside a *TransportError.
type TimeoutError struct {
	What  string        // "no reply", "no event"
	Bound time.Duration // the bound that ran out
}

func (e TimeoutError) Error() string   { return fmt.Sprintf("%s within %s", e.What, e.Bound) }
func (e TimeoutError) Timeout() bool   { return true }
func (e TimeoutError) Temporary() bool { return true }
func (e TimeoutError) Unwrap() error   { return context.DeadlineExceeded }
