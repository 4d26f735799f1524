package jsonread

import (
	"cmp"
	"slices"
)

// Remembering where large values end: the first, validating pass over a
// reply notes the end of each large value it steps over, so the later
// passes over the same bytes (the result's kind, the table that decodes
// it) step over a 1 MiB DataPart at once instead of scanning it again.

// Ends holds where the large values (bigValue bytes or more, at most
// endsDepth levels deep, at most maxEnds of them) of one input end, by
// their offsets in it. A value not noted is skipped as ever.
type Ends struct {
	spans  []span // by end as noted; by start once recalled (sorted)
	sorted bool
	buf    [8]span
	starts [endsDepth]int // where the containers open in the pass that notes began
}

type span struct{ start, end int }

const (
	// bigValue is the length from which a value is noted, in bytes:
	// below it a scan costs less than keeping its end.
	bigValue = 16 << 10
	// endsDepth is how deep a container may be and still be noted.
	endsDepth = 64
	// maxEnds bounds what one input notes.
	maxEnds = 256
)

// endsView is Ends as seen from a reader of the input from offset base on
// (a reader of the result within a reply's body).
type endsView struct {
	ends   *Ends
	base   int
	noting bool // a validating pass notes in ends (Note)
}

// EndsFor returns an Ends for an input of n bytes, or nil when n is too
// small to hold a value worth noting (Note and Recall take nil).
func EndsFor(n int) *Ends {
	if n < bigValue {
		return nil
	}
	return new(Ends)
}

// Note makes d (a reader that validates) note in e where the large values
// it skips end; nil notes nothing. e must not be used by another reader at
// the same time.
func (d *Reader) Note(e *Ends) {
	if e == nil {
		return
	}
	e.spans, e.sorted = e.buf[:0], false
	d.ends = endsView{ends: e, noting: true}
}

// Recall gives d the ends noted in e by a validating pass over an input
// of which d's is the part from offset base on; its Skip then steps over
// a value noted there at once. e must not change while d reads.
func (d *Reader) Recall(e *Ends, base int) {
	if e != nil && len(e.spans) > 0 {
		if !e.sorted { // for end's binary search: a value starts where no other does
			slices.SortFunc(e.spans, func(a, b span) int { return cmp.Compare(a.start, b.start) })
			e.sorted = true
		}
		d.ends = endsView{ends: e, base: base}
	}
}

// note records that the value at [start, end) of the reader's input ends
// there, if it is large enough to be worth it.
func (v *endsView) note(start, end int) {
	if !v.noting || end-start < bigValue || len(v.ends.spans) >= maxEnds {
		return
	}
	v.ends.spans = append(v.ends.spans, span{start + v.base, end + v.base})
}

// end returns where the value starting at offset start of the reader's
// input ends, if it was noted.
func (v *endsView) end(start int) (int, bool) {
	if v.ends == nil || v.noting {
		return 0, false // a noting pass has not seen the values ahead
	}
	spans := v.ends.spans
	i, ok := slices.BinarySearchFunc(spans, start+v.base, func(s span, at int) int { return cmp.Compare(s.start, at) })
	if !ok {
		return 0, false
	}
	return spans[i].end - v.base, true
}
