package interop

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
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
		if err := artifact("entity", data, a2a.TextPart{Text: entitySummary}); err != nil {
			return err
		}
		return finish(a2a.TaskStateCompleted, "")
	case "fail":
		return finish(a2a.TaskStateFailed, failureReason)
	case "ask":
		return finish(a2a.TaskStateInputRequired, deviceQuestion)
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

// TestGoPeer runs the scenario matrix against github.com/a2aproject/a2a-go
// v0.3.15's JSON-RPC server, in-process on a loopback port.
func TestGoPeer(t *testing.T) {
	srv := httptest.NewServer(a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(goExecutor{})))
	defer srv.Close()
	runMatrix(t, srv.URL+"/a2a/jsonrpc")
}
