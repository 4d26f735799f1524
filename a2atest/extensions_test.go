package a2atest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

const (
	extA = "https://example.com/ext/a/v1"
	extB = "urn:example:ext:b"
)

// rawDo sends one request with header (repeated lines kept) and returns
// the reply's status and body.
func rawDo(t *testing.T, method, url, body string, header http.Header) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	for k, vs := range header {
		req.Header[k] = vs
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	http.DefaultClient.CloseIdleConnections()
	return resp.StatusCode, b
}

// extRefusal is what a refusal for missing extensions says: the JSON-RPC
// code, or over HTTP+JSON the HTTP status and google.rpc status, and the
// ErrorInfo's reason and "extensions" metadata.
type extRefusal struct {
	code, status    int
	statusName      string
	reason, missing string
	accepted        bool
}

// readRefusal reads a JSON-RPC error or a google.rpc.Status reply.
func readRefusal(t *testing.T, status int, body []byte) extRefusal {
	t.Helper()
	var reply struct {
		Error *struct {
			Code    int             `json:"code"`
			Status  string          `json:"status"`
			Data    json.RawMessage `json:"data"`
			Details json.RawMessage `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &reply); err != nil {
		t.Fatalf("reply %s: %v", body, err)
	}
	if reply.Error == nil {
		return extRefusal{accepted: true}
	}
	r := extRefusal{code: reply.Error.Code, status: status, statusName: reply.Error.Status}
	details := reply.Error.Data
	if details == nil {
		details = reply.Error.Details
	}
	var infos []struct {
		Reason   string            `json:"reason"`
		Metadata map[string]string `json:"metadata"`
	}
	json.Unmarshal(details, &infos)
	if len(infos) > 0 {
		r.reason, r.missing = infos[0].Reason, infos[0].Metadata["extensions"]
	}
	return r
}

// TestRequireExtension: on every binding a2atest serves, a request must
// activate each required extension in its version's header, as one comma
// list or repeated lines, spaces trimmed; otherwise it is refused with
// -32008 (HTTP+JSON: 400 FAILED_PRECONDITION) and an ErrorInfo naming the
// URIs missing. Card GETs are not checked.
func TestRequireExtension(t *testing.T) {
	type binding struct {
		name             string
		opts             []a2atest.Option
		method, path     string
		body, headerName string
		version          string
	}
	bindings := []binding{
		{"v0.3 JSON-RPC", nil, http.MethodPost, "/a2a/jsonrpc",
			`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"nope"}}`, "X-A2A-Extensions", ""},
		{"v1.0 JSON-RPC", []a2atest.Option{a2atest.V10()}, http.MethodPost, "/a2a/jsonrpc",
			`{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"nope"}}`, "A2A-Extensions", "1.0"},
		{"v0.3 HTTP+JSON", []a2atest.Option{a2atest.HTTPJSON()}, http.MethodGet, "/a2a/rest/v1/tasks/nope", "", "X-A2A-Extensions", ""},
		{"v1.0 HTTP+JSON", []a2atest.Option{a2atest.V10(), a2atest.HTTPJSON()}, http.MethodGet, "/a2a/rest/tasks/nope", "", "A2A-Extensions", "1.0"},
	}
	for _, b := range bindings {
		t.Run(b.name, func(t *testing.T) {
			srv := a2atest.NewServer(append(b.opts, a2atest.RequireExtension(extA), a2atest.RequireExtension(extB), a2atest.RequireExtension(extA))...)
			defer srv.Close()
			other := "A2A-Extensions"
			if b.headerName == other {
				other = "X-A2A-Extensions"
			}
			for _, tc := range []struct {
				name    string
				header  http.Header
				missing string // "" when accepted
			}{
				{"none", http.Header{}, extA + "," + extB},
				{"one field", http.Header{b.headerName: {extA + "," + extB}}, ""},
				{"spaces", http.Header{b.headerName: {" " + extB + " ,  " + extA + " "}}, ""},
				{"lines", http.Header{b.headerName: {extA, extB}}, ""},
				{"one of two", http.Header{b.headerName: {extB}}, extA},
				{"a URI's prefix", http.Header{b.headerName: {extA[:10] + "," + extB}}, extA},
				{"the other version's header", http.Header{other: {extA + "," + extB}}, extA + "," + extB},
			} {
				h := tc.header.Clone()
				if b.version != "" {
					h.Set("A2A-Version", b.version)
				}
				h = canonical(h)
				status, body := rawDo(t, b.method, srv.BaseURL()+b.path, b.body, h)
				got := readRefusal(t, status, body)
				if tc.missing == "" {
					if got.code == -32008 || got.reason == "EXTENSION_SUPPORT_REQUIRED" {
						t.Errorf("%s: refused: %s", tc.name, body)
					}
					continue
				}
				want := extRefusal{code: -32008, status: status, reason: "EXTENSION_SUPPORT_REQUIRED", missing: tc.missing}
				if strings.Contains(b.name, "HTTP+JSON") {
					want.code, want.status, want.statusName = 400, 400, "FAILED_PRECONDITION"
				}
				if got != want {
					t.Errorf("%s: refusal %+v, want %+v (%s)", tc.name, got, want, body)
				}
			}
			card, err := a2a.ResolveAgentCard(t.Context(), srv.BaseURL())
			if b.name == "v0.3 JSON-RPC" {
				if err == nil {
					t.Errorf("a v0.3 server without a card served one")
				}
				return
			}
			if err != nil {
				t.Fatalf("card GET: %v", err)
			}
			if got := card.RequiredExtensions(); len(got) != 2 || got[0] != extA || got[1] != extB {
				t.Errorf("card requires %q", got)
			}
		})
	}
}

// canonical is h with its names in canonical form, as net/http sends them.
func canonical(h http.Header) http.Header {
	out := http.Header{}
	for k, vs := range h {
		for _, v := range vs {
			out.Add(k, v)
		}
	}
	return out
}

// TestRequireExtensionClient: a client that activates the extension is
// served on each binding; one that does not gets an error naming it.
func TestRequireExtensionClient(t *testing.T) {
	for _, v10 := range []bool{false, true} {
		opts := []a2atest.Option{a2atest.RequireExtension(extA)}
		copts := []a2a.Option{}
		if v10 {
			opts = append(opts, a2atest.V10())
			copts = append(copts, a2a.WithProtocolVersion(a2a.ProtocolV10))
		}
		srv := a2atest.NewServer(opts...)
		c, err := a2a.NewClient(srv.URL, append(copts, a2a.WithExtensions(extA))...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.SendText(t.Context(), "hi"); err != nil {
			t.Errorf("v10=%v: %v", v10, err)
		}
		srv.Close()
	}
}
