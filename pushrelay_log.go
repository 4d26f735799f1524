package a2a

import (
	"context"
	"encoding/hex"
	"log/slog"
	"sync"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
)

// Warnings about a receiver's relay ([PushReplicas]), logged at warn level
// through [PushLogger] at a bounded rate: a relay that fails (a NATS
// outage) switches off crash recovery and the passing of notifications,
// and a replica restarted without Resume leaves notifications undelivered;
// neither must be silent, nor turn into a record per call.

// At most relayWarnings warnings are logged in a window of relayWindow;
// those past it are counted, and the count is logged (one record) with
// the first warning of a later window. At most maxUnresumedKeys keys are
// remembered as warned about (then forgotten, all at once).
const (
	relayWarnings    = 10
	relayWindow      = time.Minute
	maxUnresumedKeys = 1024
)

// relayLog is the rate limit on a receiver's warnings about its relay, and
// the keys of the waits held but not resumed it warned about.
type relayLog struct {
	mu        sync.Mutex
	window    refusalWindowState
	unresumed map[tokenKey]struct{}
}

// warnRelay logs msg with attrs at warn level, within the rate limit.
func (r *PushReceiver) warnRelay(ctx context.Context, msg string, attrs ...slog.Attr) {
	r.relayLog.mu.Lock()
	log, dropped, since := r.relayLog.window.admit(relayWindow, relayWarnings)
	r.relayLog.mu.Unlock()
	if dropped > 0 {
		r.log.LogAttrs(ctx, slog.LevelWarn, "a2a push relay warnings not logged",
			slog.Int("count", dropped), slog.Time("since", since))
	}
	if log {
		r.log.LogAttrs(ctx, slog.LevelWarn, msg, attrs...)
	}
}

// logRelayFailure logs a failed call to the relay (call is its name).
func (r *PushReceiver) logRelayFailure(ctx context.Context, call string, err error) {
	if !r.log.Enabled(ctx, slog.LevelWarn) {
		return
	}
	r.warnRelay(ctx, "a2a push relay call failed", slog.String("call", call),
		slog.String("err", inert.Printable(err.Error())))
}

// logUnresumed logs, once per key (of the last maxUnresumedKeys), that a
// notification was passed to this replica for a wait it held before it
// restarted and has not resumed: Resume was not called, or not yet. The
// key is logged as its first 4 bytes in hex, never the token (the relay
// does not have it).
func (r *PushReceiver) logUnresumed(ctx context.Context, key tokenKey) {
	if !r.log.Enabled(ctx, slog.LevelWarn) {
		return
	}
	r.relayLog.mu.Lock()
	_, warned := r.relayLog.unresumed[key]
	if !warned {
		if r.relayLog.unresumed == nil || len(r.relayLog.unresumed) >= maxUnresumedKeys {
			r.relayLog.unresumed = map[tokenKey]struct{}{}
		}
		r.relayLog.unresumed[key] = struct{}{}
	}
	r.relayLog.mu.Unlock()
	if warned {
		return
	}
	r.warnRelay(ctx, "a2a push relay: notification for a wait this replica held before a restart and has not resumed "+
		"(call PushReceiver.Resume at start); delivered again later",
		slog.String("key", hex.EncodeToString(key[:4])))
}
