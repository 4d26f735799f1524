package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	a2a03 "github.com/a2aproject/a2a-go/a2a"
	srv03 "github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
	push03 "github.com/a2aproject/a2a-go/a2asrv/push"
	a2a10 "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2acompat/a2av0"
	srv10 "github.com/a2aproject/a2a-go/v2/a2asrv"
	push10 "github.com/a2aproject/a2a-go/v2/a2asrv/push"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// The peers for the push-receiver tests (push_test.go): a2a-go v2.4.0 and
// v0.3.15 with their real HTTP push senders, executors scripted by the
// message text, and the recording around them.

// The scripts of the push executors, by the text of the message:
//
//	push-entity → submitted, working, waits at its gate, an "entity"
//	              artifact (data + a2atest.EntitySummary), completed
//	push-fail   → submitted, working, waits at its gate, failed
//	              (a2atest.FailureReason)
//	push-watch  → submitted, waits at its gate, working, the "entity"
//	              artifact, completed: nothing but the submitted task
//	              happens before the test registers its webhook
//	message     → a Message (greeting), no task
const (
	pushEntity  = "push-entity"
	pushFail    = "push-fail"
	pushWatch   = "push-watch"
	pushMessage = "message"
)

// madeUpToken is the token of the second webhook config the made-up-token
// scenario registers, for the same receiver URL.
const madeUpToken = "made-up-token-0123456789"

// entityData is the data part of the "entity" artifact.
var entityData = map[string]any{"title": "数控车床-A08-03-06", "status": map[string]any{"设备运行状态": "正常"}}

// v10PushExecutor is a v2 a2asrv.AgentExecutor running the push scripts.
type v10PushExecutor struct{ gates *gates }

func (x *v10PushExecutor) Execute(ctx context.Context, ec *srv10.ExecutorContext) iter.Seq2[a2a10.Event, error] {
	return func(yield func(a2a10.Event, error) bool) {
		emit := func(evs ...a2a10.Event) bool {
			for _, ev := range evs {
				if !yield(ev, nil) {
					return false
				}
			}
			return true
		}
		status := func(state a2a10.TaskState, text string) *a2a10.TaskStatusUpdateEvent {
			var msg *a2a10.Message
			if text != "" {
				msg = a2a10.NewMessageForTask(a2a10.MessageRoleAgent, ec, a2a10.NewTextPart(text))
			}
			return a2a10.NewStatusUpdateEvent(ec, state, msg)
		}
		text := ""
		if ec.Message != nil && len(ec.Message.Parts) > 0 {
			text = ec.Message.Parts[0].Text()
		}
		if text == pushMessage {
			emit(a2a10.NewMessage(a2a10.MessageRoleAgent, a2a10.NewTextPart(greeting)))
			return
		}
		if !emit(a2a10.NewSubmittedTask(ec, ec.Message)) {
			return
		}
		if text != pushWatch && !emit(status(a2a10.TaskStateWorking, "")) {
			return
		}
		if !x.gates.wait(ctx, ec.TaskID) {
			return
		}
		if text == pushWatch && !emit(status(a2a10.TaskStateWorking, "")) {
			return
		}
		switch text {
		case pushEntity, pushWatch:
			art := a2a10.NewArtifactEvent(ec, a2a10.NewDataPart(entityData), a2a10.NewTextPart(a2atest.EntitySummary))
			art.Artifact.Name = "entity"
			emit(art, status(a2a10.TaskStateCompleted, ""))
		case pushFail:
			emit(status(a2a10.TaskStateFailed, a2atest.FailureReason))
		default:
			emit(status(a2a10.TaskStateFailed, "unknown scenario"))
		}
	}
}

func (x *v10PushExecutor) Cancel(ctx context.Context, ec *srv10.ExecutorContext) iter.Seq2[a2a10.Event, error] {
	return func(yield func(a2a10.Event, error) bool) {
		yield(a2a10.NewStatusUpdateEvent(ec, a2a10.TaskStateCanceled, nil), nil)
	}
}

// v03PushExecutor is a v0.3 a2asrv.AgentExecutor running the push scripts.
type v03PushExecutor struct{ gates *gates }

func (x *v03PushExecutor) Execute(ctx context.Context, rc *srv03.RequestContext, q eventqueue.Queue) error {
	status := func(state a2a03.TaskState, text string) error {
		var msg *a2a03.Message
		if text != "" {
			msg = a2a03.NewMessageForTask(a2a03.MessageRoleAgent, rc, a2a03.TextPart{Text: text})
		}
		ev := a2a03.NewStatusUpdateEvent(rc, state, msg)
		ev.Final = state.Terminal()
		return q.Write(ctx, ev)
	}
	text := firstText(rc.Message)
	if text == pushMessage {
		return q.Write(ctx, a2a03.NewMessage(a2a03.MessageRoleAgent, a2a03.TextPart{Text: greeting}))
	}
	if err := q.Write(ctx, a2a03.NewSubmittedTask(rc, rc.Message)); err != nil {
		return err
	}
	if text != pushWatch {
		if err := status(a2a03.TaskStateWorking, ""); err != nil {
			return err
		}
	}
	if !x.gates.wait(ctx, a2a10.TaskID(rc.TaskID)) {
		return fmt.Errorf("task %s: its gate did not open", rc.TaskID)
	}
	if text == pushWatch {
		if err := status(a2a03.TaskStateWorking, ""); err != nil {
			return err
		}
	}
	switch text {
	case pushEntity, pushWatch:
		art := a2a03.NewArtifactEvent(rc, a2a03.DataPart{Data: entityData}, a2a03.TextPart{Text: a2atest.EntitySummary})
		art.Artifact.Name = "entity"
		if err := q.Write(ctx, art); err != nil {
			return err
		}
		return status(a2a03.TaskStateCompleted, "")
	case pushFail:
		return status(a2a03.TaskStateFailed, a2atest.FailureReason)
	}
	return status(a2a03.TaskStateFailed, "unknown scenario")
}

func (x *v03PushExecutor) Cancel(ctx context.Context, rc *srv03.RequestContext, q eventqueue.Queue) error {
	ev := a2a03.NewStatusUpdateEvent(rc, a2a03.TaskStateCanceled, nil)
	ev.Final = true
	return q.Write(ctx, ev)
}

// pushPeer is a running peer whose push sender POSTs for real.
type pushPeer struct {
	endpoint string
	gates    *gates
	log      *peerLog // the peer's log, errors only
	// release lets task id go on past its gate (id "": every task, present
	// and future).
	release func(t *testing.T, ctx context.Context, id string)

	mu      sync.Mutex
	methods []string // the JSON-RPC methods that reached the peer, in order
}

// recordMethods records the method of each JSON-RPC request before next
// serves it.
func (p *pushPeer) recordMethods(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var env struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(body, &env) != nil {
			env.Method = "(not JSON-RPC)"
		}
		p.mu.Lock()
		p.methods = append(p.methods, env.Method)
		p.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// calls returns the methods that reached the peer so far.
func (p *pushPeer) calls() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.methods)
}

// servePushPeer serves handler (through the method recorder) on loopback,
// closed when t ends after every gate opens.
func servePushPeer(t *testing.T, p *pushPeer, handler http.Handler) {
	srv := httptest.NewServer(p.recordMethods(handler))
	p.endpoint = srv.URL + "/a2a"
	t.Cleanup(func() {
		p.gates.openAll()
		srv.Close()
	})
}

func newPushPeer() *pushPeer {
	p := &pushPeer{gates: &gates{byID: map[a2a10.TaskID]chan struct{}{}}, log: &peerLog{more: make(chan struct{}, 1)}}
	p.release = func(_ *testing.T, _ context.Context, id string) {
		if id == "" {
			p.gates.openAll()
		} else {
			p.gates.open(id)
		}
	}
	return p
}

// peerLog is a peer's log, which a test can wait on.
type peerLog struct {
	lockedBuffer
	more chan struct{} // a token when a line was written since the last look
}

func (l *peerLog) Write(p []byte) (int, error) {
	n, err := l.lockedBuffer.Write(p)
	select {
	case l.more <- struct{}{}:
	default:
	}
	return n, err
}

// waitCount returns the log once it holds n lines with substr; it fails
// t when ctx ends first.
func (l *peerLog) waitCount(t *testing.T, ctx context.Context, substr string, n int) string {
	t.Helper()
	for {
		logged := l.String()
		if strings.Count(logged, substr) >= n {
			return logged
		}
		select {
		case <-l.more:
		case <-ctx.Done():
			t.Fatalf("the peer logged %d lines with %q, want %d: %v\n%s", strings.Count(logged, substr), substr, n, ctx.Err(), logged)
		}
	}
}

// startPushPeerV10 serves a2a-go v2.4.0's JSON-RPC handler with an
// in-memory push config store and its HTTP push sender, whose SSRF guard
// is off so that it may POST to 127.0.0.1.
func startPushPeerV10(t *testing.T) *pushPeer {
	return startPushPeerV2(t, func(h srv10.RequestHandler) http.Handler { return srv10.NewJSONRPCHandler(h) })
}

// startPushPeerV10Compat serves the same handler as startPushPeerV10
// through a2a-go v2.4.0's A2A v0.3 JSON-RPC binding (a2acompat/a2av0): a
// v0.3 client registers its webhook there, and the v2 push sender still
// POSTs v1.0 StreamResponses with A2A-Notification-Token.
func startPushPeerV10Compat(t *testing.T) *pushPeer {
	return startPushPeerV2(t, func(h srv10.RequestHandler) http.Handler { return a2av0.NewJSONRPCHandler(h) })
}

// startPushPeerV2 serves a2a-go v2.4.0's request handler, with push on, in
// the binding bind makes.
func startPushPeerV2(t *testing.T, bind func(srv10.RequestHandler) http.Handler) *pushPeer {
	p := newPushPeer()
	sender := push10.NewHTTPPushSender(&push10.HTTPSenderConfig{AllowPrivateNetworks: true, Timeout: 10 * time.Second})
	handler := srv10.NewHandler(&v10PushExecutor{gates: p.gates},
		srv10.WithPushNotifications(push10.NewInMemoryStore(), sender),
		srv10.WithLogger(slog.New(slog.NewTextHandler(p.log, &slog.HandlerOptions{Level: slog.LevelError}))))
	servePushPeer(t, p, bind(handler))
	return p
}

// startPushPeerV03 serves a2a-go v0.3.15's JSON-RPC handler with an
// in-memory push config store and its HTTP push sender.
func startPushPeerV03(t *testing.T) *pushPeer {
	p := newPushPeer()
	sender := push03.NewHTTPPushSender(&push03.HTTPSenderConfig{Timeout: 10 * time.Second})
	handler := srv03.NewHandler(&v03PushExecutor{gates: p.gates},
		srv03.WithPushNotifications(push03.NewInMemoryStore(), sender),
		srv03.WithLogger(slog.New(slog.NewTextHandler(p.log, &slog.HandlerOptions{Level: slog.LevelError}))))
	servePushPeer(t, p, srv03.NewJSONRPCHandler(handler))
	return p
}
