#!/bin/sh
# heap-same.sh: every heap dump command gives, byte for byte, what it gave
# before the analysis was made faster (tests/heap-same.sums holds the
# SHA-256 of each output as the on-demand reader wrote it): on dumps of
# varied shapes from tests/heap-gen.py (JVM and Android, id size 4 and 8,
# weak references and LeakCanary's watched ones, gzip) and on the real
# dumps where present: info, the
# histogram per heap, the whole dominator tree (its order among equal
# retained sizes too), folded stacks, paths, leaks and duplicates.
# make check: one dump of each kind (JVM with id size 4 and leaks,
# Android with id size 8, gzip, the smallest real dump), each test
# setting on one of them; check-long: every shape, every real dump, each setting on
# several.  REGENERATE=1 writes the sums anew, of every shape (review
# their diff).
. "${top_srcdir:-.}/tests/lib.sh"
[ -z "${REGENERATE:-}" ] || long=yes

srcdir=$(cd "${top_srcdir:-.}" && pwd)
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
case $TRACETUI in /*) ;; *) TRACETUI=$PWD/$TRACETUI ;; esac # run in $tmp
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
command -v sha256sum >/dev/null 2>&1 || skip_all "no sha256sum"
gen="$srcdir/tests/heap-gen.py"
sums="$srcdir/tests/heap-same.sums"

# The dumps, from one python3 (tests/heap-py.py; -S: no site packages).
# make check: an Android dump of id size 8, the JVM one of id size 4
# with leaks and the Android one gzipped; check-long: the JVM ones of id
# size 8 and 4 without leaks and the Android one of id size 4 too.
python3 -S "$srcdir/tests/heap-py.py" \
	- - "$gen" --android --id-size 8 --seed 24 --objects 3000 \
	"$tmp/art8.hprof" :: \
	- - "$gen" --leaks --id-size 4 --seed 25 --objects 800 \
	"$tmp/leaks.hprof" ${long:+:: \
	- - "$gen" --id-size 4 --seed 22 --objects 3000 "$tmp/jvm4.hprof" :: \
	- - "$gen" --id-size 8 --seed 21 --objects 3000 "$tmp/jvm8.hprof" :: \
	- - "$gen" --android --id-size 4 --seed 23 --objects 3000 \
	"$tmp/art4.hprof"}
gzip -c "$tmp/art8.hprof" >"$tmp/art8gz.hprof"

commands="info report-all report-app tree folded paths leaks duplicates"
# outputs DIR SHAPE...: each command's output (and errors) on each
# SHAPE into DIR/SHAPE.COMMAND, run in $tmp so that the dump is named
# without $tmp's path; then one line per output, "SHAPE COMMAND
# SHA256", from one sha256sum.
outputs() {
	o_dir=$1
	shift
	mkdir -p "$o_dir"
	o_files=
	for o_shape; do
		outputs_of "$o_dir" "$o_shape"
		for c in $commands; do
			o_files="$o_files $o_shape.$c"
		done
	done
	(cd "$o_dir" && sha256sum $o_files) |
		awk '{ split($2, p, "."); print p[1], p[2], $1 }'
}
# outputs_of DIR SHAPE: the commands' outputs on SHAPE into DIR.
outputs_of() (
	cd "$tmp" || exit
	f="$2.hprof"
	for c in $commands; do
		case $c in
		info) "$TRACETUI" info "$f" ;;
		report-all) "$TRACETUI" report --format tsv --heap all "$f" ;;
		report-app) "$TRACETUI" report --format tsv "$f" ;;
		tree) "$TRACETUI" tree --format tsv --min-pct 0 --heap all "$f" ;;
		folded) "$TRACETUI" folded --min-pct 0 "$f" ;;
		paths) "$TRACETUI" paths -n 5 "$f" com.example.Node ;;
		leaks) "$TRACETUI" leaks "$f" ;;
		duplicates) "$TRACETUI" report --duplicates --format tsv \
			--heap all "$f" ;;
		esac >"$1/$2.$c" 2>&1
	done
)

shapes="art8 leaks art8gz"
[ -z "$long" ] || shapes="jvm8 jvm4 art4 art8 leaks art8gz"
# The real dumps of $SHARED_HEAPDUMPS too, where present (make check:
# the smallest; check-long: all three).
heaps=${SHARED_HEAPDUMPS:-$srcdir/../shared/heapdumps}
reals=ahat__test-dump-base
[ -z "$long" ] ||
	reals="ahat__test-dump $reals leakcanary__leak_service_binder"
for real in $reals; do
	[ -f "$heaps/$real.hprof" ] || continue
	ln -s "$heaps/$real.hprof" "$tmp/$real.hprof"
	shapes="$shapes $real"
done
outputs "$tmp/o" $shapes >"$tmp/sums"

if [ -n "${REGENERATE:-}" ]; then
	cp "$tmp/sums" "$sums"
	ok 0 "wrote $sums"
	done_testing
	exit
fi
# Each line's status (0: its sum the same as before), by one awk.
awk 'NR == FNR { want[$1 " " $2] = $3; next }
	{ print ($3 "" == want[$1 " " $2] "" ? 0 : 1), $1, $2 }' "$sums" "$tmp/sums" \
	>"$tmp/same"
while read -r same shape c; do
	ok "$same" "$shape: $c as before"
done <"$tmp/same"
# same_with SETTING DUMPS WHAT: every output of DUMPS (names of the
# dumps above) with the environment SETTING (VAR=VALUE) equals the one
# made without it.
same_with() {
	sw_dumps=$2
	(
		export "$1"
		outputs "$tmp/with.o" $sw_dumps
	) >"$tmp/with"
	grep -E "^($(echo $sw_dumps | tr ' ' '|')) " "$tmp/sums" >"$tmp/without"
	cmp -s "$tmp/with" "$tmp/without"
	sw_rc=$?
	ok $sw_rc "$3: every output the same"
	[ $sw_rc -eq 0 ] || diff "$tmp/without" "$tmp/with" | head -5 | diag
}

# Where the references would not fit in the compact arrays, the
# dominators and the reachable walk read them from the dump: the same
# (make check: on the Android dump of id size 8; check-long: on a JVM
# one and the one with leaks too).
fallback=art8
[ -z "$long" ] || fallback="jvm4 art8 leaks"
same_with TRACETUI_TEST_HEAP_REFS=10 "$fallback" "without the compact arrays"

# A dump of 4 GiB or more keeps 8-byte offsets of its records: the same
# (make check: on the JVM dump with leaks, of id size 4; check-long: on
# one of id size 8 and the Android one of id size 4 too).
wide=leaks
[ -z "$long" ] || wide="jvm8 art4 leaks"
same_with TRACETUI_TEST_HEAP_WIDE_OFFSETS=1 "$wide" \
	"with 8-byte record offsets"

# The generated dumps' ids ascend, and the id index counts the ids
# below each (model/heap-index.h); where they would not, it hashes
# them: the same (make check: on the Android dump of id size 8;
# check-long: on the JVM one of id size 4 and the one with leaks too).
hashed=art8
[ -z "$long" ] || hashed="jvm4 art8 leaks"
same_with TRACETUI_TEST_HEAP_HASH=1 "$hashed" "with the ids hashed"

# With ids of 4 bytes, the walk of the records decodes the references
# as it meets them (model/heap-walk-refs.h); without it they are
# decoded from the model: the same (make check: on the JVM dump with
# leaks, of id size 4; check-long: on the JVM one without leaks and the
# Android one too).
walked=leaks
[ -z "$long" ] || walked="jvm4 art4 leaks"
same_with TRACETUI_TEST_HEAP_WALK_REFS=0 "$walked" \
	"without the references decoded in the walk"

grep '^art8 ' "$tmp/sums" | grep -v ' info ' | sed 's/^art8 //' >"$tmp/plain"
grep '^art8gz ' "$tmp/sums" | grep -v ' info ' | sed 's/^art8gz //' >"$tmp/gz"
cmp -s "$tmp/plain" "$tmp/gz"
ok $? "a gzipped dump gives what the plain one gives"
done_testing
