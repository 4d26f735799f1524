package a2a_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// chunkBody is an A2A v0.3 artifact-update notification for task-1 adding
// s to its artifact "answer" (appending from the second chunk, i > 0).
func chunkBody(i int, s string) string {
	return fmt.Sprintf(`{"kind":"artifact-update","taskId":"task-1","contextId":"ctx-1","append":%t,`+
		`"artifact":{"artifactId":"answer","name":"answer","parts":[{"kind":"text","text":%q}]}}`, i > 0, s)
}

// deliver hands recv a notification with token straight to its
// ServeHTTP, and returns the status it answered.
func deliver(recv http.Handler, token, body string) int {
	req := httptest.NewRequest(http.MethodPost, "/push", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-A2A-Notification-Token", token)
	rec := httptest.NewRecorder()
	recv.ServeHTTP(rec, req)
	return rec.Code
}

// cappedWait is a wait on task-1, which stays working and of which the
// agent sends no news itself, through a client whose replies are capped
// at limit bytes; and its token.
func cappedWait(t *testing.T, recv *a2a.PushReceiver, limit int64) (*a2a.PushWait, string) {
	t.Helper()
	tokens := make(chan string, 1)
	w, err := recv.SendMessage(context.Background(), workingAgent(t, tokens, a2a.WithMaxResponseBytes(limit)), a2a.NewTextMessage("go"))
	if err != nil {
		t.Fatal(err)
	}
	return w, <-tokens
}

// TestPushWaitFoldBound: chunks that would grow the wait's task past the
// client's reply cap end the wait with a *FoldTooLargeError and the task
// as it stood; every notification is still answered 204.
func TestPushWaitFoldBound(t *testing.T) {
	const limit = 4096
	recv := newReceiver(t)
	w, token := cappedWait(t, recv, limit)
	chunk := strings.Repeat("字", 30) // 90 bytes
	for i := range 100 {
		if st := deliver(recv, token, chunkBody(i, chunk)); st != http.StatusNoContent {
			t.Fatalf("chunk %d: status %d", i, st)
		}
	}
	res, err := w.Wait(context.Background())
	big, ok := errors.AsType[*a2a.FoldTooLargeError](err)
	if !ok || big.Limit != limit || big.TaskID != "task-1" {
		t.Fatalf("err = %v, want a *FoldTooLargeError over %d", err, limit)
	}
	task := res.(*a2a.Task)
	if n := len(task.Artifact("answer").Parts); n < 30 || n*len(chunk) > limit {
		t.Errorf("the task kept %d chunks, want those within %d bytes", n, limit)
	}
}

// TestPushWaitTaskIsASnapshot: a task the wait handed out is never
// changed by the notifications folded after.
func TestPushWaitTaskIsASnapshot(t *testing.T) {
	recv := newReceiver(t)
	w, token := cappedWait(t, recv, a2a.DefaultMaxResponseBytes)
	deliver(recv, token, chunkBody(0, "一"))
	first := w.Task()
	for i := 1; i < 5; i++ {
		deliver(recv, token, chunkBody(i, "二"))
	}
	if got := first.Artifact("answer").Text(); got != "一" {
		t.Errorf("a task handed out changed: %q", got)
	}
	if got := w.Task().Artifact("answer").Text(); got != "一\n二\n二\n二\n二" {
		t.Errorf("the wait's task: %q", got)
	}
}

// TestPushWaitFoldLinear: a wait folding twice the notifications
// allocates about twice the bytes, not four times. Bytes are counted,
// not time.
func TestPushWaitFoldLinear(t *testing.T) {
	recv := newReceiver(t)
	measure := func(n int) uint64 {
		least := ^uint64(0)
		for range 2 {
			w, token := cappedWait(t, recv, a2a.DefaultMaxResponseBytes)
			bodies := make([]string, n)
			for i := range bodies {
				bodies[i] = chunkBody(i, "几个字 a few words")
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for _, b := range bodies {
				deliver(recv, token, b)
			}
			runtime.ReadMemStats(&after)
			least = min(least, after.TotalAlloc-before.TotalAlloc)
			w.Stop()
		}
		return least
	}
	const n = 3000
	one, two := measure(n), measure(2*n)
	if two >= 3*one {
		t.Errorf("folding %d notifications allocated %d bytes, %d notifications %d bytes: %.1f×, want about 2×",
			n, one, 2*n, two, float64(two)/float64(one))
	}
}
