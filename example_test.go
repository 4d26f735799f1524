package a2a_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// The examples run against a2atest's offline Caoliao agent. Lines between
// "snippet:" markers are the snippets of README.md and docs/*.md, word for
// word (readme_test.go checks).

func ExampleNewClient() {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao),
		a2atest.RequireAPIKey("demo-key"), a2atest.RequireWorkspace("ws-1"), a2atest.RequireAgentID("agent-7"))
	defer agent.Close()
	endpoint, apiKey := agent.URL, "demo-key"
	ctx := context.Background()

	// snippet: new-client
	c, err := a2a.NewClient(endpoint,
		a2a.WithAPIKey(apiKey),          // X-API-Key header
		a2a.WithWorkspace("ws-1"),       // X-Workspace-ID header
		a2a.WithAgentID("agent-7"),      // "agent_id" in every request body
		a2a.WithMaxRetries(2),           // tasks/get is retried on 429/502/503/504
		a2a.WithMaxResponseBytes(1<<20), // refuse replies over 1 MiB
	)
	if err != nil {
		log.Fatal(err) // only bad options fail here: NewClient does no I/O
	}
	// snippet end

	task, err := c.SendText(ctx, "这个二维码是什么？"+a2atest.SeedQRCode)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(task.Status.State)
	// Output: completed
}

func ExampleClient_SendText() {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()

	// snippet: send-text
	task, err := c.SendText(ctx, "这个二维码是什么？https://qr71.cn/okDISU/qssTnoy")
	if err != nil {
		log.Fatal(err) // transport or protocol fault: the agent gave no task
	}
	switch task.Status.State {
	case a2a.TaskStateCompleted:
		entity := task.Artifact("entity") // nil-safe: Text() is "" when absent
		fmt.Println("summary:", entity.Text())

		var card struct {
			Title  string            `json:"title"`
			Status map[string]string `json:"status"`
		}
		if err := entity.DecodeData(&card); err != nil {
			log.Fatal(err)
		}
		fmt.Println("title:", card.Title, "| status:", card.Status["设备运行状态"])
	case a2a.TaskStateFailed:
		fmt.Println("failed:", task.StatusText())
	}
	// snippet end

	// Output:
	// summary: 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
	// title: 数控车床-A08-03-06 | status: 正常
}

func ExampleClient_SendText_failed() {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()

	// snippet: failed-task
	task, err := c.SendText(ctx, "这个二维码是什么？https://qr71.cn/no-such-code")
	if err != nil {
		log.Fatal(err)
	}
	// A failed query is a value, not an error: err is nil.
	if task.Status.State == a2a.TaskStateFailed {
		fmt.Printf("task %s failed: %s\n", task.ID, task.StatusText())
	}
	// snippet end

	// Output: task task-1 failed: 查询失败:码不存在或无法解析
}

func ExampleClient_SendMessage() {
	agent := a2atest.NewServer(a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		return a2atest.Reply{Message: &a2a.Message{Parts: a2a.Parts{a2a.TextPart{Text: "请发送二维码链接"}}}}
	}))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()

	// snippet: send-message
	data, _ := a2a.NewDataPart(map[string]string{"code": "okDISU"})
	msg := a2a.Message{Parts: a2a.Parts{a2a.TextPart{Text: "查询这个码"}, data}}
	res, err := c.SendMessage(ctx, msg, a2a.HistoryLength(5))
	if err != nil {
		log.Fatal(err)
	}
	switch r := res.(type) {
	case *a2a.Task:
		fmt.Println("task", r.ID, r.Status.State)
	case *a2a.Message:
		fmt.Println("agent says:", r.Text())
	}
	// snippet end

	// Output: agent says: 请发送二维码链接
}

func ExampleClient_GetTask() {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()
	sent, _ := c.SendText(ctx, a2atest.SeedQRCode)
	dir, _ := os.MkdirTemp("", "a2a-example")
	defer os.RemoveAll(dir)
	taskID := sent.ID

	// snippet: get-task
	task, err := c.GetTask(ctx, taskID, a2a.HistoryLength(0))
	if errors.Is(err, a2a.ErrTaskNotFound) {
		log.Fatal("the agent restarted and lost the task") // Caoliao keeps tasks in memory only
	}
	if err != nil {
		log.Fatal(err)
	}
	// Keep exactly what the agent sent. The id is the agent's: escape it.
	path := filepath.Join(dir, url.PathEscape(task.ID)+".json")
	if err := os.WriteFile(path, task.Raw(), 0o600); err != nil {
		log.Fatal(err)
	}
	// Later: the same task back from those bytes.
	saved, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var again a2a.Task
	if err := json.Unmarshal(saved, &again); err != nil {
		log.Fatal(err)
	}
	fmt.Println(again.ID, again.Status.State, len(again.History))
	// snippet end

	// Output: task-1 completed 0
}

func ExampleClient_CancelTask() {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()
	slow, _ := c.SendText(ctx, "本月巡检记录", a2a.Blocking(false))
	taskID := slow.ID

	// snippet: cancel-task
	task, err := c.CancelTask(ctx, taskID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(task.Status.State) // canceling does not undo side effects already made

	_, err = c.CancelTask(ctx, taskID) // already terminal now
	fmt.Println(errors.Is(err, a2a.ErrTaskNotCancelable))
	// snippet end

	// Output:
	// canceled
	// true
}

func ExampleClient_WaitTask() {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao), a2atest.RequireAgentID("agent-7"))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL, a2a.WithAgentID("agent-7"))
	ctx := context.Background()
	interval := 10 * time.Millisecond

	// snippet: wait-task
	task, err := c.SendText(ctx, "本月巡检记录", a2a.Blocking(false))
	if err != nil {
		log.Fatal(err)
	}
	done, err := c.WaitTask(ctx, task.ID,
		a2a.HistoryLength(0),            // a call option, for every tasks/get
		a2a.PollTimeout(30*time.Second), // overall deadline
		a2a.PollMaxAttempts(20),
		a2a.PollInterval(interval), // then ×1.5 per attempt, at most PollMaxInterval
		a2a.PollProgress(func(a a2a.PollAttempt) {
			fmt.Printf("attempt %d: %s\n", a.Attempt, a.Task.Status.State)
		}),
	)
	var pe *a2a.PollError
	if errors.As(err, &pe) {
		// Gave up waiting; the task may still finish: wait for task.ID again later.
		log.Fatalf("task %s still %q after %d attempts (%s ran out)", pe.TaskID, pe.LastState, pe.Attempts, pe.Limit)
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(done.Status.State, "|", done.Artifact("records").Text())
	// snippet end

	// Output:
	// attempt 1: working
	// attempt 2: working
	// attempt 3: completed
	// completed | 共 2 条记录：合格 1 条，不合格 1 条
}

func ExampleClient_SendMessageAndWait() {
	agent := slowAgent() // its tasks end on their own, a few tens of milliseconds after the send
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()

	// snippet: send-and-wait
	// Send, then poll the task to its end: a gateway answers "submitted"
	// even to a blocking send. Call and wait options go side by side.
	res, err := c.SendMessageAndWait(ctx, a2a.NewTextMessage("本月巡检记录"),
		a2a.HistoryLength(0),           // a call option: the send and every tasks/get
		a2a.PollTimeout(2*time.Minute), // a wait option: give up after two minutes
	)
	var pe *a2a.PollError
	if errors.As(err, &pe) { // res holds the last task known
		// The task may still end: c.WaitTask(ctx, pe.TaskID) waits for it again.
		log.Fatalf("task %s still %s after %d polls", pe.TaskID, pe.LastState, pe.Attempts)
	}
	if err != nil {
		log.Fatal(err)
	}
	if task, ok := res.(*a2a.Task); ok { // or a *a2a.Message, when the agent answers with one
		fmt.Println(task.Status.State, "|", task.Artifact("records").Text())
	}
	// snippet end

	// Output:
	// completed | 共 2 条记录：合格 1 条，不合格 1 条
}

func ExampleClient_SendFollowUp() {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()

	// snippet: follow-up
	task, err := c.SendText(ctx, "查一台设备")
	if err != nil {
		log.Fatal(err)
	}
	if task.Status.State == a2a.TaskStateInputRequired {
		fmt.Println("agent asks:", task.StatusText())
		res, err := c.SendFollowUp(ctx, task, a2a.NewTextMessage("A08-03-06")) // same taskId and contextId
		if err != nil {
			log.Fatal(err)
		}
		if t, ok := res.(*a2a.Task); ok {
			fmt.Println(t.ID == task.ID, t.Status.State)
		}
	}
	// snippet end

	// Output:
	// agent asks: 请提供要查询的设备编号
	// true completed
}

func ExampleRPCError() {
	agent := a2atest.NewServer()
	defer agent.Close()
	agent.Enqueue(a2atest.Raw{Status: 502, ContentType: "text/html", Body: "<html>502 Bad Gateway</html>"})
	c, _ := a2a.NewClient(agent.URL, a2a.WithMaxRetries(0))
	ctx := context.Background()

	// snippet: errors
	_, err := c.GetTask(ctx, "no-such-task")
	var httpErr *a2a.HTTPError
	if errors.As(err, &httpErr) {
		fmt.Println("HTTP", httpErr.StatusCode, "from a gateway, not the agent")
	}

	_, err = c.GetTask(ctx, "no-such-task")
	var rpcErr *a2a.RPCError
	if errors.As(err, &rpcErr) {
		fmt.Println("code", rpcErr.Code, "|", errors.Is(err, a2a.ErrTaskNotFound))
	}
	fmt.Println(err)
	// snippet end

	// Output:
	// HTTP 502 from a gateway, not the agent
	// code -32001 | true
	// a2a: tasks/get: task not found: no-such-task (code -32001)
}

func ExampleDataPart_Decode() {
	var task a2a.Task
	_ = task.UnmarshalJSON([]byte(`{"kind":"task","id":"t","contextId":"c","status":{"state":"completed"},
		"artifacts":[{"artifactId":"a","name":"records","parts":[{"kind":"data","data":{"records":[{"id":"r1","result":"合格"}]}},{"kind":"text","text":"共 1 条"}]}]}`))

	// snippet: decode-data
	type records struct {
		Records []struct {
			ID     string `json:"id"`
			Result string `json:"result"`
		} `json:"records"`
	}
	dp, ok := task.Artifact("records").Data()
	if ok {
		var rs records
		if err := dp.Decode(&rs); err != nil {
			log.Fatal(err)
		}
		fmt.Println(rs.Records[0].ID, rs.Records[0].Result)
	}
	// snippet end

	// Output: r1 合格
}

func ExampleClient_WaitTasks() {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()

	var ids []string
	for _, q := range []string{"本月巡检记录", "上月巡检记录", "设备清单"} {
		task, err := c.SendText(ctx, q, a2a.Blocking(false))
		if err != nil {
			log.Fatal(err)
		}
		ids = append(ids, task.ID)
	}
	// snippet: wait-tasks
	state := map[string]a2a.TaskState{}
	// At most 64 tasks/get at once (WithMaxPollsInFlight), whatever len(ids).
	for r := range c.WaitTasks(ctx, ids, a2a.PollInterval(10*time.Millisecond), a2a.PollTimeout(30*time.Second)) {
		if r.Err != nil {
			log.Printf("task %s: %v", r.TaskID, r.Err) // a *PollError keeps r.Task, the last one read
			continue
		}
		state[r.TaskID] = r.Task.Status.State // results come as tasks end, in any order
	}
	// snippet end
	for i, id := range ids {
		fmt.Println(i, state[id])
	}
	// Output:
	// 0 completed
	// 1 completed
	// 2 input-required
}
