package a2aoauth2_test

import (
	"context"
	"fmt"
	"log"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2aoauth2"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"golang.org/x/oauth2/clientcredentials"
)

// An agent behind an OAuth 2.0 gateway: the client fetches a token with
// the client credentials grant, sends it with every request, and when the
// agent refuses it (revoked before its expiry here) fetches another and
// sends the call once more.
func ExampleClientCredentials() {
	ctx := context.Background()
	agent := a2atest.NewServer(a2atest.IssueTokens("my-client", "my-secret", time.Hour))
	defer agent.Close()

	// snippet: oauth2
	cfg := &clientcredentials.Config{
		ClientID:     "my-client",
		ClientSecret: "my-secret",
		TokenURL:     agent.TokenURL(),
	}
	c, err := a2a.NewClient(agent.URL, a2a.WithCredentials(a2aoauth2.ClientCredentials(cfg)))
	if err != nil {
		log.Fatal(err)
	}
	task, err := c.SendText(ctx, "hello")
	fmt.Println(task.Status.State, err, agent.TokensIssued())

	agent.ExpireTokens() // the agent now refuses the token the client holds
	task, err = c.SendText(ctx, "hello again")
	fmt.Println(task.Status.State, err, agent.TokensIssued())
	// snippet end

	// Output:
	// completed <nil> 1
	// completed <nil> 2
}
