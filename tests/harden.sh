#!/bin/sh
# harden.sh: failures reported and work bounded by the input.  A thread
# recursing 40000 deep and 20000 threads (make check: 5000) open in the
# headless viewer and visit every view within generous bounds of time
# and memory; a crafted
# mapping joins a bounded number of names; output to
# a full disk or a closed pipe exits 4; out of memory exits 5 with the
# size; a pipe is read up to --max-input; a junk .sec file is named; a
# trace cut short while it is read is an input error, not SIGBUS;
# TERM=dumb is refused with advice; in a terminal, SIGINT, SIGTERM and
# SIGHUP end the viewer with 130, 143 and 129 and a terminal that goes
# away ends it even with SIGHUP ignored.  Every input is generated here.
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
RENDER=${top_builddir:-.}/tests/render
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
command -v timeout >/dev/null || skip_all "no timeout(1)"

if asan_built "$TRACETUI"; then
	asan=yes
else
	asan=no
fi
# limited KB CMD...: CMD with KB of address space (unlimited under
# AddressSanitizer) and 300 s.
limited() {
	kb=$1
	shift
	[ $asan = yes ] && kb=unlimited
	(ulimit -v "$kb" 2>/dev/null; exec timeout 300 "$@")
}

# Every view, moves in each, the bottom-up icicle, the threads' scope.
TOUR="VIEW_PROFILE ENTER MOVE_DOWN*3 SORT_NEXT VIEW_TIMELINE ZOOM_IN*3
MOVE_DOWN CALL_NEXT CALL_LONGEST VIEW_ICICLE MOVE_DOWN*5 ENTER INVERT
MOVE_DOWN*5 SEARCH_NEXT VIEW_THREADS MOVE_DOWN*3 ENTER SCOPE_ALL
VIEW_INFO VIEW_HELP QUIT"

# --- a deep recursion -------------------------------------------------
# deep_spec D: the spec of r recursing D deep around a leaf.
deep_spec() {
	awk -v d="$1" 'BEGIN {
	print "version 3\nclock dual\nvm art\nthread 1 main"
	print "method 0x4 a.Deep r ()V Deep.java"
	print "method 0x8 a.Deep leaf ()V Deep.java"
	for (i = 0; i < d; i++) print "1 enter 0x4 " i " " i
	print "1 enter 0x8 " d " " d
	print "1 exit 0x8 " d + 5 " " d + 5
	for (i = 0; i < d; i++) print "1 exit 0x4 " d + 10 + i " " d + 10 + i
}'
}
deep_spec 40000 >"$tmp/deep.spec"
"$MKTRACE" "$tmp/deep.spec" "$tmp/deep.trace"
ok $? "mktrace writes a trace 40000 calls deep"
# make check: the tour is the start of the walk below, one viewer for
# both (the walk's keys leave the tour's state behind).
if [ -x "$RENDER" ] && [ -n "$long" ]; then
	# shellcheck disable=SC2086
	limited 1048576 "$RENDER" "$tmp/deep.trace" 100x30 $TOUR \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	ok $rc "deep: every view within 1 GiB and 300 s (exit $rc)"
	[ $rc -eq 0 ] || tail -3 "$tmp/err" | diag
fi
# walk_deepest WHAT TRACE MS [KEY...]: after the KEYs (the tour, whose
# check this is then too), the bottom-up icicle and call tree walked
# to the deepest caller of the hot root, within 1 GiB and 60 s; the row
# above the leaf's (that caller) holds 1 call and MS ms below it.
walk_deepest() {
	w_what=$1 w_trace=$2 w_ms=$3
	shift 3
	t0=$(date +%s)
	# CLOCK: from both clocks (the viewer's start) to cpu's alone.
	limited 1048576 timeout 60 "$RENDER" "$w_trace" 100x30 "$@" CLOCK \
		VIEW_ICICLE INVERT MOVE_LAST VIEW_CALLTREE INVERT MOVE_DOWN \
		EXPAND_HOT MOVE_LAST QUIT >"$tmp/out" 2>"$tmp/err"
	rc=$?
	t1=$(date +%s)
	if [ $# -gt 0 ]; then
		ok $rc "deep: every view within 1 GiB and 300 s (exit $rc)"
	fi
	set -- "$w_what" "$w_trace" "$w_ms"
	ok $rc "$1: bottom-up to the deepest caller within 1 GiB and 60 s (exit $rc, $((t1 - t0)) s)"
	[ $rc -eq 0 ] || tail -3 "$tmp/err" | diag
	awk -v ms="$3" '/a\.Deep\.leaf$/ { exit !(p2 == ms && p3 == 1) }
		{ p2 = $2; p3 = $3 }' "$tmp/out"
	ok $? "$1: the bottom-up call tree opens down to the deepest caller"
}
if [ -x "$RENDER" ]; then
	# At the issue's depth, 200000 under check-long: a level's callers
	# are runs of r's, moved on in one step, so the walk is n log n (0.6 s
	# at 40000 here, 2 s at 200000; one that regroups every r below each
	# level took 7 s at 40000, 3 minutes at 200000).  r's deepest caller
	# is the outermost r alone, 6 us of r's own below it.
	d=40000
	[ -n "$long" ] && d=200000
	walk=$tmp/deep.trace
	if [ $d -ne 40000 ]; then
		walk=$tmp/walk.trace
		deep_spec $d >"$tmp/walk.spec"
		"$MKTRACE" "$tmp/walk.spec" "$walk"
	fi
	if [ -n "$long" ]; then
		walk_deepest "deep $d" "$walk" 0.006
	else
		# shellcheck disable=SC2086
		walk_deepest "deep $d" "$walk" 0.006 ${TOUR% QUIT}
	fi

	# Its indirect twin, r->s->r->s: a level's r's (or s's) are one run
	# at a stride of 2, so this walk is n log n too (0.2 s at 40000
	# here; cut into a piece per call at each level it took 3.5 s).
	# The hot root is s (the innermost frame, 6 of its own); its
	# deepest caller holds the outermost s alone: 1 call, 2 us.
	# (check-long: make check walks the direct recursion alone.)
	if [ -n "$long" ]; then
		awk -v d=$d 'BEGIN {
			print "version 3\nclock dual\nvm art\nthread 1 main"
			print "method 0x4 a.Deep r ()V Deep.java"
			print "method 0x8 a.Deep leaf ()V Deep.java"
			print "method 0xc a.Deep s ()V Deep.java"
			for (i = 0; i < d; i++)
				print "1 enter 0x" (i % 2 ? "c" : "4") " " i " " i
			print "1 enter 0x8 " d " " d
			print "1 exit 0x8 " d + 5 " " d + 5
			for (i = d; i-- > 0;)
				print "1 exit 0x" (i % 2 ? "c" : "4") " " 2 * d + 9 - i \
					" " 2 * d + 9 - i
		}' >"$tmp/walk2.spec"
		"$MKTRACE" "$tmp/walk2.spec" "$tmp/walk2.trace"
		walk_deepest "indirect $d" "$tmp/walk2.trace" 0.002
	fi
fi
# check-long: each command on the deep trace (make check: the walk
# above drew the tree, report is below; hostile.sh's calls reads a stack
# 70000 deep).
for cmd in ${long:+report tree calls folded info}; do
	limited 1048576 "$TRACETUI" $cmd "$tmp/deep.trace" >/dev/null 2>&1
	ok $? "deep: $cmd within bounds"
done
# One outer call of r (enter 0, exit 40010 + 39999) over 39999 recursive
# ones, the leaf's 5 its only exclusive time elsewhere.
"$TRACETUI" report -f tsv "$tmp/deep.trace" |
	grep -q '^a.Deep.r ()V	1	39999	80009	80004	80009	80004$'
ok $? "deep: r called once and 39999 times recursively, 80009 us inclusive"

# --- many threads -------------------------------------------------------
# 20000 threads under check-long; make check's 5000 go through the same
# views and commands.
threads=5000
[ -z "$long" ] || threads=20000
awk -v n=$threads 'BEGIN {
	print "format v2\nclock dual\nvm art\nmethod 0x4 a.B c ()V B.java"
	for (i = 1; i <= n; i++) print "thread " i " t" i
	for (i = 1; i <= n; i++)
		print "call " i " 0x4 " i " " i " " i + 1 " " i + 1
}' >"$tmp/many.spec"
"$MKTRACE" "$tmp/many.spec" "$tmp/many.trace"
ok $? "mktrace writes a trace of $threads threads"
if [ -x "$RENDER" ]; then
	# shellcheck disable=SC2086
	limited 1048576 "$RENDER" "$tmp/many.trace" 100x30 $TOUR \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	ok $rc "many threads: every view within 1 GiB and 300 s (exit $rc)"
	[ $rc -eq 0 ] || tail -3 "$tmp/err" | diag
fi
limited 1048576 "$TRACETUI" calls "$tmp/many.trace" >"$tmp/out" 2>&1
ok $? "many threads: calls within bounds"
[ "$(grep -c ' a\.B\.c ()V$' "$tmp/out")" -eq $threads ] &&
	grep -q "^t$threads *$threads " "$tmp/out"
ok $? "many threads: calls lists each thread's call under its name"

# --- threads that never run ----------------------------------------------
# 300000 thread packets (2.4 MB) and one call: a thread that has no event
# costs its row in the model, not the loader's per-thread state (which
# took 456 bytes a thread): well under 100 MB (90 MB today, most of it
# the threads').  make check: 50000 threads in 30 MB (20 MB today; the
# loader's state would add 22 MB).
idle=300000 idle_kb=102400
[ -n "$long" ] || idle=50000 idle_kb=30720
awk -v n=$idle 'BEGIN {
	print "format v2\nclock dual\nmethod 0x4 a.B c ()V"
	for (i = 1; i <= n; i++) print "thread " i " t"
	for (i = 1; i <= n; i++) print "packet thread " i
	print "1 enter 0x4 0 0\n1 exit 0x4 10 10"
}' >"$tmp/idle.spec"
"$MKTRACE" "$tmp/idle.spec" "$tmp/idle.trace"
ok $? "mktrace writes $idle thread packets"
limited $idle_kb "$TRACETUI" report --format tsv "$tmp/idle.trace" \
	>"$tmp/out" 2>"$tmp/err"
ok $? "idle threads: report within $((idle_kb / 1024)) MB"
grep -q '	1	0	' "$tmp/out"
ok $? "idle threads: the one call is counted"

# --- a crafted mapping --------------------------------------------------
# 20000 originals behind one obfuscated name, and 2000 methods of that
# name in the trace (make check: a tenth of each): every renamed name
# joins at most eight of them.
originals=20000
[ -n "$long" ] || originals=2000
awk -v n=$originals 'BEGIN {
	print "com.example.Big -> a.B:"
	for (i = 0; i < n; i++) print "    void orig" i "(int) -> a"
}' >"$tmp/crafted.map"
awk -v n=$((originals / 10)) 'BEGIN {
	print "version 3\nclock dual\nvm art\nthread 1 main"
	for (i = 1; i <= n; i++) printf "method 0x%x a.B a (J%d)V B.java\n", i * 4, i
	for (i = 1; i <= n; i++) printf "call 1 0x%x %d %d %d %d\n", i * 4, 2 * i, 2 * i, 2 * i + 1, 2 * i + 1
}' >"$tmp/crafted.spec"
"$MKTRACE" "$tmp/crafted.spec" "$tmp/crafted.trace"
limited 1048576 "$TRACETUI" report -f tsv --mapping "$tmp/crafted.map" \
	"$tmp/crafted.trace" >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "a crafted mapping: report within 1 GiB and 300 s (exit $rc)"
awk -F'\t' 'NR > 1 { n = split($1, parts, "|"); if (n > 9) bad++ }
	END { exit bad ? 1 : 0 }' "$tmp/out" &&
	grep -q '^com.example.Big.orig0|orig1|orig2|orig3|orig4|orig5|orig6|orig7|\.\.\. ' \
		"$tmp/out"
ok $? "a crafted mapping: eight names and '...' per method"
[ "$(wc -c <"$tmp/out")" -lt 1000000 ]
ok $? "a crafted mapping: the output stays small"

# --- write errors -------------------------------------------------------
demo_trace "$tmp/demo.trace"
if [ -w /dev/full ]; then
	run "$TRACETUI" report "$tmp/demo.trace"
	"$TRACETUI" report "$tmp/demo.trace" >/dev/full 2>"$tmp/err"
	rc=$?
	[ $rc -eq 4 ] && grep -q "cannot write the output" "$tmp/err"
	ok $? "a full disk: exit 4 with a message (exit $rc)"
fi
# A reader that closes its end at once.
("$TRACETUI" dump "$tmp/demo.trace" 2>"$tmp/err"; echo $? >"$tmp/rc") |
	(exec 0<&-; :)
rc=$(cat "$tmp/rc")
[ "$rc" -eq 141 ] && [ ! -s "$tmp/err" ]
ok $? "a closed pipe: ended silently as by SIGPIPE (exit $rc)"
"$TRACETUI" --help | grep -q "4 the output cannot be written, 5 out of memory"
ok $? "the help lists the exit statuses"

# --- pipes ----------------------------------------------------------------
# (a key's start, then zeros: zeros alone are refused at offset 0)
{ printf '*version\n3\n'; head -c 3000000 /dev/zero; } |
	"$TRACETUI" report --max-input 1M - >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "offset 1048576: .*--max-input" "$tmp/err" &&
	[ ! -s "$tmp/out" ]
ok $? "a pipe past --max-input is refused at the cap (exit $rc)"
"$TRACETUI" report "$tmp/demo.trace" >"$tmp/want" 2>/dev/null
cat "$tmp/demo.trace" | "$TRACETUI" report --max-input 1G - >"$tmp/got" \
	2>/dev/null
sed 1d "$tmp/want" >"$tmp/want1"
sed 1d "$tmp/got" >"$tmp/got1"
cmp -s "$tmp/want1" "$tmp/got1"
ok $? "a trace read from a pipe as '-' gives the file's report"
"$TRACETUI" report --max-input 12x - </dev/null >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "needs a size" "$tmp/err"
ok $? "--max-input refuses a malformed size"

# --- a junk .sec file ---------------------------------------------------
printf 'format stream\nsec-file\nclock dual\nthread 1 main\n%s\n%s\n' \
	"method 0x4 a.B c ()V B.java" "call 1 0x4 0 0 10 10" >"$tmp/sec.spec"
"$MKTRACE" "$tmp/sec.spec" "$tmp/sec.trace"
"$TRACETUI" report "$tmp/sec.trace" >/dev/null 2>&1
ok $? "a streaming trace with its .sec file reads"
printf 'junk\001\002' >"$tmp/sec.trace.sec"
"$TRACETUI" report "$tmp/sec.trace" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 3 ] && grep -q "sec.trace.sec: offset " "$tmp/err"
ok $? "a junk .sec file is named in the message (exit $rc)"
[ $rc -eq 3 ] || diag <"$tmp/err"

# --- a file cut short while it is read ----------------------------------
printf '%s\n' "format v1" "clock dual" \
	"generate threads=4 methods=300 records=3000000 seed=7 maxdepth=40" \
	>"$tmp/big.spec"
if "$MKTRACE" "$tmp/big.spec" "$tmp/big.trace"; then
	bad=0
	# Most delays catch the load (a tenth of a second); info builds the
	# model, where several workers may fault at once, and one message
	# must come out whole; report sums the calls on one.  (make check:
	# one delay of info; check-long: all of them, and report.)
	delays="0.02"
	[ -z "$long" ] || delays="0.01 0.02 0.03 0.05 0.1 report"
	for delay in $delays; do
		cmd=info
		[ $delay = report ] && cmd=report delay=0.02
		cp "$tmp/big.trace" "$tmp/cut.trace"
		"$TRACETUI" $cmd "$tmp/cut.trace" >/dev/null 2>"$tmp/err" &
		p=$!
		sleep $delay
		truncate -s 4096 "$tmp/cut.trace"
		wait $p
		rc=$?
		if [ $rc -ne 0 ] && [ $rc -ne 3 ]; then
			bad=$((bad + 1))
			echo "$cmd cut after $delay s: exit $rc" | diag
		fi
		# One line, one offset (a cut before the open is a short file).
		if [ $rc -eq 3 ] && { [ "$(grep -c . "$tmp/err")" != 1 ] ||
			! grep -Eq '^tracetui: [^ ]*cut\.trace: offset [0-9]+: [^:]*$' \
				"$tmp/err"; }; then
			bad=$((bad + 1))
			diag <"$tmp/err"
		fi
	done
	ok $bad "a trace cut while read: exit 0 or 3 with a message, no SIGBUS"
	# Out of memory: the mapped file alone takes most of 60 MB, and
	# info builds the model (report would only sum the calls).
	if [ $asan = no ]; then
		(ulimit -v 60000 2>/dev/null
			exec timeout 120 "$TRACETUI" info "$tmp/big.trace") \
			>/dev/null 2>"$tmp/err"
		rc=$?
		[ $rc -eq 5 ] &&
			grep -Eq "out of memory \\([0-9]+ bytes were needed" "$tmp/err"
		ok $? "out of memory: exit 5 saying how much was needed (exit $rc)"
		[ $rc -eq 5 ] || head -3 "$tmp/err" | diag
		# report sums the calls as it reads them: no model to fit.
		(ulimit -v 60000 2>/dev/null
			exec timeout 120 "$TRACETUI" report "$tmp/big.trace") \
			>/dev/null 2>"$tmp/err"
		rc=$?
		ok $rc "report within the memory the model does not fit in"
		[ $rc -eq 0 ] || { echo "exit $rc"; head -3 "$tmp/err"; } | diag
	fi

fi

# --- terminals ------------------------------------------------------------
if command -v script >/dev/null 2>&1; then
	TERM=dumb script -qec "$TRACETUI $tmp/demo.trace" /dev/null \
		>"$tmp/out" 2>&1 </dev/null
	grep -q "TERM is dumb; the batch commands" "$tmp/out"
	ok $? "TERM=dumb: refused, suggesting the batch commands"
fi

if command -v tmux >/dev/null 2>&1; then
	unset TMUX
	sock=tracetui-harden-$$
	# The signals' viewer: a trace of two calls (what it shows is not
	# looked at).
	printf '%s\n' "version 3" "clock dual" "thread 1 main" \
		"method 0x4 a.B c ()V B.java" "call 1 0x4 0 0 10 10" \
		"call 1 0x4 20 20 30 30" >"$tmp/small.spec"
	"$MKTRACE" "$tmp/small.spec" "$tmp/small.trace"
	trap 'tm kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT
	# viewer NAME [setsid]: the viewer in window NAME, its status
	# written to $tmp/NAME.rc when it ends; its pid in $pid.
	viewer() {
		rm -f "$tmp/$1.rc" "$tmp/$1.pid"
		cat >"$tmp/$1.sh" <<SCRIPT
trap '' HUP
echo \$\$ >"$tmp/$1.pid"
env TERM=xterm "$TRACETUI" "$tmp/small.trace" 2>"$tmp/$1.err"
echo \$? >"$tmp/$1.rc"
SCRIPT
		pre=
		[ "${2:-}" = setsid ] && pre="setsid"
		if tm has-session -t h 2>/dev/null; then
			tm new-window -d -t h -n "$1" \
				"$pre sh $tmp/$1.sh; sleep 30"
		else
			tm new-session -d -s h -n "$1" -x 100 -y 30 \
				"$pre sh $tmp/$1.sh; sleep 30"
		fi
		i=0
		while [ $i -lt 200 ] && [ ! -s "$tmp/$1.pid" ]; do
			poll_nap $i
			i=$((i + 1))
		done
		# The trace loads and the terminal opens: the screen is drawn
		# (after the signal handlers are in place).
		i=0
		while [ $i -lt 200 ] && ! tm capture-pane -p -t "h:$1" \
			2>/dev/null | grep -q '[^ ]'; do
			poll_nap $i
			i=$((i + 1))
		done
		pid=$(pgrep -P "$(cat "$tmp/$1.pid" 2>/dev/null)" 2>/dev/null |
			head -1)
	}
	# status NAME: the status the viewer in NAME ended with, waiting up to 20 s.
	status() {
		i=0
		while [ $i -lt 200 ] && [ ! -s "$tmp/$1.rc" ]; do
			poll_nap $i
			i=$((i + 1))
		done
		cat "$tmp/$1.rc" 2>/dev/null || echo none
	}
	if viewer int && [ -n "$pid" ]; then
		kill -INT "$pid"
		rc=$(status int)
		[ "$rc" = 130 ]
		ok $? "SIGINT ends the viewer with 130 (got $rc)"
		[ "$rc" = 130 ] || head -20 "$tmp/int.err" | diag
		viewer term
		kill -TERM "$pid"
		rc=$(status term)
		[ "$rc" = 143 ]
		ok $? "SIGTERM ends the viewer with 143 (got $rc)"
		[ "$rc" = 143 ] || head -20 "$tmp/term.err" | diag
		viewer vanish setsid
		tm kill-window -t h:vanish
		rc=$(status vanish)
		[ "$rc" != none ]
		ok $? "a terminal that goes away ends the viewer (got $rc)"
		[ "$rc" = none ] && kill "$pid" 2>/dev/null
	else
		echo "tmux could not start the viewer" | diag
	fi
fi

# --- a trace cut while the viewer's loading screen reads it --------------
# The load is stopped once its progress line shows, the file cut, the load
# let go on: the SIGBUS that follows must give the terminal its modes
# back before the message and status 3.
if command -v tmux >/dev/null 2>&1 && [ -s "$tmp/big.trace" ]; then
	unset TMUX
	bsock=tracetui-bus-$$
	nl='
'
	tb() { tmux -L "$bsock" -f /dev/null "$@"; }
	cat >"$tmp/bus.sh" <<SCRIPT
echo \$\$ >"$tmp/bus.pid"
env TERM=xterm "$TRACETUI" "$tmp/bus.trace"
echo \$? >"$tmp/bus.rc"
stty -a >"$tmp/bus.stty"
sleep 30
SCRIPT
	# cut_while_loading: start the viewer, stop it as soon as its loading
	# screen has turned echo off, cut the file and let it go on; false
	# when the load had read the file by then (it takes a tenth of a
	# second) and the viewer opened, or had not yet opened it and found
	# a file of 4096 bytes, said as such (a cut before the read, not
	# during it).
	cut_while_loading() {
		tb kill-server >/dev/null 2>&1
		rm -f "$tmp/bus.pid" "$tmp/bus.rc" "$tmp/bus.stty"
		cp "$tmp/big.trace" "$tmp/bus.trace"
		tb new-session -d -s b -x 100 -y 30 "sh $tmp/bus.sh"
		tty=$(tb display -p -t b '#{pane_tty}')
		# Until the script has started, the shell alone polls (no
		# process a poll); then stty, one process a poll.
		i=0
		while [ $i -lt 300000 ] && [ ! -s "$tmp/bus.pid" ]; do
			i=$((i + 1))
		done
		i=0
		while [ $i -lt 1000 ]; do
			case " $(stty -F "$tty" -a 2>/dev/null) " in
			*[" $nl"]-echo[" $nl"]*) break ;;
			esac
			i=$((i + 1))
		done
		bpid=$(pgrep -P "$(cat "$tmp/bus.pid" 2>/dev/null)" \
			2>/dev/null | head -1)
		[ -n "$bpid" ] && kill -STOP "$bpid" 2>/dev/null || return 1
		truncate -s 4096 "$tmp/bus.trace"
		kill -CONT "$bpid"
		i=0
		while [ $i -lt 100 ] && [ ! -s "$tmp/bus.stty" ]; do
			tb capture-pane -p -t b 2>/dev/null |
				grep -q ' | Profile | ' && return 1
			poll_nap $i
			i=$((i + 1))
		done
		! tb capture-pane -p -J -t b 2>/dev/null |
			grep -q 'bus\.trace: offset [0-9]*: expected'
	}
	# Six tries in make check-long, two in make check.
	tries=0 most=2
	[ -z "$long" ] || most=6
	until cut_while_loading || [ $tries -ge $most ]; do
		tries=$((tries + 1))
	done
	if [ $tries -lt $most ]; then
		rc=$(cat "$tmp/bus.rc" 2>/dev/null || echo none)
		tb capture-pane -p -J -t b >"$tmp/bus.pane" 2>/dev/null
		[ "$rc" = 3 ] && grep -q "shrank while it was being read" "$tmp/bus.pane"
		ok $? "a trace cut while the viewer loads it: status 3 and the message (got $rc)"
		[ "$rc" = 3 ] && grep -q "shrank while" "$tmp/bus.pane" ||
			diag <"$tmp/bus.pane"
		# stty runs once the viewer has ended: on a loaded machine
		# that can be after the message shows.
		i=0
		while [ $i -lt 200 ] && [ ! -s "$tmp/bus.stty" ]; do
			poll_nap $i
			i=$((i + 1))
		done
		grep -Eq '(^| )echo( |$)' "$tmp/bus.stty" &&
			grep -Eq '(^| )icanon( |$)' "$tmp/bus.stty"
		rc=$?
		ok $rc "a trace cut while the viewer loads it: the terminal echoes again"
		if [ $rc -ne 0 ]; then
			[ -s "$tmp/bus.stty" ] && diag <"$tmp/bus.stty" ||
				echo "stty had not run after the viewer" | diag
		fi
	else
		ok 0 "a trace cut while the viewer loads it # SKIP the load read the file before it could be stopped, $most times"
		ok 0 "a trace cut while the viewer loads it: the terminal # SKIP"
	fi
	tb kill-server >/dev/null 2>&1
fi

done_testing
