package browse

import (
	"slices"

	tea "github.com/charmbracelet/bubbletea"

	"allot/views"
	"allot/views/widget"
)

// histogramKey shows the histogram in place of the rows, or the rows
// again (desc says which).
func (s *stakes) histogramKey(desc string) widget.Binding {
	k := keyHistogram
	k.SetHelp(k.Help().Key, desc)
	return widget.Binding{Key: k, Short: true, Run: func() tea.Cmd { s.histogram = !s.histogram; return nil }}
}

func (s *stakes) refreshKey() widget.Binding {
	return widget.Binding{Key: views.KeyRefresh, Short: true, Run: s.reload}
}

// apart are the screen's keys while the list's are not: with no session
// (nothing to read, filter or chart, and r would only say so again: esc,
// the footer's, is the way on), no pool yet (r looks again), and while
// the histogram hides the rows, whose keys would act on a row nobody
// sees: then only its filter, which the histogram follows, and h and r.
// While the filter is typed, the list's keys are the filter's.
func (s *stakes) apart() (widget.Bindings, bool) {
	switch {
	case s.noSession():
		return nil, true
	case s.pool.ID == "":
		return widget.Bindings{s.refreshKey()}, true
	case s.histogram && !s.Table.EditingFilter():
		k := s.Table.Keys()
		filter := slices.DeleteFunc(s.Table.Bindings(), func(b widget.Binding) bool {
			return !slices.Equal(b.Key.Keys(), k.Filter.Keys()) && !slices.Equal(b.Key.Keys(), k.ClearFilter.Keys())
		})
		return append(widget.Bindings{s.histogramKey("back to the list"), s.refreshKey()}, filter.InGroup("")...), true
	}
	return nil, false
}

func (s *stakes) Keys() widget.Bindings {
	if bs, apart := s.apart(); apart {
		return bs
	}
	return s.List.Keys()
}
