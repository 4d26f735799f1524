package interop

import (
	"context"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/push"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// The A2A v1.0 peer: github.com/a2aproject/a2a-go/v2's own JSON-RPC
// handler (a2asrv.NewJSONRPCHandler), in-process on a loopback port, with
// an executor scripted by the text of the incoming message like
// goExecutor (gopeer_test.go) is for v0.3.

// gateWait bounds how long a scripted step waits for the test to let it
// go on; the tests open their gates at once, so it is never reached by a
// passing run.
const gateWait = 10 * time.Second

// gates hold a running task at a step until the test opens its gate, so a
// scenario that needs a task still running (non-blocking send, resubscribe)
// does not depend on timing. Either side may come first.
type gates struct {
	mu   sync.Mutex
	byID map[a2a.TaskID]chan struct{}
	done bool // every gate, present and future, is open
}

func (g *gates) gate(id a2a.TaskID) chan struct{} {
	g.mu.Lock()
	defer g.mu.Unlock()
	ch, ok := g.byID[id]
	if !ok {
		ch = make(chan struct{})
		if g.done {
			close(ch)
		}
		g.byID[id] = ch
	}
	return ch
}

// open lets the task id go on.
func (g *gates) open(id string) {
	ch := g.gate(a2a.TaskID(id))
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// openAll lets every task go on, for the peer's shutdown.
func (g *gates) openAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.done = true
	for _, ch := range g.byID {
		select {
		case <-ch:
		default:
			close(ch)
		}
	}
}

// wait blocks until id's gate opens, ctx ends or gateWait passes; it
// reports whether the gate opened.
func (g *gates) wait(ctx context.Context, id a2a.TaskID) bool {
	t := time.NewTimer(gateWait)
	defer t.Stop()
	select {
	case <-g.gate(id):
		return true
	case <-ctx.Done():
	case <-t.C:
	}
	return false
}

// v10Executor is an a2asrv.AgentExecutor (v2) scripted by the text of the
// incoming message:
//
//	entity      → an "entity" artifact (data + a2atest.EntitySummary), completed
//	fail        → failed, a2atest.FailureReason in the status message
//	ask         → input-required (a2atest.DeviceQuestion); the follow-up completes with deviceAnswer
//	slow        → working, waits at its gate, then a "result" artifact and completed
//	cancel      → working until canceled
//	message     → a Message (greeting), no task
//	whoami      → a Message "tenant=<the request's tenant> user=<the caller's name>"
//	stream      → working, artifact art-1 in two chunks (append, lastChunk), completed
//	stream-slow → working, waits at its gate, then a "result" artifact and completed
type v10Executor struct {
	gates *gates
}

func (x *v10Executor) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		emit := func(evs ...a2a.Event) bool {
			for _, ev := range evs {
				if !yield(ev, nil) {
					return false
				}
			}
			return true
		}
		status := func(state a2a.TaskState, text string) *a2a.TaskStatusUpdateEvent {
			var msg *a2a.Message
			if text != "" {
				msg = a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart(text))
			}
			return a2a.NewStatusUpdateEvent(ec, state, msg)
		}
		artifact := func(id a2a.ArtifactID, name string, parts ...*a2a.Part) *a2a.TaskArtifactUpdateEvent {
			ev := a2a.NewArtifactEvent(ec, parts...)
			if id != "" {
				ev.Artifact.ID = id
			}
			ev.Artifact.Name = name
			return ev
		}

		if ec.StoredTask != nil { // the follow-up of "ask"
			emit(artifact("", "entity", a2a.NewTextPart(deviceAnswer)), status(a2a.TaskStateCompleted, ""))
			return
		}
		text := ""
		if ec.Message != nil && len(ec.Message.Parts) > 0 {
			text = ec.Message.Parts[0].Text()
		}
		switch text {
		case "message":
			emit(a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(greeting)))
			return
		case "whoami":
			user := ""
			if ec.User != nil {
				user = ec.User.Name
			}
			emit(a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(fmt.Sprintf("tenant=%s user=%s", ec.Tenant, user))))
			return
		}
		if !emit(a2a.NewSubmittedTask(ec, ec.Message)) {
			return
		}
		switch text {
		case "entity":
			data := a2a.NewDataPart(map[string]any{"title": "数控车床-A08-03-06", "status": map[string]any{"设备运行状态": "正常"}})
			emit(artifact("", "entity", data, a2a.NewTextPart(a2atest.EntitySummary)), status(a2a.TaskStateCompleted, ""))
		case "fail":
			emit(status(a2a.TaskStateFailed, a2atest.FailureReason))
		case "ask":
			emit(status(a2a.TaskStateInputRequired, a2atest.DeviceQuestion))
		case "slow", "stream-slow":
			if !emit(status(a2a.TaskStateWorking, "")) || !x.gates.wait(ctx, ec.TaskID) {
				return
			}
			done := artifact("art-result", "result", a2a.NewTextPart("done"))
			done.LastChunk = true
			emit(done, status(a2a.TaskStateCompleted, ""))
		case "cancel":
			if !emit(status(a2a.TaskStateWorking, "")) {
				return
			}
			x.gates.wait(ctx, ec.TaskID) // until CancelTask ends the execution, or the peer closes
		case "stream":
			second := a2a.NewArtifactUpdateEvent(ec, "art-1", a2a.NewTextPart("第二段"))
			second.LastChunk = true
			emit(status(a2a.TaskStateWorking, ""), artifact("art-1", "story", a2a.NewTextPart("第一段")), second,
				status(a2a.TaskStateCompleted, ""))
		default:
			emit(status(a2a.TaskStateFailed, "unknown scenario"))
		}
	}
}

func (x *v10Executor) Cancel(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// noPushV10 is a push.Sender that sends nothing: the tests check the
// config methods, not deliveries.
type noPushV10 struct{}

func (noPushV10) SendPush(context.Context, *a2a.PushConfig, a2a.Event) error { return nil }

// bearerUser is the peer's authentication middleware: a request with
// "Authorization: Bearer <token>" is made by the authenticated user named
// <token>. Without one the caller stays anonymous, which a2a-go's default
// task store serves except for ListTasks (-31401, A2A v1.0 reference §13
// trap 31). Each user sees only the tasks it created.
type bearerUser struct {
	a2asrv.PassthroughCallInterceptor
}

func (bearerUser) Before(ctx context.Context, cc *a2asrv.CallContext, req *a2asrv.Request) (context.Context, any, error) {
	if vs, ok := cc.ServiceParams().Get("Authorization"); ok && len(vs) == 1 {
		if name, ok := strings.CutPrefix(vs[0], "Bearer "); ok && name != "" {
			cc.User = a2asrv.NewAuthenticatedUser(name, nil)
		}
	}
	return ctx, nil, nil
}

// v10Peer is a running v1.0 peer.
type v10Peer struct {
	base     string // http://127.0.0.1:port, where the card is served
	endpoint string // the JSON-RPC URL the card names
	gates    *gates
	rpcs     atomic.Int64 // requests the JSON-RPC endpoint received
	// unversioned counts those without the header "A2A-Version: 1.0".
	unversioned atomic.Int64
}

// The names of the peer's public and extended cards.
const (
	v10CardName     = "Interop Peer (Go, A2A v1.0)"
	v10ExtendedName = "Interop Peer (Go, A2A v1.0, extended)"
)

// newV10Handler is the peer's request handler, whatever binding serves
// it: v10Executor behind gates, the capabilities of card checked,
// push config in an in-memory store, an extended card (card named
// v10ExtendedName) and the bearerUser middleware.
func newV10Handler(card *a2a.AgentCard, gates *gates) a2asrv.RequestHandler {
	extended := *card
	extended.Name = v10ExtendedName
	return a2asrv.NewHandler(&v10Executor{gates: gates},
		a2asrv.WithCapabilityChecks(&card.Capabilities),
		a2asrv.WithPushNotifications(push.NewInMemoryStore(), noPushV10{}),
		a2asrv.WithExtendedAgentCard(&extended),
		a2asrv.WithCallInterceptors(bearerUser{}),
		a2asrv.WithLogger(slog.New(slog.DiscardHandler)))
}

// startV10Peer serves a2a-go v2's JSON-RPC handler at /a2a/v1 and its card
// (one JSONRPC interface, protocolVersion "1.0") at the well-known path,
// with streaming, push config (in-memory store), an extended card and the
// bearerUser middleware. It is closed when t ends, after every gate opens.
func startV10Peer(t *testing.T) *v10Peer {
	srv := httptest.NewUnstartedServer(nil) // listening on 127.0.0.1, so the card can name its URL
	p := &v10Peer{base: "http://" + srv.Listener.Addr().String(), gates: &gates{byID: map[a2a.TaskID]chan struct{}{}}}
	p.endpoint = p.base + "/a2a/v1"
	card := &a2a.AgentCard{
		Name: v10CardName, Description: "a2a-go v2.4.0 test peer", Version: "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(p.endpoint, a2a.TransportProtocolJSONRPC)},
		Capabilities:        a2a.AgentCapabilities{Streaming: true, PushNotifications: true, ExtendedAgentCard: true},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain", "application/json"},
		Skills: []a2a.AgentSkill{{ID: "lookup", Name: "Lookup", Description: "Looks up a QR code", Tags: []string{"qr"}}},
	}
	mux := http.NewServeMux()
	rpc := a2asrv.NewJSONRPCHandler(newV10Handler(card, p.gates))
	mux.Handle("/a2a/v1", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.rpcs.Add(1)
		if r.Header.Get("A2A-Version") != "1.0" {
			p.unversioned.Add(1)
		}
		rpc.ServeHTTP(w, r)
	}))
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(func() {
		p.gates.openAll()
		srv.Close()
	})
	return p
}
