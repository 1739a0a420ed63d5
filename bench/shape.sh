#!/bin/sh
# shape.sh: what a deep recursion and a great many threads cost in the
# viewer.  Writes, with the fixture writer, one thread recursing DEPTHS
# deep and V2 traces of THREADS threads of one call each, then runs the
# headless viewer (tests/render) through every view (the bottom-up
# icicle, the timeline, the threads' scope) and quits, and prints the
# wall and cpu time and peak memory, per frame of depth or per thread.
# Both should stay flat as the shape grows: linear in the input.  A
# "walk" line per depth takes the bottom-up icicle to r's deepest caller
# (every level's callers made): both stay flat too, each level's r's
# being one run moved on in one step (n log n in all).  A "walk2"
# line does the same on an indirect recursion, a->b->a->b... as deep:
# each level's a's (or b's) one run at a stride of 2.
#
#   make bench-shape        DEPTHS="10000 40000" THREADS="10000 40000"
set -eu
builddir=${builddir:-.}
out=${BENCH_DIR:-$builddir/bench/out}
depths=${DEPTHS:-10000 40000}
threads=${THREADS:-10000 40000}
mkdir -p "$out"
measure="$builddir/bench/measure"
render="$builddir/tests/render"
mktrace="$builddir/tests/mktrace"
tour="VIEW_PROFILE ENTER MOVE_DOWN*3 VIEW_TIMELINE ZOOM_IN*3 CALL_NEXT
VIEW_ICICLE MOVE_DOWN*5 ENTER INVERT MOVE_DOWN*5 VIEW_THREADS MOVE_DOWN
ENTER SCOPE_ALL VIEW_INFO QUIT"

field() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# report WHAT N TRACE [STEP...]: one line of costs per unit of N, for the
# tour or the steps given.
report() {
	what=$1 n=$2 t=$3
	shift 3
	[ $# -gt 0 ] || set -- $tour
	m=$("$measure" 1 "$render" "$t" 100x30 "$@")
	size=$(wc -c <"$t")
	awk -v what="$what" -v n="$n" -v size="$size" \
		-v w="$(field wall_ms "$m")" -v c="$(field cpu_ms "$m")" \
		-v mb="$(field maxrss_mb "$m")" 'BEGIN {
		printf "%-8s %7d  file %6.1f MB  wall %7.0f ms  cpu %7.0f ms  peak %6.1f MB\n",
			what, n, size / 1e6, w, c, mb
		printf "%-8s per unit: %6.2f us of cpu, %6.0f bytes of peak memory (%.1fx the file)\n",
			"", c * 1000 / n, mb * 1048576 / n, mb * 1048576 / size
	}'
}

for d in $depths; do
	t="$out/deep-$d.trace"
	[ -f "$t" ] || awk -v d="$d" 'BEGIN {
		print "version 3\nclock dual\nvm art\nthread 1 main"
		print "method 0x4 a.Deep r ()V Deep.java"
		for (i = 0; i < d; i++) print "1 enter 0x4 " i " " i
		for (i = 0; i < d; i++) print "1 exit 0x4 " d + i " " d + i
	}' | "$mktrace" - "$t"
	report depth "$d" "$t"
	report walk "$d" "$t" VIEW_ICICLE INVERT MOVE_LAST QUIT
	t="$out/deep2-$d.trace"
	[ -f "$t" ] || awk -v d="$d" 'BEGIN {
		print "version 3\nclock dual\nvm art\nthread 1 main"
		print "method 0x4 a.Deep r ()V Deep.java"
		print "method 0x8 a.Deep s ()V Deep.java"
		for (i = 0; i < d; i++) print "1 enter 0x" 4 * (1 + i % 2) " " i " " i
		for (i = d; i-- > 0;) print "1 exit 0x" 4 * (1 + i % 2) " " 2 * d - i " " 2 * d - i
	}' | "$mktrace" - "$t"
	report walk2 "$d" "$t" VIEW_ICICLE INVERT MOVE_LAST QUIT
done
for n in $threads; do
	t="$out/threads-$n.trace"
	[ -f "$t" ] || awk -v n="$n" 'BEGIN {
		print "format v2\nclock dual\nvm art\nmethod 0x4 a.B c ()V B.java"
		for (i = 1; i <= n; i++) print "thread " i " t" i
		for (i = 1; i <= n; i++)
			print "call " i " 0x4 " i " " i " " i + 1 " " i + 1
	}' | "$mktrace" - "$t"
	report threads "$n" "$t"
done
