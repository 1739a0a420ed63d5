#!/bin/sh
# diff-runs.sh: `tracetui diff BASE... -- NEW...` on runs written here by
# tests/mktrace with chosen times, so every statistic is known:
#
# - five runs per side whose Foo.run times are 98..102 and 118..122 (a
#   20% change with 2% spread) and whose Bar.run times overlap: medians,
#   change, Hodges-Lehmann shift and interval, and p-values worked out
#   by hand in the comments below;
# - --fail-if trips on Foo (significant) and not on Bar, whose change
#   passes the threshold but is noise; the same condition on one run per
#   side trips;
# - --alpha, the warning when the runs are too few to reach it, the
#   usage errors of the run lists, 'A -- B' equal to 'A B';
# - eight runs per side drawn with a fixed seed, checked against a
#   brute-force reference written in awk (every subset of ranks
#   enumerated for the exact p-value and the interval), sharing no code
#   with src/util/stats.c;
# - the transforms (--drop, --merge, --focus, --group, --collapse-recursion)
#   applied to every run, numbers worked out from the runs' stacks and
#   equal to the two-trace form's on doubled runs;
# - one warning, however many runs, when sampled and instrumented runs
#   are compared.
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)

TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
LC_ALL=C
export LC_ALL
cd "$tmp" || exit 1

# mk NAME FOO BAR [OWN]: App.main calls Foo.run for FOO us then Bar.run
# for BAR us, on both clocks, and spends OWN (default 10) us of its own.
mk() {
	mk_end=$(($2 + $3 + ${4:-10}))
	# A here-document, not a pipe: no subshell for the spec.
	"$MKTRACE" - "$1.trace" <<SPEC || skip_all "mktrace failed"
vm art
thread 1 main
method 0x4 com.example.App main ()V App.java
method 0x8 com.example.Foo run ()V Foo.java
method 0xc com.example.Bar run ()V Bar.java
call 1 0x4 0 $mk_end {
call 1 0x8 0 $2
call 1 0xc $2 $(($2 + $3))
}
SPEC
}

mk b1 98 48
mk b2 99 50
mk b3 100 52
mk b4 101 54
mk b5 102 56
mk n1 118 50
mk n2 119 52
mk n3 120 54
mk n4 121 56
mk n5 122 58
BASE="b1.trace b2.trace b3.trace b4.trace b5.trace"
NEW="n1.trace n2.trace n3.trace n4.trace n5.trace"

# fields NAME...: f_NAME set to the value of column NAME in the row of
# method $row of the TSV in $out (empty when absent), all in one awk.
fields() {
	for f; do
		eval "f_$f="
	done
	eval "$(printf '%s\n' "$out" | awk -F'\t' -v row="$row" -v want="$*" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR > 1 && $1 == row {
			n = split(want, w, " ")
			for (k = 1; k <= n; k++)
				printf "f_%s=\"%s\"\n", w[k],
					(w[k] in c) ? $(c[w[k]]) : ""
		}')"
}

# first_column: the first column of the rows of the TSV in $out, each
# followed by a comma, in $col1.
first_column() {
	col1=$(printf '%s\n' "$out" | awk -F'\t' 'NR > 1 { printf "%s,", $1 }')
}

# verdict: $v 0 when the test just run held, else 1 (for ok, without a
# subshell).
verdict() {
	if [ $? -eq 0 ]; then v=0; else v=1; fi
}

# expect_fields DESCRIPTION NAME=VALUE...: the fields of $row in $out.
expect_fields() {
	ef_desc=$1
	shift
	ef_bad=
	# Every field asked for, in one awk: "NAME=VALUE" lines.
	ef_all=$(printf '%s\n' "$out" | awk -F'\t' -v row="$row" -v want="$*" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR > 1 && $1 == row {
			n = split(want, w, " ")
			for (k = 1; k <= n; k++) {
				sub(/=.*/, "", w[k])
				print w[k] "=" ((w[k] in c) ? $(c[w[k]]) : "")
			}
		}')
	for ef in "$@"; do
		ef_got=
		case "
$ef_all" in
		*"
${ef%%=*}="*)
			ef_got="
$ef_all"
			ef_got=${ef_got#*"
${ef%%=*}="}
			ef_got=${ef_got%%"
"*} ;;
		esac
		[ "$ef_got" = "${ef#*=}" ] ||
			ef_bad="$ef_bad ${ef%%=*}: got '$ef_got', want '${ef#*=}';"
	done
	if [ -z "$ef_bad" ]; then
		ok 0 "$ef_desc"
	else
		ok 1 "$ef_desc"
		echo "$ef_bad" | diag
	fi
}

# shellcheck disable=SC2086
run "$TRACETUI" diff --format tsv $BASE -- $NEW
ok "$rc" "five runs per side: exit 0"

# Foo.run: base 98..102, new 118..122, no ties: medians 100 and 120,
# +20%.  Every new run above every base run: U = 25, the exact
# two-sided p = 2 / C(10, 5) = 2/252 = 0.007937.  The 25 differences
# are 16..24, d occurring 5 - |d - 20| times: their median 20; for 5 and
# 5 runs the 0.05 critical count is 2 (P(U <= 2) = 4/252 <= 0.025 <
# 7/252), so the interval runs from the 3rd difference, 17, to the
# 23rd, 23.
row='com.example.Foo.run ()V'
expect_fields "Foo: medians, change, shift, interval, exact p" \
	base_runs=5 new_runs=5 base_excl=100 new_excl=120 delta_excl=20 \
	pct_excl=20.00 shift_excl=20 low_excl=17 high_excl=23 \
	p_excl=0.007937 significant_excl=true base_calls=1 p_calls=1.000000 \
	significant_calls=false

# Bar.run: base 48 50 52 54 56, new 50 52 54 56 58: medians 52 and 54,
# +3.85%.  Ties (50, 52, 54, 56 on both sides): midranks 1, 2.5, 4.5,
# 6.5, 8.5, 10; new's rank sum 2.5 + 4.5 + 6.5 + 8.5 + 10 = 32, U = 32 -
# 15 = 17.  Of the C(10, 5) = 252 ways to give NEW 5 of the midranks,
# 56 give a sum of 32 or more (an enumeration, as tests/unit-stats
# makes for every small sample): p = 112/252 = 0.444444 (the normal
# approximation said 0.397615).  Differences
# -6..10 by 2, k occurring 5 - |k - 2| / 2 times: median 2, interval
# [-4, 8].
row='com.example.Bar.run ()V'
expect_fields "Bar: ties, exact p over the midranks, not significant" \
	base_excl=52 new_excl=54 delta_excl=2 pct_excl=3.85 shift_excl=2 \
	low_excl=-4 high_excl=8 p_excl=0.444444 significant_excl=false

# App.main: excl 10 in every run: all tied, p = 1; incl 156..166 and
# 178..190 (Foo + Bar + 10) fully separated: 2/252 again.
row='com.example.App.main ()V'
expect_fields "App.main: equal runs give p 1; incl separated" \
	base_excl=10 new_excl=10 p_excl=1.000000 significant_excl=false \
	base_incl=162 new_incl=184 p_incl=0.007937 significant_incl=true

# The text table: ~ where not significant, the interval in ms.
# shellcheck disable=SC2086
run "$TRACETUI" diff $BASE -- $NEW
printf '%s\n' "$out" | grep -q '^ *0\.100 *0\.120 *+0\.020 *+20\.0% *+0\.017\.\.+0\.023 *0\.008 *0 *com\.example\.Foo\.run ()V$'
ok $? "text: Foo +20.0%, interval +0.017..+0.023 ms, p 0.008"
printf '%s\n' "$out" | grep -q '^ *0\.052 *0\.054 *+0\.002 *~ *-0\.004\.\.+0\.008 *0\.444 .*Bar\.run'
ok $? "text: Bar marked ~ (p 0.444)"
printf '%s\n' "$out" | head -1 | grep -q '^base: 5 runs, thread-cpu clock, median total 0\.162 ms: b1\.trace b2\.trace'
ok $? "text: the header names the runs and the median total"

# --fail-if over runs: Foo's +20% is significant, Bar's +3.8% is not.
# shellcheck disable=SC2086
run "$TRACETUI" diff --fail-if 'excl_cpu(*Foo*) > +10%' $BASE -- $NEW
[ $rc -eq 1 ] && case $err in
*"condition holds: excl_cpu(*Foo*) > +10%: base median 0.100 ms, new median 0.120 ms (+20.0%, p=0.0079)"*) ;;
*) false ;;
esac
verdict
ok $v "--fail-if trips on a significant change"
# shellcheck disable=SC2086
run "$TRACETUI" diff --fail-if 'excl_cpu(*Bar*) > +1%' $BASE -- $NEW
[ $rc -eq 0 ] && case $err in
*"not significant, not failing: excl_cpu(*Bar*) > +1%: "*"p=0.4444 >= 0.05"*) ;;
*) false ;;
esac
verdict
ok $v "--fail-if does not trip on noise, and says so"
run "$TRACETUI" diff --fail-if 'excl_cpu(*Bar*) > +1%' b3.trace n3.trace
[ $rc -eq 1 ]
ok $? "the same condition on one run per side trips (52 -> 54 us)"
# shellcheck disable=SC2086
run "$TRACETUI" diff --fail-if 'total_cpu > +10%' $BASE -- $NEW
[ $rc -eq 1 ] && case $err in
*'total_cpu > +10%: base median 0.162 ms, new median 0.184 ms (+13.6%'*) ;;
*) false ;;
esac
verdict
ok $v "--fail-if total_cpu: medians of the run totals"
# shellcheck disable=SC2086
run "$TRACETUI" diff --alpha 0.005 --fail-if 'excl_cpu(*Foo*) > +10%' \
	--format tsv $BASE -- $NEW
row='com.example.Foo.run ()V'
fields significant_excl
[ $rc -eq 0 ] && [ "$f_significant_excl" = false ]
ok $? "--alpha 0.005: p 0.0079 is no longer significant"

# Three runs per side cannot reach 0.05: the best p is 2/20 = 0.1.
run "$TRACETUI" diff --format tsv b1.trace b2.trace b3.trace -- \
	n1.trace n2.trace n3.trace
row='com.example.Foo.run ()V'
fields p_excl significant_excl low_excl
[ $rc -eq 0 ] && [ "$f_p_excl" = 0.100000 ] &&
	[ "$f_significant_excl" = false ] && [ -z "$f_low_excl" ] &&
	case $err in
	*'warning: with 3 and 3 runs no p-value can be below 0.05'*) ;;
	*) false ;;
	esac
verdict
ok $v "3 and 3 runs: p 0.1, no interval, a warning"

# Ties with three runs a side: Foo 8, 8, 8 us against 7, 7, 7.  Of the
# C(6, 3) = 20 ways to share the midranks 2 2 2 5 5 5, one gives NEW the
# three 2s: p = 2/20 = 0.1, not significant, so --fail-if does not trip
# (the normal approximation said 0.0469 and tripped it), and the
# message says these ties allow no p below 0.1.
# Runs alike are one file named once a run (as 'A A -- B B' below).
mk t1 8 20
mk s1 7 20
row='com.example.Foo.run ()V'
run "$TRACETUI" diff --format tsv t1.trace t1.trace t1.trace -- \
	s1.trace s1.trace s1.trace
expect_fields "8,8,8 against 7,7,7: exact p 0.1" \
	base_excl=8 new_excl=7 p_excl=0.100000 significant_excl=false
run "$TRACETUI" diff --fail-if 'excl_wall(*Foo*) < -5%' t1.trace t1.trace \
	t1.trace -- s1.trace s1.trace s1.trace
[ $rc -eq 0 ] && case $err in
*'warning: with 3 and 3 runs no p-value can be below 0.05'*) ;;
*) false ;;
esac && case $err in
*'not significant, not failing: '*'p=0.1000 >= 0.05: with these runs and their ties no p-value can be below 0.1)'*) ;;
*) false ;;
esac
verdict
ok $v "8,8,8 against 7,7,7: --fail-if does not trip (exit $rc)"
# Ties that forbid what the run counts allow: four runs a side reach
# 2/70 = 0.029 without ties, so the run counts' warning stays silent,
# but Foo 1 1 5 5 against 5 5 5 5 shares the midranks 1.5 1.5 and 5.5
# (x6): NEW's four take m of the two 1.5s in C(2, m) C(6, 4 - m) ways of
# 70, 15 with m = 0 (the greatest sum, this one) and 15 with m = 2 (the
# least), so no p can be below 2 * 15/70 = 0.4286, and the condition's
# message says so.
mk z1 1 20
mk z3 5 20
run "$TRACETUI" diff --fail-if 'excl_wall(*Foo*) > +10%' z1.trace z1.trace \
	z3.trace z3.trace -- z3.trace z3.trace z3.trace z3.trace
[ $rc -eq 0 ] && case $err in
*'warning: with 4 and 4 runs'*) false ;;
esac && case $err in
*'not failing: '*'with these runs and their ties no p-value can be below 0.4286)'*) ;;
*) false ;;
esac
verdict
ok $v "1,1,5,5 against 5,5,5,5: the ties' least p is named"

# One run per side with '--' is the two-trace form.
"$TRACETUI" diff --format tsv b1.trace n1.trace >"$tmp/two" 2>&1
"$TRACETUI" diff --format tsv b1.trace -- n1.trace >"$tmp/dash" 2>&1
cmp -s "$tmp/two" "$tmp/dash"
ok $? "'A -- B' prints what 'A B' prints"

run "$TRACETUI" diff b1.trace b2.trace --
[ $rc -eq 2 ] && case $err in *"no trace after '--'"*) ;; *) false ;; esac
ok $? "nothing after '--': usage error"
run "$TRACETUI" diff b1.trace b2.trace n1.trace
[ $rc -eq 2 ] && case $err in
*'expected BASE NEW, or BASE... -- NEW...'*) ;;
*) false ;;
esac
ok $? "three traces without '--': usage error"
run "$TRACETUI" diff --alpha 1.5 b1.trace b2.trace -- n1.trace n2.trace
[ $rc -eq 2 ] && case $err in *'--alpha needs a level'*) ;; *) false ;; esac
ok $? "--alpha 1.5: usage error"
run "$TRACETUI" diff b1.trace -- n1.trace missing.trace
[ $rc -eq 3 ] && case $err in *missing.trace*) ;; *) false ;; esac
ok $? "a run that cannot be read: exit 3, named"

# --sort name and --top over runs.
# shellcheck disable=SC2086
run "$TRACETUI" diff --format tsv --sort name --top 2 $BASE -- $NEW
first_column
[ "$col1" = 'com.example.App.main ()V,com.example.Bar.run ()V,' ]
ok $? "--sort name --top 2 over runs"

# A NEW that is uniformly 10% slower: Foo 100 -> 110, Bar 50 -> 55, own
# time 10 -> 11, so every share is the same (100/160 = 110/176).  Five
# runs each, every run alike: without --normalize Foo's change is
# significant (all of NEW above all of BASE, tied within each side: of
# the 252 ways to give 5 of the midranks 3 3 3 3 3 8 8 8 8 8 to NEW,
# one gives it all the 8s: p = 2/252 = 0.007937, where the normal
# approximation said 0.003977); with it every share ties, p = 1.
mk u1 100 50 10
mk v1 110 55 11
U="u1.trace u1.trace u1.trace u1.trace u1.trace"
V="v1.trace v1.trace v1.trace v1.trace v1.trace"
row='com.example.Foo.run ()V'
# shellcheck disable=SC2086
run "$TRACETUI" diff --format tsv $U -- $V
expect_fields "uniformly slower: significant in time" \
	delta_excl=10 p_excl=0.007937 significant_excl=true
# shellcheck disable=SC2086
run "$TRACETUI" diff --format tsv --normalize $U -- $V
expect_fields "uniformly slower, --normalize: shares unchanged, p 1" \
	base_excl_share=62.5000 new_excl_share=62.5000 \
	delta_excl_share=0.0000 p_excl=1.000000 significant_excl=false

# Eight runs per side drawn with a fixed seed (the Park-Miller generator,
# exact in awk's doubles): Foo around 100 ms +-4% in BASE and 110 ms +-4%
# in NEW, Bar around 50 ms +-5% on both sides.  The awk reference below
# recomputes medians, the exact p-value, the shift and its 95% interval
# by enumerating all C(16, 8) = 12870 assignments of ranks.
awk 'BEGIN {
	s = 2026
	for (side = 0; side < 2; side++)
		for (i = 1; i <= 8; i++) {
			s = (s * 16807) % 2147483647
			foo = int((side ? 110000 : 100000) * (0.96 + 0.08 * s / 2147483647))
			s = (s * 16807) % 2147483647
			bar = int(50000 * (0.95 + 0.10 * s / 2147483647))
			print (side ? "g" : "f") i, foo, bar
		}
}' >runs.txt
while read -r name foo bar; do
	mk "$name" "$foo" "$bar"
done <runs.txt

# ref COLUMN: "median_x median_y p shift low high" for the values of
# COLUMN (2 Foo, 3 Bar) of runs.txt, f* against g*.
ref() {
	awk -v col="$1" '
	function median(a, n,   i, j, t) {
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	function num(v) { return v == int(v) ? sprintf("%d", v) : sprintf("%.1f", v) }
	# count[u]: subsets of 8 of the ranks 1..16 (the y side) whose U is u.
	function enumerate(next_rank, chosen, ranksum) {
		if (chosen == 8) { count[ranksum - 36]++; return }
		if (next_rank > 16 || 16 - next_rank + 1 < 8 - chosen) return
		enumerate(next_rank + 1, chosen + 1, ranksum + next_rank)
		enumerate(next_rank + 1, chosen, ranksum)
	}
	{ v = $col; if ($1 ~ /^f/) x[++nx] = v; else y[++ny] = v; all[v]++ }
	END {
		for (v in all) if (all[v] > 1) { print "ties"; exit }
		for (i = 1; i <= nx; i++) for (j = 1; j <= ny; j++) {
			if (y[j] > x[i]) u++
			d[++nd] = y[j] - x[i]
		}
		enumerate(1, 0, 0)
		total = 0
		for (k = 0; k <= 64; k++) total += count[k]
		lo = u < 64 - u ? u : 64 - u
		tail = 0
		for (k = 0; k <= lo; k++) tail += count[k]
		p = 2 * tail / total; if (p > 1) p = 1
		c = -1; cum = 0
		for (k = 0; k <= 64; k++) {
			cum += count[k]
			if (cum / total > 0.025) break
			c = k
		}
		for (i = 1; i <= nx; i++) xs[i] = x[i]
		for (i = 1; i <= ny; i++) ys[i] = y[i]
		mx = median(xs, nx); my = median(ys, ny)
		shift = median(d, nd)   # sorts d
		printf "%s %s %.6f %s %s %s\n", num(mx), num(my), p,
			num(shift), num(d[c + 1]), num(d[nd - c])
	}' runs.txt
}

G_BASE="f1.trace f2.trace f3.trace f4.trace f5.trace f6.trace f7.trace f8.trace"
G_NEW="g1.trace g2.trace g3.trace g4.trace g5.trace g6.trace g7.trace g8.trace"
# shellcheck disable=SC2086
run "$TRACETUI" diff --format tsv $G_BASE -- $G_NEW
for m in 2:com.example.Foo.run 3:com.example.Bar.run; do
	want=$(ref "${m%%:*}")
	row="${m#*:} ()V"
	fields base_excl new_excl p_excl shift_excl low_excl high_excl
	got="$f_base_excl $f_new_excl $f_p_excl $f_shift_excl $f_low_excl"
	got="$got $f_high_excl"
	if [ "$want" = "$got" ] && [ "$want" != ties ]; then
		ok 0 "8 runs, seed 2026, ${m#*:}: $got"
	else
		ok 1 "8 runs, seed 2026, ${m#*:}"
		echo "want $want, got $got" | diag
	fi
done
row='com.example.Foo.run ()V'
fields significant_excl
[ "$f_significant_excl" = true ]
ok $? "8 runs: Foo's 10% change is significant"

# Transforms apply to every run.  Dropping Bar takes its time out of
# App.main (incl = Foo + 10: medians 110 and 130); merging it gives it to
# App.main's own time (10 + Bar: medians 62 and 64); focusing on Foo
# keeps Foo alone; grouping by package sums each run (base 98..102 +
# 48..56 + 10: median 162, new 184).
row='com.example.App.main ()V'
# shellcheck disable=SC2086
run "$TRACETUI" diff --format tsv --drop 'Bar' $BASE -- $NEW
expect_fields "--drop Bar over runs: App.main loses Bar's time" \
	base_incl=110 new_incl=130 base_excl=10 new_excl=10
case $out in *Bar*) false ;; esac
ok $? "--drop Bar over runs: no Bar row"
# shellcheck disable=SC2086
run "$TRACETUI" diff --format tsv --merge 'Bar' $BASE -- $NEW
expect_fields "--merge Bar over runs: App.main takes Bar's time" \
	base_excl=62 new_excl=64 base_incl=162 new_incl=184
# shellcheck disable=SC2086
run "$TRACETUI" diff --format tsv --focus 'Foo' $BASE -- $NEW
first_column
[ "$col1" = 'com.example.Foo.run ()V,' ]
ok $? "--focus Foo over runs: Foo alone"
# shellcheck disable=SC2086
run "$TRACETUI" diff --format tsv --group package $BASE -- $NEW
row=com.example
expect_fields "--group package over runs: one row, each run's total" \
	base_excl=162 new_excl=184 significant_excl=true

# A recursion collapsed in every run: Foo.run calls itself once, so two
# calls become one.
mkrec() {
	printf '%s\n' 'vm art' 'thread 1 main' \
		'method 0x4 com.example.App main ()V App.java' \
		'method 0x8 com.example.Foo run ()V Foo.java' \
		"call 1 0x4 0 $(($2 + 10)) {" "call 1 0x8 0 $2 {" \
		"call 1 0x8 1 $(($2 - 1))" '}' '}' |
		"$MKTRACE" - "$1.trace" || skip_all "mktrace failed"
}
mkrec r1 100
mkrec r2 102
mkrec s1 120
mkrec s2 122
row='com.example.Foo.run ()V'
run "$TRACETUI" diff --format tsv r1.trace r2.trace -- s1.trace s2.trace
expect_fields "recursive runs: two calls of Foo.run each" \
	base_calls=2 new_calls=2 base_excl=101 new_excl=121
run "$TRACETUI" diff --format tsv --collapse-recursion \
	r1.trace r2.trace -- s1.trace s2.trace
expect_fields "--collapse-recursion over runs: one call each, same time" \
	base_calls=1 new_calls=1 base_excl=101 new_excl=121

# Each transform over doubled runs (A A -- B B) gives the medians the
# two-trace form (A B) gives.  make check: one transform and a chain of
# two; check-long: each transform.
set -- "--drop Bar" "--merge App --drop Foo"
[ -z "$long" ] || set -- "$@" "--merge Bar" "--focus Foo" "--group class" \
	"--collapse-recursion"
for tf; do
	# shellcheck disable=SC2086
	"$TRACETUI" diff --format tsv $tf b2.trace n4.trace 2>/dev/null |
		awk -F'\t' 'NR > 1 { print $1, $3, $4, $6, $7, $10, $11 }' |
		sort >"$tmp/single"
	# shellcheck disable=SC2086
	"$TRACETUI" diff --format tsv $tf b2.trace b2.trace -- \
		n4.trace n4.trace 2>/dev/null |
		awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR > 1 { print $1, $c["base_calls"], $c["new_calls"],
			$c["base_excl"], $c["new_excl"], $c["base_incl"],
			$c["new_incl"] }' | sort >"$tmp/runs"
	if [ -s "$tmp/single" ] && cmp -s "$tmp/single" "$tmp/runs"; then
		ok 0 "$tf: doubled runs give the two-trace numbers"
	else
		ok 1 "$tf: doubled runs give the two-trace numbers"
		diff "$tmp/single" "$tmp/runs" | diag
	fi
done

# Runs that count different things (times and sample counts): refused,
# naming the first run and the one that differs.
samples=$srcdir/tests/fixtures/hprof-samples.txt
run "$TRACETUI" diff --format tsv b1.trace b2.trace -- n1.trace "$samples"
case $rc:$err in
2:*"b1.trace and $samples count different things (ms and count)"*)
	ok 0 "runs of times and of sample counts: refused" ;;
*) ok 1 "runs of times and of sample counts: refused: $rc $err" ;;
esac

# Sampled and instrumented runs: their times do not compare, said once.
hprof=$srcdir/tests/fixtures/hprof-time.txt
run "$TRACETUI" diff --format tsv b1.trace b2.trace -- n1.trace \
	"$hprof" "$hprof"
# once TEXT: the warning "is sampled and" in $err exactly once.
once() {
	case $err in
	*'is sampled and'*'is sampled and'*) return 1 ;;
	*'is sampled and'*) return 0 ;;
	esac
	return 1
}
once && case $err in
*"diff: warning: $hprof is sampled and b1.trace instrumented: calls and times compare estimates with measurements"*) ;;
*) false ;;
esac
ok $? "sampled and instrumented runs: warned once"
run "$TRACETUI" diff --format tsv "$hprof" "$hprof" -- n1.trace n2.trace
once
ok $? "sampled base, instrumented new: warned once"
# shellcheck disable=SC2086
run "$TRACETUI" diff --format tsv $BASE -- $NEW
case $err in *sampled*) false ;; esac
ok $? "instrumented runs only: no sampling warning"
run "$TRACETUI" diff --format tsv "$hprof" "$hprof" -- "$hprof" "$hprof"
case $err in *'is sampled and'*) false ;; esac
ok $? "sampled runs only: no sampling warning"

done_testing
