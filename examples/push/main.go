// Command push waits for many slow tasks at once without polling: it
// starts a fake agent and a push-notification receiver on loopback, sends
// -n tasks that each finish after a random delay (up to -max-delay), and
// collects every final task from the notifications the agent POSTs to the
// receiver. With -poll it collects them the other way, with a goroutine
// and WaitTask per task, for comparison.
//
//	go run ./examples/push
//	go run ./examples/push -poll
//	go run ./examples/push -n 100 -version 1.0
//	go run ./examples/push -n 100 -transport http+json   # HTTP+JSON (REST), v0.3 or with -version 1.0
//
// The code is the same on every binding; only the two client options that
// name it differ.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

func main() {
	var cfg config
	flag.IntVar(&cfg.n, "n", 1000, "number of tasks")
	flag.DurationVar(&cfg.maxDelay, "max-delay", 2*time.Second, "longest time a task takes")
	flag.BoolVar(&cfg.poll, "poll", false, "wait with WaitTask per task instead of push notifications")
	flag.StringVar(&cfg.version, "version", a2a.ProtocolV03, "A2A version the agent speaks: 0.3 or 1.0")
	flag.StringVar(&cfg.transport, "transport", a2a.TransportJSONRPC, "transport the agent speaks: JSONRPC or HTTP+JSON (REST)")
	flag.Parse()
	st, err := run(context.Background(), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "push:", err)
		os.Exit(1)
	}
	st.print(os.Stdout, cfg)
}

type config struct {
	n         int
	maxDelay  time.Duration
	poll      bool
	version   string
	transport string // JSONRPC or HTTP+JSON, in any case
}

// stats is what one run measured.
type stats struct {
	completed     int           // final tasks collected, all completed
	elapsed       time.Duration // from the first send to the last task collected
	sends, gets   int           // requests the agent received
	notifications int           // POSTs the receiver accepted
	waiters       int           // goroutines the caller started to wait
	peak          int           // most goroutines in the process at once
}

func (s stats) print(w io.Writer, cfg config) {
	how := "push notifications"
	if cfg.poll {
		how = "WaitTask per task"
	}
	fmt.Fprintf(w, "%d of %d tasks completed, collected by %s in %v\n", s.completed, cfg.n, how, s.elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "requests to the agent: %d sends, %d tasks/get\n", s.sends, s.gets)
	fmt.Fprintf(w, "notifications received: %d\n", s.notifications)
	fmt.Fprintf(w, "goroutines: %d started to wait, %d at most in the process (agent included)\n", s.waiters, s.peak)
}

func run(ctx context.Context, cfg config) (stats, error) {
	binding := strings.ToUpper(cfg.transport) // the names in any case: http+json
	if binding != a2a.TransportJSONRPC && binding != a2a.TransportHTTPJSON {
		return stats{}, fmt.Errorf("-transport %s: want JSONRPC or HTTP+JSON", cfg.transport)
	}
	// The fake agent: every task is submitted, then working, then
	// completed, on the agent's own clock, after a random delay.
	rng := rand.New(rand.NewPCG(1, 2))
	var rngMu sync.Mutex
	opts := []a2atest.Option{a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		rngMu.Lock()
		delay := time.Duration(rng.Int64N(int64(cfg.maxDelay)))
		rngMu.Unlock()
		return a2atest.Reply{
			Task:     a2atest.CompletedTask("echo", map[string]string{"text": m.Text()}, m.Text()),
			States:   []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted},
			Interval: delay / 2,
		}
	}), a2atest.Bindings(binding)}
	if cfg.version == a2a.ProtocolV10 {
		opts = append(opts, a2atest.V10())
	}
	agent := a2atest.NewServer(opts...)
	defer agent.Close()
	// The two options that differ between bindings.
	c, err := a2a.NewClient(agent.URL, a2a.WithTransports(binding), a2a.WithProtocolVersion(cfg.version))
	if err != nil {
		return stats{}, err
	}
	defer a2a.CloseIdleConnections()

	peak := sampleGoroutines()
	var st stats
	start := time.Now()
	if cfg.poll {
		err = collectByPolling(ctx, c, cfg.n, &st)
	} else {
		err = collectByPush(ctx, c, cfg.n, &st)
	}
	st.elapsed = time.Since(start)
	st.peak = peak()
	for _, r := range agent.Requests() {
		switch r.Method {
		case "message/send", "SendMessage":
			st.sends++
		case "tasks/get", "GetTask":
			st.gets++
		}
	}
	return st, err
}

// collectByPush serves a PushReceiver on loopback, sends n tasks through
// it and collects each task as its wait ends: no goroutine per task, no
// tasks/get.
func collectByPush(ctx context.Context, c *a2a.Client, n int, st *stats) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	var notified atomic.Int64
	done := make(chan *a2a.PushWait, n)
	recv, err := a2a.NewPushReceiver("http://"+ln.Addr().String()+"/a2a/push",
		a2a.PushOnNotification(func(context.Context, *a2a.PushNotification) error { notified.Add(1); return nil }),
		a2a.PushOnDone(func(w *a2a.PushWait) { done <- w }))
	if err != nil {
		ln.Close()
		return err
	}
	defer recv.Close()
	mux := http.NewServeMux()
	mux.Handle("POST /a2a/push", recv)
	srv := &http.Server{Handler: mux, ReadTimeout: 30 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute) // bounds every wait
	defer cancel()
	for i := range n {
		if _, err := recv.SendMessage(ctx, c, a2a.NewTextMessage(fmt.Sprintf("task %d", i))); err != nil {
			return err
		}
	}
	for range n {
		res, err := (<-done).Result()
		if err != nil {
			return err
		}
		if task, ok := res.(*a2a.Task); ok && task.Status.State == a2a.TaskStateCompleted {
			st.completed++
		}
	}
	st.notifications = int(notified.Load())
	return nil
}

// collectByPolling sends n tasks and waits for each with WaitTask in a
// goroutine of its own, as a caller without a webhook must.
func collectByPolling(ctx context.Context, c *a2a.Client, n int, st *stats) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for i := range n {
		task, err := c.SendText(ctx, fmt.Sprintf("task %d", i), a2a.Blocking(false))
		if err != nil {
			cancel()
			wg.Wait()
			return err
		}
		st.waiters++
		wg.Go(func() {
			task, err := c.WaitTask(ctx, task.ID)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				errs = append(errs, err)
			case task.Status.State == a2a.TaskStateCompleted:
				st.completed++
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// sampleGoroutines counts the process's goroutines every millisecond until
// the returned func is called, which returns the most seen.
func sampleGoroutines() func() int {
	var most atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			if g := int64(runtime.NumGoroutine()); g > most.Load() {
				most.Store(g)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	})
	return func() int {
		close(stop)
		wg.Wait()
		return int(most.Load())
	}
}
