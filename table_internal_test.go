package a2a

import (
	"strings"
	"testing"
)

// TestStoredEscapedKind: a "kind" the look misses (spelled with an escape)
// stops the v1.0 reading, and the bytes are read again as v0.3.
func TestStoredEscapedKind(t *testing.T) {
	b := []byte(`{"id":"t","status":{"state":"completed"},"history":[{"role":2,"parts":[]}],"\u006bind":"task"}`)
	if !v10Stored(b) {
		t.Fatal("the look found the escaped kind; this test needs it missed")
	}
	var task Task
	err := task.UnmarshalJSON(b)
	// The v0.3 reader refuses v1.0's role number: the bytes went to it.
	if err == nil || !strings.Contains(err.Error(), "history[0].role") {
		t.Errorf("got %+v, %v; want the v0.3 reader's error for the numeric role", task, err)
	}
	b = []byte(`{"id":"t","status":{"state":"completed"},"\u006bind":"task"}`)
	if err := task.UnmarshalJSON(b); err != nil || task.ID != "t" || task.Status.State != TaskStateCompleted {
		t.Errorf("got %+v, %v", task, err)
	}
}
