package a2atest_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"go.uber.org/goleak"
)

// TestPushOnGet: a webhook set on a per-get script gets each state a
// tasks/get moves the task to, in order, in the version's body and
// headers.
func TestPushOnGet(t *testing.T) {
	for _, pv := range pushVersions {
		t.Run(pv.name, func(t *testing.T) {
			ctx := context.Background()
			hook := newWebhook(t, http.StatusOK)
			srv := pv.server(a2atest.OnSend(scriptOf(a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted)))
			defer srv.Close()
			c := pv.client(t, srv.URL)
			task, err := c.SendText(ctx, "hi")
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: a2a.PushNotificationConfig{
				ID: "hook-1", URL: hook.URL, Token: "tok-secret",
				Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: "cred-secret"},
			}})
			if err != nil {
				t.Fatal(err)
			}
			tokenHeader, otherHeader, contentType := "X-A2A-Notification-Token", "A2A-Notification-Token", "application/json"
			if pv.v10 {
				tokenHeader, otherHeader, contentType = otherHeader, tokenHeader, "application/a2a+json"
			}
			for i, want := range []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateCompleted} {
				got, err := c.GetTask(ctx, task.ID)
				if err != nil || got.Status.State != want {
					t.Fatalf("GetTask %d: %s, %v; want %s", i, stateOf(got), err, want)
				}
				r := hook.next(t)
				p := pv.readPush(t, r.body)
				if p.ID != task.ID || p.Status.State != pv.state(want) {
					t.Errorf("notification %d: task %s in %s, want %s in %s", i, p.ID, p.Status.State, task.ID, pv.state(want))
				}
				if wantArtifacts := want == a2a.TaskStateCompleted; (len(p.Artifacts) > 0) != wantArtifacts {
					t.Errorf("notification %d: %d artifacts in %s", i, len(p.Artifacts), want)
				}
				for name, want := range map[string]string{"Content-Type": contentType, tokenHeader: "tok-secret", otherHeader: "", "Authorization": "Bearer cred-secret"} {
					if got := r.header.Get(name); got != want {
						t.Errorf("notification %d: %s = %q, want %q", i, name, got, want)
					}
				}
			}
			if _, err := c.GetTask(ctx, task.ID); err != nil { // the last state repeats: nothing to deliver
				t.Fatal(err)
			}
			ds := waitDeliveries(t, srv, 2)
			want := []a2atest.Delivery{
				{TaskID: task.ID, ConfigID: "hook-1", URL: hook.URL, State: a2a.TaskStateWorking, StatusCode: 200},
				{TaskID: task.ID, ConfigID: "hook-1", URL: hook.URL, State: a2a.TaskStateCompleted, StatusCode: 200},
			}
			if !slices.Equal(ds, want) {
				t.Errorf("Deliveries() = %+v, want %+v", ds, want)
			}
		})
	}
}

// TestPushInSend: a webhook given with the send gets the state the task is
// created in, then those of a follow-up and a cancel; one without a url is
// refused.
func TestPushInSend(t *testing.T) {
	for _, pv := range pushVersions {
		t.Run(pv.name, func(t *testing.T) {
			hook := newWebhook(t, http.StatusOK)
			srv := pv.server(a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
				if m.TaskID == "" {
					return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateInputRequired, "which one?")}
				}
				return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateWorking, ""), States: []a2a.TaskState{a2a.TaskStateWorking}}
			}))
			defer srv.Close()
			id := pv.send(t, srv.URL, hook.URL, "t1", "")
			tokenHeader := "X-A2A-Notification-Token"
			if pv.v10 {
				tokenHeader = "A2A-Notification-Token"
			}
			r := hook.next(t)
			if p := pv.readPush(t, r.body); p.ID != id || p.Status.State != pv.state(a2a.TaskStateInputRequired) {
				t.Errorf("creation notification: task %s in %s", p.ID, p.Status.State)
			}
			if got := r.header.Get(tokenHeader); got != "t1" || r.header.Get("Authorization") != "" {
				t.Errorf("creation notification: %s %q, Authorization %q", tokenHeader, got, r.header.Get("Authorization"))
			}
			if pv.send(t, srv.URL, "", "", id) != id { // follow-up, no new webhook
				t.Fatal("the follow-up answered another task")
			}
			if p := pv.readPush(t, hook.next(t).body); p.Status.State != pv.state(a2a.TaskStateWorking) {
				t.Errorf("follow-up notification: %s", p.Status.State)
			}
			if _, err := pv.client(t, srv.URL).CancelTask(context.Background(), id); err != nil {
				t.Fatal(err)
			}
			if p := pv.readPush(t, hook.next(t).body); p.Status.State != pv.state(a2a.TaskStateCanceled) {
				t.Errorf("cancel notification: %s", p.Status.State)
			}

			noURL := strings.Replace(pv.sendBody("X", "", ""), `"url":"X"`, `"token":"t"`, 1)
			if r := postRPC(t, srv.URL, noURL, pv.header()); r.Error == nil || r.Error.Code != -32602 {
				t.Errorf("a webhook without url: %+v, want error -32602", r)
			}
		})
	}
}

// TestPushInterval: a clock-driven script moves on its own, and its
// webhook gets every state in order; tasks/get does not move it; cancel
// stops it.
func TestPushInterval(t *testing.T) {
	for _, pv := range pushVersions {
		t.Run(pv.name, func(t *testing.T) {
			var interval atomic.Int64
			interval.Store(int64(50 * time.Millisecond))
			hook := newWebhook(t, http.StatusOK)
			srv := pv.server(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
				rep := scriptOf(a2a.TaskStateWorking, a2a.TaskStateCompleted)(a2a.Message{})
				rep.Interval = time.Duration(interval.Load())
				return rep
			}))
			defer srv.Close()
			c := pv.client(t, srv.URL)
			id := pv.send(t, srv.URL, hook.URL, "", "")
			for _, want := range []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateCompleted} {
				if p := pv.readPush(t, hook.next(t).body); p.ID != id || p.Status.State != pv.state(want) {
					t.Fatalf("notification: task %s in %s, want %s", p.ID, p.Status.State, want)
				}
			}
			if got, err := c.GetTask(context.Background(), id); err != nil || got.Status.State != a2a.TaskStateCompleted || got.Artifact("result") == nil {
				t.Fatalf("GetTask after the clock ran: %s, %v", stateOf(got), err)
			}

			interval.Store(int64(time.Hour)) // a clock that does not run out during the test
			id = pv.send(t, srv.URL, hook.URL, "", "")
			if p := pv.readPush(t, hook.next(t).body); p.Status.State != pv.state(a2a.TaskStateWorking) {
				t.Fatalf("creation notification: %s", p.Status.State)
			}
			for range 3 {
				if got, err := c.GetTask(context.Background(), id); err != nil || got.Status.State != a2a.TaskStateWorking {
					t.Fatalf("GetTask moved a clock-driven task: %s, %v", stateOf(got), err)
				}
			}
			if got, err := c.CancelTask(context.Background(), id); err != nil || got.Status.State != a2a.TaskStateCanceled {
				t.Fatalf("CancelTask: %s, %v", stateOf(got), err)
			}
			if p := pv.readPush(t, hook.next(t).body); p.Status.State != pv.state(a2a.TaskStateCanceled) {
				t.Fatalf("cancel notification: %s", p.Status.State)
			}
			ds := waitDeliveries(t, srv, 4)
			if len(ds) != 4 {
				t.Errorf("Deliveries() = %+v, want 4", ds)
			}
		})
	}
}

// TestPushFailures: a webhook answering 500, a redirect, and a closed port
// are recorded, without secrets, and do not stop the next webhook.
func TestPushFailures(t *testing.T) {
	for _, pv := range pushVersions {
		t.Run(pv.name, func(t *testing.T) {
			ctx := context.Background()
			good := newWebhook(t, http.StatusNoContent)
			bad := newWebhook(t, http.StatusInternalServerError)
			moved := httptest.NewServer(http.RedirectHandler(good.URL, http.StatusFound))
			defer moved.Close()
			gone := httptest.NewServer(http.NotFoundHandler())
			gone.Close()

			srv := pv.server(a2atest.OnSend(scriptOf(a2a.TaskStateSubmitted, a2a.TaskStateWorking)))
			defer srv.Close()
			c := pv.client(t, srv.URL)
			task, err := c.SendText(ctx, "hi")
			if err != nil {
				t.Fatal(err)
			}
			urls := map[string]string{"bad": bad.URL, "moved": moved.URL, "gone": gone.URL + "/hook", "good": good.URL}
			for _, id := range []string{"bad", "moved", "gone", "good"} {
				_, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: a2a.PushNotificationConfig{
					ID: id, URL: urls[id], Token: "token-" + id,
					Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Basic"}, Credentials: "cred-" + id},
				}})
				if err != nil {
					t.Fatal(err)
				}
			}
			if _, err := c.GetTask(ctx, task.ID); err != nil {
				t.Fatal(err)
			}
			r := good.next(t) // the last webhook: the others have been tried
			if r.header.Get("Authorization") != "Basic cred-good" {
				t.Errorf("the good webhook's first request is not its own (a redirect was followed?): %v", r.header)
			}
			ds := waitDeliveries(t, srv, 4)
			for i, want := range []struct {
				id     string
				status int
				err    string
			}{{"bad", 500, "500"}, {"moved", 302, "302"}, {"gone", 0, "connect"}, {"good", 204, ""}} {
				d := ds[i]
				if d.ConfigID != want.id || d.StatusCode != want.status || d.State != a2a.TaskStateWorking || !strings.Contains(d.Err, want.err) || (want.err == "") != (d.Err == "") {
					t.Errorf("delivery %d = %+v, want config %s, status %d, error with %q", i, d, want.id, want.status, want.err)
				}
				if strings.Contains(d.Err, "token-") || strings.Contains(d.Err, "cred-") {
					t.Errorf("delivery %d records a secret: %q", i, d.Err)
				}
			}
			if got, err := c.GetTask(ctx, task.ID); err != nil || got.Status.State != a2a.TaskStateWorking {
				t.Errorf("GetTask after failed deliveries: %s, %v", stateOf(got), err)
			}
			select {
			case r := <-good.got:
				t.Errorf("the good webhook got a second request: %s", r.body)
			default:
			}
		})
	}
}

// TestPushCloseInFlight: Close cancels a delivery the webhook holds, drops
// the queued one, stops the clocks, and leaves no goroutine behind.
func TestPushCloseInFlight(t *testing.T) {
	for _, pv := range pushVersions {
		t.Run(pv.name, func(t *testing.T) {
			ignore := goleak.IgnoreCurrent()
			entered, release := make(chan struct{}, 16), make(chan struct{})
			hookSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.ReadAll(r.Body) // so the server notices the client hanging up
				entered <- struct{}{}
				select { // held until the agent gives up
				case <-r.Context().Done():
				case <-release:
				}
			}))
			defer hookSrv.Close()
			defer close(release) // should the test fail first
			srv := pv.server(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
				rep := scriptOf(a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted)(a2a.Message{})
				rep.Interval = time.Hour
				return rep
			}))
			id := pv.send(t, srv.URL, hookSrv.URL, "", "")
			select {
			case <-entered:
			case <-time.After(waitLimit):
				t.Fatal("the webhook was not called")
			}
			// A second notification, queued behind the held one.
			c := pv.client(t, srv.URL)
			if _, err := c.CancelTask(context.Background(), id); err != nil {
				t.Fatal(err)
			}
			a2a.CloseIdleConnections()
			closed := make(chan struct{})
			go func() { srv.Close(); close(closed) }()
			select {
			case <-closed:
			case <-time.After(waitLimit):
				t.Fatal("Close did not return")
			}
			ds := srv.Deliveries()
			if len(ds) != 1 || ds[0].StatusCode != 0 || ds[0].Err == "" || ds[0].State != a2a.TaskStateSubmitted {
				t.Errorf("Deliveries() = %+v, want the held one, failed", ds)
			}
			srv.Close() // again: nothing more
			closed = make(chan struct{})
			go func() { hookSrv.Close(); close(closed) }()
			select {
			case <-closed: // the webhook saw the agent hang up
			case <-time.After(waitLimit):
				t.Fatal("the webhook still holds the canceled delivery")
			}
			http.DefaultClient.CloseIdleConnections()
			goleak.VerifyNone(t, ignore)
		})
	}
}

// TestPushManyTasks: many clock-driven tasks with their own intervals,
// sent at once, each get their states in order.
func TestPushManyTasks(t *testing.T) {
	const tasks = 200
	states := []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted}
	for _, pv := range pushVersions {
		t.Run(pv.name, func(t *testing.T) {
			var mu sync.Mutex
			seen := map[string][]string{}
			done := make(chan string, tasks)
			hookSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				p, err := pv.decodePush(body)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				seen[p.ID] = append(seen[p.ID], p.Status.State)
				mu.Unlock()
				if p.Status.State == pv.state(a2a.TaskStateCompleted) {
					done <- p.ID
				}
			}))
			defer hookSrv.Close()
			srv := pv.server(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
				rep := scriptOf(states...)(a2a.Message{})
				rep.Interval = time.Duration(1+rand.IntN(100)) * time.Millisecond
				return rep
			}))
			defer srv.Close()

			client := &http.Client{Timeout: waitLimit}
			defer client.CloseIdleConnections()
			errs := make(chan error, tasks)
			var wg sync.WaitGroup
			for range tasks {
				wg.Go(func() {
					req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(pv.sendBody(hookSrv.URL, "", "")))
					for k, v := range pv.header() {
						req.Header.Set(k, v)
					}
					resp, err := client.Do(req)
					if err != nil {
						errs <- err
						return
					}
					b, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if !strings.Contains(string(b), `"result"`) {
						errs <- fmt.Errorf("send: %s", b)
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			timeout := time.After(waitLimit)
			for range tasks {
				select {
				case <-done:
				case <-timeout:
					t.Fatalf("not every task completed within %v", waitLimit)
				}
			}
			want := []string{pv.state(states[0]), pv.state(states[1]), pv.state(states[2])}
			mu.Lock()
			if len(seen) != tasks {
				t.Errorf("%d tasks notified, want %d", len(seen), tasks)
			}
			for id, got := range seen {
				if !slices.Equal(got, want) {
					t.Errorf("task %s: states %v, want %v", id, got, want)
				}
			}
			mu.Unlock()
			ds := waitDeliveries(t, srv, 3*tasks)
			for _, d := range ds {
				if d.StatusCode != http.StatusOK || d.Err != "" {
					t.Errorf("delivery %+v failed", d)
				}
			}
		})
	}
}
