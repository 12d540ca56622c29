package wallet

import (
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"

	"allot/wallet/vesterabi"
)

// SelfBuiltWithdraw is the claim a service hands out, built by allot
// itself for a sender the service will not build it for (D19: the
// vester's withdraw has no caller check): one withdraw of amount (0: all
// that is vested) of the allocation of proof, to vester, sending fee,
// from sender, on chainID. It is checked by the signing policy as any
// claim the service answers with.
func SelfBuiltWithdraw(vester, sender common.Address, chainID uint64, proof *Proof, amount, fee *big.Int) (Call, error) {
	siblings := make([][32]byte, len(proof.Siblings))
	for i, h := range proof.Siblings {
		siblings[i] = h
	}
	data, err := vesterABI.Pack(vesterabi.Withdraw, amount, proof.RootIndex, proof.DecodableArgs, siblings)
	if err != nil {
		return Call{}, fmt.Errorf("build the withdraw: %w", err)
	}
	return Call{ChainID: chainID, From: sender, To: vester, Data: data, Value: new(big.Int).Set(fee)}, nil
}
