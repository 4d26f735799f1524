package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The rounds' rows, then the medians' row and the spread.
func checkTable(t *testing.T, out string, rounds int) {
	t.Helper()
	rows := regexp.MustCompile(`(?m)^\| (push|poll \w+) \(round \d+\) \|`).FindAllString(out, -1)
	if len(rows) != rounds || !strings.Contains(out, "(median of ") || !strings.Contains(out, "spread over ") {
		t.Errorf("%d round rows, want %d, then the medians and the spread:\n%s", len(rows), rounds, out)
	}
}

// Push: every task's wait ends once, completed, from the agent's
// notifications (run checks it, and that the agent got one send per task
// and no tasks/get); a pending wait holds no goroutine.
func TestPush(t *testing.T) {
	var out bytes.Buffer
	cfg := config{mode: "push", waits: 500, rounds: 2, senders: 4}
	rs, err := run(context.Background(), cfg, &out)
	if err != nil {
		t.Fatal(err)
	}
	checkTable(t, out.String(), cfg.rounds)
	for _, r := range rs {
		// The process's goroutines while 500 waits are pending: the same
		// as before them, give or take a few of the runtime's or the
		// servers'.
		if r.goPerWait > 0.02 {
			t.Errorf("%.3f goroutines per pending wait, want none", r.goPerWait)
		}
		if r.heapPerWait <= 0 || r.heapPerWait > 64<<10 {
			t.Errorf("%.0f bytes per pending wait: not a measure", r.heapPerWait)
		}
		if r.notifRate <= 0 || r.bareRate <= 0 || r.drain <= 0 {
			t.Errorf("%+v: rates and drain time not measured", r)
		}
	}
}

// Poll, by WaitTasks and by a goroutine and WaitTask per task: every
// task's wait ends once, completed (run checks it); each task is asked for
// at least twice (working, then completed); the agent accepts about as
// many connections as the client's bound on polls in flight, not one per
// wait.
func TestPoll(t *testing.T) {
	for _, poller := range []string{"WaitTasks", "WaitTask"} {
		t.Run(poller, func(t *testing.T) {
			var out bytes.Buffer
			cfg := config{mode: "poll", poller: poller, waits: 500, rounds: 1, senders: 4}
			rs, err := run(context.Background(), cfg, &out)
			if err != nil {
				t.Fatal(err)
			}
			checkTable(t, out.String(), cfg.rounds)
			r := rs[0]
			if r.gets < 2*int64(cfg.waits) || r.accepted < 1 || r.peakOpen < 1 || r.peakInflight < 1 {
				t.Errorf("%+v: want 2 tasks/get per task at least, connections and requests counted", r)
			}
			// The bound, with room for a connection dialled while another
			// was on its way back to the idle pool.
			if r.accepted > 2*a2a.DefaultMaxPollsInFlight {
				t.Errorf("the agent accepted %d connections for %d waits, want about %d at most", r.accepted, cfg.waits, a2a.DefaultMaxPollsInFlight)
			}
			goroutines := r.goPerWait * float64(cfg.waits)
			switch {
			case poller == "WaitTask" && r.goPerWait < 1:
				t.Errorf("%.3f goroutines per pending wait, want the caller's goroutine per WaitTask", r.goPerWait)
			// WaitTasks: the scheduler's workers, the connections'
			// goroutines and those of each request in flight (net/http's),
			// none per wait.
			case poller == "WaitTasks" && goroutines > 8*a2a.DefaultMaxPollsInFlight:
				t.Errorf("%.0f goroutines while %d waits are pending, want no more than the bound's", goroutines, cfg.waits)
			}
		})
	}
}

func TestBadConfig(t *testing.T) {
	for _, cfg := range []config{
		{mode: "stream", waits: 1, rounds: 1, senders: 1},
		{mode: "push", waits: 0, rounds: 1, senders: 1},
		{mode: "poll", poller: "WaitTasks", waits: 1, rounds: 0, senders: 1},
		{mode: "poll", poller: "Stream", waits: 1, rounds: 1, senders: 1},
		{mode: "push", waits: 1, rounds: 1, senders: 0},
	} {
		if _, err := run(context.Background(), cfg, &bytes.Buffer{}); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}
