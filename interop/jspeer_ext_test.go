package interop

import (
	"errors"
	"slices"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestJSPeerExtensions: @a2a-js/sdk 1.3.0 (js/ext13.js) refuses a send
// that does not activate the extension its card marks required, over
// JSON-RPC and HTTP+JSON in v1.0 and over JSON-RPC in v0.3 (its compat
// layer, reading X-A2A-Extensions), and serves one that does. Its error
// names the URIs in its message only, which the client does not parse: a
// client made from its card names them from the card.
func TestJSPeerExtensions(t *testing.T) {
	base := startNodePeer(t, "ext13.js", "a2a-js-sdk-13", "REQUIRED_EXTENSIONS="+extCitations+","+extTrace)
	ctx := testCtx(t)
	card, err := a2a.ResolveAgentCard(ctx, base, a2a.WithHTTPClient(ownHTTPClient(t)))
	if err != nil {
		t.Fatal(err)
	}
	if got := card.RequiredExtensions(); !slices.Equal(got, []string{extCitations, extTrace}) {
		t.Fatalf("card.RequiredExtensions() = %q", got)
	}
	msg := a2a.NewTextMessage("hello")
	for _, b := range []struct {
		name, version, transport string
	}{
		{"v1.0 JSON-RPC", a2a.ProtocolV10, a2a.TransportJSONRPC},
		{"v1.0 HTTP+JSON", a2a.ProtocolV10, a2a.TransportHTTPJSON},
		{"v0.3 JSON-RPC (compat)", a2a.ProtocolV03, a2a.TransportJSONRPC},
	} {
		t.Run(b.name, func(t *testing.T) {
			dial := func(opts ...a2a.Option) *a2a.Client {
				c, err := a2a.NewClientFromCard(card, append([]a2a.Option{a2a.WithProtocolVersion(b.version), a2a.WithTransports(b.transport),
					a2a.WithHTTPClient(ownHTTPClient(t))}, opts...)...)
				if err != nil {
					t.Fatal(err)
				}
				return c
			}
			_, err := dial(a2a.WithExtensions(extCitations)).SendMessage(ctx, msg)
			var rpcErr *a2a.RPCError
			if !errors.Is(err, a2a.ErrExtensionSupportRequired) || !errors.As(err, &rpcErr) ||
				!slices.Equal(rpcErr.RequiredExtensions, []string{extTrace}) || !strings.Contains(rpcErr.Message, extTrace) {
				t.Fatalf("one of two activated: %v (RequiredExtensions %q)", err, rpcErr.RequiredExtensions)
			}
			// a2a-js splits the field: one comma-separated field activates both.
			res, err := dial(a2a.WithRequiredExtensions()).SendMessage(ctx, msg)
			if err != nil {
				t.Fatalf("WithRequiredExtensions: %v", err)
			}
			if m, ok := res.(*a2a.Message); !ok || m.Text() != "ok" {
				t.Fatalf("reply %#v, want the message ok", res)
			}
			if _, err := dial(a2a.WithRequiredExtensions(), a2a.WithExtensionLines()).SendMessage(ctx, msg); err != nil {
				t.Fatalf("WithRequiredExtensions, one line each: %v", err)
			}
		})
	}
}
