#!/bin/sh
# numbers.sh: one set of numbers (PRODUCT.md section 2).  tests/numbers
# checks, in the library, that report's total, the profile, the call
# paths of tree, folded and the icicle agree to the microsecond and that
# every drill-down keeps its shares and self rows, on every real trace in
# ../shared/traces and on generated recursive traces (and that the lazy
# bottom-up tree expanded is the eager one, on those and every fixture);
# the commands' outputs are then checked against each other: report's total, the roots
# of `tree --format tsv` and the sum of `folded`, per clock, with and
# without --no-thread: in make check on the traces of distinct shape
# (recursion with unwinds, indirect recursion, a mismatched exit, frames
# open at the end, a real V1 trace), in check-long on every trace.
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
NUMBERS=${top_builddir:-.}/tests/numbers
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
[ -x "$NUMBERS" ] || skip_all "no $NUMBERS"

# Generated traces: deep, recursive, several threads, both clocks.
n=0
for gen in "threads=3 methods=80 records=30000 seed=11 maxdepth=48" \
	"threads=5 methods=40 records=20000 seed=12 maxdepth=64" \
	"threads=2 methods=120 records=40000 seed=13 maxdepth=24 unwind=20"; do
	n=$((n + 1))
	printf 'format v1\nversion 3\nclock dual\ngenerate %s\n' "$gen" \
		>"$tmp/gen$n.spec"
	"$MKTRACE" "$tmp/gen$n.spec" "$tmp/gen$n.trace" 2>"$tmp/err"
	ok $? "generated $n ($gen): written"
done

# Every fixture, for the library's checks only; some of them also with
# the generated ones, for the commands' checks below.
mkdir "$tmp/fixtures"
fixture_traces "$tmp/fixtures"
written=
for spec in recursion-direct recursion-indirect orphan-exits \
	mismatched-exit open-frames time-backwards unwind; do
	! [ -e "$tmp/fixtures/$spec.trace-failed" ]
	ok $? "$spec: written"
	[ -e "$tmp/fixtures/$spec.trace" ] &&
		written="$written $tmp/fixtures/$spec.trace"
done
# shellcheck disable=SC2086
[ -z "$written" ] || ln -s $written "$tmp"/

traces="$tmp/*.trace"
if [ -d "$SHARED_TRACES" ]; then
	for f in "$SHARED_TRACES"/*.trace; do
		is_fast_trace "$f" && traces="$traces $f"
	done
else
	echo "# no trace corpus at $SHARED_TRACES: generated traces only"
fi

# The library's numbers; its TAP lines are renumbered into ours.
# shellcheck disable=SC2086
"$NUMBERS" $traces "$tmp"/fixtures/*.trace >"$tmp/lib.tap"
lib_rc=$?
tap_merge "$tmp/lib.tap"
ok $lib_rc "tests/numbers exits 0"

# report_total <REPORT: $total, the microseconds of report's "total
# 12.345 ms" header (empty without one), read by the shell alone.
report_total() {
	total=
	IFS= read -r r_line || [ -n "$r_line" ] || return
	case $r_line in *" total "*" ms "*) ;; *) return ;; esac
	r_num=${r_line##* total }
	r_num=${r_num%% ms *}
	case $r_num in *.*) ;; *) return ;; esac
	r_num=${r_num%%.*}${r_num#*.}
	case $r_num in *[!0-9]*) return ;; esac
	while :; do
		case $r_num in 0?*) r_num=${r_num#0} ;; *) break ;; esac
	done
	total=${r_num:-0}
}

# The commands' checks: make check on the generated trace with
# recursion and unwinds, the fixtures of indirect recursion, a
# mismatched exit and frames open at the end, and a real V1 trace (the
# library checked every trace above); check-long on every trace.  tree
# and folded, with and without --no-thread, are summed in one awk.
# shellcheck disable=SC2086
for f in $traces; do
	name=${f##*/}
	[ -n "$long" ] || case $name in
	gen3.trace | recursion-indirect.trace | mismatched-exit.trace | \
		open-frames.trace | perflib__basic.trace) ;;
	*) continue ;;
	esac
	for clock in cpu wall; do
		"$TRACETUI" report --clock $clock "$f" >"$tmp/report" \
			2>/dev/null || continue
		report_total <"$tmp/report"
		# shellcheck disable=SC2046 # the sums, one a word
		set -- $({
			"$TRACETUI" tree --clock $clock --min-pct 0 --format tsv "$f"
			echo '#'
			"$TRACETUI" tree --no-thread --clock $clock --min-pct 0 \
				--format tsv "$f"
			echo '#'
			"$TRACETUI" folded --clock $clock "$f"
			echo '#'
			"$TRACETUI" folded --no-thread --clock $clock "$f"
		} 2>/dev/null | awk -F'\t' 'BEGIN { head = 1; part = 0 }
			/^#$/ { part++; head = 1; next }
			part < 2 { if (head) head = 0; else if ($5 == 0) s[part] += $2
				next }
			{ n = split($0, w, " "); s[part] += w[n] }
			END { printf "%d %d %d %d", s[0], s[1], s[2], s[3] }')
		for nt in "" --no-thread; do
			tree=$1 folded=$3
			[ "$tree" = "$total" ] && [ "$folded" = "$total" ]
			ok $? "$name, $clock${nt:+, $nt}: report $total = tree $tree = folded $folded"
			shift
		done
	done
done
done_testing
