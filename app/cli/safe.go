package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"strconv"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/core/config"
	"allot/wallet/safe"
)

// safeShowCommand builds `allot safe show SAFE`: a Safe as the chain holds
// it, refused unless it is a canonical Safe, with the owners whose keys
// this machine holds; and `allot safe show FILE`, a proposal and where it
// stands (safe_proposal_show.go).
var safeShowCommand = command{
	name:     "safe show",
	args:     "SAFE|FILE [--keystore DIR] [-o json]",
	summary:  "show a Safe's owners, threshold, nonce and singleton, and which owners' keys the keystore holds; or a proposal's signatures and state",
	operands: [][2]string{{"SAFE", "the Safe's address"}, {"FILE", "a proposal file: its calls, hashes, signatures (1 of 2) and state"}},
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var ks keystoreFlags
		var out format
		declareKeystoreDir(fs, &ks)
		declareOutput(fs, &out)
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes one Safe address or proposal file")
			}
			if !common.IsHexAddress(args[0]) {
				return e.showProposal(ctx, args[0], out)
			}
			addr, err := config.ParseAddress(args[0])
			if err != nil {
				return usageError{msg: err.Error()}
			}
			info, err := readSafe(ctx, e, "safe show", addr)
			if err != nil {
				return err
			}
			store, err := ks.open(ctx, e)
			if err != nil {
				return err
			}
			held := map[common.Address]bool{}
			for _, a := range store.Accounts() {
				held[a.Address] = true
			}
			return writeSafe(e.Stdout, info, held, out)
		}
	},
}

// readSafe reads the Safe at addr from the profile's node. A contract that
// is no canonical Safe, or a node answering what no Safe answers, is a
// check that failed.
func readSafe(ctx context.Context, e *env, what string, addr common.Address) (safe.Info, error) {
	s, err := e.open(ctx, opening{chain: what})
	if err != nil {
		return safe.Info{}, err
	}
	node, err := s.SafeNode()
	if err != nil {
		return safe.Info{}, err
	}
	info, err := safe.Read(ctx, node, addr)
	if errors.Is(err, safe.ErrNotSafe) || errors.Is(err, safe.ErrBadAnswer) {
		return info, checkFailed{fmt.Sprintf("%s: no Safe allot works with: %v", what, err)}
	}
	return info, err
}

// safeJSON is a Safe as safe show -o json writes it.
type safeJSON struct {
	Safe              string      `json:"safe"`
	Singleton         string      `json:"singleton"`
	SingletonCodeHash string      `json:"singletonCodeHash"`
	Canonical         string      `json:"canonical"`
	Version           string      `json:"version"`
	Threshold         uint64      `json:"threshold"`
	Nonce             string      `json:"nonce"`
	Owners            []ownerJSON `json:"owners"`
}

type ownerJSON struct {
	Address    string `json:"address"`
	InKeystore bool   `json:"inKeystore"`
}

func safeAsJSON(info safe.Info, held map[common.Address]bool) *safeJSON {
	v := &safeJSON{Safe: info.Address.Hex(), Singleton: info.Singleton.Hex(), SingletonCodeHash: info.SingletonCodeHash.Hex(),
		Canonical: info.Kind.String(), Version: info.Version, Threshold: info.Threshold, Nonce: info.Nonce.String()}
	for _, o := range info.Owners {
		v.Owners = append(v.Owners, ownerJSON{Address: o.Hex(), InKeystore: held[o]})
	}
	return v
}

func writeSafe(w io.Writer, info safe.Info, held map[common.Address]bool, out format) error {
	if out == formatJSON {
		return writeJSON(w, safeAsJSON(info, held))
	}
	mine := 0
	for _, o := range info.Owners {
		if held[o] {
			mine++
		}
	}
	err := fields(w,
		"Safe", info.Address.Hex(),
		"Singleton", fmt.Sprintf("%s, the canonical %s singleton", info.Singleton.Hex(), info.Kind),
		"Threshold", fmt.Sprintf("%d of %d owners sign a transaction", info.Threshold, len(info.Owners)),
		"Nonce", info.Nonce.String()+" (the next transaction's)",
		"Keys here", fmt.Sprintf("%d of the owners' keys are in the keystore", mine),
	)
	if err != nil {
		return err
	}
	fmt.Fprintln(w)
	t := newTable(w, "OWNER", "KEY")
	for _, o := range info.Owners {
		key := "-"
		if held[o] {
			key = "in the keystore"
		}
		t.row(o.Hex(), key)
	}
	return t.flush()
}

// safeHashCommand builds `allot safe hash`: the hashes an owner signs for
// a Safe transaction, as Safe{Wallet} and a hardware wallet show them, so
// that co-signers can compare before they sign.
var safeHashCommand = command{
	name:    "safe hash",
	args:    "--safe SAFE --to ADDR [--value WEI] [--data HEX] [--operation 0|1] [--nonce N] [-o json]",
	summary: "print the domain hash, message hash and safeTxHash of a Safe transaction",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		var safeText, to, value, data, operation, nonce string
		var out format
		fs.StringVar(&safeText, "safe", "", "the Safe's address `SAFE`")
		fs.StringVar(&to, "to", "", "the address `ADDR` the Safe calls")
		fs.StringVar(&value, "value", "0", "the `WEI` the Safe sends with the call")
		fs.StringVar(&data, "data", "0x", "the call's data, `HEX`")
		fs.StringVar(&operation, "operation", "0", "the operation, `0|1`: 0 is a call, 1 a delegatecall")
		fs.StringVar(&nonce, "nonce", "", "the Safe transaction's nonce `N` (default: the Safe's next)")
		declareOutput(fs, &out)
		return func(ctx context.Context, args []string) error {
			if err := noArgs(args); err != nil {
				return err
			}
			addr, err := parseAddress("safe", safeText)
			if err != nil {
				return err
			}
			tx, err := parseSafeTx(to, value, data, operation, nonce)
			if err != nil {
				return err
			}
			info, err := readSafe(ctx, e, "safe hash", addr)
			if err != nil {
				return err
			}
			if tx.Nonce == nil {
				tx.Nonce = info.Nonce
			}
			return writeSafeHash(ctx, e, addr, tx, out)
		}
	},
}

// parseSafeTx parses safe hash's flags into a transaction; a nil Nonce
// is the Safe's next.
func parseSafeTx(to, value, data, operation, nonce string) (safe.Tx, error) {
	var tx safe.Tx
	var err error
	if tx.To, err = parseAddress("to", to); err != nil {
		return tx, err
	}
	v, ok := new(big.Int).SetString(value, 10)
	if !ok || v.Sign() < 0 || v.BitLen() > 256 {
		return tx, usagef("--value %q is not an amount of wei", value)
	}
	tx.Value = v
	if tx.Data, err = hexutil.Decode(data); err != nil {
		return tx, usagef("--data: %v", err)
	}
	op, err := strconv.ParseUint(operation, 10, 8)
	if err != nil || op > 1 {
		return tx, usagef("--operation %q: give 0 (a call) or 1 (a delegatecall)", operation)
	}
	tx.Operation = safe.Operation(op)
	if nonce != "" {
		n, ok := new(big.Int).SetString(nonce, 10)
		if !ok || n.Sign() < 0 || n.BitLen() > 256 {
			return tx, usagef("--nonce %q is not a nonce", nonce)
		}
		tx.Nonce = n
	}
	return tx, nil
}

func writeSafeHash(ctx context.Context, e *env, addr common.Address, tx safe.Tx, out format) error {
	s, err := e.open(ctx, opening{})
	if err != nil {
		return err
	}
	chainID := new(big.Int).SetUint64(s.Profile.ChainID)
	if id, err := s.Chain.ChainID(ctx); err != nil {
		return fmt.Errorf("the node's chain id: %w", err)
	} else if id.Cmp(chainID) != 0 {
		return fmt.Errorf("the node is on chain %s, the profile's is %s", id, chainID)
	}
	h, err := safe.Hash(chainID, addr, tx)
	if err != nil {
		return err
	}
	if out == formatJSON {
		return writeJSON(e.Stdout, map[string]string{
			"safe": addr.Hex(), "chainId": chainID.String(), "to": tx.To.Hex(), "value": tx.Value.String(),
			"data": hexutil.Encode(tx.Data), "operation": strconv.Itoa(int(tx.Operation)), "nonce": tx.Nonce.String(),
			"domainHash": h.Domain.Hex(), "messageHash": h.Message.Hex(), "safeTxHash": h.SafeTx.Hex(),
		})
	}
	return fields(e.Stdout,
		"Safe", addr.Hex()+" on chain "+chainID.String(),
		"Call", fmt.Sprintf("%s to %s, %s wei, %d bytes of data", tx.Operation, tx.To.Hex(), tx.Value, len(tx.Data)),
		"Nonce", tx.Nonce.String(),
		"Domain hash", h.Domain.Hex(),
		"Message hash", h.Message.Hex(),
		"safeTxHash", h.SafeTx.Hex(),
	)
}
