package jsonread

import (
	"errors"
	"reflect"
)

// The decoding budget: what a reply may cost in memory to decode,
// charged by the JSON reader before each allocation its decoders make.

// DecodeBudget is the memory decoding n bytes may take, in bytes of Go
// values: four times the bytes, and 2 MiB more so that small replies of
// any honest shape pass. With the reply's own buffer (at most about
// three times its size while it is read), a call stays within eight
// times the reply's size and 4 MiB.
func DecodeBudget(n int) int64 { return 4*int64(n) + 2<<20 }

// errOverBudget is a value that would take more memory to decode than its
// size allows (DecodeBudget).
var errOverBudget = errors.New("it takes more memory to decode than its size allows (4 bytes a byte, and 2 MiB)")

// Charge takes n bytes from the budget, or stops the reader with
// errOverBudget when they are not there.
func (d *Reader) Charge(n int64) bool {
	if d.budget < 0 {
		return true
	}
	if n > d.budget {
		if d.heavy == nil {
			// Reading stops here as at a syntax error, which err does
			// not report: the budget is what ran out.
			d.heavy, d.syntax = errOverBudget, errOverBudget
		}
		d.pos = len(d.buf)
		return false
	}
	d.budget -= n
	return true
}

// Grow makes room for one more element in list, a list being read with
// the reader at that element. At the first element it looks only
// firstLook bytes ahead: a short list that ends there (two small parts)
// is allocated at its length, any other gets room for one element, as
// most lists of a task (its parts, its artifacts, its history) hold one
// or two and a scan to their end would cost more than their decoding.
// From the second on it looks ahead (a
// scan that builds nothing) lookAhead bytes: a list that ends there, or
// holds many elements there (and is then counted to its end), is
// allocated once at its length; a list of a few large elements (a 1 MiB
// part) is not scanned through, but grows by doubling, which costs
// little for few. Every allocation is charged to the budget before it is
// made; false means it ran out.
func Grow[T any](d *Reader, list []T) ([]T, bool) {
	if len(list) < cap(list) {
		return list, true
	}
	n := 1
	if len(list) == 0 {
		if ahead, done := countAhead(d.buf, d.pos, firstLook); done {
			n = ahead
		}
	} else {
		ahead, done := countAhead(d.buf, d.pos, lookAhead)
		n = len(list) + ahead
		switch {
		case done:
		case ahead >= 16:
			n = len(list) + countRest(d.buf, d.pos)
		default:
			n = max(n, 2*len(list))
		}
	}
	if !d.Charge(int64(n) * int64(reflect.TypeFor[T]().Size())) {
		return list, false
	}
	// Not slices.Grow: under the race detector its append of a make
	// allocates twice.
	grown := make([]T, len(list), n)
	copy(grown, list)
	return grown, true
}

// lookAhead is how far Grow scans ahead before it counts a list to its
// end, in bytes; firstLook how far it scans at a list's first element.
const (
	lookAhead = 16 << 10
	firstLook = 256
)

// errCost is what recording a mistyped value allocates besides its path
// and text: the error value and its boxing. Charged like any value, so a
// reply of a million mistyped parts (each read in soft mode, its error
// built and dropped) stays within the budget.
const errCost = 128
