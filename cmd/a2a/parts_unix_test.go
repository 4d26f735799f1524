//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestPartsFifo: a fifo given to --file or --data is refused before it is
// opened (opening one blocks until a writer comes: a hang).
func TestPartsFifo(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, flagName := range []string{"--file", "--data"} {
		_, err := buildParts(t, nil, "", 100, flagName, fifo)
		wantUsage(t, err, flagName+" "+fifo+" is not a regular file (a fifo)")
	}
}
