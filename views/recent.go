package views

// MaxRecent is how many recent lookups a screen offers.
const MaxRecent = 8
