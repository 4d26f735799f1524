package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// A few hundred tasks over three replicas, one killed and restarted after
// the first third: every task collected once, none lost; notifications were
// passed between replicas, and the restarted replica resumed waits (those
// of its tasks still running when it was killed). Polls are almost always
// none, but a notification the killed replica was taking at the kill is
// gone with it (or, passed to it and not yet acknowledged, comes again only
// after the relay's ack wait), so that wait may end by its fallback poll:
// later, not lost. At most 1 % of the tasks may be polled so.
func TestReplicas(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		t.Run(version, func(t *testing.T) {
			cfg := config{tasks: 300, maxDelay: time.Second, timeout: 2 * time.Minute, version: version}
			st, err := run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if st.sends != cfg.tasks || st.collected != cfg.tasks || st.duplicates != 0 || st.failed != 0 || st.polls > cfg.tasks/100 {
				t.Errorf("%+v: want every task sent once, collected once, none failed, at most %d tasks/get", st, cfg.tasks/100)
			}
			if st.polls > 0 {
				t.Logf("%d waits ended by their fallback poll (a notification taken at the kill)", st.polls)
			}
			if st.passed == 0 || st.resumed == 0 {
				t.Errorf("%+v: want notifications passed between replicas and waits resumed", st)
			}
			var out bytes.Buffer
			st.print(&out, cfg)
			if !strings.Contains(out.String(), "300 collected, 0 duplicates, 0 lost") {
				t.Errorf("printed:\n%s", out.String())
			}
		})
	}
}
