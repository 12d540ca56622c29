package operator

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
)

// keyAdmins lists the embedded sandbox's demo admin wallets while the
// admin wallet field has the focus (ctrl+r lists recent lookups elsewhere).
var keyAdmins = key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "demo admin wallets"))

// adminNote says where an admin wallet id comes from: the dashboard lists
// none, as the service's interface has no call that lists them.
func (o *operator) adminNote() string {
	if len(o.admins) > 0 {
		return "Admin wallet id: ctrl+r lists the embedded sandbox's demo admin wallets."
	}
	return "Admin wallet id: the service's operators give it (no call lists admin wallets)."
}

// adminFocused says the admin wallet field has the focus.
func (o *operator) adminFocused() bool {
	fields := o.form.Fields()
	i := o.form.Focused()
	return o.adminWallet != nil && i >= 0 && i < len(fields) && fields[i] == o.adminWallet
}

// openAdmins lists the demo admin wallets to choose one from.
func (o *operator) openAdmins() {
	o.pick, o.pickingAdmin = newPickList(o.admins, map[string]string{}, false), true
	o.pick.title = "Demo admin wallets of the embedded sandbox"
}

// tookAdmin puts the admin wallet chosen in its field.
func (o *operator) tookAdmin(id string) {
	o.adminWallet.SetValue(id)
	o.recheck(o.adminWallet)
	o.hint = fmt.Sprintf("Admin wallet %s, a demo admin wallet of the sandbox.", id)
}
