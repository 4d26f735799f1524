package a2a

import "time"

// SetRelayTimeout shortens, for a test, the time Close gives the relay
// calls queued and each Pass may take (relayTimeout); call it before the
// receiver is used.
func SetRelayTimeout(r *PushReceiver, d time.Duration) { r.relayed.limit = d }
