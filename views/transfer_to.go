package views

import (
	"errors"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
)

// TransferTo reads the new withdrawal address typed for an allocation's
// transfer (docs/deployment.md D18), by a key or by a Safe alike: an
// address as people type one (api.CheckAddress: a mixed case one must
// spell its checksum), and one the transfer may go to: not the zero
// address, not current, where the tokens go now, and not the vester that
// holds them.
func TransferTo(v string, current, vester common.Address) (common.Address, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return common.Address{}, errors.New("type the address every later claim is to pay")
	}
	if err := api.CheckAddress("address", v); err != nil {
		return common.Address{}, err
	}
	switch addr := common.HexToAddress(v); addr {
	case common.Address{}:
		return addr, errors.New("the zero address: the vester refuses it, and tokens sent there are lost")
	case current:
		return addr, errors.New("the allocation's tokens go there already: type another address")
	case vester:
		return addr, errors.New("the vester itself: tokens it paid to itself would be lost to every holder")
	default:
		return addr, nil
	}
}
