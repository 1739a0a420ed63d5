#!/bin/sh
# diff.sh: `tracetui diff` on the hand-made pair tests/fixtures/diff-base.spec
# and diff-new.spec, whose numbers the specs work out by hand; the rows
# expected below are the differences of those numbers, also by hand.
#
# - the TSV rows with every clock, thread, sort and --normalize;
# - every --fail-if function, unit and operator, holding and not; the
#   message naming both values; malformed expressions (exit 2, a caret
#   under the column);
# - a trace against itself changes nothing (fixtures and the real traces
#   in $SHARED_TRACES, skipped when absent: one of them in make check,
#   every one in check-long);
# - the text layout against tests/golden/diff/ (REGENERATE=1 rewrites).
. "${top_srcdir:-.}/tests/lib.sh"

srcdir=$(cd "${top_srcdir:-.}" && pwd)
TRACETUI=${TRACETUI:-${top_builddir:-.}/src/tracetui}
MKTRACE=${MKTRACE:-${top_builddir:-.}/tests/mktrace}
fixtures=$srcdir/tests/fixtures
golden=$srcdir/tests/golden/diff
[ -x "$TRACETUI" ] || skip_all "no $TRACETUI"
[ -x "$MKTRACE" ] || skip_all "no $MKTRACE"
LC_ALL=C
export LC_ALL

# Traces under short relative names, so outputs do not name $tmp.
cd "$tmp" || exit 1
for spec in diff-base diff-new v3-dual v3-wall; do
	"$MKTRACE" "$fixtures/$spec.spec" "$spec.trace" ||
		skip_all "mktrace failed on $spec.spec"
done
mv diff-base.trace base.trace
mv diff-new.trace new.trace

# expect_rows DESCRIPTION ARGS...: the rows (no header) of `diff ARGS`
# equal standard input.  One awk compares, and keeps both sides for a
# failure's diff.
expect_rows() {
	e_desc=$1
	shift
	"$TRACETUI" diff "$@" >"$tmp/out" 2>"$tmp/e"
	: >"$tmp/got"
	: >"$tmp/expect"
	if awk -v out="$tmp/out" -v got="$tmp/got" -v want="$tmp/expect" '
		FILENAME == out { if (FNR > 1) { g[++n] = $0; print >got }
			next }
		{ w[++m] = $0; print >want }
		END { if (n != m) exit 1
			for (i = 1; i <= n; i++) if (g[i] != w[i]) exit 1 }' \
		"$tmp/out" /dev/stdin; then
		ok 0 "$e_desc"
	else
		ok 1 "$e_desc"
		diff -u "$tmp/expect" "$tmp/got" | diag
		diag <"$tmp/e"
	fi
}

T='	'
GET='java.util.HashMap.get (Ljava/lang/Object;)Ljava/lang/Object;'

# All threads, thread-cpu.  BASE: App.main 100/40 (incl/excl), Foo.bar
# 40/30, HashMap.get 3 calls 40/40, Old.gone 10/10, total 120.  NEW:
# App.main 130/40, Foo.bar 60/40, HashMap.get 4 calls 50/50 (two ids, one
# slashed), New.added 20/20, total 150.  By |excl delta|, ties by name.
expect_rows "tsv rows, cpu clock: deltas, percent of BASE, new and gone" \
	--format tsv base.trace new.trace <<EOF
com.example.New.added ()V${T}new${T}0${T}1${T}1${T}0${T}20${T}20${T}new${T}0${T}20${T}20${T}new
com.example.Foo.bar (I)V${T}both${T}1${T}1${T}0${T}30${T}40${T}10${T}33.33${T}40${T}60${T}20${T}50.00
com.example.Old.gone ()V${T}gone${T}1${T}0${T}-1${T}10${T}0${T}-10${T}gone${T}10${T}0${T}-10${T}gone
$GET${T}both${T}3${T}4${T}1${T}40${T}50${T}10${T}25.00${T}40${T}50${T}10${T}25.00
com.example.App.main ()V${T}both${T}1${T}1${T}0${T}40${T}40${T}0${T}0.00${T}100${T}130${T}30${T}30.00
EOF

# Wall: App.main 200/80 -> 220/60, Foo.bar 80/60 -> 100/60, HashMap.get
# 80/80 -> 100/100, Old.gone 20/20 -> gone, New.added new 40/40.
expect_rows "tsv rows, wall clock" \
	--format tsv --clock wall base.trace new.trace <<EOF
com.example.New.added ()V${T}new${T}0${T}1${T}1${T}0${T}40${T}40${T}new${T}0${T}40${T}40${T}new
com.example.App.main ()V${T}both${T}1${T}1${T}0${T}80${T}60${T}-20${T}-25.00${T}200${T}220${T}20${T}10.00
com.example.Old.gone ()V${T}gone${T}1${T}0${T}-1${T}20${T}0${T}-20${T}gone${T}20${T}0${T}-20${T}gone
$GET${T}both${T}3${T}4${T}1${T}80${T}100${T}20${T}25.00${T}80${T}100${T}20${T}25.00
com.example.Foo.bar (I)V${T}both${T}1${T}1${T}0${T}60${T}60${T}0${T}0.00${T}80${T}100${T}20${T}25.00
EOF

# Thread main only (in both traces): HashMap.get 2 calls 20/20 -> 3
# calls 30/30; sorted by |incl delta|: 30, 20, 20, 10, 10.
expect_rows "--thread main applies to both; --sort incl" \
	--format tsv --thread main --sort incl base.trace new.trace <<EOF
com.example.App.main ()V${T}both${T}1${T}1${T}0${T}40${T}40${T}0${T}0.00${T}100${T}130${T}30${T}30.00
com.example.Foo.bar (I)V${T}both${T}1${T}1${T}0${T}30${T}40${T}10${T}33.33${T}40${T}60${T}20${T}50.00
com.example.New.added ()V${T}new${T}0${T}1${T}1${T}0${T}20${T}20${T}new${T}0${T}20${T}20${T}new
com.example.Old.gone ()V${T}gone${T}1${T}0${T}-1${T}10${T}0${T}-10${T}gone${T}10${T}0${T}-10${T}gone
$GET${T}both${T}2${T}3${T}1${T}20${T}30${T}10${T}50.00${T}20${T}30${T}10${T}50.00
EOF

printf '%s\n' "com.example.New.added ()V" "com.example.Old.gone ()V" \
	"$GET" "com.example.App.main ()V" "com.example.Foo.bar (I)V" \
	>"$tmp/expect"
"$TRACETUI" diff --format tsv --sort calls base.trace new.trace |
	awk -F'\t' 'NR > 1 { print $1 }' >"$tmp/got"
ok "$(cmp -s "$tmp/expect" "$tmp/got" && echo 0 || echo 1)" \
	"--sort calls: |calls delta| 1, 1, 1, 0, 0, ties by name"
printf '%s\n' "com.example.App.main ()V" "com.example.Foo.bar (I)V" \
	"com.example.New.added ()V" "com.example.Old.gone ()V" "$GET" \
	>"$tmp/expect"
"$TRACETUI" diff --format tsv --sort name base.trace new.trace |
	awk -F'\t' 'NR > 1 { print $1 }' >"$tmp/got"
ok "$(cmp -s "$tmp/expect" "$tmp/got" && echo 0 || echo 1)" "--sort name"
run "$TRACETUI" diff --format tsv --top 2 base.trace new.trace
ok "$([ $rc -eq 0 ] && [ "$(echo "$out" | wc -l)" -eq 3 ] && echo 0 ||
	echo 1)" "--top 2: a header and two rows"

# --normalize: shares of the totals 120 and 150.  App.main excl 40/120 =
# 33.3333% -> 40/150 = 26.6667% (-6.6667 points, -20% of its share);
# HashMap.get 40/120 -> 50/150: 33.3333% both, no change.
expect_rows "--normalize: shares, point deltas, relative change of shares" \
	--format csv --normalize base.trace new.trace <<EOF
com.example.New.added ()V,new,0,1,1,0.0000,13.3333,13.3333,new,0.0000,13.3333,13.3333,new
com.example.Old.gone ()V,gone,1,0,-1,8.3333,0.0000,-8.3333,gone,8.3333,0.0000,-8.3333,gone
com.example.App.main ()V,both,1,1,0,33.3333,26.6667,-6.6667,-20.00,83.3333,86.6667,3.3333,4.00
com.example.Foo.bar (I)V,both,1,1,0,25.0000,26.6667,1.6667,6.67,33.3333,40.0000,6.6667,20.00
$GET,both,3,4,1,33.3333,33.3333,0.0000,0.00,33.3333,33.3333,0.0000,0.00
EOF
run "$TRACETUI" diff --format csv --normalize base.trace new.trace
ok "$(echo "$out" | head -1 | grep -q \
	'^method,status,base_calls,new_calls,delta_calls,base_excl_share,' &&
	echo 0 || echo 1)" "--normalize: the share columns are named so"

if [ -n "$python" ]; then
	"$TRACETUI" diff --format json base.trace new.trace >"$tmp/j" 2>&1
	"$python" - "$tmp/j" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))
by = {r["method"]: r for r in rows}
new = by["com.example.New.added ()V"]
gone = by["com.example.Old.gone ()V"]
bar = by["com.example.Foo.bar (I)V"]
assert new["status"] == "new" and new["pct_excl"] is None, new
assert gone["status"] == "gone" and gone["delta_calls"] == -1, gone
assert bar["pct_incl"] == 50.0 and bar["delta_excl"] == 10, bar
EOF
	ok $? "--format json parses; new and gone have null percentages"
else
	ok 0 "--format json parses # SKIP no python3"
fi

# --fail-if: EXPR|OPTION|STATUS|MESSAGE (after "condition holds: EXPR: ").
# com.example.* sums App.main, Foo.bar, Old.gone and New.added: excl cpu
# 80 -> 100 (+25%).  Foo.bar incl wall 80 -> 100 (+20 us).  HashMap.get
# 3 -> 4 calls.  Totals: cpu 120 -> 150 (+25%), wall 240 -> 260 (+8.3%).
# Normalized, HashMap.get keeps its 33.33% share; App.main's goes from
# 33.33% to 26.67% (-20%), -6.6667 points of BASE's 120 us = -8 us.
conditions='excl_cpu(com.example.*) > +10%||1|base 0.080 ms, new 0.100 ms (+25.0%)
excl_cpu(com.example.*) > +30%||0|
excl_cpu(com.example.*) < -10%||0|
incl_cpu(com.example.App.main) > +29us||1|base 0.100 ms, new 0.130 ms (+0.030 ms)
incl_cpu(com.example.App.main) > +30us||0|
excl_wall(com.example.App.main) < -0.01ms||1|base 0.080 ms, new 0.060 ms (-0.020 ms)
excl_wall(com.example.App.main) < -20us||0|
incl_wall(com.example.Foo.bar) > +5ms||0|
incl_wall(com.example.Foo.bar) > +0.00001s||1|base 0.080 ms, new 0.100 ms (+0.020 ms)
incl_wall(com.example.Foo.bar) > 19||1|base 0.080 ms, new 0.100 ms (+0.020 ms)
incl_wall(com.example.Foo.bar) > +24%||1|base 0.080 ms, new 0.100 ms (+25.0%)
calls(java.util.HashMap.get) > +1000||0|
calls(java.util.HashMap.get) > 0||1|base 3 calls, new 4 calls (+1)
calls(java/util/HashMap.get) > +33%||1|base 3 calls, new 4 calls (+33.3%)
calls(com.example.Old.*) < -0||1|base 1 calls, new 0 calls (-1)
calls(com.example.Old.*) < -1||0|
total_cpu > +3%||1|base 0.120 ms, new 0.150 ms (+25.0%)
total_cpu < -3%||0|
total_wall > +10%||0|
total_wall() > +8%||1|base 0.240 ms, new 0.260 ms (+8.3%)
total_wall > +19us||1|base 0.240 ms, new 0.260 ms (+0.020 ms)
total_cpu > +3%|--normalize|1|base 0.120 ms, new 0.150 ms (+25.0%)
excl_cpu(com.example.New.*) > +1000%||1|base 0.000 ms, new 0.020 ms (+inf%)
excl_cpu(com.example.New.*) < -1000%||0|
excl_cpu(java.util.HashMap.get) > +1%||1|base 0.040 ms, new 0.050 ms (+25.0%)
excl_cpu(java.util.HashMap.get) > +1%|--normalize|0|
excl_cpu(com.example.App.main) < -10%||0|
excl_cpu(com.example.App.main) < -10%|--normalize|1|base 33.33% of total, new 26.67% of total (-20.0%)
excl_cpu(com.example.App.main) < -5us|--normalize|1|base 33.33% of total, new 26.67% of total (-0.008 ms)
excl_cpu(com.example.App.main) < -9us|--normalize|0|
  excl_cpu ( com.example.Foo.* )>+30%  ||1|base 0.030 ms, new 0.040 ms (+33.3%)'
old_ifs=$IFS
# make check: the conditions of each option in one run (every one that
# holds is printed, exit 1 when any does), each checked by its line;
# check-long: a run per condition, its exit status too.
if [ -z "$long" ]; then
	for g_opt in plain --normalize; do
		set --
		IFS='
'
		for line in $conditions; do
			IFS=$old_ifs
			rest=${line#*|}
			[ "${rest%%|*}" = "${g_opt#plain}" ] &&
				set -- "$@" --fail-if "${line%%|*}"
		done
		IFS=$old_ifs
		# shellcheck disable=SC2086
		"$TRACETUI" diff ${g_opt#plain} "$@" base.trace new.trace \
			>/dev/null 2>"$tmp/e$g_opt"
		g_rc=$?
		case $g_opt in
		plain) rc_plain=$g_rc ;;
		*) rc_normalize=$g_rc ;;
		esac
	done
fi
IFS='
'
for line in $conditions; do
	IFS=$old_ifs
	expr=${line%%|*}
	rest=${line#*|}
	opt=${rest%%|*}
	rest=${rest#*|}
	want=${rest%%|*}
	msg=${rest#*|}
	if [ -n "$long" ]; then
		# The option is one word or none.
		# shellcheck disable=SC2086
		"$TRACETUI" diff $opt --fail-if "$expr" base.trace new.trace \
			>/dev/null 2>"$tmp/e"
		rc=$?
		e=$tmp/e
	elif [ -n "$opt" ]; then
		rc=$rc_normalize want_rc=1 e=$tmp/e--normalize
	else
		rc=$rc_plain want_rc=1 e=$tmp/eplain
	fi
	[ -z "$long" ] || want_rc=$want
	# The message names the condition trimmed of blanks; both are read
	# by the shell (this runs for every condition).
	trimmed=$expr
	while :; do
		case $trimmed in
		" "*) trimmed=${trimmed# } ;;
		*" ") trimmed=${trimmed% } ;;
		*) break ;;
		esac
	done
	if [ "$want" -eq 1 ]; then
		line_ok=1
		while IFS= read -r e_line; do
			[ "$e_line" = "tracetui: diff: condition holds: $trimmed: $msg" ] &&
				line_ok=0
		done <"$e"
	elif [ -n "$long" ]; then
		line_ok=0
		[ -s "$e" ] && line_ok=1
	else
		line_ok=0
		while IFS= read -r e_line; do
			case $e_line in
			"tracetui: diff: condition holds: $trimmed: "*) line_ok=1 ;;
			esac
		done <"$e"
	fi
	# Tests and names by the shell alone: this runs for every condition.
	good=1
	[ $rc -eq "$want_rc" ] && [ "$line_ok" -eq 0 ] && good=0
	if [ -n "$long" ]; then
		ok "$good" "--fail-if '$expr'${opt:+ $opt}: exit $want"
	elif [ "$want" -eq 1 ]; then
		ok "$good" "--fail-if '$expr'${opt:+ $opt}: holds"
	else
		ok "$good" "--fail-if '$expr'${opt:+ $opt}: does not hold"
	fi
	[ "$good" -eq 0 ] || diag <"$e"
done
IFS=$old_ifs

# Several conditions: exit 1 when any holds, each one that holds printed.
run "$TRACETUI" diff --fail-if 'total_cpu > +50%' \
	--fail-if 'calls(java.util.HashMap.get) > 0' \
	--fail-if 'total_cpu > +10%' base.trace new.trace
ok "$([ $rc -eq 1 ] && [ "$(echo "$err" | grep -c 'condition holds')" -eq 2 ] &&
	echo 0 || echo 1)" "several --fail-if: two of three hold, both printed"
run "$TRACETUI" diff --format tsv --fail-if 'total_cpu > 0' base.trace new.trace
ok "$([ $rc -eq 1 ] && echo "$out" | head -1 | grep -q '^method' &&
	echo 0 || echo 1)" "--fail-if keeps the table on stdout"
run "$TRACETUI" diff --fail-if 'excl_cpu(no.such.*) > -1' base.trace new.trace
ok "$([ $rc -eq 1 ] && echo "$err" | grep -q "no method matches 'no.such.\*'" &&
	echo 0 || echo 1)" "--fail-if over no method: a warning, values zero"

# Malformed: EXPR|COLUMN.  Exit 2 before any trace is read (the traces
# named do not exist), a message naming the column, a caret under it.
malformed='excl_cpu(com.example.*) = 10%|25
excl_cpu(com.example.*) >= 10%|26
fooo(x) > 1|1
|1
excl_cpu x > 1|10
excl_cpu(x > 1|15
excl_cpu() > 1|10
calls(x) > 5ms|13
excl_cpu(x) > abc|15
excl_cpu(x) > 10parsecs|17
excl_cpu(x) > 1 0|17
total_cpu(x) > 1%|11
excl_cpu(x) > 10%%|18
excl_cpu(x) > |15
excl_cpu(x) > +|15
excl_cpu(x) > inf|15'
IFS='
'
for line in $malformed; do
	IFS=$old_ifs
	expr=${line%|*}
	col=${line##*|}
	"$TRACETUI" diff --fail-if 'total_cpu > 1%' --fail-if "$expr" \
		missing-base.trace missing-new.trace >"$tmp/o" 2>"$tmp/e"
	rc=$?
	# The message's three lines, read by the shell.
	m_1= m_2= caret=
	{
		IFS= read -r m_1
		IFS= read -r m_2
		IFS= read -r caret
	} <"$tmp/e"
	# col + 1 blanks then a caret, by the shell alone.
	want_caret=^
	c_i=0
	while [ $c_i -le "$col" ]; do
		want_caret=" $want_caret"
		c_i=$((c_i + 1))
	done
	m_ok=1
	case $m_1 in "tracetui: diff: --fail-if: column $col: "*)
		[ $rc -eq 2 ] && [ ! -s "$tmp/o" ] && [ "$m_2" = "  $expr" ] &&
			[ "$caret" = "$want_caret" ] && m_ok=0 ;;
	esac
	ok $m_ok "malformed '$expr': exit 2, column $col"
	[ $rc -eq 2 ] || diag <"$tmp/e"
done
IFS=$old_ifs

# Usage and input errors.
run "$TRACETUI" diff base.trace
ok "$([ $rc -eq 2 ] && echo 0 || echo 1)" "one trace is a usage error"
run "$TRACETUI" diff --sort percall base.trace new.trace
ok "$([ $rc -eq 2 ] && echo 0 || echo 1)" "unknown --sort is a usage error"
run "$TRACETUI" diff base.trace missing.trace
ok "$([ $rc -eq 3 ] &&
	echo "$err" | grep -q '^tracetui: missing.trace: offset 0: ' &&
	echo 0 || echo 1)" "an unreadable NEW: exit 3 naming it"
run "$TRACETUI" diff --thread worker base.trace v3-dual.trace
ok "$([ $rc -eq 2 ] && echo "$err" | grep -q "v3-dual.trace: no thread" &&
	echo 0 || echo 1)" "--thread missing from one trace: exit 2 naming it"
run "$TRACETUI" diff --clock cpu v3-dual.trace v3-wall.trace
ok "$([ $rc -eq 2 ] &&
	echo "$err" | grep -q "v3-wall.trace: the trace has no" &&
	echo 0 || echo 1)" "--clock one trace lacks: exit 2"
run "$TRACETUI" diff --format tsv v3-dual.trace v3-wall.trace
ok "$([ $rc -eq 0 ] && echo "$out" | awk -F'\t' 'NR > 1 && $8 != 0 { bad = 1 }
	END { exit bad }' && echo 0 || echo 1)" \
	"dual against wall-only: compared on wall, the same times"
run "$TRACETUI" diff --fail-if 'excl_cpu(*) > 1' v3-wall.trace v3-wall.trace
ok "$([ $rc -eq 2 ] && echo "$err" | grep -q "has no thread-cpu clock" &&
	echo 0 || echo 1)" "--fail-if on a clock the traces lack: exit 2"
run "$TRACETUI" diff --help
ok "$([ $rc -eq 0 ] && echo "$out" | grep -q '^Usage: tracetui diff ' &&
	echo "$out" | grep -q 'total_cpu or total_wall' &&
	echo "$out" | grep -q 'THRESHOLD' && echo 0 || echo 1)" \
	"diff --help documents the --fail-if grammar"

# A trace against itself: every delta 0, every percentage 0.00.
all_zero() {
	awk -F'\t' 'NR > 1 && ($2 != "both" || $5 != 0 || $8 != 0 ||
		$9 != "0.00" || $12 != 0 || $13 != "0.00") { bad = 1 }
		END { exit bad }'
}
self_diff() {
	# self_diff TRACE NAME
	for clock in cpu wall; do
		"$TRACETUI" diff --format tsv --clock $clock "$1" "$1" \
			>"$tmp/self" 2>/dev/null
		s_rc=$?
		[ $s_rc -eq 2 ] && continue # the trace lacks this clock
		s_ok=1
		[ $s_rc -eq 0 ] && all_zero <"$tmp/self" && s_ok=0
		ok $s_ok "$2 against itself ($clock): all zero"
	done
	"$TRACETUI" diff --fail-if 'total_cpu > 0' --fail-if 'total_wall > 0' \
		--fail-if 'excl_cpu(*) > +0%' --fail-if 'calls(*) < 0' \
		--normalize "$1" "$1" >/dev/null 2>&1
	s_rc=$?
	s_ok=1
	[ $s_rc -ne 1 ] && s_ok=0
	ok $s_ok "$2 against itself: no --fail-if holds"
}
# make check: a fixture of each pair and v3-dual, a small app's
# recording; check-long: every fixture here and every real trace.
self_diff base.trace diff-base
[ -z "$long" ] || self_diff new.trace diff-new
self_diff v3-dual.trace v3-dual
if [ -d "$SHARED_TRACES" ]; then
	for f in "$SHARED_TRACES"/*.trace; do
		[ -n "$long" ] || [ "${f##*/}" = Launcher__app.trace ] ||
			continue
		"$TRACETUI" report "$f" >/dev/null 2>&1 || continue
		self_diff "$f" "${f##*/}"
	done
	a=$SHARED_TRACES/game__mytrace.earlier-revision.trace
	b=$SHARED_TRACES/AppMethodOrder__oldVersion.trace
	if [ -z "$long" ]; then
		a=$SHARED_TRACES/Launcher__app.trace
		b=$SHARED_TRACES/perflib__exception.trace
	fi
	if [ -f "$a" ] && [ -f "$b" ]; then
		run "$TRACETUI" diff --format json --top 20 "$a" "$b"
		ok "$([ $rc -eq 0 ] && echo 0 || echo 1)" \
			"two unrelated real traces compare"
	fi
else
	ok 0 "real traces against themselves # SKIP no $SHARED_TRACES"
fi

# A sampled trace against an instrumented one: a warning, and the sampled
# side's header line says its numbers are estimates.  hprof profiles are
# sampled (a CPU TIME one has times; a CPU SAMPLES one counts samples,
# which no time compares with); the fixtures are instrumented.
run "$TRACETUI" diff base.trace "$fixtures/hprof-samples.txt"
case $err in
*"count different things (ms and count)"*)
	ok $((rc != 2)) "sample counts against times: refused (status $rc)" ;;
*) ok 1 "sample counts against times: refused: $err" ;;
esac
run "$TRACETUI" diff base.trace "$fixtures/hprof-time.txt"
case $err in
*"diff: warning: $fixtures/hprof-time.txt is sampled and base.trace instrumented"*)
	ok 0 "sampled against instrumented: warned" ;;
*) ok 1 "sampled against instrumented: warned: $err" ;;
esac
echo "$out" | grep -q '^new:  sampled .*: call counts are estimates'
ok $? "sampled against instrumented: the new side labelled sampled"
echo "$out" | grep -q '^base: sampled'
ok $((! $?)) "sampled against instrumented: the base side not labelled"
run "$TRACETUI" diff base.trace new.trace
case $err in
*sampled*) ok 1 "instrumented against instrumented: no warning: $err" ;;
*) ok 0 "instrumented against instrumented: no warning" ;;
esac
run "$TRACETUI" report "$fixtures/hprof-time.txt"
echo "$out" | sed -n 2p | grep -q '^sampled .*: call counts are estimates from the samples (stack changes), times are estimates to within the interval$'
ok $? "report: a sampled trace's text says its numbers are estimates"
run "$TRACETUI" report --format tsv "$fixtures/hprof-samples.txt"
echo "$out" | grep -q sampled
ok $((! $?)) "report --format tsv: the columns stay as they are"

# The text layout.
golden_check() {
	# golden_check NAME ARGS...
	g_name=$1
	shift
	{
		"$TRACETUI" diff "$@" 2>&1
		echo "=== exit $?"
	} >"$tmp/$g_name.txt"
	if [ -n "$REGENERATE" ]; then
		mkdir -p "$golden"
		cp "$tmp/$g_name.txt" "$golden/$g_name.txt"
		ok 0 "golden $g_name (regenerated)"
	elif cmp -s "$golden/$g_name.txt" "$tmp/$g_name.txt"; then
		ok 0 "golden $g_name"
	else
		ok 1 "golden $g_name"
		diff -u "$golden/$g_name.txt" "$tmp/$g_name.txt" | diag
	fi
}
golden_check text base.trace new.trace
golden_check text-normalize --normalize base.trace new.trace
golden_check text-incl-wall --sort incl --clock wall base.trace new.trace
golden_check text-fail-if --fail-if 'excl_cpu(com.example.*) > +10%' \
	--fail-if 'total_wall < -1%' --top 3 base.trace new.trace

done_testing
