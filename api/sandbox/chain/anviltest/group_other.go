//go:build !unix

package anviltest

import "os/exec"

func ownGroup(*exec.Cmd) {}

// signalGroup ends anvil; without process groups, only the process started.
func signalGroup(cmd *exec.Cmd, _ bool) { cmd.Process.Kill() }
