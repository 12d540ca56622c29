package widget

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// SideBySideWidth is the terminal width from which a detail pane goes
// beside its table rather than below it.
const SideBySideWidth = 140

// Placement says where a detail pane goes relative to its table.
type Placement int

const (
	// PlaceBottom puts the pane under the table (narrow terminals).
	PlaceBottom Placement = iota
	// PlaceSide puts the pane right of the table (wide terminals).
	PlaceSide
)

// Size is a width and height in cells.
type Size struct {
	Width, Height int
}

// Split divides a screen area between a main view (a table) and a detail
// pane, with a one-cell separator between them.
type Split struct {
	Placement Placement
	Main      Size
	// Detail is empty when the area is too small for a useful pane.
	Detail Size
	// Border draws the separator.
	Border lipgloss.Style
}

// minSidePane is the narrowest a detail pane beside a table gets.
const minSidePane = 40

// SplitPane chooses the placement for an area: beside the table from
// SideBySideWidth columns, below it otherwise. The table keeps most of the
// room; the pane gets two fifths of the width (40 to 80 cells) or a third
// of the height (4 to 12 lines).
func SplitPane(width, height int) Split { return SplitPaneFor(width, height, 0) }

// SplitPaneFor is SplitPane for a table that wants tableWidth cells to show
// its cells whole (Table.NaturalWidth; 0 when unknown): beside it, the
// table gets that first and the pane what is left, at least minSidePane.
func SplitPaneFor(width, height, tableWidth int) Split {
	s := Split{Border: DefaultStyles().Border}
	if width >= SideBySideWidth {
		dw := min(max(width*2/5, minSidePane), 80)
		if tableWidth > 0 {
			dw = max(width-tableWidth-1, minSidePane)
		}
		s.Placement = PlaceSide
		s.Main = Size{Width: width - dw - 1, Height: height}
		s.Detail = Size{Width: dw, Height: height}
		return s
	}
	s.Placement = PlaceBottom
	dh := min(max(height/3, 4), 12)
	if height-dh-1 < 5 {
		// Too short for both: the table alone is more useful.
		s.Main = Size{Width: width, Height: height}
		return s
	}
	s.Main = Size{Width: width, Height: height - dh - 1}
	s.Detail = Size{Width: width, Height: dh}
	return s
}

// Join draws the two views in their places with the separator between
// them. Each view is cut or padded to its size.
func (s Split) Join(main, detail string) string {
	if s.Detail.Width == 0 || s.Detail.Height == 0 {
		return Fit(main, s.Main.Width, s.Main.Height)
	}
	mainLines, detailLines := fitLines(main, s.Main.Width, s.Main.Height), fitLines(detail, s.Detail.Width, s.Detail.Height)
	if s.Placement == PlaceBottom {
		rule := s.Border.Render(strings.Repeat("─", s.Main.Width))
		return strings.Join(mainLines, "\n") + "\n" + rule + "\n" + strings.Join(detailLines, "\n")
	}
	bar := s.Border.Render("│")
	var b strings.Builder
	for i := range mainLines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(mainLines[i])
		b.WriteString(strings.Repeat(" ", s.Main.Width-displayWidth(mainLines[i])))
		b.WriteString(bar)
		b.WriteString(detailLines[i])
	}
	return b.String()
}

// Fit cuts or pads a view to a box of width x height: exactly height lines
// (cut at the bottom, or padded with empty ones), each of at most width
// cells (cut with an ellipsis). It measures styled text without its
// escapes and keeps them, and never splits a wide rune: a line cut before
// one is a cell short. Lines are not padded with spaces to the width; a
// view that something is drawn beside pads its own (Split.Join).
func Fit(view string, width, height int) string {
	return strings.Join(fitLines(view, width, height), "\n")
}

// fitLines is Fit as lines.
func fitLines(view string, width, height int) []string {
	if height <= 0 {
		return nil
	}
	lines := strings.SplitN(view, "\n", height+1)
	if len(lines) > height {
		lines = lines[:height]
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	for i, l := range lines {
		lines[i] = truncate(l, width)
	}
	return lines
}
