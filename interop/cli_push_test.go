package interop

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestCLIPushReceiverJSPeer runs "a2a send --push-receiver" (PUSH_002)
// against @a2a-js/sdk 0.3.14 with its own push sender on (PUSH_SEND=1):
// the CLI hosts the receiver on a free loopback port, the send carries
// its webhook, the peer POSTs the task after each event, and the wait
// ends by push: the peer (behind a recording proxy) is asked nothing but
// the send, no poll. The push-entity script waits at its gate until the
// send's reply has gone back to the CLI (the proxy opens it then), so the
// end can only come by push.
func TestCLIPushReceiverJSPeer(t *testing.T) {
	bin := cliBinary(t)
	t.Setenv("PUSH_SEND", "1")
	t.Setenv("PUSH_TIMEOUT_MS", "10000") // a loaded machine is no failed delivery
	base := startJSPeer(t)
	release := func(path string) error {
		req, err := http.NewRequest(http.MethodPost, base+path, nil)
		if err != nil {
			return err
		}
		req.Close = true
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		res.Body.Close()
		return nil
	}
	t.Cleanup(func() { release("/push/release-all") }) // before the peer stops: no task left at its gate
	proxy := startPeerProxy(t, base, func(method string, reply []byte) {
		if method != "message/send" {
			return
		}
		var r struct{ Result struct{ ID string } }
		if err := json.Unmarshal(reply, &r); err != nil || r.Result.ID == "" {
			t.Errorf("message/send's reply names no task (%v): %s", err, reply)
			return
		}
		if err := release("/push/release/" + url.PathEscape(r.Result.ID)); err != nil {
			t.Errorf("opening the task's gate: %v", err)
		}
	})
	env := cliEnv(t, "A2ACLI_AGENT_CARD="+proxy.base+"/.well-known/agent-card.json", "A2ACLI_API_KEY=interop-key-not-checked")
	// The fallback poll after an hour, the whole command within 15s: a
	// push that never comes fails the run (exit 5), never a poll.
	args := []string{"send", "--a2a-version", "0.3", "--push-receiver", "127.0.0.1:0", "--poll-interval", "1h", "--timeout", "15s", "push-entity"}
	r := runCLI(t, bin, env, args...)
	r.wantExit(t, 0, args...)
	inOrder(t, "send", r.stdout, "Status: completed\n", "Artifact: entity\n")

	methods, bodies := proxy.calls()
	if len(methods) != 1 || methods[0] != "message/send" {
		t.Fatalf("the peer was called %v, want message/send alone (the end came by push, no poll)", methods)
	}
	var send struct {
		Params struct {
			Configuration struct {
				Blocking               *bool
				PushNotificationConfig struct{ URL, Token string }
			}
		}
	}
	if err := json.Unmarshal([]byte(bodies[0]), &send); err != nil {
		t.Fatal(err)
	}
	cfg := send.Params.Configuration
	if !strings.HasPrefix(cfg.PushNotificationConfig.URL, "http://127.0.0.1:") || cfg.PushNotificationConfig.Token == "" {
		t.Errorf("the send's push config is %+v, want the receiver's loopback URL and a token", cfg.PushNotificationConfig)
	}
	if cfg.Blocking == nil || *cfg.Blocking {
		t.Errorf("the send is not blocking:false: %s", bodies[0])
	}
}
