package interop

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// TestCLIGoPeerV10 builds the a2a command and runs card, send --wait and
// stream against github.com/a2aproject/a2a-go/v2's JSON-RPC server (the
// peer of gopeer_v10_test.go), with --protocol auto: the CLI must find
// v1.0 from the peer's card and speak it.
func TestCLIGoPeerV10(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH to build a2a with")
	}
	bin := filepath.Join(t.TempDir(), "a2a")
	build := exec.Command("go", "build", "-o", bin, "github.com/caoliao-a2a/a2a-go/cmd/a2a")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	p := startV10Peer(t)

	for _, tc := range []struct {
		name   string
		args   []string
		want   []string // lines stdout holds, in order
		before func()
	}{
		{"card", []string{"card", p.base}, []string{
			v10CardName + " (version 1.0.0)",
			"   * " + p.endpoint + "  JSONRPC 1.0",
			"  capabilities: streaming true, push notifications true, extended card true",
			"    lookup: Lookup",
		}, nil},
		{"send --wait", []string{"send", "--wait", "-v", p.endpoint, "entity"}, []string{
			": completed",
			"  artifact entity:",
			"    text: " + a2atest.EntitySummary[:len("数控车床-A08-03-06")],
			`        "title": "数控车床-A08-03-06"`,
		}, nil},
		{"stream", []string{"stream", p.endpoint, "stream"}, []string{
			" submitted",
			"event: status working",
			"event: artifact story (1 parts)",
			"event: artifact chunk art-1 (1 parts)", // the chunk has no name: its id
			"event: status completed",
			"--",
			": completed",
			"  artifact story:",
			"    text: 第一段\n          第二段", // the text's line break kept, its next line indented
		}, nil},
		// The peer answers at once with the task working; the poll reads
		// it until it completes (its gate open from the start).
		{"send --no-block --wait", []string{"send", "--no-block", "--wait", p.endpoint, "slow"}, []string{
			": completed",
			"  artifact result:",
			"    text: done",
		}, p.gates.openAll},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.before != nil {
				tc.before()
			}
			cmd := exec.CommandContext(testCtx(t), bin, tc.args...)
			cmd.Env = []string{"PATH=" + os.Getenv("PATH")} // no A2A_* of the machine's
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil { // exit 0 for each
				t.Fatalf("a2a %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), err, &stdout, &stderr)
			}
			out := stdout.String()
			for _, line := range tc.want {
				i := strings.Index(out, line)
				if i < 0 {
					t.Fatalf("a2a %s: stdout does not hold %q after what came before:\n%s", tc.args[0], line, stdout.String())
				}
				out = out[i+len(line):]
			}
			if tc.name == "send --wait" {
				if want := "a2a: protocol: v1.0, from the card's interface for " + p.endpoint; !strings.Contains(stderr.String(), want) {
					t.Errorf("-v does not say %q:\n%s", want, &stderr)
				}
			}
		})
	}
}
