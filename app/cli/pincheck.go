package cli

import (
	"context"
	"flag"
	"fmt"
	"net/url"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"

	"allot/internal/sanitize"
	"allot/wallet"
)

// pinCheckCommand builds `allot pin check RPC_URL`: a node that lies
// about code can hide a change from the pins, so the pins are compared
// with what a second node answers.
var pinCheckCommand = command{
	name:    "pin check",
	args:    "RPC_URL",
	summary: "compare every pin's code hash and implementation with a second node's answer",
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		return func(ctx context.Context, args []string) error {
			if len(args) != 1 {
				return usagef("takes the JSON-RPC URL of a second node")
			}
			if u, err := url.Parse(args[0]); err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss") {
				return usagef("%q is not an http(s) or ws(s) URL", sanitize.Truncate(args[0], 80))
			}
			s, err := e.open(ctx, opening{})
			if err != nil {
				return err
			}
			pins, err := s.SigningPins(ctx)
			if err != nil {
				return err
			}
			node, err := ethclient.DialContext(ctx, args[0])
			if err != nil {
				return fmt.Errorf("pin check: %w", err)
			}
			defer node.Close()
			if id, err := node.ChainID(ctx); err != nil {
				return checkNotRun{fmt.Sprintf("pin check: the second node's chain id: %v", err)}
			} else if s.Profile.ChainID != 0 && id.Uint64() != s.Profile.ChainID {
				return checkFailed{fmt.Sprintf("pin check: the second node is on chain %d, the profile's is %d", id, s.Profile.ChainID)}
			}
			return comparePins(ctx, e, node, pins)
		}
	},
}

// comparePins reads every pinned contract from node and says, a line
// each, whether it matches what the pin recorded.
func comparePins(ctx context.Context, e *env, node wallet.Node, pins wallet.Pins) error {
	t := newTable(e.Stdout, "KIND", "ADDRESS", "SECOND NODE")
	differ, unread := 0, 0
	for _, kind := range wallet.PinKinds {
		for _, addr := range pins.List(kind) {
			verdict := pinVerdict(ctx, node, pins, addr)
			switch verdict.state {
			case pinDiffers:
				differ++
			case pinUnread:
				unread++
			}
			t.row(string(kind), addr.Hex(), verdict.say)
		}
	}
	if err := t.flush(); err != nil {
		return err
	}
	switch {
	case differ > 0:
		return checkFailed{fmt.Sprintf("pin check: %d pins differ from the second node's answer: one of the nodes lies, or a contract changed; check on an explorer before signing", differ)}
	case unread > 0:
		return checkNotRun{fmt.Sprintf("pin check: %d pins could not be read from the second node", unread)}
	}
	fmt.Fprintf(e.Stdout, "every pin matches the second node\n")
	return nil
}

type pinState int

const (
	pinSame pinState = iota
	pinDiffers
	pinUnread
)

type verdict struct {
	state pinState
	say   string
}

// pinVerdict compares the contract at addr on node with its pin.
func pinVerdict(ctx context.Context, node wallet.Node, pins wallet.Pins, addr common.Address) verdict {
	hash, proxy, err := wallet.ReadPin(ctx, node, addr)
	recorded, impl := pins.CodeHashes[addr], pins.Implementations[addr]
	switch {
	case err != nil && hash == (common.Hash{}):
		return verdict{pinUnread, "could not be read: " + sanitize.Line(err.Error())}
	case hash != recorded:
		return verdict{pinDiffers, fmt.Sprintf("DIFFERS: code hash %s, pinned %s", hash.Hex(), recorded.Hex())}
	case err != nil:
		return verdict{pinUnread, "its implementation could not be read: " + sanitize.Line(err.Error())}
	case proxy.Implementation != impl.Implementation || proxy.CodeHash != impl.CodeHash:
		return verdict{pinDiffers, fmt.Sprintf("DIFFERS: implementation %s (code hash %s), pinned %s (code hash %s)",
			proxy.Implementation.Hex(), proxy.CodeHash.Hex(), impl.Implementation.Hex(), impl.CodeHash.Hex())}
	}
	if impl.Implementation != (common.Address{}) {
		return verdict{pinSame, "same code and implementation"}
	}
	return verdict{pinSame, "same code"}
}
