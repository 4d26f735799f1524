package a2a_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The cost of many pending polling waits, measured, not asserted: run
//
//	A2A_SCALE_POLL=50000 A2A_SCALE_MODE=waittasks go test -run '^TestScalePollMemory$' -v .
//
// (A2A_SCALE_MODE=waittask: one goroutine per WaitTask call, the way a
// program waited for many tasks before WaitTasks). The agent runs in a
// child process (this test binary), so its memory is not counted; every
// task stays "working". Once every wait has made its first attempt and
// waits for its next (an hour away), the heap and stacks in use and the
// goroutines are read after a GC and divided by the number of waits.

// scaleModes are the ways to wait for many tasks, by A2A_SCALE_MODE.
var scaleModes = map[string]func(ctx context.Context, c *a2a.Client, ids []string, opts []a2a.WaitOption, wg *sync.WaitGroup){
	"waittask": func(ctx context.Context, c *a2a.Client, ids []string, opts []a2a.WaitOption, wg *sync.WaitGroup) {
		for _, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c.WaitTask(ctx, id, opts...)
			}()
		}
	},
}

func TestScalePollMemory(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("A2A_SCALE_POLL"))
	if n <= 0 {
		t.Skip("set A2A_SCALE_POLL=N (and A2A_SCALE_MODE) to measure")
	}
	mode := os.Getenv("A2A_SCALE_MODE")
	run, ok := scaleModes[mode]
	if !ok {
		t.Fatalf("A2A_SCALE_MODE=%q: want one of %v", mode, keys(scaleModes))
	}
	url, stop := startScaleAgent(t)
	defer stop()
	c, err := a2a.NewClient(url)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("task-%07d", i)
	}
	var first atomic.Int64
	all := make(chan struct{})
	opts := []a2a.WaitOption{a2a.PollInterval(time.Hour), a2a.PollMaxInterval(time.Hour), a2a.PollTimeout(2 * time.Hour),
		a2a.PollProgress(func(a a2a.PollAttempt) {
			if a.Attempt == 1 && first.Add(1) == int64(n) {
				close(all)
			}
		})}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	g0 := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	start := time.Now()
	run(ctx, c, ids, opts, &wg)
	<-all
	firstRound := time.Since(start)
	time.Sleep(100 * time.Millisecond) // the last attempts' goroutines settle
	runtime.GC()
	runtime.ReadMemStats(&after)
	g1 := runtime.NumGoroutine()
	heap := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	stack := float64(after.StackInuse) - float64(before.StackInuse)
	t.Logf("mode %s, %d pending waits (first round of tasks/get in %s):", mode, n, firstRound.Round(time.Millisecond))
	t.Logf("  heap per wait %.0f B, stack per wait %.0f B, heap+stack %.2f KiB, goroutines per wait %.4f (%d)",
		heap/float64(n), stack/float64(n), (heap+stack)/float64(n)/1024, float64(g1-g0)/float64(n), g1-g0)
	if os.Getenv("A2A_SCALE_STACKS") != "" {
		pprof.Lookup("goroutine").WriteTo(os.Stderr, 1)
	}
	t.Logf("  connections the agent accepted: %s", scaleConns(t, url))
	drain := time.Now()
	cancel()
	wg.Wait()
	t.Logf("  all waits ended %s after the cancel", time.Since(drain).Round(time.Millisecond))
	runtime.KeepAlive(ids)
	a2a.CloseIdleConnections()
}

// scaleConns asks the agent how many connections it accepted, on a
// connection of its own.
func scaleConns(t *testing.T, url string) string {
	resp, err := (&http.Client{Transport: &http.Transport{}}).Get(url + "/conns")
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b) + " (one of them this question's)"
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// startScaleAgent runs TestScalePollAgent in a child process and returns
// its URL and the func that ends it.
func startScaleAgent(t *testing.T) (string, func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestScalePollAgent$")
	cmd.Env = append(os.Environ(), "A2A_SCALE_AGENT=1")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return line[:len(line)-1], func() {
		in.Close()
		cmd.Wait()
	}
}

// TestScalePollAgent is the agent of TestScalePollMemory, in its child
// process: every task is "working"; it ends when its stdin closes.
func TestScalePollAgent(t *testing.T) {
	if os.Getenv("A2A_SCALE_AGENT") == "" {
		t.Skip("the child process of TestScalePollMemory")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var opened atomic.Int64
	srv := &http.Server{ConnState: func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			opened.Add(1)
		}
	}, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/conns" {
			fmt.Fprint(w, opened.Load())
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Params struct{ ID string }
		}
		json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"kind":"task","id":`+
			strconv.Quote(req.Params.ID)+`,"contextId":"c","status":{"state":"working"}}}`)
	})}
	go srv.Serve(l)
	fmt.Printf("http://%s\n", l.Addr())
	io.Copy(io.Discard, os.Stdin)
	srv.Close()
}
