package a2a_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// endlessPages serves pages that never end: each names a new next token;
// item is the JSON of one element of a page (or "" for empty pages), and
// list the member the elements go in.
func endlessPages(t *testing.T, list, item string) (*a2a.Client, *atomic.Int64) {
	var n atomic.Int64
	f := &fake{t: t, replies: []mockReply{{serve: func(w http.ResponseWriter, r *http.Request, id string) {
		i := n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{%q:[%s],"nextPageToken":"p%d"}}`, id, list, item, i)
	}}}}
	c, err := a2a.NewClient(mockURL, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithHTTPClient(&http.Client{Transport: f.transport()}))
	if err != nil {
		t.Fatal(err)
	}
	return c, &n
}

// TestPagesThatNeverEnd: an agent whose pages never end cannot keep the
// client asking: ListTasks stops after a few empty pages in a row, and
// ListTaskPushNotificationConfigs, which gathers every page, after a
// bounded number of pages, each with a *ProtocolError.
func TestPagesThatNeverEnd(t *testing.T) {
	c, n := endlessPages(t, "tasks", "")
	var last error
	for _, err := range c.ListTasks(context.Background(), a2a.ListTasksRequest{}) {
		last = err
	}
	if pe, ok := last.(*a2a.ProtocolError); !ok || !strings.Contains(pe.Reason, "empty pages in a row") || n.Load() != 4 {
		t.Errorf("empty pages: %v after %d requests; want a ProtocolError after 4", last, n.Load())
	}

	c, n = endlessPages(t, "configs", `{"taskId":"t1","id":"c","url":"https://hooks.example/c"}`)
	list, err := c.ListTaskPushNotificationConfigs(context.Background(), "t1")
	if pe, ok := err.(*a2a.ProtocolError); !ok || list != nil || !strings.Contains(pe.Reason, "more than 100 pages") || n.Load() != 100 {
		t.Errorf("config pages: %d configs, %v after %d requests; want a ProtocolError after 100", len(list), err, n.Load())
	}
}
