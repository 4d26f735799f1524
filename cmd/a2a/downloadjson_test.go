package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caoliao-a2a/a2a-go/a2atest"
)

// TestDownloadJSONOneDocument: task download -o json prints one document,
// {"saved":[paths]}, or after an error the envelope alone (the files
// saved before it named on stderr), as every command's -o json does.
func TestDownloadJSONOneDocument(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, a2atest.V10())
	id := startTask(t, agent, "1.0", "这个二维码是什么？"+a2atest.SeedQRCode)
	dir := t.TempDir()
	r := a2aCmd(t, "task", "download", "-e", agent.URL, "--dir", dir, "-o", "json", id)
	r.wantCode(t, exitOK)
	var doc struct{ Saved []string }
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil || strings.Count(r.stdout, "\n") != 1 || len(doc.Saved) == 0 {
		t.Fatalf("stdout is not one document naming the files (%v):\n%s", err, r.stdout)
	}
	for _, p := range doc.Saved {
		if _, err := os.Stat(p); err != nil || filepath.Dir(p) != dir {
			t.Errorf("saved %q: %v", p, err)
		}
	}
	// Again: the files exist, a usage error; the envelope alone.
	r = a2aCmd(t, "task", "download", "-e", agent.URL, "--dir", dir, "-o", "json", id)
	r.wantCode(t, exitUsage)
	if strings.Count(r.stdout, "\n") != 1 || !strings.HasPrefix(r.stdout, `{"error":{"code":"A2ACLI_ERR_USAGE",`) {
		t.Errorf("stdout is not the envelope alone:\n%s", r.stdout)
	}
}
