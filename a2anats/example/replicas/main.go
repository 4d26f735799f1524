// Command replicas runs three push receivers as the replicas of one
// program, sharing their waits through NATS JetStream (a2anats), behind one
// round-robin reverse proxy whose URL is the only webhook the agent is
// given: a notification lands on any replica, and the replica that does
// not hold its wait passes it to the one that does. Mid-run, one replica
// is killed (its HTTP server and receiver closed: its waits, held in the
// relay, are not released) and started again, and it resumes its waits
// (PushReceiver.Resume); the notifications of its tasks that came while
// it was down were kept for it. The program prints the tasks collected,
// the duplicates, the lost, and the fallback polls (tasks/get calls the
// agent received): all tasks once, none lost, none polled.
//
// An embedded NATS server (JetStream, a temporary store) and a fake agent
// (a2atest) run in the process, on loopback.
//
//	go run ./example/replicas              # 10,000 tasks
//	go run ./example/replicas -tasks 500 -version 1.0
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/nats-io/nats-server/v2/server"
)

func main() {
	var cfg config
	flag.IntVar(&cfg.tasks, "tasks", 10000, "number of tasks")
	flag.DurationVar(&cfg.maxDelay, "max-delay", time.Second, "longest time a task takes")
	flag.DurationVar(&cfg.timeout, "timeout", 5*time.Minute, "bound on the whole run")
	flag.StringVar(&cfg.version, "version", a2a.ProtocolV03, "A2A version the agent speaks: 0.3 or 1.0")
	flag.Parse()
	st, err := run(context.Background(), cfg)
	st.print(os.Stdout, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "replicas:", err)
		os.Exit(1)
	}
}

type config struct {
	tasks    int
	maxDelay time.Duration
	timeout  time.Duration
	version  string
}

// stats is what one run measured.
type stats struct {
	collected  int           // tasks whose wait ended completed, counted once
	duplicates int           // waits that ended completed for a task already collected
	failed     int           // waits that ended with an error (Close's excepted)
	sends      int           // message/send requests the agent received
	polls      int           // tasks/get requests the agent received
	passed     int64         // notifications passed from one replica to another
	resumed    int           // waits the restarted replica resumed
	elapsed    time.Duration // from the first send to the last task collected
}

func (s stats) print(w io.Writer, cfg config) {
	fmt.Fprintf(w, "tasks: %d sent, %d collected, %d duplicates, %d lost, %d failed, in %v\n",
		s.sends, s.collected, s.duplicates, cfg.tasks-s.collected, s.failed, s.elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "fallback polls (tasks/get): %d\n", s.polls)
	fmt.Fprintf(w, "notifications passed between replicas: %d; waits resumed after the restart: %d\n", s.passed, s.resumed)
}

// collector counts the waits that end, by task.
type collector struct {
	mu       sync.Mutex
	seen     map[string]int
	failed   []error
	complete chan struct{} // closed once every task is collected
	want     int
}

func (c *collector) done(w *a2a.PushWait) {
	res, err := w.Result()
	c.mu.Lock()
	defer c.mu.Unlock()
	switch task, _ := res.(*a2a.Task); {
	case errors.Is(err, a2a.ErrReceiverClosed):
		return // a replica killed or closed: its waits are resumed, or the run is over
	case err != nil:
		c.failed = append(c.failed, err)
		return
	case task == nil || task.Status.State != a2a.TaskStateCompleted:
		c.failed = append(c.failed, fmt.Errorf("wait ended with %v", res))
		return
	default:
		c.seen[task.ID]++
		if c.seen[task.ID] == 1 && len(c.seen) == c.want {
			close(c.complete)
		}
	}
}

func run(ctx context.Context, cfg config) (st stats, err error) {
	if cfg.tasks < 1 {
		return st, fmt.Errorf("-tasks %d: want at least 1", cfg.tasks)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "a2anats-replicas-")
	if err != nil {
		return st, err
	}
	defer os.RemoveAll(dir)
	ns, err := startNATS(dir)
	if err != nil {
		return st, err
	}
	defer func() { ns.Shutdown(); ns.WaitForShutdown() }()

	agent := newAgent(cfg)
	defer agent.Close()
	c, err := a2a.NewClient(agent.URL, a2a.WithProtocolVersion(cfg.version))
	if err != nil {
		return st, err
	}
	defer a2a.CloseIdleConnections()

	col := &collector{seen: map[string]int{}, complete: make(chan struct{}), want: cfg.tasks}
	lb, err := newBalancer()
	if err != nil {
		return st, err
	}
	defer lb.close()
	var passed atomic.Int64
	replicas := make([]*replica, 3)
	for i, name := range []string{"a", "b", "c"} {
		if replicas[i], err = startReplica(ctx, ns.ClientURL(), name, lb.url, col.done, &passed); err != nil {
			return st, err
		}
		lb.set(i, replicas[i].addr)
	}
	defer func() {
		for _, r := range replicas {
			r.kill()
		}
	}()

	start := time.Now()
	// A third of the tasks through every replica, a third with b down, a
	// third with b started again and resuming its waits.
	third := cfg.tasks / 3
	if err := send(ctx, c, replicas, 0, third); err != nil {
		return st, err
	}
	lb.down(1) // the balancer's health check sees b go
	replicas[1].kill()
	if err := send(ctx, c, []*replica{replicas[0], replicas[2]}, third, 2*third); err != nil {
		return st, err
	}
	if replicas[1], err = startReplica(ctx, ns.ClientURL(), "b", lb.url, col.done, &passed); err != nil {
		return st, err
	}
	resumed, err := replicas[1].recv.Resume(ctx, c)
	if err != nil {
		return st, err
	}
	st.resumed = len(resumed)
	lb.set(1, replicas[1].addr)
	if err := send(ctx, c, replicas, 2*third, cfg.tasks); err != nil {
		return st, err
	}

	select {
	case <-col.complete:
	case <-ctx.Done():
		err = fmt.Errorf("not every task collected: %w", context.Cause(ctx))
	}
	st.elapsed = time.Since(start)
	col.mu.Lock()
	st.collected = len(col.seen)
	for _, n := range col.seen {
		st.duplicates += n - 1
	}
	st.failed = len(col.failed)
	err = errors.Join(err, errors.Join(col.failed...))
	col.mu.Unlock()
	st.passed = passed.Load()
	for _, r := range agent.Requests() {
		switch r.Method {
		case "message/send", "SendMessage":
			st.sends++
		case "tasks/get", "GetTask":
			st.polls++
		}
	}
	return st, err
}

// send sends tasks from to to (exclusive), round-robin through rs, 16 at
// a time.
func send(ctx context.Context, c *a2a.Client, rs []*replica, from, to int) error {
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	next := make(chan int)
	for range 16 {
		wg.Go(func() {
			for i := range next {
				r := rs[i%len(rs)]
				if _, err := r.recv.SendMessage(ctx, c, a2a.NewTextMessage(fmt.Sprintf("task %d", i))); err != nil {
					errs <- fmt.Errorf("replica %s: task %d: %w", r.name, i, err)
					return
				}
			}
		})
	}
	var err error
feed:
	for i := from; i < to; i++ {
		select {
		case next <- i:
		case err = <-errs:
			break feed
		}
	}
	close(next)
	wg.Wait()
	close(errs)
	for e := range errs {
		err = errors.Join(err, e)
	}
	return err
}

// newAgent is the fake agent: every task is submitted, then working, then
// completed, after a random delay, and notified to its webhook at each step.
func newAgent(cfg config) *a2atest.Server {
	rng := rand.New(rand.NewPCG(1, 2))
	var mu sync.Mutex
	opts := []a2atest.Option{a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		mu.Lock()
		delay := time.Duration(rng.Int64N(int64(cfg.maxDelay)))
		mu.Unlock()
		return a2atest.Reply{
			Task:     a2atest.CompletedTask("echo", map[string]string{"text": m.Text()}, m.Text()),
			States:   []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateCompleted},
			Interval: delay / 2,
		}
	})}
	if cfg.version == a2a.ProtocolV10 {
		opts = append(opts, a2atest.V10())
	}
	return a2atest.NewServer(opts...)
}

// startNATS starts an embedded NATS server with JetStream, its store in
// dir, on a loopback port.
func startNATS(dir string) (*server.Server, error) {
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: dir,
		NoLog: true, NoSigs: true})
	if err != nil {
		return nil, err
	}
	ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, errors.New("the NATS server did not start")
	}
	return ns, nil
}
