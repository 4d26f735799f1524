package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDiscover(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, nil); err != nil {
		t.Fatal(err)
	}
	want := `agent: 草料二维码 (offline) (version 1.0.0, protocol 0.3.0)
  skill entity: What a code is
  skill records: Records kept on a code
  streaming=false pushNotifications=false
message/send: completed: 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
message/stream: refused without a request (capabilities.streaming is false)
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
