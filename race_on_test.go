//go:build race

package a2a_test

// raceEnabled: the race detector is on; its instrumentation changes what
// allocates, so allocation counts say nothing of this package's own.
const raceEnabled = true
