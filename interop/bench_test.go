package interop

// Benchmarks: this SDK side by side with a hand-written floor (net/http +
// encoding/json, no retries) and the official Go client
// (github.com/a2aproject/a2a-go v0.3.15 a2aclient JSON-RPC transport), all
// against one loopback server that serves fixed bodies. bench.sh runs them
// with -count 6 and writes BENCHMARKS.md. They measure; they assert nothing
// about time.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"

	peer "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
)

// ---- bodies -------------------------------------------------------------

// workload is one result the server sends, with the call that asks for it.
type workload struct {
	name   string
	result []byte // the JSON-RPC result, a Task
	send   bool   // message/send instead of tasks/get
}

var (
	workloadsOnce sync.Once
	workloads     []workload
)

func benchWorkloads(b *testing.B) []workload {
	workloadsOnce.Do(func() {
		seed, err := os.ReadFile(filepath.Join("..", "testdata", "send_completed_entity.json"))
		if err != nil {
			panic(err)
		}
		var env struct{ Result json.RawMessage }
		if err := json.Unmarshal(seed, &env); err != nil {
			panic(err)
		}
		var small bytes.Buffer
		json.Compact(&small, env.Result)
		workloads = []workload{
			{name: "GetSeed", result: small.Bytes()},
			{name: "Get1MiB", result: largeTask(1 << 20)},
			{name: "Get200Artifacts", result: manyArtifacts(200)},
			{name: "Send", result: small.Bytes(), send: true},
		}
	})
	return workloads
}

// largeTask is a completed task whose one DataPart holds about size bytes
// of records.
func largeTask(size int) []byte {
	var data bytes.Buffer
	data.WriteString(`{"records":[`)
	for i := 0; data.Len() < size; i++ {
		if i > 0 {
			data.WriteByte(',')
		}
		fmt.Fprintf(&data, `{"id":"r%06d","result":"合格","value":%d.5,"ok":true,"note":"巡检记录 %d"}`, i, i, i)
	}
	data.WriteString(`]}`)
	return []byte(`{"kind":"task","id":"big-1","contextId":"ctx-1","status":{"state":"completed","timestamp":"2026-08-12T17:14:13.272Z"},` +
		`"artifacts":[{"artifactId":"a1","name":"records","parts":[{"kind":"data","data":` + data.String() + `},{"kind":"text","text":"大量记录"}]}]}`)
}

// manyArtifacts is a completed task with n artifacts of two parts each.
func manyArtifacts(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"kind":"task","id":"many-1","contextId":"ctx-1","status":{"state":"completed","timestamp":"2026-08-12T17:14:13.272Z"},"artifacts":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"artifactId":"a%d","name":"entity","parts":[{"kind":"data","data":{"title":"设备-%d","status":{"设备运行状态":"正常"},"count":%d}},{"kind":"text","text":"设备-%d;状态正常"}]}`, i, i, i, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// response is the JSON-RPC response carrying result for request id.
func response(id, result []byte) []byte {
	out := make([]byte, 0, len(result)+64)
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"result":`...)
	out = append(out, result...)
	return append(out, '}')
}

// requestID reads the id of a JSON-RPC request.
func requestID(body []byte) []byte {
	var env struct{ ID json.RawMessage }
	json.Unmarshal(body, &env)
	return env.ID
}

// benchServer serves result to every POST, echoing the request id, and
// counts the connections it accepts.
type benchServer struct {
	*httptest.Server
	result atomic.Pointer[[]byte]
	conns  atomic.Int64
}

func newBenchServer(b *testing.B) *benchServer {
	s := &benchServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		out := response(requestID(body), *s.result.Load())
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(out)))
		w.Write(out)
	}))
	s.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			s.conns.Add(1)
		}
	}
	s.Start()
	b.Cleanup(s.Close)
	return s
}

// ---- the three clients --------------------------------------------------

// caller is one client under test: it makes the workload's call and returns
// the task's state, so the compiler cannot drop the work.
type caller func(ctx context.Context, w workload) (string, error)

// newTransport gives every client the same connection pool settings.
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return t
}

// Floor: a hand-written JSON-RPC POST decoded in one pass into structs
// equivalent to the SDK's, with no retries and no checks beyond the error.
type floorPart struct {
	Kind     string          `json:"kind"`
	Text     string          `json:"text,omitempty"`
	Data     json.RawMessage `json:"data,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	File     *struct {
		Name     string `json:"name,omitempty"`
		MIMEType string `json:"mimeType,omitempty"`
		Bytes    string `json:"bytes,omitempty"`
		URI      string `json:"uri,omitempty"`
	} `json:"file,omitempty"`
}

type floorMessage struct {
	Kind      string      `json:"kind"`
	MessageID string      `json:"messageId"`
	Role      string      `json:"role"`
	Parts     []floorPart `json:"parts"`
	TaskID    string      `json:"taskId,omitempty"`
	ContextID string      `json:"contextId,omitempty"`
}

type floorTask struct {
	Kind      string `json:"kind"`
	ID        string `json:"id"`
	ContextID string `json:"contextId"`
	Status    struct {
		State     string        `json:"state"`
		Message   *floorMessage `json:"message,omitempty"`
		Timestamp string        `json:"timestamp,omitempty"`
	} `json:"status"`
	History   []floorMessage `json:"history,omitempty"`
	Artifacts []struct {
		ArtifactID string          `json:"artifactId"`
		Name       string          `json:"name,omitempty"`
		Parts      []floorPart     `json:"parts"`
		Metadata   json.RawMessage `json:"metadata,omitempty"`
	} `json:"artifacts,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

type floorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  *floorTask      `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func floorCaller(url string, hc *http.Client) caller {
	var id atomic.Int64
	return func(ctx context.Context, w workload) (string, error) {
		type request struct {
			JSONRPC string `json:"jsonrpc"`
			ID      int64  `json:"id"`
			Method  string `json:"method"`
			Params  any    `json:"params"`
		}
		req := request{JSONRPC: "2.0", ID: id.Add(1), Method: "tasks/get", Params: map[string]string{"id": "t1"}}
		if w.send {
			req.Method = "message/send"
			req.Params = map[string]any{"message": floorMessage{Kind: "message", MessageID: "m1", Role: "user",
				Parts: []floorPart{{Kind: "text", Text: "这个二维码是什么？"}}}, "configuration": map[string]bool{"blocking": true}}
		}
		body, err := json.Marshal(req)
		if err != nil {
			return "", err
		}
		hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return "", err
		}
		hreq.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(hreq)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		var out floorResponse
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			return "", err
		}
		if out.Error != nil {
			return "", fmt.Errorf("rpc error %d", out.Error.Code)
		}
		return out.Result.Status.State, nil
	}
}

func oursCaller(url string, hc *http.Client) caller {
	c, err := a2a.NewClient(url, a2a.WithHTTPClient(hc))
	if err != nil {
		panic(err)
	}
	return func(ctx context.Context, w workload) (string, error) {
		if w.send {
			t, err := c.SendText(ctx, "这个二维码是什么？")
			if err != nil {
				return "", err
			}
			return string(t.Status.State), nil
		}
		t, err := c.GetTask(ctx, "t1")
		if err != nil {
			return "", err
		}
		return string(t.Status.State), nil
	}
}

func peerCaller(url string, hc *http.Client) caller {
	tr := a2aclient.NewJSONRPCTransport(url, hc)
	return func(ctx context.Context, w workload) (string, error) {
		if w.send {
			res, err := tr.SendMessage(ctx, &peer.MessageSendParams{Message: peer.NewMessage(peer.MessageRoleUser, peer.TextPart{Text: "这个二维码是什么？"})})
			if err != nil {
				return "", err
			}
			t, ok := res.(*peer.Task)
			if !ok {
				return "", fmt.Errorf("result %T", res)
			}
			return string(t.Status.State), nil
		}
		t, err := tr.GetTask(ctx, &peer.TaskQueryParams{ID: "t1"})
		if err != nil {
			return "", err
		}
		return string(t.Status.State), nil
	}
}

var clients = []struct {
	name string
	make func(url string, hc *http.Client) caller
}{
	{"floor", floorCaller},
	{"ours", oursCaller},
	{"a2a-go", peerCaller},
}

// ---- benchmarks -----------------------------------------------------------

// BenchmarkHTTP: one call per op over loopback HTTP, per workload and client.
func BenchmarkHTTP(b *testing.B) {
	srv := newBenchServer(b)
	for _, w := range benchWorkloads(b) {
		for _, cl := range clients {
			b.Run(w.name+"/"+cl.name, func(b *testing.B) {
				srv.result.Store(&w.result)
				tr := newTransport()
				defer tr.CloseIdleConnections()
				call := cl.make(srv.URL+"/a2a/jsonrpc", &http.Client{Transport: tr})
				runCalls(b, call, w)
			})
		}
	}
}

// runCalls times call(w) once per op; every call must end completed.
func runCalls(b *testing.B, call caller, w workload) {
	ctx := context.Background()
	b.SetBytes(int64(len(w.result)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if state, err := call(ctx, w); err != nil || state != "completed" {
			b.Fatalf("%s: %v", state, err)
		}
	}
}

// memTransport answers every request from memory: the client's work
// (encode, decode, checks) without sockets.
type memTransport struct{ result []byte }

func (m memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	r.Body.Close()
	out := response(requestID(body), m.result)
	return &http.Response{
		StatusCode: 200, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(out)),
		ContentLength: int64(len(out)), Request: r,
	}, nil
}

// BenchmarkDecode: the same calls with an in-memory transport, so only the
// clients' own work is measured: building the request, reading and
// decoding the reply.
func BenchmarkDecode(b *testing.B) {
	for _, w := range benchWorkloads(b) {
		for _, cl := range clients {
			b.Run(w.name+"/"+cl.name, func(b *testing.B) {
				call := cl.make("http://bench.invalid/a2a/jsonrpc", &http.Client{Transport: memTransport{w.result}})
				runCalls(b, call, w)
			})
		}
	}
}

// BenchmarkParallel1000: 1000 goroutines share one client calling tasks/get
// of the seed task; the "conns" metric is the connections the server
// accepted during the run.
func BenchmarkParallel1000(b *testing.B) {
	w := benchWorkloads(b)[0]
	for _, cl := range clients {
		b.Run(cl.name, func(b *testing.B) {
			srv := newBenchServer(b)
			srv.result.Store(&w.result)
			tr := newTransport()
			defer tr.CloseIdleConnections()
			call := cl.make(srv.URL+"/a2a/jsonrpc", &http.Client{Transport: tr})
			b.ReportAllocs()
			b.SetParallelism(max(1, 1000/max(1, testingProcs())))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				for pb.Next() {
					if state, err := call(ctx, w); err != nil || state != "completed" {
						b.Errorf("%s: %v", state, err)
						return
					}
				}
			})
			b.ReportMetric(float64(srv.conns.Load()), "conns")
		})
	}
}

// testingProcs is GOMAXPROCS, which RunParallel multiplies the
// parallelism by.
func testingProcs() int { return runtime.GOMAXPROCS(0) }

// BenchmarkPollerEfficiency: a task turns completed T after the poll
// starts; WaitTask with default settings is timed from that moment to its
// return. Reports tasks/get requests per poll, the lag after the change,
// and (lag+T)/T, the wait over the minimum. Run it with -benchtime=1x.
func BenchmarkPollerEfficiency(b *testing.B) {
	for _, T := range []time.Duration{time.Second, 3 * time.Second, 10 * time.Second} {
		b.Run("T="+T.String(), func(b *testing.B) {
			var (
				mu      sync.Mutex
				doneAt  time.Time
				gets    int
				pending = []byte(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"working"}}`)
				done    = []byte(`{"kind":"task","id":"t1","contextId":"c1","status":{"state":"completed"}}`)
			)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				mu.Lock()
				gets++
				result := pending
				if !time.Now().Before(doneAt) {
					result = done
				}
				mu.Unlock()
				w.Header().Set("Content-Type", "application/json")
				w.Write(response(requestID(body), result))
			}))
			defer srv.Close()
			c, _ := a2a.NewClient(srv.URL)
			var lag time.Duration
			gets = 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				mu.Lock()
				doneAt = time.Now().Add(T)
				mu.Unlock()
				task, err := c.WaitTask(context.Background(), "t1")
				if err != nil || task.Status.State != a2a.TaskStateCompleted {
					b.Fatalf("%v %v", task, err)
				}
				mu.Lock()
				lag += time.Since(doneAt)
				mu.Unlock()
			}
			b.StopTimer()
			n := float64(b.N)
			b.ReportMetric(float64(gets)/n, "gets/op")
			b.ReportMetric(float64(lag.Milliseconds())/n, "lag-ms/op")
			b.ReportMetric((float64(lag)+n*float64(T))/(n*float64(T)), "wait/min")
		})
	}
}
