package a2atest_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
	"github.com/caoliao-a2a/a2a-go/a2atest"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fixedTask is a task whose encoding does not depend on the clock.
func fixedTask() *a2a.Task {
	return &a2a.Task{ID: "t1", ContextID: "c1",
		Status: a2a.TaskStatus{State: a2a.TaskStateCompleted, Timestamp: "2026-05-01T10:00:00.000Z",
			Message: &a2a.Message{MessageID: "s1", Role: a2a.RoleAgent, Parts: a2a.Parts{a2a.TextPart{Text: "done"}}}},
		Artifacts: []a2a.Artifact{{ArtifactID: "a1", Name: "entity", Parts: a2a.Parts{
			a2a.DataPart{Data: json.RawMessage(`{"ok":true}`)},
			a2a.TextPart{Text: "# done", MediaType: "text/markdown"},
			a2a.NewFileBytes("hi.txt", "text/plain", []byte("hi")),
			a2a.FilePart{File: a2a.FileContent{URI: "https://files.example/r.pdf", MIMEType: "application/pdf"}},
			a2a.DataPart{},
		}}},
	}
}

// TestV10Encoding pins the bytes of a SendMessage result: ProtoJSON, no
// "kind", TASK_STATE_* and ROLE_* names, flat parts.
func TestV10Encoding(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.OnSend(func(a2a.Message) a2atest.Reply { return a2atest.Reply{Task: fixedTask()} }))
	defer srv.Close()
	r := postRPC(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}}`, v10Header)
	want := `{"task":{"id":"t1","contextId":"c1",` +
		`"status":{"state":"TASK_STATE_COMPLETED","message":{"messageId":"s1","role":"ROLE_AGENT","parts":[{"text":"done"}]},"timestamp":"2026-05-01T10:00:00.000Z"},` +
		`"artifacts":[{"artifactId":"a1","name":"entity","parts":[{"data":{"ok":true}},{"text":"# done","mediaType":"text/markdown"},` +
		`{"raw":"aGk=","filename":"hi.txt","mediaType":"text/plain"},{"url":"https://files.example/r.pdf","mediaType":"application/pdf"},{"data":null}]}],` +
		`"history":[{"messageId":"m1","contextId":"c1","taskId":"t1","role":"ROLE_USER","parts":[{"text":"hi"}]}]}}`
	if string(r.Result) != want {
		t.Errorf("result\n got %s\nwant %s", r.Result, want)
	}

	// The client reads it back as the task the handler gave.
	task, err := v10Client(t, srv.URL).SendText(context.Background(), "hi")
	if err != nil {
		t.Fatal(err)
	}
	wantParts := fixedTask().Artifacts[0].Parts
	wantParts[4] = a2a.DataPart{Data: json.RawMessage("null")}
	if diff := cmp.Diff(wantParts, task.Artifacts[0].Parts); diff != "" {
		t.Errorf("parts as the client reads them (-want +got):\n%s", diff)
	}
}

// TestV10Stream pins a stream's events: StreamResponse wrappers without
// "final" or "kind", the stream closed after the last.
func TestV10Stream(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.OnSend(func(a2a.Message) a2atest.Reply {
		return a2atest.Reply{Events: []a2a.Event{
			&a2a.TaskStatusUpdateEvent{TaskID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}},
			&a2a.TaskArtifactUpdateEvent{TaskID: "t1", ContextID: "c1", Append: true, Artifact: a2a.Artifact{ArtifactID: "a1", Parts: a2a.Parts{a2a.TextPart{Text: "x"}}}},
			&a2a.TaskStatusUpdateEvent{TaskID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}, Final: true},
		}}
	}))
	defer srv.Close()
	_, body := post(t, srv.URL, `{"jsonrpc":"2.0","id":"s1","method":"SendStreamingMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"hi"}]}}}`, v10Header)
	want := `data: {"id":"s1","jsonrpc":"2.0","result":{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING"}}}}

data: {"id":"s1","jsonrpc":"2.0","result":{"artifactUpdate":{"taskId":"t1","contextId":"c1","artifact":{"artifactId":"a1","parts":[{"text":"x"}]},"append":true}}}

data: {"id":"s1","jsonrpc":"2.0","result":{"statusUpdate":{"taskId":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}}

`
	if diff := cmp.Diff(want, body); diff != "" {
		t.Errorf("stream (-want +got):\n%s", diff)
	}
}

// TestV10Replies: Reply.Error, Reply.Message and an enqueued Raw on a
// v1.0 server.
func TestV10Replies(t *testing.T) {
	srv := a2atest.NewServer(a2atest.V10(), a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		switch m.Parts.Text() {
		case "refuse":
			return a2atest.Reply{Error: &a2a.RPCError{Code: -32005, Message: "no images"}}
		case "refuse with data":
			return a2atest.Reply{Error: &a2a.RPCError{Code: -32603, Message: "boom", Data: json.RawMessage(`{"trace":"x"}`)}}
		}
		return a2atest.Reply{Message: &a2a.Message{Parts: a2a.Parts{a2a.TextPart{Text: "just a message"}}}}
	}))
	defer srv.Close()
	c := v10Client(t, srv.URL)
	ctx := context.Background()

	var e *a2a.RPCError
	if _, err := c.SendText(ctx, "refuse"); !errors.As(err, &e) || e.Code != -32005 || e.Reason() != "CONTENT_TYPE_NOT_SUPPORTED" {
		t.Errorf("Reply.Error: %v", err)
	}
	if _, err := c.SendText(ctx, "refuse with data"); !errors.As(err, &e) || string(e.Data) != `{"trace":"x"}` || e.Details != nil {
		t.Errorf("Reply.Error with Data: %v", err)
	}
	res, err := c.SendMessage(ctx, a2a.NewTextMessage("hello"))
	if m, ok := res.(*a2a.Message); err != nil || !ok || m.Role != a2a.RoleAgent || m.Text() != "just a message" {
		t.Errorf("Reply.Message: %v, %v", res, err)
	}

	// A Raw reply is written as given: here a v0.3 task, which the v1.0
	// client refuses as the other version's.
	srv.Enqueue(a2atest.Raw{EchoID: true, ContentType: "application/json",
		Body: `{"jsonrpc":"2.0","id":{{id}},"result":{"kind":"task","id":"x","contextId":"c","status":{"state":"completed"}}}`})
	if _, err := c.GetTask(ctx, "x"); !errors.Is(err, a2a.ErrVersionMismatch) {
		t.Errorf("a v0.3 Raw reply: %v", err)
	}
}

// TestV10Card: a v1.0 server serves its card, or one of its own, as a
// v1.0 card.
func TestV10Card(t *testing.T) {
	card := &a2a.AgentCard{Name: "草料", Description: "QR codes", Version: "2.0.0",
		Capabilities:      a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"application/json"},
		Skills:                            []a2a.AgentSkill{{ID: "entity", Name: "Entity", Description: "What a code is", Tags: []string{"qr"}}},
		SecuritySchemes:                   map[string]a2a.SecurityScheme{"apiKey": {Type: "apiKey", In: "header", Name: "X-API-Key"}},
		Security:                          []map[string][]string{{"apiKey": {}}},
		SupportsAuthenticatedExtendedCard: true,
	}
	srv := a2atest.NewServer(a2atest.V10(), a2atest.WithCard(card))
	defer srv.Close()
	want := `{"name":"草料","description":"QR codes",` +
		`"supportedInterfaces":[{"url":"` + srv.URL + `","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],` +
		`"version":"2.0.0","capabilities":{"streaming":true,"extendedAgentCard":true},` +
		`"securitySchemes":{"apiKey":{"apiKeySecurityScheme":{"location":"header","name":"X-API-Key"}}},` +
		`"securityRequirements":[{"schemes":{"apiKey":{}}}],` +
		`"defaultInputModes":["text/plain"],"defaultOutputModes":["application/json"],` +
		`"skills":[{"id":"entity","name":"Entity","description":"What a code is","tags":["qr"]}]}` + "\n"
	if diff := cmp.Diff(want, getCard(t, srv)); diff != "" {
		t.Errorf("card (-want +got):\n%s", diff)
	}

	plain := a2atest.NewServer(a2atest.V10())
	defer plain.Close()
	if got := getCard(t, plain); !strings.Contains(got, `"supportedInterfaces":[{"url":"`+plain.URL+`","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]`) ||
		!strings.Contains(got, `"capabilities":{"streaming":true,"pushNotifications":true}`) {
		t.Errorf("default card: %s", got)
	}
}

// TestV10MessageIn: the OnSend handler sees the message the client sent,
// every kind of part with its media type and file name.
func TestV10MessageIn(t *testing.T) {
	got := make(chan a2a.Message, 1)
	srv := a2atest.NewServer(a2atest.V10(), a2atest.OnSend(func(m a2a.Message) a2atest.Reply {
		got <- m
		return a2atest.Reply{Message: &a2a.Message{Parts: a2a.Parts{a2a.TextPart{Text: "ok"}}}}
	}))
	defer srv.Close()
	sent := a2a.Message{MessageID: "m1", Role: a2a.RoleUser, Metadata: json.RawMessage(`{"k":"v"}`), Parts: a2a.Parts{
		a2a.TextPart{Text: "# hi", MediaType: "text/markdown", Filename: "hi.md"},
		a2a.DataPart{Data: json.RawMessage(`[1,2]`), MediaType: "application/json"},
		a2a.NewFileBytes("hi.txt", "text/plain", []byte("hi")),
		a2a.FilePart{File: a2a.FileContent{URI: "https://files.example/r.pdf", Name: "r.pdf"}},
	}}
	if _, err := v10Client(t, srv.URL).SendMessage(context.Background(), sent); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sent, <-got, cmpopts.IgnoreUnexported(a2a.Message{})); diff != "" {
		t.Errorf("message as the handler sees it (-want +got):\n%s", diff)
	}
}

// TestV10CardThroughClient: the client resolves a v1.0 server's card,
// speaks v1.0 with the tenant the card names, and reads the extended card.
func TestV10CardThroughClient(t *testing.T) {
	extended := &a2a.AgentCard{Name: "extended", Capabilities: a2a.AgentCapabilities{ExtendedAgentCard: true}}
	srv := a2atest.NewServer(a2atest.V10(), a2atest.RequireTenant("t1"), a2atest.WithExtendedCard(extended))
	defer srv.Close()
	ctx := context.Background()
	card, err := a2a.ResolveAgentCard(ctx, strings.TrimSuffix(srv.URL, "/a2a/jsonrpc"))
	if err != nil {
		t.Fatal(err)
	}
	want := []a2a.AgentInterface{{URL: srv.URL, ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "t1"}}
	if diff := cmp.Diff(want, card.SupportedInterfaces); diff != "" || !card.Capabilities.ExtendedAgentCard {
		t.Errorf("interfaces (-want +got):\n%s\nextendedAgentCard %v", diff, card.Capabilities.ExtendedAgentCard)
	}
	c, err := a2a.NewClientFromCard(card)
	if err != nil {
		t.Fatal(err)
	}
	if task, err := c.SendText(ctx, "hi"); err != nil || c.ProtocolVersion() != a2a.ProtocolV10 || task.Artifact("echo").Text() != "hi" {
		t.Errorf("a client from the card: v%s, %v, %v", c.ProtocolVersion(), task, err)
	}
	got, err := c.GetExtendedAgentCard(ctx)
	if err != nil || got.Name != "extended" || len(got.SupportedInterfaces) != 1 || got.SupportedInterfaces[0].Tenant != "t1" {
		t.Errorf("extended card: %+v, %v", got, err)
	}

	// A card's own interfaces are written as given, an empty URL the
	// server's.
	mine := &a2a.AgentCard{Name: "mine", SupportedInterfaces: []a2a.AgentInterface{
		{ProtocolBinding: "JSONRPC", ProtocolVersion: "1.0", Tenant: "t1"},
		{URL: "https://elsewhere.example/grpc", ProtocolBinding: "GRPC", ProtocolVersion: "1.0"}}}
	srv2 := a2atest.NewServer(a2atest.V10(), a2atest.WithCard(mine))
	defer srv2.Close()
	wantIn := `"supportedInterfaces":[{"url":"` + srv2.URL + `","protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":"t1"},` +
		`{"url":"https://elsewhere.example/grpc","protocolBinding":"GRPC","protocolVersion":"1.0"}]`
	if got := getCard(t, srv2); !strings.Contains(got, wantIn) {
		t.Errorf("card %s\nwant it to hold %s", got, wantIn)
	}
}
