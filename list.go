package a2a

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"time"
)

// ListTasksRequest filters and pages [Client.ListTasks] (A2A v1.0,
// ListTasksRequest). Zero fields are not sent: the server's defaults apply.
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
}

// maxPageSize is the largest page a v1.0 server takes; servers refuse
// larger ones instead of clamping them.
const maxPageSize = 100

// ListTasksPage reads one page of the tasks the agent lets the caller see,
// with ListTasks (A2A v1.0). Use [HistoryLength] for each task's history.
// A2A v0.3 has no such call: on a client that speaks v0.3 it returns an
// *[UnsupportedByVersionError] without sending. Errors: those of
// [Client.GetTask] (a task without an id is a *[ProtocolError]), and
// before sending an error for a PageSize outside 0..100 or a Status that
// is unknown or has no v1.0 name.
func (c *Client) ListTasksPage(ctx context.Context, req ListTasksRequest, opts ...CallOption) (*ListTasksResponse, error) {
	page, _, err := c.listPage(ctx, req, opts)
	return page, err
}

// listPage is ListTasksPage, with the reply the page came in.
func (c *Client) listPage(ctx context.Context, req ListTasksRequest, opts []CallOption) (*ListTasksResponse, *reply, error) {
	if err := c.usable(); err != nil {
		return nil, nil, err
	}
	cfg, err := buildCallConfig(opts)
	if err != nil {
		return nil, nil, err
	}
	b, err := c.bind(cfg)
	if err != nil {
		return nil, nil, err
	}
	v1, ok := b.(v10)
	if !ok {
		return nil, nil, &UnsupportedByVersionError{Method: methodListTasksV10, Version: b.version()}
	}
	if req.PageSize < 0 || req.PageSize > maxPageSize {
		return nil, nil, fmt.Errorf("a2a: ListTasks: page size %d out of range 0..%d", req.PageSize, maxPageSize)
	}
	if m, _ := v03State(req.Status); m == TaskStateUnknown {
		return nil, nil, errors.New(`a2a: ListTasks: state unknown cannot filter (A2A v1.0's TASK_STATE_UNSPECIFIED means any state); leave Status "" for any`)
	}
	spec, err := v1.listTasks(req, cfg.historyLength)
	if err != nil {
		return nil, nil, err
	}
	rep, err := c.invoke(ctx, spec)
	if err != nil {
		return nil, nil, err
	}
	page, err := listTasksResult(rep)
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
// It ends with one error, yielded as (nil, err): those of ListTasksPage,
// and a *[ProtocolError] when a page's nextPageToken repeats one already
// read (the pages would never end).
func (c *Client) ListTasks(ctx context.Context, req ListTasksRequest, opts ...CallOption) iter.Seq2[*Task, error] {
	return func(yield func(*Task, error) bool) {
		seen := map[string]bool{}
		for {
			page, rep, err := c.listPage(ctx, req, opts)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, t := range page.Tasks {
				if !yield(t, nil) {
					return
				}
			}
			if page.NextPageToken == "" {
				return
			}
			if seen[page.NextPageToken] {
				yield(nil, rep.fault("nextPageToken repeats a page already read", nil))
				return
			}
			seen[page.NextPageToken], req.PageToken = true, page.NextPageToken
		}
	}
}
