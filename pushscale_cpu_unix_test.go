//go:build unix

package a2a_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has spent, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
