package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Contracts lists the contracts of a token (operation 8).
func (c *Client) Contracts(ctx context.Context, tokenID string) (*List[Contract], error) {
	if err := CheckUUID("tokenId", tokenID); err != nil {
		return nil, err
	}
	var out List[Contract]
	err := c.do(ctx, call{op: "contracts", method: http.MethodPost, url: c.adminURL("contracts"),
		body: map[string]string{"tokenId": tokenID}, read: true, auth: CredentialAPIKey, limit: mediumAnswer}, &out)
	return &out, err
}

// Pools returns one page of the pools of a token (operation 3). An empty
// cursor asks for the first page.
func (c *Client) Pools(ctx context.Context, tokenID, cursor string) (*PoolPage, error) {
	return c.pools(ctx, tokenID, cursor, nil)
}

// pools is Pools, adding the page's size in bytes to *received.
func (c *Client) pools(ctx context.Context, tokenID, cursor string, received *int) (*PoolPage, error) {
	if err := CheckUUID("tokenId", tokenID); err != nil {
		return nil, err
	}
	body := map[string]string{"tokenId": tokenID}
	if cursor != "" {
		body["cursor"] = cursor
	}
	var out PoolPage
	err := c.do(ctx, call{op: "staking/pools", method: http.MethodPost, url: c.adminURL("staking", "pools"),
		body: body, read: true, auth: CredentialAPIKey, received: received}, &out)
	return &out, err
}

// MaxPoolPages bounds AllPools against a service that never stops paging:
// at D4's 50 pools a page, MaxPools pools take 200 pages.
const MaxPoolPages = 1000

// MaxPools bounds the pools AllPools gathers. A token has a handful of
// staking pools; ten thousand is far past any deployment, and a few
// megabytes in memory.
const MaxPools = 10_000

// AllPools follows the cursors of D4 and returns every pool of a token. It
// stops on an empty page, when it has total items, or when a cursor
// repeats. Past MaxPools pools, past MaxResponseSize bytes of pages in all
// (all the pools of a token fit in one answer's bound), or after
// MaxPoolPages pages, it stops with a *LimitError: never in a loop, never
// with every page of a runaway service in memory, never with a silent part.
func (c *Client) AllPools(ctx context.Context, tokenID string) (*List[Pool], error) {
	const op = "staking/pools"
	var all List[Pool]
	seen := map[string]bool{}
	cursor := ""
	received := 0
	for range MaxPoolPages {
		page, err := c.pools(ctx, tokenID, cursor, &received)
		if err != nil {
			return nil, err
		}
		all.Items = append(all.Items, page.Items...)
		if len(all.Items) > MaxPools {
			return nil, &LimitError{Op: op, Reason: fmt.Sprintf("the service returned more than %d pools", MaxPools)}
		}
		if int64(received) > c.maxBody {
			return nil, &LimitError{Op: op, Reason: fmt.Sprintf("the service returned more than %d MiB of pools", c.maxBody>>20)}
		}
		all.Total = max(page.Total, len(all.Items))
		if len(page.Items) == 0 || len(all.Items) >= page.Total {
			return &all, nil
		}
		next := page.NextCursor
		if next == "" {
			next = page.Cursor
		}
		if next == "" {
			next = page.Items[len(page.Items)-1].ID
		}
		if seen[next] {
			return &all, nil
		}
		seen[next] = true
		cursor = next
	}
	return nil, &LimitError{Op: op, Reason: fmt.Sprintf("the service still had pools after %d pages (%d read of the %d it announced)",
		MaxPoolPages, len(all.Items), all.Total)}
}

// Stakes lists the stakes of a pool, all in one response (operation 4),
// as a list of at most MaxListItems stakes; StreamStakes reads a pool of
// any size as compact rows.
func (c *Client) Stakes(ctx context.Context, req StakesRequest) (*List[Stake], error) {
	out := List[Stake]{Items: Items[Stake]{}}
	total, err := c.StreamStakes(ctx, req, func(batch []StakeRow) error {
		if len(out.Items)+len(batch) > MaxListItems {
			return &LimitError{Op: opStakes, Reason: fmt.Sprintf("the pool has more than %d stakes, more than a list holds", MaxListItems)}
		}
		for i := range batch {
			out.Items = append(out.Items, batch[i].Stake())
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Total = total
	return &out, nil
}

// MerkleProof returns the proof of an allocation (operation 9).
func (c *Client) MerkleProof(ctx context.Context, allocationID string) (*MerkleProof, error) {
	if err := CheckUUID("allocation id", allocationID); err != nil {
		return nil, err
	}
	var out MerkleProof
	err := c.do(ctx, call{op: "allocations/merkle-proof", method: http.MethodGet,
		url: c.adminURL("allocations", allocationID, "merkle-proof"), read: true, auth: CredentialAPIKey, limit: smallAnswer}, &out)
	return &out, err
}

// CreateTransaction creates the on-chain transaction(s) of req (operation 1).
// It is never retried: an unknown outcome is an *OutcomeUnknownError.
func (c *Client) CreateTransaction(ctx context.Context, req TransactionRequest) (*TransactionsResult, error) {
	if err := c.writable("transactions/create"); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out TransactionsResult
	err := c.do(ctx, call{op: "transactions/create", method: http.MethodPost, url: c.adminURL("transactions", "create"),
		body: req, auth: CredentialAPIKey, limit: mediumAnswer}, &out)
	return &out, err
}

// CreateSchedule creates an unlock schedule (operation 2).
func (c *Client) CreateSchedule(ctx context.Context, req ScheduleRequest) (*Schedule, error) {
	if err := c.writable("schedules/create"); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out Schedule
	err := c.do(ctx, call{op: "schedules/create", method: http.MethodPost, url: c.adminURL("schedules", "create"),
		body: req, auth: CredentialAPIKey, limit: smallAnswer}, &out)
	return &out, err
}

// CreativeUploadURL asks where to upload a creative (operation 5).
func (c *Client) CreativeUploadURL(ctx context.Context, req UploadURLRequest) (*UploadURL, error) {
	if err := c.writable("portals/creatives/upload-url"); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out UploadURL
	err := c.do(ctx, call{op: "portals/creatives/upload-url", method: http.MethodPost, url: c.adminURL("portals", "creatives", "upload-url"),
		body: req, auth: CredentialAPIKey, limit: smallAnswer}, &out)
	return &out, err
}

// CreateCreative registers an uploaded creative (operation 6).
func (c *Client) CreateCreative(ctx context.Context, req CreateCreativeRequest) (*Creative, error) {
	if err := c.writable("portals/creatives/create"); err != nil {
		return nil, err
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out Creative
	err := c.do(ctx, call{op: "portals/creatives/create", method: http.MethodPost, url: c.adminURL("portals", "creatives", "create"),
		body: req, auth: CredentialAPIKey, limit: smallAnswer}, &out)
	return &out, err
}

// Claim builds the unsigned claim transactions of an allocation (operation 7).
func (c *Client) Claim(ctx context.Context, allocationID string, req ClaimRequest) (*ClaimResult, error) {
	if err := c.writable("allocations/claim"); err != nil {
		return nil, err
	}
	if err := req.Validate(allocationID); err != nil {
		return nil, err
	}
	var out ClaimResult
	err := c.do(ctx, call{op: "allocations/claim", method: http.MethodPost,
		url: c.adminURL("allocations", allocationID, "claim"), body: req, auth: CredentialAPIKey, limit: smallAnswer}, &out)
	return &out, err
}

// SignIn exchanges a signed sign-in message for an access token
// (operation 10).
func (c *Client) SignIn(ctx context.Context, wallet, message, signature string) (*SignInResult, error) {
	if err := c.writable("auth/signin"); err != nil {
		return nil, err
	}
	var ch checker
	ch.address("wallet", wallet)
	ch.nonEmpty("message", message)
	ch.nonEmpty("signature", signature)
	if err := ch.err(); err != nil {
		return nil, err
	}
	var out SignInResult
	err := c.do(ctx, call{op: "auth/signin", method: http.MethodPost, url: c.portalURL("auth", "signin"), portal: true,
		body: map[string]string{"wallet": wallet, "message": message, "signature": signature}, limit: smallAnswer}, &out)
	if err == nil && out.AccessToken == "" {
		return nil, &UnexpectedResponseError{Op: "auth/signin", Status: http.StatusOK, Reason: "no access token in the answer"}
	}
	return &out, err
}

// Humanity reports whether a wallet passes proof of humanity (operation 11).
func (c *Client) Humanity(ctx context.Context, wallet string) (*HumanityResult, error) {
	var ch checker
	ch.address("wallet", wallet)
	if err := ch.err(); err != nil {
		return nil, err
	}
	body := map[string]map[string]string{"value": {"value": wallet}}
	var out HumanityResult
	err := c.do(ctx, call{op: "humanity/status", method: http.MethodPost, url: c.portalURL("humanity", "status"), portal: true,
		body: body, read: true, limit: smallAnswer}, &out)
	return &out, err
}

// SubmissionAccounts returns the submission of the signed-in wallet
// (operation 12, D10).
func (c *Client) SubmissionAccounts(ctx context.Context, accessToken string) (*SubmissionAccounts, error) {
	if accessToken == "" {
		return nil, &ValidationError{Fields: []FieldError{{Message: "not signed in to the portal"}}}
	}
	var out SubmissionAccounts
	err := c.do(ctx, call{op: "submission/accounts", method: http.MethodGet, url: c.portalURL("submission", "accounts"), portal: true,
		read: true, auth: CredentialAccessToken, token: accessToken, limit: smallAnswer}, &out)
	return &out, err
}

// StakeParameters builds the unsigned stake call (operation 13, D11). Note
// the path: /api/{portalId}/parameters/stake, without v2.
func (c *Client) StakeParameters(ctx context.Context, accessToken, poolID string, amount Number) (*StakeParameters, error) {
	if accessToken == "" {
		return nil, &ValidationError{Fields: []FieldError{{Message: "not signed in to the portal"}}}
	}
	if err := validateStakeParameters(poolID, amount); err != nil {
		return nil, err
	}
	q := url.Values{"stakingPoolId": {poolID}, "amount": {amount.String()}}
	u := endpoint(c.portal, q, "api", c.cfg.PortalID, "parameters", "stake")
	var out StakeParameters
	err := c.do(ctx, call{op: "parameters/stake", method: http.MethodGet, url: u, portal: true,
		read: true, auth: CredentialAccessToken, token: accessToken, limit: smallAnswer}, &out)
	return &out, err
}

// Upload PUTs a creative's bytes to a pre-signed upload URL. The URL is a
// capability: it is not logged beyond its path.
func (c *Client) Upload(ctx context.Context, uploadURL, contentType string, body io.Reader, size int64) error {
	if err := c.writable("upload"); err != nil {
		return err
	}
	u, err := url.Parse(uploadURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return errors.New("upload: the service gave no usable upload URL")
	}
	ctx, cancel := context.WithTimeout(ctx, max(c.cfg.Timeout, 10*time.Minute))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, uploadURL, body)
	if err != nil {
		return fmt.Errorf("upload: %w", transportError(err))
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", contentType)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("upload: %w", transportError(err))
	}
	defer resp.Body.Close()
	if err := redirected("upload", resp); err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("upload: the storage refused the file: %d %s", resp.StatusCode, strings.ToLower(http.StatusText(resp.StatusCode)))
	}
	return nil
}
