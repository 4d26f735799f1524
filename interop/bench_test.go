package interop

// Benchmarks: this SDK side by side with a hand-written floor (net/http +
// encoding/json, no retries), the limit (the HTTP exchange and the body
// read, nothing decoded) and the official Go clients
// (github.com/a2aproject/a2a-go v0.3.15 a2aclient JSON-RPC transport for
// A2A v0.3; github.com/a2aproject/a2a-go/v2 v2.4.0 a2aclient JSON-RPC and
// REST transports for A2A v1.0), all against one loopback server that
// serves fixed bodies, over JSON-RPC and HTTP+JSON (REST), or decoding
// stored bytes. TestInterleaved runs them with the clients taking turns, round
// after round (bench.sh, which writes BENCHMARKS.md); the Benchmark
// functions run the same cases under go test -bench. They measure; they
// assert nothing about time.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf16"

	a2a "github.com/caoliao-a2a/a2a-go"

	peer "github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	peer10 "github.com/a2aproject/a2a-go/v2/a2a"
	peer10client "github.com/a2aproject/a2a-go/v2/a2aclient"
)

// ---- bodies -------------------------------------------------------------

// workload is one result the server sends, with the call that asks for it.
type workload struct {
	name   string
	result []byte // the JSON-RPC result, a Task
	send   bool   // message/send instead of tasks/get
	taskID string // the result's id: what tasks/get asks about
	v10    bool   // the result is A2A v1.0 JSON, asked for with GetTask
	rest   bool   // asked for over HTTP+JSON (GET /tasks/{id}), the body the bare task (v1.0 only)
}

var (
	workloadsOnce sync.Once
	workloads     []workload
)

func benchWorkloads() []workload {
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
			{name: "Get3KB", result: withHistory(small.Bytes())},
			{name: "Get1MiB", result: largeTask(1 << 20)},
			{name: "Get200Artifacts", result: manyArtifacts(200)},
			{name: "Send", result: small.Bytes(), send: true},
			// Other shapes of a 1 MiB DataPart (largeTask's records are
			// the first): what an outsider's agent may well send.
			{name: "Get1MiBNumbers", result: dataTask(numbersData(1 << 20))},
			{name: "Get1MiBEscaped", result: asciiEscaped(largeTask(1 << 20))},
			{name: "Get1MiBIndented", result: indented(largeTask(1 << 20))},
			{name: "Get1MiBString", result: dataTask(stringData(1 << 20))},
		}
		// The same tasks as an A2A v1.0 agent sends them, each asked for
		// over JSON-RPC and, in the row after, over HTTP+JSON.
		// toV10 writes compact JSON with UTF-8: the escaped and indented
		// shapes are made again from its output.
		reshape := map[string]func([]byte) []byte{"Get1MiBEscaped": asciiEscaped, "Get1MiBIndented": indented}
		for _, w := range slices.Clone(workloads) {
			if w.send {
				continue
			}
			v10 := toV10(w.result)
			if f := reshape[w.name]; f != nil {
				v10 = f(v10)
			}
			workloads = append(workloads,
				workload{name: w.name + "-v1.0", result: v10, v10: true},
				workload{name: w.name + "-v1.0-REST", result: v10, v10: true, rest: true})
		}
		for i := range workloads {
			var task struct{ ID string }
			if err := json.Unmarshal(workloads[i].result, &task); err != nil || task.ID == "" {
				panic(fmt.Sprintf("workload %s has no task id: %v", workloads[i].name, err))
			}
			workloads[i].taskID = task.ID
		}
	})
	return workloads
}

// withHistory is the seed task with a status message, metadata and a
// history of ten turns added: about 3 KB, a multi-turn task.
func withHistory(seed []byte) []byte {
	var task map[string]json.RawMessage
	if err := json.Unmarshal(seed, &task); err != nil {
		panic(err)
	}
	turn := func(role, id, text string) string {
		return `{"kind":"message","messageId":"` + id + `","role":"` + role + `","contextId":"ctx-1","taskId":"t1","parts":[{"kind":"text","text":"` + text + `"}]}`
	}
	task["history"] = json.RawMessage(`[` + turn("user", "m1", "这个二维码是什么？https://qr71.cn/okDISU/qssTnoy") + `,` +
		turn("agent", "m2", "正在查询码信息，请稍候。") + `,` + turn("user", "m3", "请同时给出设备运行状态和最近一次巡检记录。") + `,` +
		turn("agent", "m4", "已完成：设备运行状态正常，最近巡检记录合格，详见 entity 工件。") + `,` +
		turn("user", "m5", "这台设备上个月有几次维修？维修人员是谁？请列出每次维修的日期、故障现象和处理结果。") + `,` +
		turn("agent", "m6", "上个月共维修 2 次：3 日主轴异响，更换轴承；17 日冷却液泄漏，更换密封圈。维修人员均为张工。") + `,` +
		turn("user", "m7", "下一次保养计划在什么时候？需要提前准备哪些备件？") + `,` +
		turn("agent", "m8", "下一次保养计划在本月 28 日，需提前准备主轴润滑脂、冷却液滤芯和导轨刮屑板各一套。") + `,` +
		turn("user", "m9", "好的，请把保养计划同步到车间日历，并提醒张工提前一天确认备件库存。") + `,` +
		turn("agent", "m10", "已同步到车间日历（本月 28 日 09:00），并已通知张工于 27 日确认备件库存。") + `]`)
	var status map[string]json.RawMessage
	json.Unmarshal(task["status"], &status)
	status["message"] = json.RawMessage(turn("agent", "m5", "查询完成：设备-A08-03-06，运行正常。"))
	task["status"], _ = json.Marshal(status)
	task["metadata"] = json.RawMessage(`{"source":"gateway","trace":"0af7651916cd43dd8448eb211c80319c","tags":["qr","entity","巡检"]}`)
	out, err := json.Marshal(task)
	if err != nil {
		panic(err)
	}
	return out
}

// largeTask is a completed task whose one DataPart holds about size bytes
// of records.
func largeTask(size int) []byte { return dataTask(recordsData(size)) }

// dataTask is a completed task with one artifact of two parts: a DataPart
// of data, and a short TextPart.
func dataTask(data []byte) []byte {
	return []byte(`{"kind":"task","id":"big-1","contextId":"ctx-1","status":{"state":"completed","timestamp":"2026-08-12T17:14:13.272Z"},` +
		`"artifacts":[{"artifactId":"a1","name":"records","parts":[{"kind":"data","data":` + string(data) + `},{"kind":"text","text":"大量记录"}]}]}`)
}

// recordsData is about size bytes of inspection records: short objects
// of strings (some Chinese), a number and a boolean.
func recordsData(size int) []byte {
	var data bytes.Buffer
	data.WriteString(`{"records":[`)
	for i := 0; data.Len() < size; i++ {
		if i > 0 {
			data.WriteByte(',')
		}
		fmt.Fprintf(&data, `{"id":"r%06d","result":"合格","value":%d.5,"ok":true,"note":"巡检记录 %d"}`, i, i, i)
	}
	data.WriteString(`]}`)
	return data.Bytes()
}

// numbersData is about size bytes of a time series: rows of a timestamp
// and three readings, numbers only (a sensor's or a model's output).
func numbersData(size int) []byte {
	var data bytes.Buffer
	data.WriteString(`{"columns":["t","temperature","vibration","current"],"rows":[`)
	for i := 0; data.Len() < size; i++ {
		if i > 0 {
			data.WriteByte(',')
		}
		fmt.Fprintf(&data, `[%d.%03d,%g,%g,%g]`, 1754990000+i, i%1000, 20+float64(i%97)/7, -float64(i%13)*1.25e-4, 1.5e-7*float64(i%31+1))
	}
	data.WriteString(`]}`)
	return data.Bytes()
}

// asciiEscaped writes every non-ASCII character of JSON text as a \u
// escape, as Python's json.dumps does by default (ensure_ascii): here
// every character of the Chinese text, six bytes for three.
func asciiEscaped(b []byte) []byte {
	var out bytes.Buffer
	for _, r := range string(b) {
		switch {
		case r < 0x80:
			out.WriteRune(r)
		case r < 0x10000:
			fmt.Fprintf(&out, `\u%04x`, r)
		default:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, r1, r2)
		}
	}
	return out.Bytes()
}

// indented is JSON text pretty-printed with two spaces, as
// JSON.stringify(v, null, 2) and json.dumps(v, indent=2) write it.
func indented(b []byte) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		panic(err)
	}
	return out.Bytes()
}

// stringData is one string of about size bytes of base64 (a file inlined
// as data, a picture or a PDF).
func stringData(size int) []byte {
	raw := make([]byte, size*3/4)
	for i := range raw {
		raw[i] = byte(i * 131 >> 3)
	}
	return []byte(`{"name":"scan.png","mimeType":"image/png","base64":"` + base64.StdEncoding.EncodeToString(raw) + `"}`)
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

// toV10 rewrites a v0.3 task as A2A v1.0 JSON (ProtoJSON): no "kind",
// flat parts, TASK_STATE_* and ROLE_* names; data and metadata are left as
// they are.
func toV10(v03 []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(v03))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		panic(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			delete(v, "kind")
			for k, x := range v {
				switch s, _ := x.(string); {
				case k == "data" || k == "metadata":
				case k == "state":
					v[k] = "TASK_STATE_" + strings.ToUpper(strings.ReplaceAll(s, "-", "_"))
				case k == "role":
					v[k] = "ROLE_" + strings.ToUpper(s)
				default:
					walk(x)
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	out, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return out
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

// The interface URLs the clients are given, under the server's URL.
const (
	jsonrpcPath = "/a2a/jsonrpc"
	restPath    = "/a2a/rest"
)

// endpoint is the interface URL of w's binding under the server's base
// URL.
func endpoint(base string, w workload) string {
	if w.rest {
		return base + restPath
	}
	return base + jsonrpcPath
}

// benchReply is the body answering r: for a GET under restPath + "/tasks/" (an
// HTTP+JSON GetTask) result itself, for a POST to jsonrpcPath the JSON-RPC
// response carrying it with the request's id; ok is false for any other
// request.
func benchReply(r *http.Request, result []byte) (out []byte, ok bool, err error) {
	var body []byte
	if r.Body != nil {
		if body, err = io.ReadAll(r.Body); err != nil {
			return nil, false, err
		}
	}
	switch {
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.EscapedPath(), restPath+"/tasks/"):
		return result, true, nil
	case r.Method == http.MethodPost && r.URL.Path == jsonrpcPath:
		return response(requestID(body), result), true, nil
	}
	return nil, false, nil
}

// benchServer serves result to every JSON-RPC POST, echoing the request
// id, and to every HTTP+JSON GET of a task, and counts the connections it
// accepts.
type benchServer struct {
	*httptest.Server
	result atomic.Pointer[[]byte]
	conns  atomic.Int64
}

func newBenchServer(tb testing.TB) *benchServer {
	s := &benchServer{}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		out, ok, _ := benchReply(r, *s.result.Load())
		if !ok {
			http.NotFound(w, r)
			return
		}
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
	tb.Cleanup(s.Close)
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

// floorResponse is the JSON-RPC response of either version's task.
type floorResponse[T any] struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  *T              `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// floorDecode decodes a response into a floorResponse's result.
func floorDecode[T any](r io.Reader) (*T, error) {
	var out floorResponse[T]
	if err := json.NewDecoder(r).Decode(&out); err != nil {
		return nil, err
	}
	if out.Error != nil {
		return nil, fmt.Errorf("rpc error %d", out.Error.Code)
	}
	return out.Result, nil
}

// The floor's A2A v1.0 structs: the same, in v1.0's shapes.
type floorPartV10 struct {
	Text      *string         `json:"text,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
	Raw       string          `json:"raw,omitempty"`
	URL       string          `json:"url,omitempty"`
	MediaType string          `json:"mediaType,omitempty"`
	Filename  string          `json:"filename,omitempty"`
	Metadata  json.RawMessage `json:"metadata,omitempty"`
}

type floorMessageV10 struct {
	MessageID string         `json:"messageId"`
	Role      string         `json:"role"`
	Parts     []floorPartV10 `json:"parts"`
	TaskID    string         `json:"taskId,omitempty"`
	ContextID string         `json:"contextId,omitempty"`
}

type floorTaskV10 struct {
	ID        string `json:"id"`
	ContextID string `json:"contextId"`
	Status    struct {
		State     string           `json:"state"`
		Message   *floorMessageV10 `json:"message,omitempty"`
		Timestamp string           `json:"timestamp,omitempty"`
	} `json:"status"`
	History   []floorMessageV10 `json:"history,omitempty"`
	Artifacts []struct {
		ArtifactID string          `json:"artifactId"`
		Name       string          `json:"name,omitempty"`
		Parts      []floorPartV10  `json:"parts"`
		Metadata   json.RawMessage `json:"metadata,omitempty"`
	} `json:"artifacts,omitempty"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// state is the task's state as the v0.3 floor spells it.
func (t *floorTaskV10) state() string {
	if t.Status.State == "TASK_STATE_COMPLETED" {
		return "completed"
	}
	return t.Status.State
}

func floorCaller(base string, hc *http.Client) caller {
	var id atomic.Int64
	return func(ctx context.Context, w workload) (string, error) {
		if w.rest {
			return floorREST(ctx, hc, endpoint(base, w), w)
		}
		type request struct {
			JSONRPC string `json:"jsonrpc"`
			ID      int64  `json:"id"`
			Method  string `json:"method"`
			Params  any    `json:"params"`
		}
		req := request{JSONRPC: "2.0", ID: id.Add(1), Method: "tasks/get", Params: map[string]string{"id": w.taskID}}
		if w.v10 {
			req.Method = "GetTask"
		}
		if w.send {
			req.Method = "message/send"
			req.Params = map[string]any{"message": floorMessage{Kind: "message", MessageID: "m1", Role: "user",
				Parts: []floorPart{{Kind: "text", Text: "这个二维码是什么？"}}}, "configuration": map[string]bool{"blocking": true}}
		}
		body, err := json.Marshal(req)
		if err != nil {
			return "", err
		}
		hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint(base, w), bytes.NewReader(body))
		if err != nil {
			return "", err
		}
		hreq.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(hreq)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		if w.v10 {
			t, err := floorDecode[floorTaskV10](resp.Body)
			if err != nil {
				return "", err
			}
			return t.state(), nil
		}
		t, err := floorDecode[floorTask](resp.Body)
		if err != nil {
			return "", err
		}
		return t.Status.State, nil
	}
}

// floorREST is the floor's HTTP+JSON GetTask: a GET of /tasks/{id} under
// the interface URL (the id escaped as a path segment), the status
// checked, the body decoded in one pass into the v1.0 structs.
func floorREST(ctx context.Context, hc *http.Client, iface string, w workload) (string, error) {
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, iface+"/tasks/"+url.PathEscape(w.taskID), nil)
	if err != nil {
		return "", err
	}
	resp, err := hc.Do(hreq)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	var t floorTaskV10
	if err := json.NewDecoder(resp.Body).Decode(&t); err != nil {
		return "", err
	}
	return t.state(), nil
}

// limitCaller is the physical limit: the floor's HTTP exchange (the same
// verb, URL and request body, written without an encoder) with the reply
// read to its end and nothing decoded. Only the loopback rows (HTTP/*)
// run it.
func limitCaller(base string, hc *http.Client) caller {
	return func(ctx context.Context, w workload) (string, error) {
		verb, body := http.MethodGet, io.Reader(nil)
		target := endpoint(base, w)
		switch {
		case w.rest:
			target += "/tasks/" + url.PathEscape(w.taskID)
		case w.send:
			verb, body = http.MethodPost, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"这个二维码是什么？"}]},"configuration":{"blocking":true}}}`)
		case w.v10:
			verb, body = http.MethodPost, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"`+w.taskID+`"}}`)
		default:
			verb, body = http.MethodPost, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"`+w.taskID+`"}}`)
		}
		hreq, err := http.NewRequestWithContext(ctx, verb, target, body)
		if err != nil {
			return "", err
		}
		if body != nil {
			hreq.Header.Set("Content-Type", "application/json")
		}
		resp, err := hc.Do(hreq)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		if _, err := io.Copy(io.Discard, resp.Body); err != nil {
			return "", err
		}
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		return "completed", nil
	}
}

func oursCaller(base string, hc *http.Client) caller {
	newClient := func(url string, opts ...a2a.Option) *a2a.Client {
		c, err := a2a.NewClient(url, append(opts, a2a.WithHTTPClient(hc))...)
		if err != nil {
			panic(err)
		}
		return c
	}
	c := newClient(base + jsonrpcPath)
	c10 := newClient(base+jsonrpcPath, a2a.WithProtocolVersion(a2a.ProtocolV10))
	rest10 := newClient(base+restPath, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithTransports(a2a.TransportHTTPJSON))
	return func(ctx context.Context, w workload) (string, error) {
		c := c
		switch {
		case w.rest:
			c = rest10
		case w.v10:
			c = c10
		case w.send:
			t, err := c.SendText(ctx, "这个二维码是什么？")
			if err != nil {
				return "", err
			}
			return string(t.Status.State), nil
		}
		t, err := c.GetTask(ctx, w.taskID)
		if err != nil {
			return "", err
		}
		return string(t.Status.State), nil
	}
}

// peerCaller is the official Go client: a2a-go v0.3.15's JSON-RPC
// transport for A2A v0.3, a2a-go/v2 v2.4.0's JSON-RPC and REST transports
// for A2A v1.0.
func peerCaller(base string, hc *http.Client) caller {
	tr := a2aclient.NewJSONRPCTransport(base+jsonrpcPath, hc)
	tr10 := peer10client.NewJSONRPCTransport(base+jsonrpcPath, hc)
	restURL, err := url.Parse(base + restPath)
	if err != nil {
		panic(err)
	}
	rest10 := peer10client.NewRESTTransport(restURL, hc)
	return func(ctx context.Context, w workload) (string, error) {
		if w.v10 {
			tr10 := tr10
			if w.rest {
				tr10 = rest10
			}
			t, err := tr10.GetTask(ctx, nil, &peer10.GetTaskRequest{ID: peer10.TaskID(w.taskID)})
			if err != nil {
				return "", err
			}
			return peer10State(t.Status.State), nil
		}
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
		t, err := tr.GetTask(ctx, &peer.TaskQueryParams{ID: peer.TaskID(w.taskID)})
		if err != nil {
			return "", err
		}
		return string(t.Status.State), nil
	}
}

// peer10State is a2a-go/v2's state as the v0.3 floor spells it.
func peer10State(s peer10.TaskState) string {
	if s == peer10.TaskStateCompleted {
		return "completed"
	}
	return string(s)
}

// client is one client under test: make returns its caller for a
// server's base URL (the interfaces are jsonrpcPath and restPath under
// it; nil: Stored rows only), stored decodes a task kept as bytes
// (json.Unmarshal into its task type, or for "parse" a2a.ParseTask) and
// returns the task's state (nil: no Stored rows); v10 says it speaks A2A
// v1.0 (the v1.0 workloads are run by those only); loopback says it runs
// the HTTP/* rows alone.
type client struct {
	name     string
	make     func(base string, hc *http.Client) caller
	stored   func(raw []byte) (string, error)
	v10      bool
	loopback bool
}

// clients are compared in this order; before_test.go adds a "before"
// client (bench.sh BEFORE=<commit>).
var clients = []client{
	{name: "floor", make: floorCaller, v10: true, stored: func(raw []byte) (string, error) {
		if bytes.Contains(raw[:min(len(raw), 64)], []byte(`"kind"`)) {
			var t floorTask
			err := json.Unmarshal(raw, &t)
			return t.Status.State, err
		}
		var t floorTaskV10
		err := json.Unmarshal(raw, &t)
		return t.state(), err
	}},
	{name: "ours", make: oursCaller, v10: true, stored: func(raw []byte) (string, error) {
		var t a2a.Task
		err := json.Unmarshal(raw, &t)
		return string(t.Status.State), err
	}},
	{name: "parse", v10: true, stored: func(raw []byte) (string, error) {
		t, err := a2a.ParseTask(raw)
		if err != nil {
			return "", err
		}
		return string(t.Status.State), nil
	}},
	{name: "a2a-go", make: peerCaller, v10: true, stored: func(raw []byte) (string, error) {
		if bytes.Contains(raw[:min(len(raw), 64)], []byte(`"kind"`)) {
			var t peer.Task
			err := json.Unmarshal(raw, &t)
			return string(t.Status.State), err
		}
		var t peer10.Task
		err := json.Unmarshal(raw, &t)
		return peer10State(t.Status.State), err
	}},
	{name: "limit", make: limitCaller, v10: true, loopback: true},
}

// ---- cases ----------------------------------------------------------------

// benchCase is one benchmark: a workload run by one client. Cases of one
// group (workload) are compared with each other.
type benchCase struct {
	group, client string
	run           func(b *testing.B)
}

// benchCases returns every case, grouped: HTTP/* (loopback), Decode/* (an
// in-memory transport), Stored/* (json.Unmarshal of a task's bytes) and
// Parallel1000. Servers start on first use and close with cleanup.
func benchCases(tb testing.TB) []benchCase {
	var cases []benchCase
	srv := newBenchServer(tb)
	for _, w := range benchWorkloads() {
		for _, cl := range clients {
			if w.v10 && !cl.v10 || cl.make == nil {
				continue
			}
			cases = append(cases, benchCase{"HTTP/" + w.name, cl.name, func(b *testing.B) {
				srv.result.Store(&w.result)
				tr := newTransport()
				defer tr.CloseIdleConnections()
				runCalls(b, cl.make(srv.URL, &http.Client{Transport: tr}), w)
			}})
		}
	}
	for _, w := range benchWorkloads() {
		for _, cl := range clients {
			if w.v10 && !cl.v10 || cl.loopback || cl.make == nil {
				continue
			}
			cases = append(cases, benchCase{"Decode/" + w.name, cl.name, func(b *testing.B) {
				runCalls(b, cl.make("http://bench.invalid", &http.Client{Transport: memTransport{w.result}}), w)
			}})
		}
	}
	for _, w := range benchWorkloads() {
		if w.send || w.rest { // a REST row's task is its JSON-RPC twin's bytes
			continue
		}
		for _, cl := range clients {
			if w.v10 && !cl.v10 || cl.stored == nil {
				continue
			}
			cases = append(cases, benchCase{"Stored/" + w.name, cl.name, func(b *testing.B) {
				runCalls(b, func(context.Context, workload) (string, error) { return cl.stored(w.result) }, w)
			}})
		}
	}
	for _, cl := range clients {
		if cl.loopback || cl.make == nil {
			continue
		}
		cases = append(cases, benchCase{"Parallel1000", cl.name, func(b *testing.B) { runParallel(b, cl) }})
	}
	return cases
}

// runCalls times call(w) once per op; every call must end completed. It
// also reports the process's CPU time per op ("cpu-ns/op": user and
// system, the in-process server's included), which a busy machine
// inflates far less than the time on the clock.
func runCalls(b *testing.B, call caller, w workload) {
	ctx := context.Background()
	b.SetBytes(int64(len(w.result)))
	b.ReportAllocs()
	b.ResetTimer()
	start, n := cpuTime(), 0
	for b.Loop() {
		if state, err := call(ctx, w); err != nil || state != "completed" {
			b.Fatalf("%s: %v", state, err)
		}
		n++
	}
	if used := cpuTime() - start; used > 0 && n > 0 {
		b.ReportMetric(float64(used)/float64(n), "cpu-ns/op")
	}
}

// memTransport answers every request from memory: the client's work
// (encode, decode, checks) without sockets.
type memTransport struct{ result []byte }

func (m memTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	out, ok, err := benchReply(r, m.result)
	if r.Body != nil {
		r.Body.Close()
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("memTransport: no reply to %s %s", r.Method, r.URL)
	}
	return &http.Response{
		StatusCode: 200, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(out)),
		ContentLength: int64(len(out)), Request: r,
	}, nil
}

// runParallel: 1000 goroutines share one client calling tasks/get of the
// seed task; the "conns" metric is the connections the server accepted
// during the run.
func runParallel(b *testing.B, cl client) {
	w := benchWorkloads()[0]
	srv := newBenchServer(b)
	srv.result.Store(&w.result)
	tr := newTransport()
	defer tr.CloseIdleConnections()
	call := cl.make(srv.URL, &http.Client{Transport: tr})
	b.ReportAllocs()
	b.SetParallelism(max(1, 1000/max(1, runtime.GOMAXPROCS(0))))
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
}

// ---- benchmarks -----------------------------------------------------------

// BenchmarkClients runs every case once under go test -bench, as
// Clients/<group>/<client>. For comparisons use TestInterleaved.
func BenchmarkClients(b *testing.B) {
	for _, c := range benchCases(b) {
		b.Run(c.group+"/"+c.client, c.run)
	}
}

// TestInterleaved measures every case with the clients of a group taking
// turns: each round runs every case of a group once, the first client
// moving on by one each round, so a drift in the machine's speed (±10–25 %
// here) falls on every client alike. Set A2A_BENCH_ROUNDS (8 or more) to
// run it; A2A_BENCH_TIME is each run's length (default 300ms),
// A2A_BENCH_OUT the file for one line per run in go test -bench format
// (default: the test log), which benchreport turns into medians, and
// A2A_BENCH_GROUPS a regular expression that the groups to run match
// (default: every group), for more rounds of a few.
func TestInterleaved(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("A2A_BENCH_ROUNDS"))
	if rounds < 1 {
		t.Skip("set A2A_BENCH_ROUNDS to measure (interop/bench.sh does)")
	}
	if err := flag.Set("test.benchtime", cmp.Or(os.Getenv("A2A_BENCH_TIME"), "300ms")); err != nil {
		t.Fatal(err)
	}
	out := io.Writer(os.Stdout)
	if path := os.Getenv("A2A_BENCH_OUT"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		out = f
	}
	only, err := regexp.Compile(os.Getenv("A2A_BENCH_GROUPS"))
	if err != nil {
		t.Fatalf("A2A_BENCH_GROUPS: %v", err)
	}
	fmt.Fprintf(out, "goos: %s\ngoarch: %s\ncpu: %s\n", runtime.GOOS, runtime.GOARCH, cpuName())
	var groups [][]benchCase
	for _, c := range benchCases(t) {
		if !only.MatchString(c.group) {
			continue
		}
		if n := len(groups); n > 0 && groups[n-1][0].group == c.group {
			groups[n-1] = append(groups[n-1], c)
		} else {
			groups = append(groups, []benchCase{c})
		}
	}
	for r := range rounds {
		for _, g := range groups {
			for i := range g {
				c := g[(i+r)%len(g)]
				res := testing.Benchmark(c.run)
				if res.N == 0 {
					t.Fatalf("%s/%s failed", c.group, c.client)
				}
				line := fmt.Sprintf("BenchmarkClients/%s/%s-%d\t%d\t%d ns/op\t%d B/op\t%d allocs/op",
					c.group, c.client, runtime.GOMAXPROCS(0), res.N, res.NsPerOp(), res.AllocedBytesPerOp(), res.AllocsPerOp())
				for _, unit := range slices.Sorted(maps.Keys(res.Extra)) {
					line += fmt.Sprintf("\t%g %s", res.Extra[unit], unit)
				}
				fmt.Fprintln(out, line)
			}
		}
	}
}

// cpuName is the processor's model name, for the report's header.
func cpuName() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for line := range strings.Lines(string(b)) {
		if name, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
		}
	}
	return runtime.GOARCH
}

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
