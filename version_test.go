package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestProtocolVersionOption: WithProtocolVersion takes the versions the
// client speaks, in the spellings agents write them, and nothing else.
func TestProtocolVersionOption(t *testing.T) {
	for _, tc := range []struct {
		give, want string
	}{
		{"", ""}, {"0.3", a2a.ProtocolV03}, {"0.3.0", a2a.ProtocolV03}, {"1.0", a2a.ProtocolV10},
		{"1.0.1", a2a.ProtocolV10}, {"1.1", a2a.ProtocolV10}, {" 1.0 ", a2a.ProtocolV10},
		{"1", ""}, {"2.0", ""}, {"v1.0", ""}, {"latest", ""}, {"1.0.0.0", ""},
	} {
		opts := []a2a.Option{}
		if tc.give != "" {
			opts = append(opts, a2a.WithProtocolVersion(tc.give))
		}
		c, err := a2a.NewClient(mockURL, opts...)
		switch {
		case tc.give == "":
			if err != nil || c.ProtocolVersion() != a2a.ProtocolV03 {
				t.Errorf("default: %v, %v; want v0.3", c.ProtocolVersion(), err)
			}
		case tc.want == "":
			if err == nil || !strings.Contains(err.Error(), "protocol version") {
				t.Errorf("%q: %v; want an error naming the protocol version", tc.give, err)
			}
		case err != nil || c.ProtocolVersion() != tc.want:
			t.Errorf("%q: %v, %v; want %s", tc.give, c.ProtocolVersion(), err, tc.want)
		}
	}
	var nilClient *a2a.Client
	if v, tn := nilClient.ProtocolVersion(), nilClient.Tenant(); v != "" || tn != "" {
		t.Errorf("nil client's version %q, tenant %q", v, tn)
	}
	if _, err := a2a.NewClient(mockURL, a2a.WithHeader("a2a-version", "1.0")); err == nil || !strings.Contains(err.Error(), "WithProtocolVersion") {
		t.Errorf("WithHeader(A2A-Version): %v; want an error naming WithProtocolVersion", err)
	}
}

// TestTenantNeedsV10: a tenant is A2A v1.0's; a v0.3 client refuses it
// when made and per call, before sending anything.
func TestTenantNeedsV10(t *testing.T) {
	if _, err := a2a.NewClient(mockURL, a2a.WithTenant("t1")); err == nil || !strings.Contains(err.Error(), "v1.0") {
		t.Errorf("WithTenant on v0.3: %v; want an error naming v1.0", err)
	}
	for _, bad := range []string{"", "a\nb"} {
		if _, err := a2a.NewClient(mockURL, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTenant(bad)); err == nil {
			t.Errorf("WithTenant(%q): no error", bad)
		}
	}
	c, f := newMock(t, []mockReply{rpcReply(fixture(t, "send_completed_entity.json"))})
	if _, err := c.GetTask(context.Background(), "t1", a2a.Tenant("t1")); err == nil || !strings.Contains(err.Error(), "v1.0") {
		t.Errorf("Tenant on a v0.3 call: %v; want an error naming v1.0", err)
	}
	if _, err := c.GetTask(context.Background(), "t1", a2a.Tenant("a\x1bb")); err == nil {
		t.Error("a tenant with an escape: no error")
	}
	if n := f.count(); n != 0 {
		t.Errorf("%d requests sent; want none", n)
	}
}

// TestListTasksNeedsV10: ListTasks on a v0.3 client is an
// *UnsupportedByVersionError matching ErrUnsupportedOperation, and
// nothing is sent.
func TestListTasksNeedsV10(t *testing.T) {
	c, f := newMock(t, []mockReply{rpcReply([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))})
	for _, err := range []error{
		func() error { _, err := c.ListTasksPage(context.Background(), a2a.ListTasksRequest{}); return err }(),
		func() error {
			for _, err := range c.ListTasks(context.Background(), a2a.ListTasksRequest{}) {
				return err
			}
			return nil
		}(),
	} {
		var ue *a2a.UnsupportedByVersionError
		if !errors.As(err, &ue) || ue.Method != "ListTasks" || ue.Version != a2a.ProtocolV03 || !errors.Is(err, a2a.ErrUnsupportedOperation) {
			t.Errorf("ListTasks on v0.3: %v; want an *UnsupportedByVersionError", err)
		}
	}
	if n := f.count(); n != 0 {
		t.Errorf("%d requests sent; want none", n)
	}
}

// TestVersionHeader: every request carries the client's version in
// A2A-Version, and the card GET asks for v1.0 whatever the client speaks.
func TestVersionHeader(t *testing.T) {
	for _, version := range []string{a2a.ProtocolV03, a2a.ProtocolV10} {
		var mu sync.Mutex
		var got []string
		srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
			mu.Lock()
			got = append(got, r.Method+" "+r.Header.Get("A2A-Version"))
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			if r.Method == http.MethodGet {
				w.Write([]byte(`{"name":"a","url":"` + "http://" + r.Host + `/rpc","version":"1"}`))
				return
			}
			w.Write([]byte(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32001,"message":"no"}}`))
		}})
		c, err := a2a.NewClient(srv.URL, a2a.WithProtocolVersion(version))
		if err != nil {
			t.Fatal(err)
		}
		c.GetTask(context.Background(), "t1")
		if _, err := a2a.ResolveAgentCard(context.Background(), srv.URL, a2a.WithProtocolVersion(version)); err != nil {
			t.Fatal(err)
		}
		want := []string{"POST " + version, "GET " + a2a.ProtocolV10}
		mu.Lock()
		defer mu.Unlock()
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: requests %q; want %q", version, got, want)
		}
	}
}

// TestClientFromCardVersion: NewClientFromCard speaks the version of the
// interface it takes (card order, whatever the versions) and sends its
// tenant; WithProtocolVersion picks another entry, WithTenant overrides
// the entry's tenant.
func TestClientFromCardVersion(t *testing.T) {
	const dual = `{"name":"a","description":"d","version":"1","capabilities":{},"defaultInputModes":[],"defaultOutputModes":[],"skills":[],
		"supportedInterfaces":[{"url":"https://agent.example/v03","protocolBinding":"JSONRPC","protocolVersion":"0.3"},
		{"url":"https://agent.example/v10","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":"acme"}]}`
	var card a2a.AgentCard
	if err := json.Unmarshal([]byte(dual), &card); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name            string
		opts            []a2a.Option
		version, tenant string
		path            string // the endpoint's: an entry's URL with its own version
		err             string
	}{
		{name: "card's choice", version: a2a.ProtocolV03, path: "/v03"},
		{name: "v1.0 named", opts: []a2a.Option{a2a.WithProtocolVersion("1.0")}, version: a2a.ProtocolV10, tenant: `"tenant":"acme"`, path: "/v10"},
		{name: "own tenant", opts: []a2a.Option{a2a.WithProtocolVersion("1.0"), a2a.WithTenant("other")}, version: a2a.ProtocolV10, tenant: `"tenant":"other"`, path: "/v10"},
		{name: "own tenant on the card's v0.3 choice", opts: []a2a.Option{a2a.WithTenant("other")}, err: "v1.0"},
		{name: "v0.3 named", opts: []a2a.Option{a2a.WithProtocolVersion("0.3")}, version: a2a.ProtocolV03, path: "/v03"},
		{name: "v0.3 named with a tenant", opts: []a2a.Option{a2a.WithProtocolVersion("0.3"), a2a.WithTenant("x")}, err: "v1.0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var path string
			f := &fake{t: t, replies: []mockReply{{serve: func(w http.ResponseWriter, r *http.Request, id string) {
				path = r.URL.Path
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32001,"message":"no"}}`))
			}}}}
			opts := append([]a2a.Option{a2a.WithHTTPClient(&http.Client{Transport: f.transport()})}, tc.opts...)
			c, err := a2a.NewClientFromCard(&card, opts...)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v; want one naming %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.ProtocolVersion() != tc.version {
				t.Errorf("version %s; want %s", c.ProtocolVersion(), tc.version)
			}
			if want := strings.TrimSuffix(strings.TrimPrefix(tc.tenant, `"tenant":"`), `"`); c.Tenant() != want {
				t.Errorf("Tenant() %q; want %q", c.Tenant(), want)
			}
			c.GetTask(context.Background(), "t1")
			if path != tc.path {
				t.Errorf("endpoint path %q; want %q", path, tc.path)
			}
			sent := string(f.got[len(f.got)-1].raw)
			if tc.tenant != "" && !strings.Contains(sent, tc.tenant) || tc.tenant == "" && strings.Contains(sent, "tenant") {
				t.Errorf("sent %s; want tenant %q", sent, tc.tenant)
			}
		})
	}
}

// TestListTasksStatusUnknown: "unknown" cannot filter ListTasks (v1.0
// would read it as any state); it is refused before sending.
func TestListTasksStatusUnknown(t *testing.T) {
	f := &fake{t: t, replies: []mockReply{rpcReply([]byte(`{"jsonrpc":"2.0","id":1,"result":{"tasks":[]}}`))}}
	c, err := a2a.NewClient(mockURL, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithHTTPClient(&http.Client{Transport: f.transport()}))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []a2a.TaskState{a2a.TaskStateUnknown, "TASK_STATE_UNSPECIFIED", "paused"} {
		if _, err := c.ListTasksPage(context.Background(), a2a.ListTasksRequest{Status: s}); err == nil {
			t.Errorf("status %q: no error", s)
		}
	}
	if n := f.count(); n != 0 {
		t.Errorf("%d requests sent; want none", n)
	}
}
