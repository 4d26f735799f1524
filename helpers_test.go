package a2a_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
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

// jsonEqual reports whether a and b hold the same JSON value.
func jsonEqual(t testing.TB, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("not JSON: %v: %s", err, a)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("not JSON: %v: %s", err, b)
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return bytes.Equal(ja, jb)
}

// echoTransport answers every POST with one body, the text {{id}} in it
// replaced by the request's JSON-RPC id when echo is set.
type echoTransport struct {
	*httpmock.MockTransport
	status   int    // the reply's HTTP status; 0 means 200
	chunked  bool   // send no Content-Length
	lastBody []byte // the body last sent
}

func newEchoTransport(body string, echo bool) *echoTransport {
	et := &echoTransport{MockTransport: httpmock.NewMockTransport()}
	et.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		out := []byte(body)
		if echo {
			var env struct{ ID json.RawMessage }
			raw, _ := io.ReadAll(req.Body)
			json.Unmarshal(raw, &env)
			out = bytes.ReplaceAll(out, []byte("{{id}}"), env.ID)
		}
		et.lastBody = out
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

// containsAll reports whether s contains every one of subs.
func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
