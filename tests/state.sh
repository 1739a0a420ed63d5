#!/bin/sh
# state.sh: what the viewer carries between its views, in a detached tmux
# server of our own, on the shared traces ($SHARED_TRACES; skipped when
# absent):
# - passing through every view with Tab never changes the selection:
#   after /performCreate and Tab round all of them, the chart still
#   shows performCreate's call (its caller named), not a frame's;
# - Esc out of the chart opened from the Frames view goes back as [
#   does: the Frames list as it was, its range restored (all), its row
#   selected, and Esc again the profile of the whole trace; the same
#   from the Calls view;
# - the call tree, opened before and turned bottom-up, shows the
#   selection made since in the profile, not its old row;
# - D in the chart selects the dropped call's caller, as M does;
# - the icicle shows the selection made elsewhere marked, a frame
#   narrower than a cell zoomed into (performCreate, 0.4%), from the
#   profile and after L, at 120x30 and 80x24 (make check: one size
#   each, in the viewer of the checks above, resized for the second;
#   check-long: besides, each in a viewer of its own at both sizes);
# - the chart's folded thread says Down goes to the next thread; the
#   threads idle over the whole trace are those `info` gives no wall
#   time, calls or not; with a range, H shows the threads without a
#   call in it folded and after every thread with one, j reaching them.
# Every wait polls for at most 20 s; a viewer is shown once its calls
# are read, so the keys after go to the views that need them.  Every
# tmux command goes through one control-mode client: no process a key,
# a poll or a check.
. "${top_srcdir:-.}/tests/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
T=${SHARED_TRACES:-}
[ -n "$T" ] && [ -d "$T" ] || skip_all "no shared traces"
regular=$T/firefox-profiler__art-trace-regular.trace
streaming=$T/perflib__streaming.trace
[ -f "$regular" ] && [ -f "$streaming" ] || skip_all "no shared traces"

. "${top_srcdir:-.}/tests/tmux-ctl.sh"

sock=tracetui-state-$$
trap 'view_end; ctl_stop; rm -rf "$tmp"' EXIT
ctl_start || skip_all "tmux cannot start a server"

# last_line GLOB: the last of p's rows (captured in $ctl_out) that
# matches GLOB, in $line (empty when none does).
last_line() {
	l_rest=$ctl_out line=
	while [ -n "$l_rest" ]; do
		l_row=${l_rest%%"$nl"*}
		# shellcheck disable=SC2254
		case $l_row in $1) line=$l_row ;; esac
		case $l_rest in
		*"$nl"*) l_rest=${l_rest#*"$nl"} ;;
		*) l_rest= ;;
		esac
	done
}

perform_create='Activity\.performCreate \(Landroid/os/Bundle;\)V'

# marked TEXT: a frame of the icicle's (below its breadcrumb, above the
# status) drawn as the cursor (reverse video under TERM=screen) holds
# TEXT.
marked() {
	esc=$(printf '\033')
	m_i=0
	while [ $m_i -lt 200 ]; do
		# Reverse video as <, a reset as >, colours gone; the first
		# two rows and the last three left out; one awk a poll.
		screen -e
		awk -v e="$esc" -v want="<[^>]*$1" '
			{ row[NR] = $0 }
			END {
				for (i = 3; i <= NR - 3; i++) {
					s = row[i]
					gsub(e "\\[7m", "<", s)
					gsub(e "\\[0*m", ">", s)
					gsub(e "\\[[0-9;]*m", "", s)
					if (s ~ want)
						exit 0
				}
				exit 1
			}' <<SCREEN && return 0
$ctl_out
SCREEN
		nap $m_i
		m_i=$((m_i + 1))
	done
	screen
	printf '%s\n' "$ctl_out" | diag
	return 1
}

# icicle_marked WHAT: from the profile, Activity.performCreate (Bundle)
# searched for (by its whole name: in a viewer used before, a search
# for performCreate would go on to the next match) and the icicle
# opened (3) on it; with WHAT "after L", by way of the
# chart's longest call of it (L).  Its frame must show marked.
icicle_marked() {
	search "$perform_create"
	if [ "$1" = "after L" ]; then
		keys L
		pane_wait '\| Timeline \|' >/dev/null
	fi
	keys 3
	pane_wait '\| Icicle \|' >/dev/null
	marked 'performCreate'
}

# make check: the icicle's checks in the viewer of the others, once U
# has undone its drop: the profile's selection at 120x30, then L's
# resized to 80x24;
# check-long: besides, each in a viewer of its own at both sizes.
if view "$regular" 120x30; then
	# A move typed with the key that opens the chart, before its first
	# draw, acts on the chart fitted to the width (it was one
	# microsecond a column, the trace's start out of sight).
	keys 2 Down
	pane_wait '^wall 66\.219ms/col'
	ok $? "2 Down typed at once: the chart fitted to the trace"
	keys 1
	pane_wait '\| Profile \|' >/dev/null
	search performCreate
	pane_wait 'android\.app\.Activity\.performCreate' >/dev/null
	keys 2
	pane_wait 'called by a\.a\.Instrumentation\.callActivityOnCreate' >/dev/null
	keys Tab Tab Tab Tab Tab Tab Tab Tab Tab
	pane_wait '\| Profile \|' >/dev/null
	keys 2
	pane_wait 'called by a\.a\.Instrumentation\.callActivityOnCreate'
	ok $? "Tab through every view, the Frames too: the chart still shows performCreate's call"

	keys 7 b 1
	search 'View\.measure \(II\)V'
	keys 7
	pane_wait '^android\.view\.View\.measure \(II\)V .*depth 1'
	ok $? "the call tree opened before, bottom-up: it shows the selection made since"

	keys 1
	search "$perform_create"
	keys L
	pane_wait '\| Timeline \|' >/dev/null
	keys D
	pane_wait 'drop android\.app\.Activity\.performCreate; its caller a\.a\.Instrumentation\.callActivityOnCreate sel'
	ok $? "D in the chart: the dropped call's caller is selected, as after M"

	# The drop undone, the icicle's checks (make check).
	keys U
	pane_wait 'undid drop' >/dev/null
	keys 1
	icicle_marked "from the profile"
	ok $? "120x30: the icicle shows performCreate, selected in the profile, marked"
	ctl 'resize-window -t p -x 80 -y 24'
	keys 1
	icicle_marked "after L"
	ok $? "80x24: and after L, its longest call's frame"
else
	ok 1 "the viewer opens $regular"
	ok 1 "the viewer opens $regular"
	ok 1 "the viewer opens $regular"
	ok 1 "the viewer opens $regular"
	ok 1 "the viewer opens $regular"
	ok 1 "the viewer opens $regular"
fi

for size in ${long:+120x30 80x24}; do
	for what in "from the profile" "after L"; do
		if view "$regular" "$size"; then
			icicle_marked "$what"
			ok $? "$size, a viewer of its own: the icicle shows performCreate, $what, marked"
		else
			ok 1 "the viewer opens $regular at $size"
		fi
	done
done

# At 80 columns the title says the whole trace's range as "all", wider
# as "range: all" (a range: "wall 1.000..2.000" or shorter).
all='(range: )?all( \| .*)?$'
if view "$streaming" 80x24; then
	keys J
	pane_wait 'row 1 of 252' >/dev/null
	keys Down Enter
	pane_wait '\| Timeline \|.*[0-9]\.\.[0-9]' >/dev/null
	keys Escape
	pane_wait "\| Frames \|.*\| $all"
	r1=$?
	pane_wait 'a\.v\.Choreographer\.doFrame: frame at ' >/dev/null
	r1=$((r1 + $?))
	pane_wait 'row 2 of 252'
	ok "$((r1 + $?))" "Esc out of the chart a frame opened: the Frames list as it was, range restored, that frame selected"
	keys Escape
	pane_wait "\| Profile \|.*\| $all"
	ok $? "Esc again: the profile of the whole trace"

	keys I
	pane_wait '\| Calls \|' >/dev/null
	# The row Down moves to ("row N of M", the end of a row): the one
	# after the row read before it, twice alike (a shot of a frame half
	# drawn is taken again).
	row_at() {
		at=
		on_screen 'row [0-9]+ of [0-9]+$' || return 0
		screen -S $((found - 1)) -E $((found - 1))
		at="row ${ctl_out##* row }"
	}
	wait_for 'settled row_at && [ -n "$at" ]'
	at_n=${at#row }
	at="row $((${at_n%% *} + 1)) of ${at##* of }"
	keys Down
	wait_for 'on_screen "$at\$"'
	keys Enter
	pane_wait '\| Timeline \|.*[0-9]\.\.[0-9]' >/dev/null
	keys Escape
	pane_wait "\| Calls \|.*\| $all"
	r1=$?
	pane_wait "${at:-no row}"
	ok "$((r1 + $?))" "Esc out of the chart a call opened: the Calls list as it was ($at), range restored"
else
	ok 1 "the viewer opens $streaming"
	ok 1 "the viewer opens $streaming"
	ok 1 "the viewer opens $streaming"
fi
# idle_last: the pane's thread lines (- unfolded, + folded in ASCII;
# from column 22 their chart) hold
# no line with a chart after one without, and every one without is
# folded; at least one of each.
idle_last() {
	screen
	awk '
		/^[-+] / { c = substr($0, 22); gsub(/ /, "", c)
			if (c == "") { idle++; if ($0 !~ /^\+/) bad++ }
			else { busy++; if (idle) bad++ } }
		END { exit !(idle && busy && !bad) }' <<SCREEN
$ctl_out
SCREEN
}

# The threads info gives no wall time: the chart's idle ones.
# One info run for both counts.
idle=$("$TRACETUI" info "$regular" | awk '/^threads:/ { t = 1; getline; next }
	t && NF >= 6 && $4 == 0 { n++; if ($3 > 0) b++ }
	END { print n + 0, b + 0 }')
busy_idle=${idle#* }
idle=${idle%% *}
# 26 busy threads and the note: 45 lines.
if view "$regular" 100x50; then
	# Folded, every thread and the line counting the idle ones show.
	keys 2 O
	pane_wait "$idle threads idle \(H: show\)"
	ok $? "the chart counts $idle threads idle, the $busy_idle with calls of no wall time too"
else
	ok 1 "the viewer opens $regular"
fi

if view "$regular" 100x40 --range 1500..1600; then
	keys 2 O
	pane_wait 'Down: the next thread  Enter or Space: unfold'
	ok $? "a folded thread's hint: Down goes to the next thread"
	keys H
	pane_wait 'every thread of the scope' >/dev/null
	# Polled: a shot of a frame half drawn can show a thread line
	# without its chart yet.
	wait_for idle_last
	ok $? "H with a range: the threads without a call in it come folded, after the others"
	settled screen
	n=$(printf '%s\n' "$ctl_out" | grep -c '^[-+] ')
	keys G
	js=
	i=0
	while [ $i -lt "$n" ]; do
		js="$js j"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	ctl "send-keys -t p$js"
	ctl 'run-shell -d 0.3'
	screen
	last_line '[-+] *'
	last=$(printf '%.18s' "${line#??}")
	re_of "${last%%~*}"
	pane_wait "^thread $re"
	ok $? "j from the busy threads reaches the last of them ($last)"
else
	ok 1 "the viewer opens $regular with a range"
	ok 1 "the viewer opens $regular with a range"
	ok 1 "the viewer opens $regular with a range"
fi
done_testing
