package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestStream(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want := `task task-1: submitted
  status: working
  artifact entity = "数控车床-A08-03-06;"
(the stream closed before the final event: resubscribing)
  status: working
  artifact entity = "数控车床-A08-03-06;状态:设备运行状态=正常"
  status: completed
final: completed, entity = "数控车床-A08-03-06;状态:设备运行状态=正常"
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
