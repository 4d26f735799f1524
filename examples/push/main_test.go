package main

import (
	"bytes"
	"context"
	"regexp"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// bindings are the four bindings the program runs on: -transport and
// -version.
var bindings = []struct{ transport, version string }{
	{a2a.TransportJSONRPC, a2a.ProtocolV03}, // the default
	{a2a.TransportJSONRPC, a2a.ProtocolV10},
	{"http+json", a2a.ProtocolV10},
	{"http+json", a2a.ProtocolV03},
}

// The example as it runs by default: 1,000 tasks, every one collected by
// push, none polled; the same on every binding.
func TestPush(t *testing.T) {
	for i, b := range bindings {
		t.Run(b.transport+" "+b.version, func(t *testing.T) {
			t.Parallel() // each waits up to 2s for its tasks
			cfg := config{n: 1000, maxDelay: 2 * time.Second, transport: b.transport, version: b.version}
			if i > 0 {
				cfg.n = 200 // the same path; fewer tasks keep the run short
			}
			st, err := run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if st.completed != cfg.n || st.sends != cfg.n || st.gets != 0 || st.waiters != 0 {
				t.Errorf("%+v: want every task completed, one send each, no tasks/get, no waiting goroutine", st)
			}
			// Each task's three states (submitted, working, completed)
			// arrive in order, the last ending its wait.
			if st.notifications != 3*cfg.n {
				t.Errorf("%d notifications, want %d", st.notifications, 3*cfg.n)
			}
			var out bytes.Buffer
			st.print(&out, cfg)
			got := regexp.MustCompile(`in [0-9.]+m?s|\d+ at most`).ReplaceAllString(out.String(), "…")
			want := `1000 of 1000 tasks completed, collected by push notifications …
requests to the agent: 1000 sends, 0 tasks/get
notifications received: 3000
goroutines: 0 started to wait, … in the process (agent included)
`
			if cfg.n == 200 {
				want = regexp.MustCompile(`1000`).ReplaceAllString(want, "200")
				want = regexp.MustCompile(`3000`).ReplaceAllString(want, "600")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// -poll, on every binding.
func TestPoll(t *testing.T) {
	for _, b := range bindings {
		t.Run(b.transport+" "+b.version, func(t *testing.T) {
			t.Parallel()
			cfg := config{n: 50, maxDelay: 500 * time.Millisecond, poll: true, transport: b.transport, version: b.version}
			st, err := run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if st.completed != cfg.n || st.gets < cfg.n || st.waiters != cfg.n || st.notifications != 0 {
				t.Errorf("%+v: want every task completed, polled at least once each, by a goroutine each", st)
			}
		})
	}
}

func TestPushBadTransport(t *testing.T) {
	if _, err := run(context.Background(), config{n: 1, transport: "grpc", version: a2a.ProtocolV03}); err == nil {
		t.Error("-transport grpc: no error")
	}
}

// BenchmarkCollect collects 1,000 tasks finishing within 2 s, by push and
// by polling (default poll settings), one run per iteration; interop's
// bench.sh runs it a round at a time (-count) for BENCHMARKS.md:
//
//	go test ./examples/push -run '^$' -bench Collect -benchtime 1x -count 8
func BenchmarkCollect(b *testing.B) {
	for _, poll := range []bool{false, true} {
		name := "push"
		if poll {
			name = "poll"
		}
		b.Run(name, func(b *testing.B) {
			cfg := config{n: 1000, maxDelay: 2 * time.Second, poll: poll, transport: a2a.TransportJSONRPC, version: a2a.ProtocolV03}
			var sum stats
			for range b.N {
				st, err := run(context.Background(), cfg)
				if err != nil || st.completed != cfg.n {
					b.Fatalf("%+v %v", st, err)
				}
				sum.gets += st.gets
				sum.notifications += st.notifications
				sum.waiters += st.waiters
				sum.peak = max(sum.peak, st.peak)
				sum.sends += st.sends
				sum.elapsed += st.elapsed
			}
			n := float64(b.N)
			b.ReportMetric(float64(sum.elapsed.Milliseconds())/n, "ms-to-collect/op")
			b.ReportMetric(float64(sum.sends+sum.gets)/n, "requests/op")
			b.ReportMetric(float64(sum.gets)/n, "gets/op")
			b.ReportMetric(float64(sum.notifications)/n, "notifications/op")
			b.ReportMetric(float64(sum.waiters)/n, "waiters/op")
			b.ReportMetric(float64(sum.peak), "peak-goroutines")
		})
	}
}
