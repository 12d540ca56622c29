package config

import (
	"fmt"
	"math/big"
	"strings"

	"allot/wallet"
	"allot/wallet/siwe"
)

// GasCeiling reads the profile's max_gas_fee: the most a transaction's gas
// may cost (gas limit times max fee per gas), in ether as an exact
// decimal; empty is wallet.DefaultMaxGasFee.
func (p Profile) GasCeiling() (*big.Int, error) {
	if p.MaxGasFee == "" {
		return new(big.Int).Set(wallet.DefaultMaxGasFee), nil
	}
	fee, err := wallet.ParseUnits(p.MaxGasFee)
	if err != nil {
		return nil, fmt.Errorf("max_gas_fee: %w (ether, e.g. \"0.05\")", err)
	}
	return fee, nil
}

// checkSigninDomain refuses a signin_domain that is not the host (and
// port, when not the scheme's default) of portal_url: a sign-in message
// names the host it is sent to, and no other (EIP-4361).
func (p Profile) checkSigninDomain() error {
	host, err := siwe.DomainOf(p.PortalURL)
	if err != nil {
		return nil // checkURL says what is wrong with portal_url
	}
	if !strings.EqualFold(p.SigninDomain, host) {
		return fmt.Errorf("signin_domain %q is not the host of portal_url, %q: a sign-in is signed only for the host it is sent to; set signin_domain = %q or leave it out",
			p.SigninDomain, host, host)
	}
	return nil
}
