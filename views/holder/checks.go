package holder

import (
	"fmt"
	"math/big"
	"slices"
	"time"

	"allot/views/widget"
	"allot/wallet"
	"allot/wallet/vesting"
)

// checkMark is a check's state as the screen shows it.
func checkMark(c wallet.Check) string {
	switch c.State {
	case wallet.Pass:
		return "✓ PASS"
	case wallet.Fail:
		return "✗ FAIL"
	}
	return "? NOT CHECKED"
}

// checkField shows one check: its state, then what passed (detail) or
// why it failed or could not run.
func checkField(label string, c wallet.Check, detail string) widget.Field {
	tone := widget.ToneUnchecked
	switch c.State {
	case wallet.Pass:
		tone = widget.TonePass
	case wallet.Fail:
		tone = widget.ToneFail
	}
	if c.State != wallet.Pass {
		detail = c.Reason
	}
	return widget.Field{Label: label, Value: checkMark(c) + "  " + detail, Tone: tone}
}

// trustFields say, when a vester that holds the root is not pinned,
// whether the profile pins each, on its own line: not a check of the
// proof, whose verdict they leave as it is, but what signing a claim
// needs. A root held only by pinned vesters takes no line: the numbers a
// holder acts on stay in sight.
func trustFields(v *wallet.Verification) []widget.Field {
	if !slices.ContainsFunc(v.Trust, func(t wallet.VesterTrust) bool { return !t.Pinned }) {
		return nil
	}
	var out []widget.Field
	for _, t := range v.Trust {
		f := widget.Field{Label: "Pinned", Value: t.String()}
		if !t.Pinned {
			f.Tone = widget.ToneUnchecked
		}
		out = append(out, f)
	}
	return out
}

// verificationFields are the three checks first, what the leaf says next,
// and the hashes they rest on last; amounts are named with u.
func verificationFields(v *wallet.Verification, now time.Time, u unit) []widget.Field {
	leaf := "the service stated no hash; the root vouches for it"
	if v.Proof.Hash != nil {
		leaf = "keccak256(decodableArgs) = the stated hash"
	}
	root := ""
	if v.RootCheck.State == wallet.Pass {
		root = "held by vester " + v.Vester.Hex()
	}
	schedule := ""
	if v.Args != nil {
		schedule = v.Args.Schedule.Kind + " " + v.Args.Schedule.UnlockScheduleID
	}
	fields := []widget.Field{{Label: "Allocation", Value: v.Proof.ID}}
	checks := []widget.Field{
		checkField("Leaf", v.LeafCheck, leaf),
		checkField("On-chain root", v.RootCheck, root),
	}
	checks = append(checks, trustFields(v)...)
	checks = append(checks,
		checkField("Schedule", v.ScheduleCheck, schedule),
		checkField("Vester record", v.StateCheck, "read from the vester's schedules(id)"),
	)
	if v.Args == nil {
		return append(append(fields, checks...), hashFields(v)...)
	}
	if v.Standing != nil {
		// What happened to the allocation comes first: it changes what
		// every amount below means.
		fields = append(fields, stateField(v, now))
	}
	// Then the numbers a holder acts on, in the first lines an 80x24
	// terminal shows, before the checks that vouch for them (whose
	// verdict the status line says).
	fields = append(fields, standingFields(v, now, u)...)
	al, sc := v.Args.Allocation, v.Args.Schedule
	fields = append(fields,
		widget.Field{Label: "Total", Value: u.tokens(al.TotalAllocation)},
		unlockedField(v, u),
	)
	fields = append(fields, checks...)
	fields = append(fields,
		widget.Field{Label: "Beneficiary", Value: al.OriginalBeneficiary.Hex()},
		widget.Field{Label: "Flags", Value: fmt.Sprintf("cancelable %t · revokable %t · transferable by admin %t · by beneficiary %t",
			al.Cancelable, al.Revokable, al.TransferableByAdmin, al.TransferableByBeneficiary)},
	)
	switch sc.Kind {
	case vesting.Calendar:
		for i, ts := range sc.UnlockTimestamps {
			pct := "?"
			if i < len(sc.UnlockPercents) && sc.UnlockPercents[i].IsUint64() {
				pct = vesting.FormatPPM(sc.UnlockPercents[i].Uint64())
			}
			fields = append(fields, widget.Field{Label: fmt.Sprintf("  unlock %d", i+1), Value: fmt.Sprintf("%s%% at %s", pct, widget.FormatTime(time.Unix(int64(ts), 0), now))})
		}
	case vesting.Interval:
		for i, p := range sc.Pieces {
			fields = append(fields, widget.Field{Label: fmt.Sprintf("  piece %d", i+1), Value: fmt.Sprintf("%s%% in %s of %s from %s",
				vesting.FormatPPM(uint64(p.Percent)), steps(p.NumberOfPeriods), widget.FormatDuration(int64(p.PeriodLength)), widget.FormatTime(time.Unix(int64(p.StartDate), 0), now))})
		}
	}
	return append(fields, hashFields(v)...)
}

// hashFields are the leaf, the root it leads to and the proof's nodes.
func hashFields(v *wallet.Verification) []widget.Field {
	fields := []widget.Field{
		{Label: "Leaf hash", Value: v.Leaf.Hex()},
		{Label: "Computed root", Value: v.ComputedRoot.Hex()},
		{Label: "Root index", Value: fmt.Sprint(v.Proof.RootIndex)},
	}
	for i, sib := range v.Proof.Siblings {
		fields = append(fields, widget.Field{Label: fmt.Sprintf("  proof %d", i), Value: sib.Hex()})
	}
	return fields
}

// unlockedField shows what the leaf's schedule has unlocked now, or, when
// the production vester cannot pay it out (D16), says so instead of any
// amount. What the vester counts for a cancelled or revoked allocation is
// in standingFields.
func unlockedField(v *wallet.Verification, u unit) widget.Field {
	if v.Unclaimable != nil {
		return widget.Field{Label: "Unlocked now", Value: "warning: " + v.Unclaimable.Error(), Tone: widget.ToneFail}
	}
	value := fmt.Sprintf("%s%%  %s", vesting.FormatPPM(v.UnlockedPPM), u.tokens(v.Unlocked))
	if s := v.Standing; s != nil && s.Terminated() {
		value += "  (the schedule alone)"
	}
	return widget.Field{Label: "Unlocked now", Value: value}
}

// steps counts a piece's steps in words: "1 step", "12 steps".
func steps(n uint32) string {
	if n == 1 {
		return "1 step"
	}
	return fmt.Sprintf("%d steps", n)
}

// unit names an allocation's amounts for people: its token's short name
// ("HBR", the token of the vester that holds its root, which need not be
// the dashboard's), or "" when it is not known.
type unit string

// tokens formats base units of the allocation's token as every screen
// does, with the token's name when known.
func (u unit) tokens(baseUnits *big.Int) string {
	if u == "" {
		return wallet.FormatTokens(baseUnits)
	}
	return wallet.FormatTokens(baseUnits) + " " + string(u)
}
