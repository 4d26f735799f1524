package interop

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
)

// describe renders stream events as lines for exact comparison.
func describe(ev a2a.Event) string {
	switch e := ev.(type) {
	case *a2a.Task:
		return "task " + string(e.Status.State)
	case *a2a.Message:
		return "message " + e.Text()
	case *a2a.TaskStatusUpdateEvent:
		return fmt.Sprintf("status %s final=%v %s", e.Status.State, e.Final, e.Status.Message.Text())
	case *a2a.TaskArtifactUpdateEvent:
		return fmt.Sprintf("artifact %s %s %q append=%v last=%v", e.Artifact.ArtifactID, e.Artifact.Name, e.Artifact.Text(), e.Append, e.LastChunk)
	}
	return fmt.Sprintf("%T", ev)
}

// runSurface exercises discovery, the extended card, streaming,
// resubscription and push config against a peer at base, and validates the
// requests against the schema.
func runSurface(t *testing.T, base, extendedName string) {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	defer tr.CloseIdleConnections()
	rec := &recorder{next: tr}
	hc := &http.Client{Transport: rec}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	card, err := a2a.ResolveAgentCard(ctx, base, a2a.WithHTTPClient(hc))
	if err != nil {
		t.Fatalf("ResolveAgentCard: %v", err)
	}
	if !card.Capabilities.Streaming || !card.Capabilities.PushNotifications || !card.SupportsAuthenticatedExtendedCard || len(card.Skills) == 0 {
		t.Fatalf("card: %+v", card)
	}
	// With a credential, the card's endpoint must be on the card's own
	// origin: a peer's card passes that check.
	c, err := a2a.NewClientFromCard(card, a2a.WithHTTPClient(hc), a2a.WithAPIKey("interop-key"))
	if err != nil {
		t.Fatal(err)
	}
	if in, _ := card.JSONRPCInterface(); in.URL != base+"/a2a/jsonrpc" {
		t.Errorf("JSON-RPC URL %q", in.URL)
	}

	t.Run("extended card", func(t *testing.T) {
		ext, err := c.GetExtendedAgentCard(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if ext.Name != extendedName || c.Card().Name != extendedName {
			t.Errorf("extended card %q; client's card now %q", ext.Name, c.Card().Name)
		}
	})

	t.Run("stream with artifact chunks", func(t *testing.T) {
		got, task := foldStream(t, c.SendStreamingMessage(ctx, a2a.NewTextMessage("stream")))
		want := []string{
			"task submitted",
			"status working final=false ",
			`artifact art-1 story "第一段" append=false last=false`,
			`artifact art-1  "第二段" append=true last=true`,
			"status completed final=true ",
		}
		if len(got) > 3 { // the name of an appended chunk is the peer's choice
			got[3] = describeAppend(got[3])
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
		if task.Status.State != a2a.TaskStateCompleted || task.Artifact("story").Text() != "第一段\n第二段" {
			t.Errorf("folded: %s %q", task.Status.State, task.Artifact("story").Text())
		}
	})

	t.Run("stream ending failed", func(t *testing.T) {
		var last string
		for ev, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("stream-fail")) {
			if err != nil {
				t.Fatal(err)
			}
			last = describe(ev)
		}
		if want := "status failed final=true " + a2atest.FailureReason; last != want {
			t.Errorf("last event %q, want %q", last, want)
		}
	})

	t.Run("stream of one message", func(t *testing.T) {
		var got []string
		for ev, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("message")) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, describe(ev))
		}
		if diff := cmp.Diff([]string{"message " + greeting}, got); diff != "" {
			t.Errorf("events (-want +got):\n%s", diff)
		}
	})

	t.Run("resubscribe after a dropped stream", func(t *testing.T) {
		var task a2a.Task
		for ev, err := range c.SendStreamingMessage(ctx, a2a.NewTextMessage("stream-slow")) {
			if err != nil {
				t.Fatal(err)
			}
			task.Apply(ev)
			break // drop the connection after the first event
		}
		if task.ID == "" {
			t.Fatal("no task id from the first event")
		}
		var got []string
		for ev, err := range c.SubscribeToTask(ctx, task.ID) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, describe(ev))
			task.Apply(ev)
		}
		if len(got) == 0 || got[len(got)-1] != "status completed final=true " {
			t.Fatalf("resubscribed events %q", got)
		}
		if task.Status.State != a2a.TaskStateCompleted || task.Artifact("result").Text() != "done" {
			t.Errorf("folded after resubscribe: %s %q (events %q)", task.Status.State, task.Artifact("result").Text(), got)
		}
	})

	t.Run("push notification config", func(t *testing.T) {
		task, err := c.SendText(ctx, "entity")
		if err != nil {
			t.Fatal(err)
		}
		cfg := a2a.PushNotificationConfig{ID: "cfg-1", URL: "http://127.0.0.1:9/webhook", Token: "tok-1",
			Authentication: &a2a.PushNotificationAuthenticationInfo{Schemes: []string{"Bearer"}, Credentials: "secret"}}
		want := a2a.TaskPushNotificationConfig{TaskID: task.ID, PushNotificationConfig: cfg}
		set, err := c.CreateTaskPushNotificationConfig(ctx, want)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, *set); diff != "" {
			t.Errorf("set (-want +got):\n%s", diff)
		}
		got, err := c.GetTaskPushNotificationConfig(ctx, task.ID, "cfg-1")
		if err != nil || !cmp.Equal(want, *got) {
			t.Errorf("get: %+v, %v", got, err)
		}
		list, err := c.ListTaskPushNotificationConfigs(ctx, task.ID)
		if err != nil || !cmp.Equal([]a2a.TaskPushNotificationConfig{want}, list) {
			t.Errorf("list: %+v, %v", list, err)
		}
		if err := c.DeleteTaskPushNotificationConfig(ctx, task.ID, "cfg-1"); err != nil {
			t.Errorf("delete: %v", err)
		}
		list, err = c.ListTaskPushNotificationConfigs(ctx, task.ID)
		if err != nil || len(list) != 0 {
			t.Errorf("list after delete: %+v, %v", list, err)
		}
	})

	t.Run("requests valid against the v0.3.0 schema", func(t *testing.T) {
		var bodies [][]byte
		for _, b := range rec.captured() {
			if len(b) > 0 { // the card GETs have no body
				bodies = append(bodies, b)
			}
		}
		validateRequests(t, bodies)
	})
}

// describeAppend drops the artifact name from an appended chunk's line:
// peers differ in whether they repeat it.
func describeAppend(line string) string {
	var id, name, text, rest string
	if n, _ := fmt.Sscanf(line, "artifact %s %s %s %s", &id, &name, &text, &rest); n == 4 && name != "" && name[0] != '"' {
		return fmt.Sprintf("artifact %s  %s %s", id, text, line[len("artifact "+id+" "+name+" "+text+" "):])
	}
	return line
}
