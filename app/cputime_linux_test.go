package app

import (
	"runtime"
	"runtime/metrics"
	"time"

	"golang.org/x/sys/unix"
)

// onCPU runs f on one OS thread and returns the CPU time that thread spent
// in it: what the call costs, whatever else the machine is doing (a wall
// clock also counts the time other processes had the core). ok is false
// when a garbage collection ran meanwhile: its assists are charged to
// whichever goroutine allocates, and say nothing of the call.
func onCPU(f func()) (took time.Duration, ok bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cycles := gcCycles()
	start := threadCPU()
	f()
	took = threadCPU() - start
	return took, gcCycles() == cycles
}

func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}

var gcSample = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}

// gcCycles counts the collections so far; reading it does not stop the
// world, unlike runtime.ReadMemStats.
func gcCycles() uint64 {
	metrics.Read(gcSample)
	return gcSample[0].Value.Uint64()
}
