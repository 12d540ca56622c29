package cli

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/api"
	"allot/core/config"
	"allot/core/session"
	"allot/wallet/merkle"
	"allot/wallet/vesting"
)

// proofFile writes the sandbox's proof of its first demo allocation to a
// file, after change rewrites its leaf; the stated hash is the new leaf's,
// so that only the root can tell a forgery.
func proofFile(t *testing.T, s *session.Session, change func(a *vesting.Args)) string {
	t.Helper()
	p, err := s.API.MerkleProof(context.Background(), s.Fixtures.AllocationIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	if change != nil {
		args, err := vesting.Decode(hexutil.MustDecode(p.DecodableArgs))
		if err != nil {
			t.Fatal(err)
		}
		change(&args)
		data, err := vesting.Encode(args)
		if err != nil {
			t.Fatal(err)
		}
		leaf := merkle.Leaf(data).Hex()
		p.DecodableArgs, p.Hash = hexutil.Encode(data), &leaf
	}
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "proof.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// contractOf is the address of the sandbox's first contract of type kind
// whose address is not skip.
func contractOf(t *testing.T, s *session.Session, kind string, skip common.Address) string {
	t.Helper()
	list, err := s.API.Contracts(context.Background(), s.TokenIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range list.Items {
		if c.Type == kind && common.HexToAddress(c.Address) != skip {
			return c.Address
		}
	}
	t.Fatalf("no %s contract but %s", kind, skip.Hex())
	return ""
}

// TestProofVerifyExitStatus: --verify exits 0 only when the leaf, the root
// and the schedule pass; 3 when one fails; 4 when one could not run, and
// the table says each.
func TestProofVerifyExitStatus(t *testing.T) {
	t.Parallel() // waits on its chain's blocks more than it computes
	s := shared.Session(t)
	id := s.Fixtures.AllocationIDs[0]

	good := runCLI(t, s, nil, "proof", id, "--verify")
	var verified struct {
		Vester string `json:"vester"`
	}
	if err := json.Unmarshal([]byte(runCLI(t, s, nil, "proof", id, "--verify", "-o", "json").stdout), &verified); err != nil {
		t.Fatal(err)
	}
	vester := common.HexToAddress(verified.Vester)
	if good.code != ExitOK || vester == (common.Address{}) {
		t.Fatalf("a sound proof: exit %d, vester %q\n%s%s", good.code, verified.Vester, good.stdout, good.stderr)
	}
	for _, want := range []string{"leaf:", "PASS 0x", "on-chain root:", "in vester " + vester.Hex(), "schedule:", "result:         PASS"} {
		if !strings.Contains(good.stdout, want) {
			t.Errorf("the table of a sound proof does not say %q:\n%s", want, good.stdout)
		}
	}

	forged := proofFile(t, s, func(a *vesting.Args) {
		a.Allocation.TotalAllocation = new(big.Int).Mul(a.Allocation.TotalAllocation, big.NewInt(10))
	})
	overfull := proofFile(t, s, func(a *vesting.Args) {
		if a.Schedule.Kind == vesting.Calendar {
			a.Schedule.UnlockPercents[0] = new(big.Int).Add(a.Schedule.UnlockPercents[0], big.NewInt(1))
		} else {
			a.Schedule.Pieces[0].Percent++
		}
	})
	noChain := shared.Session(t)
	noChain.Chain = nil
	// With no vester pinned, the service's list is what proposes one.
	noService := shared.Session(t)
	noService.Profile.Pins = config.Pins{}
	var err error
	noService.API, err = api.New(api.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k", Backoff: func(int) time.Duration { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	other := contractOf(t, s, "VESTING", vester)

	for _, tc := range []struct {
		name string
		s    *session.Session
		args []string
		code int
		out  []string // in the table
		err  string   // on stderr
	}{
		{"the sound proof from a file", s, []string{"--file", proofFile(t, s, nil)}, ExitOK, []string{"result:         PASS"}, ""},
		{"forged leaf and hash", s, []string{"--file", forged}, ExitCheckFail,
			[]string{"leaf:           PASS", "on-chain root:  FAIL: no vester of this token holds this root", "result:         FAIL"}, "allot: proof: check failed: on-chain root"},
		{"schedule over 100%", s, []string{"--file", overfull}, ExitCheckFail,
			[]string{"schedule:       FAIL: percents add up to 100.0001%"}, "schedule: percents add up to 100.0001%"},
		{"no chain", noChain, []string{id}, ExitUnchecked,
			[]string{"on-chain root:  NOT CHECKED: profile \"sandbox\" has no rpc_url", "result:         NOT CHECKED"}, "allot: proof: not verified: on-chain root"},
		{"no service for the contract list", noService, []string{"--file", proofFile(t, s, nil)}, ExitUnchecked,
			[]string{"on-chain root:  NOT CHECKED: list the contracts of token"}, "allot: proof: not verified: on-chain root: list the contracts"},
		{"wrong --vester", s, []string{id, "--vester", other}, ExitCheckFail,
			[]string{"on-chain root:  FAIL: "}, "allot: proof: check failed: on-chain root"},
		{"the right --vester", s, []string{id, "--vester", vester.Hex()}, ExitOK, []string{"in vester " + vester.Hex()}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, tc.s, nil, append([]string{"proof", "--verify"}, tc.args...)...)
			if r.code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", r.code, tc.code, r.stdout, r.stderr)
			}
			for _, want := range tc.out {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("the table does not say %q:\n%s", want, r.stdout)
				}
			}
			if !strings.Contains(r.stderr, tc.err) {
				t.Errorf("stderr %q does not say %q", r.stderr, tc.err)
			}
		})
	}
}

// TestProofVerifyJSON: -o json carries each check's state and reason, and
// the exit status follows them as the table's does.
func TestProofVerifyJSON(t *testing.T) {
	t.Parallel()
	s := shared.Session(t)
	s.Chain = nil
	r := runCLI(t, s, nil, "proof", s.Fixtures.AllocationIDs[0], "--verify", "-o", "json")
	var got struct {
		State  string `json:"outcome"`
		Checks map[string]struct {
			State, Reason string
		} `json:"checks"`
		OnChainOK *bool `json:"onChainOk"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	root := got.Checks["onChainRoot"]
	if r.code != ExitUnchecked || got.State != "NOT CHECKED" || root.State != "NOT CHECKED" || !strings.Contains(root.Reason, "rpc_url") ||
		got.Checks["leaf"].State != "PASS" || got.Checks["schedule"].State != "PASS" || got.OnChainOK != nil {
		t.Errorf("exit %d, json %+v", r.code, got)
	}
}
