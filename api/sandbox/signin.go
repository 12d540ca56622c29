package sandbox

import (
	"strings"
	"time"

	"allot/wallet/siwe"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
)

// maxMessageAge bounds how long after its Issued At a sign-in message is
// accepted, whatever its Expiration Time says, and so how long its nonce
// must be remembered to refuse a replay.
const maxMessageAge = 24 * time.Hour

type signInResult struct {
	AccessToken string    `json:"accessToken"`
	Expiration  timestamp `json:"expiration"`
}

// signIn serves auth/signin (D9): the message must parse as EIP-4361, name
// the wallet, the sandbox's domain and chain, be within its time window,
// carry a nonce never used before, and be signed (EIP-191) by the wallet.
// Malformed input is a 400; everything else that fails is 401 "Invalid
// signature", so a caller learns nothing about which check failed.
func (s *Server) signIn(c *call) (any, error) {
	var p problems
	o, ok := decodeObject(c.body, &p)
	if !ok {
		return nil, p.err()
	}
	wallet, _ := o.address("wallet", true)
	text, textOK := o.string("message", true)
	if textOK && (text == "" || len(text) > siwe.MaxMessageSize) {
		p.addf("message", "must be a sign-in message of 1 to %d bytes", siwe.MaxMessageSize)
	}
	var signature []byte
	if sig, ok := o.string("signature", true); ok {
		b, err := hexutil.Decode(sig)
		if err != nil || len(b) != crypto.SignatureLength {
			p.add("signature", "must be 65 bytes in hexadecimal with 0x")
		}
		signature = b
	}
	if !p.ok() {
		return nil, p.err()
	}
	msg, err := siwe.Parse(text)
	if err != nil {
		return nil, errInvalid("message", err.Error())
	}
	signer, err := siwe.RecoverSigner(text, signature)
	if err != nil || signer != wallet {
		return nil, errInvalidSignature
	}
	now := s.clock()
	if err := msg.Verify(s.signinDomain, wallet, s.chainID(), now); err != nil {
		return nil, errInvalidSignature
	}
	expires := msg.IssuedAt.Add(siwe.Lifetime)
	if msg.ExpirationTime != nil {
		expires = *msg.ExpirationTime
	}
	expires = minTime(expires, msg.IssuedAt.Add(maxMessageAge))
	if !now.Before(expires) || !s.useNonce(msg.Nonce, expires, now) {
		return nil, errInvalidSignature
	}
	token, expiration, err := s.issueToken(wallet)
	if err != nil {
		return nil, err
	}
	return signInResult{AccessToken: token, Expiration: timestamp(expiration)}, nil
}

// useNonce marks nonce used until forget, and reports false if it already
// was. Nonces whose messages have expired are dropped: a replay of those
// fails on the time window.
func (s *Server) useNonce(nonce string, forget, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, used := s.nonces[nonce]; used {
		return false
	}
	if len(s.nonces) >= 1024 {
		for n, t := range s.nonces {
			if !now.Before(t) {
				delete(s.nonces, n)
			}
		}
	}
	s.nonces[strings.Clone(nonce)] = forget
	return true
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
