// Command scale measures what pending waits cost at scale: it holds -waits
// tasks open on a fake agent on loopback, waited for either by a
// PushReceiver (-mode push) or by polling (-mode poll: one WaitTasks for
// them all, or with -poller WaitTask a goroutine and WaitTask each),
// measures the process while they are all pending, then releases the
// tasks and times the drain. It prints a markdown row per round and the medians:
//
//	go run ./examples/scale -mode push -waits 10000 -rounds 3
//	go run ./examples/scale -mode poll -waits 10000
//	go run ./examples/scale -mode poll -poller WaitTask -waits 10000
//
// Push: heap, stack and goroutines per pending wait (the process's live
// heap after a collection, minus the same agent holding as many tasks with
// no wait); notifications per second while draining (the agent POSTs each
// task's end from -senders goroutines over as many connections), beside a
// bare handler's (reads the body, answers 204) taking the same
// notifications from the same senders on the same server, in alternating
// order round after round; and the time from the release to the last wait
// ended.
//
// Poll: heap, stack and goroutines per pending wait, measured once every
// wait has made its first tasks/get (the agent's connection goroutines
// and buffers, in the same process, are counted in); the connections the
// agent accepted and the most open at once, the most tasks/get in flight,
// and the time from the release to the last wait ended.
//
// The agent is a lean JSON-RPC (A2A v0.3) handler, not a2atest, whose
// request log and goroutine per delivering task would weigh more than the
// waits measured.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

func main() {
	var cfg config
	flag.StringVar(&cfg.mode, "mode", "push", "how the waits wait: push or poll")
	flag.IntVar(&cfg.waits, "waits", 1000, "pending waits")
	flag.StringVar(&cfg.poller, "poller", "WaitTasks", "-mode poll: WaitTasks (one call for all the tasks) or WaitTask (a goroutine and WaitTask per task)")
	flag.IntVar(&cfg.rounds, "rounds", 3, "rounds (push: the bare handler before the receiver every other round)")
	flag.IntVar(&cfg.senders, "senders", 16, "goroutines (and connections) sending tasks and notifications")
	flag.DurationVar(&cfg.timeout, "timeout", 30*time.Minute, "bound on the whole run")
	flag.Parse()
	if _, err := run(context.Background(), cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

type config struct {
	mode    string
	poller  string // -mode poll: WaitTasks or WaitTask
	waits   int
	rounds  int
	senders int
	timeout time.Duration
}

// run makes the rig and runs the rounds, writing the table to w.
func run(ctx context.Context, cfg config, w io.Writer) ([]result, error) {
	if cfg.mode != "push" && cfg.mode != "poll" {
		return nil, fmt.Errorf("-mode %q: want push or poll", cfg.mode)
	}
	if cfg.mode == "poll" && cfg.poller != "WaitTasks" && cfg.poller != "WaitTask" {
		return nil, fmt.Errorf("-poller %q: want WaitTasks or WaitTask", cfg.poller)
	}
	if cfg.waits < 1 || cfg.rounds < 1 || cfg.senders < 1 {
		return nil, fmt.Errorf("-waits, -rounds and -senders must be at least 1")
	}
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
	}
	tasks := 0
	if cfg.mode == "poll" {
		tasks = cfg.waits
	}
	ag, err := startAgent(tasks)
	if err != nil {
		return nil, err
	}
	defer ag.close()
	defer a2a.CloseIdleConnections()
	c, err := a2a.NewClient(ag.url)
	if err != nil {
		return nil, err
	}
	io.WriteString(w, header(cfg.mode))
	var rs []result
	for i := range cfg.rounds {
		var r result
		if cfg.mode == "push" {
			r, err = pushRound(ctx, cfg, ag, c, i%2 == 1)
		} else {
			r, err = pollRound(ctx, cfg, ag, c)
		}
		if err != nil {
			return rs, fmt.Errorf("round %d: %w", i+1, err)
		}
		r.row(w, fmt.Sprintf("(round %d)", i+1))
		rs = append(rs, r)
	}
	summary(w, rs)
	return rs, nil
}
