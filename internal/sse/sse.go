// Package sse reads Server-Sent Events (the WHATWG HTML "event stream"
// format), the framing of A2A's streaming replies: from any io.Reader,
// each event bounded in size. Reading an HTTP body, decoding it and
// bounding the wait for an event are internal/httpbody's.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// ErrTooLarge is an event whose data lines, or one of its lines, add up
// past the reader's cap.
var ErrTooLarge = errors.New("event exceeds the size cap")

// Reader reads Server-Sent Events (the WHATWG HTML "event stream"
// format): lines end in CRLF, LF or CR; "data:" lines of one event are
// joined with "\n"; a blank line dispatches; the "event" field is kept
// for Name (HTTP+JSON agents name error events "error"); comments (":")
// and the "id" and "retry" fields are ignored, as A2A gives them no
// meaning. Lines and events are bounded by max bytes.
type Reader struct {
	sc      *bufio.Scanner
	max     int64
	started bool
	lines   sseLines
	name    string
	// KeepAlive is called at each comment line (a keep-alive); nil: none.
	KeepAlive func()
}

// NewReader returns a reader of the events in r, each event and each line
// at most max bytes.
func NewReader(r io.Reader, max int64) *Reader {
	sc := bufio.NewScanner(r)
	limit := 1<<31 - 1
	if max < int64(limit)-2 {
		limit = int(max) + 2 // the line, and room for its CRLF
	}
	sc.Buffer(make([]byte, 0, 64<<10), limit)
	s := &Reader{sc: sc, max: max}
	sc.Split(s.lines.split)
	return s
}

// Name returns the type of the event Next returned last: its "event"
// field, or "" when it had none (the format's "message").
func (s *Reader) Name() string { return s.name }

// Next returns the data of the next event, or io.EOF at the end of the
// stream. Its errors: ErrTooLarge for an event or a line over the cap, and
// r's errors as they are.
func (s *Reader) Next() ([]byte, error) {
	var data []byte
	has := false
	s.name = ""
	for s.sc.Scan() {
		line := s.sc.Bytes()
		if !s.started { // the format allows one leading byte-order mark
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
			s.started = true
		}
		if len(line) == 0 {
			if has {
				return data, nil
			}
			s.name = "" // an event without data is not dispatched
			continue
		}
		if line[0] == ':' {
			if s.KeepAlive != nil {
				s.KeepAlive()
			}
			continue
		}
		field, value, found := bytes.Cut(line, []byte(":"))
		if !found {
			value = nil
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if string(field) == "event" {
			s.name = string(value)
			continue
		}
		if string(field) != "data" {
			continue
		}
		if has {
			data = append(data, '\n')
		}
		data = append(data, value...)
		has = true
		if int64(len(data)) > s.max {
			return nil, ErrTooLarge
		}
	}
	switch err := s.sc.Err(); {
	case errors.Is(err, bufio.ErrTooLong): // a line past the scanner's buffer
		return nil, ErrTooLarge
	case err != nil:
		return nil, err
	}
	// An event the stream ended before its blank line is not dispatched
	// (the WHATWG rules): it may be cut short.
	return nil, io.EOF
}

// sseLines splits a stream into lines ended by CRLF, LF or CR. A CR ends
// its line at once, so an event whose last line ends in CR is dispatched
// without waiting for more bytes; an LF right after it, read later, is
// then the rest of that CRLF and is skipped.
type sseLines struct {
	afterCR bool // the last line ended with a CR
}

// split is the bufio.SplitFunc. The LF of a CRLF split across reads is
// skipped within the same call as the line after it: a bufio.Scanner
// given an advance without a token reads more before it calls split
// again, so returning the skip alone would leave a whole line (the blank
// one that dispatches an event) waiting for bytes that may never come.
func (l *sseLines) split(data []byte, atEOF bool) (int, []byte, error) {
	skip := 0
	if l.afterCR && len(data) > 0 {
		l.afterCR = false
		if data[0] == '\n' {
			skip, data = 1, data[1:]
		}
	}
	i := bytes.IndexAny(data, "\r\n")
	switch {
	case i < 0:
		if atEOF && len(data) > 0 {
			return skip + len(data), data, nil
		}
		return skip, nil, nil
	case data[i] == '\n':
		return skip + i + 1, data[:i], nil
	case i+1 < len(data) && data[i+1] == '\n':
		return skip + i + 2, data[:i], nil
	default:
		l.afterCR = i+1 == len(data)
		return skip + i + 1, data[:i], nil
	}
}
