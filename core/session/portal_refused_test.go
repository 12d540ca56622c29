package session

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/api"
	"allot/wallet"
)

// refusingPortal signs in, then refuses the token (the service restarted).
type refusingPortal struct{ wallet.PortalClient }

func (refusingPortal) SignIn(_ context.Context, _, _, _ string) (*api.SignInResult, error) {
	return &api.SignInResult{AccessToken: "t", Expiration: api.Time{Time: time.Now().Add(42 * time.Minute)}}, nil
}

func (refusingPortal) SubmissionAccounts(context.Context, string) (*api.SubmissionAccounts, error) {
	return nil, api.ErrUnauthorized
}

// textSigner signs sign-in messages with a key.
type textSigner struct {
	wallet.Signer
	key *ecdsa.PrivateKey
}

func (s textSigner) Address() common.Address { return crypto.PubkeyToAddress(s.key.PublicKey) }
func (s textSigner) SignText(text []byte) ([]byte, error) {
	return crypto.Sign(accounts.TextHash(text), s.key)
}

// TestPortalRefusalSignsOutEverywhere: once the portal refuses the
// session's token (401), the wallet every screen and the header read
// says signed out. Before, "Signed in as 0x3e3D…; expires in 42m" and the
// header's countdown stayed after "✗ portal session expired (401)".
func TestPortalRefusalSignsOutEverywhere(t *testing.T) {
	key, _ := crypto.GenerateKey()
	signer := textSigner{key: key}
	p, err := wallet.NewPortal(wallet.PortalConfig{Domain: "portal.example", URI: "https://portal.example", ChainID: 1}, refusingPortal{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := p.Prepare(signer.Address())
	if err != nil {
		t.Fatal(err)
	}
	sess, err := p.SignIn(context.Background(), m.String(), signer)
	if err != nil {
		t.Fatal(err)
	}
	var w Wallet
	w.SignedIn(p, sess)
	if _, _, signed := w.Portal(time.Now()); !signed {
		t.Fatal("not signed in after signing in")
	}
	if _, err := p.SubmissionAccounts(context.Background()); !errors.Is(err, wallet.ErrSessionExpired) {
		t.Fatalf("a refused token: %v", err)
	}
	if _, _, signed := w.Portal(time.Now()); signed {
		t.Error("still signed in after the portal refused the token")
	}
}
