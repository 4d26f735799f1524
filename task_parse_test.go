package a2a_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/caoliao-a2a/a2a-go"
)

// allFields compares every field of the model types, unexported ones
// (the bytes kept for Raw) included; raw JSON byte for byte, at once.
var allFields = cmp.Options{
	cmp.Exporter(func(reflect.Type) bool { return true }),
	cmp.Comparer(func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }),
}

// parseSeeds are tasks of both versions as they are stored, and results
// that are not tasks or not JSON, from the fixtures and the hostile rows.
func parseSeeds(t testing.TB) []string {
	var out []string
	for _, raw := range fixtureResults(t) {
		out = append(out, string(raw))
	}
	for _, s := range v10StoredResults {
		out = append(out, s)
	}
	for _, row := range hostileRows("") {
		if i := strings.Index(row.body, `"result":`); i >= 0 && len(row.body) <= maxSeed {
			out = append(out, strings.TrimSuffix(strings.TrimSpace(row.body[i+len(`"result":`):]), "}"))
		}
	}
	return out
}

// parseMatches fails t unless ParseTask(in) is json.Unmarshal into a Task:
// the same error type, or the same task, every field compared. A JSON null,
// which json.Unmarshal takes as "leave the task as it is", ParseTask
// refuses.
func parseMatches(t *testing.T, in []byte) {
	t.Helper()
	var want a2a.Task
	wantErr := json.Unmarshal(in, &want)
	got, err := a2a.ParseTask(in)
	if err != nil && got != nil {
		t.Fatalf("ParseTask(%q) returned a task and %v", in, err)
	}
	if string(bytes.Trim(in, " \t\r\n")) == "null" {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Value != "null" {
			t.Fatalf("ParseTask(null): %v, want a *json.UnmarshalTypeError of null", err)
		}
		return
	}
	if (err == nil) != (wantErr == nil) || reflect.TypeOf(err) != reflect.TypeOf(wantErr) {
		t.Fatalf("ParseTask(%q): %T %v; json.Unmarshal: %T %v", in, err, err, wantErr, wantErr)
	}
	if err != nil {
		if err.Error() != wantErr.Error() || offset(err) != offset(wantErr) {
			t.Fatalf("ParseTask(%q): %v (offset %d); json.Unmarshal: %v (offset %d)", in, err, offset(err), wantErr, offset(wantErr))
		}
		return
	}
	if diff := cmp.Diff(&want, got, allFields); diff != "" {
		t.Fatalf("ParseTask(%q) differs from json.Unmarshal (-json +parse):\n%s", in, diff)
	}
}

// offset is the offset a *json.SyntaxError or *json.UnmarshalTypeError
// gives, or -1.
func offset(err error) int64 {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return se.Offset
	case errors.As(err, &te):
		return te.Offset
	}
	return -1
}

// TestParseTaskIsUnmarshal: ParseTask decodes every stored task, of either
// version, with or without whitespace around it, to the task json.Unmarshal
// gives, Raw included, and refuses what json.Unmarshal refuses with the
// same error.
func TestParseTaskIsUnmarshal(t *testing.T) {
	for _, in := range parseSeeds(t) {
		parseMatches(t, []byte(in))
		parseMatches(t, []byte(" \n\t"+in+"\r\n"))
	}
	for _, in := range []string{
		``, ` `, `null`, ` null `, `1`, `"task"`, `[]`, `{}`, `{"id":1}`, `{"ID":"t"}`, `{"id":"t","id":"u"}`,
		`{"kind":"task","id":"t","status":{"state":"completed"}} x`,
		`{"kind":"task","id":"t","status":{"state":"completed"}}{}`,
		`{"kind":"task","id":"t","status":{"state":"completed"},"metadata":{"a":}}`,
		`{"kind":"task","id":"t","artifacts":[{"parts":[{"kind":"data","data":[1,]}]}]}`,
		`{"kind":"task","id":"t","artifacts":[{"parts":[{"kind":"file","file":1}]}]}`,
		`{"id":"t","artifacts":[{"parts":[{"data":{"a":tru}}]}]}`,
		"{\"id\":\"t\xff\"}", "\v{}", "{}\u00a0", ` [ ] `, " \n{\"kind\":\"task\",\"id\":-0}",
		`{"id":"a","artifacts":[{"parts":[{"text":"x","data":{}}]}]}`,
	} {
		parseMatches(t, []byte(in))
	}
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	for _, n := range []int{9990, 10001, 100000} {
		parseMatches(t, []byte(`{"kind":"task","id":"t","metadata":{"a":`+deep(n)+`}}`))
		parseMatches(t, []byte(`{"id":"t","artifacts":[{"parts":[{"data":`+deep(n)+`}]}]}`))
	}
	big := `{"kind":"task","id":"t","status":{"state":"completed"},"artifacts":[{"artifactId":"a","parts":[{"kind":"data","data":{"rows":[` +
		strings.Repeat(`{"设备":"正常\u00e9","n":1.5e3,"ok":true},`, 30000) + `null]}}]}]}`
	parseMatches(t, []byte(big))
	parseMatches(t, []byte(big[:len(big)-9]))
	// Past the memory budget of its size (4 bytes a byte and 2 MiB):
	// json.Unmarshal's budget is the task's, without the whitespace around
	// it, and a syntax error after the point the budget runs out is the
	// error.
	parts := `{"id":"t","artifacts":[{"parts":[` + strings.Repeat(`{"text":""},`, 49932) + `{"text":""}]}]}`
	for _, pad := range []int{0, 1, 16, 4096} {
		parseMatches(t, []byte(parts+strings.Repeat(" ", pad)))
		parseMatches(t, []byte(strings.Repeat("\n", pad)+parts))
	}
	empties := `{"kind":"task","id":"t","artifacts":[` + strings.Repeat(`{},`, 100000) + `{}]}`
	parseMatches(t, []byte(empties))
	parseMatches(t, []byte(empties+" x"))
	parseMatches(t, []byte(empties[:len(empties)-1]+`,"metadata":{"a":}}`))
}

// TestParseTaskKeepsNoReference: the task ParseTask returns does not share
// the caller's bytes, which may be reused.
func TestParseTaskKeepsNoReference(t *testing.T) {
	in := []byte(v10StoredResults["every member"])
	task, err := a2a.ParseTask(in)
	if err != nil {
		t.Fatal(err)
	}
	want := string(in)
	for i := range in {
		in[i] = ' '
	}
	if string(task.Raw()) != want {
		t.Fatalf("Raw changed with the caller's bytes: %s", task.Raw())
	}
	if d, ok := task.Artifacts[0].Parts.Data(); !ok || string(d.Data) != `{"设备":"正常"}` {
		t.Fatalf("data part changed with the caller's bytes: %s", d.Data)
	}
}

// FuzzParseTask: whatever the bytes, ParseTask agrees with json.Unmarshal
// into a Task (the same task, or the same error), and does not panic.
func FuzzParseTask(f *testing.F) {
	for _, in := range parseSeeds(f) {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) { parseMatches(t, in) })
}

func ExampleParseTask() {
	stored := []byte(`{"kind":"task","id":"task-42","contextId":"ctx-1","status":{"state":"completed"},` +
		`"artifacts":[{"artifactId":"a1","name":"entity","parts":[{"kind":"text","text":"设备正常"}]}]}`)
	// snippet: parse-task
	task, err := a2a.ParseTask(stored) // stored: a task's JSON, as json.Marshal or Task.Raw gave it
	// snippet end
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(task.ID, task.Status.State, task.Artifact("entity").Text())
	// Output: task-42 completed 设备正常
}
