#!/bin/sh
# hprof.sh: hprof text CPU profiles (PRODUCT.md 1, src/read/hprof.c).
#
# - The hand-written tests/fixtures/hprof-*.txt: their "# expect:" lines
#   are the `report --format tsv` rows worked out by hand, their
#   "# expect-folded:" lines the folded stacks; the same with CRLF line
#   ends (make check: hprof-samples only); every prefix of them loads or
#   is refused, never crashes (make check: every 928th in the shell).
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

# same_rows WHAT EXPECT GOT [HEADER]: GOT's lines (below its header line
# when HEADER is given) are EXPECT's, in any order, counted by one awk;
# report --format tsv rows are compared as 5 tab-separated cells.  The
# diff of the sorted lines a diagnostic when they differ.
same_rows() {
	awk -F'\t' -v OFS='\t' -v header="${4:-}" '
	{ file = (FILENAME == ARGV[1]) ? 1 : 2 }
	file == 2 && header != "" && FNR == 1 { next }
	{ if (header != "") $5 = $5; n[$0] += (file == 1 ? 1 : -1) }
	END { for (l in n) if (n[l]) exit 1 }' "$2" "$3"
	sr_rc=$?
	ok $sr_rc "$1"
	[ $sr_rc -eq 0 ] || {
		sort "$2" >"$tmp/sr.want"
		tail -n +$((${4:+1} + 1)) "$3" | sort >"$tmp/sr.got"
		diff -u "$tmp/sr.want" "$tmp/sr.got"
	} | diag
}

for f in "$srcdir"/tests/fixtures/hprof-*.txt; do
	name=${f##*/}
	name=${name%.txt}
	awk -v e="$tmp/expect" -v ef="$tmp/expect-folded" '
	BEGIN { printf "" >e; printf "" >ef }
	sub(/^# expect: /, "") { print >e }
	sub(/^# expect-folded: /, "") { print >ef }' "$f"
	ok "$([ -s "$tmp/expect" ] && [ -s "$tmp/expect-folded" ] &&
		echo 0 || echo 1)" "$name: has expect: and expect-folded: lines"

	"$TRACETUI" report --format tsv "$f" >"$tmp/got" 2>/dev/null
	same_rows "$name: report rows equal the expect: lines" \
		"$tmp/expect" "$tmp/got" header
	"$TRACETUI" folded "$f" >"$tmp/got-folded" 2>/dev/null
	same_rows "$name: folded stacks equal the expect-folded: lines" \
		"$tmp/expect-folded" "$tmp/got-folded"

	# Counted samples: no calls; timed ones (hprof-time) are a sampled
	# method trace, their calls estimated and said so.  Then info.  One
	# awk reads both outputs.
	"$TRACETUI" report "$f" >"$tmp/report" 2>/dev/null
	run "$TRACETUI" info "$f"
	printf '%s\n' "$out" >"$tmp/info"
	awk -v rc=$rc -v ok="$tmp/text-ok" '
	{ file = (FILENAME == ARGV[1]) ? 1 : 2 }
	file == 1 && FNR == 1 { counted = /: samples, total/ }
	file == 1 && FNR == 2 { estimated = /call counts are estimates/ }
	file == 1 && FNR == 3 {
		head = /^Incl %  *Incl count  *Excl %  *Excl count  *Method$/
	}
	file == 2 && /^format: *hprof text CPU/ { format = 1 }
	file == 2 && /^times: *from the profile.s counts/ { times = 1 }
	file == 2 && /byte records|^start time/ { stamps = 1 }
	END {
		print counted ? "counted" : "timed", \
			(counted ? head : estimated) ? 0 : 1 >ok
		exit !(rc == 0 && format && times && !stamps)
	}' "$tmp/report" "$tmp/info"
	info_rc=$?
	read -r kind text_rc <"$tmp/text-ok"
	if [ "$kind" = counted ]; then
		ok "$text_rc" "$name: report text: counts, no calls"
	else
		ok "$text_rc" "$name: report text: calls said estimated"
	fi
	ok $info_rc "$name: info says hprof, counts, no timestamps"

	# CRLF line ends (make check: on hprof-samples, the largest).
	case $long$name in
	yes* | hprof-samples)
		sed 's/$/\r/' "$f" >"$tmp/crlf.txt"
		"$TRACETUI" report --format tsv "$tmp/crlf.txt" \
			>"$tmp/got-crlf" 2>/dev/null
		same_rows "$name: the same rows with CRLF line ends" \
			"$tmp/expect" "$tmp/got-crlf" header ;;
	esac

	# The first 64 prefixes, then every 29th: the fuzz target's
	# invariants hold on each, all in one process (tests/fuzz-replay);
	# report loads (0) or refuses (3) each, nothing else (make check:
	# every 928th prefix).
	replay_cuts 64 29 "$f" "$name: the first 64 prefixes and every 29th"
	stride=1
	skip=64
	[ -n "$long" ] || { stride=32; skip=0; }
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

# awk_ok DESCRIPTION PROGRAM [FILE...]: ok when the awk PROGRAM exits 0
# (one process where a check's pipelines took several).
awk_ok() {
	a_what=$1
	shift
	awk "$@"
	ok $? "$a_what"
}

# The warning for a trace the table names but the file never defines.
samples=$srcdir/tests/fixtures/hprof-samples.txt
"$TRACETUI" report "$samples" >"$tmp/out" 2>"$tmp/err"
awk_ok "hprof-samples: a warning names the undefined trace" '
	/offset [0-9]*: warning: trace 300008 is in the table but/ { f = 1 }
	END { exit !f }' "$tmp/err"
# Samples have no time: counts in the text, never milliseconds.
awk_ok "hprof-samples: report counts samples (App.compute 57, 42 its own), no ms" '
	NR == 1 && /: samples, total 100 over 3 threads$/ { a = 1 }
	NR == 3 && /Incl count/ { b = 1 }
	/ ms/ { ms = 1 }
	/^ *57\.0% +57 +42\.0% +42 .*App\.compute$/ { c = 1 }
	END { exit !(a && b && c && !ms) }' "$tmp/out"
# tree: counts, and no calls column (an hprof profile has none).
"$TRACETUI" tree "$samples" >"$tmp/out" 2>/dev/null
awk_ok "hprof-samples: tree counts samples, no calls column" '
	NR == 1 && $0 == "Incl %  Incl count  Excl count  Method" { a = 1 }
	/^ *57\.0% +57 +42 +com\.example\.App\.compute$/ { b = 1 }
	END { exit !(a && b) }' "$tmp/out"
"$TRACETUI" info "$samples" 2>/dev/null |
	grep -q '^ *tid  *events  *calls  *count  *cpu  *name$'
ok $? "hprof-samples: info's thread table counts, no 'wall us'"

# A profile without a CPU table holds nothing usable.
printf '%s\n' 'JAVA PROFILE 1.0.1, created today' '' \
	'THREAD START (obj=1, id = 1, name="main", group="main")' \
	'TRACE 1:' '	A.a(A.java:1)' >"$tmp/heap.txt"
"$TRACETUI" report "$tmp/heap.txt" >"$tmp/out" 2>"$tmp/err"
rc=$?
awk_ok "no CPU table: exit 3, one line naming the offset" -v rc=$rc \
	-v want="tracetui: $tmp/heap.txt: offset " '
	{ file = (FILENAME == ARGV[1]) ? 1 : 2 }
	file == 1 { out = 1 }
	file == 2 { lines++ }
	file == 2 && index($0, want) == 1 &&
		substr($0, length(want) + 1) ~ /^[0-9]*: expected .CPU/ { f = 1 }
	END { exit !(rc == 3 && !out && lines == 1 && f) }' \
	"$tmp/out" "$tmp/err"

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
	# The report's numbers: the sum of the exclusive column, its top
	# method (the first row), and the exclusive time of rank 1's method.
	rank1=
	count=
	tops=
	while IFS='	' read -r t_what t_1 t_2; do
		case $t_what in
		total) total=$t_1 ;;
		rank1) rank1=$t_1 count=$t_2 ;;
		top) tops="$tops|$t_1|" ;;
		esac
	done <"$tmp/table"
	"$TRACETUI" report --sort excl --format tsv "$f" 2>/dev/null >"$tmp/tsv"
	awk -F'\t' -v m="$rank1" 'NR == 2 { top = $1 }
		NR > 1 { s += $2 } $1 == m { excl = $2 }
		END { printf "%.0f\t%s\t%s\n", s, top, excl }' "$tmp/tsv" \
		>"$tmp/sum"
	IFS='	' read -r sum top excl <"$tmp/sum"
	ok "$([ "$sum" = "$total" ] && echo 0 || echo 1)" \
		"$name: exclusive times add up to the total ($sum = $total)"

	case $tops in *"|$top|"*) top_rc=0 ;; *) top_rc=1 ;; esac
	ok $top_rc \
		"$name: report --sort excl's top method ($top) tops the table"
	[ "$rank1" = "$top" ] ||
		echo "rank 1 of the table is $rank1, whose method tops fewer" \
			"samples in all" | diag
	if [ -n "$count" ]; then
		what="rank 1 ($rank1, $count samples) is within its method's"
		ok "$([ -n "$excl" ] && [ "$excl" -ge "$count" ] &&
			echo 0 || echo 1)" "$name: $what exclusive time"
	fi
done

done_testing
