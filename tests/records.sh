#!/bin/sh
# records.sh: a V1 data part's records built all at once, by one to three
# workers, give the same model as the event-by-event path, field by field
# (tests/model-equal), on every fixture, the real corpus and generated
# traces of many threads, unwinds and high thread ids; and the records
# summed as they are read, with no model (what `report` does), give the
# same profile of every thread and of all of them.
. "${top_srcdir:-.}/tests/lib.sh"

MODEL_EQUAL=${top_builddir:-.}/tests/model-equal
[ -x "$MODEL_EQUAL" ] || skip_all "no $MODEL_EQUAL"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"

nl='
'
# equal WORKERS FILE: run model-equal; $how is how the records were built
# (placed or replayed), $sums how the profile-only load went (summed, or
# modelled when it needed the model), $split how many of the loads split
# between two workers were summed in two ("split N/M"), $report how the
# load as report did ("report summed" or "report modelled").
equal() {
	out=$("$MODEL_EQUAL" "$1" "$2" 2>"$tmp/why")
	rc=$?
	how=${out%%"$nl"*}
	sums=${out#*"$nl"}
	split=${sums#*"$nl"}
	sums=${sums%%"$nl"*}
	report=${split#*"$nl"}
	split=${split%%"$nl"*}
}

# check FILE: with one and two workers (and three) in make check-long;
# in make check with one or the other in turn, file by file, so that
# every file and both counts are met once.
turn=1
check() {
	workers=$turn
	[ -z "$long" ] || workers="1 2 3"
	turn=$((3 - turn))
	for workers in $workers; do
		equal $workers "$1"
		[ $rc -eq 3 ] && return # unreadable both ways
		ok $rc "${1##*/}: $workers worker(s), $how; profile $sums, $split, $report"
		[ $rc -eq 0 ] || diag <"$tmp/why"
	done
}

# $tmp/NAME.trace, loaded with each number of workers given (make check:
# the last), must take the path WANT (placed or replayed) and give the
# same model as event by event.
check_path() {
	name=$1 want=$2
	shift 2
	[ -n "$long" ] || eval "set -- \${$#}"
	for workers in "$@"; do
		equal $workers "$tmp/$name.trace"
		ok $([ $rc -eq 0 ] && [ "$how" = "$want" ] && echo 0 || echo 1) \
			"$name: $workers worker(s), $want ($how), same model"
		[ $rc -eq 0 ] || diag <"$tmp/why"
	done
}

# The profile-only load of $tmp/NAME.trace must go the way WANT says
# (summed, or modelled when only the model can hold it) and equal the
# model's profile: so that every rule of the sums is met.
# Summed, some of the loads split between two workers must have been
# summed in two (none when WHOLE is given: each split leaves an orphan
# exit after it, which only one pass can sum).
check_sums() {
	name=$1 want=$2 whole=${3:-}
	equal 1 "$tmp/$name.trace"
	ok $([ $rc -eq 0 ] && [ "$sums" = "$want" ] && echo 0 || echo 1) \
		"$name: profile $want ($sums), the model's"
	[ $rc -eq 0 ] || diag <"$tmp/why"
	[ "$want" = summed ] || return 0
	if [ -n "$whole" ]; then
		ok $(case $split in "split 0/"*) echo 0 ;; *) echo 1 ;; esac) \
			"$name: never summed in two halves ($split)"
		return
	fi
	ok $(case $split in "split 0/"*) echo 1 ;; split*) echo 0 ;; *) echo 1 ;; esac) \
		"$name: summed in two halves ($split), the model's profile"
}

# make check: one fixture of each layout of records (V1 of versions 1
# and 2, V2 whole and streamed, streaming of 14 bytes a record, split,
# odd offsets and sizes, generated; the real traces below are V1 of
# versions 1 and 3 and streaming), the sums' rules' own below;
# check-long: every fixture.
fixture_traces "$tmp"
for spec in "${top_srcdir:-.}"/tests/fixtures/*.spec; do
	name=${spec##*/}
	name=${name%.spec}
	[ -e "$tmp/$name.trace-failed" ] && continue
	[ -n "$long" ] || case $name in
	v1-dual | v2-dual | v2-final-dual | v2-draft-dual | \
		stream-f2-stride14 | stream-late-defs | generated-stream | \
		split | method-ids | cpu-offset | data-offset-16 | \
		record-size-18 | overflow | broken-truncated-record) ;;
	*) continue ;;
	esac
	check "$tmp/$name.trace"
done
# Each rule of the event path met by the sums: orphans that adopt the
# calls before them, unwinds, action 3, lost exits, frames open at the
# end, recursion, clocks that step back or wrap, threads past 32767;
# and what sends them to the model: an orphan of a method called before
# it (the calls it adopts would turn recursive), an undefined method.
for name in orphan-exits unwind action3 mismatched-exit open-frames \
	recursion-direct recursion-indirect time-backwards wrap32 tid-40000; do
	check_sums $name summed
done
for name in unknown-method; do
	check_sums $name modelled
done

# make check: one thread, seven that switch and unwind, high thread ids,
# each of a quarter to a third of check-long's records (past the 300
# that model-equal splits at every record, its 8 spread splits alike);
# check-long adds forty threads 80 deep.  (mktrace needs 39 methods or
# more for three threads.)
seed=1
set -- 6000 15000 8000
[ -z "$long" ] || set -- 20000 60000 30000
for shape in "threads=1 methods=50 records=$1" \
	"threads=7 methods=300 records=$2 switch=3 unwind=50" \
	${long:+"threads=40 methods=2000 records=80000 maxdepth=80 unwind=5"} \
	"threads=3 methods=40 records=$3 first-tid=65000 switch=1"; do
	cat >"$tmp/gen-$seed.spec" <<SPEC
format v1
version 3
clock dual
generate $shape seed=$seed
SPEC
	if "$MKTRACE" "$tmp/gen-$seed.spec" "$tmp/gen-$seed.trace" 2>"$tmp/why"; then
		check "$tmp/gen-$seed.trace"
	else
		ok 1 "gen-$seed: mktrace writes $shape"
		diag <"$tmp/why"
	fi
	seed=$((seed + 1))
done

# Threads that first appear in the second half of the records, where a
# second worker counts them: their runs come from its list (make check:
# 6000 records a half, check-long 20000).
late=6000
[ -z "$long" ] || late=20000
cat >"$tmp/late-threads.spec" <<SPEC
format v1
version 3
clock dual
generate threads=2 methods=60 records=$late seed=3
generate threads=3 methods=60 records=$late seed=4
SPEC
"$MKTRACE" "$tmp/late-threads.spec" "$tmp/late-threads.trace" &&
	check_path late-threads placed 1 2 ${long:+3}

# Starts whose high bits change (time steps), also under orphans that start
# at their thread's first time, before the steps of the calls they adopt.
cat >"$tmp/start-past-wrap.spec" <<SPEC
format v1
clock dual
thread 1 main
thread 2 worker
method 0x4 a.A run ()V
method 0x8 a.A step ()V
1 enter 0x4 4294967000 4294967000
2 enter 0x8 1 1
1 enter 0x8 100 100
1 exit 0x8 200 200
1 exit 0x4 300 300
2 exit 0x8 2 2
SPEC
cat >"$tmp/orphans-before-steps.spec" <<SPEC
format v1
clock dual
thread 1 main
method 0x4 a.A run ()V
method 0x8 a.A step ()V
method 0xc a.A loop ()V
1 exit 0x4 1000 1000
1 enter 0x8 70000 70000
1 exit 0x8 140000 140000
1 enter 0x8 200000 200000
1 exit 0x8 270000 270000
1 exit 0xc 300000 300000
SPEC
for name in start-past-wrap orphans-before-steps; do
	"$MKTRACE" "$tmp/$name.spec" "$tmp/$name.trace"
	check_path $name placed 1 2
done
check_sums orphans-before-steps summed whole

# make check-long: a stack 70000 deep and methods past 16 bits, whose
# traces take most of this suite's time to write and to build.
if [ -n "$long" ]; then
	# A stack 70000 deep, past the 16-bit depths, beside another thread.
	awk 'BEGIN {
		print "format v1"; print "clock dual"
		print "thread 1 main"; print "thread 2 other"
		print "method 0x4 a.A run ()V"; print "method 0x8 a.A step ()V"
		for (i = 0; i < 70000; i++) {
			printf "1 enter %s %d %d\n", i % 3 ? "0x4" : "0x8", t, t; t++
			if (i % 5000 == 0)
				printf "2 enter 0x8 %d %d\n2 exit 0x8 %d %d\n", t, t, t, t
		}
		for (i = 69999; i >= 0; i--) {
			printf "1 exit %s %d %d\n", i % 3 ? "0x4" : "0x8", t, t; t++
		}
	}' >"$tmp/deep.spec"
	"$MKTRACE" "$tmp/deep.spec" "$tmp/deep.trace" && check "$tmp/deep.trace"

	# Methods past 16 bits: 70000 in the key, or 65530 and ten ids the key
	# lacks, which the placed build cannot number in 16 bits and leaves to
	# the event path.
	cat >"$tmp/wide.spec" <<-SPEC
	format v1
	version 3
	clock dual
	generate threads=3 methods=70000 records=200000 seed=7
	SPEC
	"$MKTRACE" "$tmp/wide.spec" "$tmp/wide.trace" && check "$tmp/wide.trace"
	awk 'BEGIN {
		print "format v1"; print "clock dual"; print "thread 1 main"
		for (i = 1; i <= 65530; i++)
			printf "method 0x%x a.A m%d ()V\n", 4 * i, i
		for (i = 0; i < 20; i++) {
			m = i % 2 ? 4 * (i + 1) : 4 * (70000 + i)
			printf "1 enter 0x%x %d %d\n1 exit 0x%x %d %d\n", m, i, i, m, i, i
		}
	}' >"$tmp/wide-unknown.spec"
	"$MKTRACE" "$tmp/wide-unknown.spec" "$tmp/wide-unknown.trace"
	check_path wide-unknown replayed 2
fi

# What the counts cannot foresee sends the records through the event path:
# an exit that skips a frame, then one that meets the emptied stack.
cat >"$tmp/skip-then-orphan.spec" <<SPEC
format v1
clock dual
thread 1 main
thread 2 worker
method 0x4 a.A run ()V
method 0x8 a.A step ()V
method 0xc a.A gone ()V
1 enter 0x4 0 0
2 enter 0x4 0 0
1 enter 0x8 5 5
1 exit 0x4 10 10
1 exit 0xc 20 20
2 exit 0x4 30 30
SPEC
"$MKTRACE" "$tmp/skip-then-orphan.spec" "$tmp/skip-then-orphan.trace"
check_path skip-then-orphan replayed 1 2
check_sums skip-then-orphan summed

# An orphan of a method already called on its thread: the call it adopts
# turns recursive, which only the model can redo.
cat >"$tmp/orphan-after-call.spec" <<SPEC
format v1
clock dual
thread 1 main
method 0x4 a.A run ()V
method 0x8 a.A step ()V
1 enter 0x4 0 0
1 enter 0x8 2 2
1 exit 0x8 4 4
1 exit 0x4 6 6
1 exit 0x4 9 9
SPEC
"$MKTRACE" "$tmp/orphan-after-call.spec" "$tmp/orphan-after-call.trace"
check_sums orphan-after-call modelled

# An orphan after twenty top-level methods: the call paths take them
# under it, and the same methods called at the top level again are new
# paths, not the ones it took.
{
	printf 'format v1\nclock dual\nthread 1 main\n'
	i=1
	while [ $i -le 21 ]; do
		printf 'method 0x%x a.A m%d ()V\n' $((i * 4)) $i
		i=$((i + 1))
	done
	for round in 0 1; do
		i=1
		while [ $i -le 20 ]; do
			t=$((round * 100 + i * 4))
			printf '1 enter 0x%x %d %d\n' $((i * 4)) $t $t
			printf '1 exit 0x%x %d %d\n' $((i * 4)) $((t + 2)) $((t + 2))
			i=$((i + 1))
		done
		[ $round -eq 0 ] && printf '1 exit 0x54 90 90\n'
	done
} >"$tmp/orphan-after-paths.spec"
"$MKTRACE" "$tmp/orphan-after-paths.spec" "$tmp/orphan-after-paths.trace"
check_sums orphan-after-paths summed

# A streaming trace past a few of the walk's 1 MB windows, its thread
# and method packets spread among the records: read from the file (the
# walk reads it a window at a time, the records from the mapping) and
# from a pipe (all from memory), the same report, and the same model.
cat >"$tmp/stream-windows.spec" <<SPEC
format stream
vm art
stream-threads both
stream-methods both
generate threads=6 methods=3000 records=300000 seed=5 maxdepth=40
SPEC
if "$MKTRACE" "$tmp/stream-windows.spec" "$tmp/stream-windows.trace"; then
	"$TRACETUI" report --format tsv "$tmp/stream-windows.trace" \
		>"$tmp/windows.tsv" 2>&1
	"$TRACETUI" report --format tsv - <"$tmp/stream-windows.trace" \
		>"$tmp/whole.tsv" 2>&1
	cmp -s "$tmp/windows.tsv" "$tmp/whole.tsv" && [ -s "$tmp/whole.tsv" ]
	ok $? "stream-windows: the report read a window at a time, as from memory"
	[ -z "$long" ] || check "$tmp/stream-windows.trace"
	# Cut inside a record, well past the windows read ahead: the same
	# warnings and report from the file as from memory.
	head -c 3000001 "$tmp/stream-windows.trace" >"$tmp/stream-cut.trace"
	"$TRACETUI" report --format tsv "$tmp/stream-cut.trace" \
		>"$tmp/cut-windows.tsv" 2>&1
	"$TRACETUI" report --format tsv - <"$tmp/stream-cut.trace" \
		>"$tmp/cut-whole.tsv" 2>&1
	sed -i 's/^tracetui: [^:]*: //' "$tmp/cut-windows.tsv" "$tmp/cut-whole.tsv"
	cmp -s "$tmp/cut-windows.tsv" "$tmp/cut-whole.tsv" &&
		grep -q 'without its summary' "$tmp/cut-whole.tsv"
	ok $? "stream-windows: cut short, the same report from the file as from memory"
fi

# The streaming walk scans the stacks at the split points as it passes
# the records, read with one clock or two, 10 or 14 bytes apart, while
# the first worker sums ahead of the report from the clock the summary
# at the end names: every split is summed so, the same as the model.
# make check: two clocks 14 bytes apart, one clock 10 apart; check-long
# adds one clock 14 apart and the thread cpu clock alone, each of 20000
# records (make check: 6000).
walked_records=6000
[ -z "$long" ] || walked_records=20000
for spec in "version 3|clock dual" "version 2|clock wall|stream-stride 10" \
	${long:+"version 2|clock wall|stream-stride 14"} \
	${long:+"version 2|clock thread-cpu|stream-stride 10"}; do
	name=stream-walked-$seed
	{
		printf 'format stream\nvm art\nstream-methods both\n'
		printf '%s\n' "$spec" | tr '|' '\n'
		printf 'generate threads=4 methods=300 records=%d seed=%d maxdepth=30\n' \
			$walked_records $seed
	} >"$tmp/$name.spec"
	"$MKTRACE" "$tmp/$name.spec" "$tmp/$name.trace"
	equal 1 "$tmp/$name.trace"
	tried=${split#*/}
	tried=${tried%% *}
	ok $([ $rc -eq 0 ] &&
		[ "$split" = "split $tried/$tried walked $tried ahead $tried" ] &&
		echo 0 || echo 1) \
		"$name ($spec): every split at the walk's stacks, its first part summed ahead ($split), the model's profile"
	[ $rc -eq 0 ] || diag <"$tmp/why"
	seed=$((seed + 1))
done

# The first worker sums ahead from what the summary at the file's end
# says and the packets as they come, and the split checks that when the
# records come.  A summary listing the methods in another order than
# their packets numbers them in its order: summed ahead at every split.
# A method the summary defines used before its late packet sends the
# file in order (no split), and a method nothing defines fails the
# worker ahead: both give the model's numbers.
stream_ahead_spec() {
	printf 'format stream\nversion 3\nclock dual\nvm art\n'
	printf 'stream-methods none\nthread 1 main\n'
	printf 'method 0x2000 @summary a.A two ()V A.java\n'
	printf 'method 0x1000 @summary a.A one ()V A.java\n'
	printf 'packet thread 1\npacket method 0x1000\n'
	printf '1 enter 0x1000 0 0\n1 exit 0x1000 2 2\n'
	[ "$1" = late ] || printf 'packet method 0x2000\n'
	printf '1 enter 0x2000 3 3\n1 exit 0x2000 5 5\n'
	[ "$1" = late ] && printf 'packet method 0x2000\n'
	[ "$1" = undefined ] && printf '1 enter 0x3000 6 6\n1 exit 0x3000 7 7\n'
	printf '1 enter 0x1000 8 8\n1 enter 0x2000 9 9\n'
	printf '1 exit 0x2000 11 11\n1 exit 0x1000 12 12\n'
}
for case in order late undefined; do
	stream_ahead_spec $case >"$tmp/stream-ahead-$case.spec"
	"$MKTRACE" "$tmp/stream-ahead-$case.spec" "$tmp/stream-ahead-$case.trace"
	equal 1 "$tmp/stream-ahead-$case.trace"
	tried=${split#*/}
	tried=${tried%% *}
	case $case in
	order) want="split $tried/$tried walked $tried ahead $tried" ;;
	*) want="${split% ahead *} ahead 0" ;;
	esac
	ok $([ $rc -eq 0 ] && [ "$split" = "$want" ] && echo 0 || echo 1) \
		"stream-ahead-$case: $split, the model's profile"
	[ $rc -eq 0 ] || diag <"$tmp/why"
done

# The check that every record before the last packet names a defined
# method recalls the ids it found defined in a small table by id, where
# 0x1000 and 0x2000 share a place: after 0x2000 took it, 0x1000 is looked
# up again and found (records at once), and 0x2000 used before its late
# packet is not taken for 0x1000 (file order).
for late in no yes; do
	{
		printf 'format stream\nversion 3\nvm art\nstream-methods none\n'
		printf 'thread 1 main\n'
		printf 'method 0x1000 a.A one ()V A.java\n'
		printf 'method 0x2000 a.A two ()V A.java\n'
		printf 'packet method 0x1000\n'
		printf '1 enter 0x1000 0 0\n1 exit 0x1000 2 2\n'
		[ $late = no ] && printf 'packet method 0x2000\n'
		printf '1 enter 0x2000 3 3\n1 exit 0x2000 5 5\n'
		printf '1 enter 0x1000 6 6\n1 exit 0x1000 8 8\n'
		[ $late = yes ] && printf 'packet method 0x2000\n'
		printf 'packet thread 1\n'
		printf '1 enter 0x1000 9 9\n1 exit 0x1000 10 10\n'
	} >"$tmp/stream-known-$late.spec"
	"$MKTRACE" "$tmp/stream-known-$late.spec" "$tmp/stream-known-$late.trace"
done
check_path stream-known-no placed 1 2
check_path stream-known-yes replayed 1 2

# make check-long: a model of over a million calls, whose pages a
# thread of its own makes present ahead of the workers: the same model.
if [ -n "$long" ]; then
	cat >"$tmp/prefault.spec" <<SPEC
format v1
version 3
clock dual
generate threads=3 methods=500 records=2400000 seed=9 maxdepth=30
SPEC
	"$MKTRACE" "$tmp/prefault.spec" "$tmp/prefault.trace" &&
		check_path prefault placed 1 2
fi

if [ -d "$SHARED_TRACES" ]; then
	for f in "$SHARED_TRACES"/*.trace; do
		is_fast_trace "$f" || continue
		# make check: the app's recording is the generated traces'
		# kind, the mismatched exits and the exception's unwinding the
		# fixtures' of the sums' rules above.
		[ -n "$long" ] || case ${f##*/} in
		Launcher__app.trace | perflib__mismatched.trace | \
			perflib__exception.trace) continue ;;
		esac
		check "$f"
	done
fi
done_testing
