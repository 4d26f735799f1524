//go:build !race

package a2a_test

// raceEnabled: the race detector is off.
const raceEnabled = false
