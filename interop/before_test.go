//go:build before

package interop

// The root package as it stood at an earlier commit, as one more client
// ("before"), for a before/after comparison in one process:
// BEFORE=<commit> bench.sh builds it into a temporary module
// before.local/a2a and runs the benchmarks with -tags before.

import (
	"context"
	"encoding/json"
	"net/http"

	before "before.local/a2a"
)

// The caller below is oursCaller's body written against the earlier
// package: the two packages' types differ, so one function cannot serve
// both.
func init() {
	clients = append(clients, client{name: "before", make: func(base string, hc *http.Client) caller {
		c, err := before.NewClient(base+jsonrpcPath, before.WithHTTPClient(hc))
		if err != nil {
			panic(err)
		}
		return func(ctx context.Context, w workload) (string, error) {
			if w.send {
				t, err := c.SendText(ctx, "这个二维码是什么？")
				if err != nil {
					return "", err
				}
				return string(t.Status.State), nil
			}
			t, err := c.GetTask(ctx, w.taskID)
			if err != nil {
				return "", err
			}
			return string(t.Status.State), nil
		}
	}, stored: func(raw []byte) (string, error) {
		var t before.Task
		err := json.Unmarshal(raw, &t)
		return string(t.Status.State), err
	}})
}
