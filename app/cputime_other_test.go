//go:build !linux

package app

import "time"

// onCPU times f by the wall clock where a thread's CPU clock is not read.
func onCPU(f func()) (time.Duration, bool) {
	start := time.Now()
	f()
	return time.Since(start), true
}
