#!/bin/sh
# hprof.sh: hprof text CPU profiles (PRODUCT.md 1, src/read/hprof.c).
#
# - The hand-written tests/fixtures/hprof-*.txt: their "# expect:" lines
#   are the `report --format tsv` rows worked out by hand, their
#   "# expect-folded:" lines the folded stacks; the same with CRLF line
#   ends; every prefix of them loads or is refused, never crashes.
# - The real profiles in $SHARED_TRACES/hprof (skipped when absent): every
#   command exits 0; the exclusive times add up to the total the file
#   prints (samples, or ms x 1000 for CPU TIME); the top method of
#   `report --sort excl` is the table's top method once its rows are
#   summed per method (rank 1 of the table is a trace, and a method can
#   top several traces, so rank 1 itself is only checked to be at most its
#   method's exclusive time).
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
LC_ALL=C
export LC_ALL

# report --format tsv rows as 5 tab-separated cells, sorted.
rows() {
	awk -F'\t' -v OFS='\t' '{ $5 = $5; print }' | sort
}

same() {
	if cmp -s "$1" "$2"; then
		ok 0 "$3"
	else
		ok 1 "$3"
		diff -u "$1" "$2" | diag
	fi
}

for f in "$srcdir"/tests/fixtures/hprof-*.txt; do
	name=$(basename "$f" .txt)
	sed -n 's/^# expect: //p' "$f" | rows >"$tmp/expect"
	sed -n 's/^# expect-folded: //p' "$f" | sort >"$tmp/expect-folded"
	ok "$([ -s "$tmp/expect" ] && [ -s "$tmp/expect-folded" ] &&
		echo 0 || echo 1)" "$name: has expect: and expect-folded: lines"

	"$TRACETUI" report --format tsv "$f" 2>/dev/null | tail -n +2 |
		rows >"$tmp/got"
	same "$tmp/expect" "$tmp/got" \
		"$name: report rows equal the expect: lines"
	"$TRACETUI" folded "$f" 2>/dev/null | sort >"$tmp/got-folded"
	same "$tmp/expect-folded" "$tmp/got-folded" \
		"$name: folded stacks equal the expect-folded: lines"

	# Counted samples: no calls; timed ones (hprof-time) are a sampled
	# method trace, their calls estimated and said so.
	run "$TRACETUI" report "$f"
	if printf '%s\n' "$out" | sed -n 1p | grep -q ': samples, total'; then
		ok "$(printf '%s\n' "$out" | sed -n 3p |
			grep -q '^Incl %  *Incl count  *Excl %  *Excl count  *Method$' &&
			echo 0 || echo 1)" "$name: report text: counts, no calls"
	else
		ok "$(printf '%s\n' "$out" | sed -n 2p |
			grep -q 'call counts are estimates' &&
			echo 0 || echo 1)" "$name: report text: calls said estimated"
	fi

	run "$TRACETUI" info "$f"
	ok "$([ $rc -eq 0 ] &&
		printf '%s\n' "$out" | grep -q '^format: *hprof text CPU' &&
		printf '%s\n' "$out" | grep -q '^times: *from the profile.s counts' &&
		! printf '%s\n' "$out" | grep -q 'byte records\|^start time' &&
		echo 0 || echo 1)" "$name: info says hprof, counts, no timestamps"

	sed 's/$/\r/' "$f" >"$tmp/crlf.txt"
	"$TRACETUI" report --format tsv "$tmp/crlf.txt" 2>/dev/null |
		tail -n +2 | rows >"$tmp/got-crlf"
	same "$tmp/expect" "$tmp/got-crlf" \
		"$name: the same rows with CRLF line ends"

	# The first 64 prefixes, then every 29th: the fuzz target's
	# invariants hold on each, all in one process (tests/fuzz-replay);
	# report loads (0) or refuses (3) each, nothing else (make check:
	# every 464th prefix).
	replay_cuts 64 29 "$f" "$name: the first 64 prefixes and every 29th"
	stride=1
	skip=64
	[ -n "$long" ] || { stride=16; skip=0; }
	size=$(wc -c <"$f")
	bad=
	n=0
	while [ "$n" -lt "$size" ]; do
		head -c "$n" "$f" >"$tmp/cut.txt"
		"$TRACETUI" report "$tmp/cut.txt" >/dev/null 2>&1
		rc=$?
		[ $rc -eq 0 ] || [ $rc -eq 3 ] || bad="$bad $n:$rc"
		n=$((n < skip ? n + 1 : n + 29 * stride))
	done
	ok "$([ -z "$bad" ] && echo 0 || echo 1)" \
		"$name: every cut-off prefix loads or is refused"
	[ -z "$bad" ] || echo "prefix:status $bad" | diag
done

# The warning for a trace the table names but the file never defines.
run "$TRACETUI" report "$srcdir/tests/fixtures/hprof-samples.txt"
ok "$(printf '%s\n' "$err" |
	grep -q 'offset [0-9]*: warning: trace 300008 is in the table but' &&
	echo 0 || echo 1)" "hprof-samples: a warning names the undefined trace"
# Samples have no time: counts in the text, never milliseconds.
ok "$(printf '%s\n' "$out" | sed -n 1p |
	grep -q ': samples, total 100 over 3 threads$' &&
	printf '%s\n' "$out" | sed -n 3p | grep -q 'Incl count' &&
	! printf '%s\n' "$out" | grep -q ' ms' &&
	printf '%s\n' "$out" | grep -Eq '^ *57\.0% +57 +42\.0% +42 .*App\.compute$' &&
	echo 0 || echo 1)" "hprof-samples: report counts samples (App.compute 57, 42 its own), no ms"
# tree: counts, and no calls column (an hprof profile has none).
run "$TRACETUI" tree "$srcdir/tests/fixtures/hprof-samples.txt"
ok "$(printf '%s\n' "$out" | sed -n 1p |
	grep -qx 'Incl %  Incl count  Excl count  Method' &&
	printf '%s\n' "$out" | grep -Eq '^ *57\.0% +57 +42 +com\.example\.App\.compute$' &&
	echo 0 || echo 1)" "hprof-samples: tree counts samples, no calls column"
"$TRACETUI" info "$srcdir/tests/fixtures/hprof-samples.txt" 2>/dev/null |
	grep -q '^ *tid  *events  *calls  *count  *cpu  *name$'
ok $? "hprof-samples: info's thread table counts, no 'wall us'"

# A profile without a CPU table holds nothing usable.
printf '%s\n' 'JAVA PROFILE 1.0.1, created today' '' \
	'THREAD START (obj=1, id = 1, name="main", group="main")' \
	'TRACE 1:' '	A.a(A.java:1)' >"$tmp/heap.txt"
run "$TRACETUI" report "$tmp/heap.txt"
ok "$([ $rc -eq 3 ] && [ -z "$out" ] &&
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] &&
	printf '%s\n' "$err" |
	grep -q "^tracetui: $tmp/heap.txt: offset [0-9]*: expected 'CPU" &&
	echo 0 || echo 1)" "no CPU table: exit 3, one line naming the offset"

# A table cut off before its END line: kept, with a warning.
sed '/^CPU SAMPLES END/d' "$srcdir/tests/fixtures/hprof-samples.txt" \
	>"$tmp/noend.txt"
run "$TRACETUI" info "$tmp/noend.txt"
ok "$([ $rc -eq 0 ] && printf '%s\n' "$err" | grep -q 'no END line' &&
	printf '%s\n' "$out" | grep -q '^complete: *no' &&
	echo 0 || echo 1)" "a table without END: loaded, incomplete, a warning"

dir=$SHARED_TRACES/hprof
if [ ! -d "$dir" ]; then
	ok 0 "real hprof profiles # SKIP no $dir"
	done_testing
	exit
fi

for f in "$dir"/*; do
	[ -f "$f" ] || continue
	# make check: one profile of each kind, CPU SAMPLES and CPU TIME.
	case $long${f##*/} in
	yes* | integer_factorising__java.hprof.txt | libinjection-Java__java.hprof.txt) ;;
	*) continue ;;
	esac
	name=${f##*/}
	failed=
	for cmd in report tree calls info folded dump; do
		"$TRACETUI" $cmd "$f" >/dev/null 2>"$tmp/e" ||
			failed="$failed $cmd"
	done
	ok "$([ -z "$failed" ] && echo 0 || echo 1)" \
		"$name: every command exits 0"
	[ -z "$failed" ] || echo "failed:$failed" | diag

	# The file's own numbers: total (in us of the wall field), rank 1,
	# and the top method(s) once rows are summed per method.
	awk '{ sub(/\r$/, "") }
	/^CPU (SAMPLES|TIME \(ms\)) BEGIN/ {
		on = 1
		time = ($2 == "TIME")
		unit = time ? 1000 : 1
		if (match($0, /total = [0-9]+/))
			total += substr($0, RSTART + 8, RLENGTH - 8) * unit
		next
	}
	/^CPU (SAMPLES|TIME \(ms\)) END/ { on = 0; next }
	on && $1 ~ /^[0-9]+$/ {
		w = time ? $2 : $4
		sub(/%/, "", w)
		if (rank1 == "") { rank1 = $6; rank1w = time ? "" : $4 }
		agg[$6] += w
	}
	END {
		printf "total\t%.0f\n", total
		printf "rank1\t%s\t%s\n", rank1, rank1w
		for (m in agg) if (agg[m] > max) max = agg[m]
		for (m in agg) if (agg[m] == max) printf "top\t%s\n", m
	}' "$f" >"$tmp/table"
	total=$(sed -n 's/^total\t//p' "$tmp/table")
	"$TRACETUI" report --sort excl --format tsv "$f" 2>/dev/null >"$tmp/tsv"
	sum=$(awk -F'\t' 'NR > 1 { s += $2 } END { printf "%.0f", s }' \
		"$tmp/tsv")
	ok "$([ "$sum" = "$total" ] && echo 0 || echo 1)" \
		"$name: exclusive times add up to the total ($sum = $total)"

	top=$(sed -n 2p "$tmp/tsv" | cut -f1)
	ok "$(grep -qxF "top	$top" "$tmp/table" && echo 0 || echo 1)" \
		"$name: report --sort excl's top method ($top) tops the table"
	rank1=$(sed -n 's/^rank1\t//p' "$tmp/table" | cut -f1)
	count=$(sed -n 's/^rank1\t//p' "$tmp/table" | cut -f2)
	[ "$rank1" = "$top" ] ||
		echo "rank 1 of the table is $rank1, whose method tops fewer" \
			"samples in all" | diag
	if [ -n "$count" ]; then
		excl=$(awk -F'\t' -v m="$rank1" '$1 == m { print $2 }' \
			"$tmp/tsv")
		what="rank 1 ($rank1, $count samples) is within its method's"
		ok "$([ -n "$excl" ] && [ "$excl" -ge "$count" ] &&
			echo 0 || echo 1)" "$name: $what exclusive time"
	fi
done

done_testing
