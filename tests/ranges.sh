#!/bin/sh
# ranges.sh: --range at call boundaries of the real traces.  tests/range-sweep
# checks, in the library, what every command taking --range computes at
# the call boundaries of each trace in ../shared/traces (a sample of them;
# every one with TRACETUI_LONG): each thread's calls in the range listed
# under their callers, and report's total the tree's and folded's.  The
# commands then run at boundaries where a call still open at the end of
# the file starts inside another (the caller ends where the range starts)
# and, with TRACETUI_LONG, at boundaries spread over every trace: each
# exits 0, and report's total is the root of tree and the sum of folded.
# make check sweeps one trace of each family and runs the commands on
# two; check-long sweeps and runs them on every trace.
. "${top_srcdir:-.}/tests/lib.sh"

SWEEP=${top_builddir:-.}/tests/range-sweep
long=${TRACETUI_LONG:-}
[ "$long" = 0 ] && long=
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$SWEEP" ] || skip_all "no $SWEEP"
[ -d "$SHARED_TRACES" ] || skip_all "no trace corpus at $SHARED_TRACES"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The library's sweep; its TAP lines are renumbered into ours.  make
# check: a sample of the boundaries of one trace of each family
# (is_fast_trace); check-long: every boundary of every trace.
sample=--sample
[ -n "$long" ] && sample=
set --
for f in "$SHARED_TRACES"/*.trace; do
	is_fast_trace "$f" && set -- "$@" "$f"
done
# shellcheck disable=SC2086
"$SWEEP" $sample "$@" >"$tmp/lib.tap"
lib_rc=$?
tap_merge "$tmp/lib.tap"
ok $lib_rc "tests/range-sweep exits 0"

# report_total <REPORT: $total, the microseconds of report's "total
# 12.345 ms" header (empty without one).
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

# check_range FILE START END: every command taking --range on
# START..END microseconds exits 0, and their totals agree.
check_range() {
	c_f=$1
	c_r=$2us..$3us
	c_name="${1##*/} --range $c_r"
	c_bad=
	for c_cmd in report calls frames folded flamegraph "tree --min-pct 0" \
		"export --format html" "export --format dot"; do
		# shellcheck disable=SC2086
		# report's and folded's outputs are kept for their totals.
		"$TRACETUI" $c_cmd --range "$c_r" "$c_f" >"$tmp/out.${c_cmd%% *}" \
			2>"$tmp/err"
		c_st=$?
		[ $c_st -eq 0 ] || c_bad="$c_bad $c_cmd: $c_st;"
	done
	[ -z "$c_bad" ]
	ok $? "$c_name: every command exits 0${c_bad:+ (not:$c_bad)}"
	report_total <"$tmp/out.report"
	"$TRACETUI" tree --min-pct 0 --format tsv --range "$c_r" "$c_f" \
		>"$tmp/out.tree" 2>/dev/null
	# shellcheck disable=SC2046 # the sums, one a word
	set -- $(awk -F'\t' 'FILENAME ~ /tree$/ { if (FNR > 1 && $5 == 0) t += $2
			next }
		{ n = split($0, w, " "); f += w[n] }
		END { printf "%d %d", t, f }' "$tmp/out.tree" "$tmp/out.folded")
	c_tree=$1 c_folded=$2
	[ -n "$total" ] && [ "$c_tree" = "$total" ] &&
		[ "$c_folded" = "$total" ]
	ok $? "$c_name: report $total = tree $c_tree = folded $c_folded"
}

# The ranges of a trace: from the start of its last call still open at
# the end of the file inside another (depth > 0), for a microsecond and
# for a second; with TRACETUI_LONG, also from ten starts spread over it
# to the next boundary.  make check: a small app's recording and an
# exception's unwinding, one for a microsecond, the other for a second.
turn=0
for f in "$SHARED_TRACES"/*.trace; do
	if [ -z "$long" ]; then
		case ${f##*/} in
		Launcher__app.trace | perflib__exception.trace) ;;
		*) continue ;;
		esac
		turn=$((1 - turn))
	fi
	"$TRACETUI" calls --format tsv "$f" >"$tmp/calls" 2>/dev/null || continue
	awk -F'\t' -v long="$long" -v turn=$turn '
		NR > 1 { start[++n] = $3; end[n] = $3 + $4
			if ($6 > 0 && $7 ~ /open/) open = n }
		END {
			if (open) {
				if (long || turn)
					print start[open], start[open] + 1
				if (long || !turn)
					print start[open], start[open] + 1000000
			}
			if (!long) exit
			for (i = 1; i <= n; i += int(n / 10) + 1)
				print start[i], (end[i] > start[i] ? end[i] : start[i] + 1)
		}' "$tmp/calls" >"$tmp/ranges"
	while read -r a b; do
		check_range "$f" "$a" "$b"
	done <"$tmp/ranges"
done
done_testing
