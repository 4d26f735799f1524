package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// bindings are the four bindings the program runs on: the flags that pick
// each (none: JSON-RPC, A2A v0.3) and how its first line names it.
var bindings = []struct {
	transport, version string
	args               []string
	banner             string
}{
	{a2a.TransportJSONRPC, a2a.ProtocolV03, nil, "A2A v0.3"},
	{a2a.TransportJSONRPC, a2a.ProtocolV10, []string{"-version", "1.0"}, "A2A v1.0"},
	{a2a.TransportHTTPJSON, a2a.ProtocolV10, []string{"-transport", "http+json", "-version", "1.0"}, "A2A v1.0 over HTTP+JSON"},
	{a2a.TransportHTTPJSON, a2a.ProtocolV03, []string{"-transport", "HTTP+JSON"}, "A2A v0.3 over HTTP+JSON"},
}

// TestQuickstart runs the program against its offline agent, as
// `go run ./examples/quickstart` does, on each binding, and checks
// everything it prints: the same calls and results on all four.
func TestQuickstart(t *testing.T) {
	for _, b := range bindings {
		t.Run(b.banner, func(t *testing.T) {
			t.Parallel() // each waits for its polls
			var out bytes.Buffer
			if err := run(context.Background(), &out, b.args); err != nil {
				t.Fatal(err)
			}
			want := "(using the offline fake agent, " + b.banner + "; pass -url to call a real one)\n" + wantCalls
			if diff := cmp.Diff(want, out.String()); diff != "" {
				t.Errorf("%q: output (-want +got):\n%s", b.args, diff)
			}
		})
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
// agent that refuses any request without those headers and selector, on
// each binding. HTTP+JSON has no envelope to carry the agent selector (the
// client refuses -agent-id there: TestQuickstartBadFlag), so over it the
// agent checks the headers alone.
func TestQuickstartGateway(t *testing.T) {
	for _, b := range bindings {
		t.Run(b.banner, func(t *testing.T) {
			t.Parallel()
			rest := b.transport == a2a.TransportHTTPJSON
			opts := []a2atest.Option{a2atest.OnSend(a2atest.Caoliao), a2atest.Bindings(b.transport),
				a2atest.RequireAPIKey("key-1"), a2atest.RequireWorkspace("ws-1")}
			if !rest {
				opts = append(opts, a2atest.RequireAgentID("agent-1"))
			}
			if b.version == a2a.ProtocolV10 {
				opts = append(opts, a2atest.V10())
			}
			agent := a2atest.NewServer(opts...)
			defer agent.Close()
			args := append([]string{"-url", agent.URL, "-api-key", "key-1", "-workspace", "ws-1"}, b.args...)
			if !rest {
				args = append(args, "-agent-id", "agent-1")
			}
			var out bytes.Buffer
			if err := run(context.Background(), &out, args); err != nil {
				t.Fatalf("%q: %v", args, err)
			}
			if diff := cmp.Diff(wantCalls, out.String()); diff != "" {
				t.Errorf("%q: output (-want +got):\n%s", args, diff)
			}
			for _, r := range agent.Requests() {
				if r.Header.Get("X-API-Key") != "key-1" {
					t.Errorf("%s %s without the API key", r.HTTPMethod, r.Path)
				}
			}
		})
	}
}

func TestQuickstartBadFlag(t *testing.T) {
	for _, args := range [][]string{{"-url", "not a url"}, {"-version", "2.0"}, {"-transport", "grpc"},
		{"-transport", "http+json", "-agent-id", "agent-1"}} { // a JSON-RPC envelope member
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
