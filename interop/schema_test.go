package interop

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaPath finds the official A2A v0.3.0 JSON schema: $A2A_SCHEMA, or the
// copy in ../../shared/spec beside this project's checkout.
func schemaPath() string {
	if p := os.Getenv("A2A_SCHEMA"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "shared", "spec", "a2a-v0.3.0.schema.json")
}

var (
	schemaOnce sync.Once
	compiler   *jsonschema.Compiler
	schemaErr  error
	schemas    sync.Map // definition name → *jsonschema.Schema
)

// schemaFor compiles #/definitions/name of the A2A schema, or skips the test
// with a message saying what it needs when the schema file is absent.
func schemaFor(t testing.TB, name string) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		f, err := os.Open(schemaPath())
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			schemaErr = err
			return
		}
		compiler = jsonschema.NewCompiler()
		schemaErr = compiler.AddResource("a2a.json", doc)
	})
	if os.IsNotExist(schemaErr) {
		t.Skipf("A2A v0.3.0 JSON schema not found at %s: set A2A_SCHEMA to a copy of specification/json/a2a.json from github.com/a2aproject/A2A tag v0.3.0", schemaPath())
	}
	if schemaErr != nil {
		t.Fatalf("load schema: %v", schemaErr)
	}
	if s, ok := schemas.Load(name); ok {
		return s.(*jsonschema.Schema)
	}
	s, err := compiler.Compile("a2a.json#/definitions/" + name)
	if err != nil {
		t.Fatalf("compile %s: %v", name, err)
	}
	schemas.Store(name, s)
	return s
}

// validate checks body against #/definitions/name.
func validate(t testing.TB, name string, body []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return err
	}
	return schemaFor(t, name).Validate(inst)
}

// requestSchema maps each JSON-RPC method the client sends to its schema
// definition.
var requestSchema = map[string]string{
	"message/send":                        "SendMessageRequest",
	"message/stream":                      "SendStreamingMessageRequest",
	"tasks/get":                           "GetTaskRequest",
	"tasks/cancel":                        "CancelTaskRequest",
	"tasks/resubscribe":                   "TaskResubscriptionRequest",
	"tasks/pushNotificationConfig/set":    "SetTaskPushNotificationConfigRequest",
	"tasks/pushNotificationConfig/get":    "GetTaskPushNotificationConfigRequest",
	"tasks/pushNotificationConfig/list":   "ListTaskPushNotificationConfigRequest",
	"tasks/pushNotificationConfig/delete": "DeleteTaskPushNotificationConfigRequest",
	"agent/getAuthenticatedExtendedCard":  "GetAuthenticatedExtendedCardRequest",
}

// validateRequests checks every captured request body against the schema.
func validateRequests(t *testing.T, bodies [][]byte) {
	t.Helper()
	if len(bodies) == 0 {
		t.Fatal("no requests captured")
	}
	for i, b := range bodies {
		var env struct{ Method string }
		if err := json.Unmarshal(b, &env); err != nil {
			t.Fatalf("request %d is not JSON: %s", i, b)
		}
		def, ok := requestSchema[env.Method]
		if !ok {
			t.Errorf("request %d: method %q has no schema mapping", i, env.Method)
			continue
		}
		if err := validate(t, def, b); err != nil {
			t.Errorf("request %d (%s) is not a valid %s:\n%s\n%v", i, env.Method, def, b, err)
		}
	}
}

// TestTestdataAgainstSchema validates every protocol object in the root
// testdata/ against the schema. Two fixtures are off-spec on purpose and
// must stay so, or they no longer test what they are for.
func TestTestdataAgainstSchema(t *testing.T) {
	schemaFor(t, "JSONRPCResponse") // skip early when the schema is absent
	tests := []struct {
		file, def string
		valid     bool
		why       string
	}{
		{"send_completed_entity.json", "SendMessageResponse", true, ""},
		{"send_message_reply.json", "SendMessageResponse", true, ""},
		{"get_task.json", "GetTaskResponse", true, ""},
		{"input_required.json", "SendMessageResponse", true, ""},
		{"canceled.json", "CancelTaskResponse", true, ""},
		{"error_task_not_found.json", "JSONRPCErrorResponse", true, ""},
		{"error_method_not_found.json", "JSONRPCErrorResponse", true, ""},
		{"gateway_sequence.json#0", "SendMessageResponse", true, ""},
		{"gateway_sequence.json#1", "GetTaskResponse", true, ""},
		{"gateway_sequence.json#2", "GetTaskResponse", true, ""},
		{"card_dual_go.json", "AgentCard", true, ""},
		{"card_dual_js.json", "AgentCard", true, ""},
		{"card_dual_python.json", "AgentCard", true, ""},
		{"card_v10.json", "AgentCard", false, "is an A2A v1.0 card (supportedInterfaces, no url, wrapper-form security schemes), which the v0.3 schema does not describe; TestV10CardFixturesAgainstProto checks it"},
		{"send_failed.json", "SendMessageResponse", false, "copied from the Caoliao docs, which omit the required contextId and messageId"},
		{"unknown_state.json", "GetTaskResponse", false, "carries a state and a part kind from the future on purpose"},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			name, idx, _ := cutIndex(tt.file)
			seen[name] = true
			b, err := os.ReadFile(filepath.Join("..", "testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			if idx >= 0 {
				var seq []json.RawMessage
				if err := json.Unmarshal(b, &seq); err != nil {
					t.Fatal(err)
				}
				b = seq[idx]
			}
			err = validate(t, tt.def, b)
			if tt.valid && err != nil {
				t.Errorf("not a valid %s: %v", tt.def, err)
			}
			if !tt.valid && err == nil {
				t.Errorf("validates as %s, but it is kept off-spec because it %s", tt.def, tt.why)
			}
		})
	}
	all, _ := filepath.Glob(filepath.Join("..", "testdata", "*.json"))
	for _, f := range all {
		if !seen[filepath.Base(f)] {
			t.Errorf("testdata/%s is not validated: add it to this table", filepath.Base(f))
		}
	}
}

// cutIndex splits "file.json#2" into the file and index 2 (-1 if none).
func cutIndex(s string) (string, int, bool) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '#' {
			n := 0
			for _, c := range s[i+1:] {
				n = n*10 + int(c-'0')
			}
			return s[:i], n, true
		}
	}
	return s, -1, false
}

// TestSchemaRejectsBadRequests proves the validator is not vacuous: requests
// a careless client could send fail it.
func TestSchemaRejectsBadRequests(t *testing.T) {
	msg := `{"kind":"message","role":"user","messageId":"m1","parts":[{"kind":"text","text":"hi"}]}`
	good := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":` + msg + `}}`
	if err := validate(t, "SendMessageRequest", []byte(good)); err != nil {
		t.Fatalf("a good request fails: %v", err)
	}
	for name, body := range map[string]string{
		"no kind on message": `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"role":"user","messageId":"m1","parts":[{"kind":"text","text":"hi"}]}}}`,
		"no kind on part":    `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","messageId":"m1","parts":[{"text":"hi"}]}}}`,
		"fractional id":      `{"jsonrpc":"2.0","id":1.5,"method":"message/send","params":{"message":` + msg + `}}`,
		"no messageId":       `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","role":"user","parts":[]}}}`,
		"blocking as string": `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":` + msg + `,"configuration":{"blocking":"yes"}}}`,
	} {
		if err := validate(t, "SendMessageRequest", []byte(body)); err == nil {
			t.Errorf("%s: validates", name)
		}
	}
	if err := validate(t, "GetTaskRequest", []byte(`{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{}}`)); err == nil {
		t.Error("tasks/get without params.id validates")
	}
}
