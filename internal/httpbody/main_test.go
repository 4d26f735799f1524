package httpbody

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the run if any test leaves a goroutine behind (an idle
// timer's, a stream held open).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
