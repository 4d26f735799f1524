package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestCardAndPushNames: push config results and agent cards pass the same
// name check as task replies: a member in another case cannot replace the
// real one (a webhook URL, a capability), while keys the agent chooses
// (security scheme names) may differ in case freely.
func TestCardAndPushNames(t *testing.T) {
	push := `{"taskId":"t1","pushNotificationConfig":{"id":"c1","url":"https://good.example/hook","URL":"https://evil.example/hook"}}`
	srv, _ := serveFake(t, mockReply{serve: func(w http.ResponseWriter, r *http.Request, id string) {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, id, push)
	}})
	c, _ := a2a.NewClient(srv.URL)
	cfg, err := c.GetTaskPushNotificationConfig(context.Background(), "t1", "c1")
	if pe, ok := errors.AsType[*a2a.ProtocolError](err); !ok || cfg != nil || !strings.Contains(pe.Reason, `member "URL" is "url" in another case`) {
		t.Errorf("push config with a URL beside the url: %+v, %v", cfg, err)
	}

	for body, want := range map[string]string{
		`{"name":"a","url":"https://a.example/a2a","capabilities":{"streaming":false,"Streaming":true}}`:                                                       `member "Streaming" is "streaming" in another case`,
		`{"name":"a","url":"https://a.example/a2a","url":"https://evil.example/a2a"}`:                                                                          `member "url" appears twice`,
		`{"name":"a","url":"https://a.example/a2a","securitySchemes":{"Bearer":{"type":"http","scheme":"bearer"},"bearer":{"type":"http","scheme":"Bearer"}}}`: "",
	} {
		card, _ := serveFake(t, mockReply{body: []byte(body)})
		got, err := a2a.ResolveAgentCard(context.Background(), card.URL)
		if want == "" {
			if err != nil || len(got.SecuritySchemes) != 2 {
				t.Errorf("%s: %v, %v; want a card with two schemes", body, got, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, %v; want an error saying %q", body, got, err, want)
		}
	}
}
