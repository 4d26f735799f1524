package jsonread

import (
	"strings"
	"testing"
)

// TestEnds: a validating pass notes where the large values end; a reader
// of a part of the same input that recalls them skips each to the same
// end as a scan would, and small values are not noted.
func TestEnds(t *testing.T) {
	big := `{"rows":[` + strings.Repeat(`[1.5,"x\"]"],`, 4000) + `[0]]}`
	long := `"` + strings.Repeat(`a\"{`, 8000) + `"`
	body := []byte(`{"id":1,"result":{"small":{"a":[1]},"data":` + big + `,"text":` + long + `,"end":true}}`)

	var e Ends
	d := NewReader(body)
	d.Note(&e)
	d.Skip()
	d.End()
	if d.Err() != nil {
		t.Fatal(d.Err())
	}
	d.Release()
	if len(e.spans) != 5 { // the body, result, data, its rows, text
		t.Fatalf("noted %d values, want 5: %v", len(e.spans), e.spans)
	}

	// Each noted value is found by its start, once recalled (the spans,
	// noted inner first, are then sorted by start).
	noted := append([]span(nil), e.spans...)
	NewReader(nil).Recall(&e, 0)
	v := endsView{ends: &e}
	for _, s := range noted {
		if end, ok := v.end(s.start); !ok || end != s.end {
			t.Errorf("end(%d) = %d, %v; want %d", s.start, end, ok, s.end)
		}
	}
	if _, ok := v.end(noted[0].start + 1); ok {
		t.Error("an end found for an offset where no noted value starts")
	}

	base := strings.Index(string(body), `{"small"`)
	result := body[base : len(body)-1]
	for _, trust := range []bool{false, true} {
		d := NewReader(result)
		if trust {
			d.Trust()
		}
		d.Recall(&e, base)
		var got []string
		d.Object(nil, nil, func(int) { got = append(got, string(d.Skip())) })
		d.End()
		if d.Err() != nil {
			t.Fatal(d.Err())
		}
		want := []string{`{"a":[1]}`, big, long, `true`}
		if len(got) != len(want) {
			t.Fatalf("trust=%v: %d members, want %d", trust, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("trust=%v: member %d = %.40q…, want %.40q…", trust, i, got[i], want[i])
			}
		}
		d.Release()
	}

	// A recalled end is used only where a noted value starts, and never
	// past the reader's input.
	d = NewReader([]byte(`null`))
	d.Recall(&e, base)
	if got := d.Skip(); string(got) != "null" || d.Err() != nil {
		t.Errorf("skip of null with ends recalled = %q, %v", got, d.Err())
	}
	d.Release()
}
