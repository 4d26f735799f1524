//go:build !unix

package interop

// cpuTime is 0 where getrusage is not there: no cpu-ns/op is reported.
func cpuTime() int64 { return 0 }
