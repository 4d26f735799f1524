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

func TestDiscover(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, nil); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// TestDiscoverFlags runs the program's -base and -api-key path against an
// agent that refuses calls without the key.
func TestDiscoverFlags(t *testing.T) {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao), a2atest.WithCard(offlineCard()), a2atest.RequireAPIKey("key-1"))
	defer agent.Close()
	var out bytes.Buffer
	args := []string{"-base", strings.TrimSuffix(agent.URL, "/a2a/jsonrpc"), "-api-key", "key-1"}
	if err := run(context.Background(), &out, args); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

// want is the program's whole output.
const want = `agent: 草料二维码 (offline) (version 1.0.0, protocol 0.3.0)
  skill entity: What a code is
  skill records: Records kept on a code
  streaming=false pushNotifications=false
message/send: completed: 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
message/stream: refused without a request (capabilities.streaming is false)
`
