#!/bin/sh
# heap.sh: Java heap dumps (binary HPROF).  The class histogram (instances,
# shallow and retained bytes per class) equals that of tests/heap-oracle.py,
# an independent reader, on every row: for dumps tests/heap-gen.py writes
# (JVM 1.0.2 with id size 8, Android 1.0.3 with id size 4: Reference
# referents, cycles, objects no root reaches; one with planted leaks), per
# heap, and for the real
# dumps of $SHARED_HEAPDUMPS (only under TRACETUI_LONG: the two ahat
# dumps' oracle runs take minutes, leak_service_binder's a second; make
# check: the generated ones, --heap all but not zygote).  Then what the other tools say of
# those dumps: test-dump's object count and ten largest shallow sizes
# (Perfetto's), the path to LeakyService through its static field
# leakAllTheBinders, the StackSmasher chain going from 10,000 to 20,000
# in the diff with the map; the tree, folded stacks and flame graph hold
# the reachable bytes; the planted leak suspects and no other; duplicate
# Strings; gzip; a damaged dump; the commands on a trace are refused
# with a message naming heap dumps; and every cut of a dump ends with a
# status and a message, never a crash.
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
gen="$srcdir/tests/heap-gen.py"
oracle="$srcdir/tests/heap-oracle.py"
heaps=${SHARED_HEAPDUMPS:-$srcdir/../shared/heapdumps}

# The Python side in one interpreter (tests/heap-py.py; -S: no site
# packages to import): the dumps tests/heap-gen.py writes, then the
# oracle's histogram of each into $tmp/oracle.NAME.  py_job OUT SCRIPT
# ARGS... queues one; py_jobs runs them.  No argument may hold a
# space.
py_queue=
py_job() {
	py_queue="$py_queue${py_queue:+ ::} $1 $tmp/py.err.${1##*/} $2"
	shift 2
	for a; do py_queue="$py_queue $a"; done
}
py_jobs() {
	python3 -S "$srcdir/tests/heap-py.py" $py_queue 2>"$tmp/py.err" ||
		diag <"$tmp/py.err"
	py_queue=
}
# oracle NAME DUMP [OPTIONS...]: the oracle's histogram of DUMP queued
# into $tmp/oracle.NAME.
oracle() {
	o_name=$1 o_dump=$2
	shift 2
	py_job "$tmp/oracle.$o_name" "$oracle" "$@" "$o_dump"
}

# same_histogram NAME DUMP DESCRIPTION [OPTIONS...]: tracetui's report as
# TSV (kept in $tmp/report.NAME) equals the oracle's ($tmp/oracle.NAME),
# row by row: one awk counts each row in one and out of the other (the
# oracle's "#" lines and report's header aside), and the rows; sorted
# and diffed only when they differ.
same_histogram() {
	sh_name=$1 sh_dump=$2 sh_what=$3
	shift 3
	"$TRACETUI" report --format tsv "$@" "$sh_dump" \
		>"$tmp/report.$sh_name" 2>"$tmp/err"
	awk -v count="$tmp/rows" '
	FILENAME == ARGV[1] { if (!/^#/) n[$0]++; next }
	FNR > 1 { n[$0]--; rows++ }
	END {
		print rows + 0 >count
		for (r in n) if (n[r]) exit 1
		exit !rows
	}' "$tmp/oracle.$sh_name" "$tmp/report.$sh_name"
	sh_rc=$?
	read -r sh_rows <"$tmp/rows"
	ok $sh_rc "$sh_what: every histogram row equals the oracle's" \
		"($sh_rows rows)"
	[ $sh_rc -eq 0 ] || {
		grep -v '^#' "$tmp/oracle.$sh_name" | LC_ALL=C sort \
			>"$tmp/oracle.tsv"
		tail -n +2 "$tmp/report.$sh_name" | LC_ALL=C sort \
			>"$tmp/ours.tsv"
		diff "$tmp/oracle.tsv" "$tmp/ours.tsv" | head -5
		head -3 "$tmp/py.err.oracle.$sh_name"
	} | diag
}

cat >"$tmp/bad.py" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read())
i = b.rfind(b'\x21', 0, len(b) // 2)
b[i] = 0x77
open(sys.argv[2], 'wb').write(b)
PY
py_job - "$gen" --id-size 8 --seed 7 --objects 2500 "$tmp/jvm.hprof"
py_job - "$gen" --android --id-size 4 --seed 11 --objects 2500 \
	"$tmp/art.hprof"
py_job - "$gen" --leaks --seed 4 --objects 500 "$tmp/leaks.hprof"
# A damaged dump (checked below): an object's tag made unknown.
py_job - "$tmp/bad.py" "$tmp/jvm.hprof" "$tmp/bad.hprof"
# The cuts of the Android dump (checked below): DIR/cut.N.hprof, its
# first N bytes, for N from 1 to ONE, then every STEP-th.
cat >"$tmp/cuts.py" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
one, step = int(sys.argv[3]), int(sys.argv[4])
cut = 1
while cut < len(b):
    open('%s/cut.%d.hprof' % (sys.argv[2], cut), 'wb').write(b[:cut])
    cut += 1 if cut < one else step
PY
mkdir "$tmp/cuts"
if [ -n "$long" ]; then
	py_job - "$tmp/cuts.py" "$tmp/art.hprof" "$tmp/cuts" 64 997
else
	py_job - "$tmp/cuts.py" "$tmp/art.hprof" "$tmp/cuts" 4 24999
fi
oracle jvm "$tmp/jvm.hprof"
oracle art "$tmp/art.hprof"
oracle leaks "$tmp/leaks.hprof"
for h in all ${long:+zygote}; do
	oracle "art-$h" "$tmp/art.hprof" --heap "$h"
done
if [ -n "$long" ]; then
	for seed in 1 2 3; do
		py_job - "$gen" --id-size 4 --seed $seed --objects 4000 \
			"$tmp/jvm4-$seed.hprof"
		py_job - "$gen" --android --id-size 8 --seed $seed \
			--objects 4000 "$tmp/art8-$seed.hprof"
		oracle "jvm4-$seed" "$tmp/jvm4-$seed.hprof"
		oracle "art8-$seed" "$tmp/art8-$seed.hprof" --heap all
	done
fi
py_jobs

same_histogram jvm "$tmp/jvm.hprof" "generated JVM 1.0.2, id size 8"
same_histogram art "$tmp/art.hprof" \
	"generated Android 1.0.3, id size 4 (app)"
for h in all ${long:+zygote}; do
	same_histogram "art-$h" "$tmp/art.hprof" \
		"generated Android, --heap $h" --heap "$h"
done
if [ -n "$long" ]; then
	for seed in 1 2 3; do
		same_histogram "jvm4-$seed" "$tmp/jvm4-$seed.hprof" \
			"JVM, id size 4, seed $seed"
		same_histogram "art8-$seed" "$tmp/art8-$seed.hprof" \
			"Android, id size 8, seed $seed" --heap all
	done
fi

# The column sums equal info's totals.
awk -F'\t' 'NR > 1 { n += $2; s += $3 } END { print n, s }' \
	"$tmp/report.art-all" >"$tmp/sums"
"$TRACETUI" info "$tmp/art.hprof" >"$tmp/info"
# info's numbers, read by the shell.
objects= shallow= reachable=
while IFS= read -r line; do
	case $line in
	'objects: '[0-9]*)
		objects=${line#objects: }
		objects=${objects%%[!0-9]*} ;;
	'shallow bytes: '*) shallow=${line#shallow bytes: } ;;
	'reachable: '[0-9]*' objects, '[0-9]*' bytes')
		reachable=${line#*objects, }
		reachable=${reachable% bytes}
		case $reachable in *[!0-9]*) reachable= ;; esac ;;
	esac
done <"$tmp/info"
read -r sums <"$tmp/sums"
[ "$sums" = "$objects $shallow" ]
ok $? "the histogram's sums are info's objects and shallow bytes"

# gzip: the same histogram.
gzip -c "$tmp/art.hprof" >"$tmp/art.hprof.gz"
"$TRACETUI" report --format tsv "$tmp/art.hprof.gz" >"$tmp/gz"
cmp -s "$tmp/report.art" "$tmp/gz"
ok $? "a gzipped dump gives the same histogram"

# A trace command on a heap dump says what reads it.
run "$TRACETUI" calls "$tmp/art.hprof" foo
case $rc:$err in
3:*"Java heap dump"*) rc=0 ;;
*) rc=1 ;;
esac
ok $rc "calls on a heap dump: refused, naming heap dumps"

# The dominator tree, folded stacks and flame graph hold every reachable
# byte once.
"$TRACETUI" tree --format tsv --min-pct 0 --heap all "$tmp/art.hprof" |
	awk -F'\t' 'NR > 1 && $1 == 0 { s += $2 } END { print s + 0 }' \
	>"$tmp/tree-sum"
read -r tree_sum <"$tmp/tree-sum"
[ "$tree_sum" = "$reachable" ] && [ -n "$reachable" ]
ok $? "tree: the roots of the dominator tree retain the reachable bytes"
# (make check: --min-pct 0 and 5; check-long: 1 too).
for pct in 0 ${long:+1} 5; do
	"$TRACETUI" folded --min-pct $pct "$tmp/art.hprof" |
		awk '{ s += $NF } END { print s + 0 }' >"$tmp/folded-sum"
	read -r folded_sum <"$tmp/folded-sum"
	[ "$folded_sum" = "$reachable" ]
	ok $? "folded --min-pct $pct: the stacks sum to the reachable bytes"
done
"$TRACETUI" flamegraph "$tmp/art.hprof" >"$tmp/flame.svg"
awk '/^<svg / { a = 1 } /<\/svg>/ { b = 1 } END { exit !(a && b) }' \
	"$tmp/flame.svg" &&
	{ ! command -v xmllint >/dev/null 2>&1 ||
		xmllint --noout "$tmp/flame.svg"; }
ok $? "flamegraph: one SVG document"

# paths by id.
"$TRACETUI" paths "$tmp/art.hprof" com.example.Node >"$tmp/path-any"
id=$(sed -n '1s/^[^@]*@\(0x[0-9a-f]*\) .*/\1/p' "$tmp/path-any")
"$TRACETUI" paths "$tmp/art.hprof" "$id" >"$tmp/path-id"
cmp -s "$tmp/path-any" "$tmp/path-id" && [ -n "$id" ]
ok $? "paths: by class and by the id of the instance it chose, the same"

# Leak suspects: those the generator plants, no other.
run "$TRACETUI" leaks --fail-if-any "$tmp/leaks.hprof"
# The ids on each suspect's line and the line after it, by one awk.
printf '%s\n' "$out" | awk '
	{ take = /^suspect:/ || after; after = /^suspect:/ }
	take {
		s = $0
		while (match(s, /@0x[0-9a-f]*/)) {
			printf "%s ", substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
		}
	}' >"$tmp/suspects"
IFS= read -r suspects <"$tmp/suspects"
[ $rc -eq 1 ] && [ "$suspects" = "@0x60000000 @0x60000030 @0x60000000 " ]
leaks_rc=$?
ok $leaks_rc "leaks: the destroyed Activity, the detached" \
	"Fragment and the watched Activity still reachable; status 1"
[ $leaks_rc -eq 0 ] || printf '%s\n' "$out" | grep '^suspect' | diag
run "$TRACETUI" leaks --fail-if-any "$tmp/jvm.hprof"
ok $([ $rc -eq 0 ] && [ "$out" = "no leak suspects" ] && echo 0 ||
	echo 1) "leaks on a dump without suspects: none, status 0"
same_histogram leaks "$tmp/leaks.hprof" "generated with leaks"

# Duplicates: the generator's Strings of equal text.
"$TRACETUI" report --duplicates --format tsv --heap all "$tmp/jvm.hprof" |
	awk -F'\t' '$1 == "java.lang.String" { n++ } END { print n + 0 }' \
	>"$tmp/dups"
read -r dups <"$tmp/dups"
[ "$dups" -ge 2 ]
ok $? "report --duplicates: Strings of equal text grouped"

# A damaged dump: kept up to the damage, which is named.
run "$TRACETUI" info "$tmp/bad.hprof"
case $rc:"
$out" in
0:*"
status: cut short"*)
	printf '%s\n' "$err" |
		grep -q 'offset [0-9]*: unknown heap dump sub-record tag 0x77' ;;
*) false ;;
esac
bad_rc=$?
ok $bad_rc "a damaged dump: what came before, and where it stops"
[ $bad_rc -eq 0 ] || printf '%s\n' "$err" | diag

# Every cut of a dump ends with a status and a message: the first 64
# bytes one by one, then every 997th (make check: the first 4, then
# every 24999th), written by the Python batch above; the message read
# by the shell.
bad=0
n=0
for f in "$tmp"/cuts/*.hprof; do
	cut=${f##*/cut.}
	cut=${cut%.hprof}
	"$TRACETUI" report --format tsv "$f" >/dev/null 2>"$tmp/cut.err"
	st=$?
	n=$((n + 1))
	if [ $st -ne 0 ] && [ $st -ne 3 ]; then
		bad=$((bad + 1))
		echo "cut at $cut: status $st" | diag
	else
		said=
		while IFS= read -r line; do
			case $line in *"offset "[0-9]*) said=yes ;; esac
		done <"$tmp/cut.err"
		if [ -z "$said" ]; then
			bad=$((bad + 1))
			echo "cut at $cut: no message" | diag
		fi
	fi
done
[ $n -gt 0 ] || bad=1
ok $bad "every one of $n cuts ends with status 0 or 3 and a message"

if [ ! -d "$heaps" ]; then
	done_testing
	exit
fi
dump="$heaps/ahat__test-dump.hprof"
base="$heaps/ahat__test-dump-base.hprof"
map="$heaps/ahat__test-dump.map"
leak="$heaps/leakcanary__leak_service_binder.hprof"

"$TRACETUI" info "$dump" >"$tmp/info"
count=1 largest=1
while IFS= read -r line; do
	case $line in
	'objects: 25919 '*) count=0 ;;
	'largest shallow sizes: 1000012 16396 8204 3300 2388 1444 1412 1264 1248 1248')
		largest=0 ;;
	esac
done <"$tmp/info"
ok $count "test-dump: 25,919 objects, as Perfetto counts"
ok $largest "test-dump: the ten largest shallow sizes are Perfetto's"

"$TRACETUI" paths "$leak" LeakyService >"$tmp/path"
awk '/LeakyService\.leakAllTheBinders / { a = 1 }
	NR <= 2 && /root sticky-class/ { b = 1 }
	END { exit !(a && b) }' "$tmp/path"
ok $? "the path to LeakyService goes through the static leakAllTheBinders"
diag <"$tmp/path"

"$TRACETUI" diff --format tsv --mapping "$map" "$base" "$dump" >"$tmp/diff"
grep -q '^DumpedStuff\$StackSmasher	10000	20000	' "$tmp/diff"
ok $? "diff with the map: the StackSmasher chain goes from 10,000 to 20,000"
"$TRACETUI" diff --mapping "$map" --fail-if \
	'instances(DumpedStuff$StackSmasher) > +50%' "$base" "$dump" \
	>/dev/null 2>&1
ok $([ $? -eq 1 ] && echo 0 || echo 1) "diff --fail-if on a class's growth"

run "$TRACETUI" leaks --fail-if-any "$leak"
case $rc:$out in
1:*LeakyService@*) rc=0 ;;
*) rc=1 ;;
esac
ok $rc "leaks: LeakCanary's watched LeakyService, status 1"

# The oracle on the real dumps (its run on the smallest takes a second)
# in check-long only; make check compares it on the generated dumps.
if [ -n "$TRACETUI_LONG" ]; then
	oracle leak "$leak"
	oracle dump "$dump"
	oracle base "$base"
	oracle dump-map "$dump" --mapping "$map"
	py_jobs
	same_histogram leak "$leak" "leak_service_binder (app heap)"
	same_histogram dump "$dump" "test-dump"
	same_histogram base "$base" "test-dump-base"
	same_histogram dump-map "$dump" "test-dump with the map" \
		--mapping "$map"
fi
done_testing
