package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
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
	if pe, ok := last.(*a2a.ProtocolError); !ok || !strings.Contains(pe.Reason, "pages in a row brought nothing new") || n.Load() != 4 {
		t.Errorf("empty pages: %v after %d requests; want a ProtocolError after 4", last, n.Load())
	}

	c, n = endlessPages(t, "configs", `{"taskId":"t1","id":"c","url":"https://hooks.example/c"}`)
	list, err := c.ListTaskPushNotificationConfigs(context.Background(), "t1")
	if pe, ok := err.(*a2a.ProtocolError); !ok || list != nil || !strings.Contains(pe.Reason, "more than 100 pages") || n.Load() != 100 {
		t.Errorf("config pages: %d configs, %v after %d requests; want a ProtocolError after 100", len(list), err, n.Load())
	}
}

// pagedTasks serves ListTasks pages: page(i) is the ids of the tasks of
// the i-th request's page (from 1) and whether another page follows,
// named by a token never used before.
func pagedTasks(t testing.TB, page func(i int64) (ids []string, more bool)) (*a2a.Client, *atomic.Int64) {
	var n atomic.Int64
	f := &fake{t: t, replies: []mockReply{{serve: func(w http.ResponseWriter, r *http.Request, id string) {
		i := n.Add(1)
		ids, more := page(i)
		tasks := make([]string, len(ids))
		for k, task := range ids {
			tasks[k] = `{"id":"` + task + `","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}`
		}
		next := ""
		if more && i < 1000 { // a hang guard: the bounds under test end listings far sooner
			next = fmt.Sprintf("p%d", i)
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{"tasks":[%s],"nextPageToken":%q}}`, id, strings.Join(tasks, ","), next)
	}}}}
	c, err := a2a.NewClient(mockURL, a2a.WithProtocolVersion(a2a.ProtocolV10), a2a.WithHTTPClient(&http.Client{Transport: f.transport()}))
	if err != nil {
		t.Fatal(err)
	}
	return c, &n
}

// ids are the task ids from first to first+n-1.
func ids(first, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("task-%d", first+i)
	}
	return out
}

// countListed runs a listing to its end: the tasks yielded and the error it
// ended with.
func countListed(c *a2a.Client, opts ...a2a.CallOption) (int, error) {
	var n int
	for task, err := range c.ListTasks(context.Background(), a2a.ListTasksRequest{}, opts...) {
		if err != nil {
			return n, err
		}
		if task == nil {
			return n, errors.New("a nil task")
		}
		n++
	}
	return n, nil
}

// TestListRepeats: an agent that serves tasks already listed under fresh
// page tokens forever (the same page; a cycle of three pages) is caught
// by what its pages hold: the listing ends with a *ProtocolError once four
// pages in a row brought no new task, after a bounded number of requests,
// every page yielded as sent. A task seen twice beside new ones, or a
// whole page again (an honest listing shifted by tasks created while it
// is read), is not a fault.
func TestListRepeats(t *testing.T) {
	for _, tt := range []struct {
		name    string
		page    func(i int64) ([]string, bool)
		tasks   int   // yielded
		reqs    int64 // made
		isFault bool
	}{
		{"the same 50 tasks forever", func(int64) ([]string, bool) { return ids(1, 50), true }, 250, 5, true},
		{"a cycle of three pages", func(i int64) ([]string, bool) { return ids(1+int((i-1)%3)*50, 50), true }, 350, 7, true},
		{"a page again, the listing shifted", func(i int64) ([]string, bool) { return ids(1+2*int(max(i-2, 0)), 2), i < 4 }, 8, 4, false},
		{"one task in two pages, then the end", func(i int64) ([]string, bool) { return ids(int(i)*10-1, 11), i < 5 }, 55, 5, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, n := pagedTasks(t, tt.page)
			got, err := countListed(c)
			pe, isPE := errors.AsType[*a2a.ProtocolError](err)
			switch {
			case tt.isFault && (!isPE || !strings.Contains(pe.Reason, "pages in a row brought nothing new")):
				t.Errorf("err = %v, want a ProtocolError about tasks already listed", err)
			case !tt.isFault && err != nil:
				t.Errorf("err = %v, want none", err)
			}
			if got != tt.tasks || n.Load() != tt.reqs {
				t.Errorf("%d tasks in %d requests, want %d in %d", got, n.Load(), tt.tasks, tt.reqs)
			}
		})
	}
}

// TestListLimit: an agent whose pages of new tasks never end is stopped
// by the number of tasks one listing reads (10,000 by default, or
// ListLimit's), with a *ListLimitError naming the page to go on from;
// ListLimit refuses a bound under 1 before sending.
func TestListLimit(t *testing.T) {
	fresh := func(i int64) ([]string, bool) { return ids(int(i-1)*100, 100), true }
	for _, tt := range []struct {
		name  string
		opts  []a2a.CallOption
		tasks int
		reqs  int64
	}{
		{"default", nil, 10_000, 100},
		{"ListLimit(250)", []a2a.CallOption{a2a.ListLimit(250)}, 300, 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, n := pagedTasks(t, fresh)
			got, err := countListed(c, tt.opts...)
			le, ok := errors.AsType[*a2a.ListLimitError](err)
			if !ok || le.Tasks != tt.tasks || le.Pages != int(tt.reqs) || le.NextPageToken != fmt.Sprintf("p%d", tt.reqs) {
				t.Fatalf("err = %#v, want a ListLimitError after %d tasks, naming page p%d", err, tt.tasks, tt.reqs)
			}
			if got != tt.tasks || n.Load() != tt.reqs {
				t.Errorf("%d tasks in %d requests, want %d in %d", got, n.Load(), tt.tasks, tt.reqs)
			}
		})
	}
	c, n := pagedTasks(t, fresh)
	if _, err := countListed(c, a2a.ListLimit(0)); err == nil || n.Load() != 0 {
		t.Errorf("ListLimit(0): err %v after %d requests, want an error before sending", err, n.Load())
	}
}

// BenchmarkListTasksHeap lists 1,000 and 10,000 tasks (pages of 100) and
// reports the live heap at its largest during the listing, read after a
// GC at the end of each page: it stays flat as the listing grows (one
// page at a time, and 8 bytes of hash per task id).
func BenchmarkListTasksHeap(b *testing.B) {
	for _, total := range []int{1_000, 10_000} {
		b.Run(fmt.Sprint(total), func(b *testing.B) {
			pages := int64(total / 100)
			var peak uint64
			for b.Loop() {
				c, _ := pagedTasks(b, func(i int64) ([]string, bool) { return ids(int(i-1)*100, 100), i < pages })
				runtime.GC()
				var base runtime.MemStats
				runtime.ReadMemStats(&base)
				k := 0
				for _, err := range c.ListTasks(context.Background(), a2a.ListTasksRequest{}) {
					if err != nil {
						b.Fatal(err)
					}
					if k++; k%100 == 0 {
						runtime.GC()
						var m runtime.MemStats
						runtime.ReadMemStats(&m)
						if m.HeapAlloc > base.HeapAlloc {
							peak = max(peak, m.HeapAlloc-base.HeapAlloc)
						}
					}
				}
			}
			b.ReportMetric(float64(peak), "peak-heap-B")
		})
	}
}
