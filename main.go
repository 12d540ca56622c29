// Command allot is a terminal dashboard and command line for a token
// distribution service. With no configuration it runs on its embedded
// sandbox, so `go run .` shows a working dashboard on a fresh machine.
package main

import (
	"os"
	"runtime/debug"

	"allot/app"
	"allot/app/cli"
)

func main() {
	// A panic outside the dashboard (which restores the terminal itself)
	// still leaves a crash file and one line saying where.
	defer func() {
		if r := recover(); r != nil {
			os.Exit(app.Crash(os.Stderr, r, debug.Stack()))
		}
	}()
	os.Exit(cli.Main(os.Args[1:], cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, app.Run))
}
