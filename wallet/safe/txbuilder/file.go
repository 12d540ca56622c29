// Package txbuilder writes and reads the batch files of Safe{Wallet}'s
// Transaction Builder: a Safe's transactions as one JSON file, with the
// checksum the Transaction Builder computes (checksum.go), so that a
// batch made here imports there without its "file was modified" warning
// and a teammate's batch made there can be reviewed here.
package txbuilder

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
)

// Bounds on a file read: far past a treasury's batch, short of what a
// review could show.
const (
	MaxFileSize     = 1 << 20
	MaxTransactions = 100
)

// formatVersion is the file format's version, the only one there is.
const formatVersion = "1.0"

// Batch is a Transaction Builder file's content.
type Batch struct {
	ChainID     uint64
	CreatedAt   time.Time // to the millisecond
	Name        string
	Description string
	// Safe and Owner are who the file says made it (createdFromSafeAddress,
	// createdFromOwnerAddress); zero when it names none.
	Safe, Owner  common.Address
	Transactions []Transaction
	// Checksum is the file's meta.checksum, which Read checked against
	// its content; Write computes its own and ignores this one.
	Checksum string
}

// Transaction is one call of a batch, made by the Safe.
type Transaction struct {
	To    common.Address
	Value *big.Int // wei
	Data  []byte
	// Method is the contract method the file gives instead of calldata
	// (as the Transaction Builder writes a call built from an ABI); Data
	// is then its encoding. Nil when the file gives the calldata.
	Method *Method
}

// ErrChecksum: the file's checksum is not its content's, so it was changed
// after it was made (or never made by a Transaction Builder).
var ErrChecksum = errors.New("the checksum does not match the content: the file was changed since it was made")

// The file as JSON. The Transaction Builder writes no txBuilderVersion
// for allot's files: allot is not the Transaction Builder.
type wireFile struct {
	Version      string      `json:"version"`
	ChainID      string      `json:"chainId"`
	CreatedAt    json.Number `json:"createdAt"`
	Meta         wireMeta    `json:"meta"`
	Transactions []wireTx    `json:"transactions"`
}

type wireMeta struct {
	Name                    string  `json:"name"`
	Description             *string `json:"description,omitempty"`
	TxBuilderVersion        *string `json:"txBuilderVersion,omitempty"`
	CreatedFromSafeAddress  string  `json:"createdFromSafeAddress"`
	CreatedFromOwnerAddress string  `json:"createdFromOwnerAddress"`
	Checksum                string  `json:"checksum,omitempty"`
}

type wireTx struct {
	To                   string            `json:"to"`
	Value                string            `json:"value"`
	Data                 *string           `json:"data"`
	ContractMethod       *wireMethod       `json:"contractMethod"`
	ContractInputsValues map[string]string `json:"contractInputsValues"`
}

type wireMethod struct {
	Inputs  []wireInput `json:"inputs"`
	Name    string      `json:"name"`
	Payable bool        `json:"payable"`
}

type wireInput struct {
	InternalType string          `json:"internalType"`
	Name         string          `json:"name"`
	Type         string          `json:"type"`
	Components   json.RawMessage `json:"components,omitempty"`
}

// Write writes b as a Transaction Builder file with its checksum. Each
// transaction is written with its calldata.
func Write(w io.Writer, b Batch) error {
	if len(b.Transactions) == 0 || len(b.Transactions) > MaxTransactions {
		return fmt.Errorf("transaction builder file: %d transactions, not 1 to %d", len(b.Transactions), MaxTransactions)
	}
	// What Read refuses, Write does not write.
	if b.ChainID == 0 || b.CreatedAt.UnixMilli() < 0 {
		return fmt.Errorf("transaction builder file: chain id %d, created at %s: a chain and a time since 1970 are needed", b.ChainID, b.CreatedAt)
	}
	description := b.Description
	f := wireFile{
		Version:   formatVersion,
		ChainID:   strconv.FormatUint(b.ChainID, 10),
		CreatedAt: json.Number(strconv.FormatInt(b.CreatedAt.UnixMilli(), 10)),
		Meta: wireMeta{Name: b.Name, Description: &description,
			CreatedFromSafeAddress: addressText(b.Safe), CreatedFromOwnerAddress: addressText(b.Owner)},
	}
	for i, tx := range b.Transactions {
		if tx.Value == nil || tx.Value.Sign() < 0 || tx.Value.BitLen() > 256 {
			return fmt.Errorf("transaction builder file: transaction %d: value %v is not an amount of wei", i+1, tx.Value)
		}
		data := hexutil.Encode(tx.Data)
		f.Transactions = append(f.Transactions, wireTx{To: tx.To.Hex(), Value: tx.Value.String(), Data: &data})
	}
	unsigned, err := marshal(f)
	if err != nil {
		return err
	}
	// The checksum is over the very tree a reader parses from the file.
	tree, err := parse(json.NewDecoder(bytes.NewReader(unsigned)))
	if err != nil {
		return fmt.Errorf("transaction builder file: %w", err)
	}
	if f.Meta.Checksum, err = checksum(tree.(*object)); err != nil {
		return fmt.Errorf("transaction builder file: %w", err)
	}
	out, err := marshal(f)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

func marshal(f wireFile) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("transaction builder file: %w", err)
	}
	return buf.Bytes(), nil
}

func addressText(a common.Address) string {
	if a == (common.Address{}) {
		return ""
	}
	return a.Hex()
}

// Read reads a Transaction Builder file: at most MaxFileSize bytes of
// UTF-8, strict JSON (no unknown or repeated key, nothing after it), its
// checksum the content's (else ErrChecksum), every address in EIP-55
// form, every value a decimal amount of wei below 2^256, every
// transaction's calldata in hex or its contract method encodable.
func Read(r io.Reader) (Batch, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return Batch{}, fmt.Errorf("transaction builder file: %w", err)
	}
	if len(raw) > MaxFileSize {
		return Batch{}, fmt.Errorf("transaction builder file: larger than %d bytes", MaxFileSize)
	}
	if !utf8.Valid(raw) {
		return Batch{}, errors.New("transaction builder file: not UTF-8 text")
	}
	sum, err := verify(raw)
	if err != nil {
		return Batch{}, fmt.Errorf("transaction builder file: %w", err)
	}
	var f wireFile
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return Batch{}, fmt.Errorf("transaction builder file: %w", err)
	}
	b, err := f.batch()
	if err != nil {
		return Batch{}, fmt.Errorf("transaction builder file: %w", err)
	}
	b.Checksum = sum
	return b, nil
}

// verify parses the file strictly and checks its checksum, which it
// returns.
func verify(raw []byte) (string, error) {
	tree, err := parse(json.NewDecoder(bytes.NewReader(raw)))
	if err != nil {
		return "", err
	}
	root, ok := tree.(*object)
	if !ok {
		return "", errors.New("not a JSON object")
	}
	meta, ok := root.vals["meta"].(*object)
	if !ok {
		return "", errors.New("meta is not an object")
	}
	want, ok := meta.vals["checksum"].(string)
	if !ok {
		return "", errors.New("meta.checksum: none, so nothing says the file is as it was made")
	}
	root = root.without("meta")
	root.set("meta", meta.without("checksum"))
	got, err := checksum(root)
	if err != nil {
		return "", err
	}
	if got != want {
		return "", ErrChecksum
	}
	return got, nil
}

func (f wireFile) batch() (Batch, error) {
	var b Batch
	if f.Version != formatVersion {
		return b, fmt.Errorf("version %q, not %q", clip(f.Version), formatVersion)
	}
	var err error
	if !decimal.MatchString(f.ChainID) {
		return b, fmt.Errorf("chainId %q is not a decimal number", clip(f.ChainID))
	}
	if b.ChainID, err = strconv.ParseUint(f.ChainID, 10, 64); err != nil || b.ChainID == 0 {
		return b, fmt.Errorf("chainId %q is not a chain id", clip(f.ChainID))
	}
	ms, err := f.CreatedAt.Int64()
	if err != nil || ms < 0 {
		return b, fmt.Errorf("createdAt %q is not a time in milliseconds", clip(f.CreatedAt.String()))
	}
	b.CreatedAt = time.UnixMilli(ms).UTC()
	b.Name = f.Meta.Name
	if f.Meta.Description != nil {
		b.Description = *f.Meta.Description
	}
	if b.Safe, err = optionalAddress("createdFromSafeAddress", f.Meta.CreatedFromSafeAddress); err != nil {
		return b, err
	}
	if b.Owner, err = optionalAddress("createdFromOwnerAddress", f.Meta.CreatedFromOwnerAddress); err != nil {
		return b, err
	}
	if len(f.Transactions) == 0 || len(f.Transactions) > MaxTransactions {
		return b, fmt.Errorf("%d transactions, not 1 to %d", len(f.Transactions), MaxTransactions)
	}
	for i, w := range f.Transactions {
		tx, err := w.transaction()
		if err != nil {
			return b, fmt.Errorf("transaction %d: %w", i+1, err)
		}
		b.Transactions = append(b.Transactions, tx)
	}
	return b, nil
}

var decimal = regexp.MustCompile(`^(0|[1-9][0-9]{0,77})$`)

func (w wireTx) transaction() (Transaction, error) {
	var tx Transaction
	var err error
	if tx.To, err = address("to", w.To); err != nil {
		return tx, err
	}
	if tx.Value, err = wei(w.Value); err != nil {
		return tx, err
	}
	switch {
	case w.Data != nil && w.ContractMethod != nil:
		return tx, errors.New("both calldata and a contract method: which one would be sent?")
	case w.Data != nil:
		if tx.Data, err = hexutil.Decode(*w.Data); err != nil {
			return tx, fmt.Errorf("data is not hex: %w", err)
		}
		if w.ContractInputsValues != nil {
			return tx, errors.New("contract input values without a contract method")
		}
	case w.ContractMethod != nil:
		if tx.Method, err = w.ContractMethod.method(w.ContractInputsValues); err != nil {
			return tx, err
		}
		if tx.Data, err = tx.Method.Encode(); err != nil {
			return tx, err
		}
	default:
		return tx, errors.New("neither calldata nor a contract method")
	}
	return tx, nil
}

// wei parses a value: a decimal amount of wei below 2^256.
func wei(s string) (*big.Int, error) {
	v, ok := new(big.Int).SetString(s, 10)
	if !decimal.MatchString(s) || !ok || v.BitLen() > 256 {
		return nil, fmt.Errorf("value %q is not a decimal amount of wei", clip(s))
	}
	return v, nil
}

// address parses an address in its EIP-55 form: a file is read by people
// and by Safe{Wallet}, and a mistyped address fails its checksum.
func address(field, s string) (common.Address, error) {
	if !common.IsHexAddress(s) || len(s) != 42 || common.HexToAddress(s).Hex() != s {
		return common.Address{}, fmt.Errorf("%s %q is not an address in its checksummed (EIP-55) form", field, clip(s))
	}
	return common.HexToAddress(s), nil
}

func optionalAddress(field, s string) (common.Address, error) {
	if s == "" {
		return common.Address{}, nil
	}
	return address(field, s)
}

// clip shortens a file's text for an error; whoever shows the error
// sanitizes it.
func clip(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
