#!/bin/sh
# storm.sh: the viewer's transforms on a trace of 300,000 records in a
# detached tmux server.  Undo after a merge, a drop and two groupings
# shows the profile screen as it was before them, row for row, and `w`
# writes the same rows.  Then a storm of 3,000 transform, undo and move
# keys typed at once, and q: the viewer must exit (a hang detector, at
# 60 s for the sanitizers' builds: each key used to rebuild the model,
# its profile and its indexes, in turn, and q waited 101 s behind them;
# make bench times it) with status 0, the shell's
# terminal sane again (main screen, icanon and echo on).  Every tmux
# command goes through one control-mode client: no tmux, grep or tr
# process a key, a poll or a check.
. "${top_srcdir:-.}/tests/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
[ -x "$TRACETUI" ] || skip_all "no tracetui to run"
cat >"$tmp/storm.spec" <<SPEC
format v1
version 3
clock dual
vm art
generate threads=6 methods=800 records=300000 seed=39 maxdepth=32
SPEC
"$MKTRACE" "$tmp/storm.spec" "$tmp/storm.trace" || skip_all "mktrace failed"

. "${top_srcdir:-.}/tests/tmux-ctl.sh"

sock=tracetui-storm-$$
trap 'ctl_stop; rm -rf "$tmp"' EXIT
ctl_start || skip_all "tmux cannot start a server"
quote "env -i PATH='$PATH' HOME='$tmp' TERM=screen PS1='READY\$ ' sh -i"
ctl "new-session -d -s p -x 120 -y 30 $quoted" ||
	skip_all "tmux cannot start a session"
pane_wait 'READY' >/dev/null || skip_all "no shell in the pane"

# poll SECONDS CMD: CMD (evaluated) every 0.05 s (slept by the server)
# until true, for up to SECONDS times 20 polls.
poll() {
	p_i=$(($1 * 20))
	while :; do
		eval "$2" && return 0
		[ $p_i -gt 0 ] || return 1
		p_i=$((p_i - 1))
		ctl 'run-shell -d 0.05'
	done
}

# status_is PATTERN: the viewer's status matches the shell PATTERN (a
# glob): its last line is the pane's row 29, a long one wrapped onto
# the rows above (read joined by blanks).
status_is() {
	screen -S 26 -E 28
	s_text=
	while :; do
		case $ctl_out in
		*"$nl"*)
			s_text="$s_text${ctl_out%%"$nl"*} "
			ctl_out=${ctl_out#*"$nl"} ;;
		*)
			s_text="$s_text$ctl_out"
			break ;;
		esac
	done
	# shellcheck disable=SC2254
	case $s_text in $1) return 0 ;; esac
	return 1
}

# rows FILE: the pane's rows above the status line into FILE.
rows() {
	screen -S 0 -E 27
	printf '%s\n' "$ctl_out" >"$1"
}

# step KEY PATTERN WHAT: press KEY and wait for PATTERN (a glob) in the
# status line.
step() {
	keys "$1"
	poll 10 "status_is '$2'"
	ok $? "$3"
}

type_text "$TRACETUI $tmp/storm.trace; echo EXIT:\$?"
keys Enter
poll 20 "on_screen '\| Profile \|'"
ok $? "the viewer opens"
# Transforms wait for the calls.
poll 20 "! status_is '*calls loading*'"
keys j j j
poll 5 "on_screen 'row 4 of'"
ok $? "the fourth row is selected"
rows "$tmp/before"
keys w
poll 5 "status_is '*write to*'"
keys C-u
type_text "$tmp/before.txt"
keys Enter
poll 5 "status_is '*wrote*'"
ok $? "w writes the rows before the transforms"

step M '*U undoes it*' "M merges the selected method"
step D '*drop *; its caller * sel*' "D drops the caller it selected, and selects its caller"
step Z '*3 transforms*' "Z groups by class"
step Z '*4 transforms*' "Z again groups by package"
step U '*undid group by package*' "U undoes the grouping by package"
step U '*undid group by class*' "U undoes the grouping by class"
step U '*undid drop*' "U undoes the drop"
step U '*undid merge*' "U undoes the merge"
rows "$tmp/after"
cmp -s "$tmp/before" "$tmp/after"
rc=$?
ok $rc "after undoing the four, the profile screen is as it was"
[ $rc -eq 0 ] || diff "$tmp/before" "$tmp/after" | diag
keys w
poll 5 "status_is '*write to*'"
keys C-u
type_text "$tmp/after.txt"
keys Enter
poll 5 "status_is '*wrote*'"
cmp -s "$tmp/before.txt" "$tmp/after.txt"
ok $? "w writes the same rows as before the transforms"

# The storm: 3,000 keys typed at once (a tenth of them undo), then q.
storm=$(awk 'BEGIN {
	srand(39)
	keys = "ZMDFRKPjjkUZMj"
	for (i = 0; i < 3000; i++)
		printf "%s", substr(keys, int(rand() * length(keys)) + 1, 1)
}')
start=$(date +%s)
type_text "$storm"
keys q
# The status on a line of its own: the command typed holds "EXIT:" too.
poll 60 "on_screen '^EXIT:'"
ok $? "after 3,000 keys, q quits ($(($(date +%s) - start)) s, a hang past 60 s)"
on_screen '^EXIT:0$'
ok $? "the viewer exits with status 0"
display '#{alternate_on}'
[ "$ctl_out" = 0 ]
ok $? "the pane is back on its main screen"
type_text "clear; stty -a | tr ' ;' '\n\n' | grep -Ex 'icanon|echo' | tr '\n' ' '; echo :modes"
keys Enter
poll 5 "on_screen '^icanon echo :modes'"
ok $? "icanon and echo are on again"
done_testing
