package a2a

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"iter"
	"time"
)

// ListTasksRequest filters and pages [Client.ListTasks] (A2A v1.0,
// ListTasksRequest; over HTTP+JSON its query parameters). Zero fields are
// not sent: the server's defaults apply.
type ListTasksRequest struct {
	// ContextID keeps the tasks of one context.
	ContextID string
	// Status keeps the tasks in one state; "" keeps every state.
	// [TaskStateUnknown] is refused: v1.0 spells it
	// TASK_STATE_UNSPECIFIED, which as a filter means every state.
	Status TaskState
	// PageSize is how many tasks a page holds, 1 to 100; 0 leaves it to
	// the server (50 by the spec).
	PageSize int
	// PageToken is a page's NextPageToken, to read the page after it;
	// "" starts at the first.
	PageToken string
	// StatusTimestampAfter keeps the tasks whose status changed at or
	// after this time; the zero time keeps all.
	StatusTimestampAfter time.Time
	// IncludeArtifacts asks for each task's artifacts, which the server
	// leaves out by default.
	IncludeArtifacts bool
}

// ListTasksResponse is one page of [Client.ListTasksPage] (A2A v1.0,
// ListTasksResponse). Members the server left out read as their defaults.
type ListTasksResponse struct {
	// Tasks is the page, newest status first; each keeps its own bytes
	// ([Task.Raw]).
	Tasks []*Task
	// NextPageToken reads the next page; "" on the last.
	NextPageToken string
	// PageSize is the page size the server used; TotalSize is how many
	// tasks match the filters, over all pages.
	PageSize, TotalSize int

	raw json.RawMessage // the bytes it was decoded from (raw.go)
}

// maxPageSize is the largest page a v1.0 server takes; servers refuse
// larger ones instead of clamping them.
const maxPageSize = 100

// ListTasksPage reads one page of the tasks the agent lets the caller see,
// with ListTasks (A2A v1.0; over HTTP+JSON GET /tasks, the request's
// fields as query parameters). Use [HistoryLength] for each task's
// history. A2A v0.3's JSON-RPC binding has no such call: on a client that
// speaks it, it returns an *[UnsupportedByVersionError] without sending.
// A v0.3 HTTP+JSON client sends GET /v1/tasks, which only the v0.3
// specification's table has (the v0.3 proto has no such rpc), so most
// v0.3 agents answer it with an error. Errors: those of
// [Client.GetTask] (a task without an id is a *[ProtocolError]), and
// before sending an error for a PageSize outside 0..100 or a Status that
// is unknown or has no v1.0 name.
func (c *Client) ListTasksPage(ctx context.Context, req ListTasksRequest, opts ...CallOption) (*ListTasksResponse, error) {
	page, _, err := c.listPage(ctx, req, opts)
	return page, err
}

// listPage is ListTasksPage, with the reply the page came in.
func (c *Client) listPage(ctx context.Context, req ListTasksRequest, opts []CallOption) (*ListTasksResponse, *reply, error) {
	b, cfg, err := c.callBinding(opts)
	if err != nil {
		return nil, nil, err
	}
	if req.PageSize < 0 || req.PageSize > maxPageSize {
		return nil, nil, fmt.Errorf("a2a: ListTasks: page size %d out of range 0..%d", req.PageSize, maxPageSize)
	}
	spec, err := b.listTasks(req, cfg.historyLength)
	if err != nil {
		return nil, nil, err
	}
	var rep *reply
	page, err := run(ctx, c, cfg.apply(spec), func(r *reply) (*ListTasksResponse, error) {
		rep = r
		return b.taskPage(r)
	})
	return page, rep, err
}

// ListTasks yields every task the agent lets the caller see, page after
// page ([Client.ListTasksPage], starting at req.PageToken), until the last
// page; breaking out of the loop stops it:
//
//	for task, err := range c.ListTasks(ctx, a2a.ListTasksRequest{ContextID: id}) {
//		if err != nil { … }
//	}
//
// One listing reads whole pages until it has read [ListLimit] tasks
// (default 10,000; repeats count), then ends with a *[ListLimitError] whose
// NextPageToken continues it; pages hold no memory once their tasks are
// yielded. It ends with one error, yielded as (nil, err): that one, those
// of ListTasksPage, and a *[ProtocolError] when the pages would never end:
// a nextPageToken repeats one already read, or more than three pages in a
// row bring no task the listing has not yielded already (empty pages, or
// pages of tasks listed before: a server going round in circles under
// fresh tokens) and still name a next one. Pages are yielded as the agent
// sent them, a task listed again included (one may come twice, moved by a
// change while the listing runs, and a listing that shifts by a page or
// more, tasks being created as it is read, repeats a whole page).
func (c *Client) ListTasks(ctx context.Context, req ListTasksRequest, opts ...CallOption) iter.Seq2[*Task, error] {
	return func(yield func(*Task, error) bool) {
		cfg, err := buildCallConfig(opts)
		if err != nil {
			yield(nil, err)
			return
		}
		limit := cmp.Or(cfg.listLimit, defaultListLimit)
		var (
			pages pager
			seen  listed
			read  int
		)
		for {
			page, rep, err := c.listPage(ctx, req, opts)
			if err != nil {
				yield(nil, err)
				return
			}
			news := seen.add(page.Tasks)
			for _, t := range page.Tasks {
				if !yield(t, nil) {
					return
				}
			}
			if page.NextPageToken == "" {
				return
			}
			if err := pages.next(rep, news, page.NextPageToken, 0); err != nil {
				yield(nil, err)
				return
			}
			if read += len(page.Tasks); read >= limit {
				yield(nil, &ListLimitError{Method: rep.asked.method, Limit: limit, Tasks: read, Pages: pages.read, NextPageToken: page.NextPageToken})
				return
			}
			req.PageToken = page.NextPageToken
		}
	}
}

// defaultListLimit is how many tasks one ListTasks reads without
// [ListLimit].
const defaultListLimit = 10_000

// maxListedIDs bounds the task ids one listing remembers (8 bytes each,
// about 20 with the map's overhead): past it, pages are checked against
// the first ones only.
const maxListedIDs = 1 << 16

// listed remembers the tasks one listing has yielded, by a 64-bit hash of
// each id, up to maxListedIDs of them.
type listed struct {
	seed maphash.Seed
	ids  map[uint64]struct{}
}

// add remembers the tasks of a page and returns how many of them were
// not yielded before (past maxListedIDs, ids not remembered count as new).
func (l *listed) add(tasks []*Task) (news int) {
	if l.ids == nil {
		l.seed, l.ids = maphash.MakeSeed(), map[uint64]struct{}{}
	}
	for _, t := range tasks {
		h := maphash.String(l.seed, t.ID)
		if _, ok := l.ids[h]; ok {
			continue
		}
		news++
		if len(l.ids) < maxListedIDs {
			l.ids[h] = struct{}{}
		}
	}
	return news
}

// Bounds on following pages, against an agent whose pages never end.
const (
	// maxEmptyPages is how many pages in a row may bring nothing new
	// (no item; for tasks, none not listed before) and name a next one.
	maxEmptyPages = 3
	// maxConfigPages bounds the pages of one task's push configs, which
	// the client gathers into one slice.
	maxConfigPages = 100
)

// pager guards a loop over pages: each next token must be new (tokens
// are remembered by a 64-bit hash, 16 bytes a page however long they are),
// at most maxEmptyPages empty pages in a row may go on, and with limit > 0
// at most limit pages may be read.
type pager struct {
	seed          maphash.Seed
	seen          map[uint64]bool
	read, empties int
}

// next checks the page just read (in rep; items is how many new items it
// brought), which names next as the one after it; its error is a
// *ProtocolError about rep.
func (p *pager) next(rep *reply, items int, next string, limit int) error {
	p.read++
	if items == 0 {
		p.empties++
	} else {
		p.empties = 0
	}
	if p.seen == nil {
		p.seed, p.seen = maphash.MakeSeed(), map[uint64]bool{}
	}
	h := maphash.String(p.seed, next)
	switch {
	case p.seen[h]:
		return rep.fault("nextPageToken repeats a page already read", nil)
	case p.empties > maxEmptyPages:
		return rep.fault(fmt.Sprintf("%d pages in a row brought nothing new, each naming another", p.empties), nil)
	case limit > 0 && p.read >= limit:
		return rep.fault(fmt.Sprintf("more than %d pages", limit), nil)
	}
	p.seen[h] = true
	return nil
}

// ListLimitError ends a [Client.ListTasks] that has read as many tasks
// as [ListLimit] allows (10,000 by default) while the agent still names a
// next page. It is the caller's bound, not a fault of the agent: to read
// on, list again with ListTasksRequest.PageToken set to NextPageToken.
type ListLimitError struct {
	// Method is the call as the client's protocol version spells it
	// ("ListTasks").
	Method string
	// Limit is the bound, in tasks; Tasks is how many were read (whole
	// pages, so it may pass Limit by less than a page), in Pages pages.
	Limit, Tasks, Pages int
	// NextPageToken is the token of the first page not read.
	NextPageToken string
}

// Error returns e.g. "a2a: ListTasks: stopped after 10000 tasks in 100
// pages, at the limit of 10000; more pages follow".
func (e *ListLimitError) Error() string {
	return fmt.Sprintf("a2a: %s: stopped after %d tasks in %d pages, at the limit of %d; more pages follow", e.Method, e.Tasks, e.Pages, e.Limit)
}
