package a2anats_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2anats"
	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// MaxBody is the connection's max_payload less the message's overhead: a
// body of exactly MaxBody bytes is passed and delivered whole; one byte
// more is refused by Pass with ErrBodyTooLarge, before NATS sees it.
func TestMaxBody(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s)
	a, b := newRelay(t, nc, "a"), newRelay(t, nc, "b")
	max := a.MaxBody()
	if max <= 0 || max >= nc.MaxPayload() {
		t.Fatalf("MaxBody %d with max_payload %d; want positive and under it", max, nc.MaxPayload())
	}
	got := make(chan a2a.RelayedNotification, 1)
	listen(t, b, got, nil)
	body := bytes.Repeat([]byte("x"), int(max))
	if err := a.Pass(t.Context(), "b", a2a.RelayedNotification{Key: key("k"), Body: body}); err != nil {
		t.Fatalf("Pass of MaxBody bytes: %v", err)
	}
	if n := receive(t, got); len(n.Body) != int(max) {
		t.Errorf("delivered %d bytes, want %d", len(n.Body), max)
	}
	err := a.Pass(t.Context(), "b", a2a.RelayedNotification{Key: key("k"), Body: append(body, 'x')})
	if !errors.Is(err, a2anats.ErrBodyTooLarge) {
		t.Errorf("Pass of MaxBody+1 bytes: %v; want ErrBodyTooLarge", err)
	}
}

// A notification under the receivers' cap (PushMaxBytes, 4 MiB) but over
// what NATS carries (1 MiB by default), landing on a replica that does
// not hold its wait, is answered 413, not 503 (which agents send again
// for ever); with PushMaxBytes(relay.MaxBody()), the holder answers it
// 413 too.
func TestBodyOverMaxPayload(t *testing.T) {
	s := natsServer(t, t.TempDir(), -1, true)
	nc := connect(t, s)
	relayB := newRelay(t, nc, "b")
	a := serveReceiver(t, a2a.PushReplicas(newRelay(t, nc, "a")))
	b := serveReceiver(t, a2a.PushReplicas(relayB), a2a.PushMaxBytes(relayB.MaxBody()))
	agent := a2atest.NewServer(a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Task: a2atest.CompletedTask("x", map[string]int{"n": 1}, "x"),
			States: []a2a.TaskState{a2a.TaskStateSubmitted, a2a.TaskStateWorking, a2a.TaskStateWorking, a2a.TaskStateWorking}}
	}))
	t.Cleanup(agent.Close)
	c, err := a2a.NewClient(agent.URL)
	if err != nil {
		t.Fatal(err)
	}
	w, err := b.SendMessage(t.Context(), c, a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	token := ""
	for _, r := range agent.Requests() {
		var env struct {
			Params struct {
				Configuration struct {
					Push *a2a.PushNotificationConfig `json:"pushNotificationConfig"`
				} `json:"configuration"`
			} `json:"params"`
		}
		if json.Unmarshal(r.Body, &env) == nil && env.Params.Configuration.Push != nil {
			token = env.Params.Configuration.Push.Token
		}
	}
	if token == "" {
		t.Fatal("the send registered no token")
	}
	task := a2a.Task{ID: w.TaskID(), ContextID: "c", Status: a2a.TaskStatus{State: a2a.TaskStateWorking},
		Artifacts: []a2a.Artifact{{ArtifactID: "big", Parts: []a2a.Part{a2a.TextPart{Text: strings.Repeat("x", 2<<20)}}}}}
	body, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*a2a.PushReceiver{a, b} {
		req, _ := http.NewRequest(http.MethodPost, r.URL(), bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-A2A-Notification-Token", token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%d-byte notification to %s: %d, want 413", len(body), r.URL(), resp.StatusCode)
		}
	}
}

// serveReceiver serves a receiver made with opts on loopback; both end
// with the test.
func serveReceiver(t *testing.T, opts ...a2a.ReceiverOption) *a2a.PushReceiver {
	t.Helper()
	ts := httptest.NewUnstartedServer(nil)
	r, err := a2a.NewPushReceiver("http://"+ts.Listener.Addr().String()+"/push", opts...)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = r
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(r.Close)
	return r
}
