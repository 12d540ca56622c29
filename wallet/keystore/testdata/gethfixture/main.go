// Command gethfixture writes a keystore file with go-ethereum's own
// keystore package, as geth, clef and ethkey do: geth's standard scrypt and
// its UTC--<time>--<address> file name. Run by make-fixtures.sh.
package main

import (
	"fmt"
	"os"

	"github.com/ethereum/go-ethereum/accounts/keystore"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: gethfixture DIR PASSPHRASE")
		os.Exit(2)
	}
	ks := keystore.NewKeyStore(os.Args[1], keystore.StandardScryptN, keystore.StandardScryptP)
	acct, err := ks.NewAccount(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(acct.Address.Hex())
}
