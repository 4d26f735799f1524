package interop

import (
	"errors"
	"maps"
	"net/http"
	"slices"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestGoPeerREST runs the scenario matrix (runMatrixV10) against
// github.com/a2aproject/a2a-go/v2 v2.4.0's HTTP+JSON server, in-process on
// loopback (startRESTPeer): A2A v1.0 without and with a tenant, and A2A
// v0.3 through its compat layer. Every request the peer receives is
// checked against the proto's HTTP rules, and every RPC of the service
// must be among the valid ones.
func TestGoPeerREST(t *testing.T) {
	p := startRESTPeer(t)
	// complete holds the interfaces a run of the matrix went through with
	// every scenario (a -run pattern may leave some out): every RPC was
	// due there.
	complete := map[string]bool{}
	matrix := func(t *testing.T, prefix, run string, newClient func(t *testing.T, user string) *a2a.Client) {
		if ran, total := runMatrixV10(t, p.gates, run, newClient); total > 0 && ran == total {
			complete[prefix] = true
		}
	}

	t.Run("v1.0", func(t *testing.T) {
		matrix(t, restPrefix, "rest", dialREST(p.url(restPrefix), a2a.ProtocolV10))
	})
	t.Run("v1.0 tenant", func(t *testing.T) {
		matrix(t, tenantPrefix, "tenant", dialREST(p.url(tenantPrefix), a2a.ProtocolV10, a2a.WithTenant("acme")))
	})
	t.Run("v1.0 tenant of several segments", func(t *testing.T) {
		matrix(t, gcpPrefix, "gcp", dialREST(p.url(gcpPrefix), a2a.ProtocolV10, a2a.WithTenant(gcpTenant)))
	})

	t.Run("v1.0 subscribe by GET after a 405", func(t *testing.T) {
		matrix(t, getSubPrefix, "getsub", dialREST(p.url(getSubPrefix), a2a.ProtocolV10))
		var verbs []string
		for _, req := range p.guards[getSubPrefix].requests() {
			if req.rpc == "SubscribeToTask" {
				verbs = append(verbs, req.method)
			}
		}
		// One POST refused, then GET, and the client stays on GET.
		if diff := cmp.Diff([]string{http.MethodPost, http.MethodGet}, verbs); diff != "" {
			t.Errorf("subscribe verbs (-want +got):\n%s", diff)
		}
	})

	t.Run("v0.3 through the compat layer", func(t *testing.T) {
		matrix(t, rest03Prefix, "rest03", dialREST(p.url(rest03Prefix), a2a.ProtocolV03))
	})

	t.Run("v1.0 from the card, which lists HTTP+JSON first", func(t *testing.T) {
		card, err := a2a.ResolveAgentCard(testCtx(t), p.base)
		if err != nil {
			t.Fatal(err)
		}
		dial := dialFromCard(card, p.url(restPrefix), a2a.ProtocolV10)
		before, rest := p.jsonrpc.Load(), len(p.guards[restPrefix].requests())
		if _, err := dial(t, peerUser).GetTask(testCtx(t), "probe"); !errors.Is(err, a2a.ErrTaskNotFound) {
			t.Fatalf("GetTask of an unknown task from the card's client: %v", err)
		}
		if p.jsonrpc.Load() != before || len(p.guards[restPrefix].requests()) == rest {
			t.Fatal("NewClientFromCard spoke JSON-RPC, the card's second interface, though the card lists HTTP+JSON 1.0 first (A2A v1.0 §8.3.2)")
		}
		runMatrixV10(t, p.gates, "card", dial)
		if n := p.jsonrpc.Load() - before; n != 0 {
			t.Errorf("%d requests went to the JSON-RPC interface", n)
		}
	})

	t.Run("v0.3 from the card, whose preferredTransport is HTTP+JSON", func(t *testing.T) {
		card, err := a2a.ResolveAgentCard(testCtx(t), p.url(card03Prefix))
		if err != nil {
			t.Fatal(err)
		}
		before := len(p.guards[rest03Prefix].requests())
		runMatrixV10(t, p.gates, "card03", dialFromCard(card, p.url(rest03Prefix), a2a.ProtocolV03))
		if len(p.guards[rest03Prefix].requests()) == before {
			t.Error("no request reached the v0.3 REST interface")
		}
	})

	t.Run("the tenant reaches the agent", func(t *testing.T) {
		for _, tt := range []struct {
			prefix, tenant string
			opts           []a2a.CallOption
			want           string
		}{
			{tenantPrefix, "acme", nil, "tenant=acme user=interop"},
			{tenantPrefix, "acme", []a2a.CallOption{a2a.Tenant("other")}, "tenant=other user=interop"},
			{gcpPrefix, gcpTenant, nil, "tenant=" + gcpTenant + " user=interop"},
		} {
			c := dialREST(p.url(tt.prefix), a2a.ProtocolV10, a2a.WithTenant(tt.tenant))(t, peerUser)
			res, err := c.SendMessage(testCtx(t), a2a.NewTextMessage("whoami"), tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if m, ok := res.(*a2a.Message); !ok || m.Text() != tt.want {
				t.Errorf("%s with tenant %q: %#v, want %q", tt.prefix, tt.tenant, res, tt.want)
			}
		}
	})

	t.Run("ids that try to leave their path segment name only themselves", func(t *testing.T) {
		t.Run("v1.0", func(t *testing.T) { escapingIDs(t, dialREST(p.url(restPrefix), a2a.ProtocolV10)(t, peerUser)) })
		t.Run("v0.3", func(t *testing.T) {
			escapingIDs(t, dialREST(p.url(rest03Prefix), a2a.ProtocolV03)(t, peerUser))
		})
	})

	t.Run("requests follow the proto's HTTP rules", func(t *testing.T) {
		for _, prefix := range slices.Sorted(maps.Keys(p.guards)) {
			g := p.guards[prefix]
			if len(g.requests()) == 0 {
				continue // its run skipped
			}
			valid := g.report(t)
			if !complete[prefix] {
				continue
			}
			var want []string
			for _, r := range g.rules.rules {
				if !r.tenant { // one RPC each
					want = append(want, string(r.rpc.Name()))
				}
			}
			if diff := cmp.Diff(want, valid, sortedStrings); diff != "" {
				t.Errorf("%s: RPCs sent and valid (-want +got):\n%s", prefix, diff)
			}
		}
	})
}

// sortedStrings compares string slices as sets.
var sortedStrings = cmpopts.SortSlices(func(a, b string) bool { return a < b })

// escapingIDs checks, with a client of the peer, that task and config ids
// holding what would name another resource if sent unescaped reach the
// server as themselves: a task not found, a config created, read and
// deleted under its own id; "." and ".." are refused before sending.
func escapingIDs(t *testing.T, c *a2a.Client) {
	ctx := testCtx(t)
	task, err := c.SendText(ctx, "entity")
	if err != nil {
		t.Fatal(err)
	}
	// Each names another resource if sent unescaped: the task's
	// config list, a parent path, another query, a fragment, an
	// escaped slash, a cancel.
	for _, id := range []string{task.ID + "/pushNotificationConfigs", "../tasks/" + task.ID, task.ID + "?historyLength=0",
		task.ID + "#x", "%2e%2e", task.ID + ":cancel", "a%2Fb", "sp ace\x00\n"} {
		if _, err := c.GetTask(ctx, id); !errors.Is(err, a2a.ErrTaskNotFound) {
			t.Errorf("GetTask(%q) = %v, want ErrTaskNotFound", id, err)
		}
	}
	// A config id with every such character goes and comes back whole.
	cfg := a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: a2a.PushNotificationConfig{
		ID: "c/../1?x=y#z%2F: 空", URL: "http://127.0.0.1:9/webhook"}}
	if _, err := c.CreateTaskPushNotificationConfig(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	got, err := c.GetTaskPushNotificationConfig(ctx, task.ID, cfg.PushNotificationConfig.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(cfg, *got); diff != "" {
		t.Errorf("get (-want +got):\n%s", diff)
	}
	if err := c.DeleteTaskPushNotificationConfig(ctx, task.ID, cfg.PushNotificationConfig.ID); err != nil {
		t.Fatal(err)
	}
	if list, err := c.ListTaskPushNotificationConfigs(ctx, task.ID); err != nil || len(list) != 0 {
		t.Errorf("after delete: %v, %v", list, err)
	}
	// "." and ".." are refused before sending.
	for _, id := range []string{".", ".."} {
		if _, err := c.GetTask(ctx, id); err == nil || errors.Is(err, a2a.ErrTaskNotFound) {
			t.Errorf("GetTask(%q) = %v, want a refusal before sending", id, err)
		}
	}
}
