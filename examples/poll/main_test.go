package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestPoll(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want := `started task-1: submitted
attempt 1: working
attempt 2: working
attempt 3: completed
completed: 共 2 条记录：合格 1 条，不合格 1 条
  r1 合格
  r2 不合格
tasks/get calls: 3, each with the headers and agent_code checked
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
