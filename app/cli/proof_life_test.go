package cli

import (
	"context"
	"encoding/json"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"allot/api/sandbox"
	amountfmt "allot/internal/amount"
	"allot/wallet"
	"allot/wallet/vesterabi"
)

// lifeJSON is what `proof --verify -o json` says of an allocation's life
// on its vester.
type lifeJSON struct {
	Outcome            string           `json:"outcome"`
	Vester             common.Address   `json:"vester"`
	State              string           `json:"state"`
	Recipient          common.Address   `json:"recipient"`
	Withdrawn          string           `json:"withdrawn"`
	CancelledAt        *string          `json:"cancelledAt"`
	Revoked            bool             `json:"revoked"`
	Transferred        bool             `json:"transferred"`
	Underfunded        bool             `json:"underfunded"`
	VesterBalance      string           `json:"vesterBalance"`
	Claimable          string           `json:"claimable"`
	ClaimableBaseUnits string           `json:"claimableBaseUnits"`
	DirectClaim        bool             `json:"directClaim"`
	PostClaimHandlers  []common.Address `json:"postClaimHandlers"`
}

// TestProofVerifyEachSeededState: for every allocation the sandbox seeds
// in a state of its life (docs/deployment.md D18), `proof --verify -o
// json` says that state, and its claimable is, to the wei, what the
// vester's withdraw pays: an eth_call of a withdraw of exactly that
// amount goes through, one of a wei more reverts, and withdraw(0), which
// takes all, goes through exactly when something is claimable. The table
// says the state in words.
func TestProofVerifyEachSeededState(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	ctx := context.Background()
	sender := common.HexToAddress(s.Fixtures.Wallets[0].Address) // holds ether for the fee
	for _, id := range slices.Concat(s.Fixtures.AllocationIDs[:1], s.Fixtures.LifeAllocationIDs) {
		seeded := s.Fixtures.AllocationStates[id]
		t.Run(seeded, func(t *testing.T) {
			r := runCLI(t, s, nil, "proof", id, "--verify", "-o", "json")
			var got lifeJSON
			if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != 0 || got.Outcome != "PASS" {
				t.Fatalf("exit %d, %v:\n%s%s", r.code, err, r.stdout, r.stderr)
			}
			want := map[string]string{sandbox.StateCancelled: "cancelled", sandbox.StateRevoked: "revoked"}[seeded]
			if want == "" {
				want = "active"
			}
			if got.State != want || got.Revoked != (seeded == sandbox.StateRevoked) || (got.CancelledAt != nil) != (seeded == sandbox.StateCancelled) ||
				got.Transferred != (seeded == sandbox.StateTransferred) || got.Underfunded != (seeded == sandbox.StateUnderfunded) ||
				got.DirectClaim != (seeded != sandbox.StateThroughHandler) || (seeded == sandbox.StateClaimedInPart) != (got.Withdrawn != "0" && !got.Revoked) {
				t.Errorf("seeded %s, proof --verify says %+v", seeded, got)
			}
			claimable, ok := new(big.Int).SetString(got.ClaimableBaseUnits, 10)
			if !ok {
				t.Fatalf("claimableBaseUnits %q", got.ClaimableBaseUnits)
			}
			proof, err := wallet.DecodeProof([]byte(r.stdout))
			if err != nil {
				t.Fatal(err)
			}
			fee, err := wallet.ClaimFee(ctx, s.Chain, got.Vester, id)
			if err != nil {
				t.Fatal(err)
			}
			withdraw := func(amount *big.Int) error {
				var data []byte
				var err error
				if got.DirectClaim {
					data, err = vesterabi.ABI.Pack(vesterabi.Withdraw, amount, proof.RootIndex, proof.DecodableArgs, nodes(proof.Siblings))
				} else {
					data, err = vesterabi.ABI.Pack(vesterabi.WithdrawHandler, amount, proof.RootIndex, proof.DecodableArgs, nodes(proof.Siblings), got.PostClaimHandlers[0], []byte{})
				}
				if err != nil {
					t.Fatal(err)
				}
				_, err = s.Chain.CallContract(ctx, ethereum.CallMsg{From: sender, To: &got.Vester, Value: fee, Data: data}, nil)
				return err
			}
			if err := withdraw(new(big.Int)); (err == nil) != (claimable.Sign() > 0) {
				t.Errorf("allot says %s is claimable; the vester's withdraw(0): %v", got.Claimable, err)
			}
			if claimable.Sign() > 0 {
				if err := withdraw(claimable); err != nil {
					t.Errorf("allot says %s is claimable; a withdraw of it: %v", got.Claimable, err)
				}
			}
			if err := withdraw(new(big.Int).Add(claimable, big.NewInt(1))); err == nil {
				t.Errorf("allot says %s is claimable; a withdraw of a wei more goes through", got.Claimable)
			}

			table := runCLI(t, s, nil, "proof", id, "--verify").stdout
			words := map[string]string{
				sandbox.StateActive:         "state:          active\n",
				sandbox.StateClaimedInPart:  "· claimed in part",
				sandbox.StateCancelled:      ": vesting stopped then",
				sandbox.StateRevoked:        "revoked: nothing of it vests, and nothing can be claimed",
				sandbox.StateTransferred:    "(transferred: not the leaf's beneficiary)",
				sandbox.StateUnderfunded:    "UNDERFUNDED: less than the",
				sandbox.StateThroughHandler: "claims:         only through post-claim handler 0x",
			}[seeded]
			if seeded == sandbox.StateRevoked && (strings.Contains(table, "1970-01-01") || !strings.Contains(table, "vested:         none: revoked, nothing of it vests\n")) {
				t.Errorf("the table of a revoked allocation dates its vesting:\n%s", table)
			}
			// Every amount names the token, as the dashboard's Allocation
			// screen does ("HBR" for a vester of HBR).
			unit := s.VesterUnits(ctx)(got.Vester)
			if unit == "" {
				t.Fatalf("the sandbox names no token of vester %s", got.Vester.Hex())
			}
			if !strings.Contains(table, words) || !strings.Contains(table, "claimable now:  "+amountfmt.Tokens(got.Claimable)+" "+unit+"\n") {
				t.Errorf("the table does not say %q and claimable %s %s:\n%s", words, got.Claimable, unit, table)
			}
			for _, l := range strings.Split(table, "\n") {
				label, value, _ := strings.Cut(l, ":")
				switch strings.TrimSpace(label) {
				case "total", "unlocked now", "withdrawn", "vester holds":
					if !strings.Contains(value, " "+unit) {
						t.Errorf("%s does not name %s: %q", label, unit, l)
					}
				}
			}
		})
	}
}

func nodes(hashes []common.Hash) [][32]byte {
	out := make([][32]byte, len(hashes))
	for i, h := range hashes {
		out[i] = h
	}
	return out
}
