# tmux-ctl.sh: sourced by the viewer suites (after tests/lib.sh) that
# drive tmux through one control-mode client.
#
# Every tmux command goes through one control-mode client (tmux -C,
# attached to a session c of its own that nothing else uses) fed
# through a FIFO and read with the shell's read, and the screen is
# searched by the server (#{C/r:REGEX}): a key, a poll or a check costs
# no process (tests/tmux.sh does the same).  The viewer runs in session
# p.  ctl_start starts the server; the suite's EXIT trap calls view_end
# and ctl_stop.  These replace tests/lib.sh's tm-based pane_wait, keys,
# view and view_end: source this file after it.  Needs $tmp, $sock and
# $TRACETUI.  tests/tmux.sh, whose client attaches to the viewer's own
# session, takes ctl and quote from here and keeps its own helpers.
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
# settled CMD: CMD (evaluated; what it read left in $ctl_out) again a
# nap later until two reads agree, up to 50 times: a read made while a
# frame was being drawn, half old and half new, is made again.
settled() {
	st_n=0
	eval "$1"
	while [ $st_n -lt 50 ]; do
		st_was=$ctl_out
		nap 0
		eval "$1"
		[ "$ctl_out" = "$st_was" ] && return 0
		st_n=$((st_n + 1))
	done
	return 1
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
# keys KEY...: the keys typed into p, in one send-keys up to each Escape,
# which is sent alone and followed by a nap longer than the viewer's
# 25 ms (else it and the next key read as Alt-key).  The viewer reads
# them in turn: a view the first opens gets the next.
keys() {
	k_cmd=
	for k; do
		quote "$k"
		if [ "$k" = Escape ]; then
			[ -z "$k_cmd" ] || ctl "send-keys -t p$k_cmd"
			ctl "send-keys -t p $quoted"
			ctl 'run-shell -d 0.05'
			k_cmd=
		else
			k_cmd="$k_cmd $quoted"
		fi
	done
	[ -z "$k_cmd" ] || ctl "send-keys -t p$k_cmd"
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
