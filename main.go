// Command allot is a terminal dashboard and command line for a token
// distribution service. With no configuration it runs on its embedded
// sandbox, so `go run .` shows a working dashboard on a fresh machine.
package main

import (
	"os"

	"allot/app"
	"allot/app/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, app.Run))
}
