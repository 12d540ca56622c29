#!/usr/bin/env bash
# startup.sh: the time from launching allot on the embedded sandbox to its
# first contract row on screen, measured in tmux beside `echo` launched
# the same way in the same tmux, RUNS times each (min/median/max, ms).
#
#   scripts/startup.sh                 # a new journal
#   JOURNAL=1000000 scripts/startup.sh # with a journal of that many entries
#   JOURNAL=1000000 NOINDEX=1 scripts/startup.sh # its index missing at each start
#
# The journal's size must not change the figures: allot does not read it
# before the first frame. Needs tmux and go; leaves nothing behind.
set -euo pipefail
RUNS=${RUNS:-5}
JOURNAL=${JOURNAL:-0}
NOINDEX=${NOINDEX:-0}
ROW='Team & Advisors Vesting'
cd "$(dirname "$0")/.."
work=$(mktemp -d)
session=allot-startup-$$
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/allot" .
mkdir -p "$work/state/allot" "$work/config"
if [ "$JOURNAL" -gt 0 ]; then
	awk -v n="$JOURNAL" 'BEGIN { for (i = 0; i < n; i++) printf "{\"at\":\"2025-01-01T00:00:00Z\",\"kind\":\"%s\",\"profile\":\"p\",\"baseUrl\":\"http://x\",\"chainId\":1,\"write\":\"%032x\",\"op\":\"transactions/create\",\"ref\":\"START_DISTRIBUTION\",\"status\":\"ok\",\"data\":{\"transactions\":[{\"transactionId\":\"%032x\",\"status\":\"PENDING\"}]}}\n", (i % 2 ? "outcome" : "request"), int(i / 2), int(i / 2) }' > "$work/state/allot/journal.jsonl"
	# Its index, built once as the first reading after an upgrade builds it.
	HOME=$work XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config "$work/allot" --sandbox transactions > /dev/null
fi
tmux new-session -d -s "$session" -x 120 -y 36 "sleep 100000"

# time LABEL TEXT COMMAND: ms from sending COMMAND to TEXT on the pane.
measure() {
	local text=$1 cmd=$2 start now
	tmux respawn-pane -k -t "$session" "env HOME=$work XDG_STATE_HOME=$work/state XDG_CONFIG_HOME=$work/config bash --norc --noprofile"
	sleep 0.3
	tmux send-keys -t "$session" "clear" Enter
	sleep 0.2
	start=$(date +%s%N)
	tmux send-keys -t "$session" "$cmd" Enter
	while ! tmux capture-pane -p -t "$session" | grep -qF -- "$text"; do
		now=$(date +%s%N)
		if [ $(((now - start) / 1000000)) -gt 10000 ]; then
			echo "timeout waiting for '$text'" >&2
			return 1
		fi
		sleep 0.003
	done
	now=$(date +%s%N)
	echo $(((now - start) / 1000000))
}

stats() { sort -n | awk '{ v[NR] = $1 } END { printf "%d/%d/%d ms", v[1], v[int((NR + 1) / 2)], v[NR] }'; }

echoes=() allots=()
for _ in $(seq "$RUNS"); do
	echoes+=("$(measure 'startup-42' 'echo startup-$((6*7))')")
	if [ "$NOINDEX" = 1 ]; then
		rm -f "$work/state/allot/journal.index"
	fi
	allots+=("$(measure "$ROW" "$work/allot --sandbox")")
	tmux send-keys -t "$session" q
done
printf 'journal %d entries (index removed before each start: %s), %d runs (min/median/max), load %s\n' "$JOURNAL" "$NOINDEX" "$RUNS" "$(cut -d' ' -f1 /proc/loadavg)"
printf '  echo:                        %s\n' "$(printf '%s\n' "${echoes[@]}" | stats)"
printf '  allot to first contract row: %s\n' "$(printf '%s\n' "${allots[@]}" | stats)"
