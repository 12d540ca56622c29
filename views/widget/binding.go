package widget

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Binding is one key a screen answers: which keys and what help says of
// them (Key), what pressing it does (Run), and, when it cannot be pressed
// now, why (Disabled). A screen declares its keys once, as Bindings, and
// its key dispatch, the footer and the help all read that one list, so
// that help never offers a key the screen does not handle, nor the other
// way round.
type Binding struct {
	Key key.Binding
	Run func() tea.Cmd
	// Disabled says why the key does nothing now, "" when it works; nil
	// is always enabled. The help shows the reason beside the key, the
	// footer leaves the key out, and pressing it says the reason on the
	// status line, as a refusal, instead of running Run.
	Disabled func() string
	// Short lists the key in the footer, in the list's order.
	Short bool
	// Group names the column of the full help the key is listed in:
	// columns come in the order their first key does.
	Group string
	// Long, when set, is what the full help says of the key, which has
	// room to say more than the footer's Key.Help.
	Long string
	// Label says the binding only names keys something else runs (a
	// form the screen hands its other keys to): Dispatch passes over it.
	Label bool
	// joins says the Label stands in the footer for the bindings of the
	// list it names ("↑/↓ move" for up and down), which the full help
	// lists instead (Names).
	joins bool
}

// reason is why b cannot be pressed now, "" when it can.
func (b Binding) reason() string {
	if b.Disabled == nil {
		return ""
	}
	return b.Disabled()
}

// Bindings are a screen's keys, in the order the footer shows them.
type Bindings []Binding

// InGroup is bs listed in the help's column group.
func (bs Bindings) InGroup(group string) Bindings {
	out := make(Bindings, len(bs))
	for i, b := range bs {
		b.Group = group
		out[i] = b
	}
	return out
}

// InFooter is bs listed in the footer too.
func (bs Bindings) InFooter() Bindings {
	out := make(Bindings, len(bs))
	for i, b := range bs {
		b.Short = true
		out[i] = b
	}
	return out
}

// Described is a component's keys (a form's) as Label bindings: listed
// where the screen lists them, run by the component the screen hands its
// other keys to.
func Described(keys ...key.Binding) Bindings {
	out := make(Bindings, len(keys))
	for i, k := range keys {
		out[i] = Binding{Key: k, Label: true}
	}
	return out
}

// Names is the footer's label for named, keys named as one and desc
// what they do; the full help lists each of named.
func Names(keys, desc string, named ...Binding) Binding {
	var all []string
	for _, b := range named {
		all = append(all, b.Key.Keys()...)
	}
	return Binding{Key: key.NewBinding(key.WithKeys(all...), key.WithHelp(keys, desc)), Label: true, Short: true, joins: true}
}

// Dispatch runs the binding msg presses, the first of bs that matches it
// (a Label runs nothing: it is passed over). A disabled one runs nothing
// and says why on the status line; one without Run takes its key and
// does nothing. handled is false when no binding matches: the key is
// someone else's.
func (bs Bindings) Dispatch(msg tea.KeyMsg) (cmd tea.Cmd, handled bool) {
	for _, b := range bs {
		if b.Label || !key.Matches(msg, b.Key) {
			continue
		}
		if why := b.reason(); why != "" {
			return func() tea.Msg { return StatusMsg{Text: why, Error: true} }, true
		}
		if b.Run == nil {
			return nil, true
		}
		return b.Run(), true
	}
	return nil, false
}

// ShortHelp is the footer's keys: the Short ones that work now.
func (bs Bindings) ShortHelp() []key.Binding {
	var out []key.Binding
	for _, b := range bs.shown(true) {
		if b.Short && b.Key.Enabled() && b.reason() == "" {
			out = append(out, b.Key)
		}
	}
	return out
}

// FullHelp is every key in its column; a disabled one says why beside
// its description ("start distribution (not while loading)").
func (bs Bindings) FullHelp() [][]key.Binding {
	var cols [][]key.Binding
	at := map[string]int{}
	for _, b := range bs.shown(false) {
		if !b.Key.Enabled() {
			continue
		}
		k := b.Key
		desc := k.Help().Desc
		if b.Long != "" {
			desc = b.Long
		}
		if why := b.reason(); why != "" {
			desc += " (" + why + ")"
		}
		k.SetHelp(k.Help().Key, desc)
		i, ok := at[b.Group]
		if !ok {
			i = len(cols)
			at[b.Group] = i
			cols = append(cols, nil)
		}
		cols[i] = append(cols[i], k)
	}
	return cols
}

// shown is what the footer (footer) or the full help lists of bs. The
// footer shows a Names label in place of the bindings it names, and a
// binding whose every key an earlier one takes once (a row's action on
// enter before the table's open); the full help lists every binding, and
// no Names label. Neither lists a binding without help (a key a Label
// names with others: a form's ← and →).
func (bs Bindings) shown(footer bool) Bindings {
	joined, taken := map[string]bool{}, map[string]bool{}
	for _, b := range bs {
		if b.joins {
			for _, k := range b.Key.Keys() {
				joined[k] = true
			}
		}
	}
	var out Bindings
	for _, b := range bs {
		keys := b.Key.Keys()
		switch {
		case b.Key.Help().Key == "", b.joins && !footer:
			continue
		case !b.joins && footer && (all(keys, joined) || all(keys, taken)):
			continue
		}
		out = append(out, b)
		if !b.joins && b.Key.Enabled() {
			for _, k := range keys {
				taken[k] = true
			}
		}
	}
	return out
}

func all(keys []string, in map[string]bool) bool {
	for _, k := range keys {
		if !in[k] {
			return false
		}
	}
	return len(keys) > 0
}
