package proposal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"allot/wallet/safe"
)

// The file as written: every number a decimal string (JSON numbers lose
// precision past 2^53 in most readers), every address EIP-55, every
// byte string 0x-hex.
type wireFile struct {
	Version     int        `json:"version"`
	ChainID     string     `json:"chainId"`
	Safe        string     `json:"safe"`
	SafeVersion string     `json:"safeVersion"`
	Owners      []string   `json:"owners"`
	Threshold   uint64     `json:"threshold"`
	Act         wireAct    `json:"act"`
	Calls       []wireCall `json:"calls"`
	MultiSend   string     `json:"multiSend,omitempty"`
	Tx          wireTx     `json:"safeTx"`
	Hashes      wireHashes `json:"hashes"`
	Signatures  []wireSig  `json:"signatures"`
	Executed    string     `json:"executedBy,omitempty"`
}

type wireAct struct {
	Op      string `json:"op"`
	Subject string `json:"subject"`
	Amount  string `json:"amount,omitempty"` // base units
	To      string `json:"to,omitempty"`     // a transfer's new address
}

type wireCall struct {
	To    string `json:"to"`
	Value string `json:"value"`
	Data  string `json:"data"`
}

type wireTx struct {
	To             string `json:"to"`
	Value          string `json:"value"`
	Data           string `json:"data"`
	Operation      uint8  `json:"operation"`
	SafeTxGas      string `json:"safeTxGas"`
	BaseGas        string `json:"baseGas"`
	GasPrice       string `json:"gasPrice"`
	GasToken       string `json:"gasToken"`
	RefundReceiver string `json:"refundReceiver"`
	Nonce          string `json:"nonce"`
}

type wireHashes struct {
	Domain  string `json:"domainHash"`
	Message string `json:"messageHash"`
	SafeTx  string `json:"safeTxHash"`
}

type wireSig struct {
	Owner     string `json:"owner"`
	Signature string `json:"signature"`
}

// Write writes the proposal, checked, as indented JSON.
func Write(w io.Writer, p *Proposal) error {
	if err := p.Check(); err != nil {
		return err
	}
	f := wireFile{Version: Version, ChainID: strconv.FormatUint(p.ChainID, 10), Safe: p.Safe.Hex(), SafeVersion: p.SafeVersion,
		Threshold: p.Threshold, Act: wireAct{Op: p.Act.Op, Subject: p.Act.Subject}, Tx: txOut(p.Tx),
		Hashes:     wireHashes{Domain: p.Hashes.Domain.Hex(), Message: p.Hashes.Message.Hex(), SafeTx: p.Hashes.SafeTx.Hex()},
		Signatures: []wireSig{}}
	if p.Act.Amount != nil {
		f.Act.Amount = p.Act.Amount.String()
	}
	if p.Act.Op == OpTransfer {
		f.Act.To = p.Act.To.Hex()
	}
	for _, o := range p.Owners {
		f.Owners = append(f.Owners, o.Hex())
	}
	for _, c := range p.Calls {
		f.Calls = append(f.Calls, wireCall{To: c.To.Hex(), Value: orZero(c.Value).String(), Data: hexutil.Encode(c.Data)})
	}
	if p.MultiSend != (common.Address{}) {
		f.MultiSend = p.MultiSend.Hex()
	}
	for _, s := range p.Signatures {
		f.Signatures = append(f.Signatures, wireSig{Owner: s.Owner.Hex(), Signature: hexutil.Encode(s.Bytes)})
	}
	if p.Executed != (common.Hash{}) {
		f.Executed = p.Executed.Hex()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return fmt.Errorf("write the proposal: %w", err)
	}
	return nil
}

func txOut(tx safe.Tx) wireTx {
	return wireTx{To: tx.To.Hex(), Value: orZero(tx.Value).String(), Data: hexutil.Encode(tx.Data), Operation: uint8(tx.Operation),
		SafeTxGas: orZero(tx.SafeTxGas).String(), BaseGas: orZero(tx.BaseGas).String(), GasPrice: orZero(tx.GasPrice).String(),
		GasToken: tx.GasToken.Hex(), RefundReceiver: tx.RefundReceiver.Hex(), Nonce: orZero(tx.Nonce).String()}
}

// Read reads a proposal: at most MaxFileSize bytes of UTF-8, strict JSON
// (no unknown field, nothing after it), this format's version, every
// field well formed, and the whole consistent (Check).
func Read(r io.Reader) (*Proposal, error) {
	raw, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read the proposal: %w", err)
	}
	if len(raw) > MaxFileSize {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrInvalid, MaxFileSize)
	}
	if !utf8.Valid(raw) {
		return nil, fmt.Errorf("%w: not UTF-8 text", ErrInvalid)
	}
	var f wireFile
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: something after the proposal", ErrInvalid)
	}
	if f.Version != Version {
		return nil, fmt.Errorf("%w: version %d, this allot reads version %d", ErrInvalid, f.Version, Version)
	}
	p, err := f.proposal()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return p, p.Check()
}

func (f wireFile) proposal() (*Proposal, error) {
	p := &Proposal{SafeVersion: f.SafeVersion, Threshold: f.Threshold, Act: Act{Op: f.Act.Op, Subject: f.Act.Subject}}
	var err error
	if !decimal.MatchString(f.ChainID) {
		return nil, fmt.Errorf("chainId %q is not a decimal number", clip(f.ChainID))
	}
	if p.ChainID, err = strconv.ParseUint(f.ChainID, 10, 64); err != nil {
		return nil, fmt.Errorf("chainId %q: %w", clip(f.ChainID), err)
	}
	if p.SafeVersion != "1.3.0" && p.SafeVersion != "1.4.1" {
		return nil, fmt.Errorf("safeVersion %q is not 1.3.0 or 1.4.1", clip(p.SafeVersion))
	}
	if p.Safe, err = address("safe", f.Safe); err != nil {
		return nil, err
	}
	if len(f.Owners) > safe.MaxOwners || len(f.Calls) > MaxCalls || len(f.Signatures) > safe.MaxOwners {
		return nil, errors.New("more owners, calls or signatures than a Safe proposal holds")
	}
	for i, o := range f.Owners {
		a, err := address(fmt.Sprintf("owners[%d]", i), o)
		if err != nil {
			return nil, err
		}
		p.Owners = append(p.Owners, a)
	}
	if f.Act.To != "" {
		if p.Act.To, err = address("act.to", f.Act.To); err != nil {
			return nil, err
		}
	}
	if f.Act.Amount != "" {
		if p.Act.Amount, err = number("act.amount", f.Act.Amount); err != nil {
			return nil, err
		}
	}
	for i, c := range f.Calls {
		call, err := c.call(i)
		if err != nil {
			return nil, err
		}
		p.Calls = append(p.Calls, call)
	}
	if f.MultiSend != "" {
		if p.MultiSend, err = address("multiSend", f.MultiSend); err != nil {
			return nil, err
		}
	}
	if p.Tx, err = f.Tx.tx(); err != nil {
		return nil, err
	}
	if p.Hashes, err = f.Hashes.hashes(); err != nil {
		return nil, err
	}
	for i, s := range f.Signatures {
		sig := safe.Signature{}
		if sig.Owner, err = address(fmt.Sprintf("signatures[%d].owner", i), s.Owner); err != nil {
			return nil, err
		}
		if sig.Bytes, err = hexutil.Decode(s.Signature); err != nil || len(sig.Bytes) != safe.SignatureSize {
			return nil, fmt.Errorf("signatures[%d].signature is not %d bytes of hex", i, safe.SignatureSize)
		}
		p.Signatures = append(p.Signatures, sig)
	}
	if f.Executed != "" {
		if p.Executed, err = hash("executedBy", f.Executed); err != nil {
			return nil, err
		}
	}
	return p, nil
}

func (c wireCall) call(i int) (safe.InnerCall, error) {
	var out safe.InnerCall
	var err error
	if out.To, err = address(fmt.Sprintf("calls[%d].to", i), c.To); err != nil {
		return out, err
	}
	if out.Value, err = number(fmt.Sprintf("calls[%d].value", i), c.Value); err != nil {
		return out, err
	}
	if out.Data, err = data(fmt.Sprintf("calls[%d].data", i), c.Data); err != nil {
		return out, err
	}
	return out, nil
}

func (w wireTx) tx() (safe.Tx, error) {
	tx := safe.Tx{Operation: safe.Operation(w.Operation)}
	var err error
	if tx.To, err = address("safeTx.to", w.To); err != nil {
		return tx, err
	}
	if tx.GasToken, err = address("safeTx.gasToken", w.GasToken); err != nil {
		return tx, err
	}
	if tx.RefundReceiver, err = address("safeTx.refundReceiver", w.RefundReceiver); err != nil {
		return tx, err
	}
	if tx.Data, err = data("safeTx.data", w.Data); err != nil {
		return tx, err
	}
	for _, n := range []struct {
		name string
		s    string
		into **big.Int
	}{{"value", w.Value, &tx.Value}, {"safeTxGas", w.SafeTxGas, &tx.SafeTxGas}, {"baseGas", w.BaseGas, &tx.BaseGas},
		{"gasPrice", w.GasPrice, &tx.GasPrice}, {"nonce", w.Nonce, &tx.Nonce}} {
		if *n.into, err = number("safeTx."+n.name, n.s); err != nil {
			return tx, err
		}
	}
	return tx, nil
}

func (w wireHashes) hashes() (safe.Hashes, error) {
	var h safe.Hashes
	var err error
	if h.Domain, err = hash("hashes.domainHash", w.Domain); err != nil {
		return h, err
	}
	if h.Message, err = hash("hashes.messageHash", w.Message); err != nil {
		return h, err
	}
	h.SafeTx, err = hash("hashes.safeTxHash", w.SafeTx)
	return h, err
}

var (
	decimal  = regexp.MustCompile(`^(0|[1-9][0-9]{0,77})$`)
	hashText = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)
)

func number(field, s string) (*big.Int, error) {
	n, ok := new(big.Int).SetString(s, 10)
	if !decimal.MatchString(s) || !ok || n.BitLen() > 256 {
		return nil, fmt.Errorf("%s %q is not a decimal number below 2^256", field, clip(s))
	}
	return n, nil
}

func address(field, s string) (common.Address, error) {
	if !common.IsHexAddress(s) || len(s) != 42 {
		return common.Address{}, fmt.Errorf("%s %q is not an address", field, clip(s))
	}
	a := common.HexToAddress(s)
	if s != a.Hex() && s != "0x"+hexLower(a) {
		return common.Address{}, fmt.Errorf("%s %q: its mixed case is not the EIP-55 checksum of the address", field, clip(s))
	}
	return a, nil
}

func hexLower(a common.Address) string { return hexutil.Encode(a[:])[2:] }

func hash(field, s string) (common.Hash, error) {
	if !hashText.MatchString(s) {
		return common.Hash{}, fmt.Errorf("%s %q is not a 32-byte hash in hex", field, clip(s))
	}
	return common.HexToHash(s), nil
}

func data(field, s string) ([]byte, error) {
	// The file's size bounds it.
	b, err := hexutil.Decode(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", field, err)
	}
	return b, nil
}

func orZero(n *big.Int) *big.Int {
	if n == nil {
		return new(big.Int)
	}
	return n
}
