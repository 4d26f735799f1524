package a2a_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// A credential source that caches its token and fetches another when the
// agent refuses the one it holds: here from the a2atest agent's own token
// endpoint, which then revokes every token it issued.
func ExampleWithCredentials() {
	ctx := context.Background()
	agent := a2atest.NewServer(a2atest.IssueTokens("app", "app-secret", time.Hour))
	defer agent.Close()
	defer http.DefaultClient.CloseIdleConnections()
	fetchToken := func(ctx context.Context) (string, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, agent.TokenURL(),
			strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth("app", "app-secret")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		var tr struct {
			AccessToken string `json:"access_token"`
		}
		return tr.AccessToken, json.NewDecoder(resp.Body).Decode(&tr)
	}

	// snippet: credentials
	var mu sync.Mutex
	var token string
	src := a2a.CredentialFunc(func(ctx context.Context, refused *a2a.Credential) (a2a.Credential, error) {
		mu.Lock()
		defer mu.Unlock()
		if token == "" || refused != nil && refused.Token == token { // none yet, or the agent refused it
			t, err := fetchToken(ctx) // your token endpoint or vault
			if err != nil {
				return a2a.Credential{}, err
			}
			token = t
		}
		return a2a.Credential{Scheme: "Bearer", Token: token}, nil
	})
	c, err := a2a.NewClient(agent.URL, a2a.WithCredentials(src))
	// snippet end
	if err != nil {
		log.Fatal(err)
	}
	task, err := c.SendText(ctx, "hello")
	fmt.Println(task.Status.State, err, agent.TokensIssued())
	agent.ExpireTokens()
	task, err = c.SendText(ctx, "hello again") // 401, a new token, sent once more
	fmt.Println(task.Status.State, err, agent.TokensIssued())
	// Output:
	// completed <nil> 1
	// completed <nil> 2
}
