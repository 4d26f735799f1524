// Command discover finds an agent from its base URL: it reads the agent card
// (/.well-known/agent-card.json, falling back to /.well-known/agent.json),
// prints what the agent says about itself, builds a client for the first
// interface the card lists that the client speaks (JSON-RPC or HTTP+JSON,
// A2A v0.3 or v1.0) and calls it. The client takes the endpoint, the
// binding and the version from the card, and knows what the card allows,
// so a call the card rules out (streaming, on an agent like Caoliao's) is
// refused before anything is sent.
//
//	go run ./examples/discover                       # an offline fake agent (JSON-RPC, A2A v0.3)
//	go run ./examples/discover -version 1.0          # the same agent speaking A2A v1.0
//	go run ./examples/discover -transport http+json  # ... over HTTP+JSON (REST), v0.3 or with -version 1.0
//	go run ./examples/discover -base https://a2a.objqr.com
//
// The code after the offline agent is the same whatever the agent's
// binding: the card says which.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// -h prints the usage and succeeds.
	if err := run(ctx, os.Stdout, os.Args[1:]); err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "discover:", err)
		os.Exit(1)
	}
}

// offlineCard describes the fake agent the way Caoliao's card does: no
// streaming, no push notifications. Its interface is at the agent's URL, of
// transport (JSONRPC or HTTP+JSON).
func offlineCard(transport string) *a2a.AgentCard {
	return &a2a.AgentCard{
		ProtocolVersion: "0.3.0", Name: "草料二维码 (offline)", Version: "1.0.0",
		Description:        "Answers what a QR code is, from the organisation that owns it",
		PreferredTransport: transport,
		DefaultInputModes:  []string{"text/plain"}, DefaultOutputModes: []string{"application/json", "text/plain"},
		Skills: []a2a.AgentSkill{
			{ID: "entity", Name: "Entity", Description: "What a code is", Tags: []string{"qr"}},
			{ID: "records", Name: "Records", Description: "Records kept on a code", Tags: []string{"qr"}},
		},
		SecuritySchemes: map[string]a2a.SecurityScheme{"apiKey": {Type: "apiKey", In: "header", Name: "X-API-Key"}},
	}
}

func run(ctx context.Context, w io.Writer, args []string) error {
	fs := flag.NewFlagSet("discover", flag.ContinueOnError)
	fs.SetOutput(w)
	base := fs.String("base", "", "base URL of a real agent (default: an offline fake agent)")
	apiKey := fs.String("api-key", "", "X-API-Key header, if the agent wants one")
	version := fs.String("version", a2a.ProtocolV03, "A2A version of the offline fake agent: 0.3 or 1.0")
	transport := fs.String("transport", a2a.TransportJSONRPC, "transport of the offline fake agent: JSONRPC or HTTP+JSON (REST)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *base == "" {
		binding := strings.ToUpper(*transport) // the names in any case: http+json
		if binding != a2a.TransportJSONRPC && binding != a2a.TransportHTTPJSON {
			return fmt.Errorf("-transport %s: want JSONRPC or HTTP+JSON", *transport)
		}
		agentOpts := []a2atest.Option{a2atest.OnSend(a2atest.Caoliao), a2atest.Bindings(binding), a2atest.WithCard(offlineCard(binding))}
		switch *version {
		case a2a.ProtocolV10:
			agentOpts = append(agentOpts, a2atest.V10())
		case a2a.ProtocolV03:
		default:
			return fmt.Errorf("-version %s: want %s or %s", *version, a2a.ProtocolV03, a2a.ProtocolV10)
		}
		agent := a2atest.NewServer(agentOpts...)
		defer agent.Close()
		*base = agent.BaseURL() // where its card is
	}
	var opts []a2a.Option
	if *apiKey != "" {
		opts = append(opts, a2a.WithAPIKey(*apiKey))
	}

	card, err := a2a.ResolveAgentCard(ctx, *base, opts...)
	if err != nil {
		return err // a *a2a.CardError lists every URL tried
	}
	fmt.Fprintf(w, "agent: %s (version %s)\n", card.Name, card.Version)
	for _, s := range card.Skills {
		fmt.Fprintf(w, "  skill %s: %s\n", s.ID, s.Description)
	}
	fmt.Fprintf(w, "  streaming=%v pushNotifications=%v\n", card.Capabilities.Streaming, card.Capabilities.PushNotifications)

	c, err := a2a.NewClientFromCard(card, opts...) // the card's first interface it speaks
	if err != nil {
		return err
	}
	in := c.Interface() // its binding and version, chosen in card order
	fmt.Fprintf(w, "client: %s, A2A v%s\n", in.ProtocolBinding, in.ProtocolVersion)
	task, err := c.SendText(ctx, "这个二维码是什么？https://qr71.cn/okDISU/qssTnoy")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "send: %s: %s\n", task.Status.State, task.Artifact("entity").Text())

	for _, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("stream this")) {
		var ue *a2a.UnsupportedByCardError
		if errors.As(err, &ue) {
			fmt.Fprintf(w, "stream: refused without a request (%s is false)\n", ue.Capability)
		} else if err != nil {
			return err
		}
		break
	}
	return nil
}
