package a2a_test

import (
	"context"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// TestV10PushAnswers: a v1.0 push-config answer that is not an answer to
// the call asked is a *ProtocolError: another config than the one a get
// names, a delete answered with neither null nor an object; and the
// proto's own names (task_id, next_page_token) are read, so a page is
// never lost.
func TestV10PushAnswers(t *testing.T) {
	ctx := context.Background()
	reply := func(result string) []mockReply {
		return []mockReply{rpcReply([]byte(`{"jsonrpc":"2.0","id":1,"result":` + result + `}`))}
	}
	v10 := a2a.WithProtocolVersion(a2a.ProtocolV10)

	c, _ := newMock(t, reply(`{"id":"c9","taskId":"t1","url":"https://hooks.example/c9"}`), v10)
	if _, err := c.GetTaskPushNotificationConfig(ctx, "t1", "c1"); !isProtocolError(err, `push config "c9" is not "c1"`) {
		t.Errorf("another config: %v", err)
	}
	for _, result := range []string{`"nope"`, `false`, `[]`} {
		c, _ := newMock(t, reply(result), v10)
		if err := c.DeleteTaskPushNotificationConfig(ctx, "t1", "c1"); !isProtocolError(err, "neither null nor an object") {
			t.Errorf("delete answered %s: %v", result, err)
		}
	}
	for _, result := range []string{`null`, `{}`} {
		c, _ := newMock(t, reply(result), v10)
		if err := c.DeleteTaskPushNotificationConfig(ctx, "t1", "c1"); err != nil {
			t.Errorf("delete answered %s: %v", result, err)
		}
	}

	c, f := newMock(t, append(reply(`{"configs":[{"id":"a","task_id":"t1","url":"https://hooks.example/a"}],"next_page_token":"p2"}`),
		reply(`{"configs":[{"id":"b","taskId":"t1","url":"https://hooks.example/b"}]}`)...), v10)
	list, err := c.ListTaskPushNotificationConfigs(ctx, "t1")
	if err != nil || len(list) != 2 || list[0].TaskID != "t1" || f.count() != 2 {
		t.Errorf("proto names: %+v, %v after %d requests; want 2 configs of t1 after 2", list, err, f.count())
	}
	c, _ = newMock(t, reply(`{"configs":[],"nextPageToken":"p2","next_page_token":"p3"}`), v10)
	if _, err := c.ListTaskPushNotificationConfigs(ctx, "t1"); !isProtocolError(err, "appears twice") {
		t.Errorf("two page tokens: %v", err)
	}

	c, _ = newMock(t, reply(`{"tasks":[null]}`), v10)
	if _, err := c.ListTasksPage(ctx, a2a.ListTasksRequest{}); !isProtocolError(err, "a task is null") {
		t.Errorf("a null task: %v", err)
	}
}

// isProtocolError reports whether err is a *ProtocolError whose reason,
// or its error's text, holds text.
func isProtocolError(err error, text string) bool {
	pe, ok := err.(*a2a.ProtocolError)
	return ok && strings.Contains(pe.Error(), text)
}

// TestCardTenantChecked: a card's interface tenant goes into every request
// body, so one with a control character is refused like WithTenant's.
func TestCardTenantChecked(t *testing.T) {
	card := &a2a.AgentCard{SupportedInterfaces: []a2a.AgentInterface{{URL: "https://agent.example/a2a", ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "a\nb"}}}
	if _, err := a2a.NewClientFromCard(card); err == nil || !strings.Contains(err.Error(), "tenant") {
		t.Errorf("tenant with a line break: %v", err)
	}
}
