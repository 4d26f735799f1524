package interop

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// rawExt sends a JSON-RPC body, or a GET when body is "", to url with
// header, and returns the reply's status and body.
func rawExt(t *testing.T, url, body string, header http.Header) (int, string) {
	t.Helper()
	method := http.MethodPost
	if body == "" {
		method = http.MethodGet
	}
	req, err := http.NewRequestWithContext(testCtx(t), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := ownHTTPClient(t).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestGoPeerExtensionDeviations holds the evidence for each way a2a-go
// v2.4.0's extension check departs from the A2A v1.0.1 specification
// (or from what a client would assume), as docs/extensions.md lists
// them: the reply as the peer sends it, read without this SDK, then what
// the client makes of it. A row whose peer behaviour changes fails, so the
// list stays true.
func TestGoPeerExtensionDeviations(t *testing.T) {
	base := startExtPeer(t, extCitations, extTrace)
	ctx := testCtx(t)
	getTask := `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"no-such-task"}}`
	v10 := func(lines ...string) http.Header {
		return http.Header{"A2a-Version": {"1.0"}, "A2a-Extensions": lines}
	}

	t.Run("two URIs in one comma-separated field activate neither (§3.2.6 says SHOULD be one field)", func(t *testing.T) {
		_, got := rawExt(t, base+extJSONRPC, getTask, v10(extCitations+","+extTrace))
		if !strings.Contains(got, `"code":-32008`) {
			t.Fatalf("peer, one field: %s", got)
		}
		_, got = rawExt(t, base+extJSONRPC, getTask, v10(extCitations, extTrace))
		if !strings.Contains(got, `"code":-32001`) {
			t.Fatalf("peer, one line each: %s, want task not found (the extensions accepted)", got)
		}
		_, got = rawExt(t, base+extJSONRPC, getTask, v10(extCitations+", "+extTrace))
		if !strings.Contains(got, `"code":-32008`) {
			t.Fatalf("peer, comma and space: %s", got)
		}
		for _, transport := range []string{a2a.TransportJSONRPC, a2a.TransportHTTPJSON} {
			path := map[string]string{a2a.TransportJSONRPC: extJSONRPC, a2a.TransportHTTPJSON: extREST}[transport]
			b := extBinding{path: path, version: a2a.ProtocolV10, transport: transport}
			if _, err := b.dial(t, base, a2a.WithExtensions(extCitations, extTrace)).GetTask(ctx, "no-such-task"); !errors.Is(err, a2a.ErrExtensionSupportRequired) {
				t.Errorf("client %s, one field: %v, want ErrExtensionSupportRequired", transport, err)
			}
			if _, err := b.dial(t, base, a2a.WithExtensions(extCitations, extTrace), a2a.WithExtensionLines()).GetTask(ctx, "no-such-task"); !errors.Is(err, a2a.ErrTaskNotFound) {
				t.Errorf("client %s, WithExtensionLines: %v, want ErrTaskNotFound", transport, err)
			}
		}
	})

	t.Run("-32008 names no extension: its ErrorInfo metadata holds a timestamp only", func(t *testing.T) {
		_, got := rawExt(t, base+extJSONRPC, getTask, v10())
		if !strings.Contains(got, `"reason":"EXTENSION_SUPPORT_REQUIRED"`) || !strings.Contains(got, `"timestamp"`) ||
			strings.Contains(got, extCitations) || strings.Contains(got, "example.com") {
			t.Fatalf("peer: %s", got)
		}
		status, got := rawExt(t, base+extREST+"/tasks/no-such-task", "", v10())
		if status != http.StatusBadRequest || !strings.Contains(got, `"FAILED_PRECONDITION"`) ||
			!strings.Contains(got, `"EXTENSION_SUPPORT_REQUIRED"`) || strings.Contains(got, "example.com") {
			t.Fatalf("peer REST: %d %s", status, got)
		}
		_, err := extBindings[0].dial(t, base).GetTask(ctx, "no-such-task")
		var rpcErr *a2a.RPCError
		if !errors.As(err, &rpcErr) || rpcErr.RequiredExtensions != nil || !strings.Contains(rpcErr.Hint, "named no extension") {
			t.Errorf("client without a card: %v, want no URIs and a hint saying the agent named none", err)
		}
	})

	t.Run("the v0.3 layer reads X-A2A-Extensions and A2A-Extensions alike (a2av0.ToServiceParams)", func(t *testing.T) {
		get03 := `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"no-such-task"}}`
		for _, name := range []string{"X-A2a-Extensions", "A2a-Extensions"} {
			_, got := rawExt(t, base+extJSONRPC03, get03, http.Header{name: {extCitations, extTrace}})
			if !strings.Contains(got, `"code":-32001`) {
				t.Fatalf("peer, %s: %s", name, got)
			}
		}
		_, got := rawExt(t, base+extJSONRPC03, get03, nil)
		if !strings.Contains(got, `"code":-32008`) {
			t.Fatalf("peer, none: %s", got)
		}
	})
}
