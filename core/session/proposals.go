package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"allot/api"
	"allot/core/act"
	"allot/internal/atomicfile"
	"allot/internal/sanitize"
	"allot/wallet"
	"allot/wallet/keystore"
	"allot/wallet/safe"
	"allot/wallet/safe/proposal"
)

// The Safe proposals of this machine (docs/custody.md): every proposal
// `allot stake|claim --owner`, `allot safe sign|exec|import` or the
// dashboard wrote or signed has a copy in the state directory's
// safe-proposals/, named by its safeTxHash. The CLI and the dashboard
// share what is done with one: the signing policy's review of its Safe
// transaction, an owner's signature, the check of its execTransaction,
// and writing it back.

// ProposalsDir is the state directory's folder of proposals.
const ProposalsDir = "safe-proposals"

// MaxProposals bounds how many proposals are read at once, the newest
// first: a folder of years of them must not stall a refresh.
const MaxProposals = 100

// SafeProposal is a proposal of the state directory and where it stands
// against its Safe as the chain holds it now.
type SafeProposal struct {
	// File is the proposal's name in the folder, Path where it is: an
	// owner who signs in the dashboard sends that file on.
	File     string
	Path     string
	ModTime  time.Time
	Proposal *proposal.Proposal
	// Safe is the proposal's Safe as read now; State and Detail say
	// where the proposal stands against it (proposal.StateAt).
	Safe   safe.Info
	State  proposal.State
	Detail string
	// Err is why the proposal cannot be shown or acted on: a file that
	// is no consistent proposal, another chain's, or a Safe that could
	// not be read (Proposal is nil for the first two).
	Err error
}

// ProposalsCut is the warning of a folder with more proposals than
// MaxProposals: the newest are listed.
type ProposalsCut struct{ Listed, All int }

func (c ProposalsCut) Error() string {
	return fmt.Sprintf("the newest %d of the %d Safe proposals are listed", c.Listed, c.All)
}

// ProposalsFolder is where the proposals of this machine are kept, for a
// user to save a teammate's file in; "" without a state directory.
func (s *Session) ProposalsFolder() string {
	if s.StateDir == "" {
		return ""
	}
	return filepath.Join(s.StateDir, ProposalsDir)
}

// ReadProposals reads the state directory's proposals, newest first, at
// most MaxProposals (the error is then a ProposalsCut), each with its
// Safe read from the chain, once per Safe. A proposal's own failure is
// its Err; the error is for the folder or the node.
func (s *Session) ReadProposals(ctx context.Context) ([]SafeProposal, error) {
	if s.StateDir == "" {
		return nil, nil
	}
	dir := s.ProposalsFolder()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the Safe proposals: %w", err)
	}
	var list []SafeProposal
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // gone since the folder was read
		}
		list = append(list, SafeProposal{File: e.Name(), ModTime: info.ModTime()})
	}
	slices.SortStableFunc(list, func(a, b SafeProposal) int { return b.ModTime.Compare(a.ModTime) })
	var cut error
	if len(list) > MaxProposals {
		cut = ProposalsCut{Listed: MaxProposals, All: len(list)}
		list = list[:MaxProposals]
	}
	node, err := s.SafeNode()
	if err != nil && len(list) > 0 {
		return nil, err
	}
	safes := map[common.Address]safeRead{}
	seen := map[common.Hash]bool{}
	out := list[:0]
	for _, sp := range list {
		s.readProposal(ctx, node, dir, &sp, safes)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// A file a teammate sent, saved here under its own name, and the
		// copy signing it wrote under its hash: the newest is listed.
		if sp.Proposal != nil && seen[sp.Proposal.Hashes.SafeTx] {
			continue
		}
		if sp.Proposal != nil {
			seen[sp.Proposal.Hashes.SafeTx] = true
		}
		out = append(out, sp)
	}
	return out, cut
}

// safeRead is a Safe as read once for several proposals.
type safeRead struct {
	info safe.Info
	err  error
}

// ReadProposal reads one proposal of the folder again, by its file name,
// with its Safe as the chain holds it now.
func (s *Session) ReadProposal(ctx context.Context, file string) (SafeProposal, error) {
	if s.StateDir == "" || file != filepath.Base(file) {
		return SafeProposal{}, fmt.Errorf("no Safe proposal %q in the state directory", sanitize.Truncate(file, 80))
	}
	node, err := s.SafeNode()
	if err != nil {
		return SafeProposal{}, err
	}
	sp := SafeProposal{File: file}
	s.readProposal(ctx, node, s.ProposalsFolder(), &sp, map[common.Address]safeRead{})
	return sp, nil
}

// readProposal reads sp.File in dir and its Safe (from safes when read
// already), and says where it stands.
func (s *Session) readProposal(ctx context.Context, node safe.Node, dir string, sp *SafeProposal, safes map[common.Address]safeRead) {
	sp.Path = filepath.Join(dir, sp.File)
	p, err := readProposalFile(sp.Path)
	if err != nil {
		sp.Err = err
		return
	}
	if p.ChainID != s.Profile.ChainID {
		sp.Err = fmt.Errorf("the proposal is for chain %d, the profile's is %d", p.ChainID, s.Profile.ChainID)
		return
	}
	sp.Proposal = p
	r, ok := safes[p.Safe]
	if !ok {
		r.info, r.err = safe.Read(ctx, node, p.Safe)
		safes[p.Safe] = r
	}
	if r.err != nil {
		sp.Err = fmt.Errorf("its Safe %s: %w", p.Safe.Hex(), r.err)
		return
	}
	sp.Safe = r.info
	sp.State, sp.Detail = p.StateAt(r.info)
}

func readProposalFile(path string) (*proposal.Proposal, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open the proposal: %w", err)
	}
	defer f.Close()
	return proposal.Read(f)
}

// SaveProposal writes p, checked, to path when one is given, and its copy
// to the state directory's folder, named by its safeTxHash. It returns
// where it wrote, path first.
func (s *Session) SaveProposal(p *proposal.Proposal, path string) ([]string, error) {
	var buf bytes.Buffer
	if err := proposal.Write(&buf, p); err != nil {
		return nil, err
	}
	var paths []string
	if path != "" {
		paths = append(paths, path)
	}
	if s.StateDir != "" {
		dir := filepath.Join(s.StateDir, ProposalsDir)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("the state directory's copy of the proposal: %w", err)
		}
		paths = append(paths, filepath.Join(dir, p.Hashes.SafeTx.Hex()+".json"))
	}
	for _, out := range paths {
		if err := atomicfile.Write(out, buf.Bytes()); err != nil {
			return nil, fmt.Errorf("write the proposal: %w", err)
		}
	}
	return paths, nil
}

// safeInnerCheck is the key's signing policy of the act's calls, the Safe
// being the key (StakeCheck, ClaimCheck).
func (s *Session) safeInnerCheck(ctx context.Context, act proposal.Act, safeAddr common.Address) (func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error), error) {
	switch act.Op {
	case proposal.OpStake:
		pool, err := s.Pool(ctx, act.Subject)
		if err != nil {
			return nil, err
		}
		return s.StakeCheck(pool, safeAddr, act.Amount), nil
	case proposal.OpClaim:
		return s.SafeClaimCheck(act.Subject, safeAddr, act.Amount), nil
	case proposal.OpTransfer:
		return s.TransferCheck(act.Subject, safeAddr, act.To), nil
	case proposal.OpBatch:
		return s.batchCheck(safeAddr), nil
	}
	return nil, fmt.Errorf("a proposal to %q: allot reviews a Safe's stakes, claims, transfers and batches of them", sanitize.Truncate(act.Op, 20))
}

// batchCheck is the signing policy of a batch of the Safe's acts: the
// calls cut into the acts they make, each held to the policy of that act
// alone by the Safe (actCheck), all of them passing (wallet.CheckBatch).
func (s *Session) batchCheck(safeAddr common.Address) func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error) {
	return func(ctx context.Context, pins wallet.Pins, calls []wallet.Call) (*wallet.Approval, error) {
		acts, err := wallet.SplitSafeCalls(calls)
		if err != nil {
			return nil, &wallet.RefusedError{Subject: "batch of the Safe " + safeAddr.Hex(), Reasons: []string{sanitize.Line(err.Error())}}
		}
		return wallet.CheckBatch(acts, func(a wallet.ActCalls) (*wallet.Approval, error) {
			check, err := s.actCheck(ctx, a.SafeAct, safeAddr)
			if err != nil {
				return nil, err
			}
			return check(ctx, pins, a.Calls)
		})
	}
}

// actCheck is the policy of one act of the Safe, as its calldata says it
// (wallet.ClassifySafeCalls): a stake's in the pool whose staking
// contract it calls, a claim's or a transfer's of its allocation.
func (s *Session) actCheck(ctx context.Context, act wallet.SafeAct, safeAddr common.Address) (func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error), error) {
	switch act.Op {
	case proposal.OpStake:
		pool, err := s.PoolOfContract(ctx, act.Pool)
		var refused *wallet.RefusedError
		if errors.As(err, &refused) || errors.Is(err, wallet.ErrRefused) {
			return nil, &wallet.RefusedError{Subject: "stake in " + act.Pool.Hex(), Reasons: []string{sanitize.Line(err.Error())}}
		}
		if err != nil {
			return nil, err
		}
		return s.StakeCheck(pool, safeAddr, act.Amount), nil
	case proposal.OpTransfer:
		return s.TransferCheck(act.Allocation, safeAddr, act.To), nil
	}
	return s.SafeClaimCheck(act.Allocation, safeAddr, act.Amount), nil
}

// PoolOfContract is a pool of the profile's tokens whose staking contract,
// as the token's contract list names it, is addr: the stake's policy is
// that pool's.
func (s *Session) PoolOfContract(ctx context.Context, addr common.Address) (api.Pool, error) {
	for _, token := range s.TokenIDs {
		contracts, err := s.API.Contracts(ctx, token)
		if err != nil {
			return api.Pool{}, fmt.Errorf("list the contracts of token %s: %w", token, err)
		}
		pools, err := s.API.AllPools(ctx, token)
		if err != nil {
			return api.Pool{}, fmt.Errorf("list the pools of token %s: %w", token, err)
		}
		for _, c := range contracts.Items {
			if !common.IsHexAddress(c.Address) || common.HexToAddress(c.Address) != addr {
				continue
			}
			for _, pool := range pools.Items {
				if pool.ContractID == c.ID {
					return pool, nil
				}
			}
		}
	}
	return api.Pool{}, fmt.Errorf("safe import: %w: the stake goes to %s, which no pool of the profile's tokens stakes in", wallet.ErrRefused, addr.Hex())
}

// CheckSafeTx is the signing policy's review of a Safe transaction tx
// making calls for act on the Safe info (wallet.CheckSafeTx), with the
// profile's pins: what an owner's signature waits for.
func (s *Session) CheckSafeTx(ctx context.Context, info safe.Info, act proposal.Act, calls []safe.InnerCall, multiSend common.Address, tx safe.Tx) (*wallet.SafeApproval, error) {
	inner, err := s.safeInnerCheck(ctx, act, info.Address)
	if err != nil {
		return nil, err
	}
	pins, err := s.SigningPins(ctx)
	if err != nil {
		return nil, err
	}
	policy := wallet.SafePolicy{ChainID: s.Profile.ChainID, Safe: info, MultiSend: multiSend, Inner: inner, Pins: pins}
	return wallet.CheckSafeTx(ctx, s.Chain, policy, calls, tx)
}

// SignSafeTx signs p's safeTxHash as owner with the keystore's unlocked
// key: an EIP-712 signature, v 27 or 28, checked to recover to the owner
// (an owner of the Safe, not signed already) before it is added. rec
// journals what is signed first (act.Recorder.SafeSignature); nil
// journals nothing.
func SignSafeTx(rec *act.Recorder, store *keystore.Store, owner common.Address, p *proposal.Proposal) error {
	if err := rec.SafeSignature(p, owner); err != nil {
		return fmt.Errorf("not signed: %w", err)
	}
	sig, err := store.SignHash(owner, p.Hashes.SafeTx[:])
	if err != nil {
		return fmt.Errorf("sign the Safe transaction: %w", err)
	}
	sig[64] += 27
	return p.AddSignature(owner, sig)
}

// SafeExec is p's execTransaction sent by executor, and the signing
// policy's check of it (wallet.CheckSafeExec, which reviews the Safe
// transaction again), for the one signing path of every transaction.
func (s *Session) SafeExec(ctx context.Context, p *proposal.Proposal, info safe.Info, executor common.Address) (wallet.Call, func(context.Context, wallet.Pins, []wallet.Call) (*wallet.Approval, error), error) {
	inner, err := s.safeInnerCheck(ctx, p.Act, p.Safe)
	if err != nil {
		return wallet.Call{}, nil, err
	}
	data, err := safe.ExecData(p.Tx, p.Packed())
	if err != nil {
		return wallet.Call{}, nil, err
	}
	check := func(ctx context.Context, pins wallet.Pins, calls []wallet.Call) (*wallet.Approval, error) {
		policy := wallet.ExecPolicy{Executor: executor,
			SafePolicy: wallet.SafePolicy{ChainID: s.Profile.ChainID, Safe: info, MultiSend: p.MultiSend, Inner: inner, Pins: pins}}
		return wallet.CheckSafeExec(ctx, s.Chain, policy, p, calls)
	}
	return wallet.Call{ChainID: s.Profile.ChainID, From: executor, To: p.Safe, Data: data}, check, nil
}

// MarkExecuted records in the proposal file (and its copy) the mined
// transaction tx that executed it, as `allot safe exec` does, and reads
// it back.
func (s *Session) MarkExecuted(ctx context.Context, file string, tx common.Hash) (SafeProposal, error) {
	sp, err := s.ReadProposal(ctx, file)
	if err == nil && sp.Proposal == nil {
		err = sp.Err
	}
	if err != nil {
		return sp, err
	}
	sp.Proposal.Executed = tx
	if _, err := s.SaveProposal(sp.Proposal, sp.Path); err != nil {
		return sp, err
	}
	return s.ReadProposal(ctx, file)
}

// DecodeSafeCalls decodes the calls the Safe safeAddr makes, each against
// the profile's contracts and the chain, as a review shows them. The token
// a stake's approve spends is named as a key's stake names it; the policy
// holds it to the pool's stakingToken() all the same.
func (s *Session) DecodeSafeCalls(ctx context.Context, safeAddr common.Address, calls []safe.InnerCall) ([]*wallet.Summary, error) {
	known, err := s.KnownContracts(ctx)
	if err != nil {
		return nil, err
	}
	inner := wallet.InnerCalls(s.Profile.ChainID, safeAddr, calls)
	for _, c := range inner {
		if act, err := wallet.ClassifySafeCalls([]wallet.Call{c}); err != nil || act.Op != proposal.OpStake {
			continue
		}
		if token, err := wallet.StakingToken(ctx, s.Chain, c.To); err == nil {
			if _, ok := known[token]; !ok {
				known[token] = "the token the pool stakes"
			}
		}
	}
	opts := wallet.DecodeOptions{Signer: safeAddr, ChainID: s.Profile.ChainID, Known: known, Chain: s.Chain, Units: s.ContractUnits(ctx)}
	out := make([]*wallet.Summary, len(inner))
	for i, c := range inner {
		out[i] = wallet.DecodeCall(ctx, c, opts)
	}
	return out, nil
}
