package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// pushRound sends n tasks through a new PushReceiver, measures the waits
// pending, then has the agent notify every task's end and times the drain;
// the bare handler takes the same notifications from the same senders
// before or after (bareFirst), on the same server.
func pushRound(ctx context.Context, cfg config, ag *agent, c *a2a.Client, bareFirst bool) (result, error) {
	res := result{mode: "push", waits: cfg.waits}
	ag.reset()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return res, err
	}
	base := "http://" + ln.Addr().String()

	// Each task's end, once: a second PushOnDone for a task, or a wait
	// that did not end with its task completed, is an error.
	var ended atomic.Int64
	tl := newTally(cfg.waits)
	allDone := make(chan struct{})
	onDone := func(w *a2a.PushWait) {
		r, err := w.Result()
		task, _ := r.(*a2a.Task)
		tl.add(w.TaskID(), task, err)
		if ended.Add(1) == int64(cfg.waits) {
			close(allDone)
		}
	}
	// No fallback poll while the waits are made and measured: the agent
	// counts tasks/get, which should stay 0.
	recv, err := a2a.NewPushReceiver(base+"/a2a/push", a2a.PushFallbackAfter(time.Hour), a2a.PushOnDone(onDone))
	if err != nil {
		ln.Close()
		return res, err
	}
	defer recv.Close()
	mux := http.NewServeMux()
	mux.Handle("POST /a2a/push", recv)
	mux.HandleFunc("POST /bare", bare)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 30 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	snd := newSender(cfg.senders)
	defer snd.close()

	// The agent's share: n records held, no wait.
	ag.fill(cfg.waits, recv.URL())
	agentHeld := measure()
	ag.reset()
	settle(ctx, ag)
	before := measure()

	start := time.Now()
	if err := sendAll(ctx, cfg, recv, c); err != nil {
		return res, err
	}
	res.setup = time.Since(start)
	settle(ctx, ag)
	pending := measure()
	if p := recv.Pending(); p != cfg.waits {
		return res, fmt.Errorf("%d waits pending, want %d", p, cfg.waits)
	}
	res.heapPerWait = perWait(pending.heap, agentHeld.heap, cfg.waits)
	res.stackPerWait = perWait(pending.stack, before.stack, cfg.waits)
	res.goPerWait = max(0, float64(pending.goroutines-before.goroutines)/float64(cfg.waits))

	recs := ag.records()
	bareRun := func() error {
		t := time.Now()
		if err := snd.notify(ctx, recs, base+"/bare"); err != nil {
			return fmt.Errorf("bare handler: %w", err)
		}
		res.bareRate = float64(len(recs)) / time.Since(t).Seconds()
		return nil
	}
	if bareFirst {
		if err := bareRun(); err != nil {
			return res, err
		}
	}
	ag.released.Store(true)
	t := time.Now()
	if err := snd.notify(ctx, recs, ""); err != nil {
		return res, fmt.Errorf("receiver: %w", err)
	}
	res.notifRate = float64(len(recs)) / time.Since(t).Seconds()
	select {
	case <-allDone:
	case <-ctx.Done():
		return res, fmt.Errorf("%d of %d waits ended: %w", ended.Load(), cfg.waits, ctx.Err())
	}
	res.drain = time.Since(t)
	if !bareFirst {
		if err := bareRun(); err != nil {
			return res, err
		}
	}
	res.ratio = res.notifRate / res.bareRate
	var errs []error
	if n := ag.sends.Load(); n != int64(cfg.waits) {
		errs = append(errs, fmt.Errorf("%d sends, want %d", n, cfg.waits))
	}
	if n := ag.gets.Load(); n != 0 {
		errs = append(errs, fmt.Errorf("%d tasks/get, want none", n))
	}
	if n := ag.bad.Load(); n != 0 {
		errs = append(errs, fmt.Errorf("the agent refused %d requests", n))
	}
	return res, tl.err(errs...)
}

// sendAll sends the tasks from cfg.senders goroutines, each wait under
// context.Background (one that cannot end: the receiver's Close ends the
// waits left).
func sendAll(ctx context.Context, cfg config, recv *a2a.PushReceiver, c *a2a.Client) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, cfg.senders)
	for s := range cfg.senders {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := next.Add(1) - 1
				if i >= int64(cfg.waits) {
					return
				}
				if _, err := recv.SendMessage(context.Background(), c, a2a.NewTextMessage("task "+strconv.FormatInt(i, 10))); err != nil {
					errs[s] = err
					return
				}
			}
		})
	}
	wg.Wait()
	return cmp.Or(errors.Join(errs...), ctx.Err())
}

// settle closes the client's idle connections and waits (a few seconds at
// most) for the agent's side of them to close, so that no connection's
// goroutines and buffers count in a measure.
func settle(ctx context.Context, ag *agent) {
	a2a.CloseIdleConnections()
	for i := 0; i < 1000 && ag.open.Load() > 0 && ctx.Err() == nil; i++ {
		time.Sleep(5 * time.Millisecond)
	}
}
