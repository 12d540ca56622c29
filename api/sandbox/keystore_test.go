package sandbox

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/google/uuid"
)

var updateDemoKeystore = flag.Bool("update-demo-keystore", false, "encrypt the demo wallets' keystore files again into demokeystore/")

// keystoreID is the id of demo wallet n's keystore file.
func keystoreID(n int) uuid.UUID { return uuid.NewSHA1(namespace, fmt.Appendf(nil, "keystore/%d", n)) }

// TestDemoKeystore checks that the embedded keystore files hold the demo
// wallets' keys under their passphrases, with the demo's scrypt parameters;
// with -update-demo-keystore it writes them first.
func TestDemoKeystore(t *testing.T) {
	w := &World{}
	if err := w.seedWallets(); err != nil {
		t.Fatal(err)
	}
	if *updateDemoKeystore {
		for _, wallet := range w.Wallets {
			key := &keystore.Key{Id: keystoreID(wallet.Index), Address: wallet.Address, PrivateKey: wallet.Key}
			data, err := keystore.EncryptKey(key, wallet.Passphrase, demoScryptN, demoScryptP)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("demokeystore", fmt.Sprintf("wallet-%d.json", wallet.Index)), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Skip("the demo keystore files were encrypted again: run without -update-demo-keystore to check them")
	}
	files, err := fs.Glob(demoKeystore, "demokeystore/*.json")
	if err != nil || len(files) != DemoWallets {
		t.Fatalf("%d embedded keystore files (%v), want %d", len(files), err, DemoWallets)
	}
	for _, wallet := range w.Wallets {
		data, err := demoKeyFile(wallet.Index, wallet.Address)
		if err != nil {
			t.Fatal(err)
		}
		var params struct {
			Crypto struct {
				KDFParams struct{ N, P int } `json:"kdfparams"`
			} `json:"crypto"`
		}
		if err := json.Unmarshal(data, &params); err != nil || params.Crypto.KDFParams.N != demoScryptN || params.Crypto.KDFParams.P != demoScryptP {
			t.Errorf("wallet %d: scrypt n = %d, p = %d (%v), want %d and %d", wallet.Index, params.Crypto.KDFParams.N, params.Crypto.KDFParams.P, err, demoScryptN, demoScryptP)
		}
		key, err := keystore.DecryptKey(data, wallet.Passphrase)
		if err != nil {
			t.Fatalf("wallet %d: %v", wallet.Index, err)
		}
		if !bytes.Equal(crypto.FromECDSA(key.PrivateKey), crypto.FromECDSA(wallet.Key)) || key.Id != keystoreID(wallet.Index) {
			t.Errorf("wallet %d: the keystore file holds another key or id (%s)", wallet.Index, key.Id)
		}
	}
	// A file is refused for another wallet's address.
	if _, err := demoKeyFile(0, w.Wallets[1].Address); err == nil {
		t.Error("wallet 0's file was accepted for wallet 1's address")
	}
}
