package a2a_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// The cost of push waits at scale: the heap a pending wait holds, and the
// notifications a receiver takes per second against a bare handler on
// the same loopback rig. Benchmarks, not timed tests:
//
//	go test -run '^$' -bench 'PushWaitHeap' -benchtime 1x .
//	go test -run '^$' -bench 'PushNotifyRate' -benchtime 1x .

// sendAgent is a client of an in-process v0.3 agent (no connection, no
// task stored: its memory is not the waits') that answers every
// message/send with a task of its own id, working; token, when not nil,
// gets each send's webhook token.
func sendAgent(tb testing.TB, token func(string)) *a2a.Client {
	tb.Helper()
	var next atomic.Int64
	c, err := a2a.NewClient("http://agent.test/", a2a.WithMaxRetries(0), a2a.WithHTTPClient(&http.Client{
		Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			body, _ := io.ReadAll(r.Body)
			if token != nil {
				token(jsonString(body, `"token":"`))
			}
			id := jsonString(body, `"id":`)
			n := next.Add(1)
			out := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"kind":"task","id":"task-%d","contextId":"ctx-1","status":{"state":"working"}}}`, id, n)
			return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
				Header: http.Header{"Content-Type": {"application/json"}, "Content-Length": {strconv.Itoa(len(out))}},
				Body:   io.NopCloser(bytes.NewReader(out)), ContentLength: int64(len(out)), Request: r}, nil
		})}))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// jsonString is the value after key in body, up to the next quote (a
// string, key ending in its opening quote) or comma (a number).
func jsonString(body []byte, key string) string {
	i := bytes.Index(body, []byte(key))
	if i < 0 {
		return ""
	}
	rest := body[i+len(key):]
	end := bytes.IndexAny(rest, `",}`)
	if end < 0 {
		return ""
	}
	return string(rest[:end])
}

// heapNow is the live heap after a full collection, in bytes.
func heapNow() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkPushWaitHeap reports the heap one pending PushWait holds
// (heap-B/wait), its goroutines (goroutines/wait), at n pending waits:
// the send's answer kept, the receiver's entry, the fallback time. The
// waits' ctx is one that can end (cancel: the wait watches it) or
// context.Background (background: nothing to watch).
func BenchmarkPushWaitHeap(b *testing.B) {
	for _, bench := range []struct {
		n   int
		ctx string
	}{{10_000, "cancel"}, {100_000, "cancel"}, {10_000, "background"}, {100_000, "background"}} {
		n := bench.n
		b.Run(fmt.Sprintf("%d/ctx=%s", n, bench.ctx), func(b *testing.B) {
			if os.Getenv("A2A_PUSHSCALE_HEAPPROFILE") != "" {
				runtime.MemProfileRate = 1
			}
			for range b.N {
				c := sendAgent(b, nil)
				recv, err := a2a.NewPushReceiver("http://receiver.test/hook")
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				if bench.ctx == "background" {
					ctx = context.Background()
				}
				waits := make([]*a2a.PushWait, n)
				msg := a2a.Message{Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart{Text: "go"}}}
				// a warm-up wait: the client's and receiver's lazy state
				w0, err := recv.SendMessage(ctx, c, msg)
				if err != nil {
					b.Fatal(err)
				}
				w0.Stop()
				g0 := runtime.NumGoroutine()
				before := heapNow()
				for i := range waits {
					if waits[i], err = recv.SendMessage(ctx, c, msg); err != nil {
						b.Fatal(err)
					}
				}
				after := heapNow()
				if path := os.Getenv("A2A_PUSHSCALE_HEAPPROFILE"); path != "" {
					writeHeapProfile(b, path)
				}
				g1 := runtime.NumGoroutine()
				if recv.Pending() != n {
					b.Fatalf("pending %d, want %d", recv.Pending(), n)
				}
				b.ReportMetric(float64(after-before)/float64(n), "heap-B/wait")
				b.ReportMetric(float64(g1-g0)/float64(n), "goroutines/wait")
				recv.Close()
				cancel()
				runtime.KeepAlive(waits)
			}
		})
	}
}

// BenchmarkPushNotifyRate reports the notifications per second a
// PushReceiver takes (each a v0.3 agent's task or status update, working,
// for one of 1,000 pending waits, over keep-alive loopback connections
// from 8 senders) and those of a bare handler that only reads the body
// and answers 204, on the same rig, in interleaved rounds: the medians of
// each (recv-notif/s, bare-notif/s) and of the per-round ratio
// (recv/bare); the same for the process's CPU time per notification
// (bare-cpu/recv-cpu: the ratio of the ceilings, CPU-bound as loopback
// is, and less moved by other processes than the rates) and the
// allocations per notification.
func BenchmarkPushNotifyRate(b *testing.B) {
	for _, shape := range []string{"task", "status"} {
		b.Run(shape, func(b *testing.B) {
			const waits, senders, perRound, rounds = 1000, 8, 4000, 9
			var mu sync.Mutex
			var tokens []string
			c := sendAgent(b, func(t string) {
				mu.Lock()
				tokens = append(tokens, t)
				mu.Unlock()
			})
			recv, err := a2a.NewPushReceiver("http://receiver.test/hook")
			if err != nil {
				b.Fatal(err)
			}
			defer recv.Close()
			msg := a2a.Message{Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart{Text: "go"}}}
			type note struct {
				token string
				body  []byte
			}
			notes := make([]note, waits)
			for i := range notes {
				w, err := recv.SendMessage(context.Background(), c, msg)
				if err != nil {
					b.Fatal(err)
				}
				id := w.TaskID()
				body := fmt.Sprintf(`{"kind":"task","id":%q,"contextId":"ctx-1","status":{"state":"working"}}`, id)
				if shape == "status" {
					body = fmt.Sprintf(`{"kind":"status-update","taskId":%q,"contextId":"ctx-1","final":false,"status":{"state":"working"}}`, id)
				}
				notes[i] = note{tokens[i], []byte(body)}
			}
			rsrv := httptest.NewServer(recv)
			defer rsrv.Close()
			bare := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				rw.WriteHeader(http.StatusNoContent)
			}))
			defer bare.Close()
			tr := &http.Transport{MaxIdleConnsPerHost: senders, MaxIdleConns: 4 * senders}
			defer tr.CloseIdleConnections()
			hc := &http.Client{Transport: tr}
			// run posts perRound notifications to url from the senders and
			// returns the rate, per second, and the allocations made and
			// the process's CPU time spent per notification, in µs (both
			// ends: the sender's are the same for either handler; on a
			// loaded machine the CPU time tells the ceiling better than
			// the rate).
			run := func(url string) (rate, allocs, cpu float64) {
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				c0 := cpuTime()
				var next atomic.Int64
				var wg sync.WaitGroup
				start := time.Now()
				for range senders {
					wg.Go(func() {
						for {
							i := next.Add(1) - 1
							if i >= perRound {
								return
							}
							n := notes[i%waits]
							req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(n.body))
							req.Header.Set("Content-Type", "application/json")
							req.Header.Set("X-A2A-Notification-Token", n.token)
							resp, err := hc.Do(req)
							if err != nil {
								b.Error(err)
								return
							}
							io.Copy(io.Discard, resp.Body)
							resp.Body.Close()
							if resp.StatusCode != http.StatusNoContent {
								b.Errorf("status %d", resp.StatusCode)
								return
							}
						}
					})
				}
				wg.Wait()
				rate = perRound / time.Since(start).Seconds()
				cpu = float64((cpuTime() - c0).Microseconds()) / perRound
				runtime.ReadMemStats(&m1)
				return rate, float64(m1.Mallocs-m0.Mallocs) / perRound, cpu
			}
			for range b.N {
				run(rsrv.URL) // warm both: connections, buffers
				run(bare.URL)
				var recvRates, bareRates, ratios, recvAllocs, bareAllocs, recvCPU, bareCPU, cpuRatios []float64
				for round := range rounds {
					var rr, br, ra, ba, rc, bc float64
					if round%2 == 0 {
						rr, ra, rc = run(rsrv.URL)
						br, ba, bc = run(bare.URL)
					} else {
						br, ba, bc = run(bare.URL)
						rr, ra, rc = run(rsrv.URL)
					}
					recvRates, bareRates, ratios = append(recvRates, rr), append(bareRates, br), append(ratios, rr/br)
					recvAllocs, bareAllocs = append(recvAllocs, ra), append(bareAllocs, ba)
					recvCPU, bareCPU, cpuRatios = append(recvCPU, rc), append(bareCPU, bc), append(cpuRatios, bc/rc)
				}
				b.ReportMetric(median(recvRates), "recv-notif/s")
				b.ReportMetric(median(bareRates), "bare-notif/s")
				b.ReportMetric(median(ratios), "recv/bare")
				b.ReportMetric(median(recvAllocs), "recv-allocs/notif")
				b.ReportMetric(median(bareAllocs), "bare-allocs/notif")
				b.ReportMetric(median(recvCPU), "recv-cpu-µs/notif")
				b.ReportMetric(median(bareCPU), "bare-cpu-µs/notif")
				b.ReportMetric(median(cpuRatios), "bare-cpu/recv-cpu")
			}
			if recv.Pending() != waits {
				b.Fatalf("pending %d, want %d", recv.Pending(), waits)
			}
		})
	}
}

// writeHeapProfile writes the heap's profile to path (the pprof tool
// reads it: go tool pprof -sample_index=inuse_space).
func writeHeapProfile(tb testing.TB, path string) {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if err := pprof.WriteHeapProfile(f); err != nil {
		tb.Fatal(err)
	}
}

// median is the middle of xs (sorted in place).
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}
