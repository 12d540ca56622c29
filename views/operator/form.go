package operator

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"allot/api"
	"allot/views/widget"
)

// values are the fields' values, in order.
func (o *operator) values() []string {
	var v []string
	for _, f := range o.form.Fields() {
		v = append(v, f.Value())
	}
	return v
}

// newRow returns a row of fields, checked.
func (o *operator) newRow() fundRow {
	r := fundRow{
		id:     widget.TextField("allocationId", "Allocation", "UUID (ctrl+r: recent)", nil),
		amount: widget.TextField("amount", "Amount", o.amountHint(), nil),
	}
	o.attachCheck(r.id)
	o.attachCheck(r.amount)
	return r
}

// amountHint is an amount field's placeholder: it names the token the
// token field holds, which the user may change, and says "amount" while
// no token known by name is there (an id would not fit).
func (o *operator) amountHint() string {
	if o.tokenID != nil {
		if n, ok := o.ctx.Session.TokenName(strings.TrimSpace(o.tokenID.Value())); ok && n.Short() != "" {
			return n.Short() + ", e.g. 1250.5"
		}
	}
	return "amount, e.g. 1250.5"
}

// nameAmounts gives the rows' amount fields amountHint.
func (o *operator) nameAmounts() {
	for _, r := range o.rows {
		r.amount.SetPlaceholder(o.amountHint())
	}
}

// attachCheck makes f's check the request's own validation, read for f.
func (o *operator) attachCheck(f *widget.FormField) {
	f.Check = func(string) error { return o.fieldErr(f) }
}

// renumber labels the rows 1, 2, ..., keys their fields by the paths the
// service names them with (data[0].amount), and measures the labels again.
func (o *operator) renumber() {
	for i, r := range o.rows {
		r.id.Label = fmt.Sprintf("Allocation %d", i+1)
		r.amount.Label = fmt.Sprintf("Amount %d", i+1)
		r.id.Key = fmt.Sprintf("data[%d].allocationId", i)
		r.amount.Key = fmt.Sprintf("data[%d].amount", i)
	}
	o.nameAmounts()
	if o.form != nil {
		o.form.SetSize(o.width, o.formHeight())
	}
}

// fundRowStart is the index of the first row's field: tokenId and isTest
// come first.
func (o *operator) fundRowStart() int { return 2 }

// focusedRow is the index of the row holding the focus, or -1.
func (o *operator) focusedRow() int {
	if o.action != api.ActionFundDistribution {
		return -1
	}
	i := o.form.Focused() - o.fundRowStart()
	if i < 0 {
		return -1
	}
	return min(i/2, len(o.rows)-1)
}

func (o *operator) addRow() tea.Cmd {
	at := o.focusedRow() + 1
	if at == 0 {
		at = len(o.rows)
	}
	r := o.newRow()
	o.rows = append(o.rows[:at], append([]fundRow{r}, o.rows[at:]...)...)
	o.form.Insert(o.fundRowStart()+2*at, r.id, r.amount)
	o.renumber()
	// Checked by the paths renumber gave them, so that a new field the
	// user leaves empty says what it lacks.
	r.id.SetValue("")
	r.amount.SetValue("")
	o.hint = fmt.Sprintf("Added row %d.", at+1)
	return o.form.Focus(o.fundRowStart() + 2*at)
}

func (o *operator) removeRow() {
	i := o.focusedRow()
	switch {
	case i < 0:
		o.hint = "Move to a row to remove it."
		return
	case len(o.rows) == 1:
		o.hint = "The last row stays: a funding needs at least one."
		return
	}
	o.rows = append(o.rows[:i], o.rows[i+1:]...)
	o.form.Remove(o.fundRowStart()+2*i, 2)
	o.renumber()
	o.form.Focus(o.fundRowStart() + 2*min(i, len(o.rows)-1))
	o.hint = fmt.Sprintf("Removed row %d.", i+1)
}

// openPick lists the recent lookups to choose from: ids for the list of a
// start distribution, or one for the focused fund row.
func (o *operator) openPick() {
	if len(o.recent) == 0 {
		o.hint = "No recent lookups: look allocations up on the Allocation screen (3) first."
		return
	}
	taken := map[string]string{}
	if o.allocationIDs != nil {
		for _, id := range splitIDs(o.allocationIDs.Value()) {
			taken[strings.ToLower(id)] = "in the list"
		}
		o.pick = newPickList(o.recent, taken, true)
		return
	}
	row := o.focusedRow()
	if row < 0 {
		o.hint = "Move to a row to fill its allocation id."
		return
	}
	for j, r := range o.rows {
		if id := strings.TrimSpace(r.id.Value()); j != row && id != "" {
			taken[strings.ToLower(id)] = fmt.Sprintf("row %d", j+1)
		}
	}
	o.pick = newPickList(o.recent, taken, false)
}

// pickKey passes k to the open list and puts what it chose in the form.
func (o *operator) pickKey(k tea.KeyMsg) {
	chosen, done := o.pick.key(k)
	if !done {
		return
	}
	o.pick = nil
	admin := o.pickingAdmin
	o.pickingAdmin = false
	if len(chosen) == 0 {
		return
	}
	if admin {
		o.tookAdmin(chosen[0])
		return
	}
	if o.allocationIDs != nil {
		o.allocationIDs.SetValue(strings.Join(append(splitIDs(o.allocationIDs.Value()), chosen...), ", "))
		o.recheck(o.allocationIDs)
		o.hint = fmt.Sprintf("Added %d from the recent lookups.", len(chosen))
		return
	}
	if row := o.focusedRow(); row >= 0 {
		o.rows[row].id.SetValue(chosen[0])
		o.recheck(o.rows[row].id)
		o.hint = fmt.Sprintf("Row %d: %s from the recent lookups.", row+1, chosen[0])
	}
}

// recheck checks a field whose value was set for the user.
func (o *operator) recheck(f *widget.FormField) {
	if f.Check != nil {
		f.SetErr(f.Check(f.Value()))
	}
}

// fixMarked is the form's line while a field is marked with an error.
const fixMarked = "Fix the marked field first."
