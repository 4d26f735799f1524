package a2a

import (
	"fmt"
	"testing"
	"time"
)

// heldReader reads its parts one per Read, then holds the stream open, as
// an agent does after its last event, until stop is closed.
type heldReader struct {
	parts []string
	stop  chan struct{}
}

func (h *heldReader) Read(p []byte) (int, error) {
	if len(h.parts) == 0 {
		<-h.stop
		return 0, fmt.Errorf("stopped")
	}
	n := copy(p, h.parts[0])
	if h.parts[0] = h.parts[0][n:]; h.parts[0] == "" {
		h.parts = h.parts[1:]
	}
	return n, nil
}

// TestSSELineEndsAcrossReads: an event is dispatched as soon as its blank
// line has arrived, however its bytes are cut into reads and whichever line
// end (CRLF, LF, CR) the agent uses, while the stream stays open. (A CRLF
// cut between its CR and LF once left the blank line after it unread until
// more bytes came: found by a stream test that hung under load.)
func TestSSELineEndsAcrossReads(t *testing.T) {
	for _, full := range []string{"data: x\r\n\r\n", "data: x\n\n", "data: x\r\r", "data: x\r\n\r", ": ok\r\ndata: x\r\n\r\n"} {
		n := len(full)
		for mask := 0; mask < 1<<(n-1); mask++ {
			var parts []string
			start := 0
			for i := 1; i < n; i++ {
				if mask&(1<<(i-1)) != 0 {
					parts, start = append(parts, full[start:i]), i
				}
			}
			parts = append(parts, full[start:])
			r := &heldReader{parts: append([]string(nil), parts...), stop: make(chan struct{})}
			got := make(chan string, 1)
			go func() {
				d, err := newSSEReader(r, 1<<20).next()
				got <- fmt.Sprintf("%s %v", d, err)
			}()
			select {
			case g := <-got:
				if g != "x <nil>" {
					t.Errorf("%q: got %s; want the event x", parts, g)
				}
			case <-time.After(10 * time.Second): // a hang guard, not a timing check
				t.Errorf("%q: the event was not dispatched", parts)
			}
			close(r.stop)
		}
	}
}
