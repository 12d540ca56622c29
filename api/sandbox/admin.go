package sandbox

import (
	"context"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// Scopes of an API key (D3).
const (
	ScopeFull = "FULL"
	ScopeRead = "EXTERNAL_STATS_READ"
)

// MaxBodySize bounds a request body of the administration and portal
// groups.
const MaxBodySize = 1 << 20

// maxWrites bounds the writes one sandbox applies, and with them everything
// it stores: a sandbox is restarted long before it reaches this.
const maxWrites = 200_000

// apiKeys are the sandbox's two API keys. They are fixed strings, the same
// on every start, so that a configuration pointing at a sandbox keeps
// working; they protect nothing of value.
type apiKeys struct {
	full, read string
}

func newAPIKeys() apiKeys {
	derive := func(label string) string {
		return hex.EncodeToString(crypto.Keccak256([]byte("allot sandbox api key/" + label))[:16])
	}
	return apiKeys{full: "sandbox-full-" + derive(ScopeFull), read: "sandbox-read-" + derive(ScopeRead)}
}

// scope returns the scope of key, or "" for an unknown key.
func (k apiKeys) scope(key string) string {
	switch {
	case key == "":
		return ""
	case subtle.ConstantTimeCompare([]byte(key), []byte(k.full)) == 1:
		return ScopeFull
	case subtle.ConstantTimeCompare([]byte(key), []byte(k.read)) == 1:
		return ScopeRead
	}
	return ""
}

// call is one request to an operation.
type call struct {
	ctx  context.Context
	r    *http.Request
	body []byte
	// action is journaled with the write (transactions/create sets it).
	action string
	// wallet is the signed-in wallet, for portal operations that need it.
	wallet common.Address
	// early is set for a listing answered from the seed before the world
	// is finished and deployed (Server.early): it must read nothing else.
	early bool
}

// rawResult is a complete response body an operation has rendered itself,
// in parts written one after the other: a large rendered listing is sent
// as it is, never copied into a second body.
type rawResult [][]byte

type operation func(c *call) (any, error)

// admin wraps an administration operation: API key and scope (D1, D3), body
// bound, the D2 envelope, and the journal for writes.
func (s *Server) admin(write bool, op operation) http.HandlerFunc {
	return s.adminOp(write, false, op)
}

// listing wraps a read-only administration operation that needs only the
// seed's first part: it is answered early (call.early) while the world's
// rest and its deployment are under way, so that a first screen does not
// wait for them.
func (s *Server) listing(op operation) http.HandlerFunc {
	return s.adminOp(false, true, op)
}

func (s *Server) adminOp(write, early bool, op operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch scope := s.keys.scope(r.Header.Get(s.apiKeyHeader)); {
		case scope == "":
			writeAdminError(w, errUnauthorized("missing or invalid API token"))
			return
		case write && scope != ScopeFull:
			writeAdminError(w, errForbidden("the API token lacks the FULL scope this operation needs"))
			return
		}
		c := &call{ctx: r.Context(), r: r}
		if r.Method == http.MethodPost {
			body, err := readJSONBody(r)
			if err != nil {
				writeAdminError(w, asAPIError(err))
				return
			}
			c.body = body
		}
		c.early = early && s.early()
		if !c.early {
			if err := s.ready(c.ctx); err != nil {
				writeAdminError(w, err)
				return
			}
		}
		if write && s.journalFull() {
			writeAdminError(w, errInternal("the sandbox is full: restart it"))
			return
		}
		result, err := op(c)
		if err != nil {
			writeAdminError(w, asAPIError(err))
			return
		}
		if write {
			s.record(strings.TrimPrefix(r.URL.Path, adminPrefix), c.action, c.body)
		}
		if raw, ok := result.(rawResult); ok {
			writeBytes(w, http.StatusOK, raw...)
			return
		}
		writeJSON(w, http.StatusOK, envelope{IsProcessed: true, Result: result})
	}
}

// readJSONBody reads a bounded JSON request body.
func readJSONBody(r *http.Request) ([]byte, error) {
	if mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mediaType != "application/json" {
		return nil, errInvalid("header.Content-Type", "must be application/json")
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodySize+1))
	if err != nil {
		return nil, errInvalid(bodyPath, "could not be read")
	}
	if len(body) > MaxBodySize {
		return nil, errInvalid(bodyPath, fmt.Sprintf("is larger than %d bytes", MaxBodySize))
	}
	return body, nil
}

// asAPIError turns an operation's error into its answer: an *apiError as it
// is, anything else a server failure whose text stays out of the response.
func asAPIError(err error) *apiError {
	var e *apiError
	if errors.As(err, &e) {
		return e
	}
	return errInternal("the sandbox failed to process the request")
}
