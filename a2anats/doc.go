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
