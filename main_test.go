package a2a_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind (DESIGN.md
// behaviour 7: no goroutine outlives a call).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
