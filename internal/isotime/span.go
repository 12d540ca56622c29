package isotime

import (
	"strconv"
	"strings"
)

// Span writes a span of seconds in its two largest units, the way staking
// periods read best: 90 -> "1m 30s", 2592000 -> "30d", 90061 -> "1d 1h",
// 0 -> "0s". The dashboard and the commands write spans through it alone.
func Span(seconds int64) string {
	if seconds == 0 {
		return "0s"
	}
	sign := ""
	// Work in uint64 so that the most negative int64 negates safely.
	u := uint64(seconds)
	if seconds < 0 {
		sign, u = "-", -u
	}
	units := [...]struct {
		size   uint64
		suffix string
	}{{86400, "d"}, {3600, "h"}, {60, "m"}, {1, "s"}}
	parts := make([]string, 0, 2)
	for _, unit := range units {
		if n := u / unit.size; n > 0 {
			parts = append(parts, strconv.FormatUint(n, 10)+unit.suffix)
			u -= n * unit.size
		} else if len(parts) > 0 {
			// "1d 0h 5m" would read as 1d 5m: stop at the first gap.
			break
		}
		if len(parts) == 2 {
			break
		}
	}
	return sign + strings.Join(parts, " ")
}
