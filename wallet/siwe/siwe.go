// Package siwe builds, parses and checks Sign-In with Ethereum messages
// (EIP-4361), as the portal sign-in of docs/deployment.md D9 uses them, and
// recovers the signer of an EIP-191 personal_sign signature.
package siwe

import (
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"allot/internal/isotime"
)

// Lifetime is how long a message built by New stays valid (D9).
const Lifetime = 10 * time.Minute

// NonceLength is the length of the nonce New draws (D9).
const NonceLength = 16

// MaxMessageSize bounds what Parse reads; a sign-in message is a few hundred
// bytes.
const MaxMessageSize = 4096

// ClockSkew is how far in the future an Issued At may lie before Verify
// refuses it, to allow for clocks that are slightly apart.
const ClockSkew = 2 * time.Minute

const header = " wants you to sign in with your Ethereum account:"

// Message is an EIP-4361 message.
type Message struct {
	Domain         string
	Address        common.Address
	Statement      string // optional, one line
	URI            string
	Version        string
	ChainID        uint64
	Nonce          string
	IssuedAt       time.Time
	ExpirationTime *time.Time
	NotBefore      *time.Time
	RequestID      string
	Resources      []string
}

// New builds the message of D9 for address to sign in to the portal at uri,
// whose host is domain, valid from now for Lifetime.
func New(domain string, address common.Address, uri string, chainID uint64, statement string, now time.Time) (*Message, error) {
	nonce, err := newNonce()
	if err != nil {
		return nil, fmt.Errorf("sign-in message: %w", err)
	}
	now = now.UTC().Truncate(time.Millisecond)
	expires := now.Add(Lifetime)
	m := &Message{
		Domain:         domain,
		Address:        address,
		Statement:      statement,
		URI:            uri,
		Version:        "1",
		ChainID:        chainID,
		Nonce:          nonce,
		IssuedAt:       now,
		ExpirationTime: &expires,
	}
	if err := m.check(); err != nil {
		return nil, fmt.Errorf("sign-in message: %w", err)
	}
	return m, nil
}

const nonceAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

func newNonce() (string, error) {
	b := make([]byte, NonceLength)
	limit := big.NewInt(int64(len(nonceAlphabet)))
	for i := range b {
		n, err := rand.Int(rand.Reader, limit)
		if err != nil {
			return "", fmt.Errorf("draw nonce: %w", err)
		}
		b[i] = nonceAlphabet[n.Int64()]
	}
	return string(b), nil
}

// String returns the message text exactly as it is signed.
func (m *Message) String() string {
	var b strings.Builder
	b.WriteString(m.Domain + header + "\n")
	b.WriteString(m.Address.Hex() + "\n\n")
	if m.Statement != "" {
		b.WriteString(m.Statement + "\n")
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "URI: %s\n", m.URI)
	fmt.Fprintf(&b, "Version: %s\n", m.Version)
	fmt.Fprintf(&b, "Chain ID: %d\n", m.ChainID)
	fmt.Fprintf(&b, "Nonce: %s\n", m.Nonce)
	fmt.Fprintf(&b, "Issued At: %s", formatTime(m.IssuedAt))
	if m.ExpirationTime != nil {
		fmt.Fprintf(&b, "\nExpiration Time: %s", formatTime(*m.ExpirationTime))
	}
	if m.NotBefore != nil {
		fmt.Fprintf(&b, "\nNot Before: %s", formatTime(*m.NotBefore))
	}
	if m.RequestID != "" {
		fmt.Fprintf(&b, "\nRequest ID: %s", m.RequestID)
	}
	if len(m.Resources) > 0 {
		b.WriteString("\nResources:")
		for _, r := range m.Resources {
			b.WriteString("\n- " + r)
		}
	}
	return b.String()
}

func formatTime(t time.Time) string { return isotime.Format(t) }

// ParseError says which line of a message could not be read.
type ParseError struct {
	Line   int // 1-based
	Reason string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("sign-in message line %d: %s", e.Line, e.Reason)
}

// Parse reads a message in the EIP-4361 format. It is strict: fields come in
// the order of the standard, and an address must be in its EIP-55 form.
func Parse(text string) (*Message, error) {
	if len(text) > MaxMessageSize {
		return nil, &ParseError{Line: 1, Reason: fmt.Sprintf("message is %d bytes, more than %d", len(text), MaxMessageSize)}
	}
	lines := strings.Split(text, "\n")
	p := parser{lines: lines}
	m := &Message{}

	domain, ok := strings.CutSuffix(p.next(), header)
	if !ok || domain == "" {
		return nil, p.fail("want \"<domain>" + header + "\"")
	}
	m.Domain = domain
	addr := p.next()
	if !common.IsHexAddress(addr) || !strings.HasPrefix(addr, "0x") {
		return nil, p.fail("want an Ethereum address")
	}
	m.Address = common.HexToAddress(addr)
	if m.Address.Hex() != addr {
		return nil, p.fail("address is not in its EIP-55 checksummed form")
	}
	if p.next() != "" {
		return nil, p.fail("want an empty line after the address")
	}
	// An optional statement line, then an empty line.
	if line := p.peek(); line != "" && !strings.HasPrefix(line, "URI: ") {
		m.Statement = p.next()
	}
	if p.next() != "" {
		return nil, p.fail("want an empty line before URI")
	}

	var err error
	if m.URI, err = p.field("URI"); err != nil {
		return nil, err
	}
	if u, perr := url.Parse(m.URI); perr != nil || u.Scheme == "" {
		return nil, p.fail("URI is not an absolute URI")
	}
	if m.Version, err = p.field("Version"); err != nil {
		return nil, err
	}
	if m.Version != "1" {
		return nil, p.fail("Version must be 1")
	}
	chain, err := p.field("Chain ID")
	if err != nil {
		return nil, err
	}
	if m.ChainID, err = strconv.ParseUint(chain, 10, 64); err != nil {
		return nil, p.fail("Chain ID is not a number")
	}
	if m.Nonce, err = p.field("Nonce"); err != nil {
		return nil, err
	}
	if !isAlphanumeric(m.Nonce) || len(m.Nonce) < 8 {
		return nil, p.fail("Nonce must be at least 8 letters and digits")
	}
	if m.IssuedAt, err = p.timeField("Issued At"); err != nil {
		return nil, err
	}
	if p.has("Expiration Time") {
		t, err := p.timeField("Expiration Time")
		if err != nil {
			return nil, err
		}
		m.ExpirationTime = &t
	}
	if p.has("Not Before") {
		t, err := p.timeField("Not Before")
		if err != nil {
			return nil, err
		}
		m.NotBefore = &t
	}
	if p.has("Request ID") {
		if m.RequestID, err = p.field("Request ID"); err != nil {
			return nil, err
		}
	}
	if p.peek() == "Resources:" {
		p.next()
		for p.more() {
			r, ok := strings.CutPrefix(p.next(), "- ")
			if !ok || r == "" {
				return nil, p.fail("want a resource line \"- <uri>\"")
			}
			m.Resources = append(m.Resources, r)
		}
	}
	if p.more() {
		p.next()
		return nil, p.fail("unexpected line")
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return m, nil
}

type parser struct {
	lines []string
	pos   int
}

func (p *parser) more() bool   { return p.pos < len(p.lines) }
func (p *parser) peek() string { return p.at(p.pos) }
func (p *parser) next() string { s := p.at(p.pos); p.pos++; return s }

func (p *parser) at(i int) string {
	if i < len(p.lines) {
		return p.lines[i]
	}
	return ""
}

// fail reports a problem with the line most recently read.
func (p *parser) fail(reason string) error {
	return &ParseError{Line: max(p.pos, 1), Reason: reason}
}

func (p *parser) has(name string) bool {
	return strings.HasPrefix(p.peek(), name+": ")
}

func (p *parser) field(name string) (string, error) {
	if !p.more() {
		p.pos++
		return "", p.fail(fmt.Sprintf("missing %q", name))
	}
	v, ok := strings.CutPrefix(p.next(), name+": ")
	if !ok || v == "" {
		return "", p.fail(fmt.Sprintf("want \"%s: ...\"", name))
	}
	return v, nil
}

func (p *parser) timeField(name string) (time.Time, error) {
	v, err := p.field(name)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, p.fail(name + " is not an RFC 3339 time")
	}
	return t.UTC(), nil
}

func isAlphanumeric(s string) bool {
	for _, r := range s {
		if !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// check rejects what the standard forbids and what could disguise a message
// when it is shown: control characters and line breaks inside fields.
func (m *Message) check() error {
	for name, v := range map[string]string{"domain": m.Domain, "statement": m.Statement, "URI": m.URI, "request ID": m.RequestID} {
		if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return fmt.Errorf("sign-in message: %s contains a control character", name)
		}
	}
	if strings.ContainsAny(m.Domain, " /") || m.Domain == "" {
		return fmt.Errorf("sign-in message: domain %q is not a host", m.Domain)
	}
	if m.ExpirationTime != nil && !m.ExpirationTime.After(m.IssuedAt) {
		return errors.New("sign-in message: expires before it is issued")
	}
	return nil
}

// Errors of Verify, to tell apart with errors.Is.
var (
	ErrDomain  = errors.New("sign-in message is for another domain")
	ErrAddress = errors.New("sign-in message names another address")
	ErrChain   = errors.New("sign-in message is for another chain")
	ErrExpired = errors.New("sign-in message has expired")
	ErrEarly   = errors.New("sign-in message is not valid yet")
)

// Verify checks that m is meant for domain, wallet and chainID, and that now
// lies in its validity window. A client calls it before signing a message it
// did not build; a server after parsing one.
func (m *Message) Verify(domain string, wallet common.Address, chainID uint64, now time.Time) error {
	switch {
	case !strings.EqualFold(m.Domain, domain):
		return fmt.Errorf("%w: %q, expected %q", ErrDomain, m.Domain, domain)
	case m.Address != wallet:
		return fmt.Errorf("%w: %s, expected %s", ErrAddress, m.Address.Hex(), wallet.Hex())
	case m.ChainID != chainID:
		return fmt.Errorf("%w: %d, expected %d", ErrChain, m.ChainID, chainID)
	case m.ExpirationTime != nil && !now.Before(*m.ExpirationTime):
		return fmt.Errorf("%w at %s", ErrExpired, formatTime(*m.ExpirationTime))
	case m.NotBefore != nil && now.Before(*m.NotBefore):
		return fmt.Errorf("%w: not before %s", ErrEarly, formatTime(*m.NotBefore))
	case m.IssuedAt.After(now.Add(ClockSkew)):
		return fmt.Errorf("%w: issued at %s", ErrEarly, formatTime(m.IssuedAt))
	}
	return nil
}

// TextHash is the EIP-191 personal_sign hash of message.
func TextHash(message string) []byte {
	return accounts.TextHash([]byte(message))
}

// RecoverSigner returns the address whose key made signature, a 65-byte
// personal_sign signature of message with V 27/28 (or 0/1).
func RecoverSigner(message string, signature []byte) (common.Address, error) {
	if len(signature) != crypto.SignatureLength {
		return common.Address{}, fmt.Errorf("signature is %d bytes, want %d", len(signature), crypto.SignatureLength)
	}
	sig := append([]byte(nil), signature...)
	switch sig[crypto.RecoveryIDOffset] {
	case 27, 28:
		sig[crypto.RecoveryIDOffset] -= 27
	case 0, 1:
	default:
		return common.Address{}, fmt.Errorf("signature has recovery id %d, want 27 or 28", signature[crypto.RecoveryIDOffset])
	}
	pub, err := crypto.SigToPub(TextHash(message), sig)
	if err != nil {
		return common.Address{}, fmt.Errorf("recover signer: %w", err)
	}
	return crypto.PubkeyToAddress(*pub), nil
}
