package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestFollowUp(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, "A08-03-06"); err != nil {
		t.Fatal(err)
	}
	want := `agent asks: 请提供要查询的设备编号
we answer:  A08-03-06
task task-1 (context ctx-1): completed
summary: 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
history: 2 messages
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
