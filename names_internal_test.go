package a2a

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/caoliao-a2a/a2a-go/internal/jsonread"
)

// refNames is jsonread.CheckNames written the slow, obvious way, on
// json.Decoder tokens, to test the byte walker against. It reports only whether there
// is a fault; for JSON that does not decode it reports none (the walker
// may stop anywhere in it, and the decoder reports the real error).
func refNames(body []byte, schema *jsonread.Schema) bool {
	if !json.Valid(body) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	fault, _ := refWalk(dec, schema)
	return fault
}

func refWalk(dec *json.Decoder, s *jsonread.Schema) (fault bool, err error) {
	tok, err := dec.Token()
	if err != nil {
		return false, err
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return false, err
			}
			name := k.(string)
			var child *jsonread.Schema
			known := false
			switch {
			case s != nil && s.Set() != nil:
				for i, n := range s.Set().Names() {
					if n == name {
						known, child = true, s.Member(i)
					}
				}
				if known && seen[name] {
					return true, nil
				}
				seen[name] = true
				if !known {
					for _, n := range s.Set().Names() {
						if strings.EqualFold(n, name) {
							return true, nil
						}
					}
				}
			case s != nil:
				child = s.Values()
			}
			if f, err := refWalk(dec, child); f || err != nil {
				return f, err
			}
		}
		_, err = dec.Token()
		return false, err
	case json.Delim('['):
		var elem *jsonread.Schema
		if s != nil {
			elem = s.Elem()
		}
		for dec.More() {
			if f, err := refWalk(dec, elem); f || err != nil {
				return f, err
			}
		}
		_, err = dec.Token()
		return false, err
	}
	return false, nil
}

// cardSchema is the schema of an agent card, the largest one derived.
var cardSchema = schemas.Of(reflect.TypeFor[AgentCard]())

// FuzzNames: the byte walker finds a fault exactly where the token-based
// reference does, on any valid JSON, and never panics or loops on invalid
// JSON.
func FuzzNames(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		`{"name":"a","url":"u","capabilities":{"streaming":true,"Streaming":false}}`,
		`{"url":"u","skills":[{"id":"s","tags":["t"],"ID":"x"}],"securitySchemes":{"Key":{"type":"apiKey","Type":"x"}}}`,
		`{"url":"u","additionalInterfaces":[{"url":"a","transport":"JSONRPC","u\u0072l":"b"}],"url":"v"}`,
		`{"url":"u","signatures":[{"header":{"Kid":1,"kid":2}}],"provider":{"URL":"x"}}`,
		`{"a":[{"b":"\\\\\\\""}],"NAME":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := jsonread.CheckNames(body, cardSchema) != nil
		if !json.Valid(body) {
			return // any answer will do; the decoder reports the fault
		}
		if want := refNames(body, cardSchema); got != want {
			t.Fatalf("CheckNames says fault=%v, the reference %v, for %s", got, want, body)
		}
	})
}

func TestNamesMessages(t *testing.T) {
	for body, want := range map[string]string{
		`{"url":"u","Capabilities":{}}`:                                        `member "Capabilities" is "capabilities" in another case (JSON names are case-sensitive)`,
		`{"url":"u","capabilities":{"\u0073treaming":true,"streaming":false}}`: `member "streaming" appears twice in one object`,
		`{"url":"u","skills":[{"id":"s","tags":[]},{"ID":"x"}]}`:               `member "ID" is "id" in another case (JSON names are case-sensitive)`,
		`{"url":"u","securitySchemes":{"Key":{"type":"apiKey"},"key":{}}}`:     "",
		`{"url":"u","capabilities":{"extensions":[{"params":{"URI":1}}]}}`:     "",
		`not json {"URL":1}`: "",
	} {
		got := ""
		if err := jsonread.CheckNames([]byte(body), cardSchema); err != nil {
			got = err.Error()
		}
		if got != want {
			t.Errorf("jsonread.CheckNames(%s) = %q, want %q", body, got, want)
		}
	}
}
