package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// What the push-receiver tests (push_test.go) record: every POST the
// receiver gets and its answer, and the rig of client, receiver and hooks.

// delivery is one POST the peer made to the webhook, as the receiver got
// and answered it.
type delivery struct {
	Method      string
	ContentType string
	// TokenHeader is the (canonical) name of the token header the POST
	// carried: Go's http.Header spells "A2A-Notification-Token" as
	// "A2a-Notification-Token".
	TokenHeader string
	MadeUp      bool // the token was madeUpToken
	// Bearer: the POST carried "Authorization: Bearer <the same token>"
	// (a wait registers its token as Bearer credentials too).
	Bearer bool
	// Shape is the body's outer form: "{task}", "{statusUpdate}",
	// "{artifactUpdate}" or "{message}" for a v1.0 StreamResponse, else
	// "kind=<the body's kind>".
	Shape  string
	Status int // what the receiver answered
}

// webhookLog records what reaches the receiver, in front of it.
type webhookLog struct {
	mu   sync.Mutex
	got  []delivery
	more chan struct{} // a token when a delivery was recorded since the last look
}

// statusRecorder keeps the status a handler answered.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (l *webhookLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		d := delivery{Method: r.Method, ContentType: r.Header.Get("Content-Type"), Shape: bodyShape(body)}
		var token string
		for name, vs := range r.Header {
			if strings.HasSuffix(strings.ToLower(name), "notification-token") {
				d.TokenHeader = name
				token = strings.Join(vs, ",")
			}
		}
		d.MadeUp = token == madeUpToken
		d.Bearer = token != "" && r.Header.Get("Authorization") == "Bearer "+token
		r.Body = io.NopCloser(bytes.NewReader(body))
		sr := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(sr, r)
		d.Status = sr.status
		l.mu.Lock()
		l.got = append(l.got, d)
		l.mu.Unlock()
		select {
		case l.more <- struct{}{}:
		default:
		}
	})
}

// bodyShape names the outer form of a notification's body.
func bodyShape(body []byte) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil {
		return "not a JSON object"
	}
	if len(obj) == 1 {
		for k := range obj {
			if k == "task" || k == "statusUpdate" || k == "artifactUpdate" || k == "message" {
				return "{" + k + "}"
			}
		}
	}
	var kind string
	_ = json.Unmarshal(obj["kind"], &kind)
	return "kind=" + kind
}

// waitFor returns the deliveries once n of them with the token, made up
// or not, have been answered; it fails t when ctx ends first.
func (l *webhookLog) waitFor(t *testing.T, ctx context.Context, madeUp bool, n int) []delivery {
	t.Helper()
	for {
		l.mu.Lock()
		var got []delivery
		for _, d := range l.got {
			if d.MadeUp == madeUp {
				got = append(got, d)
			}
		}
		l.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-l.more:
		case <-ctx.Done():
			t.Fatalf("%d deliveries (made up: %v) reached the receiver, want %d: %v", len(got), madeUp, n, ctx.Err())
		}
	}
}

// answered returns how many deliveries with the token, made up or not,
// the receiver has answered.
func (l *webhookLog) answered(madeUp bool) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, d := range l.got {
		if d.MadeUp == madeUp {
			n++
		}
	}
	return n
}

// describePush renders a notification's event for exact comparison,
// without the ids the peers make up.
func describePush(ev a2a.Event) string {
	switch e := ev.(type) {
	case *a2a.Task:
		return fmt.Sprintf("task %s artifacts=%d %s", e.Status.State, len(e.Artifacts), e.StatusText())
	case *a2a.TaskStatusUpdateEvent:
		return fmt.Sprintf("status %s final=%v %s", e.Status.State, e.Final, e.Status.Message.Text())
	case *a2a.TaskArtifactUpdateEvent:
		return fmt.Sprintf("artifact %s parts=%d %q append=%v last=%v", e.Artifact.Name, len(e.Artifact.Parts), e.Artifact.Text(), e.Append, e.LastChunk)
	case *a2a.Message:
		return "message " + e.Text()
	}
	return fmt.Sprintf("%T", ev)
}

// pushRig is a receiver served on 127.0.0.1 and a client of a peer.
type pushRig struct {
	recv  *a2a.PushReceiver
	hooks *webhookLog
	log   *lockedBuffer // the receiver's debug log
	c     *a2a.Client

	mu    sync.Mutex
	notes []string // PushOnNotification's events, described
	tasks []string // and the task each named
	ended int      // PushOnDone's calls
}

func newPushRig(t *testing.T, p *pushPeer, clientOpts ...a2a.Option) *pushRig {
	t.Helper()
	rig := &pushRig{hooks: &webhookLog{more: make(chan struct{}, 1)}, log: &lockedBuffer{}}
	ts := httptest.NewUnstartedServer(nil)
	recv, err := a2a.NewPushReceiver("http://"+ts.Listener.Addr().String()+"/webhook",
		a2a.PushFallbackAfter(time.Hour),
		a2a.PushLogger(slog.New(slog.NewTextHandler(rig.log, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		a2a.PushOnNotification(func(_ context.Context, n *a2a.PushNotification) error {
			rig.mu.Lock()
			defer rig.mu.Unlock()
			rig.notes = append(rig.notes, describePush(n.Event))
			rig.tasks = append(rig.tasks, n.TaskID)
			return nil
		}),
		a2a.PushOnDone(func(*a2a.PushWait) {
			rig.mu.Lock()
			defer rig.mu.Unlock()
			rig.ended++
		}))
	if err != nil {
		t.Fatal(err)
	}
	rig.recv = recv
	mux := http.NewServeMux()
	mux.Handle("/webhook", rig.hooks.wrap(recv))
	ts.Config.Handler = mux
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(recv.Close)

	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	rig.c, err = a2a.NewClient(p.endpoint, append(clientOpts, a2a.WithHTTPClient(&http.Client{Transport: tr, Timeout: 20 * time.Second}))...)
	if err != nil {
		t.Fatal(err)
	}
	return rig
}

// notified returns PushOnNotification's events so far, described, and checks
// that each named task id.
func (rig *pushRig) notified(t *testing.T, id string) []string {
	t.Helper()
	rig.mu.Lock()
	defer rig.mu.Unlock()
	for i, got := range rig.tasks {
		if got != id {
			t.Errorf("notification %d named task %q, want %q", i, got, id)
		}
	}
	return slices.Clone(rig.notes)
}

// doneCalls closes the receiver, which waits for the PushOnDone calls
// queued (they come from a goroutine of its own), and returns how many
// there were.
func (rig *pushRig) doneCalls() int {
	rig.recv.Close()
	rig.mu.Lock()
	defer rig.mu.Unlock()
	return rig.ended
}
