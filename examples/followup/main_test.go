package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestFollowUp runs the program on each binding: the same question, the
// same follow-up on the same task, the same result.
func TestFollowUp(t *testing.T) {
	want := `agent asks: 请提供要查询的设备编号
we answer:  A08-03-06
task task-1 (context ctx-1): completed
summary: 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
history: 2 messages
`
	for _, args := range [][]string{
		nil, // JSON-RPC, A2A v0.3
		{"-version", "1.0"},
		{"-transport", "http+json", "-version", "1.0"},
		{"-transport", "http+json"},
	} {
		var out bytes.Buffer
		if err := run(context.Background(), &out, args); err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if diff := cmp.Diff(want, out.String()); diff != "" {
			t.Errorf("%q: output (-want +got):\n%s", args, diff)
		}
	}
}

func TestFollowUpBadFlag(t *testing.T) {
	for _, args := range [][]string{{"-transport", "grpc"}, {"-version", "2.0"}} {
		var out bytes.Buffer
		if err := run(context.Background(), &out, args); err == nil || out.String() != "" {
			t.Errorf("%q: err %v, output %q; want an error before any call", args, err, out.String())
		}
	}
}
