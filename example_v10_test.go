package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// ExampleWithProtocolVersion: the same code talks to an A2A v0.3 agent
// (Caoliao's) and an A2A v1.0 agent; only the client's option differs.
func ExampleWithProtocolVersion() {
	oldAgent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer oldAgent.Close()
	newAgent := a2atest.NewServer(a2atest.V10(), a2atest.OnSend(a2atest.Caoliao))
	defer newAgent.Close()
	ctx := context.Background()

	// snippet: both-versions
	ask := func(c *a2a.Client) {
		task, err := c.SendText(ctx, "这个二维码是什么？https://qr71.cn/okDISU/qssTnoy")
		if err != nil {
			log.Fatal(err)
		}
		again, err := c.GetTask(ctx, task.ID, a2a.HistoryLength(0))
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c.ProtocolVersion(), again.Status.State, task.Artifact("entity").Text())
	}

	v03, err := a2a.NewClient(oldAgent.URL) // A2A v0.3, the default: Caoliao agents
	if err != nil {
		log.Fatal(err)
	}
	ask(v03)

	v10, err := a2a.NewClient(newAgent.URL, a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		log.Fatal(err)
	}
	ask(v10)
	// snippet end

	// Output:
	// 0.3 completed 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
	// 1.0 completed 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
}

// ExampleNewClientFromCard: a v1.0 agent's card names its interfaces,
// each with its binding, version and tenant; the client takes the first
// it speaks, all three together, and says which.
func ExampleNewClientFromCard() {
	agent := a2atest.NewServer(a2atest.V10(), a2atest.RequireTenant("acme"), a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	baseURL := strings.TrimSuffix(agent.URL, "/a2a/jsonrpc")
	ctx := context.Background()

	// snippet: discover-v10
	card, err := a2a.ResolveAgentCard(ctx, baseURL) // reads v0.3, v1.0 and dual cards
	if err != nil {
		log.Fatal(err)
	}
	c, err := a2a.NewClientFromCard(card) // the card's first interface it speaks, in card order
	if err != nil {
		log.Fatal(err)
	}
	in := c.Interface() // what it chose: binding, version, tenant
	fmt.Println(in.ProtocolBinding, in.ProtocolVersion, in.Tenant)

	task, err := c.SendText(ctx, "这个二维码是什么？https://qr71.cn/okDISU/qssTnoy")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(task.Status.State)
	// snippet end

	// Output:
	// JSONRPC 1.0 acme
	// completed
}

// ExampleRPCError_Hint: a v0.3 client pointed at a v1.0 agent gets an
// error that says so and names the option to set.
func ExampleRPCError_Hint() {
	agent := a2atest.NewServer(a2atest.V10(), a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL) // v0.3, the default
	ctx := context.Background()

	// snippet: version-mismatch
	_, err := c.SendText(ctx, "hi")
	var rpcErr *a2a.RPCError
	if errors.Is(err, a2a.ErrVersionMismatch) && errors.As(err, &rpcErr) {
		fmt.Println(rpcErr.Code, rpcErr.Reason())
		fmt.Println(rpcErr.Hint)
	}
	// snippet end

	// Output:
	// -32009 VERSION_NOT_SUPPORTED
	// the agent answers as an A2A v1.0 agent: make the client with WithProtocolVersion(ProtocolV10), or from its agent card with NewClientFromCard
}

// ExampleNewClientFromCard_bindings: the same code against an agent's
// HTTP+JSON interface and its JSON-RPC one. The card lists HTTP+JSON
// first, so the client speaks it; WithTransports keeps JSON-RPC alone.
func ExampleNewClientFromCard_bindings() {
	agent := a2atest.NewServer(a2atest.V10(), a2atest.Bindings(a2a.TransportHTTPJSON, a2a.TransportJSONRPC), a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	baseURL := agent.BaseURL()
	ctx := context.Background()

	// snippet: both-bindings
	card, err := a2a.ResolveAgentCard(ctx, baseURL)
	if err != nil {
		log.Fatal(err)
	}
	for _, opts := range [][]a2a.Option{
		nil, // the card's order: its first interface this client speaks
		{a2a.WithTransports(a2a.TransportJSONRPC)}, // JSON-RPC alone
	} {
		c, err := a2a.NewClientFromCard(card, opts...)
		if err != nil {
			log.Fatal(err)
		}
		task, err := c.SendText(ctx, "这个二维码是什么？https://qr71.cn/okDISU/qssTnoy")
		if err != nil {
			log.Fatal(err)
		}
		again, err := c.GetTask(ctx, task.ID)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c.Interface().ProtocolBinding, again.Status.State, task.Artifact("entity").Text())
	}
	// snippet end

	// Output:
	// HTTP+JSON completed 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
	// JSONRPC completed 数控车床-A08-03-06;建档组织:草料二维码;状态:设备运行状态=正常;账本 1 条;属性 7 项;可执行操作 2 个
}
