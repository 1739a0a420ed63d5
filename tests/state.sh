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

# --- tmux through one control client ---------------------------------
# Every tmux command goes through one control-mode client (tmux -C,
# attached to a session c of its own that nothing else uses) fed
# through a FIFO and read with the shell's read, and the screen is
# searched by the server (#{C/r:REGEX}): a key, a poll or a check costs
# no process (tests/tmux.sh does the same).  The viewer runs in session
# p.  ctl_start starts the server; the EXIT trap stops it.
unset TMUX # a server of our own even when run inside tmux
nl='
'
ctl_up=
ctl_start() {
	tm new-session -d -s c -x 80 -y 24 'exec cat' \; \
		set-option -g status off \; \
		set-option -s exit-empty off >/dev/null 2>&1 || return 1
	mkfifo "$tmp/ctl.in" "$tmp/ctl.out" || return 1
	tm -C attach-session -t c \; refresh-client -f no-output \
		<"$tmp/ctl.in" >"$tmp/ctl.out" 2>"$tmp/ctl.err" &
	exec 3>"$tmp/ctl.in" 4<"$tmp/ctl.out"
	trap : PIPE
	ctl_up=yes
	# Without the server's search (an older tmux) no check could pass.
	ctl "display-message -p -t c '#{C/r:^}'" && [ "$ctl_out" = 1 ]
}
# ctl_stop: the server killed through the client, which is read until
# the server has written its last and closed the FIFO.
ctl_stop() {
	if [ -n "$ctl_up" ]; then
		printf 'kill-server\n' 2>/dev/null >&3
		while IFS= read -r ctl_l <&4; do :; done
		ctl_up=
	fi
	tm kill-server >/dev/null 2>&1
}
# ctl COMMAND: a tmux COMMAND (one line of its syntax) run by the
# client; its output in $ctl_out; status 1 on %error.  Blocks flagged 0
# (the commands of the client's own command line) are skipped.
ctl() {
	printf '%s\n' "$1" 2>/dev/null >&3 || {
		echo "Bail out! the tmux control client is gone"
		exit 1
	}
	ctl_out='' ctl_end=''
	while IFS= read -r ctl_l; do
		if [ -z "$ctl_end" ]; then
			case $ctl_l in '%begin '*) ctl_end=${ctl_l#%begin } ;; esac
			continue
		fi
		case $ctl_l in
		"%end $ctl_end" | "%error $ctl_end")
			case $ctl_end in
			*' 1') ;;
			*)
				ctl_out='' ctl_end=''
				continue ;;
			esac
			ctl_out=${ctl_out%"$nl"}
			case $ctl_l in '%end '*) return 0 ;; esac
			printf 'tmux: %s: %s\n' "$1" "$ctl_out" | diag
			return 1 ;;
		esac
		ctl_out=$ctl_out$ctl_l$nl
	done <&4
	echo "Bail out! the tmux control client is gone (after: $1)"
	exit 1
}
# quote STRING: STRING as one single-quoted word of tmux's syntax, in
# $quoted.
quote() {
	q_s=$1 quoted="'"
	while :; do
		case $q_s in
		*"'"*)
			quoted="$quoted${q_s%%"'"*}'\\''"
			q_s=${q_s#*"'"} ;;
		*)
			quoted="$quoted$q_s'"
			return ;;
		esac
	done
}
# display FORMAT: FORMAT expanded for pane p, in $ctl_out.
display() {
	quote "$1"
	ctl "display-message -p -t p $quoted"
}
# screen: pane p's rows in $ctl_out (screen -e: with their attributes).
screen() {
	ctl "capture-pane -p $* -t p"
}
# on_screen REGEX: the extended REGEX (no # or }) matches a row of p;
# that row (from 1) in $found.
on_screen() {
	display "#{C/r:$1}"
	found=${ctl_out:-0}
	[ "$found" -ne 0 ]
}
# nap N: the nap after a poll's Nth miss (from 0), slept by the server:
# a hundredth of a second for the first three, then a 25th.
nap() {
	if [ "$1" -lt 3 ]; then
		ctl 'run-shell -d 0.01'
	else
		ctl 'run-shell -d 0.04'
	fi
}
# wait_for CMD: CMD (evaluated) until true, for up to 20 s (a bound for
# a sanitizer build on a loaded machine, not a timing).
wait_for() {
	w_i=0
	while [ $w_i -lt 500 ]; do
		eval "$1" && return 0
		nap $w_i
		w_i=$((w_i + 1))
	done
	return 1
}
# pane_wait REGEX: wait for REGEX on p's screen; false, with the screen
# as a diagnostic, when it never shows.
pane_wait() {
	pw_re=$1
	wait_for 'on_screen "$pw_re"' && return 0
	screen
	printf '%s\n' "$ctl_out" | diag
	return 1
}
# keys KEY...: the keys typed into p, a send-keys each, a nap apart (an
# Escape apart from the next key by more than the viewer's 25 ms, else
# the two read as Alt-key).
keys() {
	for k; do
		quote "$k"
		ctl "send-keys -t p $quoted"
		case $k in
		Escape) ctl 'run-shell -d 0.05' ;;
		*) ctl 'run-shell -d 0.02' ;;
		esac
	done
}
# type_text TEXT: TEXT typed into p as it is.
type_text() {
	quote "$1"
	ctl "send-keys -t p -l $quoted"
}
# search RE: / RE Enter in p.
search() {
	keys /
	type_text "$1"
	keys Enter
}
# view FILE WxH [OPTION...]: the viewer on FILE in a fresh session p of
# that size (the one before ended by view_end), once its calls are read
# (the status line's "loading" gone); false after 20 s.
view() {
	v_file=$1 v_size=$2
	shift 2
	view_end
	quote "env TERM=screen LC_ALL=C '$TRACETUI' $* '$v_file'; echo '[viewer ended]'; sleep 10"
	ctl "new-session -d -s p -x ${v_size%x*} -y ${v_size#*x} $quoted" ||
		return 1
	v_open=yes
	wait_for '! on_screen loading && on_screen "\| Profile \|"' && return 0
	screen
	printf '%s\n' "$ctl_out" | diag
	return 1
}
# view_end: the viewer in p, if any, quit (Escape closes a prompt, then
# q) and its end waited for before the session goes: a sanitizer
# build's leak check could spin for good on a hangup.
view_end() {
	[ -n "$v_open" ] || return 0
	v_open=
	keys Escape q
	wait_for 'on_screen "^\[viewer ended\]"'
	ctl 'kill-session -t p'
}

sock=tracetui-state-$$
trap 'view_end; ctl_stop; rm -rf "$tmp"' EXIT
ctl_start || skip_all "tmux cannot start a server"

# re_of TEXT: TEXT as an extended regex matching it alone, in $re (each
# character special to one escaped, by the shell).
re_of() {
	r_s=$1 re=
	while :; do
		case $r_s in
		*[].[\\\$^*+?\(\)\|{]*)
			r_p=${r_s%%[].[\\\$^*+?\(\)\|{]*}
			r_s=${r_s#"$r_p"}
			re="$re$r_p\\${r_s%"${r_s#?}"}"
			r_s=${r_s#?} ;;
		*)
			re=$re$r_s
			return ;;
		esac
	done
}

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
	# The row Down moves to ("row N of M", the end of a row), once the
	# status names another than before (a shot of the screen before
	# it would name the old one).
	row_at() {
		at=
		on_screen 'row [0-9]+ of [0-9]+$' || return 0
		screen -S $((found - 1)) -E $((found - 1))
		at="row ${ctl_out##* row }"
	}
	row_at
	before=$at
	keys Down
	wait_for 'row_at; [ -n "$at" ] && [ "$at" != "$before" ]'
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
	idle_last
	ok $? "H with a range: the threads without a call in it come folded, after the others"
	screen
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
