package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestStream runs the program on each binding. They differ in one line: a
// subscription starts with the task as it stands in A2A v1.0
// (SubscribeToTask) and over HTTP+JSON in either version (a2atest's v0.3
// REST agent does as v1.0's), not on JSON-RPC v0.3 (tasks/resubscribe).
func TestStream(t *testing.T) {
	const asItStands = "task task-1: working\n"
	tests := []struct {
		args   []string
		resume string // the first line after resubscribing
	}{
		{nil, ""}, // JSON-RPC, A2A v0.3
		{[]string{"-version", "1.0"}, asItStands},
		{[]string{"-transport", "http+json", "-version", "1.0"}, asItStands},
		{[]string{"-transport", "http+json"}, asItStands},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if err := run(context.Background(), &out, tt.args); err != nil {
			t.Fatal(err)
		}
		want := `task task-1: submitted
  status: working
  artifact entity = "数控车床-A08-03-06;"
(the stream closed before the task was final: resubscribing)
` + tt.resume + `  status: working
  artifact entity = "数控车床-A08-03-06;状态:设备运行状态=正常"
  status: completed
final: completed, entity = "数控车床-A08-03-06;状态:设备运行状态=正常"
`
		if diff := cmp.Diff(want, out.String()); diff != "" {
			t.Errorf("%q: output (-want +got):\n%s", tt.args, diff)
		}
	}
}

func TestStreamBadFlag(t *testing.T) {
	for _, args := range [][]string{{"-transport", "grpc"}, {"-version", "2.0"}} {
		var out bytes.Buffer
		if err := run(context.Background(), &out, args); err == nil || out.String() != "" {
			t.Errorf("%q: err %v, output %q; want an error before any call", args, err, out.String())
		}
	}
}
