package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestFailed runs the program on each binding: every case is told apart
// the same way, whether the agent answers with JSON-RPC errors or with
// HTTP statuses and google.rpc.Status bodies.
func TestFailed(t *testing.T) {
	want := `failed:   task failed (a value, err == nil): 查询失败:码不存在或无法解析
rejected: the agent declined the task: 只读服务，不执行写入
timeout:  gave up waiting: attempts ran out after 3 attempts, last state "working" (not a server failure)
canceled: task canceled; side effects already made are not undone
lost:     the agent no longer knows this task (Caoliao keeps tasks in memory only)
gateway:  HTTP 502 from the way in, not from the agent
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

func TestFailedFlags(t *testing.T) {
	for _, args := range [][]string{{"-transport", "grpc"}, {"-version", "2.0"}} {
		var out bytes.Buffer
		if err := run(context.Background(), &out, args); err == nil || out.String() != "" {
			t.Errorf("%q: err %v, output %q; want an error before any call", args, err, out.String())
		}
	}
	var out bytes.Buffer
	if err := run(context.Background(), &out, []string{"-h"}); !errors.Is(err, flag.ErrHelp) || !strings.Contains(out.String(), "-transport") {
		t.Errorf("-h: err %v, output %q", err, out.String())
	}
}
