package a2a_test

import (
	"bytes"
	stdcmp "cmp"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/jarcoal/httpmock"
)

const mockURL = "https://agent.example/a2a/jsonrpc"

// The one fake server of this package's tests: it answers the requests it
// gets with a script of replies, the last one repeating, and records every
// request. One handler serves either in memory, on an httpmock transport
// (newMock, newEcho), or on a loopback httptest server (serveFake), for the
// faults only a real connection shows (resets, trickles, hijacked bytes).
// a2atest is the public fake agent, for tests written as a user would.

// mockReply is one scripted reply. In body, the text {{id}} is replaced by
// the request's JSON-RPC id.
type mockReply struct {
	status  int // 0 means 200
	ctype   string
	header  http.Header
	body    []byte
	echoID  bool // replace body's top-level "id" with the request's (recorded replies)
	chunked bool // send no Content-Length
	// serve, when set, answers instead of the fields above; id is the
	// request's JSON-RPC id as raw JSON.
	serve func(w http.ResponseWriter, r *http.Request, id string)
	sent  []byte // the body as sent, set by the fake
}

func rpcReply(body []byte) mockReply {
	return mockReply{status: 200, ctype: "application/json", body: body, echoID: true}
}

// sentRequest is a request as the fake received it.
type sentRequest struct {
	JSONRPC   string          `json:"jsonrpc"`
	ID        json.RawMessage `json:"id"`
	Method    string          `json:"method"`
	Params    json.RawMessage `json:"params"`
	AgentID   *string         `json:"agent_id"`
	AgentCode *string         `json:"agent_code"`

	raw    []byte
	header http.Header
	at     time.Time
}

// requestID reads the JSON-RPC id of a request body as raw JSON ("7"), for
// a test server to answer with.
func requestID(body []byte) string {
	var req struct{ ID json.RawMessage }
	json.Unmarshal(body, &req)
	return string(req.ID)
}

// fake is the scripted server.
type fake struct {
	t       testing.TB
	mu      sync.Mutex
	replies []mockReply
	got     []sentRequest
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(raw)) // for a serve func that reads it
	s := sentRequest{raw: raw, header: r.Header.Clone(), at: time.Now()}
	if r.Method == http.MethodPost && json.Unmarshal(raw, &s) != nil {
		f.t.Errorf("client sent a body that is not JSON: %q", raw)
	}
	id := requestID(raw)
	f.mu.Lock()
	f.got = append(f.got, s)
	i := min(len(f.got), len(f.replies)) - 1
	rep := f.replies[i]
	f.mu.Unlock()
	if rep.serve != nil {
		rep.serve(w, r, id)
		return
	}
	body := bytes.ReplaceAll(rep.body, []byte("{{id}}"), []byte(id))
	if rep.echoID {
		body = withID(body, s.ID)
	}
	f.mu.Lock()
	f.replies[i].sent = body
	f.mu.Unlock()
	for k, vs := range rep.header {
		w.Header()[k] = vs
	}
	if rep.ctype != "" {
		w.Header().Set("Content-Type", rep.ctype)
	}
	status := stdcmp.Or(rep.status, http.StatusOK)
	if !rep.chunked && status >= 200 && status != http.StatusNoContent {
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(status)
	w.Write(body)
}

// transport serves the fake in memory, through httpmock.
func (f *fake) transport() http.RoundTripper {
	tr := httpmock.NewMockTransport()
	tr.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		rec := httptest.NewRecorder()
		f.ServeHTTP(rec, req)
		resp := rec.Result()
		resp.Request = req
		return resp, nil
	})
	return tr
}

// count is the number of requests received so far; safe while a call runs.
func (f *fake) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.got)
}

// lastSent is the body of the reply the fake sent last.
func (f *fake) lastSent() []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.replies[min(len(f.got), len(f.replies))-1].sent
}

// newMock returns a client of a fake answering with replies in order, in
// memory, with fast retries.
func newMock(t testing.TB, replies []mockReply, opts ...a2a.Option) (*a2a.Client, *fake) {
	t.Helper()
	f := &fake{t: t, replies: replies}
	opts = append([]a2a.Option{
		a2a.WithHTTPClient(&http.Client{Transport: f.transport()}),
		a2a.WithRetryWait(time.Millisecond, 2*time.Millisecond),
	}, opts...)
	c, err := a2a.NewClient(mockURL, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c, f
}

// newEcho returns an in-memory transport answering every request with
// body, its {{id}} replaced by the request's id, as JSON with a
// Content-Length (none with chunked).
func newEcho(t testing.TB, body string, status int, chunked bool) http.RoundTripper {
	f := &fake{t: t, replies: []mockReply{{status: status, ctype: "application/json", body: []byte(body), chunked: chunked}}}
	return f.transport()
}

// serveFake starts the fake on a loopback server, closed at the test's end.
func serveFake(t testing.TB, replies ...mockReply) (*httptest.Server, *fake) {
	srv, f, _ := serveFakeConns(t, replies...)
	return srv, f
}

// conns counts the connections a server accepted and saw closed.
type conns struct{ opened, closed atomic.Int64 }

// serveFakeConns is serveFake, counting the server's connections.
func serveFakeConns(t testing.TB, replies ...mockReply) (*httptest.Server, *fake, *conns) {
	f := &fake{t: t, replies: replies}
	n := &conns{}
	srv := httptest.NewUnstartedServer(f)
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			n.opened.Add(1)
		case http.StateClosed, http.StateHijacked:
			n.closed.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, f, n
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
