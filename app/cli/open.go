package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"allot/api"
	"allot/core/act"
	"allot/core/journal"
	"allot/core/session"
	"allot/internal/sanitize"
)

// opening says what a command needs opened besides the session.
type opening struct {
	// token is the command's --token flag (declareToken): resolved to a
	// token id, the profile's first token when the flag is empty.
	token *string
	// chain names what needs the profile's EVM node ("stake", "claim
	// --sign"), if anything: without one it is refused before any request.
	chain string
	// write: the command writes or signs, and its acts are journaled.
	write bool
}

// opened is what a command runs on.
type opened struct {
	*session.Session
	token string        // the resolved --token, when opening.token was set
	rec   *act.Recorder // the journal's recorder, when opening.write was set
}

// open is how every command that uses a profile gets its session: the one
// the global flags choose (a profile of the configuration with its API key
// from the environment, or the embedded sandbox with --sandbox or without a
// configuration), opened once per command, its notices on stderr. For a
// command that writes it opens the journal in the session's state
// directory before anything is sent, and says on stderr what it could not
// make private; a journal that cannot be opened is a warning and the
// command goes on unrecorded. Main closes the session once the command has
// ended, after checkUnknown has asked it about a write whose answer was
// lost.
func (e *env) open(ctx context.Context, o opening) (*opened, error) {
	s, err := e.session(ctx)
	if err != nil {
		return nil, err
	}
	if o.write {
		// Refused before a passphrase is asked or anything is read.
		if err := s.Writable(); err != nil {
			return nil, err
		}
	}
	op := &opened{Session: s}
	if o.token != nil {
		if op.token, err = resolveToken(s, *o.token); err != nil {
			return nil, err
		}
	}
	if o.chain != "" {
		if err := s.NeedChain(o.chain); err != nil {
			return nil, err
		}
	}
	if o.write {
		op.rec = e.recorder(s)
	}
	return op, nil
}

// recorder is the command's journal recorder, opened on first use.
func (e *env) recorder(s *session.Session) *act.Recorder {
	if e.rec != nil {
		return e.rec
	}
	r := s.Recorder(nil)
	r.Warn = func(err error) { fmt.Fprintf(e.Stderr, "allot: warning: %v\n", err) }
	e.rec = r
	j, err := journal.Open(s.StateDir)
	if err != nil {
		r.Warn(err)
		return r
	}
	for _, w := range j.Warnings() {
		fmt.Fprintf(e.Stderr, "allot: warning: %s\n", w)
	}
	r.Journal = j
	return r
}

// declareToken declares --token, parsed into v; empty is the profile's
// first token.
func declareToken(fs *flag.FlagSet, v *string) {
	fs.StringVar(v, "token", "", "token `ID`, or a name or symbol from the profile's token_names (default: the profile's first token)")
}

func resolveToken(s *session.Session, flagValue string) (string, error) {
	if id, ok := s.FindToken(flagValue); ok {
		return id, nil
	}
	if flagValue != "" {
		if api.CheckUUID("token", flagValue) != nil {
			return "", usagef("--token %q is neither a token id nor the name or symbol of one of the profile's tokens", sanitize.Truncate(flagValue, 40))
		}
		return flagValue, nil
	}
	if len(s.TokenIDs) == 0 {
		return "", usagef("no token: pass --token ID or list tokens in the profile")
	}
	return s.TokenIDs[0], nil
}

// tokenText names the resolved --token under a table: by the name the
// profile (or the embedded sandbox) gives it, else by its whole id, which a
// script may use.
func (o *opened) tokenText() string {
	if n, ok := o.TokenName(o.token); ok {
		return n.String()
	}
	return "token " + sanitize.Line(o.token)
}

// checkTimeout bounds the check of a write whose answer was lost.
const checkTimeout = 30 * time.Second

// checkUnknown checks a write whose answer was lost and says after err
// what the check found: on the embedded sandbox whether it was applied
// (settled in the journal; the sandbox ends with the command, so this is
// the only time it can be asked), elsewhere why allot cannot tell.
func (e *env) checkUnknown(ctx context.Context, err error) error {
	var unknown *act.UnknownError
	if e.rec == nil || !errors.As(err, &unknown) {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	v, cerr := e.rec.Check(ctx, unknown.Sent())
	switch {
	case cerr != nil:
		return fmt.Errorf("%w (%v)", err, cerr)
	case v.Check == act.Applied:
		return fmt.Errorf("%w; checked: the service applied it, so do not send it again", err)
	case v.Check == act.NotApplied:
		return fmt.Errorf("%w; checked: the service did not apply it, so sending it again applies it once", err)
	}
	return fmt.Errorf("%w; allot cannot check: %s; ask the service's operators before sending it again", err, v.Reason)
}

// tokenUnit names the resolved --token after its amounts: its symbol, or
// its name when it has none; "" when the profile and the sandbox name it
// neither (the id, under the table, says which it is).
func (o *opened) tokenUnit() string { return o.unitOf(o.token) }

// unitOf names the amounts of token as tokenUnit names --token's.
func (o *opened) unitOf(token string) string {
	if n, ok := o.TokenName(token); ok {
		return sanitize.Truncate(n.Short(), 12)
	}
	return ""
}

// poolUnit names the amounts of pool's token as the dashboard's stake form
// does: its symbol (its name when it has none), "tokens" when the profile
// and the sandbox name it neither.
func (o *opened) poolUnit(pool api.Pool) string {
	if n, ok := o.TokenName(pool.TokenID); ok && n.Short() != "" {
		return sanitize.Truncate(n.Short(), 12)
	}
	return "tokens"
}
