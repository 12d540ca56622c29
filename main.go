// Command allot is a terminal dashboard and command line for a token
// distribution service. With no configuration it runs on its embedded
// sandbox, so `go run .` works on a fresh machine.
package main

import (
	"context"
	"errors"
	"os"

	"allot/app/cli"
	"allot/app/session"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, dashboard))
}

// dashboard is where the interactive program will start; until it lands,
// allot says so rather than pretending.
func dashboard(context.Context, *session.Session) error {
	return errors.New("the dashboard is not built yet; the headless commands work: run 'allot help'")
}
