package chain

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// Gas limits of the deployer's transactions. Fixed limits, not estimates,
// because a batch's later transactions depend on earlier ones that are not
// mined when it is sent; a block takes a transaction while its gas left
// exceeds the limit and then charges only the gas used, so generous limits
// cost nothing. The vester, the largest contract, deploys for about 3.2M;
// a block holds 60M.
const (
	deployGas   = 5_000_000
	callGas     = 300_000
	withdrawGas = 1_000_000 // a proof, a leaf to decode, a transfer, maybe a handler
	transferGas = 21_000    // a plain transfer to an account without code
)

// maxBatchBlocks bounds how many blocks Transact seals waiting for a batch:
// a batch that does not fit into this many full blocks is a bug.
const maxBatchBlocks = 16

// Batch queues the deployer's transactions for Transact. Deploy methods
// return the new contract's address at once (it follows from the deployer's
// nonce), so later steps of the same batch can use it.
type Batch struct {
	ctx      context.Context // Transact's, for the reads that queueing needs
	chain    *Chain          // nil in Plan's batch, which reads nothing
	deployer common.Address
	nonce    uint64
	steps    []step
	tokens   map[common.Address]common.Address // vester -> token, for vesters of this batch
	err      error
}

type step struct {
	what  string          // for errors: "deploy Vester", "fund 0x..."
	to    *common.Address // nil deploys
	data  []byte
	value *big.Int // wei; nil for none
	gas   uint64
}

// Transact runs fn to queue the deployer's transactions, sends them in
// order, seals blocks until all are mined (one block, unless they do not
// fit; an external node mines them by itself, within mineTimeout), and
// fails if any reverted, naming the step. Nothing is sent if queueing
// failed; if sending fails midway, what was sent stays in the pool and is
// mined with the next block. Batches run one at a time.
func (c *Chain) Transact(ctx context.Context, fn func(b *Batch)) error {
	c.deployMu.Lock()
	defer c.deployMu.Unlock()
	nonce, err := c.client.PendingNonceAt(ctx, c.Deployer())
	if err != nil {
		return fmt.Errorf("deployer nonce: %w", err)
	}
	b := &Batch{ctx: ctx, chain: c, deployer: c.Deployer(), nonce: nonce, tokens: map[common.Address]common.Address{}}
	fn(b)
	if b.err != nil {
		return b.err
	}
	return b.run(ctx)
}

// Plan runs fn on a batch that sends nothing, as the first Transact on a
// chain from New would run it: the addresses its deploy methods return
// are the ones that Transact's will be, since the deployer and its nonce
// are the same on every new chain. So a world's addresses are known
// before its chain has started. A Fund of a vester not deployed in the
// same batch fails: Plan reads no chain.
func Plan(fn func(b *Batch)) error {
	key, err := deployerKey()
	if err != nil {
		return fmt.Errorf("plan: deployer key: %w", err)
	}
	b := &Batch{ctx: context.Background(), deployer: crypto.PubkeyToAddress(key.PublicKey), tokens: map[common.Address]common.Address{}}
	fn(b)
	return b.err
}

// Deployer is the account the batch's transactions are sent from.
func (b *Batch) Deployer() common.Address { return b.deployer }

// DeployToken deploys a Token (ERC-20, 18 decimals) minted by the deployer.
func (b *Batch) DeployToken(name, symbol string) common.Address {
	return b.deploy(Token, name, symbol)
}

// DeployVester deploys a Vester paying out token, whose every withdraw
// takes claimFee wei. The deployer is its benefactor (every role) and its
// fee collector; the direct claim is allowed (handler 0 is whitelisted).
func (b *Batch) DeployVester(token common.Address, claimFee *big.Int) common.Address {
	return b.deployVester(token, claimFee, false)
}

// DeployVesterFeeOnce deploys a Vester that takes claimFee wei on an
// allocation's first withdraw only (its getClaimFee answers 0 after).
func (b *Batch) DeployVesterFeeOnce(token common.Address, claimFee *big.Int) common.Address {
	return b.deployVester(token, claimFee, true)
}

func (b *Batch) deployVester(token common.Address, claimFee *big.Int, feeOnce bool) common.Address {
	if claimFee == nil {
		b.fail(fmt.Errorf("deploy vester: claim fee: %w", errNilAmount))
		return common.Address{}
	}
	direct := []common.Address{{}}
	vester := b.deploy(Vester, token, b.deployer, claimFee, b.deployer, direct, feeOnce)
	b.tokens[vester] = token
	return vester
}

// DeployPostClaimVault deploys a PostClaimVault taking vester's claims of
// token, and whitelists it on vester.
func (b *Batch) DeployPostClaimVault(vester, token common.Address) common.Address {
	vault := b.deploy(PostClaimVault, vester, token)
	b.call("whitelist "+vault.Hex()+" on "+vester.Hex(), Vester, vester, "addPostClaimHandlerToWhitelist", vault)
	return vault
}

// DeployStaking deploys a Staking pool of token, whose stake takes
// platformFee wei.
func (b *Batch) DeployStaking(token common.Address, platformFee *big.Int) common.Address {
	if platformFee == nil {
		b.fail(fmt.Errorf("deploy staking: platform fee: %w", errNilAmount))
		return common.Address{}
	}
	return b.deploy(Staking, token, platformFee)
}

// Mint creates amount base units of token for to.
func (b *Batch) Mint(token, to common.Address, amount *big.Int) {
	b.call("mint "+to.Hex(), Token, token, "mint", to, amount)
}

// SendNative sends amount wei of the deployer's native coin to to, an
// account without code.
func (b *Batch) SendNative(to common.Address, amount *big.Int) {
	if amount == nil || amount.Sign() <= 0 {
		b.fail(fmt.Errorf("send native coin to %s: %w", to.Hex(), errNilAmount))
		return
	}
	b.steps = append(b.steps, step{what: "send native coin to " + to.Hex(), to: &to, value: new(big.Int).Set(amount), gas: transferGas})
}

// AddRoot commits a merkle root on vester. Roots are numbered from 0 in the
// order they are added (MerkleRoot reads them back).
func (b *Batch) AddRoot(vester common.Address, root common.Hash) {
	b.call("add root to "+vester.Hex(), Vester, vester, "addAllocationRoot", root)
}

// Leaf names an allocation on a vester as its calls take it: the root it
// is committed in, its decodableArgs and its proof.
type Leaf struct {
	RootIndex     uint32
	DecodableArgs []byte
	Proof         []common.Hash
}

// Withdraw sends, from the deployer, a withdraw of amount (0: all that is
// withdrawable) of the allocation, paying fee wei: anyone may send it, and
// the tokens go to the allocation's withdrawal address.
func (b *Batch) Withdraw(vester common.Address, l Leaf, amount, fee *big.Int) {
	data, err := PackWithdraw(amount, l.RootIndex, l.DecodableArgs, l.Proof)
	if err != nil {
		b.fail(err)
		return
	}
	if fee == nil {
		b.fail(fmt.Errorf("withdraw on %s: fee: %w", vester.Hex(), errNilAmount))
		return
	}
	b.steps = append(b.steps, step{what: "withdraw on " + vester.Hex(), to: &vester, data: data, value: new(big.Int).Set(fee), gas: withdrawGas})
}

// Cancel stops the allocation's vesting at the block's time.
func (b *Batch) Cancel(vester common.Address, l Leaf) {
	b.call("cancel on "+vester.Hex(), Vester, vester, "cancel", l.RootIndex, l.DecodableArgs, nodes(l.Proof))
}

// Revoke takes back everything of the allocation not withdrawn.
func (b *Batch) Revoke(vester common.Address, l Leaf) {
	b.call("revoke on "+vester.Hex(), Vester, vester, "revoke", l.RootIndex, l.DecodableArgs, nodes(l.Proof))
}

// TransferBeneficiary points the allocation's withdraws at to, as its
// benefactor: the leaf must be transferableByAdmin.
func (b *Batch) TransferBeneficiary(vester common.Address, l Leaf, to common.Address) {
	b.call("transfer beneficiary on "+vester.Hex(), Vester, vester, "transferBeneficiaryAddress", to, l.RootIndex, l.DecodableArgs, nodes(l.Proof))
}

// DisallowDirectClaim takes address 0 off vester's handler whitelist: its
// claims must then name a whitelisted post-claim handler.
func (b *Batch) DisallowDirectClaim(vester common.Address) {
	b.call("disallow the direct claim on "+vester.Hex(), Vester, vester, "removePostClaimHandlerToWhitelist", common.Address{})
}

// Defund takes amount of its tokens back from vester to the deployer.
func (b *Batch) Defund(vester common.Address, amount *big.Int) {
	b.call("defund "+vester.Hex(), Vester, vester, "defund", amount)
}

// Fund approves vester for amount of its token and funds it: the deployer
// must hold the tokens (Mint them to Deployer first).
func (b *Batch) Fund(vester common.Address, amount *big.Int) {
	token, ok := b.tokens[vester]
	if !ok && b.chain == nil {
		b.fail(fmt.Errorf("fund %s: not a vester of this batch, and a plan reads no chain", vester.Hex()))
		return
	}
	if !ok {
		var err error
		if token, err = b.chain.vesterToken(b.ctx, vester); err != nil {
			b.fail(fmt.Errorf("fund %s: %w", vester.Hex(), err))
			return
		}
	}
	b.call("approve "+vester.Hex(), Token, token, "approve", vester, amount)
	b.call("fund "+vester.Hex(), Vester, vester, "fund", amount)
}

func (b *Batch) deploy(contract *Contract, args ...any) common.Address {
	data, err := contract.deployData(args...)
	if err != nil {
		b.fail(err)
		return common.Address{}
	}
	addr := crypto.CreateAddress(b.deployer, b.nonce+uint64(len(b.steps)))
	b.steps = append(b.steps, step{what: "deploy " + contract.Name, data: data, gas: deployGas})
	return addr
}

func (b *Batch) call(what string, contract *Contract, to common.Address, method string, args ...any) {
	for _, arg := range args {
		if amount, ok := arg.(*big.Int); ok && amount == nil {
			b.fail(fmt.Errorf("%s: %w", what, errNilAmount))
			return
		}
	}
	data, err := contract.ABI.Pack(method, args...)
	if err != nil {
		b.fail(fmt.Errorf("%s: %w", what, err))
		return
	}
	b.steps = append(b.steps, step{what: what, to: &to, data: data, gas: callGas})
}

// Fail fails the batch with err, for a caller that cannot queue what it
// meant to: Transact returns the first error before sending anything.
func (b *Batch) Fail(err error) { b.fail(err) }

// fail keeps the first error; Transact returns it before sending anything.
func (b *Batch) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

func (b *Batch) run(ctx context.Context) error {
	if len(b.steps) == 0 {
		return nil
	}
	c := b.chain
	head, err := c.client.HeaderByNumber(ctx, nil)
	if err != nil {
		return fmt.Errorf("head block: %w", err)
	}
	if head.BaseFee == nil {
		return errors.New("the chain has no base fee: it must run the London fork (EIP-1559) or later")
	}
	tip := big.NewInt(params.GWei)
	// Twice the base fee covers its rise over the blocks a batch may take.
	feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
	hashes := make([]common.Hash, len(b.steps))
	for i, s := range b.steps {
		tx, err := types.SignNewTx(c.deployer, c.signer, &types.DynamicFeeTx{
			ChainID:   c.chainID,
			Nonce:     b.nonce + uint64(i),
			GasTipCap: tip,
			GasFeeCap: feeCap,
			Gas:       s.gas,
			To:        s.to,
			Data:      s.data,
			Value:     s.value,
		})
		if err != nil {
			return fmt.Errorf("%s: sign: %w", s.what, err)
		}
		if err := c.client.SendTransaction(ctx, tx); err != nil {
			return fmt.Errorf("%s: send: %w", s.what, err)
		}
		hashes[i] = tx.Hash()
	}
	receipts := make([]*types.Receipt, len(b.steps))
	if c.External() {
		if err := b.awaitMined(ctx, hashes, receipts); err != nil {
			return err
		}
	} else {
		c.awaitPending(len(b.steps))
		for range maxBatchBlocks {
			if err := b.blockReceipts(ctx, c.Commit(), hashes, receipts); err != nil {
				return err
			}
			missing, err := b.receipts(ctx, hashes, receipts)
			if err != nil {
				return err
			}
			if missing == 0 {
				break
			}
		}
	}
	for i, r := range receipts {
		switch {
		case r == nil:
			return fmt.Errorf("%s: not mined in %d blocks", b.steps[i].what, maxBatchBlocks)
		case r.Status != types.ReceiptStatusSuccessful:
			return fmt.Errorf("%s: transaction %s reverted", b.steps[i].what, r.TxHash.Hex())
		}
	}
	return nil
}

// receipts fills in the receipts not read yet and counts those still
// missing.
func (b *Batch) receipts(ctx context.Context, hashes []common.Hash, receipts []*types.Receipt) (missing int, err error) {
	for i, h := range hashes {
		if receipts[i] != nil {
			continue
		}
		r, err := b.chain.client.TransactionReceipt(ctx, h)
		switch {
		case err == nil:
			receipts[i] = r
		case isNotFound(err):
			missing++
		default:
			return 0, fmt.Errorf("%s: receipt: %w", b.steps[i].what, err)
		}
	}
	return missing, nil
}

// blockReceipts fills in the receipts of the batch's transactions mined
// in the block sealed as block, read in one call: a receipt asked for by
// its transaction's hash makes the node hash the block's transactions
// until it meets it, every transaction of the block for each. What a
// block sealed meanwhile by the mining loop holds, receipts still finds.
func (b *Batch) blockReceipts(ctx context.Context, block common.Hash, hashes []common.Hash, receipts []*types.Receipt) error {
	mined, err := b.chain.client.BlockReceipts(ctx, rpc.BlockNumberOrHashWithHash(block, false))
	if err != nil {
		return fmt.Errorf("receipts of block %s: %w", block.Hex(), err)
	}
	byHash := make(map[common.Hash]*types.Receipt, len(mined))
	for _, r := range mined {
		byHash[r.TxHash] = r
	}
	for i, h := range hashes {
		if r, ok := byHash[h]; ok && receipts[i] == nil {
			receipts[i] = r
		}
	}
	return nil
}

// awaitMined waits for an external node to mine the batch, up to
// mineTimeout.
func (b *Batch) awaitMined(ctx context.Context, hashes []common.Hash, receipts []*types.Receipt) error {
	ctx, cancel := context.WithTimeout(ctx, mineTimeout)
	defer cancel()
	tick := time.NewTicker(receiptPoll)
	defer tick.Stop()
	for {
		missing, err := b.receipts(ctx, hashes, receipts)
		if err != nil {
			return err
		}
		if missing == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for the node to mine %d of %d transactions: %w", missing, len(hashes), ctx.Err())
		case <-tick.C:
		}
	}
}

// awaitPending waits, briefly, until the pool holds n executable
// transactions: the pool promotes them in the background, and committing
// before it has would spill a batch over two blocks (and two seconds of
// chain time). A slow machine gets more blocks, not an error.
func (c *Chain) awaitPending(n int) {
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		if pending, _ := c.txPool.Stats(); pending >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}
