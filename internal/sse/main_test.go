package sse

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind (the
// readers its tests run in goroutines must all have returned).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
