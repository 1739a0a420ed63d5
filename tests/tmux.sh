#!/bin/sh
# tmux.sh: the viewer end to end in a detached tmux server with a socket
# of its own (100x30): open, sort, drill down and back, switch views, the
# icicle (frames, zoom, inversion, search), the call chart (arrows over
# calls, zoom to a call and fit, a range applied and cleared, Enter on a
# call), search, the call tree (open, hottest path, expand, back to the
# profile), resize, redraw, suspend, quit; the mouse (SGR reports typed
# into the pane: clicks, a click on the selection, the wheel, a bar of
# the chart, a drag along its scale; its modes off while suspended and
# after every exit, never on with --no-mouse, whose reports do nothing);
# Ctrl-C, SIGTERM and SIGHUP;
# with TERM xterm-256color,
# screen and vt100, in C (ASCII drawing) and UTF-8 locales, and with
# NO_COLOR.  After every exit the shell prompt must be back with the
# terminal sane (icanon and echo on, cursor visible, out of the alternate
# screen).  Every wait polls with a timeout of at most 5 s.  While a
# large file or a pipe loads: the progress bar, a resize, and q; while
# the calls load behind the profile of the sums: the note, a refusal, a
# sort and a selection kept when they arrive, and q.  make check loads
# the large file four times: the progress bar resized, the calls'
# checks, with no thread, cut while its calls load; the calls held
# before their first byte are gen.trace's (q, and the file cut),
# whatever the size.  check-long holds the large file's calls too.
#
# Every tmux command goes through one control-mode client (tmux -C) fed
# through a FIFO and read with the shell's read, and the screen is
# searched by the server (#{C/r:REGEX}), so a key, a capture or a check
# costs no process: on a machine where starting one is dear, processes
# were most of this suite's time.
. "${top_srcdir:-.}/tests/lib.sh"
. "${top_srcdir:-.}/tests/tmux-ctl.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
srcdir=$(cd "${top_srcdir:-.}" && pwd)
[ -x "$TRACETUI" ] || skip_all "no tracetui to run"
"$MKTRACE" "$srcdir/tests/fixtures/render-gen.spec" "$tmp/gen.trace" ||
	skip_all "mktrace failed"

# A UTF-8 locale, if the system has one.
utf8=$(locale -a 2>/dev/null | grep -i -m1 -E '^(C|en_US)\.utf-?8$')

unset TMUX # a server of our own even when run inside tmux
sock=tracetui-test-$$
tm() {
	tmux -L "$sock" -f /dev/null "$@"
}
trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT

W=100 H=30
rows=$H # the pane's height, as the last resize left it
# dash (or sh) leaves the terminal modes as it finds them, so stty shows
# what the viewer left behind.
tm new-session -d -s t -x $W -y $H \
	"env -i PATH='$PATH' HOME='$tmp' TERM=screen PS1='READY\$ ' sh -i" \; \
	set-option -g status off >/dev/null 2>&1 ||
	skip_all "tmux cannot start a server"

esc=$(printf '\033')

# bail WHY: end the suite at once (the EXIT trap takes the server down).
bail() {
	echo "Bail out! $1"
	exit 1
}

# The control client: commands are lines on fd 3, and what tmux says
# comes back on fd 4.  A client that dies closes fd 4 (the reads fail
# and the suite bails out) and makes writes to fd 3 fail (a SIGPIPE
# caught, not the shell killed), so nothing waits for it forever.  The
# pane's output is kept out of what it says (refresh-client -f).
mkfifo "$tmp/ctl.in" "$tmp/ctl.out" || bail "mkfifo failed"
tm -C attach-session -t t \; refresh-client -f no-output \
	<"$tmp/ctl.in" >"$tmp/ctl.out" 2>"$tmp/ctl.err" &
exec 3>"$tmp/ctl.in" 4<"$tmp/ctl.out"
trap : PIPE
# At the end the server goes through the client, which is read until
# the server has written its last and closed the FIFO: a server whose
# control client's reader is gone cannot finish writing, and would stay.
trap 'printf "kill-server\n" 2>/dev/null >&3
	while IFS= read -r ctl_l <&4; do :; done
	tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT

# display FORMAT: the pane's FORMAT expanded, in $ctl_out.
display() {
	quote "$1"
	ctl "display-message -p -t t $quoted"
}

# nap N: the nap after a poll's Nth miss (from 0), slept by the server
# (run-shell -d) where it can, else by sleep(1): 2 ms, doubled at each
# miss up to 16, so a screen drawn at once is seen at once, then a
# 25th.  (A poll costs the shell a check and a nap: at 0.02 s throughout
# the polls were most of this suite's CPU.)
if ctl 'run-shell -d 0.01'; then
	nap() {
		case $1 in
		0) ctl 'run-shell -d 0.002' ;;
		1) ctl 'run-shell -d 0.004' ;;
		2) ctl 'run-shell -d 0.008' ;;
		3) ctl 'run-shell -d 0.016' ;;
		*) ctl 'run-shell -d 0.04' ;;
		esac
	}
else
	nap() {
		case $1 in
		0) sleep 0.002 ;;
		1) sleep 0.004 ;;
		2) sleep 0.008 ;;
		3) sleep 0.016 ;;
		*) sleep 0.04 ;;
		esac
	}
fi

resize() {
	ctl "resize-window -t t -x $1 -y $2"
	rows=$2
}

# screen: the pane's rows in $ctl_out, blank ones too.
screen() {
	ctl 'capture-pane -p -t t'
}

# row N [M]: the pane's row N (from 1), or rows N to M, in $ctl_out.
row() {
	ctl "capture-pane -p -t t -S $(($1 - 1)) -E $((${2:-$1} - 1))"
}

# status_line: the status line, the pane's last row but one, in $sl.
status_line() {
	row $((rows - 1))
	sl=$ctl_out
}

# wait_for CMD: poll CMD (a shell command, evaluated here, so it sees
# globals only) every 0.04 s for up to 20 s (a bound for a slow build,
# not a timing).
wait_for() {
	i=0
	while [ $i -lt 500 ]; do
		if eval "$1"; then
			return 0
		fi
		nap $i
		i=$((i + 1))
	done
	return 1
}

# find_row REGEX: the first row (from 1) where the extended REGEX matches,
# or 0, in $found; the server searches its screen, as grep -E would the
# rows of a capture (their trailing blanks dropped).
find_row() {
	case $1 in
	*'#'* | *'}'* | *"$nl"*) bail "find_row: /$1/ has # or } or a newline" ;;
	esac
	display "#{C/r:$1}"
	found=${ctl_out:-0}
}

# Without that search (older tmux) every check would fail: skip.  A
# regex that matches the empty string finds the first row.
display '#{C/r:^}'
[ "$ctl_out" = 1 ] || skip_all "this tmux has no #{C/r:} to search a pane"

on_screen() {
	find_row "$1"
	[ "$found" -ne 0 ]
}

# row_has N REGEX: REGEX matches row N.  The server's first match tells,
# unless it is above row N: then grep reads the row.
row_has() {
	find_row "$2"
	if [ "$found" -eq 0 ] || [ "$found" -gt "$1" ]; then
		return 1
	elif [ "$found" -eq "$1" ]; then
		return 0
	fi
	row "$1"
	grep -Eq -- "$2" <<ROW
$ctl_out
ROW
}

# notes_have REGEX: REGEX matches the notes (calls loading, anomalies):
# at the status line's end, or at the hint line's where the status text
# needs the whole of its line.
notes_have() {
	status_has "$1" || row_has "$rows" "$1"
}

# status_has REGEX: REGEX matches the status line, or a status too long
# for one line that wraps over the rows above it (up to four, joined by
# a blank).
status_has() {
	row_has $((rows - 1)) "$1" && return 0
	# The texts of the last two, three and four rows, joined, one a
	# line, read by one grep.
	sh_text= sh_all=
	sh_n=$((rows - 1))
	while [ $sh_n -ge $((rows - 4)) ] && [ $sh_n -gt 1 ]; do
		row $sh_n
		sh_text="$ctl_out${sh_text:+ $sh_text}"
		[ $sh_n -lt $((rows - 1)) ] && sh_all="$sh_all$sh_text$nl"
		sh_n=$((sh_n - 1))
	done
	[ -n "$sh_all" ] && printf '%s' "$sh_all" | grep -Eq -- "$1"
}

# expect REGEX DESCRIPTION: a test that REGEX shows up on the screen.
expect() {
	pattern=$1
	wait_for 'on_screen "$pattern"'
	rc=$?
	ok $rc "$2"
	if [ $rc -ne 0 ]; then
		echo "expected /$pattern/ on:" | diag
		screen
		printf '%s\n' "$ctl_out" | diag
	fi
}

keys() {
	k_cmd='send-keys -t t'
	for k_arg; do
		quote "$k_arg"
		k_cmd="$k_cmd $quoted"
	done
	ctl "$k_cmd"
}

# mouse REPORT: an xterm SGR mouse report, as the terminal would send
# it ("0;10;5M": left press at column 10, row 5 from 1; m: release).
mouse() {
	keys -l "${esc}[<$1"
}

# The pane's mouse modes, in $ctl_out: any, button-event (1002), SGR
# (1006).
mouse_modes() {
	display '#{mouse_any_flag}#{mouse_button_flag}#{mouse_sgr_flag}'
}

# The pane's shell clears the screen with its printf, not clear(1).
cls="printf '\\033[H\\033[2J'"

# run_in_pane COMMAND: clear the pane and run COMMAND in a sh -c that
# first writes its pid to $tmp/pid; the pid goes to $pid.
run_in_pane() {
	: >"$tmp/pid"
	keys "$cls; sh -c 'echo \$\$ >$tmp/pid; $1'" Enter
	wait_for '[ -s "$tmp/pid" ]'
	pid=
	read -r pid <"$tmp/pid"
}

# start ENV...: run the viewer on gen.trace with these environment
# settings (and the options in $viewer_opts); its pid goes to $pid.  It
# returns once the calls are read (the status line's note gone): a key
# for a view that needs them then opens it at once, and the keys after
# it go to that view, however loaded the machine.
start() {
	run_in_pane "export $*; exec $TRACETUI $viewer_opts $tmp/gen.trace"
	expect '\| Profile \| all 3 threads \|' "$label: the viewer opens"
	wait_for 'status_line; case $sl in *"calls loading"*) false ;; esac' ||
		bail "$label: the calls of gen.trace never came"
}

gone() {
	! kill -0 "$pid" 2>/dev/null
}

# modes_off WHEN: the pane is out of the alternate screen, its cursor
# shown and its mouse modes off.
modes_off() {
	display '#{alternate_on} #{cursor_flag} #{mouse_any_flag}#{mouse_button_flag}#{mouse_sgr_flag}'
	state=$ctl_out
	[ "${state% *}" = "0 1" ]
	ok $? "$label: $1: main screen, cursor visible"
	[ "${state##* }" = 000 ]
	ok $? "$label: $1: the mouse modes are off"
}

# sane DESCRIPTION: the viewer has exited and the shell has a sane
# terminal again.
sane() {
	wait_for gone
	ok $? "$label: $1: the viewer exits"
	# A viewer still there would take the keys typed below for its
	# own (w and a file name among them): it goes first.
	if ! gone; then
		pkill -KILL -P "$pid" 2>/dev/null
		kill -KILL "$pid" 2>/dev/null
		wait_for gone
	fi
	wait_for prompt_back
	ok $? "$label: $1: the shell prompt is back"
	modes_off "$1"
	! on_screen 'Sanitizer|runtime error|Segmentation|Aborted'
	ok $? "$label: $1: no crash or sanitizer report"
	# The words of stty -a that are icanon or echo (set -f: some
	# words, like ^?, are patterns).
	keys "$cls; set -f; for w in \$(stty -a); do case \$w in" \
		" icanon | echo) printf '%s ' \$w ;; esac; done; set +f;" \
		" echo :modes" Enter
	expect '^icanon echo :modes$' "$label: $1: icanon and echo are on"
}

# prompt_back: the last line that is not empty starts with the prompt.
prompt_back() {
	screen
	pb=$ctl_out
	while :; do
		case $pb in
		*"$nl") pb=${pb%"$nl"} ;;
		*) break ;;
		esac
	done
	case ${pb##*"$nl"} in
	'READY$'*) return 0 ;;
	esac
	return 1
}

# A status line that differs from $1, or a failure after 5 s.
wait_status_change() {
	old_status=$1
	wait_for 'status_line; [ "$sl" != "$old_status" ]'
}

# --- The whole tour, in UTF-8 with 256 colours -------------------------
if [ -n "$utf8" ]; then
	label="xterm-256color $utf8"
	start TERM=xterm-256color LANG=$utf8
	# Both clocks where the trace has both, by inclusive wall time.
	expect ' Incl Cpu ms  +Excl Cpu ms  +Wall%  +Incl Wall ms▼ ' \
		"$label: both clocks, sorted by Incl Wall, UTF-8 arrow"
	ctl 'capture-pane -p -e -t t'
	case $ctl_out in *'38;5;'*) true ;; *) false ;; esac
	ok $? "$label: 256 colours in use"

	keys s
	expect ' XWall%▼ ' "$label: s sorts by the next column, shown"
	keys S
	expect ' XWall%▲ ' "$label: S reverses the order"
	keys s
	expect ' Excl Wall ms▼ ' "$label: s again"

	# Drill down: find Looper.loop, open it, walk to its child
	# Looper.loopOnce, open that, and come back with [.
	keys /
	expect '^search \(Enter; Esc cancels\): *$' "$label: / prompts for a pattern"
	keys -l 'Looper.loop$'
	keys Enter
	wait_for 'status_has "^android.os.Looper.loop \(\)V"'
	ok $? "$label: search Looper.loop\$ ends at the name: Looper.loop"
	keys Enter
	expect '^ +Children$' "$label: Enter opens parents and children"
	# As many j as rows from the cursor to the child's edge row (no
	# exclusive time before its name, unlike a method's row), once both
	# rows are drawn.
	wait_for 'find_row "▾ [^ ]*Looper\.loop( |$)"; from=$found
		find_row "[0-9]           +[^ ]*Looper\.loopOnce( |$)"; to=$found
		[ "$from" -gt 0 ] && [ "$to" -gt 0 ]'
	n=$((to - from))
	js=
	while [ $n -gt 0 ]; do
		js="$js j"
		n=$((n - 1))
	done
	# shellcheck disable=SC2086
	[ -z "$js" ] || keys $js
	wait_for 'status_has "^android.os.Looper.loopOnce "'
	ok $? "$label: j walks to the child Looper.loopOnce"
	keys Enter
	expect '[0-9.+]+ +▾ [^ ]*Looper\.loopOnce( |$)' \
		"$label: Enter on a child jumps to it, expanded"
	keys '['
	wait_for 'status_has "^android.os.Looper.loop \(\)V"'
	ok $? "$label: [ goes back to Looper.loop"

	# Views.
	keys Tab
	expect '\| Timeline \|' "$label: Tab shows the timeline"
	keys i
	expect '^ format: +V1, version 3' "$label: i shows the info"
	keys '?'
	expect '\| Help \|' "$label: ? shows the help"
	expect '^   Tab +next view$' "$label: the help lists the keys"
	keys t
	expect '^    Name +Tid +Calls' "$label: t shows the threads"
	status_line
	before=$sl
	keys Down
	wait_status_change "$before"
	ok $? "$label: Down moves in the threads view"
	keys p
	expect '\| Profile \|' "$label: p goes back to the profile"

	# The icicle: open, move between frames, zoom in and out, invert,
	# search, and back out to the profile.  The status line starts with
	# the matches' share while a pattern (Looper.loop) is set.
	zygote='^(matches [0-9.]+%  )?'
	zygote="${zygote}com\\.android\\.internal\\.os\\.ZygoteInit\\.main "
	keys f
	expect '\| Icicle \|' "$label: f shows the icicle"
	expect '^top-down: all +[0-9.]+ ms wall$' "$label: unzoomed, top-down"
	expect '^c\.a\.i\.o\.ZygoteInit\.main' \
		"$label: the widest root at the top left, packages as initials"
	on_screen '█'
	ok $? "$label: frames drawn with block characters"
	keys g
	wait_for 'status_has "$zygote"'
	ok $? "$label: g selects the first root"
	keys j
	wait_for 'status_has "MethodAndArgsCaller.run .* of parent"'
	ok $? "$label: j goes to the first child"
	keys k
	wait_for 'status_has "$zygote"'
	ok $? "$label: k goes back to the parent"
	keys l
	wait_for '! status_has "ZygoteInit.main "'
	ok $? "$label: l goes to the next sibling"
	keys h
	wait_for 'status_has "$zygote"'
	ok $? "$label: h goes back to the previous sibling"
	keys j j Enter
	crumb='^top-down: all → (… → |([a-z]\.)*ZygoteInit\.main → )'
	crumb="${crumb}.*MethodAndArgsCaller\\.run"
	expect "$crumb → Method\\.invoke " \
		"$label: Enter zooms into a frame, the path as a breadcrumb"
	expect '^j\.l\.r\.Method\.invoke *$' \
		"$label: the zoomed frame spans the width"
	keys u
	expect "$crumb +[0-9.]+ ms" "$label: u zooms out one level"
	keys u u
	expect '^top-down: all +[0-9.]+ ms wall$' "$label: u u: unzoomed"
	keys b
	expect '^bottom-up: all ' "$label: b inverts the icicle"
	keys b
	expect '^top-down: all ' "$label: b again: top-down"
	keys / B i n d e r Enter
	wait_for 'status_has "^matches [0-9.]*%  .*Binder"'
	ok $? "$label: /Binder selects a match and gives the matches' share"
	status_line
	before=$sl
	keys n
	wait_for 'status_line; [ "$sl" != "$before" ] &&
		status_has "^matches [0-9.]*%  .*Binder"'
	ok $? "$label: n goes to the next matching frame"
	keys u
	expect '\| Profile \|' "$label: u at the top leaves for the profile"
	# b and s read in the storm of keys that opens the call tree, before
	# its first rows are made, still turn it and sort it (by the column
	# after Total Wall: Cpu%, both clocks shown).
	keys 7 b s
	expect '\| Call tree \|' "$label: 7 opens the call tree"
	expect '\(bottom-up' "$label: 7 b s typed at once: the tree is bottom-up"
	expect ' Cpu%[^ ]+ +Total Cpu' "$label: 7 b s: sorted by the next column"
	keys '<' b 1
	expect '\| Profile \|' "$label: < b 1: as it was, back to the profile"

	# The call chart: the whole trace fits the width; the arrows walk
	# calls (Down: first callee, Right/Left: along a depth, Up: the
	# caller); z zooms to the selected call and 0 fits the trace again;
	# a range from two calls is applied and cleared; Enter on a call
	# selects its method in the profile.  The chart opens on the
	# selection: the longest call of the method the profile selected.
	keys / Z y g o t e I n i t . m a i n Enter
	wait_for 'status_has "ZygoteInit.main"'
	ok $? "$label: the profile selects ZygoteInit.main"
	keys T
	expect '\| Timeline \| all 3 threads \|' "$label: T shows the timeline"
	expect '^(wall )?1\.007ms/col +▼0 ms +│20 ms' \
		"$label: the whole trace fits the width"
	expect '^▾ main ' "$label: a header per thread"
	expect '^ +▏c\.a\.i\.o\.RuntimeInit\$MethodAndArgsCaller\.run█' \
		"$label: a labelled bar per call, one row per depth"
	wait_for 'status_has "^main, wall [0-9.µms]*: ZygoteInit.main \([0-9.]*ms\)$"'
	ok $? "$label: the chart opens on the selected method's call"
	keys Down Down Down Down Down
	wait_for 'status_has "> Looper.loop \([0-9.]*ms\) > Looper.loopOnce \([0-9.µms]*\)$"'
	ok $? "$label: Down walks to the first callee, depth by depth"
	settled status_line
	first=$sl
	keys Right
	wait_for 'status_line; [ "$sl" != "$first" ] &&
		status_has "> Looper.loopOnce \([0-9.µms]*\)$"'
	ok $? "$label: Right goes to the next call at the same depth"
	keys Left
	wait_for 'status_line; [ "$sl" = "$first" ]'
	ok $? "$label: Left comes back to it"
	keys Up
	wait_for 'status_has "> Looper.loop \([0-9.]*ms\)$"'
	ok $? "$label: Up goes to the caller"
	keys Down
	wait_for 'status_line; [ "$sl" = "$first" ]'
	ok $? "$label: Down again: its first callee"
	keys z
	expect '^(wall )?[0-9]+µs/col' "$label: z zooms to the selected call"
	expect '^android\.os\.Looper\.loopOnce ' \
		"$label: the panel names the selected call"
	expect '^incl wall [0-9.µms]+ +cpu [0-9.µms]+ +excl wall ' \
		"$label: the panel gives its times on both clocks"
	keys 0
	expect '^(wall )?1\.007ms/col +▼?[0-9]' "$label: 0 fits the whole trace again"
	keys + +
	expect '^(wall )?500µs/col' "$label: + + zooms in twice"
	keys -
	expect '^(wall )?1\.000ms/col' "$label: - zooms out"
	keys 0
	expect '^(wall )?1\.007ms/col' "$label: 0 fits again"
	keys v Right
	wait_for 'status_has "^range [0-9.]*[µm]s\.\."'
	ok $? "$label: v starts a range, Right extends it"
	keys V
	expect '\| range: wall [0-9.]+\.\.' \
		"$label: V applies the range to every view"
	keys p
	expect '\| Profile \| .*\| range: wall [0-9.]+\.\.' \
		"$label: the profile is of the range"
	keys T
	expect '\| Timeline \|' "$label: back to the timeline"
	keys X
	expect '\| range: all$' "$label: X clears the range"
	keys Left
	# The selected call's name: after the last ": " or "> ", without
	# its " (time)"; read once the line names a call (a capture taken
	# mid-redraw may still show the message before it).
	wait_for 'status_line; case $sl in *"range cleared"*) false ;; *" ("*")"*) true ;; *) false ;; esac'
	name=${sl##*[:>] }
	name=${name% (*)}
	keys Enter
	keys p
	expect '\| Profile \|' "$label: p shows the profile"
	wait_for 'status_line; case $sl in *"$name"*) true ;; *) false ;; esac'
	ok $? "$label: Enter on $name selected it in the profile"

	# One selection for every view: a doFrame call found in the chart is
	# what L acts on (the longest doFrame, as `calls` sorts them) and
	# what the call tree then shows.
	# Its start and wall time as the chart writes them: "4.261ms",
	# "112µs".
	longest=$("$TRACETUI" calls -s wall -n 1 -f tsv "$tmp/gen.trace" \
		'Choreographer\.doFrame' | awk -F'\t' '
		function t(us) {
			if (us < 1000)
				return sprintf("%dµs", us)
			return sprintf("%d.%03dms", us / 1000, us % 1000)
		}
		NR == 2 { print t($3) ": .*> Choreographer.doFrame \\(" t($4) "\\)$" }')
	keys T / C h o r e o g r a p h e r . d o F r a m e Enter
	wait_for 'status_has "> Choreographer.doFrame \([0-9.µms]*\)$"'
	ok $? "$label: /Choreographer.doFrame selects a call of it in the chart"
	keys L
	wait_for "status_has '^main, wall $longest'"
	ok $? "$label: L goes to the longest doFrame, as calls finds it ($longest)"
	keys C
	wait_for 'status_has "^android.view.Choreographer.doFrame \("'
	ok $? "$label: C shows that doFrame selected in the call tree"
	keys p

	# Search with n.
	keys / B i n d e r Enter
	wait_for 'status_has "Binder"'
	ok $? "$label: /Binder selects a Binder method"
	status_line
	before=$sl
	keys n
	wait_for 'status_line; [ "$sl" != "$before" ] &&
		status_has Binder'
	ok $? "$label: n goes to the next match"
	wait_for 'status_has "\[[0-9]+/[0-9]+\]$"'
	ok $? "$label: the status line counts the matches: [3/17]"

	# The prompt's history: Up recalls the patterns given before (the
	# icicle's too), Down comes back; a lower-case pattern ignores case.
	keys /
	expect '^search \(Enter; Esc cancels\): *$' "$label: / prompts again"
	keys Up
	expect '^search \(Enter; Esc cancels\): Binder$' "$label: Up recalls the last pattern"
	keys Up
	expect '^search \(Enter; Esc cancels\): Choreographer\.doFrame *$' \
		"$label: Up again: the one before"
	keys Down
	expect '^search \(Enter; Esc cancels\): Binder$' "$label: Down comes back"
	keys Down
	expect '^search \(Enter; Esc cancels\): *$' "$label: Down past the newest: what was typed"
	keys -l 'looper\.loop '
	keys Enter
	wait_for 'status_has "^android.os.Looper.loop \(\)V"'
	ok $? "$label: a lower-case pattern matches any case"

	# The filter: & keeps the rows matching, named in the title; Esc
	# shows every row again.
	keys '&'
	expect '^keep rows matching \(Enter; Esc cancels\): *$' \
		"$label: & prompts for a filter, saying so"
	keys -l 'looper'
	keys Enter
	expect '\| Profile &looper \|' "$label: the title names the filter"
	wait_for '! on_screen ViewRootImpl && on_screen "[0-9] +[^ ]*Looper"'
	ok $? "$label: only rows of Looper methods show"
	keys Escape
	expect '\| Profile \| all 3 threads' "$label: Esc clears the filter"
	expect 'ViewRootImpl' "$label: every row shows again"

	# Full names: A switches, the title says so; A again abbreviates.
	keys A
	expect '\| full names$' "$label: A shows full names"
	expect ' android\.os\.Looper\.loop \(\)V' \
		"$label: a row's full name with its signature"
	keys A
	wait_for '! on_screen "full names$"'
	ok $? "$label: A again: abbreviated"
	expect ' a\.o\.Looper\.loop$' \
		"$label: the row's packages as initials"

	# The call tree: C opens it on the selected method's paths, g goes
	# to the root, e opens the hottest path with tree guides, h on the
	# root closes and l opens it again, j goes to the first top-level
	# path, Enter shows its method in the profile.
	keys C
	expect '\| Call tree \|' "$label: C shows the call tree"
	expect 'Name  \(top-down\)( +row [0-9]+ of [0-9]+)?$' "$label: the tree is top-down"
	keys g
	wait_for 'status_has "^every call path: [0-9.]* ms"'
	ok $? "$label: g selects the root, the scope's total"
	# e goes down while a child has 80% of its parent's time: no root
	# has that much of the whole, ZygoteInit.main's callees do.
	keys e
	wait_for 'status_has "^every call path: [0-9.]* ms"'
	ok $? "$label: e stays where the time splits"
	keys j e
	wait_for 'status_has "  depth [0-9]*$" && ! status_has "  depth 1$"'
	ok $? "$label: e goes down the hottest path"
	expect '│ [├└]─[▾▸ ] ' "$label: the opened path is drawn with guides"
	keys g h
	wait_for '! on_screen "─[▾▸ ] "'
	ok $? "$label: h on the root closes the whole tree"
	keys l
	expect '─[▾▸ ] ' "$label: l opens it again"
	keys j
	wait_for 'status_has "  depth 1$"'
	ok $? "$label: j goes to the first path"
	status_line
	name=${sl%  depth *}
	keys Enter
	expect '\| Profile \|' "$label: Enter shows the profile"
	wait_for 'status_line; case $sl in *"$name"*) true ;; *) false ;; esac'
	ok $? "$label: the profile selects the tree's method"

	# Frames (J): every frame, longest first, the summary its first
	# line; Enter opens the chart zoomed on the frame, its span the
	# range; I lists the calls of the selected method; a click selects
	# a frame and a second click opens it.
	keys J
	expect '^38 frames 0 slow 0 frozen, p50 ' \
		"$label: J shows the frames, the summary first"
	expect '^ +main +72\.155 +3\.807 ' "$label: the longest frame first"
	keys Enter
	expect '\| Timeline \|.*\| range: wall 72\.155\.\.7' \
		"$label: Enter: the frame in the chart, its span the range"
	wait_for 'status_has "Choreographer\.doFrame \(3\.807ms\)$"'
	ok $? "$label: the frame's call is selected"
	keys X I
	expect '\| Calls \|.*\| a\.v\.Choreographer\.doFrame: 38 c' \
		"$label: I lists the calls of the selected method"
	keys 8
	expect '^38 frames' "$label: 8 shows the frames again"
	mouse "0;10;5M"
	mouse "0;10;5m"
	wait_for 'status_has "frame at 67\.847 ms"'
	ok $? "$label: a click selects the second frame"
	mouse "0;10;5M"
	mouse "0;10;5m"
	expect '\| Timeline \|.*\| range: wall 67\.847\.\.7' \
		"$label: a click on the selected frame opens it in the chart"
	keys X p

	# Findings (!): triage's findings, counted by severity in the title.
	keys '!'
	expect '\| Findings \|.*\| [0-9]+ error, [0-9]+ warn, [0-9]+ info' \
		"$label: ! shows the findings, counted in the title"
	keys p

	# Resizes.
	resize 120 40
	wait_for 'row_has 40 "^Enter:open"'
	ok $? "$label: 120x40: the hint line is on row 40"
	resize 80 24
	wait_for 'row_has 24 "^Enter:open" && ! on_screen "Excl Cpu ms"'
	ok $? "$label: 80x24: redrawn, the exclusive cpu column dropped"
	resize 36 10
	expect '^tracetui needs 40x8 \(now 36x10\)$' \
		"$label: 36x10: one clear line"
	resize $W $H
	wait_for 'row_has 30 "^Enter:open" && on_screen "Excl Cpu ms"'
	ok $? "$label: back to 100x30"

	# C-l repaints what something else wrote over the screen.
	display '#{pane_tty}'
	printf '\033[5;5HGARBAGE-XYZ' >"$ctl_out"
	expect GARBAGE-XYZ "$label: garbage written to the terminal"
	keys C-l
	wait_for '! on_screen GARBAGE-XYZ'
	ok $? "$label: C-l repaints the screen"

	keys q
	sane q

	# The mouse: on at the start; a click selects a row, a click on it
	# opens it, the wheel scrolls; in the chart a click selects the bar
	# under it and a drag along the scale applies a range.
	start TERM=xterm-256color LANG=$utf8
	wait_for 'mouse_modes; [ "$ctl_out" = 111 ]'
	ok $? "$label: the mouse modes are on: buttons, drags, SGR"
	# The row's name: what follows its last number.
	row 5
	row3=${ctl_out##*[0-9]}
	row3=${row3#"${row3%%[! ]*}"}
	mouse '0;10;5M'
	mouse '0;10;5m'
	wait_for 'status_has "^java.lang.reflect.Method.invoke "'
	ok $? "$label: a click selects the third row ($row3)"
	mouse '0;10;5M'
	mouse '0;10;5m'
	expect '^ +Children$' "$label: a click on the selected row opens it"
	! on_screen 'unbound key'
	ok $? "$label: no report reached the keys"
	row 3
	before=$ctl_out
	mouse '65;10;8M'
	wait_for 'row 3; [ "$ctl_out" != "$before" ]'
	ok $? "$label: the wheel scrolls the rows"
	keys T
	expect '\| Timeline \|' "$label: the chart for the mouse"
	mouse '0;16;5M'
	wait_for 'status_has "> RuntimeInit.MethodAndArgsCaller.run \([0-9.]*ms\)$"'
	ok $? "$label: a click selects the bar under it"
	mouse '0;26;2M'
	mouse '32;45;2M'
	mouse '0;45;2m'
	expect '\| range: wall [0-9.]+\.\.' \
		"$label: a drag along the scale applies a range"

	# Ctrl-Z suspends, with the mouse off, and fg resumes it.
	keys C-z
	wait_for prompt_back
	ok $? "$label: Ctrl-Z gives the shell back"
	modes_off suspended
	keys fg Enter
	expect '\| Timeline \| all 3 threads \|' "$label: fg redraws the viewer"
	wait_for 'mouse_modes; [ "$ctl_out" = 111 ]'
	ok $? "$label: fg turns the mouse on again"
	keys q
	sane "q after fg"

	start TERM=xterm-256color LANG=$utf8
	keys C-c
	sane Ctrl-C
fi

# --- Other terminals, the C locale and NO_COLOR: a short tour each ------
short_tour() {
	start "$@"
	if [ "$glyphs" = ascii ]; then
		expect ' Incl Wall msv ' "$label: ASCII drawing"
		! on_screen '▼'
		ok $? "$label: no UTF-8 drawing characters"
	else
		expect ' Incl Wall ms▼ ' "$label: UTF-8 drawing"
	fi
	status_line
	before=$sl
	keys j
	wait_status_change "$before"
	ok $? "$label: j moves down"
	status_line
	before=$sl
	keys Down Down
	wait_status_change "$before"
	ok $? "$label: Down moves down"
	keys Enter
	expect '^ +Children$' "$label: Enter expands"
	# A move typed with the Tab that opens the chart acts on a window
	# fitted to the width before its first draw (it was one microsecond
	# a column).
	keys Tab Down
	expect '\| Timeline \|' "$label: Tab switches views"
	expect '^(wall )?1\.007ms/col' \
		"$label: Tab Down typed at once: the chart fitted to the trace"
}

utf8_or_c=${utf8:-C}
[ -n "$utf8" ] && glyphs=utf8 || glyphs=ascii

label="screen"
short_tour TERM=screen LANG=$utf8_or_c
kill -TERM "$pid"
sane SIGTERM

label="vt100"
short_tour TERM=vt100 LANG=$utf8_or_c
kill -HUP "$pid"
sane SIGHUP

label="LANG=C --no-mouse"
glyphs=ascii
viewer_opts=--no-mouse
start TERM=xterm-256color LANG=C LC_ALL=C
mouse_modes
[ "$ctl_out" = 000 ]
ok $? "$label: the mouse modes stay off"
status_line
before=$sl
mouse '0;10;5M'
mouse '0;10;5m'
mouse '65;10;5M'
keys j
wait_status_change "$before"
# Had the click selected the third row, j would be on the fourth.
status_has '^com\.android\.internal\.os\.RuntimeInit' &&
	on_screen '\| Profile \|' && ! on_screen 'unbound key|\[<'
ok $? "$label: the reports did nothing: j went to the second row"
# A message stays through a resize (the profile's "row N of M" drawn
# again at the new width's end shows the viewer has redrawn).
keys '~'
expect 'unbound key' "$label: a key bound to nothing says so"
resize 90 $H
wait_for 'on_screen "row [0-9]+ of [0-9]+$"'
on_screen 'unbound key'
ok $? "$label: a resize keeps the message"
resize $W $H
keys q
sane q
viewer_opts=
label="LANG=C"
short_tour TERM=xterm-256color LANG=C LC_ALL=C
keys q
sane q

label="NO_COLOR=1"
[ -n "$utf8" ] && glyphs=utf8
short_tour TERM=xterm-256color LANG=$utf8_or_c NO_COLOR=1
# The title can show before the chart under it is drawn: wait for the
# selection, then look at that whole screen's attributes.
wait_for 'ctl "capture-pane -p -e -t t" && case $ctl_out in *"[7m"*) true ;; *) false ;; esac'
ok $? "$label: the selection is in reverse video"
! grep -Eq '\[([0-9]*;)*(3[0-7]|38;5;[0-9]+|4[0-7]|48;5;[0-9]+)(;[0-9]+)*m' \
	<<SGR
$ctl_out
SGR
ok $? "$label: no colours"
if [ "$glyphs" = utf8 ]; then
	expect '▏c\.a\.i\.o\.ZygoteInit\.main' \
		"$label: the chart's bars keep their edges"
else
	expect '\|c\.a\.i\.o\.ZygoteInit\.main' \
		"$label: the chart's bars keep their edges"
fi
keys q
sane q

label="--range"
run_in_pane "cd $tmp && exec $TRACETUI --range 1ms..2ms gen.trace"
expect '\| range: (wall|cpu) 1\.000\.\.2\.000 ms' \
	"$label: the viewer opens on the range"
top=$("$TRACETUI" report --range 1ms..2ms --top 1 --format tsv \
	"$tmp/gen.trace" | awk -F'\t' 'NR == 2 { print $4 }')
top_ms=$(printf '%d.%03d' $((top / 1000)) $((top % 1000)))
expect " $top_ms " "$label: its top row is report's ($top_ms ms)"
keys q
sane q

# --- The load: a progress bar; q and resizes answered while it reads ----
# A FIFO whose writer stays open keeps the load going for as long as the
# test wants; a pipe has no size, so only a file shows a percentage: a
# streaming trace of 1.2M records (17 MB; check-long: 4M, 56 MB), held
# by a gate where a test needs the load still going.
label="load"
mkfifo "$tmp/slow.trace"
sleep 30 >"$tmp/slow.trace" 3>&- 4<&- &
writer=$!
run_in_pane "exec $TRACETUI $tmp/slow.trace"
expect "^tracetui: reading $tmp/slow.trace \\.\\.\\.\$" \
	"$label: a status line while a pipe is read"
resize 30 $H
expect '^tracetui: reading \.\.\.$' "$label: 30 columns: redrawn narrower"
resize $W $H
keys q
# The writer is still writing: the viewer did not wait for the end.
wait_for gone && kill -0 "$writer" 2>/dev/null
ok $? "$label: q during the load ends the viewer before the pipe ends"
sane "q during the load"
kill "$writer" 2>/dev/null

# The large file: over 2^20 records, the most read between two reports
# of progress (model/builder.h's STRETCH), so that a gate holds a read
# before its end (make check: 1.2M, 17 MB; check-long: 4M, 56 MB); its
# size in MB as the progress bar writes it (%.0f from 10 MB).
big_records=1200000
[ -z "$long" ] || big_records=4000000
printf '%s\n' 'format stream' 'version 3' 'clock dual' 'vm art' \
	"generate threads=4 methods=2000 records=$big_records seed=7 maxdepth=40" |
	"$MKTRACE" - "$tmp/big.trace"
big_mb=$((($(wc -c <"$tmp/big.trace") + 500000) / 1000000))
# bar_alone WIDTH: one row has "tracetui:", the bar, narrower than the
# window and at least half as wide, and no other row a piece of one.
bar_alone() {
	screen
	[ "$(printf '%s\n' "$ctl_out" | grep -c 'tracetui:')" -eq 1 ] &&
		[ "$(printf '%s\n' "$ctl_out" | grep -c -e '=>' -e 'MB')" -eq 1 ] &&
		printf '%s\n' "$ctl_out" |
		awk -v w="$1" '/^tracetui: / && length($0) >= w / 2 &&
			length($0) < w { found = 1 } END { exit !found }'
}
# resize_bar WIDTH...: at each width the bar redrawn whole.
resize_bar() {
	for width; do
		resize $width $H
		wait_for "bar_alone $width"
		rc=$?
		ok $rc "$label: $width columns: the bar redrawn whole, no pieces left"
		# The screen as it is (a poll's nap left $ctl_out empty).
		[ $rc -eq 0 ] || { screen; printf '%s\n' "$ctl_out" | diag; }
	done
}
half=$(($(wc -c <"$tmp/big.trace") / 2))
# TRACETUI_TEST_LOAD_GATE holds the first read, behind the progress bar,
# half way through the file, while the terminal narrows and widens: the
# bar is redrawn whole each time, to the new width, with no piece of the
# line drawn at the old one left on the screen (tmux, like many
# terminals, rewraps a line that a narrower window cuts).  (make check:
# narrower and back; check-long: twice.)  A viewer of its own: a resize
# left pending would clear the message a key of the calls' checks below
# waits for.
label="resize while loading"
echo $half >"$tmp/load.gate"
run_in_pane "TRACETUI_TEST_LOAD_GATE=$tmp/load.gate exec $TRACETUI $tmp/big.trace"
expect '^tracetui: reading .*big\.trace \[[=> ]+\] +[0-9]+%' \
	"$label: the progress bar, held half way"
resize_bar 60 $W ${long:+70 $W}
: >"$tmp/load.gate"
expect '\| Profile \| all 4 threads \|' "$label: then the viewer opens"
keys q
sane q
label="load"

# TRACETUI_TEST_CALLS_GATE holds the read of the calls until the gate
# file exists (or, when it names a byte count, once it has read that
# many): what this part does while they load happens while they load,
# however fast the machine.
gate="$tmp/calls.gate"
viewer_held="TRACETUI_TEST_CALLS_GATE=$gate exec $TRACETUI"
rm -f "$gate"
echo $half >"$tmp/load.gate"
run_in_pane "TRACETUI_TEST_LOAD_GATE=$tmp/load.gate $viewer_held $tmp/big.trace"
expect "^tracetui: reading .*big\\.trace \\[[=> ]+\\] +[0-9]+%  [0-9.]+/$big_mb MB" \
	"$label: a progress bar while a large file loads"
: >"$tmp/load.gate"
expect '\| Profile \| all 4 threads \|' "$label: then the viewer opens"
# The first screen comes from the sums; the same thread then reads the
# calls (about as long again), which the status line counts.  Keys that
# need them are refused meanwhile; what the user set meanwhile (the
# sort, the selection) stays when they arrive.
label="calls"
wait_for 'notes_have "calls loading [0-9]+%"'
ok $? "$label: the status line says the calls are loading"
keys T
expect 'calls still loading: [0-9]+%; Timeline opens when read' \
	"$label: T waits for the calls"
wait_for 'row_has 2 "Incl Wall m?sv"'
ok $? "$label: the profile stays"
keys s
wait_for 'row_has 2 " XWall%v "'
ok $? "$label: s sorts the profile meanwhile"
# j j: the cursor on the third row, and the status line naming its
# method (Class.method, as the row shows it): waits for that state, not
# for a change, which a frame caught half drawn would fake.
keys j j
wait_for 'row_has 2 "row 3 of "' && {
	row 5
	name=${ctl_out##* }
	cm=${name%.*}
	cm=${cm##*[.~…]}.${name##*.}
	wait_for 'status_line; case ${sl%%  *} in *"$cm "*) true ;; *) false ;; esac'
}
ok $? "$label: j j move the selection meanwhile ($cm)"
settled status_line
sel=${sl%%  *}
: >"$gate"
wait_for 'status_line; case $sl in *"calls loading"*) false ;; esac'
ok $? "$label: the note goes once the calls are read"
expect '\| Timeline \|' "$label: the timeline asked for opens with them"
# On the selected method's call: u leaves it for its thread, and
# u again the view.
wait_for 'status_line; case $sl in *": "*"$cm ("*")"*) true ;; *) false ;; esac'
ok $? "$label: the timeline opens on the selected method's call"
keys u u
expect '\| Profile \|' "$label: u u: back to the profile"
wait_for 'row_has 2 " XWall%v "'
ok $? "$label: the sort made meanwhile stays"
wait_for 'status_line; [ "${sl%%  *}" = "$sel" ]'
r=$?
ok $r "$label: the selection made meanwhile stays ($sel)"
[ $r -eq 0 ] || echo "the status line: $sl" | diag
keys f u
wait_for 'status_line; [ "${sl%%  *}" = "$sel" ]'
ok $? "$label: f then u: the selection still stays"
expect '\| Profile \|' "$label: f then u: the icicle opened and left"
keys q
sane "q after the load"
# q while the calls load quits at once.  The calls are held before
# their first byte, however small the file: make check holds those of
# gen.trace, check-long those of the large file.
held=$tmp/gen.trace
[ -z "$long" ] || held=$tmp/big.trace
rm -f "$gate"
run_in_pane "$viewer_held $held"
wait_for 'notes_have "calls loading [0-9]+%"'
ok $? "$label: the calls loading again"
# The icicle needs no calls: the sums pass read the call paths.
keys f
expect '\| Icicle \|' "$label: f opens the icicle while they load"
keys q
# The gate is never opened: the viewer did not wait for the calls.
wait_for gone
ok $? "$label: q while the calls are held ends the viewer"
sane "q while the calls load"
# The file cut before the calls are read: the sums stay on screen and the
# status line says why no calls come.  (Held before their first byte
# too: a copy of gen.trace in make check.)
cp "$held" "$tmp/cut.trace"
rm -f "$gate"
run_in_pane "$viewer_held $tmp/cut.trace"
wait_for 'notes_have "calls loading [0-9]+%"'
ok $? "$label: the calls held before the cut"
: >"$tmp/cut.trace"
: >"$gate"
wait_for 'notes_have "no calls \(the file is empty"'
ok $? "$label: a file cut before the calls load: the status line says so"
wait_for 'row_has 2 "Incl Wall m?sv"'
ok $? "$label: a file cut before the calls load: the profile stays"
keys T
expect 'no calls: the file is empty' \
	"$label: a file cut before the calls load: T says why"
keys q
sane "a file cut before the calls load"
# Threads that cannot start (no memory for their stacks): the load and
# the indexes run on the viewer's own thread, and nothing waits for a
# thread that never ran.  TRACETUI_TEST_THREADS=N lets only N start
# (make check: none; make check-long: none, one and two).
for n in 0 ${long:+1 2}; do
	label="$n threads"
	run_in_pane "TRACETUI_TEST_THREADS=$n exec $TRACETUI $tmp/big.trace"
	expect '\| Profile \| all 4 threads \|' "$label: the viewer opens"
	keys f
	expect '\| Icicle \|' "$label: f opens the icicle"
	keys T
	expect '\| Timeline \|' "$label: T opens the timeline"
	keys q
	sane q
done
label="calls"
# The file cut while the calls are read (held once they have read a
# fifth of it, on one thread, so that the rest is still to be read): the
# viewer's screen goes, the shell hears why (status 3), as when it is
# cut before the first screen.  The large file's last use: moved, not
# copied.
mv "$tmp/big.trace" "$tmp/cut.trace"
echo $(($(wc -c <"$tmp/cut.trace") / 5)) >"$gate"
run_in_pane "TRACETUI_TEST_THREADS=1 TRACETUI_TEST_CALLS_GATE=$gate $TRACETUI $tmp/cut.trace; echo status=\$?"
wait_for 'notes_have "calls loading [1-9][0-9]?%"'
ok $? "$label: the calls held on the way"
: >"$tmp/cut.trace"
: >"$gate"
expect 'offset [0-9]+: the file shrank while' \
	"$label: a file cut while the calls load: said"
expect '^status=3$' "$label: a file cut while the calls load: status 3"
sane "a file cut while the calls load"
rm -f "$tmp/cut.trace"

# --- o: the source in $EDITOR, and the screen back as it was -----------
label="o"
cat >"$tmp/src.spec" <<'SPEC'
format v1
version 3
clock dual
thread 1 main
method 0x4 com.example.app.App main ([Ljava/lang/String;)V App.java 12
method 0x8 com.example.app.Gone run ()V Gone.java 5
call 1 0x4 0 0 100 100 {
 call 1 0x8 10 10 80 80
}
SPEC
"$MKTRACE" "$tmp/src.spec" "$tmp/src.trace" >/dev/null 2>&1
mkdir -p "$tmp/srcroot/com/example/app"
echo 'class App {}' >"$tmp/srcroot/com/example/app/App.java"
# The stub editor records its arguments, one a line, then shows a
# screen of its own that the viewer must paint over when it comes back.
cat >"$tmp/editor" <<EDITOR
#!/bin/sh
sleep 0.1
tmux -L "$sock" -f /dev/null display -p -t t \
	'#{mouse_any_flag}#{mouse_button_flag}#{mouse_sgr_flag}' \
	>"$tmp/editor-mouse"
for a in "\$@"; do printf '%s\n' "\$a"; done >"$tmp/args"
clear
echo EDITOR SCREEN
sleep 0.3
EDITOR
chmod +x "$tmp/editor"
rm -f "$tmp/args" "$tmp/editor-mouse"
run_in_pane "VISUAL= EDITOR=$tmp/editor exec $TRACETUI --source-dir $tmp/srcroot $tmp/src.trace"
expect '\| Profile \| 1 thread \|' "$label: the viewer opens"
wait_for 'status_has "^com.example.app.App.main .*\(App.java:12\)"'
ok $? "$label: the status line names App.java:12"
row 2 4
before=$ctl_out
keys o
wait_for '[ -s "$tmp/args" ]'
printf '+12\n%s\n' "$tmp/srcroot/com/example/app/App.java" |
	cmp -s - "$tmp/args"
ok $? "$label: the editor got +12 and DIR/com/example/app/App.java"
diag <"$tmp/args"
wait_for 'status_has "App.java: back from"'
ok $? "$label: back in the viewer, the status line says so"
editor_mouse=
read -r editor_mouse 2>/dev/null <"$tmp/editor-mouse"
[ "$editor_mouse" = 000 ]
ok $? "$label: the editor runs without the viewer's mouse modes"
wait_for 'mouse_modes; [ "$ctl_out" = 111 ]'
ok $? "$label: back in the viewer, the mouse is on again"
! on_screen 'EDITOR SCREEN'
ok $? "$label: the editor's screen is painted over"
row 2 4
[ "$ctl_out" = "$before" ]
ok $? "$label: the rows are as they were"
keys j o
expect 'source not found: no .*/srcroot/com/example/app/Gone\.java or \.kt' \
	"$label: a missing file: the status line says what was searched"
keys q
sane q

# --- A trace on standard input: the keys from the terminal ------------
label="stdin"
run_in_pane "cat $tmp/gen.trace | $TRACETUI -"
expect '\| Profile \| all 3 threads \|' "$label: cat FILE | tracetui - opens"
status_line
before=$sl
keys j
wait_status_change "$before"
ok $? "$label: keys come from the terminal (j moves)"
keys q
sane "q on a piped trace"
# --- A call open at the end of the file, as a range ---------------------
# In perflib__basic.trace the last call starts as the file ends, inside
# a caller that ends there too: Enter on it in the Calls view makes its
# time the range, and the call tree of that range once read a caller
# the range did not list (SIGSEGV).
if [ -r "$SHARED_TRACES/perflib__basic.trace" ]; then
	label="range at the end"
	run_in_pane "exec $TRACETUI $SHARED_TRACES/perflib__basic.trace"
	expect '\| Profile \| all 11 threads \|' "$label: the viewer opens"
	keys 7
	expect '\| Call tree \|' "$label: 7 opens the call tree"
	keys '*'
	keys 9
	expect '\| Calls \|.*stopMethodTracin' \
		"$label: * then 9: the calls of the hottest path's end"
	keys Enter
	keys 7
	expect '\| Call tree \| .*range: wall 0\.287\.\.0\.288 ms' \
		"$label: Enter then 7: the call tree of the call's range"
	expect '^ .*a\.o\.Debug\.stopMethodTracing$' "$label: its caller, a row"
	# The callee's name shortened from the left: its packages to
	# initials (d.s.) where that fits, else cut (~).
	expect '^ .*  +(~|([a-z]\.)+)VMDebug\.stopMethodTracing$' \
		"$label: the call under its caller"
	keys q
	sane "q after the call tree of a range at the end"
fi
# --- A refused pattern, and a fatal signal on an overflowed stack -------
# 20,000 nested groups overflowed regcomp's stack and left the terminal
# raw, in the alternate screen with the mouse on.  A pattern nested past
# util/pattern.c's limit now gets a message (typing all 40,001 bytes of
# that one takes the viewer a minute; 150 levels are refused alike, and
# tests/patterns.sh gives the whole one to the headless viewer).
# Runs of optional copies ({,n} is {0,n} to glibc) took regcomp
# gigabytes: the viewer runs in 300 MB of address space, where such a
# pattern let through would end it.
label="regex limits"
if asan_built "$TRACETUI"; then
	run_in_pane "exec $TRACETUI $tmp/gen.trace"
else
	run_in_pane "ulimit -v 300000; exec $TRACETUI $tmp/gen.trace"
fi
expect '\| Profile \| all 3 threads \|' "$label: the viewer opens"
keys /
expect '^search \(Enter; Esc cancels\): *$' "$label: / prompts for a pattern"
keys -l "$(awk 'BEGIN { for (i = 0; i < 150; i++) printf "(" }')Looper$(
	awk 'BEGIN { for (i = 0; i < 150; i++) printf ")" }')"
keys Enter
expect 'bad regular expression: nested deeper than 100 parentheses' \
	"$label: 150 nested groups: a message on the status line"
for p in '(((a{,40}){,40}){,40}){,40}' 'a{0,9999}'; do
	keys /
	keys -l "$p"
	keys Enter
	expect 'bad regular expression: too large once its repetitions expand' \
		"$label: $p: a message on the status line"
	keys /
	keys -l 'Looper'
	keys Enter
	wait_for '! on_screen "bad regular expression"'
	ok $? "$label: $p: a search after it works"
done
keys /
keys -l 'Looper\.loop '
keys Enter
wait_for 'status_has "^android.os.Looper.loop \(\)V"'
ok $? "$label: the next search works"
keys q
sane "q after a refused pattern"
# Whatever overflows the stack, the fatal-signal handler runs on a stack
# of its own and gives the terminal back (TRACETUI_TEST_STACK_OVERFLOW
# recurses without end once the screen and the mouse are on).
label="stack overflow"
run_in_pane "ASAN_OPTIONS=\${ASAN_OPTIONS:+\$ASAN_OPTIONS:}handle_segv=0 TRACETUI_TEST_STACK_OVERFLOW=1 $TRACETUI $tmp/gen.trace; echo status=\$?"
expect '^status=139$' "$label: the viewer dies of SIGSEGV"
wait_for prompt_back
ok $? "$label: the shell prompt is back"
modes_off "SIGSEGV on an overflowed stack"
keys "$cls; set -f; for w in \$(stty -a); do case \$w in" \
	" icanon | echo) printf '%s ' \$w ;; esac; done; set +f;" \
	" echo :modes" Enter
expect '^icanon echo :modes$' "$label: icanon and echo are on"

done_testing
