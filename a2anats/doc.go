// Package a2anats shares the push-notification waits of several replicas
// of one program through NATS JetStream: its [Relay] is an [a2a.PushRelay]
// for [a2a.PushReplicas]. A notification that lands on a replica that
// does not hold its wait is passed to the replica that does, durably (kept
// while that replica is down), and each replica's pending waits are kept
// in a KV bucket so that, restarted, it resumes them
// ([a2a.PushReceiver.Resume]).
//
// The relay keeps the SHA-256 of each wait's token, never the token; the
// notifications it passes may hold task data, so the NATS servers and
// their store must be as trusted as the replicas. The example in
// example/replicas runs three replicas behind one round-robin proxy, one
// of them killed and restarted mid-run.
//
// # Bounds
//
// Nothing the relay stores outlives its use for long, even for a replica
// that never comes back, or comes back without calling Resume:
//
//   - the record of a wait is removed at the wait's deadline (a per-key
//     TTL), and one of a wait without a deadline after [MaxAge] (24 hours
//     by default: the bucket's MaxAge, and the TTL's bound);
//   - a passed notification is removed once taken, after [MaxDeliver]
//     failed deliveries (100 by default; the delay between two doubles
//     from [RedeliverAfter], 1 second, up to a minute: about an hour and
//     a half of its holder's uptime), or after [MaxAge] (the stream's
//     MaxAge), whichever comes first;
//   - the marker a released record leaves is removed a minute later.
//
// # A replica's life
//
// At every start: connect to NATS, [New] with the replica's name (the
// same as before its restart), [a2a.NewPushReceiver] with
// [a2a.PushReplicas], and [a2a.PushReceiver.Resume] before serving the
// receiver or soon after (what was passed to it meanwhile is delivered
// once its waits are resumed; a replica that does not call Resume logs a
// warning per wait, and its notifications end by the bounds above).
//
// To stop: stop the HTTP server ([net/http.Server.Shutdown]), then Close the
// receiver (its waits stay in the bucket for the next start), then the
// NATS connection. A receiver whose server still takes notifications once
// the connection is closed answers them 503 (Retry-After: 1): an agent
// that does not retry loses them.
//
// To retire a replica's name for good: Resume its waits and Stop each
// ([a2a.PushWait.Stop]; their records are released), or let the bounds
// above expire them.
//
// A passed notification is one NATS message: its body can be no larger
// than the server's max_payload (1 MiB by default) allows, which
// [Relay.MaxBody] returns. Give it as the receivers' cap, so that every
// replica answers a larger notification 413 alike:
//
//	relay, err := a2anats.New(ctx, nc, "replica-1")
//	...
//	recv, err := a2a.NewPushReceiver(webhook, a2a.PushReplicas(relay),
//		a2a.PushMaxBytes(relay.MaxBody()))
//
// (Without it, a receiver given the Relay itself still answers 413 to a
// body the relay cannot carry, but the holder takes it when posted there.)
//
// It is a module of its own, so that the a2a module needs no NATS client.
package a2anats
