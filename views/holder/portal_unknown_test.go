package holder

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/api"
	"allot/core/session"
	"allot/views"
	"allot/wallet"
)

// signingPortal signs anyone in.
type signingPortal struct{ wallet.PortalClient }

func (signingPortal) SignIn(_ context.Context, _, _, _ string) (*api.SignInResult, error) {
	return &api.SignInResult{AccessToken: "t", Expiration: api.Time{Time: time.Now().Add(42 * time.Minute)}}, nil
}

// keySigner signs sign-in messages with a key.
type keySigner struct {
	wallet.Signer
	address common.Address
	sign    func([]byte) ([]byte, error)
}

func (s keySigner) Address() common.Address              { return s.address }
func (s keySigner) SignText(text []byte) ([]byte, error) { return s.sign(text) }

// TestFailedSubmissionReadIsUnknown: a submission read that failed says
// its facts are unknown, with the error; before, the zero answer the
// client returns beside its error read "submitted no · humanity passed no".
func TestFailedSubmissionReadIsUnknown(t *testing.T) {
	key, _ := crypto.GenerateKey()
	signer := keySigner{address: crypto.PubkeyToAddress(key.PublicKey),
		sign: func(text []byte) ([]byte, error) { return crypto.Sign(accounts.TextHash(text), key) }}
	pt, err := wallet.NewPortal(wallet.PortalConfig{Domain: "portal.example", URI: "https://portal.example", ChainID: 1}, signingPortal{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := pt.Prepare(signer.Address())
	if err != nil {
		t.Fatal(err)
	}
	sess, err := pt.SignIn(context.Background(), m.String(), signer)
	if err != nil {
		t.Fatal(err)
	}
	w := &session.Wallet{}
	w.SignedIn(pt, sess)
	p := NewPortal(&views.Context{Wallet: w, Now: time.Now}).(*portal)
	p.SetSize(100, 30)
	if p.loadSubmission() == nil {
		t.Fatal("no read of the submission while signed in")
	}
	failed := &api.UnexpectedResponseError{Op: "submission/accounts", Status: 500, Reason: "injected fault (500)"}
	p.Update(views.Loaded[*api.SubmissionAccounts]{Seq: p.seq, Value: &api.SubmissionAccounts{}, Err: failed})
	v := p.View()
	if strings.Contains(v, "submitted no") || strings.Contains(v, "humanity passed no") {
		t.Errorf("a failed read made up its answer:\n%s", v)
	}
	if !strings.Contains(v, "submitted unknown · humanity passed unknown") || !strings.Contains(v, "injected fault (500)") {
		t.Errorf("a failed read is not said unknown with its error:\n%s", v)
	}
}
