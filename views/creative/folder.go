package creative

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"allot/internal/sanitize"
	"allot/views"
	"allot/views/widget"
)

// folder lists one folder for the creative's choice of a file. Each
// entry's kind and size are read with the listing: a file deleted, added
// or changed underneath changes the list at the next read (every
// folderEvery, and on every move into a folder), and never reaches a
// drawing that expects it.
type folder struct {
	dir     string
	entries []folderEntry
	err     error
	cursor  int
	top     int
	height  int
	// ticking is the tick awaited; an older one (a chain of ticks stopped
	// and started again) is dropped.
	ticking folderTick
}

type folderEntry struct {
	name string
	dir  bool
	size int64
}

// folderEvery is how often the shown folder is read again.
const folderEvery = 2 * time.Second

type (
	folderRead struct {
		dir     string
		entries []folderEntry
		err     error
	}
	folderTick struct{ n int }
)

var (
	folderKeyDown = key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down"))
	folderKeyUp   = key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up"))
	folderKeyTop  = key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first"))
	folderKeyEnd  = key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last"))
	folderKeyPgDn = key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down"))
	folderKeyPgUp = key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up"))
)

func newFolder(dir string) *folder { return &folder{dir: dir, height: 10} }

// read lists dir off the UI goroutine.
func (f *folder) read(dir string) tea.Cmd {
	return func() tea.Msg {
		entries, err := readFolder(dir)
		return folderRead{dir: dir, entries: entries, err: err}
	}
}

// tick reads the folder again later, for as long as it is shown.
func (f *folder) tick() tea.Cmd {
	f.ticking = folderTick{n: f.ticking.n + 1}
	t := f.ticking
	return tea.Tick(folderEvery, func(time.Time) tea.Msg { return t })
}

// readFolder lists dir, folders first, without hidden entries; an entry
// gone before it could be looked at is left out.
func readFolder(dir string) ([]folderEntry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []folderEntry
	for _, de := range des {
		if strings.HasPrefix(de.Name(), ".") {
			continue
		}
		info, err := os.Stat(filepath.Join(dir, de.Name())) // follows a link to what it names
		if err != nil {
			continue
		}
		out = append(out, folderEntry{name: de.Name(), dir: info.IsDir(), size: info.Size()})
	}
	slices.SortFunc(out, func(a, b folderEntry) int {
		if a.dir != b.dir {
			if a.dir {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	return out, nil
}

// loaded takes a read; the cursor stays on the entry of the same name
// when it is still there.
func (f *folder) loaded(msg folderRead) {
	name := ""
	if msg.dir == f.dir && f.cursor < len(f.entries) {
		name = f.entries[f.cursor].name
	} else {
		f.cursor, f.top = 0, 0
	}
	f.dir, f.entries, f.err = msg.dir, msg.entries, msg.err
	f.cursor = 0
	for i, e := range f.entries {
		if e.name == name {
			f.cursor = i
		}
	}
	f.clamp()
}

func (f *folder) clamp() {
	f.cursor = max(min(f.cursor, len(f.entries)-1), 0)
	f.top = max(min(f.top, f.cursor), f.cursor-f.height+1, 0)
}

// bindings move the cursor through the folder; the screen clamps it
// after each key.
func (f *folder) bindings() widget.Bindings {
	to := func(move func()) func() tea.Cmd { return func() tea.Cmd { move(); return nil } }
	return widget.Bindings{
		{Key: folderKeyUp, Group: "folder", Run: to(func() { f.cursor-- })},
		{Key: folderKeyDown, Group: "folder", Run: to(func() { f.cursor++ })},
		{Key: folderKeyTop, Group: "folder", Run: to(func() { f.cursor = 0 })},
		{Key: folderKeyEnd, Group: "folder", Run: to(func() { f.cursor = len(f.entries) - 1 })},
		{Key: folderKeyPgUp, Group: "folder", Run: to(func() { f.cursor -= f.height })},
		{Key: folderKeyPgDn, Group: "folder", Run: to(func() { f.cursor += f.height })},
	}
}

// lines draws the visible entries, the one under the cursor marked "▶".
func (f *folder) lines() []string {
	if f.err != nil {
		return []string{"  cannot read this folder: " + sanitize.Line(f.err.Error())}
	}
	if len(f.entries) == 0 {
		return []string{"  no files here"}
	}
	var out []string
	for i := f.top; i < len(f.entries) && i < f.top+f.height; i++ {
		e := f.entries[i]
		size, name := views.ByteSize(e.size), sanitize.Line(e.name)
		if e.dir {
			size, name = "", name+"/"
		}
		mark := "  "
		if i == f.cursor {
			mark = "▶ "
		}
		out = append(out, mark+padLeft(size, 9)+" "+name)
	}
	return out
}

func padLeft(s string, n int) string { return strings.Repeat(" ", max(n-len(s), 0)) + s }
