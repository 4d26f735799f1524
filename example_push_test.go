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
		a2a.PushFallbackAfter(time.Minute)) // poll a task only after a minute without news
	if err != nil {
		log.Fatal(err)
	}
	defer recv.Close()
	mux := http.NewServeMux()
	mux.Handle("POST /a2a/push", recv)
	srv := &http.Server{Handler: mux, ReadTimeout: 30 * time.Second} // bounds a slow sender too
	go srv.Serve(ln)
	defer srv.Close()

	// Send: each message registers the webhook with a token of its own,
	// and does not block.
	var waits []*a2a.PushWait
	for _, text := range []string{"本月巡检记录", "上月巡检记录"} {
		w, err := recv.SendMessage(ctx, c, a2a.NewTextMessage(text))
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

// Collecting thousands of results as they end, in one goroutine:
// PushOnDone hands each ended wait to a channel.
func ExamplePushOnDone() {
	agent := slowAgent()
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // bounds every wait
	defer cancel()

	// snippet: push-ondone
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	done, collected := make(chan *a2a.PushWait), make(chan struct{})
	recv, err := a2a.NewPushReceiver("http://"+ln.Addr().String()+"/",
		// One call at a time, from the receiver's own goroutine: it may
		// wait for the loop below, but not for ever.
		a2a.PushOnDone(func(w *a2a.PushWait) {
			select {
			case done <- w:
			case <-collected: // the loop is over (or gave up): do not hold Close up
			}
		}),
		a2a.PushOnNotification(func(ctx context.Context, n *a2a.PushNotification) error {
			return nil // each notification taken, as it comes: record progress, say
		}))
	if err != nil {
		log.Fatal(err)
	}
	defer recv.Close()     // waits for the PushOnDone calls queued …
	defer close(collected) // … which this, run first, lets return
	srv := &http.Server{Handler: recv, ReadTimeout: 30 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	for i := range 100 {
		if _, err := recv.SendMessage(ctx, c, a2a.NewTextMessage(fmt.Sprint("记录 ", i))); err != nil {
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
	sort.Strings(ids)
	fmt.Println(len(ids), "tasks, first", ids[0], "pending", recv.Pending())

	// Output:
	// 100 tasks, first task-1 pending 0
}

func ExamplePushReceiver_WatchTask() {
	agent := slowAgent()
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	recv, _ := a2a.NewPushReceiver("http://" + ln.Addr().String() + "/")
	defer recv.Close()
	srv := &http.Server{Handler: recv, ReadTimeout: 30 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	// snippet: watch-task
	// A task started elsewhere, without a webhook.
	task, err := c.SendText(ctx, "本月巡检记录", a2a.Blocking(false))
	if err != nil {
		log.Fatal(err)
	}
	// Register the receiver for it, and wait.
	w, err := recv.WatchTask(ctx, c, task)
	if err != nil {
		log.Fatal(err) // e.g. an agent without push: errors.Is(err, a2a.ErrPushNotificationNotSupported)
	}
	res, err := w.Wait(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(task.Status.State, "→", res.(*a2a.Task).Status.State)
	// snippet end

	// Output:
	// submitted → completed
}

// A webhook of your own, registered with the message.
func ExampleWebhook() {
	agent := slowAgent()
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()

	// snippet: webhook
	task, err := c.SendText(ctx, "本月巡检记录", a2a.Blocking(false), a2a.Webhook(a2a.PushNotificationConfig{
		URL:   "http://127.0.0.1:1/a2a/push", // your webhook
		Token: "check-me",                    // sent back in X-A2A-Notification-Token (or A2A-Notification-Token)
	}))
	if err != nil {
		log.Fatal(err)
	}
	configs, err := c.ListTaskPushNotificationConfigs(ctx, task.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(configs), configs[0].PushNotificationConfig.URL)
	// snippet end

	// Output:
	// 1 http://127.0.0.1:1/a2a/push
}
