package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// ExampleWithExtensions: an agent that requires an extension refuses a
// client that does not activate it, naming the extension; a client made
// with WithExtensions is served.
func ExampleWithExtensions() {
	agent := a2atest.NewServer(a2atest.V10(), a2atest.RequireExtension("https://example.com/ext/citations/v1"))
	defer agent.Close()
	endpoint := agent.URL
	ctx := context.Background()

	// snippet: extensions-refused
	c, err := a2a.NewClient(endpoint, a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.SendText(ctx, "hello")
	var rpcErr *a2a.RPCError
	if errors.Is(err, a2a.ErrExtensionSupportRequired) && errors.As(err, &rpcErr) {
		fmt.Println("the agent requires", rpcErr.RequiredExtensions)
	}
	// snippet end

	// snippet: with-extensions
	c, err = a2a.NewClient(endpoint, a2a.WithProtocolVersion(a2a.ProtocolV10),
		a2a.WithExtensions("https://example.com/ext/citations/v1"))
	if err != nil {
		log.Fatal(err)
	}
	task, err := c.SendText(ctx, "hello")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(task.Status.State)
	// snippet end

	// Output:
	// the agent requires [https://example.com/ext/citations/v1]
	// completed
}

// ExampleWithRequiredExtensions: the card says which extensions the agent
// requires; WithRequiredExtensions activates them all, for a client that
// implements them.
func ExampleWithRequiredExtensions() {
	agent := a2atest.NewServer(a2atest.V10(), a2atest.RequireExtension("https://example.com/ext/citations/v1"))
	defer agent.Close()
	baseURL := agent.BaseURL()
	ctx := context.Background()

	// snippet: required-extensions
	card, err := a2a.ResolveAgentCard(ctx, baseURL)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("required:", card.RequiredExtensions())
	c, err := a2a.NewClientFromCard(card, a2a.WithRequiredExtensions())
	if err != nil {
		log.Fatal(err)
	}
	task, err := c.SendText(ctx, "hello")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(task.Status.State)
	// snippet end

	// Output:
	// required: [https://example.com/ext/citations/v1]
	// completed
}

// ExampleExtensions: one call activates an extension beside the client's.
func ExampleExtensions() {
	agent := a2atest.NewServer(a2atest.V10(), a2atest.RequireExtension("urn:example:ext:trace"))
	defer agent.Close()
	ctx := context.Background()
	c, err := a2a.NewClient(agent.URL, a2a.WithProtocolVersion(a2a.ProtocolV10))
	if err != nil {
		log.Fatal(err)
	}

	// snippet: per-call-extensions
	task, err := c.SendText(ctx, "hello", a2a.Extensions("urn:example:ext:trace"))
	// snippet end
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(task.Status.State)
	fmt.Println(agent.Requests()[0].Header.Get("A2A-Extensions"))
	// Output:
	// completed
	// urn:example:ext:trace
}
