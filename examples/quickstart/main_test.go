package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestQuickstart runs the program against its offline agent, as
// `go run ./examples/quickstart` and `go run ./examples/quickstart -version
// 1.0` do, and checks everything it prints: the same for both versions.
func TestQuickstart(t *testing.T) {
	for _, version := range []string{"0.3", "1.0"} {
		var out bytes.Buffer
		args := []string{"-version", version}
		if version == "0.3" {
			args = nil // the default
		}
		if err := run(context.Background(), &out, args); err != nil {
			t.Fatal(err)
		}
		want := "(using the offline fake agent, A2A v" + version + "; pass -url to call a real one)\n" + wantCalls
		if diff := cmp.Diff(want, out.String()); diff != "" {
			t.Errorf("-version %s: output (-want +got):\n%s", version, diff)
		}
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
// agent that refuses any request without those headers and selector, in
// either version.
func TestQuickstartGateway(t *testing.T) {
	for _, version := range []string{"0.3", "1.0"} {
		opts := []a2atest.Option{a2atest.OnSend(a2atest.Caoliao), a2atest.RequireAPIKey("key-1"),
			a2atest.RequireWorkspace("ws-1"), a2atest.RequireAgentID("agent-1")}
		if version == "1.0" {
			opts = append(opts, a2atest.V10())
		}
		agent := a2atest.NewServer(opts...)
		defer agent.Close()
		var out bytes.Buffer
		args := []string{"-url", agent.URL, "-api-key", "key-1", "-workspace", "ws-1", "-agent-id", "agent-1", "-version", version}
		if err := run(context.Background(), &out, args); err != nil {
			t.Fatalf("-version %s: %v", version, err)
		}
		if diff := cmp.Diff(wantCalls, out.String()); diff != "" {
			t.Errorf("-version %s: output (-want +got):\n%s", version, diff)
		}
	}
}

func TestQuickstartBadFlag(t *testing.T) {
	for _, args := range [][]string{{"-url", "not a url"}, {"-version", "2.0"}} {
		var out bytes.Buffer
		if err := run(context.Background(), &out, args); err == nil || out.String() != "" {
			t.Errorf("%q: err %v, output %q; want an error before any call", args, err, out.String())
		}
	}
}

// -h prints the usage and returns flag.ErrHelp, which main treats as
// success (exit status 0).
func TestQuickstartHelp(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), &out, []string{"-h"})
	if !errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), "-url") {
		t.Errorf("err %v, output %q", err, out.String())
	}
}
