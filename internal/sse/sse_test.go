package sse

import (
	"fmt"
	"strings"
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
				d, err := NewReader(r, 1<<20).Next()
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

// TestTooLarge: an event whose data lines add up past the cap, and a line
// longer than the cap (which the line scanner refuses before the event is
// measured), are ErrTooLarge; an event of exactly the cap is not.
func TestTooLarge(t *testing.T) {
	const max = 80 << 10 // over the scanner's first 64 KiB buffer
	x := func(n int) string { return strings.Repeat("x", n) }
	for _, tc := range []struct {
		name, stream string
		want         error
	}{
		{"event at the cap", "data: " + x(max/2) + "\ndata: " + x(max/2-1) + "\n\n", nil}, // the "\n" joining them counts
		{"event over the cap in two lines", "data: " + x(max/2) + "\ndata: " + x(max/2) + "\n\n", ErrTooLarge},
		{"one line over the cap", "data: " + x(2*max) + "\n\n", ErrTooLarge},
	} {
		_, err := NewReader(strings.NewReader(tc.stream), max).Next()
		if err != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestSSEName: Name is the "event" field of the event Next returned last,
// "" for an unnamed one; a name given to an event without data does not
// carry over to the next, nor one event's name to the event after it; the
// last "event" line of an event wins; CR, LF and CRLF alike.
func TestSSEName(t *testing.T) {
	for _, end := range []string{"\n", "\r\n", "\r"} {
		raw := strings.Join([]string{
			"event: error", "data: 1", "",
			"data: 2", "",
			"event: lost", "", // no data: not dispatched, its name dropped
			"data: 3", "",
			"event: a", "id: 7", "event:error", ": comment", "data: 4", "",
			"event", "data: 5", "",
		}, end) + end
		r := NewReader(strings.NewReader(raw), 1<<10)
		var got []string
		for {
			data, err := r.Next()
			if err != nil {
				break
			}
			got = append(got, string(data)+"="+r.Name())
		}
		want := "1=error 2= 3= 4=error 5="
		if s := strings.Join(got, " "); s != want {
			t.Errorf("line end %q: events %q, want %q", end, s, want)
		}
	}
}
