package a2a

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"
)

// The receiving side of push notifications (A2A v0.3 §9.5; A2A v1.0
// §4.3.3): an http.Handler that takes an agent's webhook POSTs, checks
// their token, reads them with the client's own decoders and hands each
// to the wait it belongs to (pushwait.go).

// DefaultFallbackAfter is how long a [PushWait] goes without news of its
// task (the send's answer or a notification) before it polls the task
// instead, unless [FallbackAfter] says otherwise: 30 seconds.
const DefaultFallbackAfter = 30 * time.Second

// The headers an agent puts a webhook's token in: X-A2A-Notification-Token
// (A2A v0.3's example; a2a-python and a2a-js send it) and
// A2A-Notification-Token (a2a-go's v1.0 sender).
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
	// *[Message].
	Event Event
	// Wait is the wait the notification belongs to.
	Wait *PushWait
}

// PushReceiver receives an agent's push notifications: it is the
// http.Handler to serve at the webhook URL given to [NewPushReceiver],
// and it makes the waits ([PushReceiver.Send], [PushReceiver.Watch]) that
// register that URL with an agent and collect each task's final state
// from what arrives, without a poll loop. Its methods are safe for
// concurrent use, and so is serving it.
//
// Every wait registers the URL with a token of its own (128 random bits),
// which the agent sends back in an X-A2A-Notification-Token or
// A2A-Notification-Token header. ServeHTTP answers a POST:
//
//   - 204 No Content when it accepted the notification, and when the
//     notification is for a wait that has ended (duplicates are normal:
//     push is at-least-once);
//   - 405 for a method other than POST;
//   - 401 for a missing token or one of no wait, and when the
//     [VerifyPush] hook refuses the request;
//   - 413 for a body over the cap ([ReceiverMaxBytes]);
//   - 400 for a body that is not a task or event the SDK reads (not JSON,
//     truncated, of no known shape, a task without an id);
//   - 403 for a notification about another task than its wait's;
//   - 500 when the [OnNotification] hook returns an error.
//
// A refused notification reaches no hook and no wait, and is logged at
// debug level ([ReceiverLogger]) with its status and reason, never with
// its token. Error bodies are one line of plain text naming the fault,
// without secrets.
type PushReceiver struct {
	url      string
	maxBody  int64
	fallback time.Duration
	verify   func(*http.Request, []byte) error
	notify   func(context.Context, *PushNotification) error
	onDone   func(*PushWait)
	log      *slog.Logger

	mu      sync.Mutex
	waits   map[tokenKey]*PushWait // open waits, by their token's hash
	retired retiredSet             // waits ended lately
	closed  bool
}

// tokenKey is the SHA-256 of a token: waits are looked up by it, so the
// lookup's timing tells a caller guessing tokens nothing about them.
type tokenKey [sha256.Size]byte

// ReceiverOption configures a [PushReceiver].
type ReceiverOption func(*PushReceiver) error

// NewPushReceiver returns a receiver whose waits register webhookURL with
// agents: the absolute http or https URL at which the caller serves the
// receiver, as the agent reaches it. Errors: a webhookURL that is not an
// absolute http(s) URL, and an option's error.
func NewPushReceiver(webhookURL string, opts ...ReceiverOption) (*PushReceiver, error) {
	if err := checkWebhookURL(webhookURL); err != nil {
		return nil, err
	}
	r := &PushReceiver{url: webhookURL, maxBody: DefaultMaxResponseBytes, fallback: DefaultFallbackAfter,
		log: slog.New(slog.DiscardHandler), waits: map[tokenKey]*PushWait{}}
	for _, opt := range opts {
		if opt == nil {
			return nil, errors.New("a2a: nil ReceiverOption")
		}
		if err := opt(r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// VerifyPush adds a check of every notification whose token matched:
// f gets the request and its body (read whole, at most the cap) and
// returns an error to refuse it with 401, e.g. after checking a JWT
// signed by the agent against its keys (A2A v1.0 §13.2), which this
// module leaves to the caller's own library. The error is logged at debug
// level, not sent to the agent.
func VerifyPush(f func(r *http.Request, body []byte) error) ReceiverOption {
	return func(r *PushReceiver) error {
		if f == nil {
			return errors.New("a2a: VerifyPush: nil func")
		}
		r.verify = f
		return nil
	}
}

// OnNotification makes the receiver call f with each notification it
// accepts, before the notification counts for its wait, with the
// request's context; an error from f answers the agent 500 (so it may
// send again) and the notification does not count. f may be called
// concurrently and should return quickly: the agent waits for it.
func OnNotification(f func(ctx context.Context, n *PushNotification) error) ReceiverOption {
	return func(r *PushReceiver) error {
		if f == nil {
			return errors.New("a2a: OnNotification: nil func")
		}
		r.notify = f
		return nil
	}
}

// OnDone makes the receiver call f once for each wait that ends, however
// it ends (see [PushWait.Result]), in the goroutine that ended it: the
// handler of the notification that finished the task, the fallback poll,
// the wait's context or [PushReceiver.Close]. It is the way to collect
// thousands of results without a goroutine per wait; f should return
// quickly (hand the wait to a channel, for instance).
func OnDone(f func(w *PushWait)) ReceiverOption {
	return func(r *PushReceiver) error {
		if f == nil {
			return errors.New("a2a: OnDone: nil func")
		}
		r.onDone = f
		return nil
	}
}

// ReceiverLogger logs refused notifications at debug level: status, reason,
// the sender's address and, once known, the task id; never a token,
// credential or body.
func ReceiverLogger(l *slog.Logger) ReceiverOption {
	return func(r *PushReceiver) error {
		if l == nil {
			return errors.New("a2a: ReceiverLogger: nil *slog.Logger")
		}
		r.log = l
		return nil
	}
}

// ReceiverMaxBytes caps a notification's body, in bytes after gzip
// decoding (default [DefaultMaxResponseBytes], the cap of replies); a
// larger body is answered 413 unread. n must be positive.
func ReceiverMaxBytes(n int64) ReceiverOption {
	return func(r *PushReceiver) error {
		if n <= 0 {
			return fmt.Errorf("a2a: ReceiverMaxBytes %d is not positive", n)
		}
		r.maxBody = n
		return nil
	}
}

// FallbackAfter sets how long a wait goes without news of its task before
// it polls the task with [Client.AwaitTask] (default
// [DefaultFallbackAfter]): push is best effort, and an agent may never
// send a notification. Each notification starts the time again. d must
// be positive.
func FallbackAfter(d time.Duration) ReceiverOption {
	return func(r *PushReceiver) error {
		if d <= 0 {
			return fmt.Errorf("a2a: FallbackAfter %v is not positive", d)
		}
		r.fallback = d
		return nil
	}
}

// URL returns the webhook URL the receiver's waits register.
func (r *PushReceiver) URL() string { return r.url }

// Pending returns the number of waits that have not ended.
func (r *PushReceiver) Pending() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.waits)
}

// Close ends every open wait with [ErrReceiverClosed] and makes Send and
// Watch fail with it. It does not stop the HTTP server serving the
// receiver; notifications for ended waits are answered 204 as before.
func (r *PushReceiver) Close() {
	r.mu.Lock()
	r.closed = true
	open := make([]*PushWait, 0, len(r.waits))
	for _, w := range r.waits {
		open = append(open, w)
	}
	r.mu.Unlock()
	for _, w := range open {
		w.finish(ErrReceiverClosed)
	}
}

// ServeHTTP takes one notification (see [PushReceiver] for the answers).
func (r *PushReceiver) ServeHTTP(rw http.ResponseWriter, req *http.Request) {
	out := r.serve(req)
	if out.status == http.StatusNoContent {
		rw.WriteHeader(out.status)
		return
	}
	attrs := []slog.Attr{slog.Int("status", out.status), slog.String("reason", out.reason),
		slog.String("remote", req.RemoteAddr)}
	if out.taskID != "" {
		attrs = append(attrs, slog.String("task", truncate(out.taskID, maxLoggedID)))
	}
	if out.err != nil {
		attrs = append(attrs, slog.String("err", out.err.Error()))
	}
	r.log.LogAttrs(req.Context(), slog.LevelDebug, "a2a push notification refused", attrs...)
	if out.status == http.StatusMethodNotAllowed {
		rw.Header().Set("Allow", http.MethodPost)
	}
	http.Error(rw, "a2a push receiver: "+out.reason, out.status)
}

// maxLoggedID bounds a task id in a log record, in bytes.
const maxLoggedID = 128

// outcome is how the receiver answers a notification: its status; for a
// refusal the reason, which the answer's body carries, and an error of
// the caller's hooks, which only the log does; the task it named, once
// read.
type outcome struct {
	status int
	reason string
	err    error
	taskID string
}

// refused is the outcome of a refusal.
func refused(status int, reason string) outcome { return outcome{status: status, reason: reason} }

// serve checks and dispatches a notification.
func (r *PushReceiver) serve(req *http.Request) outcome {
	if req.Method != http.MethodPost {
		return refused(http.StatusMethodNotAllowed, "method is not POST")
	}
	token := req.Header.Get(tokenHeader)
	if token == "" {
		token = req.Header.Get(tokenHeaderV10)
	}
	if token == "" {
		return refused(http.StatusUnauthorized, "no notification token")
	}
	w, retired := r.lookup(token)
	switch {
	case retired:
		return outcome{status: http.StatusNoContent}
	case w == nil:
		return refused(http.StatusUnauthorized, "unknown notification token")
	}
	br := readBody(&http.Response{StatusCode: http.StatusOK, Header: req.Header, Body: req.Body, ContentLength: req.ContentLength},
		r.maxBody, w.red)
	switch {
	case br.tooLarge:
		return refused(http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", r.maxBody))
	case br.err != nil:
		return refused(http.StatusBadRequest, "body cannot be read")
	case br.fault != nil:
		return refused(http.StatusBadRequest, "body cannot be read: "+br.fault.Error())
	}
	if r.verify != nil {
		if err := r.verify(req, br.body); err != nil {
			return outcome{status: http.StatusUnauthorized, reason: "refused by VerifyPush", err: w.red.err(err)}
		}
	}
	ev, perr := w.decode(br.body)
	if perr != nil {
		return refused(http.StatusBadRequest, perr.Reason)
	}
	taskID := eventTask(ev)
	if _, ok := ev.(*Message); !ok && taskID == "" {
		return refused(http.StatusBadRequest, "event names no task")
	}
	if !w.claim(taskID) {
		return outcome{status: http.StatusForbidden, reason: "notification is about a task this token was not given for", taskID: taskID}
	}
	if r.notify != nil {
		if err := r.notify(req.Context(), &PushNotification{TaskID: taskID, Event: ev, Wait: w}); err != nil {
			return outcome{status: http.StatusInternalServerError, reason: "OnNotification failed", err: w.red.err(err), taskID: taskID}
		}
	}
	w.apply(ev)
	return outcome{status: http.StatusNoContent, taskID: taskID}
}

// lookup finds the wait of token: an open one, or retired when the token
// was a wait's that has ended.
func (r *PushReceiver) lookup(token string) (w *PushWait, retired bool) {
	key := tokenKey(sha256.Sum256([]byte(token)))
	r.mu.Lock()
	defer r.mu.Unlock()
	w = r.waits[key]
	if w == nil {
		return nil, r.retired.has(key)
	}
	// The hash matched; the tokens themselves are compared in constant
	// time all the same.
	if subtle.ConstantTimeCompare([]byte(token), []byte(w.token)) != 1 {
		return nil, false
	}
	return w, false
}

// add registers w under its token; it fails once the receiver is closed.
func (r *PushReceiver) add(w *PushWait) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return ErrReceiverClosed
	}
	r.waits[w.key] = w
	return nil
}

// remove retires w: its token no longer matches a wait, and its late
// notifications are answered 204 while it is among the last ones retired.
func (r *PushReceiver) remove(w *PushWait) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.waits[w.key] == w {
		delete(r.waits, w.key)
		r.retired.add(w.key)
	}
}

// maxRetired is how many ended waits' tokens a receiver remembers, so
// that their late or duplicate notifications get 204 rather than 401 (an
// agent may count a 4xx as a failed delivery, or cancel over it).
const maxRetired = 4096

// retiredSet is the tokens of the last maxRetired waits that ended.
type retiredSet struct {
	keys map[tokenKey]struct{}
	ring []tokenKey
	next int
}

func (s *retiredSet) has(k tokenKey) bool {
	_, ok := s.keys[k]
	return ok
}

func (s *retiredSet) add(k tokenKey) {
	if s.keys == nil {
		s.keys = map[tokenKey]struct{}{}
	}
	if len(s.ring) < maxRetired {
		s.ring = append(s.ring, k)
	} else {
		delete(s.keys, s.ring[s.next])
		s.ring[s.next] = k
		s.next = (s.next + 1) % maxRetired
	}
	s.keys[k] = struct{}{}
}

// decodePush reads a notification's body with c's binding, or, when it
// has the other version's shape, that version's (a v1.0 agent may send
// v0.3 bodies to webhooks registered in v0.3, and the reverse).
func decodePush(c *Client, cl *call, body []byte) (Event, *ProtocolError) {
	rep := &reply{cl: cl, body: body, result: bytes.TrimSpace(body)}
	ev, err := c.proto.event(rep)
	for _, b := range bindings {
		if !errors.Is(err, ErrVersionMismatch) {
			break
		}
		if b.version() != c.proto.version() {
			ev, err = b.event(rep)
		}
	}
	if err != nil {
		var pe *ProtocolError
		if errors.As(err, &pe) {
			return nil, pe
		}
		return nil, cl.protocolError(0, body, "body does not decode", err)
	}
	return ev, nil
}
