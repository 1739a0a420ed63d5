#!/bin/sh
# shares.sh: what the viewer says of a method's callers, in a detached
# tmux server of our own, on the shared traces ($SHARED_TRACES; skipped
# when absent):
# - the call tree turned bottom-up gives each caller of a method its
#   share of that method on each clock shown (not of the whole trace),
#   as the profile's Parents do, at 120 and 80 columns;
# - at 80 and 100 columns the Parents keep the share on the sorted
#   clock while other numbers give way (make check: 80, in the viewer
#   of the 80-column tree; check-long: 100 too).
# Every tmux command goes through one control-mode client: no process
# a key, a poll or a check.
# The shares are checked against an independent reading of `tree`'s
# call paths (the time of the method's outermost calls summed by their
# caller) and `report`'s total of the method, on each clock.
. "${top_srcdir:-.}/tests/lib.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
T=${SHARED_TRACES:-}
[ -n "$T" ] && [ -d "$T" ] || skip_all "no shared traces"
regular=$T/firefox-profiler__art-trace-regular.trace
[ -f "$regular" ] || skip_all "no shared traces"
method='java.lang.Object.wait (JI)V'

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

sock=tracetui-shares-$$
trap 'view_end; ctl_stop; rm -rf "$tmp"' EXIT
ctl_start || skip_all "tmux cannot start a server"

# report's numbers of every method on both clocks, read once.
"$TRACETUI" report -f tsv "$regular" >"$tmp/report.tsv"

# shares CLOCK: each caller of $method with its share of the method's
# time on CLOCK, "Class.name<TAB>pct" (the class without its package,
# as the viewer's short names end), heaviest first: from `tree`'s paths,
# the method's outermost calls summed by their caller, over `report`'s
# total of the method.
shares() {
	total=$(awk -F'\t' -v m="$method" -v k="$1" '
			NR == 1 { for (i = 1; i <= NF; i++) if ($i == "incl_" k) c = i }
			$1 == m { print $c }' "$tmp/report.tsv")
	"$TRACETUI" tree -f tsv --min-pct 0 --no-thread -c "$1" "$regular" |
		awk -F'\t' -v m="$method" -v total="$total" '
		NR == 1 { next }
		{
			d = $5; name[d] = $6
			# Outermost: no frame above it is the method.
			if ($6 == m) {
				outer = 1
				for (i = 0; i < d; i++) if (name[i] == m) outer = 0
				if (outer) sum[d ? name[d - 1] : "(top level)"] += $2
			}
		}
		END {
			for (c in sum) {
				split(c, w, " "); n = split(w[1], p, ".")
				printf "%s.%s\t%.1f%%\n", p[n - 1], p[n], 100 * sum[c] / total
			}
		}' | sort -t'	' -k2,2nr
}

shares wall >"$tmp/wall"
shares cpu >"$tmp/cpu"
[ -s "$tmp/wall" ] && [ -s "$tmp/cpu" ]
ok $? "the oracle reads the callers of $method" || diag <"$tmp/wall"

# rows_match FILE...: every caller of the oracle's files shows on a row
# with its share on each file's clock, in the order of the files'
# columns on screen (a regex of the shares, then the name).
rows_match() {
	paste "$@" | while IFS='	' read -r name wall name2 cpu; do
		[ "$name" = "$name2" ] || { echo "order: $name $name2"; exit 1; }
		re_of "$name"
		pane_wait " ${wall} .* ${cpu} .*${re}(\([^)]*\))?$" >/dev/null ||
			{ echo "no row: $wall $cpu $name"; exit 1; }
	done
}

# re_of NAME: NAME as an extended regex matching it alone, in $re (its
# dots and dollars escaped, by the shell).
re_of() {
	r_s=$1 re=
	while :; do
		case $r_s in
		*[.\$]*)
			r_p=${r_s%%[.\$]*}
			r_s=${r_s#"$r_p"}
			re="$re$r_p\\${r_s%"${r_s#?}"}"
			r_s=${r_s#?} ;;
		*)
			re=$re$r_s
			return ;;
		esac
	done
}

# The callers in wall order, with the cpu share of each beside it.
awk -F'\t' 'NR == FNR { cpu[$1] = $2; next } { print $1 "\t" cpu[$1] }' \
	"$tmp/cpu" "$tmp/wall" >"$tmp/cpu-by-wall"

# parents_match FILE: each caller in FILE ("name<TAB>wall") shows as a
# parent with its wall share, what fails named.
parents_match() {
	while IFS='	' read -r name wall; do
		re_of "$name"
		pane_wait " ${wall} .*${re}(\([^)]*\))?$" >/dev/null ||
			echo "no parent row: $wall $name"
	done <"$1"
}

if view "$regular" 120x30; then
	search 'Object\.wait \(JI\)'
	keys 7 b
	pane_wait 'bottom-up: callers below, % of the method' >/dev/null
	pane_wait '^ *74\.6% .* 4\.1% .*Object\.wait\(long,int\)$' >/dev/null
	r=$?
	out=$(rows_match "$tmp/wall" "$tmp/cpu-by-wall")
	ok "$((r + $?))" "bottom-up: each caller's share of $method, wall and cpu ($(tr '\n' ' ' <"$tmp/wall"))"
	[ -z "$out" ] || echo "$out" | diag

	keys 1 Enter
	pane_wait '^ *Parents' >/dev/null
	# The profile's columns: Cpu% first, then Wall%.
	out=$(paste "$tmp/wall" "$tmp/cpu-by-wall" |
		while IFS='	' read -r name wall name2 cpu; do
			re_of "$name"
			pane_wait "^ *${cpu} .* ${wall} .*${re}(\([^)]*\))?$" >/dev/null ||
				echo "no parent row: $cpu $wall $name"
		done)
	[ -z "$out" ]
	ok $? "the profile's Parents: the same shares" || echo "$out" | diag
else
	ok 1 "the viewer opens $regular"
fi

# At 80 columns the bottom-up tree keeps both shares; back in the
# profile (1), Enter opens the method: the Parents keep the share on
# the sorted clock (wall) while other numbers give way.  (One viewer
# for both, as at 120 columns.)
if view "$regular" 80x24; then
	search 'Object\.wait \(JI\)'
	keys 7 b
	pane_wait '\(bottom-up\)' >/dev/null
	out=$(rows_match "$tmp/wall" "$tmp/cpu-by-wall")
	ok $? "80x24 bottom-up: the callers' shares, wall and cpu" ||
		echo "$out" | diag
	keys 1 Enter
	pane_wait '^ *Parents' >/dev/null
	out=$(parents_match "$tmp/wall")
	[ -z "$out" ]
	ok $? "at 80x24 the Parents keep their wall share" ||
		echo "$out" | diag
else
	ok 1 "the viewer opens $regular at 80x24"
	ok 1 "the viewer opens $regular at 80x24"
fi

# check-long: at 100 columns too, in a viewer of its own.
for size in ${long:+100x24}; do
	if view "$regular" "$size"; then
		search 'Object\.wait \(JI\)'
		keys Enter
		pane_wait '^ *Parents' >/dev/null
		out=$(parents_match "$tmp/wall")
		[ -z "$out" ]
		ok $? "at $size the Parents keep their wall share" ||
			echo "$out" | diag
	else
		ok 1 "the viewer opens $regular at $size"
	fi
done
done_testing
