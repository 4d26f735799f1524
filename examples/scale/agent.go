package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The fake agent: a lean A2A v0.3 JSON-RPC handler rather than a2atest,
// whose request log, task scripts and goroutine per delivering task would
// weigh more than the waits measured. It answers message/send with a task
// "working" (keeping the push config the client registered) and tasks/get
// with "working" until released, "completed" after. Push notifications are
// POSTed by a fixed pool of senders on a transport with as many
// connections, so 100,000 notifications reuse a few sockets.

// taskPrefix names the agent's tasks: task-0, task-1, …
const taskPrefix = "task-"

// pushRec is one task's webhook, as the client registered it.
type pushRec struct{ id, url, token string }

type agent struct {
	srv *http.Server
	url string

	released atomic.Bool

	mu    sync.Mutex
	pushs []pushRec // message/send's tasks, in order of their ids

	// polled[i] is set once task-i has been asked for (poll mode); n of
	// them are set.
	polled  []atomic.Bool
	npolled atomic.Int64

	sends, gets, bad atomic.Int64
	// Connections the agent accepted, open now and at most; tasks/get
	// requests being answered now and at most.
	accepted, open, peakOpen atomic.Int64
	inflight, peakInflight   atomic.Int64
}

// startAgent serves a new agent on a loopback port; tasks bounds the ids
// tasks/get knows in poll mode.
func startAgent(tasks int) (*agent, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	a := &agent{url: "http://" + ln.Addr().String() + "/", polled: make([]atomic.Bool, tasks)}
	a.srv = &http.Server{Handler: a, ReadHeaderTimeout: 30 * time.Second, ConnState: a.connState}
	go a.srv.Serve(ln)
	return a, nil
}

func (a *agent) close() { a.srv.Close() }

func (a *agent) connState(_ net.Conn, s http.ConnState) {
	switch s {
	case http.StateNew:
		a.accepted.Add(1)
		raise(&a.peakOpen, a.open.Add(1))
	case http.StateClosed, http.StateHijacked:
		a.open.Add(-1)
	}
}

// raise sets peak to v if v is more.
func raise(peak *atomic.Int64, v int64) {
	for p := peak.Load(); v > p && !peak.CompareAndSwap(p, v); p = peak.Load() {
	}
}

// reset forgets the tasks and counts of a round (the connection counts
// start again from the connections open now).
func (a *agent) reset() {
	a.mu.Lock()
	a.pushs = nil
	a.mu.Unlock()
	for i := range a.polled {
		a.polled[i].Store(false)
	}
	a.npolled.Store(0)
	a.released.Store(false)
	a.sends.Store(0)
	a.gets.Store(0)
	a.bad.Store(0)
	a.accepted.Store(0)
	a.peakOpen.Store(a.open.Load())
	a.peakInflight.Store(0)
}

// fill makes the agent hold n push records shaped as message/send's
// (strings of the same lengths, each allocated apart), to weigh the
// agent's share of the heap without any wait.
func (a *agent) fill(n int, url string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for i := range n {
		a.pushs = append(a.pushs, pushRec{id: taskPrefix + strconv.Itoa(i), url: strings.Clone(url), token: strings.Repeat("x", 26)}) // rand.Text's length
	}
}

// records returns the push records so far.
func (a *agent) records() []pushRec {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pushs
}

type rpcRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ID            string `json:"id"`
		Configuration *struct {
			Push *struct {
				URL   string `json:"url"`
				Token string `json:"token"`
			} `json:"pushNotificationConfig"`
		} `json:"configuration"`
	} `json:"params"`
}

func (a *agent) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req rpcRequest
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err != nil || len(req.ID) == 0 {
		a.bad.Add(1)
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	var id, state string
	switch req.Method {
	case "message/send":
		a.sends.Add(1)
		a.mu.Lock()
		id = taskPrefix + strconv.Itoa(len(a.pushs))
		if c := req.Params.Configuration; c != nil && c.Push != nil {
			a.pushs = append(a.pushs, pushRec{id: id, url: c.Push.URL, token: c.Push.Token})
		} else {
			a.pushs = append(a.pushs, pushRec{id: id})
		}
		a.mu.Unlock()
		state = "working"
	case "tasks/get":
		a.gets.Add(1)
		raise(&a.peakInflight, a.inflight.Add(1))
		defer a.inflight.Add(-1)
		id = req.Params.ID
		i, ok := taskIndex(id)
		if !ok {
			a.bad.Add(1)
			writeRPC(w, req.ID, `"error":{"code":-32001,"message":"Task not found"}`)
			return
		}
		if i < len(a.polled) && !a.polled[i].Swap(true) {
			a.npolled.Add(1)
		}
		state = "working"
		if a.released.Load() {
			state = "completed"
		}
	default:
		a.bad.Add(1)
		writeRPC(w, req.ID, `"error":{"code":-32601,"message":"Method not found"}`)
		return
	}
	writeRPC(w, req.ID, `"result":`+taskJSON(id, state))
}

// taskIndex parses task-<i>.
func taskIndex(id string) (int, bool) {
	s, ok := strings.CutPrefix(id, taskPrefix)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(s)
	return i, err == nil && i >= 0
}

func taskJSON(id, state string) string {
	return `{"kind":"task","id":"` + id + `","contextId":"ctx-1","status":{"state":"` + state + `"}}`
}

func writeRPC(w http.ResponseWriter, id json.RawMessage, member string) {
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, `{"jsonrpc":"2.0","id":`+string(id)+`,`+member+`}`)
}

// sender POSTs notifications from a fixed pool of goroutines over a
// transport with as many connections: the same senders for the receiver
// and for the bare handler.
type sender struct {
	workers int
	client  *http.Client
}

func newSender(workers int) *sender {
	return &sender{workers: workers, client: &http.Client{Transport: &http.Transport{
		MaxConnsPerHost: workers, MaxIdleConnsPerHost: workers, IdleConnTimeout: 30 * time.Second,
	}}}
}

func (s *sender) close() { s.client.CloseIdleConnections() }

// notify POSTs each record's task, completed, with its token, to url
// (the record's own when url is ""), and returns each worker's first
// failure (a POST not answered 2xx), joined.
func (s *sender) notify(ctx context.Context, recs []pushRec, url string) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, s.workers)
	for w := range s.workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(recs) || errs[w] != nil {
					return
				}
				rec := recs[i]
				to := cmp.Or(url, rec.url)
				req, err := http.NewRequestWithContext(ctx, http.MethodPost, to, strings.NewReader(taskJSON(rec.id, "completed")))
				if err != nil {
					errs[w] = err
					return
				}
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-A2A-Notification-Token", rec.token)
				resp, err := s.client.Do(req)
				if err != nil {
					errs[w] = err
					return
				}
				io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
				resp.Body.Close()
				if resp.StatusCode/100 != 2 {
					errs[w] = fmt.Errorf("notification of %s: HTTP %s", rec.id, resp.Status)
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// bare is the ceiling a receiver is compared with: it reads the body and
// answers 204.
func bare(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
	w.WriteHeader(http.StatusNoContent)
}
