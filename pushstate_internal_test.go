package a2a

import (
	"context"
	"testing"
	"time"
)

// TestWaitMoves: move takes exactly the moves its doc lists, and refuses
// every other; nothing leaves stateEnded. (A move to stateReading on a
// closed receiver cannot start the final read, so it ends the wait.)
func TestWaitMoves(t *testing.T) {
	states := []waitState{stateSending, stateWaiting, statePolling, stateReading, stateEnded}
	allowed := map[waitState][]waitState{
		stateSending: {stateWaiting, stateReading, stateEnded},
		stateWaiting: {stateWaiting, statePolling, stateReading, stateEnded},
		statePolling: {stateReading, stateEnded},
		stateReading: {stateEnded},
	}
	for _, from := range states {
		for _, to := range states {
			r := &PushReceiver{receiverConfig: receiverConfig{fallback: time.Hour}, waits: map[tokenKey]*PushWait{}, closed: true}
			w := &PushWait{r: r, c: &Client{}, ctx: context.Background(), done: make(chan struct{}), state: from}
			w.fallback.Init(func() {})
			if from == stateEnded {
				close(w.done)
			}
			want := false
			for _, a := range allowed[from] {
				want = want || a == to
			}
			w.mu.Lock()
			moved := w.move(to, nil)
			got := w.state
			w.mu.Unlock()
			w.c.scheduler().Stop(&w.fallback)
			switch {
			case moved != want:
				t.Errorf("move %d → %d: moved = %v, want %v", from, to, moved, want)
			case !moved && got != from:
				t.Errorf("move %d → %d refused, but the state is %d", from, to, got)
			case moved && to == stateReading && got != stateEnded:
				t.Errorf("move %d → reading on a closed receiver: state %d, want ended", from, got)
			case moved && to != stateReading && got != to:
				t.Errorf("move %d → %d: state %d", from, to, got)
			}
		}
	}
}
