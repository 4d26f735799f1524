package jsonread

import (
	"bytes"
	"encoding/binary"
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
		trusted := NewReader(b)
		trusted.Trust()
		tv := trusted.Skip() // on any input: no panic, no loop, within b
		if trusted.pos > len(b) {
			t.Fatalf("trusted skip ended at %d, past the input's %d bytes", trusted.pos, len(b))
		}
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
		if !bytes.Equal(tv, v) || trusted.syntax != nil {
			t.Fatalf("trusted skip returned %q (%v), want %q", tv, trusted.syntax, v)
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

// TestTrustedSkip: a reader told its input is JSON finds the end of every
// valid value as the validating one does, and on input that is not JSON
// after all stops with a syntax error where a value ends early or cannot
// begin, never reading past the input.
func TestTrustedSkip(t *testing.T) {
	for _, s := range jsonReaderSeeds {
		if !json.Valid([]byte(s)) {
			continue
		}
		d := NewReader([]byte(s))
		d.Trust()
		if got := d.Skip(); d.Err() != nil || string(got) != strings.TrimSpace(s) {
			t.Errorf("%.40q: trusted skip = %.40q, %v", s, got, d.Err())
		}
	}
	for _, s := range []string{``, `{`, `[1,`, `"abc`, `"abc\"`, `{"a":"b`, `]`, `,`, `}`, `[[[[`, `{"a":[}`} {
		d := NewReader([]byte(s))
		d.Trust()
		d.Skip()
		if _, ok := d.Err().(*json.SyntaxError); !ok {
			t.Errorf("%q: trusted skip err = %v, want a *json.SyntaxError", s, d.Err())
		}
	}
	// What it does not check: a fault inside a value it skips whole.
	d := NewReader([]byte(`{"a":tru,"b":[1 2]}`))
	d.Trust()
	if got := d.Skip(); d.Err() != nil || string(got) != `{"a":tru,"b":[1 2]}` {
		t.Errorf("trusted skip = %q, %v; want the value whole, unchecked", got, d.Err())
	}
}

// TestQuietWord: the eight-byte test finds a quote or backslash at every
// position and passes every other byte.
func TestQuietWord(t *testing.T) {
	for pos := range 8 {
		for c := range 256 {
			w := []byte("abcdefgh")
			w[pos] = byte(c)
			want := c != '"' && c != '\\'
			if got := quietWord(binary.LittleEndian.Uint64(w)); got != want {
				t.Errorf("quietWord(%q) = %v, want %v", w, got, want)
			}
		}
	}
	for _, s := range []string{`"`, `ab"`, `abcdefgh"`, `abcdefghijklmnop\\"x"`, `中文字符串很长很长很长"`, `\"abcdefghijk"`} {
		if got, want := closeQuote([]byte(s), 0), stringClose([]byte(s), 0); got != want {
			t.Errorf("closeQuote(%q) = %d, stringClose %d", s, got, want)
		}
	}
}

// stringClose is closeQuote's reference: the index of the quote that
// closes the string whose contents start at b[i], or len(b), found by
// counting the backslashes before each quote.
func stringClose(b []byte, i int) int {
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		end := i + j
		backslashes := 0
		for k := end - 1; k >= i && b[k] == '\\'; k-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return end
		}
		i = end + 1
	}
}
