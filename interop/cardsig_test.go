package interop

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// needA2AJS13 skips (or, under CI, fails) when node or @a2a-js/sdk 1.3.0
// (the npm alias a2a-js-sdk-13 in js/package.json) is missing.
func needA2AJS13(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		needOrSkip(t, "node is not installed; the a2a-js card signer needs Node 20")
	}
	if _, err := os.Stat(filepath.Join("js", "node_modules", "a2a-js-sdk-13")); err != nil {
		needOrSkip(t, "@a2a-js/sdk 1.3.0 is not installed: run (cd interop/js && npm ci)")
	}
}

// runNode runs a script of js/ with args and fails the test, with its
// output, when it fails.
func runNode(t *testing.T, script string, args ...string) string {
	t.Helper()
	cmd := exec.Command("node", append([]string{script}, args...)...)
	cmd.Dir = "js"
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, out)
	}
	return string(out)
}

// TestCardSignaturesA2AJSLive signs a fresh set of test vectors with
// @a2a-js/sdk 1.3.0's generateAgentCardSignature (js/sign-cards.mjs: new
// ECDSA and RSA keys, new signatures, tampered variants derived anew)
// into a temporary directory and runs the Go verifier's vector tests
// (cardsig's TestA2AJSVectors and TestA2AJSVectorsSpecFormOnly, through
// CARDSIG_A2AJS_DIR) on it: the committed vectors in
// cardsig/testdata/a2ajs are not a one-off. Then a2a-js's own
// verifyAgentCardSignature judges the fresh set and the committed one
// (js/verify-cards.mjs): each vector as its manifest says a2a-js does.
func TestCardSignaturesA2AJSLive(t *testing.T) {
	needA2AJS13(t)
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH to run cardsig's tests with")
	}
	fresh := t.TempDir()
	runNode(t, "sign-cards.mjs", fresh)

	test := exec.Command("go", "test", "-count=1", "-run", "^TestA2AJSVectors", "-v", "./cardsig")
	test.Dir = ".."
	test.Env = append(os.Environ(), "CARDSIG_A2AJS_DIR="+fresh)
	out, err := test.CombinedOutput()
	if err != nil {
		t.Fatalf("cardsig's vector tests on a fresh set: %v\n%s", err, out)
	}
	// The fresh set was the one checked, every vector of it.
	if !strings.Contains(string(out), fresh) || strings.Count(string(out), "--- PASS: TestA2AJSVectors/") < 40 {
		t.Fatalf("cardsig's vector tests did not check the fresh set:\n%s", out)
	}

	committed, err := filepath.Abs(filepath.Join("..", "cardsig", "testdata", "a2ajs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{fresh, committed} {
		got := runNode(t, "verify-cards.mjs", dir)
		if n := strings.Count(got, "\nok ") + 1; !strings.HasPrefix(got, "ok ") || n < 40 {
			t.Fatalf("verify-cards.mjs %s checked %d vectors:\n%s", dir, n, got)
		}
	}
}
