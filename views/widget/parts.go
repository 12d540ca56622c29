package widget

import "strings"

// JoinParts joins parts with sep in at most width cells. The parts come
// most important first: those that do not fit are dropped whole from the
// end, so a number is never cut in the middle. Only a first part wider
// than width on its own is cut, marked with an ellipsis. Parts are drawn
// as given: the caller sanitizes what came from the network.
func JoinParts(width int, sep string, parts ...string) string {
	var b strings.Builder
	used := 0
	for _, p := range parts {
		if p == "" {
			continue
		}
		w := displayWidth(p)
		if b.Len() == 0 {
			if w > width {
				return truncate(p, width)
			}
			b.WriteString(p)
			used = w
			continue
		}
		w += displayWidth(sep)
		if used+w > width {
			break
		}
		b.WriteString(sep)
		b.WriteString(p)
		used += w
	}
	return b.String()
}
