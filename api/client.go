// Package api is the typed client of the token distribution service: the
// administration group (API key) and the portal group (signed message, then
// JWT), as the service's interface describes them, with its gaps filled as
// docs/deployment.md says. A comment's D1 to D18 is that file's entry, and
// its "operation N" the row N of that file's table of the operations.
//
// Every request is validated before it is sent; every response is bounded
// and decoded into types or into an error a caller can tell apart (see
// errors.go). Reads are retried on network errors and 502/503/504; writes
// never are (D5).
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"allot/internal/sanitize"
)

// Config configures a Client.
type Config struct {
	BaseURL      string
	PortalURL    string // default BaseURL
	PortalID     string
	APIKey       string
	APIKeyHeader string        // default DefaultAPIKeyHeader (D1)
	Timeout      time.Duration // per request; default 15 s
	HTTPClient   *http.Client  // default: a client of its own
	// OnExchange receives a record of every HTTP exchange, retries
	// included, for the request inspector. Secrets are redacted.
	OnExchange func(Exchange)
	// ReadOnly refuses every operation that is not a read (ErrReadOnly)
	// before anything is sent: the last wall of a read-only profile.
	ReadOnly bool
	// Backoff is the wait before the try after try (0 for the first
	// retry); nil: 200 ms doubling to 2 s, with jitter. A test of a
	// service that fails on purpose sets no wait, so that it waits on
	// nothing but the answers.
	Backoff func(try int) time.Duration
}

// ErrReadOnly is the refusal of a write by a read-only client.
var ErrReadOnly = errors.New("read-only: nothing is written")

// DefaultAPIKeyHeader is the header of D1.
const DefaultAPIKeyHeader = "x-service-api-token"

// MaxResponseSize bounds a response body read whole: a page of pools or
// the contracts of a token is far below it, while a hostile answer cannot
// take more memory than that. The stakes of a pool (D4: one response, 183
// MB at a million stakes) are not read whole: StreamStakes decodes them as
// they arrive, within MaxStakesBody.
const MaxResponseSize = 64 << 20

// maxTries is how often a read is tried in all: at one request in five
// failing (a service under load), three tries lost about one listing in
// fifty of those that take two pages; five lose about one in a thousand.
const maxTries = 5

// Client calls the service. It is safe for concurrent use.
type Client struct {
	cfg     Config
	base    *url.URL
	portal  *url.URL
	http    *http.Client
	backoff func(try int) time.Duration
	// sleep waits d or until ctx ends, between two tries of a read;
	// tests make it return at once.
	sleep   func(ctx context.Context, d time.Duration) error
	maxBody int64 // MaxResponseSize; tests lower it
	// maxStakesBody, maxStakeRows and maxStakesWait bound StreamStakes:
	// MaxStakesBody, MaxStakeRows and MaxStakesWait; tests lower them.
	maxStakesBody int64
	maxStakeRows  int
	maxStakesWait time.Duration
}

// New returns a client for cfg.
func New(cfg Config) (*Client, error) {
	base, err := parseBase("base URL", cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.PortalURL == "" {
		cfg.PortalURL = cfg.BaseURL
	}
	portal, err := parseBase("portal URL", cfg.PortalURL)
	if err != nil {
		return nil, err
	}
	// The portal id is one path segment, escaped; a dot segment would be
	// resolved by the server or a proxy into another path.
	if cfg.PortalID == "." || cfg.PortalID == ".." {
		return nil, fmt.Errorf("portal id %q is not a path segment", cfg.PortalID)
	}
	if cfg.APIKeyHeader == "" {
		cfg.APIKeyHeader = DefaultAPIKeyHeader
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 15 * time.Second
	}
	// A redirect is never followed: Go strips Authorization from a
	// redirect to another host, but not our custom API key header, and a
	// 307 or 308 sends a write's body again to wherever it points. A copy
	// of the caller's client keeps its transport and leaves it unchanged.
	hc := &http.Client{}
	if cfg.HTTPClient != nil {
		own := *cfg.HTTPClient
		hc = &own
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	backoff := cfg.Backoff
	if backoff == nil {
		backoff = jitteredBackoff
	}
	return &Client{cfg: cfg, base: base, portal: portal, http: hc, backoff: backoff, sleep: sleep, maxBody: MaxResponseSize,
		maxStakesBody: MaxStakesBody, maxStakeRows: MaxStakeRows, maxStakesWait: MaxStakesWait}, nil
}

// parseBase reads a base URL. Its path is a prefix kept before the API's
// paths, its query is sent with every request, and a fragment (never sent
// anyway) is dropped.
func parseBase(what, raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%s %s is not an http(s) URL", what, quoteURL(raw))
	}
	u.Fragment, u.RawFragment = "", ""
	return u, nil
}

// jitteredBackoff waits 200 ms, then 400 ms, capped at 2 s, each with up to
// half again of random jitter so that many clients do not retry in step.
func jitteredBackoff(try int) time.Duration {
	d := min(200*time.Millisecond<<try, 2*time.Second)
	return d + time.Duration(rand.Int64N(int64(d/2)+1))
}

// sleep waits d, or until ctx ends (its error then).
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// transient reports whether a read answered with status may get another
// answer if asked again: the service's own failure (500, as an
// overloaded or restarting service answers) or a gateway's (502, 503,
// 504). 501 and 505 say the request itself is not served: asking again
// would get the same.
func transient(status int) bool {
	switch status {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// call describes one operation.
type call struct {
	op     string // the path after the group prefix, for messages and the inspector
	method string
	url    string
	body   any
	read   bool // retried on transient failures
	auth   Credential
	token  string // the portal access token, for CredentialAccessToken
	portal bool   // the portal group's error bodies
	// received, when set, has the size of the answer's body added.
	received *int
	// limit bounds the answer's body below the client's own bound; 0: no
	// tighter bound.
	limit int64
}

// Answers whose natural size is small are bounded tighter than
// MaxResponseSize: decoded, a list of tiny items ({},{},…) takes ten times
// its bytes or more, so a hostile 64 MiB claim answer could take a
// gigabyte. A proof, a claim, a schedule or a sign-in is kilobytes; the
// contracts of a token or the transactions of a fund are thousands of
// items at most.
const (
	smallAnswer  = 1 << 20
	mediumAnswer = 8 << 20
)

// bodyLimit is the bound on k's answer.
func (c *Client) bodyLimit(k call) int64 {
	if k.limit > 0 {
		return min(k.limit, c.maxBody)
	}
	return c.maxBody
}

// adminURL is the address of an administration operation; segments are
// escaped one by one, so that an id is always one segment.
func (c *Client) adminURL(segments ...string) string {
	return endpoint(c.base, nil, append([]string{"api", "external", "v1"}, segments...)...)
}

// portalURL is the address of a portal operation, under /api/v2/{portalId}.
func (c *Client) portalURL(segments ...string) string {
	return endpoint(c.portal, nil, append([]string{"api", "v2", c.cfg.PortalID}, segments...)...)
}

// endpoint appends the escaped segments to base's path, and adds query to
// base's own query (query wins on a name both have).
func endpoint(base *url.URL, query url.Values, segments ...string) string {
	u := *base
	raw := strings.TrimRight(base.EscapedPath(), "/")
	for _, s := range segments {
		raw += "/" + url.PathEscape(s)
	}
	// raw is escaped by construction, so it always unescapes.
	u.Path, _ = url.PathUnescape(raw)
	u.RawPath = raw
	if len(query) > 0 {
		q := base.Query()
		for name, values := range query {
			q[name] = values
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// do performs the call and decodes the result into out.
func (c *Client) do(ctx context.Context, k call, out any) error {
	if !k.read {
		if err := c.writable(k.op); err != nil {
			return err
		}
	}
	var payload []byte
	if k.body != nil {
		var err error
		if payload, err = json.Marshal(k.body); err != nil {
			return fmt.Errorf("%s: encode request: %w", k.op, err)
		}
	}
	tries := 1
	if k.read {
		tries = maxTries
	}
	return c.retrying(ctx, k, tries, func(try int) (bool, error) {
		status, body, err := c.roundTrip(ctx, k, payload, try)
		if refusedResponse(err) {
			return false, err
		}
		if err != nil {
			notSent := errors.Is(err, ErrNotSent)
			if ctx.Err() != nil {
				switch {
				case notSent:
					return false, fmt.Errorf("%s: %w: %w", k.op, ErrNotSent, ctx.Err())
				case !k.read:
					return false, &OutcomeUnknownError{Op: k.op, Err: ctx.Err()}
				}
				return false, fmt.Errorf("%s: %w", k.op, ctx.Err())
			}
			if k.read {
				return true, err
			}
			if notSent {
				return false, fmt.Errorf("%s: %w", k.op, err)
			}
			return false, &OutcomeUnknownError{Op: k.op, Err: err}
		}
		if k.received != nil {
			*k.received += len(body)
		}
		if k.read && transient(status) && try < tries-1 {
			return true, decodeError(k, status, "", body)
		}
		return false, decode(k, status, body, out)
	})
}

// retrying makes up to tries tries of k, backing off between them: once
// makes one, and says whether its failure is worth another. The last
// such failure is returned as it is when it is the service's (a 500,
// 502, 503 or 504), else saying how often it was tried.
func (c *Client) retrying(ctx context.Context, k call, tries int, once func(try int) (retry bool, err error)) error {
	var lastErr error
	for try := range tries {
		if try > 0 {
			if err := c.sleep(ctx, c.backoff(try-1)); err != nil {
				return fmt.Errorf("%s: %w", k.op, err)
			}
		}
		retry, err := once(try)
		if !retry {
			return err
		}
		lastErr = err
	}
	var transient *StatusError
	if errors.As(lastErr, &transient) {
		return lastErr
	}
	return tried(k.op, lastErr, tries)
}

// tried is the error of a read whose every try failed, lastErr the last
// try's, which may name the operation already.
func tried(op string, lastErr error, tries int) error {
	if strings.HasPrefix(lastErr.Error(), op+": ") {
		return &TriedError{fmt.Errorf("%w (tried %d times)", lastErr, tries)}
	}
	return &TriedError{fmt.Errorf("%s: %w (tried %d times)", op, lastErr, tries)}
}

// TriedError is a read that got no answer however often it was tried (a
// reset, a refused connection, a timeout): the service was not there.
type TriedError struct{ err error }

func (e *TriedError) Error() string { return e.err.Error() }
func (e *TriedError) Unwrap() error { return e.err }

// Unavailable reports whether err is a read that failed because the
// service was not there or failed as a service does when it is down or
// restarting (a 500, 502, 503 or 504, or no answer, after every try, or
// no answer in its time): asked again later, it may be answered. A
// refusal (4xx), an answer allot refuses and a request that cannot be
// served are not.
func Unavailable(err error) bool {
	var status *StatusError
	if errors.As(err, &status) {
		return transient(status.Status)
	}
	var triedErr *TriedError
	return errors.As(err, &triedErr) || errors.Is(err, context.DeadlineExceeded)
}

// refusedResponse reports whether err is an answer allot refuses (a
// redirect, a body over the size limit): an answer came, so it is not an
// unknown outcome, and asking again would get the same.
func refusedResponse(err error) bool {
	var redirect *RedirectError
	var unexpected *UnexpectedResponseError
	return errors.As(err, &redirect) || errors.As(err, &unexpected)
}

// ErrNotSent marks a failure before the request left: the name did not
// resolve, the connection or its TLS handshake failed. A write that fails
// so was not applied, and may be sent again.
var ErrNotSent = errors.New("not sent")

// traces reports whether hc's transport reports its connections to an
// httptrace.ClientTrace (net/http's own does). Another transport cannot
// tell "not sent" from "sent, no answer", so its failures stay unknown.
func traces(hc *http.Client) bool {
	switch hc.Transport.(type) {
	case nil, *http.Transport:
		return true
	}
	return false
}

// transportError is err without the request URL that *url.Error carries
// (the op names the request; the URL may hold a password or, for an
// upload, a signature).
func transportError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func (c *Client) roundTrip(ctx context.Context, k call, payload []byte, try int) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	resp, x, err := c.send(ctx, k, payload, try)
	if x != nil {
		defer c.report(x)
	}
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	limit := c.bodyLimit(k)
	body, err := readBody(resp, limit)
	x.ResponseSize = len(body)
	x.ResponseBody = redactBody(body)
	if errors.Is(err, errTooLarge) {
		x.Err = "response too large"
		return 0, nil, unexpected(k.op, resp.StatusCode, resp.Header.Get("Content-Type"), fmt.Sprintf("body larger than %d MiB", limit>>20), nil)
	}
	if err != nil {
		x.Err = err.Error()
		return 0, nil, fmt.Errorf("read response: %w", err)
	}
	if resp.StatusCode >= 400 {
		x.Err = http.StatusText(resp.StatusCode)
	}
	return resp.StatusCode, body, nil
}

// send sends k's request and returns the response with its body unread
// (a redirect is refused and closed), and the exchange's record for the
// request log, which the caller completes and passes to report. The
// record is nil when the request could not be built.
func (c *Client) send(ctx context.Context, k call, payload []byte, try int) (*http.Response, *Exchange, error) {
	var reqBody io.Reader
	if payload != nil {
		reqBody = bytes.NewReader(payload)
	}
	// Every step before GotConn (name lookup, dial, TLS handshake) sends
	// nothing; after it, a failure may come after the service read the
	// request.
	var connected atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { connected.Store(true) }})
	req, err := http.NewRequestWithContext(ctx, k.method, k.url, reqBody)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrNotSent, transportError(err))
	}
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	switch k.auth {
	case CredentialAPIKey:
		req.Header.Set(c.cfg.APIKeyHeader, c.cfg.APIKey)
	case CredentialAccessToken:
		req.Header.Set("Authorization", "Bearer "+k.token)
	}

	x := &Exchange{Op: k.op, Method: k.method, URL: displayURL(k.url, false), At: time.Now(), Attempt: try + 1,
		RequestHeaders: redactHeaders(req.Header, c.cfg.APIKeyHeader), RequestBody: redactBody(payload), RequestSize: len(payload), apiKeyHeader: c.cfg.APIKeyHeader}
	resp, err := c.http.Do(req)
	if err != nil {
		err = transportError(err)
		if !connected.Load() && traces(c.http) {
			err = fmt.Errorf("%w: %w", ErrNotSent, err)
		}
		x.Err = err.Error()
		return nil, x, err
	}
	x.Status = resp.StatusCode
	x.ResponseHeaders = redactHeaders(resp.Header, "")
	if err := redirected(k.op, resp); err != nil {
		resp.Body.Close()
		x.Err = err.Error()
		return nil, x, err
	}
	return resp, x, nil
}

// report passes a finished exchange to the request log.
func (c *Client) report(x *Exchange) {
	if c.cfg.OnExchange != nil {
		x.Duration = time.Since(x.At)
		c.cfg.OnExchange(*x)
	}
}

var errTooLarge = errors.New("response too large")

// readBody reads resp's body up to limit bytes. A body announced larger is
// refused unread; one that turns out larger is refused at the first byte
// past the limit, so no more than the limit is ever held.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	if resp.ContentLength > limit {
		return nil, errTooLarge
	}
	var buf bytes.Buffer
	if resp.ContentLength > 0 {
		buf.Grow(int(resp.ContentLength))
	}
	_, err := buf.ReadFrom(io.LimitReader(resp.Body, limit+1))
	if int64(buf.Len()) > limit {
		return buf.Bytes()[:limit], errTooLarge
	}
	return buf.Bytes(), err
}

// redirected returns a *RedirectError when resp is a redirect (3xx).
func redirected(op string, resp *http.Response) error {
	if resp.StatusCode < 300 || resp.StatusCode > 399 {
		return nil
	}
	e := &RedirectError{Op: op, Status: resp.StatusCode}
	if loc, err := resp.Location(); err == nil {
		loc.User, loc.RawQuery, loc.ForceQuery, loc.Fragment, loc.RawFragment = nil, "", false, "", ""
		e.Location = sanitize.Truncate(loc.String(), maxQuotedURL)
	}
	return e
}

// envelope is the administration group's response wrapper.
type envelope struct {
	IsProcessed *bool           `json:"isProcessed"`
	Result      json.RawMessage `json:"result"`
	Error       *struct {
		Type    string       `json:"type"`
		Message string       `json:"message"`
		Details []FieldError `json:"details"`
	} `json:"error"`
}

// decode turns a response into out or an error.
func decode(k call, status int, body []byte, out any) error {
	if status != http.StatusOK {
		return decodeError(k, status, "", body)
	}
	if !json.Valid(body) {
		return unexpected(k.op, status, "", "not JSON", body)
	}
	payload := json.RawMessage(body)
	if !k.portal {
		var env envelope
		if err := json.Unmarshal(body, &env); err == nil && env.IsProcessed != nil {
			if !*env.IsProcessed {
				return decodeError(k, status, "", body)
			}
			payload = env.Result
		}
		// A 200 with the bare result and no envelope is accepted (D2).
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(payload, out); err != nil {
		return unexpected(k.op, status, "", "a body of another shape: "+shortJSONError(err), payload)
	}
	return nil
}

func shortJSONError(err error) string {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		// Value is "number 1234…" for a number out of range: name the
		// kind, never the digits.
		kind, _, _ := strings.Cut(typeErr.Value, " ")
		return fmt.Sprintf("field %s is a JSON %s", sanitize.Truncate(typeErr.Field, maxFieldText), kind)
	}
	return sanitize.Truncate(err.Error(), excerptLength)
}

// decodeError reads an error body of either group (D2, D10).
func decodeError(k call, status int, _ string, body []byte) error {
	var admin envelope
	var portal struct {
		Error  any          `json:"error"`
		Errors []FieldError `json:"errors"`
	}
	message, errorType := "", ""
	var details []FieldError
	switch {
	case !json.Valid(body):
		if status == http.StatusOK {
			return unexpected(k.op, status, "", "not JSON", body)
		}
		// An HTML page from a proxy says nothing about our request beyond
		// its status; keep an excerpt for the details.
		if status != http.StatusUnauthorized && status != http.StatusForbidden {
			return unexpected(k.op, status, "", "not JSON", body)
		}
	case json.Unmarshal(body, &admin) == nil && admin.Error != nil:
		message, errorType, details = admin.Error.Message, admin.Error.Type, admin.Error.Details
	case json.Unmarshal(body, &portal) == nil:
		if s, ok := portal.Error.(string); ok {
			message = s
		}
		details = portal.Errors
	}

	return statusError(k, status, errorType, message, details, body)
}

// statusError is the error of a refusal or failure with status, from the
// parts of its body (D2, D10); body is for an excerpt.
func statusError(k call, status int, errorType, message string, details []FieldError, body []byte) error {
	se := &StatusError{Op: k.op, Status: status, Message: message, Credential: k.auth}
	switch {
	case status == http.StatusBadRequest || errorType == "ValidationError" || len(details) > 0:
		if len(details) == 0 {
			details = []FieldError{{Message: orDefault(message, "invalid request")}}
		}
		return &ValidationError{Op: k.op, Fields: remoteFields(details), Remote: true}
	case status == http.StatusUnauthorized && message == "Invalid signature":
		se.Kind = ErrInvalidSignature
	case status == http.StatusUnauthorized:
		se.Kind = ErrUnauthorized
	case status == http.StatusForbidden:
		se.Kind = ErrForbidden
	case status == http.StatusNotFound && message == "STAKING_POOL_NOT_FOUND":
		se.Kind = ErrPoolNotFound
		se.Message = "no such staking pool"
	case status == http.StatusNotFound:
		se.Kind = ErrNotFound
		se.Message = orDefault(message, "not found")
	case status >= 500:
		se.Kind = ErrServer
		se.Message = orDefault(message, "the service failed")
	case status == http.StatusOK:
		se.Kind = ErrServer
		se.Message = orDefault(message, "the service did not process the request")
	default:
		return unexpected(k.op, status, "", "status "+http.StatusText(status), body)
	}
	return se
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// writable refuses op, a write, on a read-only client: before its
// request is checked or sent.
func (c *Client) writable(op string) error {
	if c.cfg.ReadOnly {
		return fmt.Errorf("%s: %w", op, ErrReadOnly)
	}
	return nil
}

// ReadOnly returns a client like c that refuses every write
// (ErrReadOnly) before anything is sent.
func (c *Client) ReadOnly() *Client {
	cp := *c
	cp.cfg.ReadOnly = true
	return &cp
}
