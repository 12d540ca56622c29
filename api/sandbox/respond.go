package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"allot/internal/isotime"
)

// timestamp is a time that marshals as every timestamp is written (D15):
// isotime.Format.
type timestamp time.Time

func (t timestamp) MarshalJSON() ([]byte, error) {
	return []byte(`"` + isotime.Format(time.Time(t)) + `"`), nil
}

// D2 error types of the administration group.
const (
	kindValidation   = "ValidationError"
	kindUnauthorized = "UnauthorizedError"
	kindForbidden    = "ForbiddenError"
	kindNotFound     = "NotFoundError"
	kindInternal     = "InternalError"
)

// Error codes of the portal group (D10), written in its `error` field.
const (
	codeInvalidSignature = "Invalid signature"
	codeUnauthorized     = "UNAUTHORIZED"
	codePoolNotFound     = "STAKING_POOL_NOT_FOUND"
	codeInternal         = "internal server error"
	// codePortalNotFound answers a portal id the sandbox does not have; the
	// spec lists no code for it.
	codePortalNotFound = "PORTAL_NOT_FOUND"
	// codeNotFound answers an unknown portal path.
	codeNotFound = "NOT_FOUND"
)

// apiError is a refusal, written as D2 in the administration group and as
// D10 in the portal group.
type apiError struct {
	status  int
	kind    string   // D2 type
	code    string   // D10 error code; empty for validation errors
	message string   // D2 message
	details []detail // validation errors only
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.status, e.kind, e.message)
}

// detail is one validation failure: the path of the offending input and
// what is wrong with it.
type detail struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func errValidation(details []detail) *apiError {
	return &apiError{status: http.StatusBadRequest, kind: kindValidation, message: "the request is invalid", details: details}
}

func errInvalid(path, message string) *apiError {
	return errValidation([]detail{{path, message}})
}

func errUnauthorized(message string) *apiError {
	return &apiError{status: http.StatusUnauthorized, kind: kindUnauthorized, code: codeUnauthorized, message: message}
}

func errForbidden(message string) *apiError {
	return &apiError{status: http.StatusForbidden, kind: kindForbidden, code: codeUnauthorized, message: message}
}

func errNotFound(format string, args ...any) *apiError {
	return &apiError{status: http.StatusNotFound, kind: kindNotFound, code: codeNotFound, message: fmt.Sprintf(format, args...)}
}

func errInternal(message string) *apiError {
	return &apiError{status: http.StatusInternalServerError, kind: kindInternal, code: codeInternal, message: message}
}

var (
	errInvalidSignature = &apiError{status: http.StatusUnauthorized, kind: kindUnauthorized, code: codeInvalidSignature, message: "invalid signature"}
	errPoolNotFound     = &apiError{status: http.StatusNotFound, kind: kindNotFound, code: codePoolNotFound, message: "staking pool not found"}
	errPortalNotFound   = &apiError{status: http.StatusNotFound, kind: kindNotFound, code: codePortalNotFound, message: "portal not found"}
)

type envelope struct {
	IsProcessed bool `json:"isProcessed"`
	Result      any  `json:"result"`
}

type errorEnvelope struct {
	IsProcessed bool      `json:"isProcessed"`
	Error       errorBody `json:"error"`
}

type errorBody struct {
	Type    string   `json:"type"`
	Message string   `json:"message"`
	Details []detail `json:"details,omitempty"`
}

// portalErrors is the D10 body of a validation error.
type portalErrors struct {
	Errors []detail `json:"errors"`
}

// portalError is the D10 body of every other error.
type portalError struct {
	Error string `json:"error"`
}

func writeAdminError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.status, errorEnvelope{Error: errorBody{Type: e.kind, Message: e.message, Details: e.details}})
}

func writePortalError(w http.ResponseWriter, e *apiError) {
	if e.status == http.StatusBadRequest {
		writeJSON(w, e.status, portalErrors{Errors: e.details})
		return
	}
	writeJSON(w, e.status, portalError{Error: e.code})
}

// writeJSON writes v as JSON, with &, < and > as they are: a pool named
// "Team & Advisors" reads as such.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(v)
	data := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if err != nil {
		// Every value written here is built by this package from plain
		// types: a failure is a bug, answered as a server failure.
		status = http.StatusInternalServerError
		data = []byte(`{"isProcessed":false,"error":{"type":"InternalError","message":"encode response"}}`)
	}
	writeBytes(w, status, data)
}

// writeBytes answers with the body made of parts, one after the other.
func writeBytes(w http.ResponseWriter, status int, parts ...[]byte) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(status)
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			// The client is gone: nothing more to say to it.
			return
		}
	}
}
