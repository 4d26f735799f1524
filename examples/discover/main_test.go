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

// bindings are the four bindings the program runs on: the agent's, which
// the client reads from its card, and the flags that pick each (none:
// JSON-RPC, A2A v0.3).
var bindings = []struct {
	transport, version string
	args               []string
}{
	{a2a.TransportJSONRPC, a2a.ProtocolV03, nil},
	{a2a.TransportJSONRPC, a2a.ProtocolV10, []string{"-version", "1.0"}},
	{a2a.TransportHTTPJSON, a2a.ProtocolV10, []string{"-transport", "http+json", "-version", "1.0"}},
	{a2a.TransportHTTPJSON, a2a.ProtocolV03, []string{"-transport", "http+json"}},
}

// TestDiscover runs the program against its offline agent on each binding:
// the client takes the binding and the version from the card, and the
// calls print the same.
func TestDiscover(t *testing.T) {
	for _, b := range bindings {
		var out bytes.Buffer
		if err := run(context.Background(), &out, b.args); err != nil {
			t.Fatalf("%q: %v", b.args, err)
		}
		if diff := cmp.Diff(want(b.transport, b.version), out.String()); diff != "" {
			t.Errorf("%q: output (-want +got):\n%s", b.args, diff)
		}
	}
}

// TestDiscoverFlags runs the program's -base and -api-key path against an
// agent that refuses calls without the key, on each binding.
func TestDiscoverFlags(t *testing.T) {
	for _, b := range bindings {
		opts := []a2atest.Option{a2atest.OnSend(a2atest.Caoliao), a2atest.Bindings(b.transport),
			a2atest.WithCard(offlineCard(b.transport)), a2atest.RequireAPIKey("key-1")}
		if b.version == a2a.ProtocolV10 {
			opts = append(opts, a2atest.V10())
		}
		agent := a2atest.NewServer(opts...)
		defer agent.Close()
		var out bytes.Buffer
		args := []string{"-base", agent.BaseURL(), "-api-key", "key-1"}
		if err := run(context.Background(), &out, args); err != nil {
			t.Fatalf("a %s v%s agent: %v", b.transport, b.version, err)
		}
		if diff := cmp.Diff(want(b.transport, b.version), out.String()); diff != "" {
			t.Errorf("a %s v%s agent: output (-want +got):\n%s", b.transport, b.version, diff)
		}
		if got := agent.Requests(); len(got) == 0 || !strings.HasPrefix(got[len(got)-1].Path, strings.TrimPrefix(agent.URL, agent.BaseURL())) {
			t.Errorf("a %s v%s agent: the send did not go to %s: %+v", b.transport, b.version, agent.URL, got)
		}
	}
}

func TestDiscoverBadFlag(t *testing.T) {
	for _, args := range [][]string{{"-transport", "grpc"}, {"-version", "2.0"}, {"-version", "abc"}} {
		var out bytes.Buffer
		if err := run(context.Background(), &out, args); err == nil || out.String() != "" {
			t.Errorf("%q: err %v, output %q; want an error before any call", args, err, out.String())
		}
	}
}

// want is the program's whole output for an agent of transport and
// version: the line naming the client's choice is the only one that
// differs.
func want(transport, version string) string {
	return `agent: 草料二维码 (offline) (version 1.0.0)
  skill entity: What a code is
  skill records: Records kept on a code
  streaming=false pushNotifications=false
client: ` + transport + `, A2A v` + version + `
send: completed: 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
stream: refused without a request (capabilities.streaming is false)
`
}
