package interop

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind, the client's or
// the in-process peer's, and removes the a2a command the CLI tests built.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(cleanupM{m})
}

// cleanupM runs the tests, then removes what they left on disk.
type cleanupM struct{ m *testing.M }

func (c cleanupM) Run() int {
	defer removeCLIBuild()
	return c.m.Run()
}
