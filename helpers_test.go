package a2a_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/jarcoal/httpmock"
)

const mockURL = "https://agent.example/a2a/jsonrpc"

// fixture reads testdata/name.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fixtureReplies returns every recorded reply in testdata by name: a file
// holding one reply as "name.json#0", each element of a file holding an
// array of replies as "name.json#i". HTML pages and the like are left out.
func fixtureReplies(t testing.TB) map[string]json.RawMessage {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]json.RawMessage{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		replies := []json.RawMessage{b}
		if json.Unmarshal(b, &replies) != nil {
			replies = []json.RawMessage{b}
		}
		for i, r := range replies {
			out[fmt.Sprintf("%s#%d", filepath.Base(f), i)] = r
		}
	}
	return out
}

// withID returns body with its top-level "id" replaced by id, so a recorded
// reply answers the request the client actually sent. A body that is not a
// JSON object is returned unchanged.
func withID(body []byte, id json.RawMessage) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil || m == nil {
		return body
	}
	if _, ok := m["id"]; ok {
		m["id"] = id
	}
	out, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return out
}

// sentRequest is a decoded request body as the mock received it.
type sentRequest struct {
	JSONRPC   string          `json:"jsonrpc"`
	ID        json.RawMessage `json:"id"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	AgentID   *string         `json:"agent_id"`
	AgentCode *string         `json:"agent_code"`

	raw    []byte
	header http.Header
}

// recorder answers with a script of replies (the last one repeats) and
// records every request body, so tests can assert on what was sent.
type recorder struct {
	mu      sync.Mutex
	t       testing.TB
	replies []mockReply
	got     []sentRequest
}

type mockReply struct {
	status int
	ctype  string
	header http.Header
	body   []byte
	echoID bool // replace the body's top-level id with the request's
	sent   []byte
}

func rpcReply(body []byte) mockReply {
	return mockReply{status: 200, ctype: "application/json", body: body, echoID: true}
}

func (r *recorder) respond(req *http.Request) (*http.Response, error) {
	raw, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, err
	}
	var s sentRequest
	if err := json.Unmarshal(raw, &s); err != nil {
		r.t.Errorf("client sent a body that is not JSON: %q", raw)
	}
	s.raw, s.header = raw, req.Header.Clone()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, s)
	i := min(len(r.got)-1, len(r.replies)-1)
	rep := r.replies[i]
	body := rep.body
	if rep.echoID {
		body = withID(body, s.ID)
	}
	r.replies[i].sent = body
	resp := httpmock.NewBytesResponse(rep.status, body)
	if rep.ctype != "" {
		resp.Header.Set("Content-Type", rep.ctype)
	}
	for k, vs := range rep.header {
		resp.Header[k] = vs
	}
	resp.Request = req
	return resp, nil
}

// count is the number of requests received so far; safe while a call runs.
func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.got)
}

// lastSent is the body of the reply the mock sent last.
func (r *recorder) lastSent() []byte {
	return r.replies[min(len(r.got), len(r.replies))-1].sent
}

// newMock returns a client on a fresh httpmock transport (no global
// Activate) whose endpoint answers with replies in order.
func newMock(t testing.TB, replies []mockReply, opts ...a2a.Option) (*a2a.Client, *recorder) {
	t.Helper()
	tr := httpmock.NewMockTransport()
	rec := &recorder{t: t, replies: replies}
	tr.RegisterResponder(http.MethodPost, mockURL, rec.respond)
	opts = append([]a2a.Option{
		a2a.WithHTTPClient(&http.Client{Transport: tr}),
		a2a.WithRetryWait(1e6, 2e6), // 1-2 ms: retries stay fast in tests
	}, opts...)
	c, err := a2a.NewClient(mockURL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c, rec
}

// echoTransport answers every POST with one body, the text {{id}} in it
// replaced by the request's JSON-RPC id, byte for byte otherwise.
type echoTransport struct {
	*httpmock.MockTransport
	status  int  // the reply's HTTP status; 0 means 200
	chunked bool // send no Content-Length
}

func newEchoTransport(body string) *echoTransport {
	et := &echoTransport{MockTransport: httpmock.NewMockTransport()}
	et.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		var env struct{ ID json.RawMessage }
		raw, _ := io.ReadAll(req.Body)
		json.Unmarshal(raw, &env)
		out := bytes.ReplaceAll([]byte(body), []byte("{{id}}"), env.ID)
		resp := httpmock.NewBytesResponse(max(et.status, http.StatusOK), out)
		resp.Header.Set("Content-Type", "application/json")
		if et.chunked {
			resp.ContentLength = -1
		} else {
			resp.ContentLength = int64(len(out))
		}
		resp.Request = req
		return resp, nil
	})
	return et
}

// requestID reads the JSON-RPC id of a request as raw JSON ("7"), for a
// test server to answer with; it consumes the body.
func requestID(r *http.Request) string {
	var req struct{ ID json.RawMessage }
	json.NewDecoder(r.Body).Decode(&req)
	return string(req.ID)
}

// newCapture returns a logger that keeps every record, at every level, as
// a line of text with all its attributes (those added by With included),
// and a func returning the lines so far.
func newCapture() (*slog.Logger, func() []string) {
	h := &captureHandler{mu: new(sync.Mutex), recs: new([]string)}
	return slog.New(h), func() []string {
		h.mu.Lock()
		defer h.mu.Unlock()
		return slices.Clone(*h.recs)
	}
}

type captureHandler struct {
	mu    *sync.Mutex
	recs  *[]string
	attrs []slog.Attr
}

func (h *captureHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *captureHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Message)
	write := func(a slog.Attr) bool { fmt.Fprintf(&b, " %s=%v", a.Key, a.Value); return true }
	for _, a := range h.attrs {
		write(a)
	}
	r.Attrs(write)
	h.mu.Lock()
	*h.recs = append(*h.recs, b.String())
	h.mu.Unlock()
	return nil
}
func (h *captureHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return &captureHandler{mu: h.mu, recs: h.recs, attrs: append(slices.Clone(h.attrs), as...)}
}
func (h *captureHandler) WithGroup(string) slog.Handler { return h }

// errorTexts is every text an error carries that could hold a secret: its
// message in both formats and each server-sent field of the typed errors
// (bodies, data, reasons, headers, a poll's last state and last fault).
func errorTexts(err error) []string {
	if err == nil {
		return nil
	}
	texts := []string{err.Error(), fmt.Sprintf("%+v", err)}
	if e, ok := errors.AsType[*a2a.HTTPError](err); ok {
		texts = append(texts, string(e.Body), e.ContentType, e.Challenge)
	}
	if e, ok := errors.AsType[*a2a.RPCError](err); ok {
		texts = append(texts, e.Message, string(e.Data))
	}
	if e, ok := errors.AsType[*a2a.ProtocolError](err); ok {
		texts = append(texts, e.Reason, string(e.Body))
	}
	if e, ok := errors.AsType[*a2a.PollError](err); ok {
		texts = append(texts, string(e.LastState))
		texts = append(texts, errorTexts(e.LastErr)...)
	}
	return texts
}

// noSecrets fails t for every text holding one of secrets.
func noSecrets(t testing.TB, texts []string, secrets ...string) {
	t.Helper()
	for _, text := range texts {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("secret %q leaked in %q", s, text)
			}
		}
	}
}

// containsAll reports whether s contains every one of subs.
func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
