package safe

import "github.com/ethereum/go-ethereum/common"

// Singleton names a canonical Safe singleton by its runtime code.
type Singleton struct {
	Version string // "1.3.0", "1.4.1"
	L2      bool   // the L2 singleton, which emits an event per transaction
}

func (s Singleton) String() string {
	if s.L2 {
		return "Safe " + s.Version + " (L2)"
	}
	return "Safe " + s.Version
}

// singletons are the code hashes of the canonical Safe singletons: a
// proxy delegating to any other code is no Safe allot signs for. The
// hashes are those @safe-global/safe-deployments 1.37.63 lists for the
// canonical and eip155 deployments (v1.3.0 gnosis_safe.json and
// gnosis_safe_l2.json, v1.4.1 safe.json and safe_l2.json), which are the
// keccak256 of the deployedBytecode of the @gnosis.pm/safe-contracts
// 1.3.0 and @safe-global/safe-contracts 1.4.1 artifacts;
// TestCanonicalHashesFromArtifacts recomputes them from those packages.
// zkSync's deployments, whose code differs, are not among them.
var singletons = map[common.Hash]Singleton{
	common.HexToHash("0xbba688fbdb21ad2bb58bc320638b43d94e7d100f6f3ebaab0a4e4de6304b1c2e"): {Version: "1.3.0"},
	common.HexToHash("0x21842597390c4c6e3c1239e434a682b054bd9548eee5e9b1d6a4482731023c0f"): {Version: "1.3.0", L2: true},
	common.HexToHash("0x1fe2df852ba3299d6534ef416eefa406e56ced995bca886ab7a553e6d0c5e1c4"): {Version: "1.4.1"},
	common.HexToHash("0xb1f926978a0f44a2c0ec8fe822418ae969bd8c3f18d61e5103100339894f81ff"): {Version: "1.4.1", L2: true},
}

// proxies are the code hashes of the Safe proxies the canonical proxy
// factories create (the deployedBytecode of GnosisSafeProxy 1.3.0 and
// SafeProxy 1.4.1, from the same packages): only such a proxy forwards
// every call to the singleton in its slot 0 and answers nothing itself
// but masterCopy(). A contract that merely stores a Safe singleton's
// address in slot 0 could answer anything.
var proxies = map[common.Hash]string{
	common.HexToHash("0xb89c1b3bdf2cf8827818646bce9a8f6e372885f8c55e5c07acbd307cb133b000"): "1.3.0",
	common.HexToHash("0xd7d408ebcd99b2b70be43e20253d6d92a8ea8fab29bd3be7f55b10032331fb4c"): "1.4.1",
}

// CanonicalSingleton names the Safe singleton whose runtime code hashes
// to codeHash; ok is false for any other code.
func CanonicalSingleton(codeHash common.Hash) (s Singleton, ok bool) {
	s, ok = singletons[codeHash]
	return s, ok
}

// CanonicalProxy says whether codeHash is the runtime code of a Safe proxy
// from a canonical proxy factory.
func CanonicalProxy(codeHash common.Hash) bool {
	_, ok := proxies[codeHash]
	return ok
}

// multiSendCallOnly are the code hashes of the canonical MultiSendCallOnly
// 1.3.0 and 1.4.1, as @safe-global/safe-deployments 1.37.63 lists them
// (v1.3.0 and v1.4.1 multi_send_call_only.json, canonical and eip155),
// the keccak256 of the packages' deployedBytecode (recomputed by
// TestMultiSendHashesFromArtifacts). A Safe delegatecalls nothing else:
// a delegatecall runs the target's code as the Safe, with all it holds,
// and this contract's code makes the batch's calls as calls, never a
// delegatecall.
var multiSendCallOnly = map[common.Hash]string{
	common.HexToHash("0xa9865ac2d9c7a1591619b188c4d88167b50df6cc0c5327fcbd1c8c75f7c066ad"): "1.3.0",
	common.HexToHash("0xecd5bd14a08c5d2122379900b2f272bdf107a7e92423c10dd5fe3254386c9939"): "1.4.1",
}

// MultiSendCallOnlyOf is the canonical MultiSendCallOnly's address for a
// Safe of version ("1.3.0", "1.4.1"), the one Safe{Wallet} batches a
// Safe's calls through, the same on every chain Safe deployed it to; zero
// for another version.
func MultiSendCallOnlyOf(version string) common.Address {
	switch version {
	case "1.3.0":
		return common.HexToAddress("0x40A2aCCbd92BCA938b02010E17A5b8929b49130D")
	case "1.4.1":
		return common.HexToAddress("0x9641d764fc13c8B624c04430C7356C1C7C8102e2")
	}
	return common.Address{}
}

// CanonicalMultiSendCallOnly names the MultiSendCallOnly version whose
// runtime code hashes to codeHash; ok is false for any other code.
func CanonicalMultiSendCallOnly(codeHash common.Hash) (version string, ok bool) {
	version, ok = multiSendCallOnly[codeHash]
	return version, ok
}
