//go:build unix

package interop

import "syscall"

// cpuTime is the CPU time the process has used, user and system, in
// nanoseconds: every thread's, the in-process server's and the GC's
// included.
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
