package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

const (
	extA = "https://example.com/ext/a/v1"
	extB = "urn:example:ext:b"
)

// extBinding is one of the four bindings, as a2atest serves it and a
// client speaks it, with the header name its version activates
// extensions with.
type extBinding struct {
	name   string
	server []a2atest.Option
	client []a2a.Option
	header string
}

var extBindings = []extBinding{
	{"v0.3 JSON-RPC", nil, nil, "X-A2A-Extensions"},
	{"v0.3 HTTP+JSON", []a2atest.Option{a2atest.HTTPJSON()}, []a2a.Option{a2a.WithTransports(a2a.TransportHTTPJSON)}, "X-A2A-Extensions"},
	{"v1.0 JSON-RPC", []a2atest.Option{a2atest.V10()}, []a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10)}, "A2A-Extensions"},
	{"v1.0 HTTP+JSON", []a2atest.Option{a2atest.V10(), a2atest.HTTPJSON()},
		[]a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON)}, "A2A-Extensions"},
}

// otherHeader is the extensions header of the other version.
func otherHeader(name string) string {
	if name == "A2A-Extensions" {
		return "X-A2A-Extensions"
	}
	return "A2A-Extensions"
}

// operations calls every operation the client has once, and returns the
// errors that match ErrExtensionSupportRequired.
func operations(ctx context.Context, c *a2a.Client, opts ...a2a.CallOption) []error {
	var refused []error
	note := func(err error) {
		if errors.Is(err, a2a.ErrExtensionSupportRequired) {
			refused = append(refused, err)
		}
	}
	task, err := c.SendText(ctx, "hello", opts...)
	note(err)
	id := "t-none"
	if task != nil {
		id = task.ID
	}
	for _, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("hi"), opts...) {
		note(err)
	}
	_, err = c.GetTask(ctx, id, opts...)
	note(err)
	_, err = c.CancelTask(ctx, id, opts...)
	note(err)
	if c.ProtocolVersion() == a2a.ProtocolV10 || c.Interface().Transport == a2a.TransportHTTPJSON {
		_, err = c.ListTasksPage(ctx, a2a.ListTasksRequest{}, opts...)
		note(err)
	}
	for _, err := range c.SubscribeToTask(ctx, id, opts...) {
		note(err)
	}
	cfg, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: id,
		PushNotificationConfig: a2a.PushNotificationConfig{ID: "p1", URL: "https://hooks.example.com/a2a"}}, opts...)
	note(err)
	configID := "p1"
	if cfg != nil && cfg.PushNotificationConfig.ID != "" {
		configID = cfg.PushNotificationConfig.ID
	}
	_, err = c.GetTaskPushNotificationConfig(ctx, id, configID, opts...)
	note(err)
	_, err = c.ListTaskPushNotificationConfigs(ctx, id, opts...)
	note(err)
	note(c.DeleteTaskPushNotificationConfig(ctx, id, configID, opts...))
	_, err = c.GetExtendedAgentCard(ctx, opts...)
	note(err)
	return refused
}

// operationRequests is the requests srv received that name an operation
// (not a card GET).
func operationRequests(srv *a2atest.Server) []a2atest.Request {
	var out []a2atest.Request
	for _, r := range srv.Requests() {
		if r.Method != "" {
			out = append(out, r)
		}
	}
	return out
}

// TestExtensionsEveryOperation: on each binding, an agent that requires an
// extension refuses every operation of a client that does not activate
// it, with the URI named, and takes every operation of one that does,
// each request carrying the header of the binding's version only.
func TestExtensionsEveryOperation(t *testing.T) {
	for _, b := range extBindings {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			srv := a2atest.NewServer(append(b.server, a2atest.RequireExtension(extA))...)
			defer srv.Close()

			bare, err := a2a.NewClient(srv.URL, b.client...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = bare.SendText(ctx, "hello")
			if !errors.Is(err, a2a.ErrExtensionSupportRequired) {
				t.Fatalf("without the extension: err = %v, want ErrExtensionSupportRequired", err)
			}
			var re *a2a.RPCError
			if !errors.As(err, &re) || !slices.Equal(re.RequiredExtensions, []string{extA}) {
				t.Fatalf("RequiredExtensions of %v = %q, want [%s]", err, re.RequiredExtensions, extA)
			}
			if !strings.Contains(err.Error(), extA) {
				t.Errorf("Error() = %q, names no %s", err, extA)
			}

			c, err := a2a.NewClient(srv.URL, append(b.client, a2a.WithExtensions(extA))...)
			if err != nil {
				t.Fatal(err)
			}
			before := len(operationRequests(srv))
			if refused := operations(ctx, c); len(refused) > 0 {
				t.Fatalf("with the extension activated, refused: %v", refused)
			}
			reqs := operationRequests(srv)[before:]
			if len(reqs) < 10 {
				t.Fatalf("%d operation requests, want every operation's", len(reqs))
			}
			for _, r := range reqs {
				if got := r.Header.Values(b.header); !slices.Equal(got, []string{extA}) {
					t.Errorf("%s: %s = %q, want [%s]", r.Method, b.header, got, extA)
				}
				if got := r.Header.Values(otherHeader(b.header)); got != nil {
					t.Errorf("%s: %s = %q, want none", r.Method, otherHeader(b.header), got)
				}
			}
		})
	}
}

// TestExtensionsPerCallAndLines: a call's Extensions join the client's,
// each URI once in the order first given, in one comma-separated field,
// or with WithExtensionLines one line each; the card GET carries none.
func TestExtensionsPerCallAndLines(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		lines bool
		want  []string
	}{
		{"one field", false, []string{extA + "," + extB}},
		{"lines", true, []string{extA, extB}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := a2atest.NewServer(a2atest.V10(), a2atest.RequireExtension(extA), a2atest.RequireExtension(extB))
			defer srv.Close()
			opts := []a2a.Option{a2a.WithExtensions(extA), a2a.WithExtensions(extA)}
			if tc.lines {
				opts = append(opts, a2a.WithExtensionLines())
			}
			card, err := a2a.ResolveAgentCard(ctx, srv.BaseURL(), opts...)
			if err != nil {
				t.Fatal(err)
			}
			c, err := a2a.NewClientFromCard(card, opts...)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.SendText(ctx, "hi", a2a.Extensions(extB, extA)); err != nil {
				t.Fatal(err)
			}
			_, err = c.SendText(ctx, "hi") // extB was that call's alone
			if re, ok := errors.AsType[*a2a.RPCError](err); !ok || !slices.Equal(re.RequiredExtensions, []string{extB}) {
				t.Fatalf("second call: err = %v, want -32008 naming %s", err, extB)
			}
			reqs := srv.Requests()
			if got := reqs[0].Header.Values("A2A-Extensions"); got != nil {
				t.Errorf("card GET carries A2A-Extensions %q", got)
			}
			if diff := cmp.Diff(tc.want, reqs[1].Header.Values("A2A-Extensions")); diff != "" {
				t.Errorf("A2A-Extensions lines (-want +got):\n%s", diff)
			}
		})
	}
}

// TestExtensionURIChecked: a URI the header cannot carry is refused by
// WithExtensions in NewClient, and by Extensions before anything is sent.
func TestExtensionURIChecked(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	for _, uri := range []string{"", "a,b", "https://x.example/a b", "https://x.example/\r\nX-Evil: 1", "https://x.example/\x00",
		"https://x.example/é", "not-a-uri", "/relative/path", "https://", strings.Repeat("u", 3000)} {
		if _, err := a2a.NewClient(srv.URL, a2a.WithExtensions(extA, uri)); err == nil {
			t.Errorf("WithExtensions(%q): no error", uri)
		}
		c, err := a2a.NewClient(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.GetTask(context.Background(), "t1", a2a.Extensions(uri)); err == nil || strings.ContainsAny(err.Error(), "\r\n\x00") {
			t.Errorf("Extensions(%q): err = %q, want an error on one line", uri, err)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
	for _, name := range []string{"A2A-Extensions", "x-a2a-extensions"} {
		if _, err := a2a.NewClient(srv.URL, a2a.WithHeader(name, extA)); err == nil || !strings.Contains(err.Error(), "WithExtensions") {
			t.Errorf("WithHeader(%s): err = %v, want one naming WithExtensions", name, err)
		}
	}
	for _, uri := range []string{extA, extB, "https://x.example/ext?v=1#frag", "tag:example.com:ext"} {
		if _, err := a2a.NewClient(srv.URL, a2a.WithExtensions(uri)); err != nil {
			t.Errorf("WithExtensions(%q): %v", uri, err)
		}
	}
}

// TestRequiredExtensionsFromCard: the card of either version lists the
// required extensions; a client made from it sends none of them unless
// WithRequiredExtensions says so, and then every required one.
func TestRequiredExtensionsFromCard(t *testing.T) {
	ctx := context.Background()
	for _, b := range extBindings {
		t.Run(b.name, func(t *testing.T) {
			srv := a2atest.NewServer(append(b.server, a2atest.Bindings(b.bindingName()), a2atest.RequireExtension(extA),
				a2atest.RequireExtension(extB))...)
			defer srv.Close()
			card, err := a2a.ResolveAgentCard(ctx, srv.BaseURL())
			if err != nil {
				t.Fatal(err)
			}
			if got := card.RequiredExtensions(); !slices.Equal(got, []string{extA, extB}) {
				t.Fatalf("card.RequiredExtensions() = %q", got)
			}
			c, err := a2a.NewClientFromCard(card, b.client...)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.SendText(ctx, "hi", a2a.Extensions(extA)); !errors.Is(err, a2a.ErrExtensionSupportRequired) {
				t.Fatalf("without WithRequiredExtensions: err = %v", err)
			}
			c, err = a2a.NewClientFromCard(card, append(b.client, a2a.WithRequiredExtensions(), a2a.WithExtensions(extA))...)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.SendText(ctx, "hi"); err != nil {
				t.Fatalf("with WithRequiredExtensions: %v", err)
			}
			last := srv.Requests()[len(srv.Requests())-1]
			if got := last.Header.Get(b.header); got != extA+","+extB {
				t.Errorf("%s = %q, want %s,%s (each once, the client's first)", b.header, got, extA, extB)
			}
		})
	}
}

// bindingName is the transport the binding's server serves first.
func (b extBinding) bindingName() string {
	if strings.Contains(b.name, "HTTP+JSON") {
		return a2a.TransportHTTPJSON
	}
	return a2a.TransportJSONRPC
}

// TestRequiredExtensionsExtendedCard: WithRequiredExtensions follows the
// card GetExtendedAgentCard puts in place of the public one.
func TestRequiredExtensionsExtendedCard(t *testing.T) {
	ctx := context.Background()
	extended := &a2a.AgentCard{Name: "x", Description: "x", Version: "1",
		Capabilities: a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{URI: extB, Required: true}, {URI: extA}}}}
	srv := a2atest.NewServer(a2atest.V10(), a2atest.WithExtendedCard(extended))
	defer srv.Close()
	card, err := a2a.ResolveAgentCard(ctx, srv.BaseURL())
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2a.NewClientFromCard(card, a2a.WithRequiredExtensions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetExtendedAgentCard(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTask(ctx, "t1"); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("GetTask: %v", err)
	}
	reqs := srv.Requests()
	if got := reqs[len(reqs)-2].Header.Values("A2A-Extensions"); got != nil {
		t.Errorf("extended card call: A2A-Extensions %q, want none (the public card requires none)", got)
	}
	if got := reqs[len(reqs)-1].Header.Values("A2A-Extensions"); !slices.Equal(got, []string{extB}) {
		t.Errorf("after the extended card: A2A-Extensions %q, want [%s]", got, extB)
	}
}

// TestExtensionErrorShapes: what an ExtensionSupportRequired error says
// about the URIs, however the agent wrote it.
func TestExtensionErrorShapes(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		rest     bool
		card     bool // the client is made from a card requiring extB
		reply    a2atest.Raw
		want     []string
		wantHint string
	}{
		{name: "JSON-RPC -32008 without data, no card",
			reply:    a2atest.Raw{Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32008,"message":"Extension support required"}}`, EchoID: true},
			wantHint: "named no extension"},
		{name: "JSON-RPC -32008 without data, card known", card: true,
			reply: a2atest.Raw{Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32008,"message":"x"}}`, EchoID: true},
			want:  []string{extB}, wantHint: "card marks " + extB + " required"},
		{name: "JSON-RPC ErrorInfo metadata, spaces and a repeat",
			reply: a2atest.Raw{Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32008,"message":"x","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"EXTENSION_SUPPORT_REQUIRED","domain":"a2a-protocol.org","metadata":{"extensions":" ` + extA + ` , ` + extB + `,` + extA + `,"}}]}}`, EchoID: true},
			want:  []string{extA, extB}, wantHint: "the agent requires " + extA + ", " + extB},
		{name: "JSON-RPC a URI with control characters is escaped in Error()",
			reply: a2atest.Raw{Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32008,"message":"x","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"EXTENSION_SUPPORT_REQUIRED","metadata":{"extensions":"urn:x\u001b[31m\nred"}}]}}`, EchoID: true},
			want:  []string{"urn:x\x1b[31m\nred"}, wantHint: `urn:x\x1b[31m\nred`},
		{name: "JSON-RPC the agent names what the card marks: each URI once", card: true,
			reply: a2atest.Raw{Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32008,"message":"x","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"EXTENSION_SUPPORT_REQUIRED","metadata":{"extensions":"` + extB + `"}}]}}`, EchoID: true},
			want:  []string{extB}, wantHint: "the agent requires " + extB + ", not activated"},
		{name: "JSON-RPC metadata extensions not a string (attack round 2)",
			reply:    a2atest.Raw{Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32008,"message":"x","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"EXTENSION_SUPPORT_REQUIRED","metadata":{"extensions":["urn:a","urn:b"]}}]}}`, EchoID: true},
			wantHint: "named no extension"},
		{name: "HTTP+JSON 400 Status with reason and metadata", rest: true,
			reply: a2atest.Raw{Status: 400, ContentType: "application/json", Body: `{"error":{"code":400,"status":"FAILED_PRECONDITION","message":"x","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"EXTENSION_SUPPORT_REQUIRED","domain":"a2a-protocol.org","metadata":{"extensions":"` + extA + `"}}]}}`},
			want:  []string{extA}, wantHint: "the agent requires " + extA},
		{name: "HTTP+JSON 400 Status without metadata (a2a-go v2)", rest: true, card: true,
			reply: a2atest.Raw{Status: 400, ContentType: "application/json", Body: `{"error":{"code":400,"status":"FAILED_PRECONDITION","message":"extension support required","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"EXTENSION_SUPPORT_REQUIRED","domain":"a2a-protocol.org","metadata":{"timestamp":"2026-12-02T00:00:00Z"}}]}}`},
			want:  []string{extB}, wantHint: "card marks " + extB},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sopts := []a2atest.Option{a2atest.V10()}
			copts := []a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithExtensions(extA)}
			if tc.rest {
				sopts = append(sopts, a2atest.HTTPJSON())
				copts = append(copts, a2a.WithTransports(a2a.TransportHTTPJSON))
			}
			srv := a2atest.NewServer(sopts...)
			defer srv.Close()
			var c *a2a.Client
			var err error
			if tc.card {
				binding := a2a.TransportJSONRPC
				if tc.rest {
					binding = a2a.TransportHTTPJSON
				}
				card := &a2a.AgentCard{Name: "x", SupportedInterfaces: []a2a.AgentInterface{{URL: srv.URL, ProtocolBinding: binding, ProtocolVersion: a2a.ProtocolV10}},
					Capabilities: a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{URI: extA, Required: true}, {URI: extB, Required: true}}}}
				c, err = a2a.NewClientFromCard(card, copts...)
			} else {
				c, err = a2a.NewClient(srv.URL, copts...)
			}
			if err != nil {
				t.Fatal(err)
			}
			srv.Enqueue(tc.reply)
			_, err = c.GetTask(ctx, "t1")
			re, ok := errors.AsType[*a2a.RPCError](err)
			if !ok || !errors.Is(err, a2a.ErrExtensionSupportRequired) {
				t.Fatalf("err = %T %v, want an *RPCError matching ErrExtensionSupportRequired", err, err)
			}
			if diff := cmp.Diff(tc.want, re.RequiredExtensions); diff != "" {
				t.Errorf("RequiredExtensions (-want +got):\n%s", diff)
			}
			if !strings.Contains(re.Error(), tc.wantHint) || strings.ContainsAny(re.Error(), "\n\x1b") {
				t.Errorf("Error() = %q, want one line holding %q", re.Error(), tc.wantHint)
			}
		})
	}
}

// TestCardExtensionsEveryShape: capabilities.extensions is read from a
// v0.3 card, a v1.0 card and a dual card, params kept as received.
func TestCardExtensionsEveryShape(t *testing.T) {
	exts := `"extensions":[{"uri":"` + extA + `","description":"A","required":true,"params":{"k":[1,2]}},{"uri":"` + extB + `"}]`
	want := []a2a.AgentExtension{{URI: extA, Description: "A", Required: true, Params: json.RawMessage(`{"k":[1,2]}`)}, {URI: extB}}
	for name, body := range map[string]string{
		"v0.3": `{"name":"n","description":"d","version":"1","url":"http://127.0.0.1:1/a2a","protocolVersion":"0.3.0",` +
			`"capabilities":{"streaming":true,` + exts + `},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}`,
		"v1.0": `{"name":"n","description":"d","version":"1","supportedInterfaces":[{"url":"http://127.0.0.1:1/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],` +
			`"capabilities":{` + exts + `},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}`,
		"dual": `{"name":"n","description":"d","version":"1","url":"http://127.0.0.1:1/a2a","protocolVersion":"0.3.0","supportedInterfaces":[{"url":"http://127.0.0.1:1/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],` +
			`"capabilities":{` + exts + `},"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}`,
	} {
		t.Run(name, func(t *testing.T) {
			srv := a2atest.NewServer()
			defer srv.Close()
			srv.Enqueue(a2atest.Raw{ContentType: "application/json", Body: body})
			card, err := a2a.ResolveAgentCard(context.Background(), srv.BaseURL())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, card.Capabilities.Extensions); diff != "" {
				t.Errorf("extensions (-want +got):\n%s", diff)
			}
			if got := card.RequiredExtensions(); !slices.Equal(got, []string{extA}) {
				t.Errorf("RequiredExtensions() = %q", got)
			}
		})
	}
	var nilCard *a2a.AgentCard
	if got := nilCard.RequiredExtensions(); got != nil {
		t.Errorf("nil card: %q", got)
	}
}

// TestRequiredExtensionCardDeclares: a2atest's cards of either version,
// the extended card too, mark a required extension required, adding it
// where the card lists it not.
func TestRequiredExtensionCardDeclares(t *testing.T) {
	ctx := context.Background()
	for _, v10 := range []bool{false, true} {
		opts := []a2atest.Option{a2atest.RequireExtension(extA), a2atest.Bindings(a2a.TransportJSONRPC),
			a2atest.WithExtendedCard(&a2a.AgentCard{Name: "e", Capabilities: a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{URI: extA, Description: "kept"}}}})}
		var copts []a2a.Option
		if v10 {
			opts = append(opts, a2atest.V10())
		}
		srv := a2atest.NewServer(opts...)
		card, err := a2a.ResolveAgentCard(ctx, srv.BaseURL())
		if err != nil {
			t.Fatal(err)
		}
		if got := card.RequiredExtensions(); !slices.Equal(got, []string{extA}) {
			t.Errorf("v10=%v: public card requires %q", v10, got)
		}
		c, err := a2a.NewClientFromCard(card, append(copts, a2a.WithRequiredExtensions())...)
		if err != nil {
			t.Fatal(err)
		}
		ext, err := c.GetExtendedAgentCard(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if want := []a2a.AgentExtension{{URI: extA, Description: "kept", Required: true}}; !cmp.Equal(want, ext.Capabilities.Extensions) {
			t.Errorf("v10=%v: extended card's extensions %+v", v10, ext.Capabilities.Extensions)
		}
		srv.Close()
	}
}

// TestExtensionErrorBounded: an agent naming many long URIs, some with
// control characters, gives at most 32 of them, kept as received, and an
// Error() of one bounded line.
func TestExtensionErrorBounded(t *testing.T) {
	var uris []string
	for i := range 40 {
		uris = append(uris, fmt.Sprintf("urn:x:%d:%s\x1b[2J", i, strings.Repeat("u", 1200)))
	}
	meta, _ := json.Marshal(strings.Join(uris, ","))
	srv := a2atest.NewServer(a2atest.V10())
	defer srv.Close()
	srv.Enqueue(a2atest.Raw{EchoID: true, Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32008,"message":"x","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"EXTENSION_SUPPORT_REQUIRED","metadata":{"extensions":` + string(meta) + `}}]}}`})
	c, err := a2a.NewClient(srv.URL, a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetTask(context.Background(), "t1")
	re, ok := errors.AsType[*a2a.RPCError](err)
	if !ok {
		t.Fatalf("err = %v", err)
	}
	if diff := cmp.Diff(uris[:32], re.RequiredExtensions); diff != "" {
		t.Errorf("RequiredExtensions (-want +got):\n%s", diff)
	}
	if msg := re.Error(); len(msg) > 2000 || strings.ContainsAny(msg, "\x1b\n") {
		t.Errorf("Error() of %d bytes, or not inert: %.300q", len(msg), msg)
	}
}

// TestRequiredExtensionUnsendable: a card's required URI that cannot be a
// header value is not sent by WithRequiredExtensions; the others are.
func TestRequiredExtensionUnsendable(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10())
	defer srv.Close()
	card := &a2a.AgentCard{Name: "x", SupportedInterfaces: []a2a.AgentInterface{{URL: srv.URL, ProtocolBinding: a2a.TransportJSONRPC, ProtocolVersion: a2a.ProtocolV10}},
		Capabilities: a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{URI: "urn:a,urn:b", Required: true},
			{URI: "urn:c\r\nX-Injected: 1", Required: true}, {URI: extA, Required: true}, {URI: extB}}}}
	c, err := a2a.NewClientFromCard(card, a2a.WithRequiredExtensions())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetTask(context.Background(), "t1"); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("GetTask: %v", err)
	}
	r := srv.Requests()[0]
	if got := r.Header.Values("A2A-Extensions"); !slices.Equal(got, []string{extA}) || r.Header.Get("X-Injected") != "" {
		t.Errorf("A2A-Extensions %q, X-Injected %q; want [%s] alone", got, r.Header.Get("X-Injected"), extA)
	}
}
