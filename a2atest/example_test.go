package a2atest_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/jarcoal/httpmock"
)

func ExampleNewServer() {
	// snippet: a2atest
	agent := a2atest.NewServer(
		a2atest.RequireAPIKey("test-key"), // 401 without it
		a2atest.RequireAgentID("agent-1"), // JSON-RPC error without it, on every method
		a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
			return a2atest.Reply{
				Task:   a2atest.CompletedTask("entity", map[string]string{"echo": m.Parts.Text()}, "完成"),
				States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateCompleted}, // one step per tasks/get
			}
		}),
	)
	defer agent.Close()

	c, _ := a2a.NewClient(agent.URL, a2a.WithAPIKey("test-key"), a2a.WithAgentID("agent-1"))
	task, err := c.SendText(context.Background(), "hello")
	if err != nil {
		log.Fatal(err)
	}
	task, err = c.WaitTask(context.Background(), task.ID)
	fmt.Println(task.Status.State, task.Artifact("entity").Text(), err, len(agent.Requests()))
	// snippet end

	// Output: completed 完成 <nil> 2
}

func ExampleCaoliao() {
	ctx := context.Background()

	// snippet: offline
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, err := a2a.NewClient(agent.URL)
	if err != nil {
		log.Fatal(err)
	}
	for _, text := range []string{"这个二维码是什么？https://qr71.cn/okDISU/qssTnoy", "https://qr71.cn/nope", "本月巡检记录", "查一台设备"} {
		task, err := c.SendText(ctx, text)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(task.Status.State)
	}
	// snippet end

	// Output:
	// completed
	// failed
	// submitted
	// input-required
}

func ExampleV10() {
	ctx := context.Background()

	// snippet: a2atest-v10
	agent := a2atest.NewServer(a2atest.V10(), a2atest.OnSend(a2atest.Caoliao)) // an A2A v1.0 agent
	defer agent.Close()
	c, err := a2a.NewClient(agent.URL, a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		log.Fatal(err)
	}
	for _, text := range []string{"这个二维码是什么？https://qr71.cn/okDISU/qssTnoy", "查一台设备"} {
		if _, err := c.SendText(ctx, text); err != nil {
			log.Fatal(err)
		}
	}
	for task, err := range c.ListTasks(ctx, a2a.ListTasksRequest{}) { // ListTasks is v1.0's
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(task.ID, task.Status.State)
	}
	first := agent.Requests()[0]
	fmt.Println(first.Method, first.Header.Get("A2A-Version"))
	// snippet end

	// Output:
	// task-2 input-required
	// task-1 completed
	// SendMessage 1.0
}

// ExampleHTTPJSON: a fake agent that speaks the HTTP+JSON (REST)
// binding, and Requests showing what the client sent.
func ExampleHTTPJSON() {
	ctx := context.Background()

	// snippet: a2atest-rest
	agent := a2atest.NewServer(a2atest.V10(), a2atest.HTTPJSON(), a2atest.OnSend(a2atest.Caoliao)) // A2A v1.0 over HTTP+JSON
	defer agent.Close()
	c, err := a2a.NewClient(agent.URL, a2a.WithTransports(a2a.TransportHTTPJSON), a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		log.Fatal(err)
	}
	task, err := c.SendText(ctx, "这个二维码是什么？https://qr71.cn/okDISU/qssTnoy")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := c.GetTask(ctx, task.ID, a2a.HistoryLength(0)); err != nil {
		log.Fatal(err)
	}
	for _, r := range agent.Requests() {
		fmt.Printf("%s %s %s %q\n", r.Method, r.HTTPMethod, strings.TrimPrefix(r.Path, "/a2a/rest"), r.Query)
	}
	// snippet end

	// Output:
	// SendMessage POST /message:send ""
	// GetTask GET /tasks/task-1 "historyLength=0"
}

// ExampleBindings: one fake agent serving JSON-RPC and HTTP+JSON, its
// card listing both in the order given.
func ExampleBindings() {
	ctx := context.Background()

	// snippet: a2atest-bindings
	agent := a2atest.NewServer(a2atest.V10(), a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC))
	defer agent.Close()
	card, err := a2a.ResolveAgentCard(ctx, agent.BaseURL())
	if err != nil {
		log.Fatal(err)
	}
	for _, in := range card.SupportedInterfaces {
		fmt.Println(in.ProtocolBinding, in.ProtocolVersion, strings.TrimPrefix(in.URL, agent.BaseURL()))
	}
	// snippet end

	// Output:
	// HTTP+JSON 1.0 /a2a/rest
	// JSONRPC 1.0 /a2a/jsonrpc
}

// ExampleResponder: testing your own code with httpmock instead of a
// server. The client has its own transport, so httpmock.Activate (which
// replaces http.DefaultTransport) does not see its requests: give the
// client an http.Client on a mock transport with a2a.WithHTTPClient.
func ExampleResponder() {
	ctx := context.Background()

	// snippet: httpmock
	answer := a2atest.CompletedTask("entity", map[string]string{"title": "设备"}, "完成") // answered as task-1
	mock := httpmock.NewMockTransport()
	mock.RegisterResponder("POST", "https://agent.example/a2a/jsonrpc", a2atest.Responder(answer))
	c, err := a2a.NewClient("https://agent.example/a2a/jsonrpc", a2a.WithHTTPClient(&http.Client{Transport: mock}))
	if err != nil {
		log.Fatal(err)
	}
	for range 2 { // the responder echoes each request's id: every call works
		task, err := c.SendText(ctx, "hi")
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(task.Status.State, task.Artifact("entity").Text())
	}
	// snippet end

	// Output:
	// completed 完成
	// completed 完成
}
