package sandbox

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	mathrand "math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Faults configure fault injection; the zero value injects none. Each
// request draws at most one fault: a 500 (Error), an HTML error page from a
// "proxy" (HTML), a connection reset (Reset), or a 200 whose JSON is cut
// short (Malformed). Half the resets, and every malformed response, happen
// after the request was processed, so a write may have been applied
// although its caller saw it fail: the outcome is unknown. The journal
// (GET /_sandbox/journal) is never faulted, so tests can tell.
type Faults struct {
	Latency   time.Duration // added to every response
	Error     float64       // probability of each fault, from 0 to 1;
	Malformed float64       // their sum is at most 1
	Reset     float64
	HTML      float64
	// Seed makes the draws repeatable: the same seed and the same requests
	// in the same order draw the same faults. Zero draws a random seed.
	Seed uint64
}

// maxLatency bounds Faults.Latency.
const maxLatency = time.Minute

// ParseFaults reads a fault spec like
// "latency=50ms,error=0.2,malformed=0.1,reset=0.05,html=0.05", with an
// optional "seed=N". An empty spec injects no faults.
func ParseFaults(spec string) (Faults, error) {
	var f Faults
	seen := map[string]bool{}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, value, ok := strings.Cut(part, "=")
		if !ok {
			return Faults{}, fmt.Errorf("faults: %q is not key=value", part)
		}
		if seen[key] {
			return Faults{}, fmt.Errorf("faults: %s given twice", key)
		}
		seen[key] = true
		var err error
		switch key {
		case "latency":
			f.Latency, err = time.ParseDuration(value)
		case "error":
			f.Error, err = strconv.ParseFloat(value, 64)
		case "malformed":
			f.Malformed, err = strconv.ParseFloat(value, 64)
		case "reset":
			f.Reset, err = strconv.ParseFloat(value, 64)
		case "html":
			f.HTML, err = strconv.ParseFloat(value, 64)
		case "seed":
			f.Seed, err = strconv.ParseUint(value, 10, 64)
		default:
			return Faults{}, fmt.Errorf("faults: unknown fault %q (want latency, error, malformed, reset, html or seed)", key)
		}
		if err != nil {
			return Faults{}, fmt.Errorf("faults: %s: %q is not a valid value", key, value)
		}
	}
	if err := f.validate(); err != nil {
		return Faults{}, err
	}
	return f, nil
}

func (f Faults) validate() error {
	if f.Latency < 0 || f.Latency > maxLatency {
		return fmt.Errorf("faults: latency %s is not between 0 and %s", f.Latency, maxLatency)
	}
	sum := 0.0
	for _, p := range []struct {
		name string
		p    float64
	}{{"error", f.Error}, {"malformed", f.Malformed}, {"reset", f.Reset}, {"html", f.HTML}} {
		if !(p.p >= 0 && p.p <= 1) { // also refuses NaN
			return fmt.Errorf("faults: %s %v is not a probability between 0 and 1", p.name, p.p)
		}
		sum += p.p
	}
	if sum > 1+1e-9 {
		return errors.New("faults: the probabilities add up to more than 1")
	}
	return nil
}

func (f Faults) enabled() bool {
	return f.Latency > 0 || f.Error > 0 || f.Malformed > 0 || f.Reset > 0 || f.HTML > 0
}

// faultInjector draws and injects faults.
type faultInjector struct {
	f   Faults
	mu  sync.Mutex
	rng *mathrand.Rand
}

// newFaultInjector returns nil when f injects nothing.
func newFaultInjector(f Faults) (*faultInjector, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	if !f.enabled() {
		return nil, nil
	}
	seed := f.Seed
	if seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	return &faultInjector{f: f, rng: mathrand.New(mathrand.NewPCG(seed, seed^0x6661756c7473))}, nil
}

type fault int

const (
	noFault fault = iota
	faultError
	faultHTML
	faultReset
	faultResetAfter
	faultMalformed
)

func (fi *faultInjector) draw() fault {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	u, late := fi.rng.Float64(), fi.rng.IntN(2) == 1
	f := fi.f
	switch {
	case u < f.Error:
		return faultError
	case u < f.Error+f.HTML:
		return faultHTML
	case u < f.Error+f.HTML+f.Reset && late:
		return faultResetAfter
	case u < f.Error+f.HTML+f.Reset:
		return faultReset
	case u < f.Error+f.HTML+f.Reset+f.Malformed:
		return faultMalformed
	}
	return noFault
}

// serve answers r through next, with the latency and the fault drawn.
func (fi *faultInjector) serve(next http.Handler, w http.ResponseWriter, r *http.Request) {
	if fi.f.Latency > 0 {
		t := time.NewTimer(fi.f.Latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	switch fi.draw() {
	case faultError:
		writeInternalError(w, r)
	case faultHTML:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusBadGateway)
		w.Write([]byte(badGatewayPage))
	case faultReset:
		resetConnection(w)
	case faultResetAfter:
		next.ServeHTTP(&recorder{header: http.Header{}}, r)
		resetConnection(w)
	case faultMalformed:
		rec := &recorder{header: http.Header{}}
		next.ServeHTTP(rec, r)
		rec.writeMalformed(w)
	default:
		next.ServeHTTP(w, r)
	}
}

const badGatewayPage = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n" +
	"<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n"

// writeInternalError answers a 500 in the shape of the request's group.
func writeInternalError(w http.ResponseWriter, r *http.Request) {
	e := errInternal("injected fault")
	if strings.HasPrefix(r.URL.Path, adminPrefix) {
		writeAdminError(w, e)
		return
	}
	writePortalError(w, e)
}

// resetConnection drops the connection without a response: a TCP reset
// where the connection is TCP, else a plain close.
func resetConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			if tcp, ok := conn.(*net.TCPConn); ok {
				tcp.SetLinger(0)
			}
			conn.Close()
			return
		}
	}
	// Without hijacking (HTTP/2), aborting the handler resets the stream.
	panic(http.ErrAbortHandler)
}

// recorder keeps a response to be mangled or dropped.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// writeMalformed sends the recorded response with its body cut in half:
// never valid JSON.
func (r *recorder) writeMalformed(w http.ResponseWriter) {
	body := r.body.Bytes()
	body = body[:len(body)/2]
	if len(body) == 0 {
		body = []byte(`{"`)
	}
	for k, v := range r.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(max(r.status, http.StatusOK))
	w.Write(body)
}
