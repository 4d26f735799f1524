package interop

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that no test leaves a goroutine behind, the client's or
// the in-process peer's.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
