package interop

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	peer "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/google/go-cmp/cmp"
)

// The HTTP+JSON (REST) peer: a2a-go v2.4.0's REST handlers, in-process on a
// loopback port, serving the scripted v10Executor (gopeer_v10_test.go)
// through one request handler on several interfaces, each behind a
// restGuard that checks every request against the proto's HTTP rules
// (restrules_test.go).

// The interfaces of the REST peer, under its base URL.
const (
	restPrefix    = "/rest"    // a2asrv.NewRESTHandler: A2A v1.0, no tenant
	tenantPrefix  = "/tenants" // a2asrv.NewTenantRESTHandler("/{*}"): one segment of tenant
	gcpPrefix     = "/gcp"     // a2asrv.NewTenantRESTHandler("/{projects/*/locations/*}"): Google's kind
	getSubPrefix  = "/getsub"  // a2asrv.NewRESTHandler behind refusePOSTSubscribe
	rest03Prefix  = "/rest03"  // a2av0.NewRESTHandler: A2A v0.3 REST (its paths start /v1/)
	jsonrpcPrefix = "/jsonrpc" // a2asrv.NewJSONRPCHandler, the card's second interface
	card03Prefix  = "/v03"     // where the v0.3 agent's card is: {base}/v03/.well-known/agent-card.json
)

// gcpTenant is a tenant of the kind Google's services template
// ({tenant=projects/*/locations/*}): several segments.
const gcpTenant = "projects/p-1/locations/europe west"

// restTolerated are the client's departures from the proto's HTTP rules
// that the checks accept, each with the reason, keyed by "<RPC's full
// name> <fault kind>". Every other fault fails the test.
var restTolerated = map[string]string{
	"lf.a2a.v1.A2AService.SubscribeToTask verb": "the v1.0 specification's prose (§5.3, §11.3.2) says POST /tasks/{id}:subscribe and its proto GET " +
		"(open: A2A#1574); the official clients send POST, and so does this one, falling back to GET on a 405",
	"a2a.v1.A2AService.CreateTaskPushNotificationConfig bodyform": "the v0.3 proto's body is the config (body: \"config\"), " +
		"but the servers read the whole request {parent, configId, config} (a2a-go v2's compat server, Python 0.3 servers; REST reference §8)",
	"a2a.v1.A2AService.CreateTaskPushNotificationConfig pathprefix": "the v0.3 proto binds parent to tasks/{id}/pushNotificationConfigs " +
		"in its template and documents it as tasks/{id}; the body says tasks/{id}, as Python 0.3 and a2a-go's compat client send it",
	"a2a.v1.A2AService.CreateTaskPushNotificationConfig required:configId": "a config created without an id goes without configId, " +
		"which the v0.3 proto marks REQUIRED; the server assigns one (v0.3's PushNotificationConfig.id is optional, A2A v0.3 §6.8)",
	"lf.a2a.v1.A2AService tenant": "a tenant holding \"/\" goes as several escaped segments (Google's services template " +
		"{tenant=projects/*/locations/*}), where the proto's {tenant} is one segment (REST reference §2)",
}

// restGuard is a recording middleware in front of one HTTP+JSON interface
// of a peer: it checks every request against rules, with tenantSegs
// segments of tenant first (0: none; 1: the proto's {tenant} bindings;
// more: a tenant of that many segments, then the rules without tenant),
// keeps the outcome, and passes the request on unchanged.
type restGuard struct {
	prefix     string
	rules      *restRules
	tenantSegs int

	mu   sync.Mutex
	seen []checkedRequest
}

// checkedRequest is one request a restGuard saw and what it found.
type checkedRequest struct {
	method, path string
	rpc          string // "" when no rule matched
	faults       []restFault
}

func (g *restGuard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		ex := restExchange{method: r.Method, path: strings.TrimPrefix(r.URL.EscapedPath(), g.prefix),
			query: r.URL.Query(), header: r.Header.Clone(), body: body}
		rpc, faults := g.check(ex)
		g.mu.Lock()
		g.seen = append(g.seen, checkedRequest{method: ex.method, path: ex.path, rpc: rpc, faults: faults})
		g.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

// check is restRules.check behind the guard's tenant.
func (g *restGuard) check(ex restExchange) (string, []restFault) {
	if g.tenantSegs <= 1 {
		return g.rules.check(ex, g.tenantSegs == 1)
	}
	segs := strings.SplitN(strings.TrimPrefix(ex.path, "/"), "/", g.tenantSegs+1)
	if len(segs) <= g.tenantSegs {
		return "", []restFault{{"path", ex.path + " has no operation after its tenant"}}
	}
	ex.path = "/" + segs[g.tenantSegs]
	rpc, faults := g.rules.check(ex, false)
	return rpc, append(faults, restFault{"tenant", fmt.Sprintf("a tenant of %d segments", g.tenantSegs)})
}

// requests returns what the guard saw so far.
func (g *restGuard) requests() []checkedRequest {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.seen)
}

// report fails t for each fault of the requests the guard saw that
// restTolerated does not name, logs the tolerated ones, and returns the
// RPCs of the requests that passed.
func (g *restGuard) report(t *testing.T) []string {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.seen) == 0 {
		t.Errorf("%s: no request reached the peer", g.prefix)
	}
	valid := map[string]bool{}
	tolerated := map[string]int{}
	for i, req := range g.seen {
		ok := req.rpc != ""
		for _, f := range req.faults {
			key := string(g.rules.service) + "." + req.rpc + " " + f.kind
			if _, known := restTolerated[key]; !known {
				key = string(g.rules.service) + " " + f.kind
			}
			if _, known := restTolerated[key]; known {
				tolerated[key]++
				continue
			}
			ok = false
			t.Errorf("%s request %d, %s %s (%s): %s", g.prefix, i, req.method, req.path, req.rpc, f.msg)
		}
		if ok {
			valid[req.rpc] = true
		}
	}
	for key, n := range tolerated {
		t.Logf("%s: %d requests with a tolerated %q: %s", g.prefix, n, key, restTolerated[key])
	}
	return slices.Sorted(maps.Keys(valid))
}

// restPeer is a running REST peer.
type restPeer struct {
	base    string // http://127.0.0.1:port, where the card is served
	gates   *gates
	guards  map[string]*restGuard // by prefix
	jsonrpc atomic.Int64          // requests to the JSON-RPC interface
}

// url is the interface URL of the interface at prefix.
func (p *restPeer) url(prefix string) string { return p.base + prefix }

// startRESTPeer serves one a2a-go v2 request handler (newV10Handler) on
// the REST interfaces named by the prefixes above and on JSON-RPC, and a
// card at the well-known path listing HTTP+JSON (v1.0, restPrefix) first
// and JSON-RPC second. It is closed when t ends, after every gate opens.
func startRESTPeer(t *testing.T) *restPeer {
	srv := httptest.NewUnstartedServer(nil)
	p := &restPeer{base: "http://" + srv.Listener.Addr().String(), gates: &gates{byID: map[peer.TaskID]chan struct{}{}}}
	card := &peer.AgentCard{
		Name: v10CardName, Description: "a2a-go v2.4.0 REST test peer", Version: "1.0.0",
		SupportedInterfaces: []*peer.AgentInterface{
			peer.NewAgentInterface(p.url(restPrefix), peer.TransportProtocolHTTPJSON),
			peer.NewAgentInterface(p.url(jsonrpcPrefix), peer.TransportProtocolJSONRPC),
		},
		Capabilities:      peer.AgentCapabilities{Streaming: true, PushNotifications: true, ExtendedAgentCard: true},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain", "application/json"},
		Skills: []peer.AgentSkill{{ID: "lookup", Name: "Lookup", Description: "Looks up a QR code", Tags: []string{"qr"}}},
	}
	handler := newV10Handler(card, p.gates)
	p.guards = map[string]*restGuard{
		restPrefix:   {prefix: restPrefix, rules: v10Rules},
		tenantPrefix: {prefix: tenantPrefix, rules: v10Rules, tenantSegs: 1},
		gcpPrefix:    {prefix: gcpPrefix, rules: v10Rules, tenantSegs: strings.Count(gcpTenant, "/") + 1},
		getSubPrefix: {prefix: getSubPrefix, rules: v10Rules},
		rest03Prefix: {prefix: rest03Prefix, rules: v03Rules},
	}
	served := map[string]http.Handler{
		restPrefix:   a2asrv.NewRESTHandler(handler),
		tenantPrefix: a2asrv.NewTenantRESTHandler("/{*}", handler),
		gcpPrefix:    a2asrv.NewTenantRESTHandler("/{projects/*/locations/*}", handler),
		getSubPrefix: refusePOSTSubscribe(a2asrv.NewRESTHandler(handler)),
		rest03Prefix: a2av0.NewRESTHandler(handler),
	}
	mux := http.NewServeMux()
	for prefix, h := range served {
		mux.Handle(prefix+"/", p.guards[prefix].wrap(http.StripPrefix(prefix, h)))
	}
	rpc := a2asrv.NewJSONRPCHandler(handler)
	mux.Handle(jsonrpcPrefix, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.jsonrpc.Add(1)
		rpc.ServeHTTP(w, r)
	}))
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	// The v0.3 agent's card, as a2a-go's compat layer writes it: one
	// interface, HTTP+JSON 0.3, at once the v0.3 "url" and
	// "preferredTransport" and the v1.0 "supportedInterfaces".
	card03 := *card
	card03.SupportedInterfaces = []*peer.AgentInterface{{URL: p.url(rest03Prefix), ProtocolBinding: peer.TransportProtocolHTTPJSON, ProtocolVersion: a2av0.Version}}
	mux.Handle(card03Prefix+a2asrv.WellKnownAgentCardPath, a2asrv.NewAgentCardHandler(a2av0.NewStaticAgentCardProducer(&card03)))
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(func() {
		p.gates.openAll()
		srv.Close()
	})
	return p
}

// refusePOSTSubscribe answers a POST to a path ending ":subscribe" with
// 405 and "Allow: GET", as a server that routes subscribe by the proto's
// verb alone does (Python 0.3 servers, REST reference §9 trap 3), and
// passes every other request to next.
func refusePOSTSubscribe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, ":subscribe") {
			w.Header().Set("Allow", http.MethodGet)
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ownHTTPClient is an HTTP client with a transport of its own, whose idle
// connections close when t ends.
func ownHTTPClient(t *testing.T) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: 20 * time.Second}
}

// dialFromCard makes a client of this SDK with NewClientFromCard on card,
// as user; the client must say it speaks HTTP+JSON in version at iface.
func dialFromCard(card *a2a.AgentCard, iface, version string) func(t *testing.T, user string) *a2a.Client {
	return func(t *testing.T, user string) *a2a.Client {
		t.Helper()
		c, err := a2a.NewClientFromCard(card, a2a.WithHTTPClient(ownHTTPClient(t)), a2a.WithBearerToken(user))
		if err != nil {
			t.Fatal(err)
		}
		want := a2a.AgentInterface{URL: iface, Transport: a2a.TransportHTTPJSON, ProtocolBinding: a2a.TransportHTTPJSON, ProtocolVersion: version}
		if diff := cmp.Diff(want, c.Interface()); diff != "" {
			t.Fatalf("the interface a client from the card chose (-want +got):\n%s", diff)
		}
		return c
	}
}

// dialREST makes a client of this SDK for the HTTP+JSON interface at
// iface in version, as user, with opts besides.
func dialREST(iface, version string, opts ...a2a.Option) func(t *testing.T, user string) *a2a.Client {
	return func(t *testing.T, user string) *a2a.Client {
		t.Helper()
		all := append([]a2a.Option{a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithProtocolVersion(version),
			a2a.WithHTTPClient(ownHTTPClient(t)), a2a.WithBearerToken(user)}, opts...)
		c, err := a2a.NewClient(iface, all...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
}
