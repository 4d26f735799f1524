package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestQuickstart runs the program against its offline agent, as
// `go run ./examples/quickstart` does, and checks everything it prints.
func TestQuickstart(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, nil); err != nil {
		t.Fatal(err)
	}
	want := "(using the offline fake agent; pass -url to call a real one)\n" + wantCalls
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// wantCalls is what the program prints of its three calls.
const wantCalls = `
1. What is this QR code?
   task task-1: completed
   summary: 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
   data: title=数控车床-A08-03-06 organization=草料二维码 设备运行状态=正常

2. A code that does not exist
   task task-2: failed (err == nil)
   reason: 查询失败:码不存在或无法解析

3. A slower query, polled
   task task-3: submitted
   poll 1: working
   poll 2: working
   poll 3: completed
   final: completed
   summary: 共 2 条记录：合格 1 条，不合格 1 条
`

// TestQuickstartGateway runs the README's gateway command line against an
// agent that refuses any request without those headers and selector.
func TestQuickstartGateway(t *testing.T) {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao), a2atest.RequireAPIKey("key-1"),
		a2atest.RequireWorkspace("ws-1"), a2atest.RequireAgentID("agent-1"))
	defer agent.Close()
	var out bytes.Buffer
	args := []string{"-url", agent.URL, "-api-key", "key-1", "-workspace", "ws-1", "-agent-id", "agent-1"}
	if err := run(context.Background(), &out, args); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantCalls, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

func TestQuickstartBadFlag(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, []string{"-url", "not a url"}); err == nil || strings.Contains(out.String(), "1. ") {
		t.Errorf("a bad -url: err %v, output %q; want an error before any call", err, out.String())
	}
}
