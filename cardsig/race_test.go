//go:build race

package cardsig

// raceOn: the race detector is on, and allocates beside the code measured.
const raceOn = true
