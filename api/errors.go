package api

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"allot/internal/sanitize"
)

// FieldError is one invalid field of a request.
type FieldError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (f FieldError) String() string {
	if f.Path == "" {
		return f.Message
	}
	return f.Path + ": " + f.Message
}

// ValidationError lists what is wrong with a request: found before sending
// (Remote false) or reported by the service with status 400 (Remote true).
type ValidationError struct {
	Op     string
	Fields []FieldError
	Remote bool
}

// maxFieldsText bounds the service's fields an error message lists, so
// that it stays one line; the fields past it are counted. allot's own
// (Remote false) are listed whole: their text is ours.
const maxFieldsText = 200

func (e *ValidationError) Error() string {
	var parts []string
	length := 0
	for i, f := range e.Fields {
		part := sanitize.Line(f.String())
		if e.Remote && i > 0 && length+len(part) > maxFieldsText {
			parts = append(parts, fmt.Sprintf("and %d more", len(e.Fields)-i))
			break
		}
		parts = append(parts, part)
		length += len(part)
	}
	msg := strings.Join(parts, "; ")
	if msg == "" {
		msg = "invalid request"
	}
	if e.Remote {
		return fmt.Sprintf("%s: the service refused the request: %s", e.Op, msg)
	}
	return msg
}

// maxFieldText bounds one field error in a message: a path and a sentence.
const maxFieldText = 100

// maxRemoteFields bounds the field errors kept from a service's 400, each
// path and message cut to maxFieldText: a form has a few dozen fields, a
// hostile answer may list a million.
const maxRemoteFields = 50

// remoteFields returns the service's field errors, bounded and sanitized.
func remoteFields(fields []FieldError) []FieldError {
	out := make([]FieldError, 0, min(len(fields), maxRemoteFields))
	for _, f := range fields[:min(len(fields), maxRemoteFields)] {
		out = append(out, FieldError{Path: sanitize.Truncate(f.Path, maxFieldText), Message: sanitize.Truncate(f.Message, maxFieldText)})
	}
	return out
}

// Sentinels for errors.Is on *StatusError.
var (
	ErrUnauthorized     = errors.New("unauthorized")
	ErrForbidden        = errors.New("forbidden")
	ErrNotFound         = errors.New("not found")
	ErrPoolNotFound     = errors.New("staking pool not found")
	ErrInvalidSignature = errors.New("invalid signature")
	ErrServer           = errors.New("server error")
)

// Credential names what authenticated a request, for messages that say
// which one to fix.
type Credential string

// Credentials.
const (
	CredentialAPIKey      Credential = "API key"
	CredentialAccessToken Credential = "portal access token"
	CredentialNone        Credential = ""
)

// StatusError is a refusal or failure the service reported with a status.
type StatusError struct {
	Op         string
	Status     int
	Kind       error // one of the sentinels above
	Message    string
	Credential Credential
}

func (e *StatusError) Error() string {
	msg := sanitize.Truncate(e.Message, maxFieldText)
	switch e.Kind {
	case ErrUnauthorized:
		if e.Credential == CredentialAccessToken {
			return fmt.Sprintf("%s: the portal access token is missing, invalid or expired (401): sign in again", e.Op)
		}
		return fmt.Sprintf("%s: the API key is missing or invalid (401): check api_key or api_key_env of the profile", e.Op)
	case ErrForbidden:
		return fmt.Sprintf("%s: the API key lacks the scope or project access for this operation (403): use a key with scope FULL", e.Op)
	case ErrInvalidSignature:
		return fmt.Sprintf("%s: the portal refused the signature (401): %s", e.Op, msg)
	}
	if msg == "" {
		msg = e.Kind.Error()
	}
	return fmt.Sprintf("%s: %s (%d)", e.Op, msg, e.Status)
}

// Is makes errors.Is(err, ErrNotFound) and the like work.
func (e *StatusError) Is(target error) bool { return e.Kind == target }

// OutcomeUnknownError is a write whose answer never came: it may or may not
// have been applied. It is never retried by the client (D5).
type OutcomeUnknownError struct {
	Op  string
	Err error
}

func (e *OutcomeUnknownError) Error() string {
	return fmt.Sprintf("%s: no answer (%v): the request may have been applied", e.Op, e.Err)
}

func (e *OutcomeUnknownError) Unwrap() error { return e.Err }

// RedirectError is a redirect the client refused to follow: the API key or
// access token, and a write's body, would have gone where it points.
type RedirectError struct {
	Op       string
	Status   int
	Location string // sanitized, without credentials or query; "" when none was given
}

func (e *RedirectError) Error() string {
	where := "nowhere (no Location)"
	if e.Location != "" {
		where = strconv.Quote(e.Location)
	}
	return fmt.Sprintf("%s: the service answered %d, a redirect to %s: allot follows no redirect, which would carry the credentials and the request there; if the service moved, change the profile's URL",
		e.Op, e.Status, where)
}

// LimitError is an answer past one of the client's bounds: more items than
// any deployment has, or a walk over pages that does not end. It is said,
// never silently cut.
type LimitError struct {
	Op     string
	Reason string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: %s; allot reads no more", e.Op, e.Reason)
}

// UnexpectedResponseError is a response allot cannot read: not JSON (an HTML
// page from a proxy), malformed JSON, or JSON of another shape.
type UnexpectedResponseError struct {
	Op          string
	Status      int
	ContentType string
	Reason      string
	Excerpt     string // sanitized, short
}

func (e *UnexpectedResponseError) Error() string {
	s := fmt.Sprintf("%s: unexpected response (status %d, %s)", e.Op, e.Status, e.Reason)
	if e.Excerpt != "" {
		s += ": " + e.Excerpt
	}
	return s
}

// excerptLength bounds the body shown in an UnexpectedResponseError: the
// start of a proxy's page or of a value, enough to recognise it.
const excerptLength = 80

func unexpected(op string, status int, contentType, reason string, body []byte) *UnexpectedResponseError {
	text := strings.Join(strings.Fields(string(body[:min(len(body), 4*excerptLength)])), " ")
	return &UnexpectedResponseError{
		Op:          op,
		Status:      status,
		ContentType: sanitize.Truncate(contentType, 60),
		Reason:      sanitize.Truncate(reason, excerptLength),
		Excerpt:     sanitize.Truncate(text, excerptLength),
	}
}
