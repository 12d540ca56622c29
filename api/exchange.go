package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"allot/sanitize"
)

// Exchange records one HTTP exchange for the request inspector. Secrets
// are already redacted: the API key and bearer headers, and access tokens
// in bodies.
type Exchange struct {
	Op              string
	Method          string
	URL             string
	Status          int // 0 when no response came
	At              time.Time
	Duration        time.Duration
	Attempt         int // 1 for the first try, 2 and 3 for retries
	RequestHeaders  http.Header
	ResponseHeaders http.Header
	RequestBody     []byte
	ResponseBody    []byte // at most MaxExchangeBody bytes
	RequestSize     int
	ResponseSize    int
	Err             string

	apiKeyHeader string
}

// MaxExchangeBody bounds the bodies an Exchange keeps for display.
const MaxExchangeBody = 64 << 10

// Redacted replaces secrets in headers and bodies.
const Redacted = "REDACTED"

func redactHeaders(h http.Header, apiKeyHeader string) http.Header {
	out := h.Clone()
	for name := range out {
		if strings.EqualFold(name, "Authorization") || (apiKeyHeader != "" && strings.EqualFold(name, apiKeyHeader)) || strings.EqualFold(name, "Set-Cookie") || strings.EqualFold(name, "Cookie") {
			out[name] = []string{Redacted}
		}
	}
	return out
}

// secretFields are JSON fields whose values never leave the client.
var secretFields = map[string]bool{"accessToken": true, "apiKey": true, "readOnlyApiKey": true, "passphrase": true, "privateKey": true}

// redactBody replaces secret fields of a JSON body and truncates it for
// display. A body that is not JSON is kept as it is, truncated.
func redactBody(body []byte) []byte {
	if len(body) == 0 {
		return nil
	}
	if len(body) <= MaxExchangeBody && bytes.Contains(body, []byte(`"`)) && json.Valid(body) {
		var v any
		if json.Unmarshal(body, &v) == nil && redactValue(v) {
			if out, err := json.Marshal(v); err == nil {
				return out
			}
		}
	}
	if len(body) > MaxExchangeBody {
		return append(append([]byte(nil), body[:MaxExchangeBody]...), "…"...)
	}
	return append([]byte(nil), body...)
}

// redactValue redacts in place and reports whether anything changed.
func redactValue(v any) bool {
	changed := false
	switch t := v.(type) {
	case map[string]any:
		for k, child := range t {
			if secretFields[k] {
				t[k] = Redacted
				changed = true
			} else if redactValue(child) {
				changed = true
			}
		}
	case []any:
		for _, child := range t {
			if redactValue(child) {
				changed = true
			}
		}
	}
	return changed
}

// Curl returns the exchange as a curl command to paste in a shell, with the
// API key as $ALLOT_API_KEY and a bearer token as $ALLOT_ACCESS_TOKEN.
func (x Exchange) Curl() string {
	var b strings.Builder
	b.WriteString("curl -sS -X " + x.Method + " " + shellQuote(x.URL))
	names := make([]string, 0, len(x.RequestHeaders))
	for name := range x.RequestHeaders {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, v := range x.RequestHeaders[name] {
			switch {
			case strings.EqualFold(name, "Authorization"):
				b.WriteString(` -H "Authorization: Bearer $ALLOT_ACCESS_TOKEN"`)
			case x.apiKeyHeader != "" && strings.EqualFold(name, x.apiKeyHeader):
				b.WriteString(` -H "` + strings.ToLower(name) + `: $ALLOT_API_KEY"`)
			default:
				b.WriteString(" -H " + shellQuote(name+": "+v))
			}
		}
	}
	if len(x.RequestBody) > 0 {
		b.WriteString(" --data-raw " + shellQuote(string(x.RequestBody)))
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell: single quotes, with embedded ones
// closed, escaped and reopened. Nothing inside is expanded.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// displayURL is raw for display: a password in it (user:pass@host) becomes
// REDACTED, and with dropQuery the query is left out (a pre-signed upload
// URL's signature lives there).
func displayURL(raw string, dropQuery bool) string {
	u, err := url.Parse(raw)
	if err != nil {
		// Unreadable: keep only what follows the last @, where a password
		// would end.
		if i := strings.LastIndex(raw, "@"); i >= 0 {
			raw = Redacted + raw[i:]
		}
		if i := strings.IndexAny(raw, "?#"); i >= 0 && dropQuery {
			raw = raw[:i]
		}
		return raw
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), Redacted)
	}
	if dropQuery {
		u.RawQuery, u.ForceQuery = "", false
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// quoteURL is raw quoted for an error message: redacted, sanitized, short.
func quoteURL(raw string) string {
	return strconv.Quote(sanitize.Truncate(displayURL(raw, false), maxQuotedURL))
}

// maxQuotedURL bounds a URL quoted in an error: enough for a host and a
// path, never a page of a hostile Location header.
const maxQuotedURL = 160
