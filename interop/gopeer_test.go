package interop

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
	"github.com/a2aproject/a2a-go/a2asrv/push"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// goExecutor is an a2asrv.AgentExecutor scripted by the text of the
// incoming message, mirroring js/server.js.
type goExecutor struct{}

func firstText(m *a2a.Message) string {
	if m == nil {
		return ""
	}
	for _, p := range m.Parts {
		if tp, ok := p.(a2a.TextPart); ok {
			return tp.Text
		}
	}
	return ""
}

func (goExecutor) Execute(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	write := func(e a2a.Event) error { return q.Write(ctx, e) }
	finish := func(state a2a.TaskState, text string) error {
		var msg *a2a.Message
		if text != "" {
			msg = a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, a2a.TextPart{Text: text})
		}
		ev := a2a.NewStatusUpdateEvent(rc, state, msg)
		ev.Final = true
		return write(ev)
	}
	artifact := func(name string, parts ...a2a.Part) error {
		ev := a2a.NewArtifactEvent(rc, parts...)
		ev.Artifact.Name = name
		return write(ev)
	}

	if rc.StoredTask != nil { // the follow-up of scenario "ask"
		if err := artifact("entity", a2a.TextPart{Text: deviceAnswer}); err != nil {
			return err
		}
		return finish(a2a.TaskStateCompleted, "")
	}
	text := firstText(rc.Message)
	if text == "message" {
		return write(a2a.NewMessage(a2a.MessageRoleAgent, a2a.TextPart{Text: greeting}))
	}
	if err := write(a2a.NewSubmittedTask(rc, rc.Message)); err != nil {
		return err
	}
	switch text {
	case "entity":
		data := a2a.DataPart{Data: map[string]any{"title": "数控车床-A08-03-06", "status": map[string]any{"设备运行状态": "正常"}}}
		if err := artifact("entity", data, a2a.TextPart{Text: a2atest.EntitySummary}); err != nil {
			return err
		}
		return finish(a2a.TaskStateCompleted, "")
	case "fail":
		return finish(a2a.TaskStateFailed, a2atest.FailureReason)
	case "ask":
		return finish(a2a.TaskStateInputRequired, a2atest.DeviceQuestion)
	case "slow":
		if err := write(a2a.NewStatusUpdateEvent(rc, a2a.TaskStateWorking, nil)); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(400 * time.Millisecond):
		}
		if err := artifact("result", a2a.TextPart{Text: "done"}); err != nil {
			return err
		}
		return finish(a2a.TaskStateCompleted, "")
	case "stream":
		if err := write(a2a.NewStatusUpdateEvent(rc, a2a.TaskStateWorking, nil)); err != nil {
			return err
		}
		first := a2a.NewArtifactEvent(rc, a2a.TextPart{Text: "第一段"})
		first.Artifact.ID, first.Artifact.Name = "art-1", "story"
		if err := write(first); err != nil {
			return err
		}
		second := a2a.NewArtifactUpdateEvent(rc, "art-1", a2a.TextPart{Text: "第二段"})
		second.LastChunk = true
		if err := write(second); err != nil {
			return err
		}
		return finish(a2a.TaskStateCompleted, "")
	case "stream-fail":
		if err := write(a2a.NewStatusUpdateEvent(rc, a2a.TaskStateWorking, nil)); err != nil {
			return err
		}
		return finish(a2a.TaskStateFailed, a2atest.FailureReason)
	case "stream-slow":
		if err := write(a2a.NewStatusUpdateEvent(rc, a2a.TaskStateWorking, nil)); err != nil {
			return err
		}
		for _, step := range []func() error{
			func() error {
				ev := a2a.NewArtifactEvent(rc, a2a.TextPart{Text: "done"})
				ev.Artifact.ID, ev.Artifact.Name, ev.LastChunk = "art-slow", "result", true
				return write(ev)
			},
			func() error { return finish(a2a.TaskStateCompleted, "") },
		} {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(500 * time.Millisecond):
			}
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	case "cancel":
		if err := write(a2a.NewStatusUpdateEvent(rc, a2a.TaskStateWorking, nil)); err != nil {
			return err
		}
		select { // until tasks/cancel cancels ctx
		case <-ctx.Done():
		case <-time.After(30 * time.Second):
		}
		return nil
	default:
		return finish(a2a.TaskStateFailed, "unknown scenario")
	}
}

func (goExecutor) Cancel(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	ev := a2a.NewStatusUpdateEvent(rc, a2a.TaskStateCanceled, nil)
	ev.Final = true
	return q.Write(ctx, ev)
}

// noPush is a PushSender that sends nothing: the tests check the config
// methods, not deliveries.
type noPush struct{}

func (noPush) SendPush(context.Context, *a2a.PushConfig, *a2a.Task) error { return nil }

// startGoPeer serves a2a-go's JSON-RPC handler at /a2a/jsonrpc and its card
// at the well-known path, with streaming, push config and an extended card.
func startGoPeer(t *testing.T) (base string) {
	srv := httptest.NewUnstartedServer(nil) // listening, so the card can name its URL
	base = "http://" + srv.Listener.Addr().String()
	card := &a2a.AgentCard{
		URL:  base + "/a2a/jsonrpc",
		Name: "Interop Peer (Go)", Description: "a2a-go v0.3.15 test peer", Version: "1.0.0", ProtocolVersion: "0.3.0",
		PreferredTransport: a2a.TransportProtocolJSONRPC,
		DefaultInputModes:  []string{"text/plain"}, DefaultOutputModes: []string{"text/plain", "application/json"},
		Capabilities:                      a2a.AgentCapabilities{Streaming: true, PushNotifications: true},
		SupportsAuthenticatedExtendedCard: true,
		Skills:                            []a2a.AgentSkill{{ID: "lookup", Name: "Lookup", Description: "Looks up a QR code", Tags: []string{"qr"}}},
	}
	extended := *card
	extended.Name = "Interop Peer (Go, extended)"
	handler := a2asrv.NewHandler(goExecutor{},
		a2asrv.WithPushNotifications(push.NewInMemoryStore(), noPush{}),
		a2asrv.WithExtendedAgentCard(&extended))
	mux := http.NewServeMux()
	mux.Handle("/a2a/jsonrpc", a2asrv.NewJSONRPCHandler(handler))
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card))
	srv.Config.Handler = mux
	srv.Start()
	t.Cleanup(srv.Close)
	return base
}

// TestGoPeer runs the scenario matrix against github.com/a2aproject/a2a-go
// v0.3.15's JSON-RPC server, in-process on a loopback port.
func TestGoPeer(t *testing.T) {
	base := startGoPeer(t)
	runMatrix(t, base+"/a2a/jsonrpc")
	runSurface(t, base, "Interop Peer (Go, extended)")
}
