package widget

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// Point is a step of a cumulative unlock schedule: from At on, Fraction
// (0 to 1) of the total is unlocked.
type Point struct {
	At       time.Time
	Fraction float64
}

const (
	yLabelWidth = 4 // "100%"
	dateLayout  = "2006-01-02"
)

// StepChart draws an unlock schedule as a filled step chart: time on the x
// axis (dates under it), the unlocked percentage on the y axis, and a
// marker at now (a dotted line above the fill, a tick on the axis and the
// word "now" under it). The time range covers the points and now. The
// result is at most width cells wide and height lines high; it needs at
// least 8 by 3 and is empty below that or without points.
func StepChart(points []Point, now time.Time, width, height int) string {
	plotW, plotH := width-yLabelWidth-1, height-2
	if len(points) == 0 || plotW < 3 || plotH < 1 {
		return ""
	}
	pts := slices.Clone(points)
	slices.SortStableFunc(pts, func(a, b Point) int { return a.At.Compare(b.At) })
	start, end := pts[0].At, pts[len(pts)-1].At
	if now.Before(start) {
		start = now
	}
	if now.After(end) {
		end = now
	}
	span := float64(end.Sub(start))
	colTime := func(x int) time.Time {
		return start.Add(time.Duration(span * float64(x) / float64(plotW-1)))
	}
	nowX := 0
	if span > 0 {
		nowX = int(math.Round(float64(now.Sub(start)) / span * float64(plotW-1)))
	}

	// Height of each column in eighths of a cell.
	levels := make([]int, plotW)
	next, value := 0, 0.0
	for x := range levels {
		t := colTime(x)
		for next < len(pts) && !pts[next].At.After(t) {
			value = pts[next].Fraction
			next++
		}
		levels[x] = int(math.Round(min(max(value, 0), 1) * float64(plotH*8)))
	}

	lines := make([]string, 0, height)
	var b strings.Builder
	for r := range plotH {
		b.Reset()
		label, tick := "", "│"
		// The top row, and the row whose top is exactly 50% when the
		// height has one: a mid label of 54% reads as a mistake.
		if r == 0 || (plotH >= 4 && plotH%2 == 0 && r == plotH/2) {
			label, tick = fmt.Sprintf("%d%%", (plotH-r)*100/plotH), "┤"
		}
		b.WriteString(fitCell(label, yLabelWidth, AlignRight))
		b.WriteString(tick)
		floor := (plotH - 1 - r) * 8
		for x, level := range levels {
			switch fill := level - floor; {
			case fill >= 8:
				b.WriteString("█")
			case fill > 0:
				b.WriteString(lowerEighths[fill])
			case x == nowX:
				b.WriteString("┊")
			default:
				b.WriteByte(' ')
			}
		}
		lines = append(lines, b.String())
	}

	b.Reset()
	b.WriteString(fitCell("0%", yLabelWidth, AlignRight))
	b.WriteString("└")
	for x := range plotW {
		if x == nowX {
			b.WriteString("┴")
		} else {
			b.WriteString("─")
		}
	}
	lines = append(lines, b.String())
	lines = append(lines, strings.Repeat(" ", yLabelWidth+1)+dateAxis(start, end, nowX, plotW))
	return strings.Join(lines, "\n")
}

// dateAxis labels the x axis: "now" under its tick, the first date at the
// left and the last at the right where they do not collide with it.
func dateAxis(start, end time.Time, nowX, width int) string {
	axis := []rune(strings.Repeat(" ", width))
	taken := make([]bool, width)
	put := func(at int, s string) bool {
		r := []rune(s)
		at = min(max(at, 0), width-len(r))
		if at < 0 {
			return false
		}
		// Keep a space between labels.
		for i := max(at-1, 0); i < min(at+len(r)+1, width); i++ {
			if taken[i] {
				return false
			}
		}
		for i, c := range r {
			axis[at+i] = c
			taken[at+i] = true
		}
		return true
	}
	put(nowX-1, "now")
	put(0, start.UTC().Format(dateLayout))
	if !end.Equal(start) {
		put(width-len(dateLayout), end.UTC().Format(dateLayout))
	}
	return strings.TrimRight(string(axis), " ")
}
