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

func ExampleResolveAgentCard() {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao), a2atest.WithCard(&a2a.AgentCard{
		Name: "草料二维码", ProtocolVersion: "0.3.0", Version: "1.0.0",
		Skills: []a2a.AgentSkill{{ID: "entity", Name: "Entity", Description: "What a code is"}},
	}))
	defer agent.Close()
	baseURL := strings.TrimSuffix(agent.URL, "/a2a/jsonrpc")
	ctx := context.Background()

	// snippet: discover
	card, err := a2a.ResolveAgentCard(ctx, baseURL) // agent-card.json, then agent.json on a 404
	if err != nil {
		log.Fatal(err) // *a2a.CardError lists every URL tried
	}
	fmt.Println(card.Name, card.Skills[0].ID, card.Capabilities.Streaming)

	c, err := a2a.NewClientFromCard(card) // the card's first interface it speaks
	if err != nil {
		log.Fatal(err)
	}
	for _, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("hi")) {
		var ue *a2a.UnsupportedByCardError
		fmt.Println(errors.As(err, &ue)) // refused: the card says streaming is false
	}
	// snippet end

	// Output:
	// 草料二维码 entity false
	// true
}

func ExampleClient_SendStreamingMessage() {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()

	// snippet: stream
	var task a2a.Task
	for ev, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("本月巡检记录")) {
		if err != nil {
			log.Fatal(err) // breaking out instead closes the connection at once
		}
		task.Apply(ev) // fold status updates and artifact chunks into the task
		switch e := ev.(type) {
		case *a2a.TaskStatusUpdateEvent:
			fmt.Println("status:", e.Status.State, "final:", e.Final)
		case *a2a.TaskArtifactUpdateEvent:
			fmt.Println("artifact:", e.Artifact.Name)
		}
	}
	fmt.Println(task.Status.State, task.Artifact("records").Text())
	// snippet end

	// Output:
	// status: working final: false
	// status: working final: false
	// artifact: records
	// status: completed final: true
	// completed 共 2 条记录：合格 1 条，不合格 1 条
}

func ExampleClient_CreateTaskPushNotificationConfig() {
	agent := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer agent.Close()
	c, _ := a2a.NewClient(agent.URL)
	ctx := context.Background()
	task, _ := c.SendText(ctx, "本月巡检记录", a2a.Blocking(false))

	// snippet: push
	cfg, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{
		TaskID: task.ID,
		PushNotificationConfig: a2a.PushNotificationConfig{
			URL:   "https://hooks.example.com/a2a",
			Token: "check-me", // echoed to the webhook
		},
	})
	if err != nil {
		log.Fatal(err) // errors.Is(err, a2a.ErrPushNotificationNotSupported) on agents without push
	}
	list, _ := c.ListTaskPushNotificationConfigs(ctx, task.ID)
	fmt.Println(cfg.PushNotificationConfig.ID, len(list))
	fmt.Println(c.DeleteTaskPushNotificationConfig(ctx, task.ID, cfg.PushNotificationConfig.ID))
	// snippet end

	// Output:
	// cfg-1 1
	// <nil>
}

// ExampleWithTrustedHosts: a card read from one origin that names its
// endpoint on another host gets the client's credentials only when that
// host is trusted.
func ExampleWithTrustedHosts() {
	agent := a2atest.NewServer(a2atest.WithCard(&a2a.AgentCard{
		Name: "草料二维码", ProtocolVersion: "0.3.0", Version: "1.0.0",
		URL: "https://agents.example.com/a2a/jsonrpc", // another host than the card's
	}))
	defer agent.Close()
	baseURL := strings.TrimSuffix(agent.URL, "/a2a/jsonrpc")
	apiKey := "demo-key"
	ctx := context.Background()

	// snippet: trusted-hosts
	card, err := a2a.ResolveAgentCard(ctx, baseURL)
	if err != nil {
		log.Fatal(err)
	}
	_, err = a2a.NewClientFromCard(card, a2a.WithAPIKey(apiKey))
	var ue *a2a.UntrustedEndpointError
	if errors.As(err, &ue) { // nothing was sent
		fmt.Println("refused:", ue.Endpoint)
	}

	c, err := a2a.NewClientFromCard(card, a2a.WithAPIKey(apiKey),
		a2a.WithTrustedHosts("agents.example.com")) // the key may go there too
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("trusted:", c.Card().URL)
	// snippet end

	// Output:
	// refused: https://agents.example.com/a2a/jsonrpc
	// trusted: https://agents.example.com/a2a/jsonrpc
}
