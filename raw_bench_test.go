package a2a_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// BenchmarkStreamEvents reads one A2A v1.0 JSON-RPC stream of a task, 20
// status updates, 20 artifact updates and a final status from a loopback
// server: allocations per stream (the server's included) measure the cost
// of keeping each event's bytes (Raw).
func BenchmarkStreamEvents(b *testing.B) {
	var body strings.Builder
	ev := func(result string) {
		fmt.Fprintf(&body, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":%s}\n\n", result)
	}
	ev(`{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}`)
	for i := range 20 {
		ev(`{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}`)
		ev(fmt.Sprintf(`{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a%d","parts":[{"text":"chunk"}]}}}`, i))
	}
	ev(`{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}`)
	stream := body.String()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ ID json.RawMessage }
		json.NewDecoder(r.Body).Decode(&req)
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, strings.ReplaceAll(stream, `"id":1,`, `"id":`+string(req.ID)+`,`))
	}))
	defer srv.Close()
	c, err := a2a.NewClient(srv.URL, a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for _, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("x")) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != 42 {
			b.Fatalf("%d events, want 42", n)
		}
	}
}
