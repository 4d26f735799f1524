package a2atest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// Push delivery and script clocks. Every state change happens under s.mu
// and queues its notifications, one per webhook of the task, on the task's
// outbox in the same critical section, so a task's notifications are in
// the order of its states. One goroutine per task drains its outbox while
// it has work; a clock-driven script arms one time.AfterFunc step at a
// time. Both are counted in outbound.wg, which Close waits on.

// pushTimeout bounds one delivery, waiting for a connection included.
const pushTimeout = 10 * time.Second

// Delivery is the outcome of one push notification the server attempted:
// one state of one task POSTed to one webhook. Tokens and credentials are
// never recorded.
type Delivery struct {
	// TaskID is the task notified of, ConfigID the id of its push config,
	// URL the webhook's URL as registered.
	TaskID, ConfigID, URL string
	// State is the state of the task delivered.
	State a2a.TaskState
	// StatusCode is the webhook's HTTP status code, 0 when it gave no
	// response (connection refused, timeout, Close).
	StatusCode int
	// Err is empty when the webhook answered 2xx; else it says what went
	// wrong: the HTTP status of a non-2xx answer (redirects are not
	// followed, so a 3xx is one), or why there was no response.
	Err string
}

// Deliveries returns a copy of the outcome of every push notification
// delivered or attempted so far, in the order the deliveries completed
// (for one task, the order of its states). A notification still queued or
// in flight is not listed yet.
func (s *Server) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.out.deliveries...)
}

// outbound is the server's delivery state. Its fields, but ctx, client
// and wg, are guarded by Server.mu.
type outbound struct {
	ctx    context.Context // canceled by Close: ends deliveries in flight
	cancel context.CancelFunc
	client *http.Client
	wg     sync.WaitGroup // drain goroutines and armed clock steps

	closed     bool
	outboxes   map[string]*outbox // by task id; present while a goroutine drains it
	deliveries []Delivery
}

// outbox is a task's queue of notifications not yet delivered.
type outbox struct{ queue []notification }

// notification is one state of a task to POST to one webhook, encoded
// when the task entered the state.
type notification struct {
	taskID string
	state  a2a.TaskState
	cfg    a2a.PushNotificationConfig
	body   []byte
	encErr error
}

func (o *outbound) init() {
	o.ctx, o.cancel = context.WithCancel(context.Background())
	o.outboxes = map[string]*outbox{}
	o.client = &http.Client{
		Timeout: pushTimeout,
		Transport: &http.Transport{
			// No proxy: webhooks of a fake agent are local. Connections per
			// host are bounded so a thousand tasks finishing at once queue
			// instead of opening a thousand sockets.
			MaxConnsPerHost:     64,
			MaxIdleConnsPerHost: 64,
			IdleConnTimeout:     30 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// closePush stops the clocks, cancels deliveries in flight and waits for
// every goroutine of the server's pushes and clocks to return.
func (s *Server) closePush() {
	s.mu.Lock()
	s.out.closed = true
	for _, sc := range s.tasks {
		s.stopClockLocked(sc)
	}
	s.mu.Unlock()
	s.out.cancel()
	s.out.wg.Wait()
	s.out.client.CloseIdleConnections()
}

// enteredLocked queues a notification of sc's current state for each
// webhook of its task. s.mu is held.
func (s *Server) enteredLocked(sc *scripted) {
	configs := s.push[sc.task.ID]
	if len(configs) == 0 || s.out.closed {
		return
	}
	t := sc.current()
	var body []byte
	var err error
	if s.v10 {
		body, err = json.Marshal(streamResponseOf(t))
	} else {
		body, err = json.Marshal(t)
	}
	for _, cfg := range configs {
		s.enqueueLocked(notification{taskID: t.ID, state: t.Status.State, cfg: cfg, body: body, encErr: err})
	}
}

// enqueueLocked adds n to its task's outbox and starts the goroutine that
// drains it unless one is running. s.mu is held.
func (s *Server) enqueueLocked(n notification) {
	ob := s.out.outboxes[n.taskID]
	if ob == nil {
		ob = &outbox{}
		s.out.outboxes[n.taskID] = ob
		s.out.wg.Add(1)
		go s.drain(n.taskID, ob)
	}
	ob.queue = append(ob.queue, n)
}

// drain delivers a task's notifications one after the other until its
// outbox is empty, or the server closes (the rest are dropped).
func (s *Server) drain(taskID string, ob *outbox) {
	defer s.out.wg.Done()
	for {
		s.mu.Lock()
		if len(ob.queue) == 0 || s.out.ctx.Err() != nil {
			delete(s.out.outboxes, taskID)
			s.mu.Unlock()
			return
		}
		n := ob.queue[0]
		ob.queue[0] = notification{} // let the body go
		ob.queue = ob.queue[1:]
		s.mu.Unlock()

		d := s.deliver(s.out.ctx, n)

		s.mu.Lock()
		s.out.deliveries = append(s.out.deliveries, d)
		s.mu.Unlock()
	}
}

// deliver POSTs one notification and returns its outcome.
func (s *Server) deliver(ctx context.Context, n notification) Delivery {
	d := Delivery{TaskID: n.taskID, ConfigID: n.cfg.ID, URL: n.cfg.URL, State: n.state}
	if n.encErr != nil {
		d.Err = redactPush("encoding the task: "+n.encErr.Error(), n.cfg)
		return d
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.cfg.URL, bytes.NewReader(n.body))
	if err != nil {
		d.Err = redactPush(err.Error(), n.cfg)
		return d
	}
	contentType, tokenHeader := "application/json", "X-A2A-Notification-Token"
	if s.v10 {
		contentType, tokenHeader = "application/a2a+json", "A2A-Notification-Token"
	}
	req.Header.Set("Content-Type", contentType)
	if n.cfg.Token != "" {
		req.Header.Set(tokenHeader, n.cfg.Token)
	}
	if a := n.cfg.Authentication; a != nil && len(a.Schemes) > 0 && a.Schemes[0] != "" {
		req.Header.Set("Authorization", strings.TrimSpace(a.Schemes[0]+" "+a.Credentials))
	}
	resp, err := s.out.client.Do(req)
	if err != nil {
		d.Err = redactPush(err.Error(), n.cfg)
		return d
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // so the connection can be reused
	resp.Body.Close()
	d.StatusCode = resp.StatusCode
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		d.Err = redactPush(fmt.Sprintf("webhook answered HTTP %s", resp.Status), n.cfg)
	}
	return d
}

// redactPush removes the config's token and credentials from msg.
func redactPush(msg string, cfg a2a.PushNotificationConfig) string {
	secrets := []string{cfg.Token}
	if a := cfg.Authentication; a != nil {
		secrets = append(secrets, a.Credentials)
	}
	for _, secret := range secrets {
		if secret != "" {
			msg = strings.ReplaceAll(msg, secret, "[REDACTED]")
		}
	}
	return msg
}

// startClockLocked arms the next step of a clock-driven script, if it has
// one and the server is open. s.mu is held.
func (s *Server) startClockLocked(sc *scripted) {
	if sc.interval <= 0 || sc.pos >= len(sc.states)-1 || s.out.closed {
		return
	}
	sc.clock++
	clock := sc.clock
	s.out.wg.Add(1) // Done by the step, or by stopClockLocked if it never runs
	sc.timer = time.AfterFunc(sc.interval, func() { s.tick(sc, clock) })
}

// stopClockLocked disarms sc's clock. s.mu is held.
func (s *Server) stopClockLocked(sc *scripted) {
	if sc.timer != nil && sc.timer.Stop() {
		s.out.wg.Done() // the step will not run
	}
	sc.timer = nil
}

// tick is a step of a clock-driven script: it moves sc one state on,
// notifies its webhooks and arms the next step. A step whose clock was
// stopped (or re-armed) after it fired does nothing.
func (s *Server) tick(sc *scripted, clock int) {
	defer s.out.wg.Done()
	s.mu.Lock()
	defer s.mu.Unlock()
	if sc.timer == nil || sc.clock != clock {
		return
	}
	sc.timer = nil
	if s.out.closed || sc.pos >= len(sc.states)-1 {
		return
	}
	sc.pos++
	s.enteredLocked(sc)
	s.startClockLocked(sc)
}
