package a2a_test

import (
	"context"
	"errors"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

func TestPushConfig(t *testing.T) {
	srv := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer srv.Close()
	c, _ := a2a.NewClient(srv.URL)
	ctx := context.Background()
	task, err := c.SendText(ctx, "本月巡检记录")
	if err != nil {
		t.Fatal(err)
	}
	cfg := a2a.PushNotificationConfig{URL: "https://hooks.example/a2a", Token: "tok-1",
		Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: "secret"}}
	set, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: cfg})
	if err != nil {
		t.Fatal(err)
	}
	cfg.ID = "cfg-1"
	want := a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: cfg}
	if diff := cmp.Diff(want, *set); diff != "" {
		t.Errorf("set (-want +got):\n%s", diff)
	}
	for _, id := range []string{"cfg-1", ""} {
		got, err := c.GetTaskPushNotificationConfig(ctx, task.ID, id)
		if err != nil || !cmp.Equal(want, *got) {
			t.Errorf("get %q: %v, %v", id, got, err)
		}
	}
	list, err := c.ListTaskPushNotificationConfigs(ctx, task.ID)
	if err != nil || !cmp.Equal([]a2a.TaskPushNotificationConfig{want}, list) {
		t.Errorf("list: %v, %v", list, err)
	}
	if err := c.DeleteTaskPushNotificationConfig(ctx, task.ID, "cfg-1"); err != nil {
		t.Errorf("delete: %v", err)
	}
	list, err = c.ListTaskPushNotificationConfigs(ctx, task.ID)
	if err != nil || list == nil || len(list) != 0 {
		t.Errorf("list after delete: %#v, %v", list, err)
	}
	// A reply that omits the null result (a2a-go v0.3.15) is success for
	// delete only.
	srv.Enqueue(a2atest.Raw{Body: `{"jsonrpc":"2.0","id":{{id}}}`, EchoID: true, ContentType: "application/json"},
		a2atest.Raw{Body: `{"jsonrpc":"2.0","id":{{id}}}`, EchoID: true, ContentType: "application/json"})
	if err := c.DeleteTaskPushNotificationConfig(ctx, task.ID, "cfg-9"); err != nil {
		t.Errorf("delete answered without result: %v", err)
	}
	if _, err := c.GetTaskPushNotificationConfig(ctx, task.ID, "cfg-9"); err == nil {
		t.Error("get answered without result gave no error")
	}
	if _, err := c.ListTaskPushNotificationConfigs(ctx, "nope"); !errors.Is(err, a2a.ErrTaskNotFound) {
		t.Errorf("list unknown task: %v", err)
	}
	if _, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: task.ID}); err == nil {
		t.Error("set without a URL gave no error")
	}
}

// TestPushSecretsScrubbed: the token and credentials given to set never
// show in the error, even when the agent echoes them.
func TestPushSecretsScrubbed(t *testing.T) {
	srv := a2atest.NewServer(a2atest.OnSend(a2atest.Caoliao))
	defer srv.Close()
	c, _ := a2a.NewClient(srv.URL)
	task, _ := c.SendText(context.Background(), a2atest.SeedQRCode)
	srv.Enqueue(a2atest.Raw{EchoID: true, ContentType: "application/json",
		Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32602,"message":"bad config PUSHTOKEN-123 CRED-456 https://hook:HOOKPASS-789@h/?sig=HOOKSIG-0","data":{"echo":"PUSHTOKEN-123"}}}`})
	_, err := c.CreateTaskPushNotificationConfig(context.Background(), a2a.TaskPushNotificationConfig{TaskID: task.ID,
		PushNotificationConfig: a2a.PushNotificationConfig{URL: "https://hook:HOOKPASS-789@h/?sig=HOOKSIG-0", Token: "PUSHTOKEN-123",
			Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: "CRED-456"}}})
	if _, ok := errors.AsType[*a2a.RPCError](err); !ok {
		t.Fatalf("err = %v", err)
	}
	noSecrets(t, errorTexts(err), "PUSHTOKEN", "CRED-456", "HOOKPASS", "HOOKSIG")
}

// TestPushOtherTask: a push config, or any config of a list, about
// another task than the one asked about (or about none) is a
// *ProtocolError, never that task's webhook passed off as ours.
func TestPushOtherTask(t *testing.T) {
	cfg := func(task string) string {
		return `{"taskId":"` + task + `","pushNotificationConfig":{"id":"c1","url":"https://evil.example/hook"}}`
	}
	reply := func(result string) []mockReply {
		return []mockReply{rpcReply([]byte(`{"jsonrpc":"2.0","id":1,"result":` + result + `}`))}
	}
	ctx := context.Background()
	for name, tt := range map[string]struct {
		replies []mockReply
		call    func(c *a2a.Client) error
	}{
		"get, another task": {reply(cfg("B")), func(c *a2a.Client) error { _, err := c.GetTaskPushNotificationConfig(ctx, "A", "c1"); return err }},
		"get, no task":      {reply(cfg("")), func(c *a2a.Client) error { _, err := c.GetTaskPushNotificationConfig(ctx, "A", "c1"); return err }},
		"set, another task": {reply(cfg("B")), func(c *a2a.Client) error {
			_, err := c.CreateTaskPushNotificationConfig(ctx, a2a.TaskPushNotificationConfig{TaskID: "A", PushNotificationConfig: a2a.PushNotificationConfig{URL: "https://ours.example/hook"}})
			return err
		}},
		"list, one of another task": {reply(`[` + cfg("A") + `,` + cfg("B") + `]`), func(c *a2a.Client) error { _, err := c.ListTaskPushNotificationConfigs(ctx, "A"); return err }},
	} {
		t.Run(name, func(t *testing.T) {
			c, _ := newMock(t, tt.replies)
			if _, ok := errors.AsType[*a2a.ProtocolError](tt.call(c)); !ok {
				t.Errorf("want a ProtocolError")
			}
		})
	}
}

// TestPushConfigOption: a webhook sent with a message (Webhook) is
// refused before sending when its URL is not absolute http(s), and its
// secrets never show in the send's errors.
func TestPushConfigOption(t *testing.T) {
	srv := a2atest.NewServer()
	defer srv.Close()
	c, _ := a2a.NewClient(srv.URL)
	for _, u := range []string{"", "hooks.example/a2a", "ftp://hooks.example/a2a", "/a2a", "http://"} {
		if _, err := c.SendText(context.Background(), "hi", a2a.Webhook(a2a.PushNotificationConfig{URL: u})); err == nil {
			t.Errorf("URL %q accepted", u)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("%d requests sent for refused options", n)
	}
	srv.Enqueue(a2atest.Raw{EchoID: true, ContentType: "application/json",
		Body: `{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32602,"message":"bad config PUSHTOKEN-123 CRED-456 https://hook:HOOKPASS-789@h/?sig=HOOKSIG-0"}}`})
	_, err := c.SendText(context.Background(), "hi", a2a.Webhook(a2a.PushNotificationConfig{URL: "https://hook:HOOKPASS-789@h/?sig=HOOKSIG-0",
		Token: "PUSHTOKEN-123", Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: "CRED-456"}}))
	if _, ok := errors.AsType[*a2a.RPCError](err); !ok {
		t.Fatalf("err = %v", err)
	}
	noSecrets(t, errorTexts(err), "PUSHTOKEN", "CRED-456", "HOOKPASS", "HOOKSIG")
}
