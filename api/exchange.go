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

	"allot/internal/sanitize"
)

// Exchange records one HTTP exchange for the request inspector. Secrets
// are already redacted: the API key and bearer headers, a password in the
// URL, access tokens and upload signatures in bodies.
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

// MaxExchangeBody bounds the bodies an Exchange keeps for display: a page
// of pools or a claim answer fits, and the request log's 500 exchanges
// hold at most 64 MiB of bodies however large the answers.
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

// secretFields are JSON fields whose values never leave the client. They
// are matched as encoding/json matches a field (case-insensitively), since
// that is how a response's "ACCESSTOKEN" still reaches SignInResult.
var secretFields = []string{"accessToken", "apiKey", "readOnlyApiKey", "passphrase", "privateKey"}

// capabilityURLFields hold a pre-signed URL: its query (the signature) is
// a secret, the rest says where it points.
var capabilityURLFields = []string{"uploadUrl"}

func isField(name string, fields []string) bool {
	for _, f := range fields {
		if strings.EqualFold(name, f) {
			return true
		}
	}
	return false
}

// redactBody returns body for display: its first MaxExchangeBody bytes,
// with the value of every secret field that starts within them replaced.
// A body that is not JSON is kept as it is, truncated.
func redactBody(body []byte) []byte {
	if len(body) == 0 {
		return nil
	}
	shown := body[:min(len(body), MaxExchangeBody)]
	out := redactJSON(shown)
	if len(body) > MaxExchangeBody {
		out = append(out, "…"...)
	}
	return out
}

// span is a part of a body to replace.
type span struct {
	from, to int
	with     []byte
}

// redactJSON copies b with the values of secret fields replaced. It reads
// b as a stream of tokens, so that a body cut at MaxExchangeBody (not
// valid JSON any more) is still redacted: a secret value the cut runs
// through is replaced up to the end. Reading stops at the first syntax
// error; what follows is not JSON the client would read a secret from.
func redactJSON(b []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type frame struct{ object, wantKey bool }
	var stack []frame
	var spans []span
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				stack = append(stack, frame{object: t == '{', wantKey: t == '{'})
			default:
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
				valueDone()
			}
			continue
		case string:
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].wantKey {
				stack[n-1].wantKey = false
				secret, capability := isField(t, secretFields), isField(t, capabilityURLFields)
				if !secret && !capability {
					continue
				}
				sp, complete := secretValue(dec, b, capability)
				spans = append(spans, sp)
				if !complete {
					return splice(b, spans)
				}
				valueDone()
				continue
			}
		}
		valueDone()
	}
	return splice(b, spans)
}

// secretValue reads the value after a secret key from dec and returns the
// span of b to replace; complete is false when the value runs past the end
// of b (the span then reaches it).
func secretValue(dec *json.Decoder, b []byte, capability bool) (sp span, complete bool) {
	from := int(dec.InputOffset())
	// The value starts after the colon that follows the key.
	for from < len(b) && (b[from] == ':' || b[from] == ' ' || b[from] == '\t' || b[from] == '\n' || b[from] == '\r') {
		from++
	}
	sp = span{from: from, to: len(b), with: []byte(`"` + Redacted + `"`)}
	tok, err := dec.Token()
	if err != nil {
		return sp, false
	}
	if s, ok := tok.(string); ok && capability {
		shown, _ := json.Marshal(displayURL(s, true) + "?" + Redacted)
		sp.with = shown
	}
	for depth := opens(tok); depth > 0; {
		if tok, err = dec.Token(); err != nil {
			return sp, false
		}
		depth += opens(tok)
	}
	sp.to = int(dec.InputOffset())
	return sp, true
}

// opens is +1 for a token that opens an object or array, -1 for one that
// closes it, else 0.
func opens(tok json.Token) int {
	switch tok {
	case json.Delim('{'), json.Delim('['):
		return 1
	case json.Delim('}'), json.Delim(']'):
		return -1
	}
	return 0
}

// splice returns b with each span replaced; spans are in order and apart.
func splice(b []byte, spans []span) []byte {
	out := make([]byte, 0, len(b))
	at := 0
	for _, sp := range spans {
		out = append(append(out, b[at:sp.from]...), sp.with...)
		at = sp.to
	}
	return append(out, b[at:]...)
}

// Curl returns the exchange as a curl command to paste in a shell, with the
// API key as $ALLOT_API_KEY, a bearer token as $ALLOT_ACCESS_TOKEN and a
// password of the base URL as $ALLOT_URL_PASSWORD.
func (x Exchange) Curl() string {
	var b strings.Builder
	target, user := x.URL, ""
	if u, err := url.Parse(x.URL); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			user = u.User.Username()
			u.User = nil
			target = u.String()
		}
	}
	b.WriteString("curl -sS -X " + x.Method + " " + shellQuote(target))
	if user != "" {
		b.WriteString(" -u " + shellQuote(user+":") + `"$ALLOT_URL_PASSWORD"`)
	}
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
