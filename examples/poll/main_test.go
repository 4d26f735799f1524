package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestPoll runs the program on each binding: the same polls and result.
// The last line differs: over HTTP+JSON, which has no request envelope,
// there is no agent selector to check.
func TestPoll(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		checked string
	}{
		{nil, "the headers and agent_code"}, // JSON-RPC, A2A v0.3
		{[]string{"-version", "1.0"}, "the headers and agent_code"},
		{[]string{"-transport", "http+json", "-version", "1.0"}, "the headers"},
		{[]string{"-transport", "http+json"}, "the headers"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel() // each waits for its polls
			var out bytes.Buffer
			if err := run(context.Background(), &out, tt.args); err != nil {
				t.Fatal(err)
			}
			want := `started task-1: submitted
attempt 1: working
attempt 2: working
attempt 3: completed
completed: 共 2 条记录：合格 1 条，不合格 1 条
  r1 合格
  r2 不合格
tasks/get calls: 3, each with ` + tt.checked + ` checked
`
			if diff := cmp.Diff(want, out.String()); diff != "" {
				t.Errorf("%q: output (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}

func TestPollBadFlag(t *testing.T) {
	for _, args := range [][]string{{"-transport", "grpc"}, {"-version", "2.0"}} {
		var out bytes.Buffer
		if err := run(context.Background(), &out, args); err == nil || out.String() != "" {
			t.Errorf("%q: err %v, output %q; want an error before any call", args, err, out.String())
		}
	}
}
