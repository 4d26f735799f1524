package a2anats

import (
	"errors"
	"fmt"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// passOverhead bounds what a passed notification's message adds to its
// body against the server's max_payload: the header block ("NATS/1.0",
// the key header with its 64 hex digits, the line ends: under 100 bytes),
// with room to spare.
const passOverhead = 256

// ErrBodyTooLarge is what [Relay.Pass] returns, wrapped, for a body larger
// than [Relay.MaxBody]: NATS cannot carry it, and trying again cannot help.
var ErrBodyTooLarge = errors.New("a2anats: notification body larger than the NATS server's max_payload allows")

// MaxBody returns the largest notification body, in bytes, the relay can
// pass: the connection's max_payload (the server's, 1 MiB by default) less
// the message's overhead; 0 when the connection has not learnt it (not
// connected). A receiver with this relay answers a larger notification
// 413 rather than 503 ([a2a.PushReplicas]); give it as the receiver's cap,
// a2a.PushMaxBytes(relay.MaxBody()), so that every replica refuses such a
// body alike, the holder included.
func (r *Relay) MaxBody() int64 {
	mp := r.js.Conn().MaxPayload()
	if mp <= passOverhead {
		return 0
	}
	return mp - passOverhead
}

// checkPass returns an error wrapping [ErrBodyTooLarge] for a body n the
// relay cannot carry.
func (r *Relay) checkPass(n a2a.RelayedNotification) error {
	if max := r.MaxBody(); max > 0 && int64(len(n.Body)) > max {
		return fmt.Errorf("a2anats: pass: %d-byte body, over %d: %w", len(n.Body), max, ErrBodyTooLarge)
	}
	return nil
}
