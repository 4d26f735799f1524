//go:build !unix

package a2a_test

import "time"

// cpuTime is 0 where getrusage is not: the CPU metrics are then 0.
func cpuTime() time.Duration { return 0 }
