package a2a_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"go.uber.org/goleak"
)

// roundTrip is an http.RoundTripper of a func.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// workingAgent is a client, made with opts, of an in-process v0.3 agent
// (no connection) whose every answer is task-1, working, and which sends
// no notification itself; tokens gets the webhook token of each send.
func workingAgent(t testing.TB, tokens chan<- string, opts ...a2a.Option) *a2a.Client {
	t.Helper()
	respond := a2atest.Responder(&a2a.Task{ID: "task-1", ContextID: "ctx-1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}})
	c, err := a2a.NewClient("http://agent.test/", append(opts, a2a.WithMaxRetries(0), a2a.WithHTTPClient(&http.Client{
		Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var req struct {
				Params struct {
					Configuration struct{ PushNotificationConfig a2a.PushNotificationConfig }
				}
			}
			if json.Unmarshal(body, &req) == nil && req.Params.Configuration.PushNotificationConfig.Token != "" {
				tokens <- req.Params.Configuration.PushNotificationConfig.Token
			}
			return respond(r)
		})}))...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPushWaitLifeCycleStress races, round after round, a receiver's
// Close against Stop, the end of the waits' context, notifications (a
// whole task, status updates that finish it and so start the final read,
// artifact chunks) and fallback polls (a fallback time of a millisecond,
// against an agent whose task stays working). It checks the guarantees
// of Close and PushOnDone: no hook (PushOnDone, PushOnNotification,
// PushVerify, PollProgress) is called after Close returns; Close never
// panics; every wait has ended when it returns; each wait is reported to
// PushOnDone at most once, and one that Stop ended before Close began
// exactly once; a SendMessage racing Close returns ErrReceiverClosed or
// a wait that has ended; and no goroutine is left.
func TestPushWaitLifeCycleStress(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	rounds := 2000
	if testing.Short() {
		rounds = 200
	}
	const perRound = 3
	tokens := make(chan string, perRound+2)
	c := workingAgent(t, tokens)
	for round := range rounds {
		// Each hook's return is stamped (monotonic clock); none may come
		// after Close's return, stamped the same way: Close waits for
		// running hooks, and none starts after it.
		base := time.Now()
		var closedAt atomic.Int64
		var lateMu sync.Mutex // guards the latest hook's time and name
		var lastHook int64
		lateName := ""
		late := func(name string) {
			lateMu.Lock()
			defer lateMu.Unlock()
			if at := int64(time.Since(base)); at > lastHook {
				lastHook, lateName = at, name
			}
		}
		var mu sync.Mutex
		reported := map[*a2a.PushWait]int{}
		recv, err := a2a.NewPushReceiver("http://127.0.0.1:1/push",
			a2a.PushFallbackAfter(time.Millisecond),
			a2a.PushOnDone(func(w *a2a.PushWait) {
				defer late("PushOnDone")
				mu.Lock()
				reported[w]++
				mu.Unlock()
			}),
			a2a.PushOnNotification(func(context.Context, *a2a.PushNotification) error { defer late("PushOnNotification"); return nil }),
			a2a.PushVerify(func(*http.Request, []byte) error { defer late("PushVerify"); return nil }))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		waits := make([]*a2a.PushWait, perRound)
		toks := make([]string, perRound)
		for i := range waits {
			waits[i], err = recv.SendMessage(ctx, c, a2a.NewTextMessage("go"), a2a.PollInterval(time.Millisecond),
				a2a.PollProgress(func(a2a.PollAttempt) { defer late("PollProgress") }))
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			toks[i] = <-tokens
		}
		// A wait stopped before Close begins: reported once by the time
		// Close returns.
		early, err := recv.SendMessage(ctx, c, a2a.NewTextMessage("go"))
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		<-tokens
		early.Stop()
		bodies := []string{
			chunkBody(0, "一"), statusBody(a2a.ProtocolV03, "task-1", "working"), chunkBody(1, "二"),
			[]string{taskBody(a2a.ProtocolV03, "task-1", "completed"), statusBody(a2a.ProtocolV03, "task-1", "completed"),
				statusBody(a2a.ProtocolV03, "task-1", "input-required")}[round%3],
		}
		var wg sync.WaitGroup
		wg.Go(func() {
			recv.Close()
			closedAt.Store(int64(time.Since(base)))
		})
		var racer *a2a.PushWait
		var racerErr error
		wg.Go(func() { // a send racing Close
			racer, racerErr = recv.SendMessage(ctx, c, a2a.NewTextMessage("go"))
		})
		wg.Go(func() { waits[round%perRound].Stop() })
		if round%2 == 0 {
			wg.Go(cancel)
		}
		for i := range waits {
			wg.Go(func() {
				for _, b := range bodies {
					if st := deliver(recv, toks[i], b); st != http.StatusNoContent && st != http.StatusUnauthorized && st != http.StatusInternalServerError {
						t.Errorf("round %d: notification answered %d", round, st)
					}
				}
			})
		}
		wg.Wait()
		cancel()
		for i, w := range waits {
			select {
			case <-w.Done():
			default:
				t.Fatalf("round %d: wait %d open after Close returned", round, i)
			}
		}
		lateMu.Lock()
		h, name := lastHook, lateName
		lateMu.Unlock()
		if cl := closedAt.Load(); h > cl {
			t.Fatalf("round %d: a hook (%s) ran %v after Close returned", round, name, time.Duration(h-cl))
		}
		switch {
		case racerErr != nil && !errors.Is(racerErr, a2a.ErrReceiverClosed) && !errors.Is(racerErr, context.Canceled):
			t.Fatalf("round %d: SendMessage racing Close: %v", round, racerErr)
		case racerErr == nil:
			select {
			case <-racer.Done():
			default:
				t.Fatalf("round %d: the wait of a SendMessage racing Close is open after Close returned", round)
			}
		}
		for len(tokens) > 0 { // the racer's token, if its send went out
			<-tokens
		}
		mu.Lock()
		for i, w := range append(waits, racer) {
			if n := reported[w]; w != nil && n > 1 {
				t.Fatalf("round %d: wait %d reported to PushOnDone %d times", round, i, n)
			}
		}
		if n := reported[early]; n != 1 {
			t.Fatalf("round %d: a wait stopped before Close reported %d times, want 1", round, n)
		}
		mu.Unlock()
		if recv.Pending() != 0 {
			t.Fatalf("round %d: %d waits pending after Close", round, recv.Pending())
		}
	}
}
