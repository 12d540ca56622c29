package wallet

import (
	"fmt"

	"allot/assets"
	"allot/wallet/vesterabi"

	"github.com/ethereum/go-ethereum/accounts/abi"
)

// The ABIs of the contracts allot talks to: the distribution's vester (D8),
// in the production's own terms (vesterabi), a staking pool (D11) and the
// ERC-20 token both move.
var (
	vesterABI  = vesterabi.ABI
	stakingABI = mustABI(assets.StakingContract)
	tokenABI   = mustABI(assets.TokenContract)
)

// The artifacts are embedded at build time and checked by the assets tests,
// so a failure here is a broken build, not a runtime condition.
func mustABI(name string) abi.ABI {
	parsed, err := assets.ABI(name)
	if err != nil {
		panic(fmt.Sprintf("wallet: %v", err))
	}
	return parsed
}
