package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestDiscover runs the program against its offline agent in both
// versions: the client takes its version from the card.
func TestDiscover(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		var out bytes.Buffer
		if err := run(context.Background(), &out, []string{"-version", version}); err != nil {
			t.Fatalf("-version %s: %v", version, err)
		}
		if diff := cmp.Diff(want(version), out.String()); diff != "" {
			t.Errorf("-version %s: output (-want +got):\n%s", version, diff)
		}
	}
}

// TestDiscoverFlags runs the program's -base and -api-key path against an
// agent that refuses calls without the key, in both versions.
func TestDiscoverFlags(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		opts := []a2atest.Option{a2atest.OnSend(a2atest.Caoliao), a2atest.WithCard(offlineCard()), a2atest.RequireAPIKey("key-1")}
		if version == a2a.ProtocolV10 {
			opts = append(opts, a2atest.V10())
		}
		agent := a2atest.NewServer(opts...)
		defer agent.Close()
		var out bytes.Buffer
		args := []string{"-base", strings.TrimSuffix(agent.URL, "/a2a/jsonrpc"), "-api-key", "key-1"}
		if err := run(context.Background(), &out, args); err != nil {
			t.Fatalf("a v%s agent: %v", version, err)
		}
		if diff := cmp.Diff(want(version), out.String()); diff != "" {
			t.Errorf("a v%s agent: output (-want +got):\n%s", version, diff)
		}
	}
}

// want is the program's whole output for an agent of version.
func want(version string) string {
	return `agent: 草料二维码 (offline) (version 1.0.0)
  skill entity: What a code is
  skill records: Records kept on a code
  streaming=false pushNotifications=false
client: JSONRPC, A2A v` + version + `
send: completed: 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
stream: refused without a request (capabilities.streaming is false)
`
}
