package jsonread

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// jsonReaderSeeds are inputs at the edges of the grammar.
var jsonReaderSeeds = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `0.5e+3`, `1E9`, `true`, `false`, `null`,
	`{"a":[1,{"b":"c"}],"d":null}`, ` [ 1 , 2 ] `, `"\u00e9\ud83d\ude00\/\b\f\n\r\t\\\""`,
	`"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, "\"\xff\xfe\"", "\"caf\xc3\xa9\"", `"中文"`,
	`01`, `1.`, `.5`, `-`, `+1`, `1e`, `1e+`, `tru`, `nul`, `{"a"}`, `{"a":}`, `{,}`, `[1,]`,
	`{"a":1,}`, `[1 2]`, `{"a" 1}`, `"\x"`, `"\u12"`, "\"a\x01b\"", `{"a":1}x`, `[`, `{`, `"abc`,
	`{"a:b":1}`, `{"\u0061":1}`, strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
}

// FuzzJSONReader: the reader accepts exactly what encoding/json accepts,
// returns a value's bytes whole, and decodes strings to the same text.
func FuzzJSONReader(f *testing.F) {
	for _, s := range jsonReaderSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d := NewReader(b)
		v := d.Skip()
		d.End()
		valid := json.Valid(b)
		if (d.syntax == nil) != valid {
			t.Fatalf("reader says valid=%v (%v), encoding/json says %v, for %q", d.syntax == nil, d.syntax, valid, b)
		}
		if !valid {
			return
		}
		if !bytes.Equal(v, bytes.TrimSpace(b)) {
			t.Fatalf("skip returned %q of %q", v, b)
		}
		var elems []json.RawMessage
		if v[0] == '[' && json.Unmarshal(v, &elems) == nil {
			if i := skipSpace(v, 1); v[i] != ']' {
				if n := countRest(v, i); n != len(elems) {
					t.Fatalf("countRest = %d, want %d, for %q", n, len(elems), v)
				}
			}
		}
		var want string
		if json.Unmarshal(b, &want) == nil && bytes.TrimSpace(b)[0] == '"' {
			d := NewReader(b)
			if got := d.Str(); got != want || d.Err() != nil {
				t.Fatalf("str() = %q (%v), encoding/json %q, for %q", got, d.Err(), want, b)
			}
		}
	})
}

func TestJSONReaderSeeds(t *testing.T) {
	for _, s := range jsonReaderSeeds {
		d := NewReader([]byte(s))
		d.Skip()
		d.End()
		if (d.syntax == nil) != json.Valid([]byte(s)) {
			t.Errorf("%.40q: reader valid=%v (%v)", s, d.syntax == nil, d.syntax)
		}
		var want string
		if json.Unmarshal([]byte(s), &want) == nil {
			if got := NewReader([]byte(s)).Str(); got != want {
				t.Errorf("%q: str() = %q, want %q", s, got, want)
			}
		}
	}
}
