package a2atest_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// post sends a raw body and returns the status and body of the reply.
func post(t *testing.T, url, body string, header map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	http.DefaultClient.CloseIdleConnections()
	return resp.StatusCode, string(b)
}

// TestEnvelopeChecks: requests a strict server would refuse are refused
// with the JSON-RPC error a client test can see.
func TestEnvelopeChecks(t *testing.T) {
	srv := a2atest.NewServer(a2atest.RequireAgentID("agent-1"))
	defer srv.Close()
	msg := `{"kind":"message","role":"user","messageId":"m1","parts":[{"kind":"text","text":"hi"}]}`
	tests := []struct {
		body string
		want string
	}{
		{`{`, `"code":-32700`},
		{`{"id":1,"method":"tasks/get","params":{"id":"x"},"agent_id":"agent-1"}`, `"jsonrpc\" must be \"2.0\"`},
		{`{"jsonrpc":"2.0","id":1.5,"method":"tasks/get","params":{"id":"x"},"agent_id":"agent-1"}`, `"code":-32600`},
		{`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}`, `agent_id missing or wrong on tasks/get`},
		{`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"},"agent_id":"other"}`, `agent_id missing or wrong`},
		{`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":[],"agent_id":"agent-1"}`, `"params\" must be an object`},
		{`{"jsonrpc":"2.0","id":1,"method":"tasks/list","params":{},"agent_id":"agent-1"}`, `"code":-32601`},
		{`{"jsonrpc":"2.0","id":"a","method":"tasks/get","params":{"id":"nope"},"agent_id":"agent-1"}`, `{"code":-32001,"message":"task not found: nope"},"id":"a"`},
		{`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":` + strings.Replace(msg, `"kind":"message",`, "", 1) + `},"agent_id":"agent-1"}`, `message.kind must be`},
		{`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":` + strings.Replace(msg, `"user"`, `"agent"`, 1) + `},"agent_id":"agent-1"}`, `message.role must be`},
		{`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":` + strings.Replace(msg, `"user"`, `"ROLE_USER"`, 1) + `},"agent_id":"agent-1"}`, `message.role must be`},
		{`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":` + strings.Replace(msg, `"m1"`, `""`, 1) + `},"agent_id":"agent-1"}`, `messageId is missing`},
		{`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":` + strings.Replace(msg, `"text","text"`, `"blob","text"`, 1) + `},"agent_id":"agent-1"}`, `unknown kind \"blob\"`},
		{`{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":` + msg + `},"agent_id":"agent-1"}`, `"state":"completed"`},
	}
	for _, tt := range tests {
		_, got := post(t, srv.URL, tt.body, nil)
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s\n got %s\nwant it to contain %s", tt.body, got, tt.want)
		}
	}
	if n := len(srv.Requests()); n != len(tests) {
		t.Errorf("recorded %d requests, want %d", n, len(tests))
	}
}

func TestHeaderChecks(t *testing.T) {
	srv := a2atest.NewServer(a2atest.RequireAPIKey("k1"), a2atest.RequireWorkspace("w1"), a2atest.RequireBearer("b1"))
	defer srv.Close()
	full := map[string]string{"X-API-Key": "k1", "X-Workspace-ID": "w1", "Authorization": "Bearer b1"}
	body := `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}`
	for drop, want := range map[string]int{"X-API-Key": 401, "X-Workspace-ID": 403, "Authorization": 401, "": 200} {
		h := map[string]string{}
		for k, v := range full {
			if k != drop {
				h[k] = v
			}
		}
		if got, _ := post(t, srv.URL, body, h); got != want {
			t.Errorf("without %q: status %d, want %d", drop, got, want)
		}
	}
}

// TestScenario drives the Caoliao scenario through the real client: entity,
// failure, polling, input-required follow-up, cancel, history length.
func TestScenario(t *testing.T) {
	srv := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao), a2atest.RequireAgentCode("caoliao"))
	defer srv.Close()
	c, err := a2a.NewClient(srv.URL, a2a.WithAgentCode("caoliao"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	task, err := c.SendText(ctx, "这个二维码是什么？"+a2atest.SeedQRCode)
	if err != nil || task.Status.State != a2a.TaskStateCompleted || task.Artifact("entity").Text() != a2atest.EntitySummary {
		t.Fatalf("entity: %v, %v", task, err)
	}
	var card a2atest.EntityCard
	if err := task.Artifact("entity").DecodeData(&card); err != nil || card.ActionCount != 2 {
		t.Errorf("entity data: %+v, %v", card, err)
	}
	got, err := c.GetTask(ctx, task.ID, a2a.HistoryLength(0))
	if err != nil || len(got.History) != 0 || got.ID != task.ID {
		t.Errorf("GetTask historyLength 0: %v, %v", got, err)
	}
	if _, err := c.CancelTask(ctx, task.ID); !errors.Is(err, a2a.ErrTaskNotCancelable) {
		t.Errorf("cancel a completed task: %v", err)
	}

	failed, err := c.SendText(ctx, "https://qr71.cn/nope")
	if err != nil || failed.Status.State != a2a.TaskStateFailed || failed.StatusText() != a2atest.FailureReason {
		t.Errorf("failed: %v, %v", failed, err)
	}

	slow, err := c.SendText(ctx, "本月巡检记录")
	if err != nil || slow.Status.State != a2a.TaskStateSubmitted || len(slow.Artifacts) != 0 {
		t.Fatalf("records: %v, %v", slow, err)
	}
	done, err := c.WaitTask(ctx, slow.ID, a2a.PollInterval(1e6), a2a.PollJitter(0))
	if err != nil || done.Artifact("records").Text() != a2atest.RecordsSummary {
		t.Errorf("records polled: %v, %v", done, err)
	}

	ask, err := c.SendText(ctx, "查一台设备")
	if err != nil || ask.Status.State != a2a.TaskStateInputRequired || ask.StatusText() != a2atest.DeviceQuestion {
		t.Fatalf("input-required: %v, %v", ask, err)
	}
	res, err := c.SendFollowUp(ctx, ask, a2a.NewTextMessage("A08-03-06"))
	answered, ok := res.(*a2a.Task)
	if err != nil || !ok || answered.ID != ask.ID || answered.Status.State != a2a.TaskStateCompleted || len(answered.History) != 2 {
		t.Errorf("follow-up: %v, %v", res, err)
	}

	working, err := c.SendText(ctx, "more records")
	if err != nil {
		t.Fatal(err)
	}
	canceled, err := c.CancelTask(ctx, working.ID)
	if err != nil || canceled.Status.State != a2a.TaskStateCanceled {
		t.Errorf("cancel: %v, %v", canceled, err)
	}
	if _, err := c.SendFollowUp(ctx, canceled, a2a.NewTextMessage("x")); !errors.Is(err, a2a.ErrInvalidParams) {
		t.Errorf("follow-up on a terminal task: %v", err)
	}
}

func TestEnqueue(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	srv.Enqueue(
		a2atest.Raw{Status: 502, ContentType: "text/html", Body: "<html>502</html>"},
		a2atest.Raw{Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32001,"message":"gone"}}`, EchoID: true, ContentType: "application/json"},
	)
	c, _ := a2a.NewClient(srv.URL)
	_, err := c.GetTask(context.Background(), "t") // 502 is retried; the retry gets the -32001
	if !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("requests = %d, want 2", n)
	}
	// The queue is empty: normal handling again.
	if task, err := c.SendText(context.Background(), "echo me"); err != nil || task.Artifact("echo").Text() != "echo me" {
		t.Errorf("after the queue: %v, %v", task, err)
	}
}

// TestSharedTaskAndHistory: a handler may return the same *Task to every
// call (under -race); a negative historyLength is refused, not a panic; a
// task canceled before its last state does not show the final results.
func TestSharedTaskAndHistory(t *testing.T) {
	shared := a2atest.CompletedTask("entity", map[string]int{"n": 1}, "ok")
	shared.History = make([]a2a.Message, 0, 8)
	srv := a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: shared, States: []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateCompleted}}
	}))
	defer srv.Close()
	c, _ := a2a.NewClient(srv.URL)
	ctx := context.Background()
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			_, err := c.SendText(ctx, "hi")
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if len(shared.History) != 0 {
		t.Errorf("the handler's task was modified: %d history entries", len(shared.History))
	}
	if _, err := c.GetTask(ctx, "task-1", a2a.HistoryLength(0)); err != nil {
		t.Fatal(err)
	}
	code, body := post(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"task-1","historyLength":-1}}`, nil)
	if code != 200 || !strings.Contains(body, "historyLength is negative") {
		t.Errorf("negative historyLength: %d %s", code, body)
	}
	canceled, err := c.CancelTask(ctx, "task-2")
	if err != nil || canceled.Status.State != a2a.TaskStateCanceled || len(canceled.Artifacts) != 0 {
		t.Errorf("cancel before the last state: %+v, %v", canceled, err)
	}
}

// TestListener: a server made with Listener serves on the listener given,
// names its address in its URLs, and closes it on Close.
func TestListener(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := a2atest.NewServer(a2atest.Listener(l))
	if want := "http://" + l.Addr().String() + "/a2a/jsonrpc"; srv.URL != want {
		t.Errorf("URL %s, want %s", srv.URL, want)
	}
	c, err := a2a.NewClient(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SendText(t.Context(), "hi"); err != nil {
		t.Errorf("send over the listener given: %v", err)
	}
	srv.Close()
	if _, err := l.Accept(); err == nil {
		t.Error("the listener accepts after Close")
	}
}
