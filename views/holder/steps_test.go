package holder

import "testing"

// A piece of one period unlocks "in 1 step", not "in 1 steps".
func TestSteps(t *testing.T) {
	for n, want := range map[uint32]string{0: "0 steps", 1: "1 step", 12: "12 steps"} {
		if got := steps(n); got != want {
			t.Errorf("steps(%d) = %q, want %q", n, got, want)
		}
	}
}
