package app

import (
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// onCPU runs f on one OS thread and returns the CPU time that thread spent
// in it: what the call costs, whatever else the machine is doing (a wall
// clock also counts the time other processes had the core).
func onCPU(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadCPU()
	f()
	return threadCPU() - start
}

func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
