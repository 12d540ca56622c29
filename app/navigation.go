package app

// Navigation: a page stack per tab, and the token the tabs show.

import (
	"errors"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/internal/sanitize"
	"allot/views"
	"allot/views/browse"
	"allot/views/holder"
	"allot/views/reopen"
	"allot/views/transactions"
)

// buildTabs makes the root screen of every tab for the current token.
func (m *Model) buildTabs() {
	for i, t := range tabs {
		if m.stacks[i] == nil || t.ofToken {
			m.stacks[i] = []views.Screen{t.page(m.ctx)}
		}
	}
}

// tab is one of the dashboard's tabs: its name (the key to it is its
// place, from 1) and its first page.
type tab struct {
	name string
	page func(*views.Context) views.Screen
	// ofToken: the page is the current token's, made anew when the token
	// changes; the others keep their pages.
	ofToken bool
	// late: its first load waits for the first data (late.go).
	late bool
}

// tabs are the dashboard's tabs, each where its constant says.
var tabs = [...]tab{
	tabContracts:    {name: "Contracts", page: browse.NewContracts, ofToken: true},
	tabPools:        {name: "Pools", page: browse.NewPools, ofToken: true},
	tabAllocation:   {name: "Allocation", page: holder.NewAllocation},
	tabTransactions: {name: "Transactions", page: func(ctx *views.Context) views.Screen { return transactions.New(ctx, reopen.Unknown) }, late: true},
	tabRequests:     {name: "Requests", page: browse.NewRequests},
	tabPortal:       {name: "Portal", page: holder.NewPortal},
}

// top is the page on show.
func (m *Model) top() views.Screen {
	stack := m.stacks[m.active]
	return stack[len(stack)-1]
}

// back closes the top page; on a tab's root page it lets the screen use
// esc (to clear a filter), then clears the status line.
func (m *Model) back(msg tea.KeyMsg) tea.Cmd {
	if m.top().Mode().OwnsEsc {
		return tag(m.top(), m.top().Update(msg))
	}
	if m.pop() {
		return nil
	}
	m.status = ""
	m.setErr(nil)
	return tag(m.top(), m.top().Update(msg))
}

// remove closes s in whichever tab holds it; a tab's first page stays.
func (m *Model) remove(s views.Screen) {
	for tab, stack := range m.stacks {
		for i := 1; i < len(stack); i++ {
			if stack[i] == s {
				m.stacks[tab] = append(stack[:i:i], stack[i+1:]...)
				return
			}
		}
	}
}

// pop closes the current tab's top page; a tab's root page stays.
func (m *Model) pop() bool {
	stack := m.stacks[m.active]
	if len(stack) < 2 {
		return false
	}
	m.stacks[m.active] = stack[:len(stack)-1]
	return true
}

// open shows s on top of the current tab.
func (m *Model) open(s views.Screen) tea.Cmd {
	return func() tea.Msg { return views.NavigateMsg{Screen: s} }
}

// switchTab shows tab i, with the page it was left on.
func (m *Model) switchTab(i int) tea.Cmd {
	m.active = i
	if m.mode.covers() {
		m.setMode(modeScreens)
	}
	return m.catchUp()
}

// setToken switches every token-bound screen to id.
func (m *Model) setToken(id string) tea.Cmd {
	if err := api.CheckUUID("token", id); err != nil {
		return m.fail("token", err)
	}
	m.ctx.Token = id
	m.buildTabs()
	m.resize()
	m.status, m.statusErr = "token "+id, false
	contracts, pools := m.stacks[tabContracts][0], m.stacks[tabPools][0]
	return tea.Batch(tag(contracts, contracts.Init()), tag(pools, pools.Init()))
}

func (m *Model) nextToken() tea.Cmd {
	ids := m.ctx.Session.TokenIDs
	if len(ids) < 2 {
		return m.fail("token", errors.New("the profile lists one token; use :token ID for another"))
	}
	for i, id := range ids {
		if id == m.ctx.Token {
			return m.setToken(ids[(i+1)%len(ids)])
		}
	}
	return m.setToken(ids[0])
}

type contractFoundMsg struct {
	contract api.Contract
	err      error
}

// findContract finds a contract of the token by name (any case) or id,
// for :contract.
func (m *Model) findContract(ref string) tea.Cmd {
	client, token := m.ctx.Session.API, m.ctx.Token
	ctx, cancel := m.ctx.Bound(views.LookupTimeout)
	return func() tea.Msg {
		defer cancel()
		list, err := client.Contracts(ctx, token)
		if err != nil {
			return contractFoundMsg{err: err}
		}
		for _, c := range list.Items {
			if c.ID == ref || strings.EqualFold(sanitize.Line(c.Name), ref) {
				return contractFoundMsg{contract: c}
			}
		}
		return contractFoundMsg{err: fmt.Errorf("no contract %q in this token (tab completes the names)", sanitize.Line(ref))}
	}
}

// showContract puts the Contracts tab on c: the cursor on it and its
// details shown, every contract listed (a filter in force ends). Pages
// open on the tab close, unless one has work under way.
func (m *Model) showContract(c api.Contract) tea.Cmd {
	for _, p := range m.stacks[tabContracts][1:] {
		if p.Mode().Busy {
			return m.fail("contract", fmt.Errorf("%s on the Contracts tab has work under way: :contract again once it is done", sanitize.Line(p.Title())))
		}
	}
	m.stacks[tabContracts] = m.stacks[tabContracts][:1]
	m.switchTab(tabContracts)
	list := m.top()
	return tea.Batch(tag(list, list.Update(browse.ShowContract{ID: c.ID})), m.inform("contract "+sanitize.Line(c.Name)))
}
