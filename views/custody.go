package views

// SafesChanged: the profile's list of Safes changed (:safe add, :safe
// remove), and the accounts page reads it again.
type SafesChanged struct{}

func (SafesChanged) Event() {}
