package interop

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"

	peer "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// Extensions against a real agent that requires them: a2a-go v2.4.0's
// request handler, whose capability checks (a2asrv.WithCapabilityChecks)
// refuse every method of a request that does not activate each extension
// its card marks required (checkRequiredExtensions, -32008), served over
// JSON-RPC and HTTP+JSON in v1.0 and through its v0.3 compat layer.

const (
	extCitations = "https://example.com/ext/citations/v1"
	extTrace     = "urn:example:ext:trace"
)

// The interfaces of the extensions peer, under its base URL.
const (
	extJSONRPC   = "/jsonrpc"
	extREST      = "/rest"
	extJSONRPC03 = "/jsonrpc03"
	extREST03    = "/rest03"
)

// startExtPeer serves one a2a-go v2 request handler (newV10Handler) whose
// card marks required each of required, over the four interfaces above,
// and the card (JSON-RPC then HTTP+JSON, v1.0) at the well-known path. It
// returns the base URL.
func startExtPeer(t *testing.T, required ...string) string {
	srv := httptest.NewUnstartedServer(nil)
	base := "http://" + srv.Listener.Addr().String()
	gates := &gates{byID: map[peer.TaskID]chan struct{}{}}
	var exts []peer.AgentExtension
	for _, uri := range required {
		exts = append(exts, peer.AgentExtension{URI: uri, Required: true, Description: "required by the peer"})
	}
	card := &peer.AgentCard{
		Name: "a2a-go v2.4.0 extensions peer", Description: "requires extensions", Version: "1.0.0",
		SupportedInterfaces: []*peer.AgentInterface{
			peer.NewAgentInterface(base+extJSONRPC, peer.TransportProtocolJSONRPC),
			peer.NewAgentInterface(base+extREST, peer.TransportProtocolHTTPJSON),
		},
		Capabilities:      peer.AgentCapabilities{Streaming: true, Extensions: exts},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: []peer.AgentSkill{{ID: "lookup", Name: "Lookup", Description: "Looks up a QR code", Tags: []string{"qr"}}},
	}
	handler := newV10Handler(card, gates)
	mux := http.NewServeMux()
	mux.Handle(extJSONRPC, a2asrv.NewJSONRPCHandler(handler))
	mux.Handle(extREST+"/", http.StripPrefix(extREST, a2asrv.NewRESTHandler(handler)))
	mux.Handle(extJSONRPC03, a2av0.NewJSONRPCHandler(handler))
	mux.Handle(extREST03+"/", http.StripPrefix(extREST03, a2av0.NewRESTHandler(handler)))
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(func() {
		gates.openAll()
		srv.Close()
	})
	return base
}

// extBinding is one interface of the peer as this SDK's client speaks it.
type extBinding struct {
	name, path, version, transport string
}

var extBindings = []extBinding{
	{"v1.0 JSON-RPC", extJSONRPC, a2a.ProtocolV10, a2a.TransportJSONRPC},
	{"v1.0 HTTP+JSON", extREST, a2a.ProtocolV10, a2a.TransportHTTPJSON},
	{"v0.3 JSON-RPC (compat)", extJSONRPC03, a2a.ProtocolV03, a2a.TransportJSONRPC},
	{"v0.3 HTTP+JSON (compat)", extREST03, a2a.ProtocolV03, a2a.TransportHTTPJSON},
}

// dial makes a client of this SDK for the binding at base, with opts.
func (b extBinding) dial(t *testing.T, base string, opts ...a2a.Option) *a2a.Client {
	t.Helper()
	c, err := a2a.NewClient(base+b.path, append([]a2a.Option{a2a.WithProtocolVersion(b.version), a2a.WithTransports(b.transport),
		a2a.WithHTTPClient(ownHTTPClient(t)), a2a.WithBearerToken(peerUser)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGoPeerExtensions: the peer refuses a send and a get that do not
// activate its required extension with an error matching
// ErrExtensionSupportRequired, on every binding, and serves both once
// WithExtensions activates it (in A2A-Extensions on v1.0, in
// X-A2A-Extensions on v0.3, which its compat layer maps).
func TestGoPeerExtensions(t *testing.T) {
	base := startExtPeer(t, extCitations)
	ctx := testCtx(t)
	for _, b := range extBindings {
		t.Run(b.name, func(t *testing.T) {
			bare := b.dial(t, base)
			if _, err := bare.SendText(ctx, "entity"); !errors.Is(err, a2a.ErrExtensionSupportRequired) {
				t.Fatalf("send without the extension: %v, want ErrExtensionSupportRequired", err)
			}
			if _, err := bare.GetTask(ctx, "no-such-task"); !errors.Is(err, a2a.ErrExtensionSupportRequired) {
				t.Fatalf("get without the extension: %v, want ErrExtensionSupportRequired (checked before the task is looked up)", err)
			}
			c := b.dial(t, base, a2a.WithExtensions(extCitations))
			task, err := c.SendText(ctx, "entity")
			if err != nil {
				t.Fatalf("send with the extension: %v", err)
			}
			if _, err := c.GetTask(ctx, task.ID); err != nil {
				t.Fatalf("get with the extension: %v", err)
			}
		})
	}
}

// TestGoPeerExtensionNamedByCard: a2a-go's error names no extension, so
// a client made from the peer's card names those the card requires and
// the call did not activate; WithRequiredExtensions activates them all,
// one header line each (WithExtensionLines, which a2a-go needs for two).
func TestGoPeerExtensionNamedByCard(t *testing.T) {
	base := startExtPeer(t, extCitations, extTrace)
	ctx := testCtx(t)
	card, err := a2a.ResolveAgentCard(ctx, base, a2a.WithHTTPClient(ownHTTPClient(t)))
	if err != nil {
		t.Fatal(err)
	}
	if got := card.RequiredExtensions(); !slices.Equal(got, []string{extCitations, extTrace}) {
		t.Fatalf("card.RequiredExtensions() = %q", got)
	}
	for _, transport := range []string{a2a.TransportJSONRPC, a2a.TransportHTTPJSON} {
		t.Run(transport, func(t *testing.T) {
			dial := func(opts ...a2a.Option) *a2a.Client {
				c, err := a2a.NewClientFromCard(card, append([]a2a.Option{a2a.WithTransports(transport),
					a2a.WithHTTPClient(ownHTTPClient(t)), a2a.WithBearerToken(peerUser)}, opts...)...)
				if err != nil {
					t.Fatal(err)
				}
				return c
			}
			_, err := dial(a2a.WithExtensions(extCitations)).SendText(ctx, "entity")
			var rpcErr *a2a.RPCError
			if !errors.Is(err, a2a.ErrExtensionSupportRequired) || !errors.As(err, &rpcErr) ||
				!slices.Equal(rpcErr.RequiredExtensions, []string{extTrace}) || !strings.Contains(err.Error(), "card marks "+extTrace) {
				t.Fatalf("one of two activated: %v (RequiredExtensions %q), want the other named from the card", err, rpcErr.RequiredExtensions)
			}
			if _, err := dial(a2a.WithRequiredExtensions(), a2a.WithExtensionLines()).SendText(ctx, "entity"); err != nil {
				t.Fatalf("WithRequiredExtensions, one line each: %v", err)
			}
		})
	}
}
