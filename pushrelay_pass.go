package a2a

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/caoliao-a2a/a2a-go/internal/inert"
	"github.com/caoliao-a2a/a2a-go/internal/redact"
)

// Notifications across replicas: a notification whose token none of this
// replica's waits holds is passed to the replica the relay names
// (passOn), and those passed to this one are taken as posted ones
// (deliverPassed), from the relay's Listen (startListeningLocked).

// startListeningLocked starts Listen once, in a goroutine Close waits for:
// it runs until Close begins, and is called again a second after it
// fails. r.mu is held.
func (r *PushReceiver) startListeningLocked() {
	if r.relayed.listening || r.closed {
		return
	}
	r.relayed.listening = true
	r.busy++
	go func() {
		defer r.leave()
		for {
			err := r.relay.Listen(r.closing, r.deliverPassed)
			if r.closing.Err() != nil {
				return
			}
			if err != nil {
				r.logRelayFailure(r.closing, "Listen", err)
			}
			select {
			case <-r.closing.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}()
}

// passOn answers a notification whose token matches no wait of this
// replica's (nor one that ended lately) when the receiver has a relay: if
// another replica holds a wait of that token, the notification is read
// (under the cap and the in-flight budget), checked by PushVerify, and
// passed to it, and answered 204 once the relay took it; 503 when the
// relay fails, 401 when no replica holds the token.
func (r *PushReceiver) passOn(dl bodyDeadline, req *http.Request, token string, key tokenKey) outcome {
	if r.relayed.lookups.Add(1) > maxRelayLookups {
		r.relayed.lookups.Add(-1)
		return outcome{status: http.StatusServiceUnavailable, reason: "push relay lookups all in flight"}
	}
	hctx, cancel := context.WithTimeout(req.Context(), r.readTimeout)
	holder, err := r.relay.Holder(hctx, key)
	cancel()
	r.relayed.lookups.Add(-1)
	switch {
	case errors.Is(err, ErrWaitNotHeld):
		return refused(http.StatusUnauthorized, "unknown notification token")
	case err != nil:
		return outcome{status: http.StatusServiceUnavailable, reason: "push relay unavailable", err: errors.New(inert.Printable(err.Error()))}
	}
	ch, ok := r.budget.admit()
	if !ok {
		return overBudget
	}
	defer ch.release()
	withToken := sync.OnceValue(func() *redact.Redactor { return new(redact.Redactor).With([]string{token}, nil) })
	body, out, ok := r.readBody(dl, req, new(redact.Redactor), withToken, ch)
	if !ok {
		return out
	}
	if mb, ok := r.relay.(interface{ MaxBody() int64 }); ok {
		if max := mb.MaxBody(); max > 0 && int64(len(body)) > max {
			return refused(http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes, the most the push relay carries", max))
		}
	}
	pctx, cancel := context.WithTimeout(req.Context(), r.relayLimit())
	defer cancel()
	if err := r.relay.Pass(pctx, holder, RelayedNotification{Key: key, Body: body}); err != nil {
		return outcome{status: http.StatusServiceUnavailable, reason: "push relay unavailable", err: withToken().Err(err)}
	}
	return taken
}

// errNotTaken is what deliverPassed returns for a notification the
// relay should deliver again later.
var errNotTaken = errors.New("a2a: push relay: notification not taken yet")

// deliverPassed takes a notification another replica passed to this one
// as one posted to it (same decoding, checks, PushOnNotification and
// fold), but for the token check, done by its hash, and PushVerify, which
// the replica that took it ran. It returns nil for a notification taken
// or that never will be (for a wait that ended, or one no replica holds;
// one refused, which is logged), and an error for one to deliver again: a
// wait held but not resumed yet, the in-flight budget full, a
// PushOnNotification that failed, Close under way.
func (r *PushReceiver) deliverPassed(ctx context.Context, n RelayedNotification) error {
	key := tokenKey(n.Key)
	r.mu.Lock()
	w, retired, closed := r.waits[key], r.retired.has(key), r.closed
	r.mu.Unlock()
	switch {
	case closed:
		return ErrReceiverClosed
	case retired:
		return nil
	case w == nil:
		_, err := r.relay.Holder(ctx, n.Key)
		switch {
		case errors.Is(err, ErrWaitNotHeld):
			return nil // ended, or never was
		case err == nil: // held, by this replica before a restart
			r.logUnresumed(ctx, key)
		}
		return errNotTaken // Resume comes, or the relay is back
	}
	ch, ok := r.budget.admit()
	if !ok {
		return errNotTaken
	}
	defer ch.release()
	if len(n.Body) > int(r.maxBody) || !ch.take(int64(len(n.Body))) {
		r.logPassedRefusal(ctx, refused(http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", r.maxBody)))
		return nil
	}
	out := r.takeRead(ctx, w, n.Body, ch)
	if out.status == http.StatusNoContent {
		return nil
	}
	r.logPassedRefusal(ctx, out)
	if out.status == http.StatusServiceUnavailable || out.status == http.StatusInternalServerError {
		return errNotTaken
	}
	return nil
}

// logPassedRefusal logs a passed notification refused, as logRefusal does
// a posted one.
func (r *PushReceiver) logPassedRefusal(ctx context.Context, out outcome) {
	out.authed = true
	r.logRefusal(ctx, "push relay", out)
}

// takeRead takes a notification's body, read, for w: decoded, checked and
// dispatched as dispatch does.
func (r *PushReceiver) takeRead(ctx context.Context, w *PushWait, body []byte, ch *charge) outcome {
	ev, out := decodeEvent(w, body, ch)
	if ev == nil {
		return out
	}
	return r.dispatch(ctx, w, ev)
}
