package a2a_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestNotJSONReply: a 2xx reply that is not JSON (a proxy's login page,
// plain text) is a *ProtocolError whose text names the Content-Type and
// the start of the body, in every call that reads a 2xx body (a unary
// call in either version, a stream, a card), without the decoder's "invalid
// character '<' …"; the decoder's error stays reachable with errors.As.
// When the Content-Type claims JSON, the decoder's words say what is
// broken and are kept.
func TestNotJSONReply(t *testing.T) {
	calls := map[string]func(url string) error{
		"GetTask v0.3": func(url string) error {
			c, _ := a2a.NewClient(url, a2a.WithMaxRetries(0))
			_, err := c.GetTask(t.Context(), "t1")
			return err
		},
		"GetTask v1.0": func(url string) error {
			c, _ := a2a.NewClient(url, a2a.WithMaxRetries(0), a2a.WithProtocolVersion(a2a.ProtocolV10))
			_, err := c.GetTask(t.Context(), "t1")
			return err
		},
		"stream": func(url string) error {
			c, _ := a2a.NewClient(url, a2a.WithMaxRetries(0))
			for _, err := range c.SendStreamingMessage(t.Context(), a2a.NewTextMessage("hi")) {
				if err != nil {
					return err
				}
			}
			return nil
		},
		"card": func(url string) error {
			_, err := a2a.ResolveAgentCard(t.Context(), url+a2a.AgentCardPath, a2a.WithMaxRetries(0))
			return err
		},
	}
	for _, tc := range []struct {
		ctype, body string
		noise       bool // the decoder's words are shown
	}{
		{"text/html; charset=utf-8", "<html><body>Please log in</body></html>", false},
		{"text/plain", "Service temporarily in maintenance", false},
		{"", "OK", false},
		{"application/json", `{"jsonrpc":"2.0",oops}`, true},
		{"application/problem+json", `<oops>`, true},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = []string{tc.ctype}
			w.Write([]byte(tc.body))
		}))
		for name, call := range calls {
			err := call(srv.URL)
			var pe *a2a.ProtocolError
			if !errors.As(err, &pe) {
				t.Errorf("%s, %q: err = %v, want a *ProtocolError", name, tc.ctype, err)
				continue
			}
			text := err.Error()
			for _, want := range []string{"not JSON", "Content-Type " + strconv.Quote(tc.ctype), "starting " + strings.TrimSuffix(strconv.Quote(tc.body[:min(len(tc.body), 20)]), `"`)} {
				if !strings.Contains(text, want) {
					t.Errorf("%s, %q: %q does not hold %s", name, tc.ctype, text, want)
				}
			}
			if got := strings.Contains(text, "invalid character") || strings.Contains(text, "looking for"); got != tc.noise {
				t.Errorf("%s, %q: %q: the decoder's words shown %v, want %v", name, tc.ctype, text, got, tc.noise)
			}
			var se *json.SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("%s, %q: the *json.SyntaxError is not reachable with errors.As", name, tc.ctype)
			}
		}
		srv.Close()
	}
	a2a.CloseIdleConnections()
}

// TestLargeValuesDecoded: a task whose DataPart and unknown members are
// large (past the size from which the first, validating pass notes where
// a value ends, so that the later passes step over it at once) decodes
// the same over A2A v0.3 JSON-RPC, v1.0 JSON-RPC and v1.0 HTTP+JSON:
// the data byte for byte, the parts around it, Raw the task's bytes.
func TestLargeValuesDecoded(t *testing.T) {
	var rows strings.Builder
	for i := range 3000 {
		if i > 0 {
			rows.WriteByte(',')
		}
		rows.WriteString(`{"id":"r` + strconv.Itoa(i) + `","note":"巡检 \"记录\" ]}","v":[1.5e-3,{"x":null}]}`)
	}
	data := `{"rows":[` + rows.String() + `]}`
	unknown := `["` + strings.Repeat(`x`, 40<<10) + `"]`
	v03 := `{"kind":"task","id":"t1","contextId":"c1","extra":` + unknown + `,"status":{"state":"completed"},"artifacts":[{"artifactId":"a1",` +
		`"parts":[{"kind":"data","data":` + data + `,"metadata":` + unknown + `},{"kind":"text","text":"after"}]}],"metadata":` + data + `}`
	v10 := `{"id":"t1","contextId":"c1","extra":` + unknown + `,"status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a1",` +
		`"parts":[{"data":` + data + `,"metadata":` + unknown + `},{"text":"after"}]}],"metadata":` + data + `}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet { // HTTP+JSON GetTask: the task bare
			w.Write([]byte(v10))
			return
		}
		var req struct {
			ID     json.RawMessage
			Method string
		}
		json.NewDecoder(r.Body).Decode(&req)
		result := v03
		if req.Method == "GetTask" {
			result = v10
		}
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + `}`))
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name string
		opts []a2a.Option
		raw  string
	}{
		{"v0.3 JSON-RPC", nil, v03},
		{"v1.0 JSON-RPC", []a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10)}, v10},
		{"v1.0 HTTP+JSON", []a2a.Option{a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON)}, v10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := a2a.NewClient(srv.URL, tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			task, err := c.GetTask(t.Context(), "t1")
			if err != nil {
				t.Fatal(err)
			}
			if task.Status.State != a2a.TaskStateCompleted || string(task.Raw()) != tc.raw {
				t.Fatalf("state %q, Raw %d bytes (want %d)", task.Status.State, len(task.Raw()), len(tc.raw))
			}
			if string(task.Metadata) != data {
				t.Errorf("Metadata: %d bytes, want the %d of data", len(task.Metadata), len(data))
			}
			ps := task.Artifact("").Parts
			if len(task.Artifacts) != 1 || len(ps) != 2 {
				t.Fatalf("artifacts %d, parts %d", len(task.Artifacts), len(ps))
			}
			if d, ok := ps[0].(a2a.DataPart); !ok || string(d.Data) != data || string(d.Metadata) != unknown {
				t.Errorf("part 0: %T, want the DataPart whole", ps[0])
			}
			if ps.Text() != "after" {
				t.Errorf("text %q, want %q", ps.Text(), "after")
			}
		})
	}
}
