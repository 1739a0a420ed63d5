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
