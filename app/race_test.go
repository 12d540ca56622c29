//go:build race

package app

// timingOff: the race detector makes every call several times slower,
// so the monkey's time budget says nothing under it.
const timingOff = true
