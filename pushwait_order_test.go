package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// What comes before the send's answer, and what the answer then counts
// for; the final read; PushOnDone; Close.

// earlyAgent starts an agent of version whose send first POSTs each of
// bodies to the webhook registered with it (as an agent pushing while it
// works before it answers), each answered want, then answers with rep.
func earlyAgent(t *testing.T, version string, rep a2atest.Reply, want int, bodies ...string) (*a2atest.Server, *a2a.Client) {
	t.Helper()
	var srv *a2atest.Server
	srv, c := agentFor(t, version, func(a2a.Message) a2atest.Reply {
		url, token := registered(t, srv)
		for _, b := range bodies {
			if st := notify(t, url, tokenHeader(version), token, b); st != want {
				t.Errorf("early notification answered %d, want %d", st, want)
			}
		}
		return rep
	})
	return srv, c
}

func TestPushWaitFinalAnswerWins(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		t.Run(version, func(t *testing.T) {
			recv := newReceiver(t)
			done := a2atest.CompletedTask("records", map[string]int{"n": 2}, "2 条")
			done.ID = "t1"
			srv, c := earlyAgent(t, version, a2atest.Reply{Task: done}, http.StatusNoContent, statusBody(version, "t1", "working"))
			w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"), a2a.Blocking(true))
			if err != nil {
				t.Fatal(err)
			}
			select {
			case <-w.Done():
			default:
				t.Fatal("a completed answer did not end the wait")
			}
			res, err := w.Result()
			task, _ := res.(*a2a.Task)
			if err != nil || task.Status.State != a2a.TaskStateCompleted || task.Artifact("records") == nil {
				t.Fatalf("%+v %v: the answer's completed task, artifact and all, is the result", res, err)
			}
			if n := getCalls(srv); n != 0 {
				t.Errorf("%d tasks/get calls", n)
			}
		})
	}
}

// News before an unfinished answer is newer than it: it moves the
// answer on, and the answer's history stays.
func TestPushWaitEarlyNewsMovesTheAnswerOn(t *testing.T) {
	recv := newReceiver(t)
	answer := &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateSubmitted},
		History: []a2a.Message{{MessageID: "m1", Role: a2a.RoleUser, Parts: a2a.Parts{a2a.TextPart{Text: "go"}}}}}
	c := plainAgent(t, answer, func(_ *http.Request, method, token string) bool {
		if st := notify(t, recv.URL(), "X-A2A-Notification-Token", token, statusBody(a2a.ProtocolV03, "t1", "working")); st != http.StatusNoContent {
			t.Errorf("status %d", st)
		}
		return true
	})
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	task := w.Task()
	if task.Status.State != a2a.TaskStateWorking || len(task.History) != 1 || task.History[0].Text() != "go" {
		t.Fatalf("state %q, history %+v: want working, with the answer's history", task.Status.State, task.History)
	}
	if _, err := w.Result(); !errors.Is(err, a2a.ErrWaitPending) {
		t.Errorf("Result before the end: %v, want ErrWaitPending", err)
	}
}

// A notification about another task than the answer names ends the wait
// with a *ProtocolError, even when it said completed.
func TestPushWaitForeignTaskBeforeAnswer(t *testing.T) {
	recv := newReceiver(t)
	_, c := earlyAgent(t, a2a.ProtocolV03, a2atest.Reply{Task: &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}},
		http.StatusNoContent, taskBody(a2a.ProtocolV03, "OTHER", "completed"))
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Wait(context.Background()); !errors.As(err, new(*a2a.ProtocolError)) {
		t.Fatalf("err %v, want a *ProtocolError", err)
	}
}

// A notification PushOnNotification refused does not name the wait's task.
func TestPushWaitRefusedNotificationNamesNothing(t *testing.T) {
	recv := newReceiver(t, a2a.PushOnNotification(func(_ context.Context, n *a2a.PushNotification) error {
		if n.TaskID == "bogus" {
			return errors.New("no")
		}
		return nil
	}))
	_, c := earlyAgent(t, a2a.ProtocolV03, a2atest.Reply{Task: &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}},
		http.StatusInternalServerError, taskBody(a2a.ProtocolV03, "bogus", "completed"))
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	if res, err := w.Result(); !errors.Is(err, a2a.ErrWaitPending) || res.(*a2a.Task).ID != "t1" {
		t.Fatalf("%v %v: a refused notification changed the wait", res, err)
	}
}

// A status update that brings the final state is followed by one
// GetTask, whose task (with the artifacts the updates did not carry) is
// the result; when that read fails, the task the updates built comes
// with its error.
func TestPushWaitFinalReadByUpdate(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		t.Run(version, func(t *testing.T) {
			recv := newReceiver(t)
			srv, c := agentFor(t, version, func(a2a.Message) a2atest.Reply {
				return a2atest.Reply{Task: a2atest.CompletedTask("records", map[string]int{"n": 2}, "2 条"),
					States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateCompleted}}
			})
			w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
			if err != nil {
				t.Fatal(err)
			}
			url, token := registered(t, srv)
			if st := notify(t, url, tokenHeader(version), token, statusBody(version, "task-1", "completed")); st != http.StatusNoContent {
				t.Fatalf("status %d", st)
			}
			res, err := w.Wait(context.Background())
			task, _ := res.(*a2a.Task)
			if err != nil || task.Status.State != a2a.TaskStateCompleted || task.Artifact("records").Text() != "2 条" {
				t.Fatalf("%+v %v: want the task as GetTask reads it", res, err)
			}
			if n := getCalls(srv); n != 1 {
				t.Errorf("%d tasks/get calls, want 1", n)
			}
		})
	}
	t.Run("read fails", func(t *testing.T) {
		recv := newReceiver(t)
		srv := a2atest.NewServer(a2atest.OnSend(longTask))
		defer srv.Close()
		c, _ := a2a.NewClient(srv.URL, a2a.WithMaxRetries(0))
		w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
		if err != nil {
			t.Fatal(err)
		}
		srv.Enqueue(a2atest.Raw{Status: http.StatusBadGateway, ContentType: "text/html", Body: "<html>502</html>"})
		url, token := registered(t, srv)
		notify(t, url, "X-A2A-Notification-Token", token, statusBody(a2a.ProtocolV03, "task-1", "failed"))
		res, err := w.Wait(context.Background())
		if _, ok := errors.AsType[*a2a.HTTPError](err); !ok || res.(*a2a.Task).Status.State != a2a.TaskStateFailed {
			t.Fatalf("%+v %v: want the failed task the update built, with the read's error", res, err)
		}
	})
}

// PushOnDone reports the waits Send and Watch returned, and no other.
func TestPushOnDoneOnlyReturnedWaits(t *testing.T) {
	var reported atomic.Int32
	recv := newReceiver(t, a2a.PushOnDone(func(*a2a.PushWait) { reported.Add(1) }))
	// The agent pushes completed, then answers with an error: Send fails.
	_, c := earlyAgent(t, a2a.ProtocolV03, a2atest.Reply{Error: &a2a.RPCError{Code: -32603, Message: "internal"}},
		http.StatusNoContent, taskBody(a2a.ProtocolV03, "t1", "completed"))
	if w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go")); w != nil || err == nil {
		t.Fatalf("%v %v", w, err)
	}
	_, ok := agentFor(t, a2a.ProtocolV03, a2atest.Caoliao)
	w, err := recv.SendMessage(context.Background(), ok, a2a.NewTextMessage(a2atest.SeedQRCode))
	if err != nil {
		t.Fatal(err)
	}
	recv.Close() // waits for the PushOnDone calls
	if n := reported.Load(); n != 1 {
		t.Errorf("PushOnDone called %d times, want 1 (the wait Send returned)", n)
	}
	if _, err := w.Result(); err != nil {
		t.Error(err)
	}
}

// Close returns once the fallback poll it stops has: no goroutine is left
// (TestMain's goleak).
func TestPushReceiverCloseStopsPolls(t *testing.T) {
	polling := make(chan struct{}, 1)
	c := plainAgent(t, &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}, func(_ *http.Request, method, _ string) bool {
		if method == "tasks/get" {
			polling <- struct{}{}
			return false
		}
		return true
	})
	recv := newReceiver(t, a2a.PushFallbackAfter(time.Millisecond))
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-polling:
	case <-time.After(10 * time.Second):
		t.Fatal("no fallback poll")
	}
	recv.Close()
	if _, err := w.Result(); !errors.Is(err, a2a.ErrReceiverClosed) {
		t.Errorf("err %v", err)
	}
}

// The fallback poll runs to its end even when its own tasks/get moves the
// task on and the agent says so (a2atest notifies each state a get moves
// a task to): one poll, its attempts 1, 2, 3, not a poll restarted on
// each piece of news.
func TestPushWaitFallbackPollRunsOn(t *testing.T) {
	recv := newReceiver(t, a2a.PushFallbackAfter(10*time.Millisecond))
	srv, c := agentFor(t, a2a.ProtocolV03, a2atest.Caoliao) // records: submitted, then working, working, completed per get
	var mu sync.Mutex
	var attempts []int
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("本月巡检记录"),
		append(fast, a2a.PollProgress(func(a a2a.PollAttempt) {
			mu.Lock()
			defer mu.Unlock()
			attempts = append(attempts, a.Attempt)
		}))...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.Wait(context.Background())
	if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateCompleted {
		t.Fatalf("%v %v", res, err)
	}
	recv.Close() // the poll has returned
	// The third get's completed may end the wait by notification before
	// the poll reports that attempt.
	if got := fmt.Sprint(attempts); (got != "[1 2 3]" && got != "[1 2]") || getCalls(srv) != 3 {
		t.Errorf("attempts %v, %d tasks/get: want one poll of three gets", got, getCalls(srv))
	}
}

// Every task the fallback poll reads is the wait's last task known: a
// wait its context ends keeps the poll's latest.
func TestPushWaitKeepsWhatThePollRead(t *testing.T) {
	recv := newReceiver(t, a2a.PushFallbackAfter(time.Millisecond))
	_, c := agentFor(t, a2a.ProtocolV03, longTask) // submitted, then working on every get
	read := make(chan struct{}, 100)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w, err := recv.SendMessage(ctx, c, a2a.NewTextMessage("go"), a2a.PollInterval(time.Hour),
		a2a.PollProgress(func(a2a.PollAttempt) { read <- struct{}{} }))
	if err != nil {
		t.Fatal(err)
	}
	<-read
	cancel()
	res, err := w.Wait(context.Background())
	if !errors.Is(err, context.Canceled) || res.(*a2a.Task).Status.State != a2a.TaskStateWorking {
		t.Fatalf("%v %v: want the working task the poll read", res, err)
	}
}

// Close while a Send waits for the agent's answer: the send stops, Send
// returns ErrReceiverClosed and no wait, PushOnDone hears of none, and
// Close returns.
func TestPushReceiverCloseDuringSend(t *testing.T) {
	sending := make(chan struct{})
	c := plainAgent(t, &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}, func(_ *http.Request, method, _ string) bool {
		close(sending)
		return false // no answer: held until the client gives up
	})
	var reported atomic.Int32
	recv := newReceiver(t, a2a.PushOnDone(func(*a2a.PushWait) { reported.Add(1) }))
	type sent struct {
		w   *a2a.PushWait
		err error
	}
	out := make(chan sent, 1)
	go func() {
		w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
		out <- sent{w, err}
	}()
	<-sending
	recv.Close()
	got := <-out
	if got.w != nil || !errors.Is(got.err, a2a.ErrReceiverClosed) {
		t.Fatalf("%v %v, want no wait and ErrReceiverClosed", got.w, got.err)
	}
	if n := reported.Load(); n != 0 {
		t.Errorf("PushOnDone called %d times", n)
	}
}

// The read after a final status update: what comes meanwhile changes
// nothing, and when the agent's task is not final yet, the wait ends
// with the task the updates built (interrupted here), not with news.
func TestPushWaitFinalReadNotFinal(t *testing.T) {
	var token atomic.Value
	reading, release := make(chan struct{}), make(chan struct{})
	c := plainAgent(t, &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}, func(_ *http.Request, method, tok string) bool {
		if method == "tasks/get" {
			close(reading)
			<-release
		} else {
			token.Store(tok)
		}
		return true
	})
	recv := newReceiver(t)
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	post := func(body string) {
		if st := notify(t, recv.URL(), "X-A2A-Notification-Token", token.Load().(string), body); st != http.StatusNoContent {
			t.Fatalf("status %d", st)
		}
	}
	post(statusBody(a2a.ProtocolV03, "t1", "input-required"))
	<-reading
	post(statusBody(a2a.ProtocolV03, "t1", "working"))
	post(taskBody(a2a.ProtocolV03, "t1", "some-unknown-state"))
	close(release)
	res, err := w.Wait(context.Background())
	if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateInputRequired {
		t.Fatalf("%+v %v: want the input-required task, never a state that is not final", res, err)
	}
}

// A fallback poll that gives up without reading a task keeps the news
// that came while it ran.
func TestPushWaitPollGivesUpKeepsNews(t *testing.T) {
	var token atomic.Value
	polling, fail := make(chan struct{}), make(chan struct{})
	c := plainAgent(t, &a2a.Task{ID: "t1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}, func(r *http.Request, method, tok string) bool {
		if method != "tasks/get" {
			token.Store(tok)
			return true
		}
		close(polling)
		<-fail
		return false // no answer: the poll's attempt times out
	})
	recv := newReceiver(t, a2a.PushFallbackAfter(time.Millisecond))
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"), a2a.PollMaxAttempts(1), a2a.PollTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	<-polling
	art := `{"kind":"artifact-update","taskId":"t1","artifact":{"artifactId":"a","name":"records","parts":[{"kind":"text","text":"2 条"}]}}`
	if st := notify(t, recv.URL(), "X-A2A-Notification-Token", token.Load().(string), art); st != http.StatusNoContent {
		t.Fatalf("status %d", st)
	}
	close(fail)
	res, err := w.Wait(context.Background())
	if _, ok := errors.AsType[*a2a.PollError](err); !ok || res.(*a2a.Task).Artifact("records").Text() != "2 条" {
		t.Fatalf("%+v %v: want the PollError and the artifact the news brought", res, err)
	}
}

// A poll that reads a finished task ends the wait with it, whatever older
// news comes between the read and the end.
func TestPushWaitPollEndsWithWhatItRead(t *testing.T) {
	recv := newReceiver(t, a2a.PushFallbackAfter(time.Millisecond))
	var srv *a2atest.Server
	srv, c := agentFor(t, a2a.ProtocolV03, func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.StatusTask(a2a.TaskStateInputRequired, "哪台设备？"),
			States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateInputRequired}}
	})
	w, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("go"), a2a.PollProgress(func(a2a.PollAttempt) {
		url, token := registered(t, srv)
		notify(t, url, "X-A2A-Notification-Token", token, statusBody(a2a.ProtocolV03, "task-1", "working")) // older news, late
	}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.Wait(context.Background())
	if err != nil || res.(*a2a.Task).Status.State != a2a.TaskStateInputRequired {
		t.Fatalf("%+v %v: want the input-required task the poll read", res, err)
	}
}
