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
// the first third: every task collected once, none lost, none polled;
// notifications were passed between replicas, and the restarted replica
// resumed waits (those of its tasks still running when it was killed).
func TestReplicas(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		t.Run(version, func(t *testing.T) {
			cfg := config{tasks: 300, maxDelay: time.Second, timeout: 2 * time.Minute, version: version}
			st, err := run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if st.sends != cfg.tasks || st.collected != cfg.tasks || st.duplicates != 0 || st.failed != 0 || st.polls != 0 {
				t.Errorf("%+v: want every task sent once, collected once, none failed, no tasks/get", st)
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
