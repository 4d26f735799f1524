package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/caoliao-a2a/a2a-go"
)

// The task commands but get and cancel (tasks.go): list, subscribe,
// download.

func runTaskList(ctx context.Context, o *options, _ []string) int {
	// ListTasks is in A2A v1.0 and in v0.3's HTTP+JSON, not in v0.3's
	// JSON-RPC: the card's choice among the interfaces that have it.
	o.usable, o.usableText = canList, "lists tasks (A2A v1.0, or v0.3 over HTTP+JSON)"
	req := a2a.ListTasksRequest{ContextID: o.contextID, Status: a2a.TaskState(o.status), PageSize: o.pageSize, PageToken: o.pageToken}
	var opts []a2a.CallOption
	if o.history >= 0 {
		opts = append(opts, a2a.HistoryLength(o.history))
	}
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		page, err := c.ListTasksPage(ctx, req, opts...)
		if err != nil {
			return o.fail(err)
		}
		if o.json() {
			o.outJSON(compact(listJSON(page)))
			return exitOK
		}
		for _, t := range page.Tasks {
			o.field("Task", t.ID)
			o.field("Context", t.ContextID)
			o.field("Status", statusText(t.Status))
			if t.Status.Timestamp != "" {
				o.field("Timestamp", t.Status.Timestamp)
			}
			o.outf("\n")
		}
		o.field("Tasks", len(page.Tasks))
		if page.NextPageToken != "" {
			o.field("Next page", "a2a task list"+o.sameAgent()+o.sameListing()+" --page-token "+quote(page.NextPageToken))
		}
		return exitOK
	})
}

// canList reports whether a binding has ListTasks: every one but v0.3's
// JSON-RPC.
func canList(version, transport string) bool {
	return version == a2a.ProtocolV10 || strings.EqualFold(transport, a2a.TransportHTTPJSON)
}

// sameListing is the flags, as sameAgent's, that ask for the same
// listing: its filters and page size.
func (o *options) sameListing() string {
	pageSize, history := "", ""
	if o.pageSize > 0 {
		pageSize = strconv.Itoa(o.pageSize)
	}
	if o.history >= 0 {
		history = strconv.Itoa(o.history)
	}
	return flagWords("context-id", o.contextID, "status", o.status, "page-size", pageSize, "history", history)
}

func runTaskSubscribe(ctx context.Context, o *options, args []string) int {
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		task := &a2a.Task{ID: args[0]}
		events, refused, stop := opened(c.SubscribeToTask(ctx, args[0]))
		defer stop()
		if refused != nil { // a task that has ended cannot be followed: read it
			o.debugf("stream: refused (%v); reading the task", refused)
			return o.pollShown(ctx, c, task, o.stream)
		}
		return o.followAgain(ctx, c, events, task, o.stream)
	})
}

func runTaskDownload(ctx context.Context, o *options, args []string) int {
	return o.call(ctx, func(ctx context.Context, c *a2a.Client) int {
		task, err := c.GetTask(ctx, args[0])
		if err != nil {
			return o.fail(err)
		}
		// A file the agent gives by URI is fetched without the agent's
		// credentials: the URI may be anywhere.
		fetch := &http.Client{Timeout: o.timeout}
		if o.baseClient != nil {
			fetch.Transport = o.baseClient.Transport // --cacert, --insecure; never the agent's credentials
		}
		paths, err := download(ctx, task, o.dir, o.force, fetch, o.maxBytes)
		if _, ok := errors.AsType[*fileExistsError](err); ok {
			err = usageError{msg: err.Error()}
		}
		for i, p := range paths {
			paths[i] = o.unsecretName(p, i)
		}
		if o.json() {
			// One document: the files saved (after an error, the
			// envelope; the files saved before it named on stderr).
			if err != nil {
				for _, p := range paths {
					o.errf("a2a: saved %s\n", p)
				}
				return o.fail(err)
			}
			b, _ := json.Marshal(map[string]any{"saved": append([]string{}, paths...)})
			o.outJSON(b)
			return exitOK
		}
		for _, p := range paths {
			o.field("Saved", p)
		}
		if err != nil {
			return o.fail(err)
		}
		o.field("Task", task.ID)
		o.field("Context", task.ContextID)
		o.field("Status", statusText(task.Status))
		return exitOK
	})
}

// unsecretName is path, a file download wrote, renamed when its name
// (the agent's) holds one of the user's secrets: the name printed must be
// the file's, and printing it would show the secret. The file keeps the
// agent's bytes.
func (o *options) unsecretName(path string, i int) string {
	base := filepath.Base(path)
	if o.redactor().Str(base) == base {
		return path
	}
	renamed := filepath.Join(filepath.Dir(path), fmt.Sprintf("file-%d-renamed%s", i+1, filepath.Ext(o.redactor().Str(base))))
	if _, err := os.Lstat(renamed); err == nil || os.Rename(path, renamed) != nil {
		return filepath.Join(filepath.Dir(path), "(a name holding a secret)")
	}
	return renamed
}
