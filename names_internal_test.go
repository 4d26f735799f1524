package a2a

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refNames is checkNames written the slow, obvious way, on json.Decoder
// tokens, to test the byte walker against. It reports only whether there
// is a fault; for JSON that does not decode it reports none (the walker
// may stop anywhere in it, and the decoder reports the real error).
func refNames(body []byte, schema *nameSchema) bool {
	if !json.Valid(body) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	fault, _ := refWalk(dec, schema)
	return fault
}

func refWalk(dec *json.Decoder, s *nameSchema) (fault bool, err error) {
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
			var child *nameSchema
			known := false
			if s != nil && s.names != nil {
				for i, n := range s.names {
					if n == name {
						known, child = true, s.walk[i]
					}
				}
				if known && seen[name] {
					return true, nil
				}
				seen[name] = true
				if !known {
					for _, n := range s.names {
						if strings.EqualFold(n, name) {
							return true, nil
						}
					}
				}
			}
			if f, err := refWalk(dec, child); f || err != nil {
				return f, err
			}
		}
		_, err = dec.Token()
		return false, err
	case json.Delim('['):
		var elem *nameSchema
		if s != nil {
			elem = s.elem
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
		`{"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"t","status":{"state":"failed","State":"x"}}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"artifacts":[{"parts":[{"kind":"data","data":{"Kind":1,"kind":2}},{"file":{"URI":"x"}}]}]}}`,
		`{"jsonrpc":"2.0","id":1,"result":{"history":[{"parts":[{"text":"a\"b\\\\","te\u0078t":"c"}]}]},"result":null}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","Message":"n","data":{"code":2}}}`,
		`{"a":[{"b":"\\\\\\\""}],"ID":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := checkNames(body, replySchema) != ""
		if !json.Valid(body) {
			return // any answer will do; the decoder reports the fault
		}
		if want := refNames(body, replySchema); got != want {
			t.Fatalf("checkNames says fault=%v, the reference %v, for %s", got, want, body)
		}
	})
}

func TestNamesMessages(t *testing.T) {
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"result":{"kind":"task","Status":{}}}`:                         `member "Status" is "status" in another case (JSON names are case-sensitive)`,
		`{"jsonrpc":"2.0","id":1,"result":{"kind":"task","status":{"\u0073tate":1,"state":2}}}`: `member "state" appears twice in one object`,
		`{"jsonrpc":"2.0","id":1,"result":{"kind":"task","metadata":{"Kind":1,"kind":1}}}`:      "",
		`{"jsonrpc":"2.0","id":1,"Result":{}}`:                                                  `member "Result" is "result" in another case (JSON names are case-sensitive)`,
		`not json {"ID":1}`:                                                                     "",
	} {
		if got := checkNames([]byte(body), replySchema); got != want {
			t.Errorf("checkNames(%s) = %q, want %q", body, got, want)
		}
	}
}
