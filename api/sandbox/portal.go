package sandbox

import (
	"net/http"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/golang-jwt/jwt/v5"
)

// TokenLifetime is how long a portal access token is valid.
const TokenLifetime = time.Hour

// maxTokenLength bounds a bearer token read from a request.
const maxTokenLength = 4096

// accessClaims are the claims of a portal access token (D9): sub is the
// wallet, portalId the portal it was issued for.
type accessClaims struct {
	PortalID string `json:"portalId"`
	jwt.RegisteredClaims
}

// portal wraps a portal operation: the portal id, the bearer token when the
// operation needs one (D10), the body bound, D10 error bodies, and the
// journal for writes. Results are written as they are, without envelope.
func (s *Server) portal(write, needsToken bool, op operation) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !strings.EqualFold(r.PathValue("portalId"), s.world.Portal.ID) {
			writePortalError(w, errPortalNotFound)
			return
		}
		c := &call{ctx: r.Context(), r: r}
		if needsToken {
			wallet, err := s.bearer(r)
			if err != nil {
				writePortalError(w, asAPIError(err))
				return
			}
			c.wallet = wallet
		}
		if r.Method == http.MethodPost {
			body, err := readJSONBody(r)
			if err != nil {
				writePortalError(w, asAPIError(err))
				return
			}
			c.body = body
		}
		if err := s.ready(c.ctx); err != nil {
			writePortalError(w, err)
			return
		}
		if write && s.journalFull() {
			writePortalError(w, errInternal("the sandbox is full: restart it"))
			return
		}
		result, err := op(c)
		if err != nil {
			writePortalError(w, asAPIError(err))
			return
		}
		if write {
			operation := strings.TrimPrefix(r.URL.Path, "/api/v2/"+r.PathValue("portalId")+"/")
			s.record(operation, "", c.body)
		}
		writeJSON(w, http.StatusOK, result)
	}
}

// issueToken returns an access token for wallet and its expiry.
func (s *Server) issueToken(wallet common.Address) (string, time.Time, error) {
	now := s.clock()
	expires := now.Add(TokenLifetime).Truncate(time.Second)
	claims := accessClaims{
		PortalID: s.world.Portal.ID,
		RegisteredClaims: jwt.RegisteredClaims{
			Subject:   wallet.Hex(),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(expires),
		},
	}
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.jwtKey)
	if err != nil {
		return "", time.Time{}, err
	}
	return token, expires, nil
}

// bearer returns the wallet of a valid access token for this portal.
func (s *Server) bearer(r *http.Request) (common.Address, error) {
	unauthorized := errUnauthorized("missing, invalid or expired access token")
	raw, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || raw == "" || len(raw) > maxTokenLength {
		return common.Address{}, unauthorized
	}
	var claims accessClaims
	_, err := jwt.ParseWithClaims(raw, &claims, func(*jwt.Token) (any, error) { return s.jwtKey, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithTimeFunc(s.clock),
		jwt.WithExpirationRequired(),
	)
	if err != nil || claims.PortalID != s.world.Portal.ID {
		return common.Address{}, unauthorized
	}
	wallet, ok := parseAddress(claims.Subject)
	if !ok {
		return common.Address{}, unauthorized
	}
	return wallet, nil
}
