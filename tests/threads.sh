#!/bin/sh
# threads.sh: threads that cannot start.  Every command does the work on
# its own thread instead and prints what it prints with every thread it
# asks for; none waits for a thread that never ran.  The test setting
# TRACETUI_TEST_THREADS=N lets only the first N threads start (0: none,
# 1: the first only, and so on, which leaves a pool of workers partly
# started); the real cause, a stack limit larger than the address space
# left (ulimit -s and -v), is tried too where no sanitizer reserves that
# space.  Each run has a timeout that only a hang reaches.  The viewer's
# load with threads that cannot start is tests/tmux.sh's.
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
command -v timeout >/dev/null || skip_all "no timeout(1)"

if asan_built "$TRACETUI"; then
	asan=yes
else
	asan=no
fi

# A V1 trace with over a million calls (the loader's workers and the
# pages made present ahead of them), and a streaming one of over a
# million records (the walk ahead of the sums, the sums split in two;
# make check: 1.1 million, check-long: 2.2 million).
demo_trace "$tmp/demo.trace" || skip_all "no demo trace"
stream_records=2200000
[ -n "$long" ] || stream_records=1100000
printf '%s\n' 'format v1' 'version 3' 'clock dual' 'vm art' \
	'generate threads=6 methods=500 records=2400000 seed=3 maxdepth=30' |
	"$MKTRACE" - "$tmp/big.trace" || skip_all "mktrace failed"
printf '%s\n' 'format stream' 'version 3' 'clock dual' 'vm art' \
	"generate threads=4 methods=500 records=$stream_records seed=5 maxdepth=30" |
	"$MKTRACE" - "$tmp/stream.trace" || skip_all "mktrace failed"

# The commands, one a line: NAME and its arguments, FILE for the trace.
commands='info FILE
report FILE
report --format tsv --sort name FILE
tree FILE
folded FILE
calls FILE run
export --format dot FILE
diff FILE FILE
flamegraph FILE'

# each TRACE SETTING [LIMIT [PICK]]: every command on TRACE with the
# environment SETTING (a word for env), under a stack limit larger than
# the address space when LIMIT is given, prints what it prints
# unhindered, with the same status; with PICK, only the commands of
# those numbers in the list (from 1).
each() {
	e_trace=$1 e_set=$2 e_limit=$3 e_pick=${4:-}
	printf '%s\n' "$commands" |
		awk -v pick=" $e_pick " 'pick == "  " || index(pick, " " NR " ") {
			print NR, $0 }' >"$tmp/cmds"
	while read -r e_n e_cmd; do
		set --
		for e_word in $e_cmd; do
			[ "$e_word" = FILE ] && e_word=$e_trace
			set -- "$@" "$e_word"
		done
		# What it prints unhindered, once per trace and command.
		e_key=$tmp/want.${e_trace##*/}.$e_n
		if ! [ -f "$e_key.rc" ]; then
			timeout 120 "$TRACETUI" "$@" >"$e_key" 2>/dev/null
			echo $? >"$e_key.rc"
		fi
		read -r e_want <"$e_key.rc"
		(if [ -n "$e_limit" ]; then
			ulimit -s 4000000 && ulimit -v 3000000 || exit 99
		fi
		export "$e_set" && exec timeout 120 "$TRACETUI" "$@") \
			>"$tmp/got" 2>"$tmp/got.err"
		e_got=$?
		[ $e_got -eq $e_want ] && cmp -s "$e_key" "$tmp/got"
		ok $? "${e_trace##*/}, $e_set${e_limit:+ ($e_limit)}: ${e_cmd%% *} as with threads (status $e_got)"
		[ $e_got -eq $e_want ] || head -3 "$tmp/got.err" | diag
	done <"$tmp/cmds"
}

# make check-long: every command on every trace under 0, 1 and 2
# threads.  make check: each number of threads on one trace, so that
# every command, trace and number runs once: the V1 trace's load (info:
# its workers, its pages made present), the streaming walk and sums
# (report, diff), the other commands on the demo, whose 140,000 calls
# are three jobs of call paths; but folded, whose call paths are
# tree's (callpath_build_whole), only in check-long.
if [ -n "$long" ]; then
	for n in 0 1 2; do
		for t in demo big stream; do
			each "$tmp/$t.trace" TRACETUI_TEST_THREADS=$n
		done
	done
else
	each "$tmp/big.trace" TRACETUI_TEST_THREADS=0 '' 1
	each "$tmp/stream.trace" TRACETUI_TEST_THREADS=1 '' '2 8'
	each "$tmp/demo.trace" TRACETUI_TEST_THREADS=2 '' '3 4 6 7 9'
fi

# A thread's stack as large as the address space allowed: no thread can
# start (pthread_create fails), and memory is left for the work (make
# check: report on the streaming trace only).
if [ $asan = yes ]; then
	ok 0 "no thread under a stack limit # SKIP AddressSanitizer reserves the address space"
elif [ -n "$long" ]; then
	for t in demo stream; do
		each "$tmp/$t.trace" TRACETUI_TEST_THREADS= 'stack 4 GB, space 3 GB'
	done
else
	each "$tmp/stream.trace" TRACETUI_TEST_THREADS= 'stack 4 GB, space 3 GB' 2
fi

done_testing
