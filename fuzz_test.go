package a2a_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	a2a "github.com/caoliao-a2a/a2a-go"
)

// Fuzz targets for what a server sends. Seeds come from testdata and from
// the hostile-server table; inputs the fuzzer finds failing are saved by
// `go test -fuzz` under testdata/fuzz/<Target>/ and run as regression cases
// by every plain `go test`. .ci/run fuzzes each target for a short fixed time.

// replyClient is a fresh client (its first request has id 1) whose every
// call gets status and body, from an in-memory httpmock transport: the
// fuzzers run a whole client call per input without sockets.
func replyClient(t *testing.T, status int, body []byte) *a2a.Client {
	tr := newEchoTransport(string(body))
	tr.status = status
	c, err := a2a.NewClient(mockURL, a2a.WithHTTPClient(&http.Client{Transport: tr}), a2a.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// maxSeed leaves out the table's multi-megabyte bodies: mutating them
// would slow the fuzzer to a crawl without reaching new code.
const maxSeed = 64 << 10

// fuzzStatuses are the HTTP statuses a fuzzed reply comes with.
var fuzzStatuses = []int{200, 200, 200, 201, 204, 400, 401, 429, 500, 502}

// replySeeds returns reply bodies answering request id 1: every JSON file
// in testdata (each element of an array file) and every fixed body of the
// hostile-server table.
func replySeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	for _, reply := range fixtureReplies(f) {
		seeds = append(seeds, withID(reply, json.RawMessage("1")))
	}
	for _, row := range hostileRows(nil) {
		if row.serve == nil && len(row.body) <= maxSeed {
			seeds = append(seeds, []byte(strings.ReplaceAll(row.body, "{{id}}", "1")))
		}
	}
	return seeds
}

// FuzzReply feeds any reply body, with one of several statuses, to
// tasks/get and message/send. Each call must give a result or a typed
// error, never both or neither; and a decoded Task or Message must be
// stable: encoded, decoded again and encoded again it gives the same bytes.
func FuzzReply(f *testing.F) {
	for i, seed := range replySeeds(f) {
		f.Add(seed, uint8(i%len(fuzzStatuses)), i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, body []byte, status uint8, send bool) {
		code := fuzzStatuses[int(status)%len(fuzzStatuses)]
		c := replyClient(t, code, body)
		var res any
		var err error
		if send {
			var r a2a.SendResult
			r, err = c.SendMessage(context.Background(), a2a.NewTextMessage("x"))
			if r != nil {
				res = r
			}
		} else {
			var task *a2a.Task
			task, err = c.GetTask(context.Background(), "t")
			if task != nil {
				res = task
			}
		}
		if (res == nil) == (err == nil) {
			t.Fatalf("result %#v with error %v: want exactly one", res, err)
		}
		if err != nil {
			checkTypedError(t, err)
			return
		}
		first, err := json.Marshal(res)
		if err != nil {
			t.Fatalf("a decoded %T does not encode: %v", res, err)
		}
		again := replyClient(t, 200, []byte(`{"jsonrpc":"2.0","id":1,"result":`+string(first)+`}`))
		var res2 any
		switch res.(type) {
		case *a2a.Task:
			res2, err = again.GetTask(context.Background(), "t")
		case *a2a.Message:
			res2, err = again.SendMessage(context.Background(), a2a.NewTextMessage("x"))
		default:
			t.Fatalf("result of type %T", res)
		}
		if err != nil {
			t.Fatalf("re-encoded %T does not decode: %v\n%s", res, err, first)
		}
		second, err := json.Marshal(res2)
		if err != nil || !bytes.Equal(first, second) {
			t.Fatalf("decode/encode is not stable (%v):\n%s\n%s", err, first, second)
		}
	})
}

// checkTypedError fails unless err is one of the typed errors a reply can
// produce.
func checkTypedError(t *testing.T, err error) {
	t.Helper()
	var (
		pe *a2a.ProtocolError
		re *a2a.RPCError
		he *a2a.HTTPError
		be *a2a.BodyTooLargeError
	)
	if !errors.As(err, &pe) && !errors.As(err, &re) && !errors.As(err, &he) && !errors.As(err, &be) {
		t.Fatalf("untyped error %T: %v", err, err)
	}
	if err.Error() == "" {
		t.Fatal("empty error text")
	}
}

// FuzzParts decodes any JSON as a list of parts. Decoding either fails or
// gives parts whose encoding is stable, and the helpers on them (Text,
// Data, File.Decode, DecodeData) do not panic.
func FuzzParts(f *testing.F) {
	for _, row := range hostileRows(nil) {
		if strings.Contains(row.body, `"parts":`) && len(row.body) <= maxSeed {
			var v struct {
				Result struct {
					Artifacts []struct{ Parts json.RawMessage }
				}
			}
			if json.Unmarshal([]byte(strings.ReplaceAll(row.body, "{{id}}", "1")), &v) == nil {
				for _, a := range v.Result.Artifacts {
					f.Add([]byte(a.Parts))
				}
			}
		}
	}
	f.Add([]byte(`[{"kind":"text","text":"摘要"},{"kind":"data","data":{"a":[1,{"b":null}]}},{"kind":"file","file":{"bytes":"aGk=","name":"a.txt"}}]`))
	f.Add([]byte(`[{"text":"x","data":1},{"kind":"","raw":"aGk="},null,{"kind":"file","file":null}]`))
	f.Fuzz(func(t *testing.T, in []byte) {
		var ps a2a.Parts
		if json.Unmarshal(in, &ps) != nil {
			return
		}
		_ = ps.Text()
		if d, ok := ps.Data(); ok {
			_, _ = a2a.DecodeData[map[string]any](d)
		}
		for _, p := range ps {
			if p == nil {
				t.Fatal("a nil Part in decoded Parts")
			}
			_ = p.Kind()
			if fp, ok := p.(a2a.FilePart); ok {
				_, _ = fp.File.Decode()
			}
		}
		first, err := json.Marshal(ps)
		if err != nil {
			t.Fatalf("decoded parts do not encode: %v", err)
		}
		var ps2 a2a.Parts
		if err := json.Unmarshal(first, &ps2); err != nil {
			t.Fatalf("encoded parts do not decode: %v\n%s", err, first)
		}
		second, err := json.Marshal(ps2)
		if err != nil || !bytes.Equal(first, second) {
			t.Fatalf("decode/encode is not stable (%v):\n%s\n%s", err, first, second)
		}
	})
}
