package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestStream runs the program in both versions. They differ in one line:
// a v1.0 subscription (SubscribeToTask) starts with the task as it
// stands.
func TestStream(t *testing.T) {
	tests := []struct {
		args   []string
		resume string // the first line after resubscribing
	}{
		{nil, ""},
		{[]string{"-version", "1.0"}, "task task-1: working\n"},
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
