package config

import (
	"errors"
	"fmt"
	"time"
)

// Refresh is how often the dashboard reads its data again by itself, per
// profile. In the file it is a table or the word "off":
//
//	[profiles.prod.refresh]
//	chain = "15s"  # numbers read from the chain: balances, claimable
//	lists = "30s"  # what the service lists: contracts, pools, requests
//
//	refresh = "off" # nothing is read again but on r
//
// A key left out keeps its default; the zero Refresh is the defaults.
type Refresh struct {
	Off   bool
	Chain time.Duration // 0: DefaultChainRefresh
	Lists time.Duration // 0: DefaultListsRefresh
}

// The defaults: the chain makes a block every few seconds, but a number
// read more often than every 15 s changes no decision and costs the node
// a call per screen; the service's lists change when people act, which a
// half-minute catches while the user still looks.
const (
	DefaultChainRefresh = 15 * time.Second
	DefaultListsRefresh = 30 * time.Second
	// MinRefresh keeps a profile from hammering its service or node.
	MinRefresh = 2 * time.Second
)

// Every is how often the chain's numbers and the service's lists are read
// again; both 0 when refresh is off.
func (r Refresh) Every() (chain, lists time.Duration) {
	if r.Off {
		return 0, 0
	}
	chain, lists = r.Chain, r.Lists
	if chain == 0 {
		chain = DefaultChainRefresh
	}
	if lists == 0 {
		lists = DefaultListsRefresh
	}
	return chain, lists
}

// UnmarshalTOML reads "off" or a table of chain and lists durations.
func (r *Refresh) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case string:
		if v != "off" {
			return fmt.Errorf(`refresh: %q is neither "off" nor a table such as { chain = "15s", lists = "30s" }`, v)
		}
		*r = Refresh{Off: true}
		return nil
	case map[string]any:
		var problems []error
		for k, val := range v {
			var at *time.Duration
			switch k {
			case "chain":
				at = &r.Chain
			case "lists":
				at = &r.Lists
			default:
				problems = append(problems, fmt.Errorf("refresh: unknown key %q (have: chain, lists)", k))
				continue
			}
			d, err := refreshPeriod(val)
			if err != nil {
				problems = append(problems, fmt.Errorf("refresh.%s: %w", k, err))
				continue
			}
			*at = d
		}
		return errors.Join(problems...)
	}
	return fmt.Errorf(`refresh: want "off" or a table such as { chain = "15s", lists = "30s" }`)
}

func refreshPeriod(v any) (time.Duration, error) {
	s, ok := v.(string)
	if !ok {
		return 0, errors.New(`want a duration such as "30s"`)
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a duration such as \"30s\"", s)
	case d < MinRefresh:
		return 0, fmt.Errorf("%s is below the %s allot reads at most", s, MinRefresh)
	}
	return d, nil
}
