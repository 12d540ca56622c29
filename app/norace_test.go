//go:build !race

package app

const timingOff = false
