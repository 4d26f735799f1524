package a2a_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// memReply answers each request, in memory, with the next of its bodies
// (the last repeating), handing over the bytes without copying them, so
// that what a call allocates is the client's alone.
type memReply struct {
	bodies  [][]byte
	n       int
	chunked bool // no Content-Length, and the body in 32 KiB reads
}

func (m *memReply) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	b := m.bodies[min(m.n, len(m.bodies)-1)]
	m.n++
	ctype := "application/json"
	switch {
	case bytes.HasPrefix(b, []byte("data:")):
		ctype = "text/event-stream"
	case bytes.HasPrefix(b, []byte("<")):
		ctype = "text/html"
	}
	resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {ctype}}, Body: io.NopCloser(bytes.NewReader(b)),
		ContentLength: int64(len(b)), Request: r}
	if m.chunked {
		resp.ContentLength = -1
		resp.Body = io.NopCloser(io.LimitReader(&smallReads{bytes.NewReader(b)}, int64(len(b))))
	}
	return resp, nil
}

// smallReads reads at most 32 KiB at a time, as a connection does.
type smallReads struct{ r io.Reader }

func (s *smallReads) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), 32<<10)]) }

// flood is n copies of item joined by commas.
func flood(item string, size int) string {
	return strings.TrimSuffix(strings.Repeat(item+",", size/(len(item)+1)), ",")
}

// v10card is an A2A v1.0 card with members.
func v10card(members string) string {
	return `{"name":"a","supportedInterfaces":[{"url":"https://a/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],` + members + `}`
}

// distinct is format filled with 1, 2, … joined by commas, to size bytes:
// members that a map keeps all of.
func distinct(format string, size int) string {
	var b strings.Builder
	for i := 1; b.Len() < size; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// TestMemoryBound: whatever the shape of a reply within the size cap, a
// call allocates at most eight times the reply's size and 4 MiB, for every
// kind of result, and the envelope and id are checked before anything of
// the result is decoded. What a call allocates (TotalAlloc across it, all
// garbage included) bounds its peak heap from above. Floods of "{}" are
// refused with a *ProtocolError; honest large replies decode.
func TestMemoryBound(t *testing.T) {
	const size, big = 1 << 20, 9 << 20
	task := func(members string) string {
		return `{"kind":"task","id":"t","status":{"state":"completed"},` + members + `}`
	}
	rows := []memRow{
		{"history of {}", "get", task(`"history":[` + flood("{}", size) + `]`), "refused", false},
		{"artifacts of {}", "get", task(`"artifacts":[` + flood("{}", size) + `]`), "refused", false},
		{"parts of {}", "get", task(`"artifacts":[{"artifactId":"a","parts":[` + flood("{}", size) + `]}]`), "refused", false},
		{"parts of 1", "get", task(`"artifacts":[{"artifactId":"a","parts":[` + flood("1", size) + `]}]`), "refused", false},
		{"status message parts of {\"text\":\"\"}", "get", `{"kind":"task","id":"t","status":{"state":"failed","message":{"parts":[` + flood(`{"text":""}`, size) + `]}}}`, "", false},
		{"reference ids of \"\"", "get", task(`"history":[{"referenceTaskIds":[` + flood(`""`, size) + `]}]`), "", false},
		{"a message of parts of {}", "send", `{"kind":"message","messageId":"m","parts":[` + flood("{}", size) + `]}`, "refused", false},
		{"history of {} with a wrong id", "get", task(`"history":[` + flood("{}", size) + `]`), "refused", true},
		{"honest history with a wrong id", "get", task(`"history":[` + flood(`{"kind":"message","messageId":"m-1","role":"agent","parts":[{"kind":"text","text":"ok"}]}`, size) + `]`), "refused", true},
		{"parts of {} at the 10 MiB default cap", "get", task(`"artifacts":[{"artifactId":"a","parts":[` + flood("{}", 10*size-200) + `]}]`), "refused", false},
		{"a stream event with history of {}", "stream", task(`"history":[` + flood("{}", size) + `]`), "refused", false},
		{"card skills of {}", "card", `{"name":"a","url":"https://a/rpc","skills":[` + flood("{}", size) + `]}`, "refused", false},
		{"card tags of \"\"", "card", `{"name":"a","url":"https://a/rpc","skills":[{"id":"s","tags":[` + flood(`""`, size) + `]}]}`, "", false},
		{"card security schemes of {}", "card", `{"name":"a","url":"https://a/rpc","securitySchemes":{` + strings.TrimSuffix(strings.Repeat(`"k":{},`, size/7), ",") + `}}`, "refused", false},
		{"push config list of {}", "pushList", `[` + flood("{}", size) + `]`, "refused", false},
		{"parts of {\"text\":1}", "get", task(`"artifacts":[{"artifactId":"a","parts":[` + flood(`{"text":1}`, size) + `]}]`), "", false},
		{"parts of {\"kind\":1}", "get", task(`"artifacts":[{"artifactId":"a","parts":[` + flood(`{"kind":1}`, size) + `]}]`), "", false},
		{"parts of {\"file\":{\"bytes\":1}}", "get", task(`"artifacts":[{"artifactId":"a","parts":[` + flood(`{"file":{"bytes":1}}`, size) + `]}]`), "", false},
		{"parts of {\"kind\":\"text\"}", "get", task(`"artifacts":[{"artifactId":"a","parts":[` + flood(`{"kind":"text"}`, size) + `]}]`), "", false},
		{"card security of {}", "card", `{"name":"a","url":"https://a/rpc","security":[` + flood("{}", size) + `]}`, "", false},
		{"card skill security of {}", "card", `{"name":"a","url":"https://a/rpc","skills":[{"id":"s","security":[` + flood("{}", size) + `]}]}`, "", false},
		{"push configs with authentication {}", "pushList", `[` + flood(`{"pushNotificationConfig":{"authentication":{}}}`, size) + `]`, "", false},
		{"card security of {\"k\":[]}", "card", `{"name":"a","url":"https://a/rpc","security":[` + flood(`{"k":[]}`, size) + `]}`, "", false},
		{"v1.0 card interfaces of {}", "card", `{"name":"a","supportedInterfaces":[` + flood("{}", size) + `]}`, "refused", false},
		{"v1.0 card security requirements of {}", "card", v10card(`"securityRequirements":[` + flood("{}", size) + `]`), "", false},
		{"v1.0 card security requirements of one scheme", "card", v10card(`"securityRequirements":[` + flood(`{"schemes":{"k":{}}}`, size) + `]`), "", false},
		{"v1.0 card security requirements of bare arrays", "card", v10card(`"securityRequirements":[` + flood(`{"schemes":{"k":[]}}`, size) + `]`), "", false},
		{"v1.0 card security requirement of many schemes", "card", v10card(`"securityRequirements":[{"schemes":{` + distinct(`"k%d":[]`, size) + `}}]`), "", false},
		{"v1.0 card scopes of \"\"", "card", v10card(`"securityRequirements":[{"schemes":{"k":[` + flood(`""`, size) + `]}}]`), "", false},
		{"v1.0 card scope list of \"\"", "card", v10card(`"securityRequirements":[{"schemes":{"k":{"list":[` + flood(`""`, size) + `]}}}]`), "", false},
		{"v1.0 card skills with security requirements", "card", v10card(`"skills":[` + flood(`{"securityRequirements":[{}]}`, size) + `]`), "", false},
		{"v1.0 card security schemes of wrappers", "card", v10card(`"securitySchemes":{` + strings.TrimSuffix(strings.Repeat(`"k":{"mtlsSecurityScheme":{}},`, size/30), ",") + `}`), "refused", false},
		{"v1.0 card security schemes with distinct names", "card", v10card(`"securitySchemes":{` + distinct(`"k%d":{"apiKeySecurityScheme":{}}`, size) + `}`), "", false},
		{"v1.0 card scope list of long scopes", "card", v10card(`"securityRequirements":[{"schemes":{"k":{"list":[` + flood(`"read:entities:and:their:ledgers"`, size) + `]}}}]`), "", false},
		{"v1.0 card requirement of long scheme names", "card", v10card(`"securityRequirements":[{"schemes":{` + distinct(`"a-security-scheme-name-long-enough-for-the-budget-%08d":{"list":["s"]}`, size) + `}}]`), "", false},
		{"v1.0 card requirements with long scheme names", "card", v10card(`"securityRequirements":[` + flood(`{"schemes":{"`+strings.Repeat("n", 200)+`":{"list":["read"]}}}`, size) + `]`), "", false},
		{"v1.0 card schemes with long names", "card", v10card(`"securitySchemes":{` + distinct(`"a-security-scheme-name-long-enough-for-the-budget-and-then-some-more-%08d":{"mtlsSecurityScheme":{}}`, size) + `}`), "", false},
		{"9 MiB: v1.0 card skills with security requirements", "card+chunked", v10card(`"skills":[` + flood(`{"id":"`+strings.Repeat("s", 300)+`","securityRequirements":[]}`, big) + `]`), "", false},
		{"9 MiB: v1.0 card schemes with long names", "card+chunked", v10card(`"securitySchemes":{` + distinct(`"`+strings.Repeat("n", 250)+`%08d":{"mtlsSecurityScheme":{}}`, big) + `}`), "", false},
		{"9 MiB: v1.0 card security schemes with flows", "card+chunked", v10card(`"securitySchemes":{` + strings.TrimSuffix(strings.Repeat(`"k":{"oauth2SecurityScheme":{"flows":{"deviceCode":{}}},"oauth2":{"flows":{"implicit":{}}},"flows":{"password":{}}},`, big/140), ",") + `}`), "", false},
		{"a 1 MiB DataPart", "get", task(`"artifacts":[{"artifactId":"a","parts":[{"kind":"data","data":{"records":[` + flood(`{"id":"r1","ok":true}`, size) + `]}}]}]`), "ok", false},
		{"4000 artifacts", "get", task(`"artifacts":[` + flood(`{"artifactId":"a1","name":"entity","parts":[{"kind":"data","data":{"n":1}},{"kind":"text","text":"设备正常"}]}`, size) + `]`), "ok", false},
		{"history of honest messages", "get", task(`"history":[` + flood(`{"kind":"message","messageId":"m-1","role":"agent","parts":[{"kind":"text","text":"ok"}]}`, size) + `]`), "ok", false},
		// At 9 MiB, where the 4 MiB allowance counts for little, and read
		// in small pieces without a length, as a connection would give them.
		{"9 MiB: an HTML page of x%41", "page+chunked", "<html>" + strings.Repeat("x%41", big/4) + "</html>", "refused", false},
		{"9 MiB: an HTML page of x%41 with its length", "page", "<html>" + strings.Repeat("x%41", big/4) + "</html>", "refused", false},
		{"9 MiB: a stream event of x%41", "stream+chunked", "<html>" + strings.Repeat("x%41", big/4) + "</html>", "refused", false},
		{"9 MiB: history of small messages", "get+chunked", task(`"history":[` + flood(`{"messageId":"m","role":"agent","parts":[{"text":"a"}]}`, big) + `]`), "", false},
		{"9 MiB: parts of empty files", "get+chunked", task(`"artifacts":[{"artifactId":"a","parts":[` + flood(`{"kind":"file","file":{}}`, big) + `]}]`), "", false},
		{"9 MiB: history of reference ids", "get+chunked", task(`"history":[` + flood(`{"referenceTaskIds":["a"],"extensions":["b"]}`, big) + `]`), "", false},
		{"9 MiB: push configs with authentication {}", "pushList+chunked", `[` + flood(`{"taskId":"t","pushNotificationConfig":{"authentication":{}}}`, big) + `]`, "", false},
		{"9 MiB: push configs with escaped URLs", "pushList+chunked", `[` + flood(`{"taskId":"t","pushNotificationConfig":{"url":"\u0041\u0041\u0041"}}`, big) + `]`, "", false},
		{"9 MiB: card security schemes with flows", "card+chunked", `{"name":"a","url":"https://a/rpc","securitySchemes":{` + strings.TrimSuffix(strings.Repeat(`"k":{"flows":{"implicit":{},"password":{},"clientCredentials":{},"authorizationCode":{}}},`, big/90), ",") + `}}`, "", false},
		{"9 MiB: honest history", "get+chunked", task(`"history":[` + flood(`{"kind":"message","messageId":"m-1","role":"agent","parts":[{"kind":"text","text":"ok"}]}`, big) + `]`), "ok", false},
	}
	runMemoryRows(t, rows)
}

// memRow is one reply of TestMemoryBound's kind: its shape, the call that
// gets it, and what the call must return.
type memRow struct {
	name   string
	call   string // get, send, card, pushList, stream, list (ListTasksPage), extCard; +chunked; +rest: the body is the result itself (HTTP+JSON)
	result string // the result, or the whole body for a card
	want   string // "ok", "refused" (a *ProtocolError), or "" for either: within the bound both are right
	wrong  bool   // answer with another request's id
}

// runMemoryRows makes each row's call of a client made with opts and
// checks what it allocated against the bound (TestMemoryBound).
func runMemoryRows(t *testing.T, rows []memRow, opts ...a2a.Option) {
	rpc := func(id int, result string) []byte {
		return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":%s}`, id, result))
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			call, rest := strings.CutSuffix(row.call, "+rest")
			call, chunked := strings.CutSuffix(call, "+chunked")
			var bodies [][]byte
			for id := 1; id <= 2; id++ {
				switch {
				case rest && call == "stream":
					bodies = append(bodies, []byte("data: "+row.result+"\n\n"))
				case call == "card" || call == "page" || rest:
					bodies = append(bodies, []byte(row.result))
				case call == "stream" && strings.HasPrefix(row.result, "<"):
					bodies = append(bodies, []byte("data: "+row.result+"\n\n"))
				case call == "stream":
					bodies = append(bodies, append(append([]byte("data: "), rpc(id, row.result)...), "\n\n"...))
				case row.wrong:
					bodies = append(bodies, rpc(id+100, row.result))
				default:
					bodies = append(bodies, rpc(id, row.result))
				}
			}
			opts := append([]a2a.Option{a2a.WithHTTPClient(&http.Client{Transport: &memReply{bodies: bodies, chunked: chunked}}), a2a.WithMaxRetries(0)}, opts...)
			c, err := a2a.NewClient("http://agent.invalid/a2a", opts...)
			if err != nil {
				t.Fatal(err)
			}
			run := func() error {
				ctx := context.Background()
				switch call {
				case "get", "page":
					_, err := c.GetTask(ctx, "t")
					return err
				case "send":
					_, err := c.SendMessage(ctx, a2a.NewTextMessage("x"))
					return err
				case "card":
					_, err := a2a.ResolveAgentCard(ctx, "http://agent.invalid", opts...)
					return err
				case "pushList":
					_, err := c.ListTaskPushNotificationConfigs(ctx, "t")
					return err
				case "list":
					_, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{})
					return err
				case "extCard":
					_, err := c.GetExtendedAgentCard(ctx)
					return err
				default:
					var last error
					for _, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("x")) {
						last = err
					}
					return last
				}
			}
			run() // warm up: encoding/json's caches, pools
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err = run()
			runtime.ReadMemStats(&after)
			allocated := after.TotalAlloc - before.TotalAlloc
			reply := uint64(len(bodies[1]))
			t.Logf("%-40s reply %7d B, allocated %9d B = %5.2f× the reply; %v", row.name, reply, allocated, float64(allocated)/float64(reply), err)
			if limit := 8*reply + 4<<20; allocated > limit {
				t.Errorf("allocated %d bytes for a %d-byte reply, over 8× + 4 MiB (%d)", allocated, reply, limit)
			}
			// A reply with the wrong id costs its body and the error that
			// keeps it (redacted), never a decoded result.
			if limit := 3*reply + 1<<20; row.wrong && allocated > limit {
				t.Errorf("allocated %d bytes for a %d-byte reply with a wrong id, over 3× + 1 MiB: was the result decoded?", allocated, reply)
			}
			switch _, isProto := errors.AsType[*a2a.ProtocolError](err); {
			case row.want == "ok" && err != nil:
				t.Errorf("an honest reply refused: %v", err)
			case row.want == "refused" && !isProto:
				t.Errorf("err = %v, want a *ProtocolError", err)
			}
		})
	}
}

// TestMemoryBoundV10: TestMemoryBound's bound for a client that speaks
// A2A v1.0, on replies of v1.0's shapes: floods of tiny flat parts (of
// each content member, of none, of v0.3 parts read twice), of wrappers
// and of members under both their names, huge ListTasks pages and push
// config lists, wrappers nested as deep as JSON goes.
func TestMemoryBoundV10(t *testing.T) {
	const size, big = 1 << 20, 9 << 20
	task := func(members string) string {
		return `{"id":"t","status":{"state":"TASK_STATE_COMPLETED"},` + members + `}`
	}
	parts := func(part string, n int) string {
		return task(`"artifacts":[{"artifactId":"a","parts":[` + flood(part, n) + `]}]`)
	}
	honest := `{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-05-01T10:00:00.000Z"}}`
	runMemoryRows(t, []memRow{
		{"v1.0 parts of {}", "get", parts("{}", size), "refused", false},
		{"v1.0 parts of {\"text\":\"\"}", "get", parts(`{"text":""}`, size), "", false},
		{"v1.0 parts of {\"data\":null}", "get", parts(`{"data":null}`, size), "", false},
		{"v1.0 parts of {\"raw\":\"\"}", "get", parts(`{"raw":""}`, size), "", false},
		{"v1.0 parts of {\"url\":\"u\",\"media_type\":\"m\"}", "get", parts(`{"url":"u","media_type":"m"}`, size), "", false},
		{"v1.0 parts of 1", "get", parts("1", size), "refused", false},
		{"v1.0 parts of v0.3's {\"kind\":\"x\"}, read twice", "get", parts(`{"kind":"x"}`, size), "", false},
		{"v1.0 parts of v0.3's {\"file\":{}}, read twice", "get", parts(`{"file":{}}`, size), "", false},
		{"v1.0 history of {}", "get", task(`"history":[` + flood("{}", size) + `]`), "refused", false},
		{"v1.0 history of members under both names", "get", task(`"history":[` + flood(`{"contextId":"","context_id":""}`, size) + `]`), "refused", false},
		{"v1.0 a wrapped task with history of {}", "send", `{"task":` + task(`"history":[`+flood("{}", size)+`]`) + `}`, "refused", false},
		{"v1.0 a wrapped message of parts of {}", "send", `{"message":{"messageId":"m","parts":[` + flood("{}", size) + `]}}`, "refused", false},
		{"v1.0 a wrapped task beside a flood of unknown wrappers", "send", `{"task":` + task(`"x":0`) + `,` + strings.TrimSuffix(strings.Repeat(`"statusUpdate":{},`, size/18), ",") + `}`, "ok", false},
		{"v1.0 wrappers nested 10000 deep", "send", strings.Repeat(`{"task":`, 10000) + strings.Repeat(`}`, 10000), "refused", false},
		{"v1.0 a stream event of a task with history of {}", "stream", `{"task":` + task(`"history":[`+flood("{}", size)+`]`) + `}`, "refused", false},
		{"v1.0 members under both names, repeated", "get", task(`"history":[{` + strings.TrimSuffix(strings.Repeat(`"contextId":"","context_id":"",`, size/31), ",") + `}]`), "refused", false},
		{"v1.0 a part's media type under both names, repeated", "get", task(`"artifacts":[{"artifactId":"a","parts":[{` + strings.TrimSuffix(strings.Repeat(`"mediaType":"","media_type":"",`, size/31), ",") + `}]}]`), "refused", false},
		{"v1.0 ListTasks of {}", "list", `{"tasks":[` + flood("{}", size) + `]}`, "refused", false},
		{"v1.0 ListTasks of tasks with an id only", "list", `{"tasks":[` + flood(`{"id":"t"}`, size) + `]}`, "", false},
		{"v1.0 ListTasks of honest tasks", "list", `{"tasks":[` + flood(honest, size) + `],"nextPageToken":"p2","pageSize":"100","totalSize":100000}`, "ok", false},
		{"v1.0 ListTasks of {} with a wrong id", "list", `{"tasks":[` + flood("{}", size) + `]}`, "refused", true},
		{"v1.0 push configs of {}", "pushList", `{"configs":[` + flood("{}", size) + `]}`, "refused", false},
		{"v1.0 push configs with authentication {}", "pushList", `{"configs":[` + flood(`{"taskId":"t","url":"u","authentication":{}}`, size) + `]}`, "", false},
		{"v1.0 extended card skills of {}", "extCard", `{"name":"a","skills":[` + flood("{}", size) + `]}`, "refused", false},
		{"9 MiB: v1.0 ListTasks of honest tasks", "list+chunked", `{"tasks":[` + flood(honest, big) + `]}`, "ok", false},
		{"9 MiB: v1.0 parts of {\"text\":\"a\"}", "get+chunked", parts(`{"text":"a"}`, big), "", false},
		{"9 MiB: v1.0 parts with v0.3's kind", "get+chunked", parts(`{"kind":"text","text":""}`, big), "", false},
		{"9 MiB: v1.0 parts of an unknown kind", "get+chunked", parts(`{"kind":"y"}`, big), "", false},
		{"9 MiB: v1.0 kindless v0.3 file parts", "get+chunked", parts(`{"file":{"uri":"u"}}`, big), "", false},
		{"9 MiB: v1.0 history of small messages", "get+chunked", task(`"history":[` + flood(`{"messageId":"m","role":2,"parts":[{"text":"a"}]}`, big) + `]`), "", false},
	}, a2a.WithProtocolVersion(a2a.ProtocolV10))

	// Over the bound for causes outside the v1.0 binding, v0.3 alike:
	// the rows it must pass once they are fixed.
	t.Run("stream events of tiny parts", func(t *testing.T) {
		t.Skip("client bug: a stream event of many tiny parts allocates about 12× its size, v0.3 alike (a v0.3 task of parts of {} too): " +
			"the event's buffering on the stream path (internal/httpbody, stream.go) comes on top of the decoding budget")
		runMemoryRows(t, []memRow{
			{"v1.0 a stream event with a status message of parts of {}", "stream", `{"statusUpdate":{"taskId":"t","status":{"message":{"parts":[` + flood("{}", size) + `]}}}}`, "refused", false},
			{"v1.0 a stream event with an artifact of parts of {\"text\":\"\"}", "stream", `{"artifactUpdate":{"taskId":"t","artifact":{"parts":[` + flood(`{"text":""}`, size) + `]}}}`, "", false},
		}, a2a.WithProtocolVersion(a2a.ProtocolV10))
	})
	t.Run("a name repeated", func(t *testing.T) {
		runMemoryRows(t, []memRow{
			{"9 MiB: v1.0 a flood of \"task\":0", "send+chunked", `{` + strings.TrimSuffix(strings.Repeat(`"task":0,`, big/9), ",") + `}`, "refused", false},
			{"v1.0 a flood of null wrappers", "send", `{` + strings.TrimSuffix(strings.Repeat(`"task":null,`, size/12), ",") + `}`, "refused", false},
			{"v1.0 a flood of wrappers all set", "send", `{` + strings.TrimSuffix(strings.Repeat(`"task":{},`, size/10), ",") + `}`, "refused", false},
		}, a2a.WithProtocolVersion(a2a.ProtocolV10))
	})
}

// TestMemoryBoundReceiver: TestMemoryBound's bound for a push
// notification taken by a PushReceiver (read, decoded and folded into its
// wait's task), on bodies of either version's shapes, to a wait
// whose client speaks v0.3 (a v1.0 body is looked at by both decoders):
// just under the receiver's default cap (4 MiB).
func TestMemoryBoundReceiver(t *testing.T) {
	const size = 4<<20 - 1<<10
	recv, err := a2a.NewPushReceiver("http://127.0.0.1:1/push")
	if err != nil {
		t.Fatal(err)
	}
	defer recv.Close()
	arts := `"artifacts":[` + flood(`{"artifactId":"","parts":[]}`, size) + `]`
	for _, row := range []struct{ name, body string }{
		{"a v0.3 task of empty artifacts", `{"kind":"task","id":"t","status":{"state":"working"},` + arts + `}`},
		{"a v1.0 task of empty artifacts", `{"task":{"id":"t","status":{"state":"TASK_STATE_WORKING"},` + arts + `}}`},
		{"a v0.3 artifact update of text parts", `{"kind":"artifact-update","taskId":"t","artifact":{"artifactId":"a","parts":[` + flood(`{"kind":"text","text":""}`, size) + `]}}`},
		{"a v1.0 artifact update of text parts", `{"artifactUpdate":{"taskId":"t","artifact":{"artifactId":"a","parts":[` + flood(`{"text":""}`, size) + `]}}}`},
		{"a v0.3 status update of message parts", `{"kind":"status-update","taskId":"t","status":{"state":"working","message":{"parts":[` + flood(`{"kind":"text","text":""}`, size) + `]}}}`},
	} {
		t.Run(row.name, func(t *testing.T) {
			var token string
			tc := plainAgent(t, &a2a.Task{ID: "t", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}, func(_ *http.Request, _, tok string) bool {
				token = tok
				return true
			})
			if _, err := recv.SendMessage(context.Background(), tc, a2a.NewTextMessage("go")); err != nil {
				t.Fatal(err)
			}
			post := func(body string) int {
				req := httptest.NewRequest(http.MethodPost, "/push", strings.NewReader(body))
				req.Header.Set("X-A2A-Notification-Token", token)
				rec := httptest.NewRecorder()
				recv.ServeHTTP(rec, req)
				if rec.Code != http.StatusNoContent {
					t.Logf("answer: %.200s", rec.Body.String())
				}
				return rec.Code
			}
			post(`{"kind":"status-update","taskId":"t","status":{"state":"working"}}`) // warm up
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			status := post(row.body)
			runtime.ReadMemStats(&after)
			allocated, body := after.TotalAlloc-before.TotalAlloc, uint64(len(row.body))
			t.Logf("%-40s body %7d B, allocated %9d B = %5.2f× the body; status %d", row.name, body, allocated, float64(allocated)/float64(body), status)
			if status != http.StatusNoContent && status != http.StatusBadRequest { // taken, or refused by the decoding budget
				t.Errorf("status %d", status)
			}
			if limit := 8*body + 4<<20; allocated > limit {
				t.Errorf("allocated %d bytes for a %d-byte body, over 8× + 4 MiB (%d)", allocated, body, limit)
			}
		})
	}
}
