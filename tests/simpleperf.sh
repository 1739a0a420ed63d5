#!/bin/sh
# simpleperf.sh: Android Studio's Callstack Sample recordings, simpleperf's
# report-sample --protobuf output (src/read/simpleperf.c).
#
# The real recordings in $SHARED_SIMPLEPERF and the numbers an
# independent reader gave for them (its README.md), skipped when absent:
# - `report -f tsv` (the first event type, all threads): per function,
#   self and total samples equal expected/FILE.functions.tsv, and their
#   time in microseconds its event counts (nanoseconds) / 1000;
# - the threads `info` lists: tid, pid, name and samples of the first
#   and second event types equal expected/FILE.threads*.tsv;
# - on the wall clock, tree's thread roots and folded's stacks add up
#   to report's self_us (tree's roots' samples to its self samples),
#   with no "(outside any method)" row for the time between a thread's
#   samples (the first and all event types; check-long: the second
#   too); this and what follows of each recording on the first one only
#   outside check-long;
# - a gzipped recording reads like its gunzipped bytes, whatever the
#   file is called; every 299999th cut (check-long: 97th) is read up to the
#   cut with a warning naming the offset, or refused with one.
# - loaded as `report` loads it (for its sums: the events summed as they
#   come, with no model), each event type and with Java frames only, it
#   gives the model's profile of all threads and of each
#   (tests/model-equal; outside check-long, the small recording's first
#   type and all the types with Java frames only, and no real one's).
# The recording tests/unit-simpleperf writes: its TSV header and a row,
# report's words, tree's columns and rows, every 173rd cut of it
# through report and through the fuzz target's checks
# (check-long: every cut), and its
# sums as report loads them against its model.  In check-long, a
# recording of 100,000 distinct callchains it writes (29 MB): report's peak memory is under
# one and a half times its size and 8 MB (measured where /usr/bin/time
# can; not under AddressSanitizer).  One of 1,024 event types and 10,000
# threads: report, info and tree in 60 MB of address space, and its sums
# the model's (check-long); in check-long, one of 100,000 one-sample
# threads: report, info and tree in 80 MB.
# - against tests/simpleperf-read.py, a reader of its own written from
#   the format alone (without python3: skipped): every recording's
#   frames, from the first sample of any event type whose stack holds
#   Choreographer.doFrame to the first later sample of that thread
#   without it, equal in number, each edge within a sampling period
#   (the model places a sample up to a period from its time:
#   read/simpleperf.c) on the shared recordings and on ones it writes
#   (one in make check, 16 and the real ones in check-long); folded's stacks of every event type are
#   its samples' time in microseconds, line by line within rounding,
#   and with --clock cpu their samples, report's; at full zoom the call
#   chart draws a thread's outermost frame as one bar from its first
#   sample to its last where the reader finds every sample under it;
# Other Android files (read/foreign.c): a Perfetto trace (a protobuf
# Trace of TracePackets, plain or gzipped) and a raw perf.data
# (PERFILE2) are refused with status 3 and a message naming them and
# what opens them; every pprof profile of $SHARED_PPROF still reads as
# pprof (make check: the first; pprof.sh reads them all).
. "${top_srcdir:-.}/tests/lib.sh"

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
UNIT=${top_builddir:-.}/tests/unit-simpleperf
[ -x "$UNIT" ] || skip_all "no $UNIT"
MODEL_EQUAL=${top_builddir:-.}/tests/model-equal
[ -x "$MODEL_EQUAL" ] || skip_all "no $MODEL_EQUAL"
LC_ALL=C
export LC_ALL
nl='
'

same() {
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff -u "$1" "$2" | head -20 | diag
	fi
}

# cuts FILE STRIDE WHAT: every STRIDE-th cut of FILE read (0) with a
# warning, or refused (3) with an offset.
cuts() {
	size=$(wc -c <"$1")
	bad=0
	n=0
	while [ $n -lt "$size" ]; do
		head -c $n "$1" >"$tmp/cut"
		"$TRACETUI" report -f tsv "$tmp/cut" >/dev/null 2>"$tmp/err"
		rc=$?
		err=
		IFS= read -r err <"$tmp/err"
		case $rc in
		0) case $err in *"offset "[0-9]*": warning: "*) ;;
			*) bad=$((bad + 1)); echo "cut at $n: no warning" | diag ;; esac ;;
		3) case $err in *"offset "[0-9]*": "*) ;;
			*) bad=$((bad + 1)); echo "cut at $n: $err" | diag ;; esac ;;
		*) bad=$((bad + 1)); echo "cut at $n: exit $rc" | diag ;;
		esac
		n=$((n + $2))
	done
	ok "$bad" "$3"
}

# as_report FILE WHAT [SOME]: loaded as report loads it, every event
# type (the first, the second where there is one, all) with every frame
# and with Java frames only, FILE's events are summed with no model, to
# the model's profile of all threads and of each.  With SOME, outside
# make check-long: the first type with every frame and all types with
# Java frames only.
as_report() {
	bad=0
	n=0
	for k in 0 1 all; do
		[ -z "${3:-}" ] || [ -n "$long" ] || [ $k != 1 ] || continue
		[ $k != 1 ] || "$TRACETUI" info --sample-type 1 "$1" \
			>/dev/null 2>&1 || continue
		for j in "" java-only; do
			[ -z "${3:-}" ] || [ -n "$long" ] ||
				[ "$k$j" = 0 ] || [ "$k$j" = alljava-only ] || continue
			n=$((n + 1))
			"$MODEL_EQUAL" 1 "$1" $k $j >"$tmp/me" 2>"$tmp/why"
			rc=$?
			got=$(sed -n 4p "$tmp/me")
			if [ $rc -ne 0 ] || [ "$got" != "report summed" ]; then
				bad=$((bad + 1))
				echo "type $k $j: $got" | diag
				diag <"$tmp/why"
			fi
		done
	done
	ok "$bad" "$2: summed as report loads it, the model's profile ($n loads)"
}

# info's thread lines as tid, pid, name and samples of event type $1,
# for threads with some.
info_threads() {
	awk -v k="$1" '
	/^threads:/ { on = 1; head = 1; next }
	on && /^[^ ]/ { on = 0 }
	on && head { types = NF - 4; head = 0; next }
	on && k < types && $(4 + k) > 0 {
		name = $0
		for (i = 0; i < 3 + types; i++)
			sub(/^ *[^ ]+/, "", name)
		sub(/^ +/, "", name)
		printf "%s\t%s\t%s\t%s\n", $1, $2, name, $(4 + k)
	}' | sort
}

READER=${top_srcdir:-.}/tests/simpleperf-read.py
command -v python3 >/dev/null 2>&1 || READER=

# read_all FILE [SEED]: the reader's frames, roots and folded stacks of
# FILE (written first from SEED when given) in $tmp/rd, one python3 run.
read_all() {
	rm -rf "$tmp/rd"
	mkdir "$tmp/rd"
	python3 "$READER" all "$1" "$tmp/rd" ${2:+"$2"} 2>"$tmp/rd/err" ||
		diag <"$tmp/rd/err"
}

# frames_as_read FILE WHAT: FILE's frames as the reader finds them (read
# by read_all), in number and each edge within a period (PERIOD_US, 250
# by default).
frames_as_read() {
	cp "$tmp/rd/frames" "$tmp/fr-read" 2>/dev/null || : >"$tmp/fr-read"
	"$TRACETUI" frames -f tsv "$1" 2>&1 |
		awk -F'	' -v OFS='	' 'NR > 1 { print $2, $3, $4 }' >"$tmp/fr-got"
	paste "$tmp/fr-read" "$tmp/fr-got" | awk -F'	' -v tol=$((${PERIOD_US:-250} + 2)) '
		function abs(x) { return x < 0 ? -x : x }
		$1 != $4 || abs($2 - $5) > tol || abs($2 + $3 - $5 - $6) > tol {
			print "read " $1 " " $2 "+" $3 ", got " $4 " " $5 "+" $6; bad++ }
		END { exit bad > 0 }' >"$tmp/fr-bad"
	rc=$?
	n=$(wc -l <"$tmp/fr-read")
	[ $rc -eq 0 ] && [ "$n" -eq "$(wc -l <"$tmp/fr-got")" ]
	rc=$?
	ok $rc "$2: $n frames, as the reader finds them"
	[ $rc -eq 0 ] && return
	head -5 "$tmp/fr-bad" | diag
	diff "$tmp/fr-read" "$tmp/fr-got" | head -5 | diag
}

# folded_as_read FILE TYPE WHAT: folded's stacks of event type TYPE (an
# index) as the reader sums them (read by read_all; within a microsecond
# of flooring per run of samples: 1 us and 0.2%), and with -c cpu
# report's samples.
folded_as_read() {
	cp "$tmp/rd/folded.$2" "$tmp/fo-read" 2>/dev/null || : >"$tmp/fo-read"
	"$TRACETUI" folded --sample-type "$2" "$1" >"$tmp/fo-got" 2>&1
	bad=$(awk '
		function abs(x) { return x < 0 ? -x : x }
		{ v = $NF; k = $0; sub(/ [^ ]*$/, "", k) }
		FNR == NR { want[k] += v; next }
		{ got[k] += v }
		END {
			for (k in want) if (!(k in got) ||
				abs(want[k] - got[k]) > 1 + want[k] / 500) {
				print "read " want[k] ", got " got[k] ": " substr(k, 1, 80) >"/dev/stderr"; bad++ }
			for (k in got) if (!(k in want)) bad++
			print bad + 0 }' "$tmp/fo-read" "$tmp/fo-got" 2>"$tmp/fo-bad")
	samples=$("$TRACETUI" folded -c cpu --sample-type "$2" "$1" 2>/dev/null |
		awk '{ s += $NF } END { print s + 0 }')
	reported=$("$TRACETUI" report -f tsv --sample-type "$2" "$1" 2>/dev/null |
		awk -F'	' 'NR > 1 { s += $2 } END { print s + 0 }')
	ok "$([ "$bad" = 0 ] && [ -s "$tmp/fo-got" ] &&
		[ "$samples" = "$reported" ] && echo 0 || echo 1)" \
		"$3: folded's stacks are the reader's, in us; with -c cpu report's $reported samples"
	[ ! -s "$tmp/fo-bad" ] || head -5 "$tmp/fo-bad" | diag
}

# chart_as_read FILE WHAT: at full zoom, every thread whose samples all
# have one outermost frame (the reader's roots) shows that frame as one
# bar in its folded line, from its first sample's column to its last's
# (within a column), a mark at either end where it covers less than
# half of the column: the time between the samples is the bar's.
cat >"$tmp/chart-check.py" <<'PY'
import re, sys
render, roots, info = sys.argv[1:4]
lines = open(render, encoding="utf-8").read().split("\n")
x0 = lines[1].index("▼")
# The scale left of the axis: "clock 3.613ms/col", or narrower "3.613ms".
unit = re.search(r"([0-9.]+)(µs|ms|s)(?:/col)?\s*$", lines[1][:x0])
col = float(unit.group(1)) * {"µs": 1, "ms": 1e3, "s": 1e6}[unit.group(2)]
names = {}
for l in open(info):
    tid, _, name, _ = l.rstrip("\n").split("\t")
    names[name] = names.get(name, []) + [int(tid)]
bad = 0
checked = 0
for l in open(roots):
    tid, first, last, frames = l.rstrip("\n").split("\t")
    if "|" in frames:
        continue
    name = [n for n, t in names.items() if int(tid) in t]
    if not name or len(names[name[0]]) > 1:
        continue   # a name several threads share: which row is ambiguous
    row = [x for x in lines if x.startswith("▸ " + name[0][:20])]
    if len(row) != 1:
        continue
    cells = row[0][x0:]
    want = (int(int(first) // col), int(int(last) // col))
    # One bar, a mark at either end where it covers less than half of
    # the column: a thread of one sample is a mark.
    m = re.fullmatch(r"( *)(┆?▏[^▏┆ ][^▏┆]*┆?|┆)( *)", cells)
    got = (len(m.group(1)), len(cells) - len(m.group(3)) - 1) if m else None
    checked += 1
    if not m or abs(got[0] - want[0]) > 1 or abs(got[1] - want[1]) > 1:
        print("thread %s: one bar over columns %s, drawn %r" % (tid, want, cells))
        bad += 1
sys.exit(1 if bad or not checked else 0)
PY
chart_as_read() {
	cp "$tmp/rd/roots" "$tmp/roots" 2>/dev/null || : >"$tmp/roots"
	"$TRACETUI" info "$1" 2>/dev/null | info_threads 0 >"$tmp/names"
	"$RENDER" "$1" 120x30 key:2 key:O >"$tmp/chart" 2>&1
	python3 "$tmp/chart-check.py" "$tmp/chart" "$tmp/roots" "$tmp/names" \
		>"$tmp/chart-bad" 2>&1
	ok $? "$2: the call chart's outermost frames are bars across the gaps between samples"
	[ ! -s "$tmp/chart-bad" ] || head -5 "$tmp/chart-bad" | diag
}

RENDER=${RENDER:-${top_builddir:-.}/tests/render}
[ -x "$RENDER" ] || RENDER=
if [ -n "$READER" ]; then
	seeds=1
	[ -z "$long" ] || seeds="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16"
	for seed in $seeds; do
		read_all "$tmp/written.trace" $seed
		frames_as_read "$tmp/written.trace" "a recording of seed $seed"
		[ -z "$RENDER" ] ||
			chart_as_read "$tmp/written.trace" "a recording of seed $seed"
		for k in 0 1; do
			n=cpu-clock
			[ $k = 0 ] || n=sched:sched_switch
			folded_as_read "$tmp/written.trace" $k \
				"a recording of seed $seed, $n"
		done
	done
fi

"$UNIT" --write "$tmp" >/dev/null
small=$tmp/simpleperf.trace
run "$TRACETUI" report -f tsv "$small"
printf '%s\n' "$out" | sed -n 1p >"$tmp/got"
printf 'method\tself\ttotal\tself_us\ttotal_us\n' >"$tmp/expect"
same "$tmp/expect" "$tmp/got" "report -f tsv: method self total self_us total_us"
matches "$out" '^Foo\.main	0	4	0	4000$'
ok $? "report -f tsv: samples, then their time in us"
# tree: samples and their time, as report's columns, and no calls; the
# numbers are those of unit-simpleperf's comment (thread 10: S2, S3, S1;
# thread 11: S4).
run "$TRACETUI" tree "$small"
case $out in
"Total %  Samples  Self samples  Total ms  Self ms  Method
"*) true ;;
*) false ;;
esac
ok $? "tree: samples and their time, no calls column"
run "$TRACETUI" tree -f tsv "$small"
printf '%s\n' "$out" >"$tmp/got"
cat >"$tmp/expect" <<'EOF'
total_pct	total	self	total_us	self_us	depth	method
75.0	3	0	3000	0	0	[main]
75.0	3	0	3000	0	1	Foo.main
50.0	2	1	2000	1000	2	Foo.work
25.0	1	1	1000	1000	3	memcpy
25.0	1	1	1000	1000	2	libc.so+0x1a2b
25.0	1	0	1000	0	0	[worker]
25.0	1	0	1000	0	1	Foo.main
25.0	1	1	1000	1000	2	schedule
EOF
same "$tmp/expect" "$tmp/got" "tree -f tsv: report's sampled columns per frame"
run "$TRACETUI" report "$small"
matches "$out" 'cpu-clock, 4 samples \(4.000 ms\)' 'never call counts'
ok $? "report: samples and estimates, never call counts"
run "$TRACETUI" info "$small"
printf '%s\n' "$out" | info_threads 1 >"$tmp/got"
printf '10\t10\tmain\t1\n' >"$tmp/expect"
same "$tmp/expect" "$tmp/got" "info: the thread with sched_switch samples"
matches "$out" \
	'^app: *com.example.app \(debuggable\), Android SDK 33, build type user$' \
	'lost: 2 of 7 samples' 'java *.*framework.jar \(2 symbols\)'
ok $? "info: app, Android version, lost samples, files"
# Every cut of the small recording in make check-long; in make check,
# every 173rd through the fuzz target's checks in one process, and every
# 173rd through report.
small_stride=173 replay_stride=173
[ -z "$long" ] || small_stride=1 replay_stride=1
replay_cuts 1 $replay_stride "$small" "every ${replay_stride}th cut of the small recording"
cuts "$small" $small_stride "every ${small_stride}th cut of the small recording is read or refused"
as_report "$small" "the small recording" some
# Memory bounds: the 1,024 types in make check, all three in check-long.
if [ -n "$long" ] && /usr/bin/time -f %M true >/dev/null 2>&1 &&
	! asan_built "$TRACETUI"; then
	"$UNIT" --write-distinct "$tmp/distinct.trace" 100000
	size=$(wc -c <"$tmp/distinct.trace")
	/usr/bin/time -o "$tmp/peak" -f %M "$TRACETUI" report -f tsv \
		"$tmp/distinct.trace" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	kb=$(tail -n 1 "$tmp/peak")
	ok "$([ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 10 ] &&
		[ "$kb" -lt $((size * 3 / 2 / 1024 + 8192)) ] &&
		echo 0 || echo 1)" \
		"distinct callchains, $((size / 1000000)) MB: report peaks at $kb KB, under 1.5 times the file and 8 MB"
	rm -f "$tmp/distinct.trace"
fi
# 200 one-sample threads: each top-level path is 0.5% of the total, so
# tree's default --min-pct 1 leaves no row, and says why on stderr.
"$UNIT" --write-threads "$tmp/few.trace" 200 0 1
run "$TRACETUI" tree "$tmp/few.trace"
[ $rc -eq 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
	case $err in *"each of the 200 top-level call paths is under --min-pct 1%"*) true ;; *) false ;; esac
ok $? "tree: every path under --min-pct: a note says so ($err)"
run "$TRACETUI" tree --min-pct 0 "$tmp/few.trace"
[ $rc -eq 0 ] && [ -z "$err" ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 401 ]
ok $? "tree --min-pct 0: 200 threads' two rows each, no note"
rm -f "$tmp/few.trace"
# Event types times threads: 1,024 event types and 10,000 threads, each
# with a Thread record and one sample (tests/unit-simpleperf
# --write-threads, 364 KB).  Each thread's samples are counted sparsely
# and its text written once, and info shows the loaded type's column
# only, so report, info and tree read it in 60 MB of address space (no
# thread of their own started), as they would with one event type: the
# memory grows with the threads, not with threads times types.  (Had
# every thread 1,024 counts, they alone would take 80 MB.)
if ! asan_built "$TRACETUI"; then
	"$UNIT" --write-threads "$tmp/types.trace" 10000 10000 1024
	bad=0
	for c in report info tree; do
		opt=
		[ $c = tree ] && opt="-f tsv --min-pct 0"
		(ulimit -v 60000 2>/dev/null
			TRACETUI_TEST_THREADS=0 exec timeout 120 "$TRACETUI" $c $opt \
				"$tmp/types.trace") >"$tmp/out" 2>"$tmp/err"
		rc=$?
		case $c in
		info) n=$(grep -c '^ *[0-9]* *1000  *1  *1  t[0-9]*$' "$tmp/out") ;;
		tree) n=$(grep -c '\[t[0-9]*\]$' "$tmp/out") ;;
		*) n=10000 ;;
		esac
		if [ $rc -ne 0 ] || [ "$n" -ne 10000 ]; then
			bad=$((bad + 1))
			echo "$c: exit $rc, $n threads" | diag
			head -3 "$tmp/err" | diag
		fi
	done
	ok $bad "1,024 event types, 10,000 threads: report, info and tree in 60 MB"
	# summed thread by thread as report loads it: the model's profile
	# (make check-long: the small recording's as_report is the case of
	# this kind in make check)
	bad=0
	for k in ${long:+0 all}; do
		"$MODEL_EQUAL" 1 "$tmp/types.trace" $k >"$tmp/me" 2>"$tmp/why" &&
			[ "$(sed -n 4p "$tmp/me")" = "report summed" ] ||
			{ bad=$((bad + 1)); diag <"$tmp/why"; }
	done
	[ -z "$long" ] ||
		ok $bad "1,024 event types, 10,000 threads: summed as report loads it, the model's profile"
	rm -f "$tmp/types.trace"
	# A thread's sums are handed on when the next thread's samples
	# begin, its state freed, its rows and links packed: 100,000
	# one-sample threads (1.8 MB) are summed in 80 MB of address space
	# (with every state kept to the end, 180 MB; with their sums as
	# they grew, 100 MB).  The model settles each thread's calls in
	# turn too: info and tree in 80 MB (160 MB with every state kept).
	if [ -n "$long" ]; then
		"$UNIT" --write-threads "$tmp/threads.trace" 100000 0 1
		(ulimit -v 80000 2>/dev/null
			TRACETUI_TEST_THREADS=0 exec timeout 120 "$TRACETUI" report \
				-f tsv "$tmp/threads.trace") >"$tmp/out" 2>"$tmp/err"
		rc=$?
		ok "$([ $rc -eq 0 ] &&
			grep -qx '(no stack)	100000	100000	100000	100000' "$tmp/out" &&
			echo 0 || echo 1)" \
			"100,000 one-sample threads: report in 80 MB (exit $rc)"
		for c in info tree; do
			(ulimit -v 80000 2>/dev/null
				TRACETUI_TEST_THREADS=0 exec timeout 120 "$TRACETUI" \
					$c "$tmp/threads.trace") >"$tmp/out" 2>"$tmp/err"
			rc=$?
			case $c in
			info) grep -q '^calls: *100000 ' "$tmp/out" ;;
			tree) grep -q '^Total %' "$tmp/out" ;;
			esac
			seen=$?
			ok "$([ $rc -eq 0 ] && [ $seen -eq 0 ] && echo 0 || echo 1)" \
				"100,000 one-sample threads: $c in 80 MB (exit $rc)"
		done
		# The viewer's load (tests/render: the profile, every view
		# opened, the icicle and the timeline from the warmup) in 60
		# MB: the per-thread sums and call paths of threads of few
		# calls are not kept (summed again when a scope wants them),
		# the info lines are made when the view is first shown (75
		# to 80 MB when all were kept and made at once).
		if [ -n "$RENDER" ]; then
			(ulimit -v 60000 2>/dev/null
				TRACETUI_TEST_THREADS=0 exec timeout 120 "$RENDER" \
					"$tmp/threads.trace" 120x40 VIEW_ICICLE \
					VIEW_TIMELINE VIEW_PROFILE) >"$tmp/out" 2>"$tmp/err"
			rc=$?
			ok "$([ $rc -eq 0 ] &&
				grep -q ' 100000 *(no stack) *$' "$tmp/out" &&
				echo 0 || echo 1)" \
				"100,000 one-sample threads: the viewer's load in 60 MB (exit $rc)"
			[ $rc -eq 0 ] || head -3 "$tmp/err" | diag
		fi
		rm -f "$tmp/threads.trace"
	fi
fi
run "$TRACETUI" report -f tsv --java-only "$small"
# (three lines: the header and those two)
case $out in
*"$nl"*"$nl"*"$nl"*) false ;;
*"$nl"*"$nl"*) matches "$out" '^Foo\.main	2	4	2000	4000$' \
	'^Foo\.work	2	2	2000	2000$' ;;
*) false ;;
esac
ok $? "--java-only: native and kernel samples go to the Java caller"
run "$TRACETUI" report -f tsv --sample-type all "$small"
matches "$out" '^Foo\.main	0	5	'
ok $? "--sample-type all: every type's samples"

# The viewer in a detached tmux server of our own: the title names the
# event type and says the numbers are estimates; y loads the next type,
# Y leaves out native and kernel frames; q quits.
if command -v tmux >/dev/null 2>&1; then
	sock=tracetui-simpleperf-$$
	if tm new-session -d -s p -x 120 -y 16 \
		"env TERM=screen LC_ALL=C '$TRACETUI' '$small'; echo EXIT \$?; sleep 10" \
		>/dev/null 2>&1; then
		pane_wait 'cpu-clock samples: estimates'
		ok $? "viewer: the title names the event type, estimates"
		tm send-keys -t p y
		pane_wait 'sched:sched_switch samples'
		ok $? "viewer: y loads the next event type"
		tm send-keys -t p y
		pane_wait 'all samples'
		ok $? "viewer: then all of them"
		tm send-keys -t p y Y
		pane_wait 'event type cpu-clock, Java frames only'
		ok $? "viewer: Y keeps Java frames only"
		ok "$(tm capture-pane -p -t p | grep -q memcpy && echo 1 || echo 0)" \
			"viewer: memcpy's sample went to Foo.work"
		tm send-keys -t p q
		pane_wait 'EXIT 0'
		ok $? "viewer: q quits with status 0"
		tm kill-server >/dev/null 2>&1
	fi
fi

# Two TracePackets (trusted_packet_sequence_id 1, then timestamp 5):
# field 1 messages, as a pprof file's sample types are, but with fields
# no ValueType has.
printf '\012\004\120\001\100\005\012\002\120\001' >"$tmp/system.trace"
run "$TRACETUI" report "$tmp/system.trace"
[ $rc -eq 3 ] &&
	matches "$err" 'offset 0: a Perfetto trace .*ui.perfetto.dev or trace_processor'
ok $? "a Perfetto trace: status 3, named, what opens it"
gzip -c <"$tmp/system.trace" >"$tmp/system.trace.gz"
run "$TRACETUI" info "$tmp/system.trace.gz"
[ $rc -eq 3 ] && case $err in *'a Perfetto trace'*) true ;; *) false ;; esac
ok $? "a gzipped Perfetto trace: the same"
printf 'PERFILE2\000\000\000\000\000\000\000\000' >"$tmp/perf.data"
run "$TRACETUI" tree "$tmp/perf.data"
[ $rc -eq 3 ] && matches "$err" \
	'perf.data .*simpleperf report-sample --protobuf --show-callchain'
ok $? "a raw perf.data: status 3, how to convert it"
P=${SHARED_PPROF:-}
if [ -n "$P" ] && [ -d "$P" ]; then
	bad=0
	n=0
	for f in "$P"/*; do
		[ -f "$f" ] || continue
		case $f in *.md) continue ;; esac
		# make check: the first (pprof.sh reads every one)
		[ -n "$long" ] || [ $n -eq 0 ] || continue
		n=$((n + 1))
		"$TRACETUI" info "$f" 2>/dev/null | grep -q '^format: *pprof' ||
			{ bad=$((bad + 1)); echo "${f##*/}: not pprof" | diag; }
	done
	ok "$bad" "the $n pprof profiles still read as pprof"
fi

# info_expected FILE [RAN]: info's threads and their samples of the first and
# second event types are expected/FILE.threads*.tsv.
info_expected() {
	[ -n "${2:-}" ] || run "$TRACETUI" info "$1"
	for k in 0 1; do
		t=$S/expected/${1##*/}.threads.tsv
		[ $k -eq 0 ] || t=$S/expected/${1##*/}.threads-event1.tsv
		[ -f "$t" ] || continue
		tail -n +2 "$t" | sort >"$tmp/expect"
		printf '%s\n' "$out" | info_threads $k >"$tmp/got"
		same "$tmp/expect" "$tmp/got" \
			"${1##*/}: info's threads and their samples of event type $k"
	done
}

S=${SHARED_SIMPLEPERF:-}
if [ -z "$S" ] || [ ! -d "$S" ]; then
	done_testing
	exit 0
fi
# Every recording against its expected numbers; the other checks on
# every recording in make check-long, on the first in make check.
every=yes
for f in "$S"/*.trace "$S"/*.trace.gz; do
	[ -f "$f" ] || continue
	info_ran=
	base=${f##*/}
	e=$S/expected/$base.functions.tsv
	[ -f "$e" ] || continue
	tail -n +2 "$e" | sort >"$tmp/expect"
	run "$TRACETUI" report -f tsv "$f"
	ok "$rc" "$base: report exits 0"
	# (the first type's report: below, the wall clock's and the
	# viewer's checks and the gunzipped copy's compare with it)
	printf '%s\n' "$out" >"$tmp/report-$base"
	printf '%s\n' "$out" | awk -F'\t' -v OFS='\t' 'NR > 1 {
		print $1, $2, $3, $4 * 1000, $5 * 1000 }' | sort >"$tmp/got"
	same "$tmp/expect" "$tmp/got" \
		"$base: self and total samples and events of every function ($(wc -l <"$tmp/expect") rows)"

	if [ -z "$every" ]; then
		info_expected "$f"
		continue
	fi
	[ -n "$long" ] || every=
	# The wall clock's whole is the samples' time: no row for the time
	# between a thread's samples, and tree's thread roots and folded's
	# stacks add up to report's self_us (every type, and all together).
	bad=0
	for k in 0 ${long:+1} all; do
		# a second type where the recording has one (check-long)
		[ $k != 1 ] || "$TRACETUI" report --sample-type 1 "$f" \
			>/dev/null 2>&1 || continue
		"$TRACETUI" tree -c wall -f tsv --min-pct 0 --sample-type $k "$f" \
			>"$tmp/tree" 2>/dev/null
		# type 0's report is the one read above
		if [ $k = 0 ]; then
			cp "$tmp/report-$base" "$tmp/report-k"
		else
			"$TRACETUI" report -f tsv --sample-type $k "$f" \
				>"$tmp/report-k" 2>/dev/null
		fi
		r=$(awk -F'\t' 'NR > 1 { s += $4; n += $2 }
				END { print s + 0 "/" n + 0 }' "$tmp/report-k")
		t=$(awk -F'\t' 'NR > 1 && $6 == 0 { s += $4; n += $2 }
			END { print s + 0 "/" n + 0 }' "$tmp/tree")
		d=$("$TRACETUI" folded -c wall --sample-type $k "$f" 2>/dev/null |
			awk '{ s += $NF } END { print s + 0 }')
		if grep -q 'outside any method' "$tmp/tree" || [ "$r" = 0/0 ] ||
			[ "$t" != "$r" ] || [ "$d" != "${r%/*}" ]; then
			bad=$((bad + 1))
			echo "type $k: report $r us/samples, tree $t, folded $d" | diag
			grep 'outside any method' "$tmp/tree" | head -3 | diag
		fi
	done
	ok "$bad" "$base: the wall clock holds the samples' time, nothing outside any method; tree's samples are report's"
	[ -z "$long" ] || as_report "$f" "$base" some
	if [ -n "$READER" ] && [ -n "$long" ]; then
		read_all "$f"
		frames_as_read "$f" "$base"
		[ -z "$RENDER" ] || chart_as_read "$f" "$base"
		for k in 0 1; do
			[ $k = 0 ] || "$TRACETUI" report --sample-type 1 "$f" \
				>/dev/null 2>&1 || continue
			folded_as_read "$f" $k "$base, event type $k"
		done
	fi

	# The viewer counts samples where a method trace counts calls: the
	# profile's Samples are report's total samples, method by method
	# (names the view cuts left out),
	# and the threads view's those info lists for the first type.
	if [ -x "$RENDER" ]; then
		"$RENDER" --full-names "$f" 250x60 2>/dev/null | sed -n '3,$p' |
			sed -nE 's/^ *([0-9.]+%? +)*([0-9]+)   (.*[^ ]) *$/\3	\2/p' |
			grep -v '^…' | sort >"$tmp/viewed"
		awk -F'	' -v OFS='	' 'NR > 1 { print $1, $3 }' \
			"$tmp/report-$base" | sort >"$tmp/reported"
		n=$(wc -l <"$tmp/viewed")
		# A name too long for its column lost its parameters (and
		# C++'s templates and return type): it is inside a name
		# report lists with those samples.
		odd=$(awk -F'	' 'NR == FNR { r[$1] = $2; next }
			($1 in r) { if (r[$1] != $2) print; next }
			{ hit = 0
			  for (k in r)
				if (index(k, $1) && r[k] == $2)
					hit = 1
			  if (!hit) print }' "$tmp/reported" "$tmp/viewed")
		[ "$n" -ge 40 ] && [ -z "$odd" ]
		rc=$?
		ok $rc "$base: the profile view's Samples are report's ($n rows)"
		if [ $rc -ne 0 ]; then
			[ -z "$odd" ] || echo "$odd" | head -5 | diag
			comm -23 "$tmp/viewed" "$tmp/reported" | head -3 | diag
		fi
		"$RENDER" "$f" 200x40 key:t 2>/dev/null |
			sed -nE 's/^\[.\] .* ([0-9]+) +([0-9]+) +[0-9.]+ +[0-9.]+ *$/\1	\2/p' |
			awk -F'	' '$2 > 0' | sort >"$tmp/viewed"
		run "$TRACETUI" info "$f"
		info_ran=yes
		printf '%s\n' "$out" | info_threads 0 |
			awk -F'	' -v OFS='	' '$4 > 0 { print $1, $4 }' |
			sort >"$tmp/listed"
		[ -s "$tmp/viewed" ] && cmp -s "$tmp/viewed" "$tmp/listed"
		rc=$?
		ok $rc "$base: the threads view's Samples are info's"
		[ $rc -eq 0 ] || diff "$tmp/listed" "$tmp/viewed" | head -5 | diag
	fi

	info_expected "$f" $info_ran
done

# diff of two recordings: samples and their time, no calls, said so.
a=$S/aosp__display_bitmaps.trace
f=$S/firefox-profiler__simpleperf-cpu-clock.trace.gz
if [ -f "$a" ] && [ -f "$f" ]; then
	# (check-long: several runs a side too; diff-runs.sh sums them)
	for runs in one ${long:+several}; do
		if [ $runs = one ]; then
			# (base f: its frames line is checked below)
			run "$TRACETUI" diff "$f" "$a"
			one=$out
		else
			run "$TRACETUI" diff "$a" "$a" -- "$f" "$f"
		fi
		[ $rc -eq 0 ] &&
			[ "$(printf '%s\n' "$out" | grep -c 'samples and times estimated from them, never call counts')" -eq 2 ] &&
			matches "$out" '^Excl Base .* Method$' '!Calls'
		ok $? "diff, $runs run a side: samples, never calls"
	done
	# The launch's first frame, whole: off-CPU samples inside it keep
	# it open, the first sample outside it ends it; said without a note
	# on off-CPU time, which the other recording needs.
	run "$TRACETUI" frames "$f"
	[ $rc -eq 0 ] &&
		matches "$out" ': 3 frames, 1 slow, 0 frozen;.* max 213.516 ms$' \
			'!off-CPU' &&
		"$TRACETUI" frames "$a" | grep -q '^no off-CPU samples: '
	ok $? "frames: the launch's first frame is one of 213.5 ms; the off-CPU note where it applies"
	matches "$one" '^frames base: 3 frames, 1 slow'
	ok $? "diff: the base's frames"
	# Every event type together has no single weight: still samples.
	run "$TRACETUI" frames --sample-type all "$f"
	ok "$([ $rc -eq 0 ] && printf '%s\n' "$out" | sed -n 2p |
		grep -q 'numbers are samples .*never call counts; frames are estimates' &&
		echo 0 || echo 1)" "frames --sample-type all: samples, estimates"
fi
if [ -f "$f" ]; then
	gzip -dc <"$f" >"$tmp/plain.bin"
	cp "$tmp/report-${f##*/}" "$tmp/gz" 2>/dev/null ||
		"$TRACETUI" report -f tsv "$f" >"$tmp/gz" 2>/dev/null
	"$TRACETUI" report -f tsv "$tmp/plain.bin" >"$tmp/plain" 2>/dev/null
	ok "$([ -s "$tmp/gz" ] && cmp -s "$tmp/gz" "$tmp/plain" &&
		echo 0 || echo 1)" "gunzipped, under any name, it reads the same"
	stride=299999
	[ -z "$long" ] || stride=97
	cuts "$tmp/plain.bin" $stride "every ${stride}th cut of a real recording is read or refused"
fi

done_testing
