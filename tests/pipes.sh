#!/bin/sh
# pipes.sh: a reader that closes its end of the pipe has read enough, so
# every command and format stops there silently with the status a SIGPIPE
# death gives (141 in a shell), as git and the coreutils do; a full disk
# stays status 4 with a message naming the reason.
. "${top_srcdir:-.}/tests/lib.sh"

[ -x "$TRACETUI" ] || skip_all "no tracetui to run"
builddir=$(cd "${top_builddir:-.}" && pwd)
srcdir=$(cd "${top_srcdir:-.}" && pwd)
demo=$builddir/data/demo.trace
[ -f "$demo" ] || demo=$srcdir/data/demo.trace
[ -f "$demo" ] || skip_all "no data/demo.trace"
# Into a pipe already closed, the first write fails whatever its size:
# make check writes a generated fixture's (render-gen), check-long the
# demo's.  The pipes into head -c1 below need more than a pipe holds:
# the demo's in both.
tiered_trace "$demo"

# Every command and format, one a line (the trace is appended; T is the
# trace too).
cat >"$tmp/commands" <<'EOF'
report
report -f tsv
report -f csv
report -f json
tree
tree -f tsv
tree -f csv
tree -f json
calls
calls -f tsv
calls -f csv
calls -f json
folded
flamegraph
export -f speedscope
export -f chrome
export -f dot
export -f html
info
dump
diff T
diff -f tsv T
diff -f csv T
diff -f json T
diff T T T T -- T T T
EOF

# closed CMD...: run CMD with its standard output a pipe whose reader has
# already gone (a FIFO opened and closed by a process that then ended), so
# the first write meets no reader whatever the timing; status in $rc,
# standard error in $tmp/err.  The pipe, once its reader has gone, stays
# so: it is made once, on fd 3, for every CMD.
closed_pipe=
closed() {
	if [ -z "$closed_pipe" ]; then
		mkfifo "$tmp/fifo" || return 1
		(exec <"$tmp/fifo") &
		exec 3>"$tmp/fifo"
		wait $!
		closed_pipe=yes
	fi
	"$@" >&3 2>"$tmp/err"
	rc=$?
}

# make check: the first format of each command into a closed pipe, and
# report alone into a full disk (the one door every command writes
# through); make check-long: all of them, both ways.
if [ -z "$long" ]; then
	awk '!seen[$1]++' "$tmp/commands" >"$tmp/first"
	mv "$tmp/first" "$tmp/commands"
fi

full=
[ -w /dev/full ] && full=yes
while read -r line; do
	args=
	for word in $line; do
		[ "$word" = T ] && word=$trace
		args="$args $word"
	done
	# shellcheck disable=SC2086 # the words of the line are the arguments
	closed "$TRACETUI" $args "$trace"
	[ "$rc" -eq 141 ] && [ ! -s "$tmp/err" ]
	ok $? "$line into a closed pipe: status 141, nothing said (status $rc)"
	[ ! -s "$tmp/err" ] || diag <"$tmp/err"
	if [ -n "$full" ]; then
		[ -n "$long" ] || full=
		# shellcheck disable=SC2086
		"$TRACETUI" $args "$trace" >/dev/full 2>"$tmp/err"
		rc=$?
		# (read by the shell: one line, and what it says)
		f_n=0 f_line=
		while IFS= read -r f_l; do f_n=$((f_n + 1)) f_line=$f_l; done <"$tmp/err"
		[ "$rc" -eq 4 ] && [ $f_n -eq 1 ] &&
			[ "$f_line" = "tracetui: cannot write the output: No space left on device" ]
		ok $? "$line into a full disk: status 4, one line saying why (status $rc)"
		[ "$rc" -eq 4 ] || diag <"$tmp/err"
	fi
done <"$tmp/commands"

closed "$TRACETUI" --help
[ "$rc" -eq 141 ] && [ ! -s "$tmp/err" ]
ok $? "--help into a closed pipe: status 141 (status $rc)"
closed "$TRACETUI" --version
[ "$rc" -eq 141 ] && [ ! -s "$tmp/err" ]
ok $? "--version into a closed pipe: status 141 (status $rc)"

# As people write it: more output than a pipe holds, into head -c1.  The
# status of the left side of a pipeline is kept by a subshell.
heads='"calls" "dump" "calls -f json" "export -f chrome"'
[ -n "$long" ] || heads='"calls" "export -f chrome"'
eval "set -- $heads"
for args; do
	# shellcheck disable=SC2086
	{
		"$TRACETUI" $args "$demo" 2>"$tmp/err"
		echo $? >"$tmp/rc"
	} | head -c1 >/dev/null
	read -r rc <"$tmp/rc"
	[ "$rc" -eq 141 ] && [ ! -s "$tmp/err" ]
	ok $? "$args | head -c1: status 141, nothing said (status $rc)"
	[ ! -s "$tmp/err" ] || diag <"$tmp/err"
done

# A parent that ignores SIGPIPE (as some runners do) changes nothing.
if command -v perl >/dev/null 2>&1; then
	closed perl -e '$SIG{PIPE} = "IGNORE"; exec @ARGV' "$TRACETUI" calls "$demo"
	[ "$rc" -eq 141 ] && [ ! -s "$tmp/err" ]
	ok $? "SIGPIPE ignored by the parent: still status 141 (status $rc)"
	[ ! -s "$tmp/err" ] || diag <"$tmp/err"
fi

done_testing
