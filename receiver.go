package a2a

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// The receiving side of push notifications (A2A v0.3 §9.5; A2A v1.0
// §4.3.3 and §13.2): an http.Handler that takes an agent's webhook POSTs,
// checks their token, reads them with the decoders of the client's version
// (its JSON-RPC binding's, whatever its transport: readNotification) and hands
// each to the wait it belongs to (pushwait.go).

// defaultFallbackAfter is how long a [PushWait] goes without news of its
// task (the send's answer or a notification) before it polls the task
// instead, unless PushFallbackAfter says otherwise: 30 seconds.
const defaultFallbackAfter = 30 * time.Second

// The headers an agent puts a webhook's token in: X-A2A-Notification-Token
// (A2A v0.3's example; a2a-python, a2a-go v0.3 and a2a-js 0.3 send it),
// A2A-Notification-Token (a2a-go's v1.0 sender, with Authorization too),
// and Authorization with the Bearer scheme, from the config's
// authentication (A2A v1.0 §4.3.3; a2a-js 1.0 sends only that one when
// the config has authentication; a2a-js 0.3 never sends it).
const (
	tokenHeader    = "X-A2A-Notification-Token"
	tokenHeaderV10 = "A2A-Notification-Token"
)

// PushNotification is one notification a [PushReceiver] accepted: the
// event an agent POSTed about a task it was asked to notify.
type PushNotification struct {
	// TaskID is the task the notification is about; "" only for a
	// Message that names none.
	TaskID string
	// Event is what the agent sent, decoded with the SDK's types: a
	// *[Task] (A2A v0.3 agents send the task; A2A v1.0 agents a
	// StreamResponse holding one of the four), a
	// *[TaskStatusUpdateEvent], a *[TaskArtifactUpdateEvent] or a
	// *[Message]. It is shared with the wait: do not modify it.
	Event Event
	// Wait is the wait the notification belongs to.
	Wait *PushWait
}

// PushReceiver receives an agent's push notifications (A2A v0.3 §9.5;
// A2A v1.0 §4.3.3): it is the http.Handler to serve at the webhook URL
// given to [NewPushReceiver], and it makes the waits
// ([PushReceiver.SendMessage], [PushReceiver.WatchTask]) that register that URL with
// an agent and collect each task's final state from what arrives, without
// a goroutine or a poll loop per task. Its methods are safe for concurrent
// use, and so is serving it.
//
// Every wait registers the URL with a token of its own (128 random bits),
// which the agent sends back in an X-A2A-Notification-Token or
// A2A-Notification-Token header, or as "Authorization: Bearer <token>"
// (the wait registers it as the config's authentication too). ServeHTTP
// answers a POST:
//
//   - 204 No Content when it took the notification, and when the
//     notification is for one of the last 16,384 waits that ended
//     (duplicates are normal: delivery is at least once);
//   - 405 for a method other than POST;
//   - 401 for a missing token or one of no wait, and when the
//     [PushVerify] hook refuses the request;
//   - 413 for a body over the cap (4 MiB after gzip decoding; see
//     [PushMaxBytes]);
//   - 400 for a body that is not a task or event the SDK reads (not JSON,
//     truncated, of no known shape, a task without an id), and for a
//     Content-Encoding other than gzip (deflate, br, or two encodings);
//   - 403 for a notification about another task than its wait's;
//   - 408 when the body took longer than the read timeout to arrive (see
//     [PushReadTimeout]);
//   - 503 with "Retry-After: 1" when the notifications being read and
//     decoded at once hold the receiver's in-flight budget (see
//     [PushMaxInflightBytes]), without reading the rest of the body;
//   - 500 when the [PushOnNotification] hook returns an error.
//
// A refused notification reaches no hook and no wait, and is logged at
// debug level ([PushLogger]) with its status and reason, never with its
// token, at a bounded rate: past 20 refusals in 10 seconds from senders
// without a valid token (or 20 from token holders) they are counted, and
// the count is logged. Error bodies are one line of plain text naming the
// fault, without secrets or the hooks' errors. The answers that may leave
// the body unread (405, 401, 413, 408, 503, and the 204 for an ended
// wait's token, which is given without reading the body) close the
// connection.
//
// What a sender can cost is bounded: memory grows with the bytes that
// arrive, never with a Content-Length; all notifications being read and
// decoded at once share one budget (64 MiB by default), so many senders
// posting gzip bombs at once cost no more than one budget; and a body
// must arrive within the read timeout (10 seconds by default), which the
// receiver sets on the connection itself, so it holds even when the
// http.Server has no ReadTimeout. Serve it all the same from an
// http.Server with ReadHeaderTimeout, which only the server can bound.
type PushReceiver struct {
	receiverConfig

	mu       sync.Mutex
	waits    map[tokenKey]*PushWait // open waits, by their token's hash
	retired  retiredSet             // waits ended lately
	closed   bool
	budget   inflight   // the bytes of the notifications being read
	refusals refusalLog // the rate limit on logging refusals
	// busy counts what Close waits for (pushstate.go: enter, leave): the
	// SendMessage and WatchTask calls under way, the receiver's goroutines
	// (fallback polls, final reads, the PushOnDone queue) and the
	// PushVerify and PushOnNotification calls running. idle is signalled
	// when it drops to zero; drained is set once Close has seen it there:
	// nothing starts after.
	busy    int
	idle    sync.Cond
	drained bool
	// closing ends when Close begins, and with it the contexts of the
	// hooks running (gateHooks); stopHooks ends it.
	closing   context.Context
	stopHooks context.CancelFunc
	ended     []*PushWait // ended waits PushOnDone has not been called with
	calling   bool        // a goroutine is calling PushOnDone
	relayed   relayState  // with PushReplicas (pushrelay.go)
	relayLog  relayLog    // warnings about the relay (pushrelay_log.go)
}

// receiverConfig is what the options set.
type receiverConfig struct {
	url         string
	maxBody     int64         // a notification's cap, bytes
	maxInflight int64         // the in-flight budget, bytes
	readTimeout time.Duration // how long a body may take to arrive
	fallback    time.Duration
	verify      func(*http.Request, []byte) error
	notify      func(context.Context, *PushNotification) error
	onDone      func(*PushWait)
	log         *slog.Logger
	relay       PushRelay // PushReplicas

	// Observation (PushObserve).
	observe func(*http.Request) (context.Context, func(status int))
}

// NewPushReceiver returns a receiver whose waits register webhookURL with
// agents: the absolute http or https URL at which the caller serves the
// receiver, as the agent reaches it. Errors: a webhookURL that is not an
// absolute http(s) URL, and an option's error.
func NewPushReceiver(webhookURL string, opts ...ReceiverOption) (*PushReceiver, error) {
	if err := checkWebhookURL(webhookURL); err != nil {
		return nil, err
	}
	r := &PushReceiver{receiverConfig: receiverConfig{url: webhookURL, fallback: defaultFallbackAfter,
		maxBody: defaultPushMaxBytes, maxInflight: defaultPushMaxInflightBytes, readTimeout: defaultPushReadTimeout,
		log: slog.New(slog.DiscardHandler)}, waits: map[tokenKey]*PushWait{}}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("a2a: nil ReceiverOption")
		}
		if err := opt.applyReceiver(&r.receiverConfig); err != nil {
			return nil, err
		}
	}
	if need := maxRequestCharge(r.maxBody); r.maxInflight < need {
		return nil, fmt.Errorf("a2a: PushMaxInflightBytes %d cannot hold one notification of PushMaxBytes %d (it needs %d)", r.maxInflight, r.maxBody, need)
	}
	r.budget.max = r.maxInflight
	if r.relay != nil { // the context of the queued relay calls
		r.relayed.base, r.relayed.cut = context.WithCancel(context.Background())
	}
	r.gateHooks()
	return r, nil
}

// URL returns the webhook URL the receiver's waits register.
func (r *PushReceiver) URL() string { return r.url }

// Pending returns the number of waits that have not ended, those of
// Sends and Watches under way included.
func (r *PushReceiver) Pending() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.waits)
}

// Close ends every open wait with [ErrReceiverClosed], makes SendMessage and
// WatchTask fail with it (those under way too: their requests stop), and
// returns once they have and the receiver's goroutines have: the
// fallback polls and final reads it stopped, and the [PushOnDone] calls
// queued, as well as the [PushVerify] and [PushOnNotification] calls
// running, whose contexts (the one PushOnNotification is given, the
// request's for PushVerify) it ends first, with [ErrReceiverClosed] as
// their cause: a hook should return once its context ends, or Close
// waits for it. Once it returns, none of the funcs given to the receiver or
// its waits (those, and PollProgress) is called again, but for
// [PushLogger]'s handler, which logs the refusals of notifications that
// go on arriving. A wait that ends
// by other means while Close runs ([PushWait.Stop], its context, a
// notification) is reported to PushOnDone once if it ends before Close
// has waited for the calls queued, else not at all; a notification that
// reaches a hook once Close has begun is refused (401 by PushVerify, 500
// by PushOnNotification) and counts for nothing. So Close waits for a
// PushOnDone func that blocks, and must not be called from one, nor from
// another func given to the receiver or a PollProgress func given to
// SendMessage or WatchTask. It may be called more than once, and
// concurrently. With [PushReplicas], the Holds and Releases queued for
// the relay get 10 s in all from Close's start: then the calls under way
// see their contexts end and those not made are dropped (a dropped Hold
// of a task id means a restart does not resume that wait; it is logged
// at Warn). It does not stop the HTTP server serving the receiver;
// notifications for ended waits are answered as before.
func (r *PushReceiver) Close() {
	r.mu.Lock()
	r.closed = true
	if r.relay != nil { // the queued relay calls get relayTimeout in all
		defer r.cutRelayAfter()()
	}
	open := make([]*PushWait, 0, len(r.waits))
	for _, w := range r.waits {
		open = append(open, w)
	}
	r.mu.Unlock()
	r.stopHooks() // the running hooks' contexts end: Close waits for them next
	for _, w := range open {
		w.finish(ErrReceiverClosed)
	}
	defer r.flushRefusals() // after r.mu is let go
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.idle.L == nil {
		r.idle.L = &r.mu
	}
	for r.busy > 0 { // their requests end with their waits
		r.idle.Wait()
	}
	r.drained = true
}

// goWork runs f in a goroutine Close waits for; it reports false, and does
// not run f, once the receiver is closed.
func (r *PushReceiver) goWork(f func()) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return false
	}
	r.busy++
	go func() {
		defer r.leave()
		f()
	}()
	return true
}

// reportDone queues w for the PushOnDone func, started in a goroutine of
// its own while there is work (Close waits for it). Once Close has waited
// for the work to end (r.drained), w is not reported: whatever ended it
// (Stop, its context, a notification) raced Close and lost.
func (r *PushReceiver) reportDone(w *PushWait) {
	if r.onDone == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.drained {
		return
	}
	r.ended = append(r.ended, w)
	if r.calling {
		return
	}
	r.calling = true
	r.busy++
	go func() {
		defer r.leave()
		for {
			r.mu.Lock()
			if len(r.ended) == 0 {
				r.calling, r.ended = false, nil
				r.mu.Unlock()
				return
			}
			next := r.ended[0]
			r.ended = r.ended[1:]
			r.mu.Unlock()
			r.onDone(next)
		}
	}()
}

// ServeHTTP takes one notification (see [PushReceiver] for the answers),
// observed by the func given to [PushObserve], if any.
func (r *PushReceiver) ServeHTTP(rw http.ResponseWriter, req *http.Request) {
	if r.observe == nil {
		r.answer(rw, req)
		return
	}
	ctx, done := r.observe(req)
	if ctx != nil {
		req = req.WithContext(ctx)
	}
	status := r.answer(rw, req)
	if done != nil {
		done(status)
	}
}

// answer takes one notification and answers it, returning the status.
func (r *PushReceiver) answer(rw http.ResponseWriter, req *http.Request) int {
	out := r.serve(r.startDeadline(rw, req), req)
	if out.status == http.StatusNoContent {
		if out.unread {
			rw.Header().Set("Connection", "close") // as for the refusals below
		}
		rw.WriteHeader(out.status)
		return out.status
	}
	r.logRefusal(req.Context(), req.RemoteAddr, out)
	switch out.status {
	case http.StatusMethodNotAllowed, http.StatusUnauthorized, http.StatusRequestEntityTooLarge,
		http.StatusRequestTimeout, http.StatusServiceUnavailable:
		// The body may be left unread: close the connection rather
		// than read the rest (net/http reads up to 256 KiB of it, by
		// the read deadline, to reuse the connection otherwise).
		rw.Header().Set("Connection", "close")
	}
	switch out.status {
	case http.StatusMethodNotAllowed:
		rw.Header().Set("Allow", http.MethodPost)
	case http.StatusServiceUnavailable:
		rw.Header().Set("Retry-After", pushRetryAfter)
	}
	http.Error(rw, "a2a push receiver: "+out.reason, out.status)
	return out.status
}

// maxLoggedID bounds a task id in a log record, in bytes.
const maxLoggedID = 128

// outcome is how the receiver answers a notification: its status; for a
// refusal the reason, which the answer's body carries, and an error of
// the caller's hooks, which only the log does; the task it named, once
// read; whether the sender's token matched a wait; whether the body was
// left unread though the answer is 204.
type outcome struct {
	status int
	reason string
	err    error
	taskID string
	authed bool
	unread bool
}

// refused is the outcome of a refusal.
func refused(status int, reason string) outcome { return outcome{status: status, reason: reason} }

// taken is the outcome of a notification taken, or dropped for a wait
// that has ended.
var taken = outcome{status: http.StatusNoContent}

// serve checks and dispatches a notification.
func (r *PushReceiver) serve(dl bodyDeadline, req *http.Request) outcome {
	if req.Method != http.MethodPost {
		return refused(http.StatusMethodNotAllowed, "method is not POST")
	}
	token := notificationToken(req.Header)
	if token == "" {
		return refused(http.StatusUnauthorized, "no notification token")
	}
	key := tokenKey(sha256.Sum256([]byte(token)))
	w, retired := r.lookup(token, key)
	switch {
	case retired:
		return outcome{status: http.StatusNoContent, unread: true}
	case w == nil && r.relay != nil:
		return r.passOn(dl, req, token, key) // another replica's, maybe
	case w == nil:
		return refused(http.StatusUnauthorized, "unknown notification token")
	}
	out := r.take(dl, req, w)
	out.authed = true
	return out
}

// take reads, checks and dispatches a notification whose token is w's,
// within the receiver's in-flight budget: the notification's charge is
// held until the hooks and the wait are done with the event it decoded.
func (r *PushReceiver) take(dl bodyDeadline, req *http.Request, w *PushWait) outcome {
	ch, ok := r.budget.admit()
	if !ok {
		return overBudget
	}
	defer ch.release()
	ev, out := r.readEvent(dl, req, w, ch)
	if ev == nil {
		return out
	}
	return r.dispatch(req.Context(), w, ev)
}

// dispatch checks an event read for w and hands it to the
// PushOnNotification hook and the wait.
func (r *PushReceiver) dispatch(ctx context.Context, w *PushWait, ev Event) outcome {
	taskID := eventTask(ev)
	if _, ok := ev.(*Message); !ok && taskID == "" {
		return refused(http.StatusBadRequest, "event names no task")
	}
	switch w.belongs(taskID) {
	case waitEnded:
		return taken
	case otherTask:
		return outcome{status: http.StatusForbidden, reason: "notification is about a task this token was not given for", taskID: w.redactor().Str(taskID)}
	}
	if r.notify != nil {
		if err := r.notify(ctx, &PushNotification{TaskID: taskID, Event: ev, Wait: w}); err != nil {
			return outcome{status: http.StatusInternalServerError, reason: "PushOnNotification failed", err: w.redactor().Err(err), taskID: w.redactor().Str(taskID)}
		}
	}
	w.apply(ev, taskID)
	return taken
}
