package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// pushPath is the path of the webhook URL send registers with the agent
// for --push-receiver when no --push-url is given. The receiver answers
// at every path (a tunnel or proxy named by --push-url may rewrite it).
const pushPath = "/a2a/push"

// waitByPush is send's wait by push notification (--push-receiver
// HOST:PORT, the specification's Tier 3 PUSH_002): it serves the
// package's PushReceiver on a listener at HOST:PORT (a loopback address
// unless --push-url says where the agent reaches it), sends the message
// with a push config naming the receiver's URL (--push-url, default
// http://HOST:PORT/a2a/push) and a token of the wait's own (the
// package's: 128 random bits, never printed), and waits, within
// --timeout, for a notification that the task has ended or waits for
// the caller. A task the agent says nothing of for the poll's longest
// pause (5 × --poll-interval, at most 30s: PushFallbackAfter) is polled
// as send polls. The task is printed as send prints it; a wait that stops
// first prints its ids and the Resume line (stopped). Errors: a
// --push-receiver that is no HOST:PORT, not loopback without
// --push-url, or cannot be listened on, and a --push-url that is no
// http(s) URL, are usage errors (nothing is sent); an agent whose card
// does not offer push notifications is the package's
// *a2a.UnsupportedByCardError, before anything is sent.
func (o *options) waitByPush(ctx context.Context, c *a2a.Client, msg a2a.Message, opts []a2a.CallOption) int {
	ln, webhook, err := o.pushListener()
	if err != nil {
		return o.fail(err)
	}
	// The receiver's goroutines print too (its hooks, its fallback poll,
	// the client's --debug log): one write at a time.
	stderr := o.env.stderr
	o.env.stderr = newLockedWriter(stderr)
	defer func() { o.env.stderr = stderr }()

	notes := &pushNotes{o: o}
	recv, err := a2a.NewPushReceiver(webhook, a2a.PushFallbackAfter(o.pushFallback()),
		a2a.PushOnNotification(notes.notified), a2a.PushLogger(o.pushLogger()))
	if err != nil {
		ln.Close()
		return o.fail(usageError{msg: "--push-url: " + inFlags(err.Error())})
	}
	srv := &http.Server{Handler: recv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		ErrorLog: log.New(io.Discard, "", 0)}
	served := make(chan struct{})
	go func() {
		defer close(served)
		srv.Serve(ln)
	}()
	defer func() {
		recv.Close() // its waits, hooks and fallback polls end first
		srv.Close()
		<-served
	}()
	o.debugf("push: receiving on %s as %s", ln.Addr(), o.shownURL(webhook))

	wopts := o.waitOptions()
	if o.env.stderrTTY {
		wopts = append(wopts, a2a.PollProgress(func(p a2a.PollAttempt) {
			notes.progress("poll %d: %s", p.Attempt, statusText(p.Task.Status))
		}))
	}
	for _, opt := range opts {
		wopts = append(wopts, opt)
	}
	w, err := recv.SendMessage(ctx, c, msg, wopts...)
	if err != nil {
		recv.Close()
		notes.end()
		if heard := notes.heard(); heard.ID != "" && ctx.Err() != nil {
			// Stopped before the send's answer, after a notification
			// named the task: it is not lost.
			return o.stopped(ctx, c, heard, "get", pushCause(err))
		}
		return o.fail(err)
	}
	<-w.Done()
	res, err := w.Result()
	recv.Close()
	notes.end()
	switch r := res.(type) {
	case *a2a.Message:
		if err == nil {
			return o.finishMessage(r)
		}
	case *a2a.Task:
		if err == nil {
			return o.finish(r, true)
		}
		return o.stopped(ctx, c, r, "get", pushCause(err))
	}
	return o.stopped(ctx, c, &a2a.Task{ID: w.TaskID()}, "get", pushCause(err))
}

// pushCause is the error a push wait ended with as stopped reads it: the
// context's own error for a wait its context ended (Ctrl-C, --timeout).
func pushCause(err error) error {
	for _, e := range []error{context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, e) {
			return errors.Join(e, err)
		}
	}
	return err
}

// pushListener listens on --push-receiver and returns the listener and
// the webhook URL to register: --push-url, or http://ADDR/a2a/push with
// the address listened on (its port when --push-receiver's is 0). The
// address must be a loopback one (an IP of 127.0.0.0/8 or ::1, or
// "localhost") unless --push-url is given: the agent reaches the receiver
// at that URL, so it is the user's to expose (a tunnel, a public
// address). Its errors are usage errors.
func (o *options) pushListener() (net.Listener, string, error) {
	host, _, err := net.SplitHostPort(o.pushReceiver)
	if err != nil {
		return nil, "", usagef("--push-receiver %s: want HOST:PORT, e.g. 127.0.0.1:8765 (port 0: any free port)", quote(o.pushReceiver))
	}
	ip := net.ParseIP(host)
	if o.pushURL == "" && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, "", usagef("--push-receiver %s is not a loopback address: give --push-url, the URL at which the agent reaches it (a tunnel, a public address), or listen on 127.0.0.1", quote(o.pushReceiver))
	}
	if o.pushURL != "" {
		if err := o.checkURL("--push-url", o.pushURL); err != nil {
			return nil, "", err
		}
	}
	network := "tcp"
	if host == "localhost" {
		network = "tcp4" // one address, the one the URL names
	}
	ln, err := net.Listen(network, o.pushReceiver)
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Err != nil {
			err = op.Err
		}
		return nil, "", usagef("--push-receiver %s: cannot listen there: %v", quote(o.pushReceiver), err)
	}
	if o.pushURL != "" {
		return ln, o.pushURL, nil
	}
	return ln, "http://" + ln.Addr().String() + pushPath, nil
}

// pushFallback is how long a push wait hears nothing of its task before
// it polls it: the poll's longest pause, 5 × --poll-interval (at most
// 30s, at least --poll-interval).
func (o *options) pushFallback() time.Duration {
	return max(o.pollInterval, min(5*o.pollInterval, 30*time.Second))
}

// pushLogger is the receiver's logger: its refusals at debug level with
// --debug (never a token: the package's rule), else nothing.
func (o *options) pushLogger() *slog.Logger {
	if !o.debug {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(o.logWriter(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// pushNotes prints what a push wait hears while it waits: a progress line
// on stderr when it is a terminal, a --debug line per notification. The
// receiver calls it from its own goroutines; end stops it before the
// command prints its result.
type pushNotes struct {
	o     *options
	mu    sync.Mutex
	shown bool // a progress line is on the terminal
	ended bool
	// last is the task as the last notification left it: its ids and
	// state, for a wait stopped before the send's answer.
	last a2a.Task
}

// heard is the task the notifications named (its ids and last state),
// with no id when none came.
func (n *pushNotes) heard() *a2a.Task {
	n.mu.Lock()
	defer n.mu.Unlock()
	t := n.last
	return &t
}

// notified is the receiver's PushOnNotification hook.
func (n *pushNotes) notified(_ context.Context, p *a2a.PushNotification) error {
	state, contextID := a2a.TaskState(""), ""
	switch e := p.Event.(type) {
	case *a2a.Task:
		state, contextID = e.Status.State, e.ContextID
	case *a2a.TaskStatusUpdateEvent:
		state, contextID = e.Status.State, e.ContextID
	}
	n.mu.Lock()
	if p.TaskID != "" {
		n.last.ID, n.last.ContextID = p.TaskID, cmp.Or(contextID, n.last.ContextID)
		if state != "" {
			n.last.Status.State = state
		}
	}
	n.mu.Unlock()
	_, kind := eventNames(p.Event)
	n.o.debugf("push: notification (%s) for task %s: %s", kind, p.TaskID, stateText(state))
	if state != "" {
		n.progress("push: %s", stateText(state))
	}
	return nil
}

// progress writes the progress line, when stderr is a terminal.
func (n *pushNotes) progress(format string, args ...any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.o.env.stderrTTY || n.ended {
		return
	}
	n.shown = true
	n.o.errf("\r\x1b[K"+format, args...)
}

// end clears the progress line; nothing is written after it.
func (n *pushNotes) end() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.shown && !n.ended {
		n.o.errf("\r\x1b[K")
	}
	n.ended = true
}

// webhookSecrets is next with, before each request leaves, the token and
// credentials of every webhook its JSON body registers learnt by the
// redactor (the push receiver's token for --push-receiver: the package
// makes it inside the send), so that no output shows them: not the
// --debug dump of that very request, nor an agent that echoes them.
func (o *options) webhookSecrets(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.Body == nil || req.Body == http.NoBody {
			return next.RoundTrip(req)
		}
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		learnWebhookSecrets(b, o.redactor().Learn)
		out := req.Clone(req.Context())
		out.Body = io.NopCloser(bytes.NewReader(b))
		return next.RoundTrip(out)
	})
}

// learnWebhookSecrets calls learn with the "token" and the
// authentication "credentials" of every object of b, JSON, that has a
// "url" (a push notification config, in either version's shape).
func learnWebhookSecrets(b []byte, learn func(string)) {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return
	}
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 64 {
			return
		}
		switch v := v.(type) {
		case map[string]any:
			if _, ok := v["url"]; ok {
				if t, ok := v["token"].(string); ok {
					learn(t)
				}
				if a, ok := v["authentication"].(map[string]any); ok {
					if c, ok := a["credentials"].(string); ok {
						learn(c)
					}
				}
			}
			for _, e := range v {
				walk(e, depth+1)
			}
		case []any:
			for _, e := range v {
				walk(e, depth+1)
			}
		}
	}
	walk(v, 0)
}
