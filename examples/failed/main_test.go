package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestFailed(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	want := `failed:   task failed (a value, err == nil): 查询失败:码不存在或无法解析
rejected: the agent declined the task: 只读服务，不执行写入
timeout:  gave up waiting: attempts ran out after 3 attempts, last state "working" (not a server failure)
canceled: task canceled; side effects already made are not undone
lost:     the agent no longer knows this task (Caoliao keeps tasks in memory only)
gateway:  HTTP 502 from the way in, not from the agent
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
