package a2a_test

import (
	"context"
	"fmt"
	"log"
	"net"
	"net/http"
	"sort"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// slowAgent is a fake agent whose tasks go submitted → working →
// completed on their own, a state every 20 ms, with the records artifact.
func slowAgent() *a2atest.Server {
	return a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{
			Task:     a2atest.CompletedTask("records", map[string][]a2atest.Record{"records": {{ID: "r1", Result: "合格"}}}, a2atest.RecordsSummary),
			States:   []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted},
			Interval: 20 * time.Millisecond,
		}
	}))
}

func ExamplePushReceiver() {
	agent := slowAgent()
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()

	// snippet: push-receiver
	// Serve the receiver where agents can reach it; its URL goes to them.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	recv, err := a2a.NewPushReceiver("http://"+ln.Addr().String()+"/a2a/push",
		a2a.FallbackAfter(time.Minute)) // poll a task only if no news came for a minute
	if err != nil {
		log.Fatal(err)
	}
	defer recv.Close()
	mux := http.NewServeMux()
	mux.Handle("POST /a2a/push", recv)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	// Send: each message registers the webhook with a token of its own.
	var waits []*a2a.PushWait
	for _, text := range []string{"本月巡检记录", "上月巡检记录"} {
		w, err := recv.Send(ctx, c, a2a.NewTextMessage(text), a2a.PollCallOptions(a2a.Blocking(false)))
		if err != nil {
			log.Fatal(err)
		}
		waits = append(waits, w)
	}
	// Collect: no goroutine and no tasks/get per task while they run.
	for _, w := range waits {
		res, err := w.Wait(ctx)
		if err != nil {
			log.Fatal(err) // the fallback poll gave up (*a2a.PollError), ctx ended, …
		}
		if task, ok := res.(*a2a.Task); ok {
			fmt.Println(task.ID, task.Status.State, task.Artifact("records").Text())
		}
	}
	// snippet end
	fmt.Println("tasks/get calls:", len(agent.Requests())-len(waits))

	// Output:
	// task-1 completed 共 2 条记录：合格 1 条，不合格 1 条
	// task-2 completed 共 2 条记录：合格 1 条，不合格 1 条
	// tasks/get calls: 0
}

// Collecting thousands of results as they end, in one goroutine: OnDone
// hands each ended wait to a channel.
func ExampleOnDone() {
	agent := slowAgent()
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // bounds every wait
	defer cancel()

	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	// snippet: push-ondone
	done := make(chan *a2a.PushWait, 100)
	recv, err := a2a.NewPushReceiver("http://"+ln.Addr().String()+"/",
		a2a.OnDone(func(w *a2a.PushWait) { done <- w }), // must not block: buffer the channel
		a2a.OnNotification(func(ctx context.Context, n *a2a.PushNotification) error {
			return nil // every notification accepted, as it comes, e.g. to record progress
		}))
	if err != nil {
		log.Fatal(err)
	}
	defer recv.Close()
	go http.Serve(ln, recv)

	for i := range 100 {
		if _, err := recv.Send(ctx, c, a2a.NewTextMessage(fmt.Sprint("记录 ", i)), a2a.PollCallOptions(a2a.Blocking(false))); err != nil {
			log.Fatal(err)
		}
	}
	var ids []string
	for range 100 {
		w := <-done
		if _, err := w.Result(); err != nil {
			log.Printf("task %s: %v", w.TaskID(), err)
			continue
		}
		ids = append(ids, w.TaskID())
	}
	// snippet end
	ln.Close()
	sort.Strings(ids)
	fmt.Println(len(ids), "tasks, first", ids[0], "pending", recv.Pending())

	// Output:
	// 100 tasks, first task-1 pending 0
}
