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
