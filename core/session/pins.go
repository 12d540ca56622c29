package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/config"
	"allot/internal/sanitize"
	"allot/wallet"
)

// pinState is what the session's signing caches: for the embedded
// sandbox, the code hashes of its own deployment, read from its own chain
// once it is deployed. pinsMu guards it in every session: a session is
// copied by value in places. The profile's pins are never cached: they
// are read from the file at each use (SigningPins).
type pinState struct {
	sandbox map[string]string
}

var pinsMu sync.Mutex

// SigningPins are the pins and the fee ceiling a claim or a stake is held
// to (wallet.Pins): the profile's, read from its file now, so that a pin
// added or removed by another allot or an editor counts from the next
// check on; PinsSource says where they were read.
func (s *Session) SigningPins(ctx context.Context) (wallet.Pins, error) {
	p := s.Profile
	if s.CanPin() {
		onDisk, err := s.profileOnDisk()
		if err != nil {
			return wallet.Pins{}, err
		}
		p.Pins, p.MaxNativeFee = onDisk.Pins, onDisk.MaxNativeFee
	}
	if s.Sandbox && len(p.Pins.CodeHashes) == 0 {
		hashes, err := s.sandboxCodeHashes(ctx)
		if err != nil {
			return wallet.Pins{}, err
		}
		p.Pins.CodeHashes = hashes
	}
	pins, err := p.SigningPins()
	if err != nil {
		return pins, fmt.Errorf("profile %q in %s: %w", s.Name, s.PinsSource(), err)
	}
	return pins, nil
}

// profileOnDisk reads the session's profile from its file as it is now.
func (s *Session) profileOnDisk() (config.Profile, error) {
	cfg, err := config.Load(s.ConfigPath)
	if err != nil {
		return config.Profile{}, fmt.Errorf("read the pins: %w", err)
	}
	p, err := cfg.Profile(s.Name)
	if err != nil {
		return config.Profile{}, fmt.Errorf("read the pins from %s: %w", s.ConfigPath, err)
	}
	return p, nil
}

// currentPins are the profile's pins as its file holds them now (as
// SigningPins reads them), or as opened when the file cannot be read: a
// namesake is told apart from what the user pins today.
func (s *Session) currentPins() config.Pins {
	if s.CanPin() {
		if p, err := s.profileOnDisk(); err == nil {
			return p.Pins
		}
	}
	return s.Profile.Pins
}

// PinsSource says where SigningPins reads the pins: the profile's file,
// or the embedded sandbox's own deployment.
func (s *Session) PinsSource() string {
	switch {
	case s.Sandbox:
		return "the embedded sandbox's own deployment"
	case s.ConfigPath == "":
		return "the profile as opened (no configuration file)"
	}
	return s.ConfigPath
}

// VesterTrusts says, for each contract that holds v's root (pinned ones
// first, as vesterCandidates orders them), whether the profile pins it,
// read from its file now: what signing a claim needs, beside the proof's
// verdict, which it never changes. None when no vester holds the root.
func (s *Session) VesterTrusts(ctx context.Context, v *wallet.Verification) []wallet.VesterTrust {
	holders := holdersOf(v)
	if len(holders) == 0 {
		return nil
	}
	pins, err := s.SigningPins(ctx)
	return vesterTrusts(holders, pins, err, s.PinsSource())
}

// holdersOf are the contracts that hold v's root.
func holdersOf(v *wallet.Verification) []common.Address {
	if len(v.Holders) == 0 && v.RootCheck.State == wallet.Pass {
		return []common.Address{v.Vester}
	}
	return v.Holders
}

// vesterTrusts are VesterTrusts of holders under pins, read from source
// (pinsErr: why they could not be).
func vesterTrusts(holders []common.Address, pins wallet.Pins, pinsErr error, source string) []wallet.VesterTrust {
	var out []wallet.VesterTrust
	for _, h := range holders {
		t := wallet.VesterTrust{Vester: h, Pinned: pinsErr == nil && pins.Pinned(wallet.PinVester, h)}
		switch {
		case pinsErr != nil:
			t.Note = "the pins could not be read, so claims are refused: " + sanitize.Line(pinsErr.Error())
		case t.Pinned:
			t.Note = "pinned in " + sanitize.Line(source)
		default:
			t.Note = "not pinned: claims refused until `allot pin vester " + h.Hex() + "`"
		}
		out = append(out, t)
	}
	return out
}

// sandboxCodeHashes reads the code hashes of the embedded sandbox's own
// deployment from its chain, once the world is deployed there.
func (s *Session) sandboxCodeHashes(ctx context.Context) (map[string]string, error) {
	pinsMu.Lock()
	hashes := s.pins.sandbox
	pinsMu.Unlock()
	if hashes != nil {
		return hashes, nil
	}
	hashes, err := CodeHashes(ctx, s.Chain, s.Profile.Pins)
	if err != nil {
		return nil, fmt.Errorf("the embedded sandbox's own contracts: %w", err)
	}
	pinsMu.Lock()
	s.pins.sandbox = hashes
	pinsMu.Unlock()
	return hashes, nil
}

// CodeHashes reads the code hash of every address pins lists: what a pin
// records of each.
func CodeHashes(ctx context.Context, node wallet.Node, pins config.Pins) (map[string]string, error) {
	out := map[string]string{}
	for _, list := range [][]string{pins.Vesters, pins.Staking, pins.Tokens, pins.Handlers} {
		for _, v := range list {
			hash, err := wallet.CodeHash(ctx, node, common.HexToAddress(v))
			if err != nil {
				return nil, err
			}
			out[v] = hash.Hex()
		}
	}
	return out, nil
}

// ErrCannotPin: the session has no configuration file to pin in (the
// embedded sandbox pins its own deployment, and nothing else).
var ErrCannotPin = errors.New("no configuration file to pin in")

// CanPin reports whether Pin can write the profile's pins.
func (s *Session) CanPin() bool { return s.ConfigPath != "" && !s.Sandbox }

// Pin pins addr as kind in the profile's file, with the hash of the code
// it has now and, for a proxy, the implementation it delegates to now and
// its code hash, which the next check reads (SigningPins); remove unpins it
// instead. It returns the code hash recorded (zero when removing). An
// address with no code is not pinned.
func (s *Session) Pin(ctx context.Context, kind wallet.PinKind, addr common.Address, remove bool) (common.Hash, error) {
	if !s.CanPin() {
		return common.Hash{}, fmt.Errorf("pin %s: %w (the embedded sandbox pins its own contracts)", addr.Hex(), ErrCannotPin)
	}
	edit := config.PinEdit{Profile: s.Name, Kind: kind, Address: addr, Remove: remove}
	if !remove {
		if why := wallet.Reserved(addr); why != "" {
			return common.Hash{}, fmt.Errorf("pin %s: it is %s: no contract to trust, whatever code a node answers for it", addr.Hex(), why)
		}
		if s.Chain == nil {
			return common.Hash{}, fmt.Errorf("pin %s: profile %q has no rpc_url to read the contract's code from", addr.Hex(), s.Name)
		}
		hash, proxy, err := wallet.ReadPin(ctx, s.Chain, addr)
		if errors.Is(err, wallet.ErrNoContract) && hash == (common.Hash{}) {
			return common.Hash{}, fmt.Errorf("pin %s: it has no code on the chain: there is no contract to trust there", addr.Hex())
		}
		if err != nil {
			return common.Hash{}, fmt.Errorf("pin %s: %w", addr.Hex(), err)
		}
		edit.CodeHash, edit.Implementation, edit.ImplementationHash = hash, proxy.Implementation, proxy.CodeHash
	}
	if err := config.EditPinsFile(s.ConfigPath, edit); err != nil {
		return common.Hash{}, err
	}
	return edit.CodeHash, nil
}

// ContractInfo is what allot knows of a contract before the user pins it.
type ContractInfo struct {
	Address common.Address
	Kind    wallet.PinKind
	// Listed are the service's contract list's entries at the address.
	Listed []api.Contract
	// ListErr is why the list could not be read, if it could not.
	ListErr error
	// CodeHash is the hash of its code now; CodeErr why there is none
	// (wallet.ErrNoContract) or it could not be read.
	CodeHash common.Hash
	CodeErr  error
	// Proxy is the logic behind it, when it is a proxy or its code could
	// delegate; ProxyErr why that could not be read.
	Proxy    wallet.Proxy
	ProxyErr error
	// Namesakes are the pinned contracts the service lists under a name
	// it lists this one under too: the genuine one may be among them.
	Namesakes []Namesake
	// Candidates are the other listed contracts it could stand for
	// (candidates), pinned ones first.
	Candidates []Candidate
}

// Namesake is a pinned contract that shares a listed name with another.
type Namesake struct {
	Name    string
	Address common.Address
}

// Flag says, when the contract has pinned namesakes or, for a vester,
// shares a root with a pinned vester, why pinning it needs its address
// typed; "" when neither.
func (i ContractInfo) Flag() string {
	var flags []string
	if len(i.Namesakes) > 0 {
		var said []string
		for _, n := range i.Namesakes {
			said = append(said, fmt.Sprintf("the genuine %q may be %s, already pinned", sanitize.Truncate(n.Name, 40), n.Address.Hex()))
		}
		flags = append(flags, "it shares its name with a pinned contract: "+strings.Join(said, "; "))
	}
	if i.Kind == wallet.PinVester {
		var said []string
		for _, c := range i.Candidates {
			if c.Pinned {
				said = append(said, "the genuine one may be "+c.Address.Hex()+", already pinned")
			}
		}
		if len(said) > 0 {
			flags = append(flags, "it holds a root a pinned vester holds: "+strings.Join(said, "; "))
		}
	}
	if len(flags) == 0 {
		return ""
	}
	return "FLAGGED: " + strings.Join(flags, "; ")
}

// Describe gathers what the service lists and the chain holds at addr,
// to be pinned as kind, and the other contracts it could stand for.
func (s *Session) Describe(ctx context.Context, kind wallet.PinKind, addr common.Address) ContractInfo {
	info := ContractInfo{Address: addr, Kind: kind}
	contracts, err := s.contracts(ctx)
	info.ListErr = err
	for _, c := range contracts {
		if common.IsHexAddress(c.Address) && common.HexToAddress(c.Address) == addr {
			info.Listed = append(info.Listed, c)
		}
	}
	pins := s.currentPins()
	info.Namesakes = namesakes(contracts, info.Listed, pins, addr)
	info.Candidates = s.candidates(ctx, kind, addr, contracts, pins)
	if s.Chain == nil {
		info.CodeErr = fmt.Errorf("profile %q has no rpc_url", s.Name)
		return info
	}
	hash, proxy, err := wallet.ReadPin(ctx, s.Chain, addr)
	info.CodeHash, info.Proxy = hash, proxy
	if hash == (common.Hash{}) {
		info.CodeErr = err
	} else {
		info.ProxyErr = err
	}
	return info
}

// Logic says what runs behind the contract: "" for a contract whose code
// cannot delegate, else the proxy and its implementation, or that its
// delegation cannot be read.
func (i ContractInfo) Logic() string {
	switch {
	case i.ProxyErr != nil:
		return "could not be read: " + i.ProxyErr.Error()
	case i.Proxy.Kind == "" && !i.Proxy.Delegates:
		return ""
	}
	return i.Proxy.String()
}

// namesakes are the contracts pins holds, other than addr, that contracts
// lists under a name listed (addr's entries) has too.
func namesakes(contracts, listed []api.Contract, pins config.Pins, addr common.Address) []Namesake {
	var out []Namesake
	for _, c := range contracts {
		if !common.IsHexAddress(c.Address) {
			continue
		}
		other := common.HexToAddress(c.Address)
		if other == addr || !pins.Holds(other) {
			continue
		}
		for _, l := range listed {
			if strings.EqualFold(strings.TrimSpace(l.Name), strings.TrimSpace(c.Name)) {
				out = append(out, Namesake{Name: c.Name, Address: other})
				break
			}
		}
	}
	return out
}

// ListedAs says how the service lists a contract, in a few words.
func (i ContractInfo) ListedAs() string {
	switch {
	case i.ListErr != nil:
		return "unknown: the service's contract list could not be read"
	case len(i.Listed) == 0:
		return "not in the service's contract list of the profile's tokens"
	}
	var names []string
	for _, c := range i.Listed {
		names = append(names, fmt.Sprintf("%q (%s)", sanitize.Truncate(c.Name, 40), sanitize.Truncate(c.Type, 20)))
	}
	return "the service lists it as " + strings.Join(names, ", ")
}
